//! Is the primal of a `#[differentiate]` function as fast as the unannotated function?
//! Times both side by side (interleaved medians) on the workloads' data and prints the
//! ratio annotated / plain; checks first that both return the same bits.
//!
//! `cargo run --release -p fazang-bench --bin primal`

use fazang_bench::data::Rng;
use fazang_bench::timer::median_times;
use fazang_bench_models as m;
use std::hint::black_box;
use std::time::Duration;

fn main() {
    let mut rng = Rng::new(7);
    let x = rng.vec(1000, -1.5, 1.5);
    let (rows, k) = (5000, 10);
    let beta = rng.vec(k, -0.5, 0.5);
    let xs = rng.vec(rows * k, -1.0, 1.0);
    let ys: Vec<f64> = (0..rows).map(|i| (i % 2) as f64).collect();
    let y = rng.vec(100_000, -3.0, 3.0);
    let pts: Vec<(f64, f64)> = (0..10_000)
        .map(|_| (rng.range(-1.0, 1.0), rng.range(0.5, 2.0)))
        .collect();

    type Pair<'a> = (
        &'a str,
        Box<dyn FnMut() -> f64 + 'a>,
        Box<dyn FnMut() -> f64 + 'a>,
    );
    let mut cases: Vec<Pair> = vec![
        (
            "rosenbrock",
            Box::new(|| m::rosenbrock(black_box(&x))),
            Box::new(|| m::plain::rosenbrock(black_box(&x))),
        ),
        (
            "logistic",
            Box::new(|| m::log_lik(black_box(&beta), &xs, &ys)),
            Box::new(|| m::plain::log_lik(black_box(&beta), &xs, &ys)),
        ),
        (
            "normal",
            Box::new(|| m::normal_ll(black_box(0.3), 1.2, &y)),
            Box::new(|| m::plain::normal_ll(black_box(0.3), 1.2, &y)),
        ),
        (
            "two_param (x10000)",
            Box::new(|| {
                pts.iter()
                    .map(|&(a, b)| m::normal_lp(black_box(a), b))
                    .sum()
            }),
            Box::new(|| {
                pts.iter()
                    .map(|&(a, b)| m::plain::normal_lp(black_box(a), b))
                    .sum()
            }),
        ),
    ];
    println!("| workload | plain | #[differentiate] primal | annotated / plain |");
    println!("|---|---:|---:|---:|");
    for (name, annotated, plain) in &mut cases {
        let (a, p) = (annotated(), plain());
        assert_eq!(a.to_bits(), p.to_bits(), "{name}: the primals differ");
        let t = median_times(
            &mut [&mut **plain, &mut **annotated],
            31,
            Duration::from_millis(20),
        );
        println!(
            "| {name} | {:.3} µs | {:.3} µs | {:.3} |",
            t[0] * 1e6,
            t[1] * 1e6,
            t[1] / t[0]
        );
    }
}
