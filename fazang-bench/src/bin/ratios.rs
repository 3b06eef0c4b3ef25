//! Times every variant of every workload in one run and prints the tables of ratios.
//!
//! `cargo run --release -p fazang-bench --bin ratios [-- [--quick] [--suite S].. [WORKLOAD..]]`
//!
//! Suites: `classic` (rosenbrock rosenbrock_loop logistic logistic_loop normal two_param
//! jacobian gp mat_multiply mat_cholesky mat_trisolve mat_logdet mat_quad_form
//! hessian_rosenbrock hessian_two_param), `nalgebra` (issue 20: mvn mvn_cholesky, nalgebra
//! inside `#[differentiate]` bodies), `gradients` (issue 18: logistic_chain
//! hier_normal mlp ar1 skew_gumbel rosenbrock_sum rosenbrock_for) and `second` (issue 21:
//! hessian_dense20 hvp_dense20 hessian_six hessian_ext_rosenbrock jacobian_bratu
//! jacobian_layer). Named workloads and suites add up; with neither, everything runs.
//! Under the LTO profile: `cargo run --profile bench-lto -p fazang-bench --bin ratios`;
//! fazang's sparse derivatives are in by default (`--no-default-features` leaves them out).

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut quick, mut suites, mut only) = (false, Vec::new(), Vec::new());
    while let Some(a) = args.next() {
        match a.as_str() {
            "--quick" => quick = true,
            "--suite" => suites.push(args.next().expect("--suite NAME")),
            _ if a.starts_with("--") => panic!("unknown option {a} (--quick, --suite NAME)"),
            _ => only.push(a),
        }
    }
    println!(
        "Profile: `{}`; load average at start: {}",
        profile(),
        load()
    );
    // num-dual's second-order numbers for 100 inputs are 80 KB each, on the stack: the
    // default 8 MB main thread is not enough for the Rosenbrock Hessian.
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || fazang_bench::report::print(quick, &suites, &only))
        .expect("a thread for the benchmarks")
        .join()
        .expect("the benchmarks ran");
    println!("\nLoad average at the end: {}", load());
}

/// The build profile, from the binary's directory (`target/<profile>/ratios`).
fn profile() -> String {
    std::env::current_exe()
        .ok()
        .and_then(|p| Some(p.parent()?.file_name()?.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "unknown".into())
}

/// The 1, 5 and 15 minute load averages (Linux), for the reader to judge the noise.
fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}
