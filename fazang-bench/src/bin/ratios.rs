//! Times every variant of every workload in one run and prints one table of ratios.
//!
//! `cargo run --release -p fazang-bench --bin ratios [-- [--quick] [WORKLOAD...]]`
//! (workloads: rosenbrock logistic normal two_param jacobian gp mat_multiply mat_cholesky
//! mat_trisolve mat_logdet mat_quad_form hessian_rosenbrock hessian_two_param; all by
//! default).

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    let only: Vec<String> = args.into_iter().filter(|a| !a.starts_with("--")).collect();
    // num-dual's second-order numbers for 100 inputs are 80 KB each, on the stack: the
    // default 8 MB main thread is not enough for the Rosenbrock Hessian.
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || fazang_bench::report::print(quick, &only))
        .expect("a thread for the benchmarks")
        .join()
        .expect("the benchmarks ran");
}
