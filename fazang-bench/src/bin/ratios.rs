//! Times every variant of every workload in one run and prints one table of ratios.
//!
//! `cargo run --release -p fazang-bench --bin ratios [-- --quick]`

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    fazang_bench::report::print(quick);
}
