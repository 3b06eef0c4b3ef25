//! Which Hessian method for how many inputs: fazang's reverse-over-forward `hessian` and
//! forward-over-forward `hessian_forward::<L>` on one generic function of n inputs (a
//! dense Hessian: every input meets every other), n = 1..=16, medians of interleaved
//! samples. `cargo run --release -p fazang-bench --bin hessian_methods`

use fazang::prelude::*;
use fazang::{hessian, hessian_forward};
use fazang_bench::report::fmt_time;
use fazang_bench::timer::median_times;
use std::time::Duration;

/// A dense function: ln Σ exp(xᵢ xⱼ / n) + Σ sin xᵢ.
#[differentiate]
fn dense(x: &[f64]) -> f64 {
    let n = x.len() as f64;
    let mut terms = Vec::with_capacity(x.len() * x.len());
    for a in x {
        for b in x {
            terms.push(a * b / n);
        }
    }
    log_sum_exp(&terms) + x.iter().map(|v| v.sin()).sum::<f64>()
}

macro_rules! forward {
    ($l:literal, $x:expr) => {{
        let x = $x.clone();
        Box::new(move || hessian_forward::<$l, _>(dense, &x).2[0][0]) as Box<dyn FnMut() -> f64>
    }};
}

fn main() {
    println!(
        "| n | hessian (reverse-over-forward) | hessian_forward::<L>, L ≥ n | L | forward / \
         reverse | hessian_forward::<4> (n ≤ 4) |"
    );
    println!("|---:|---:|---:|---:|---:|---:|");
    for n in 1..=16usize {
        let x: Vec<f64> = (0..n).map(|i| 0.3 + 0.1 * i as f64).collect();
        let xr = x.clone();
        let mut rev: Box<dyn FnMut() -> f64> = Box::new(move || hessian(dense, &xr).2[0][0]);
        let (mut fwd, l) = match n {
            1 => (forward!(1, x), 1),
            2 => (forward!(2, x), 2),
            3 => (forward!(3, x), 3),
            4 => (forward!(4, x), 4),
            5..=6 => (forward!(6, x), 6),
            7..=8 => (forward!(8, x), 8),
            9..=12 => (forward!(12, x), 12),
            _ => (forward!(16, x), 16),
        };
        let mut four: Box<dyn FnMut() -> f64> = forward!(4, x);
        let mut runs: Vec<&mut dyn FnMut() -> f64> = vec![&mut *rev, &mut *fwd];
        if n <= 4 {
            runs.push(&mut *four);
        }
        let t = median_times(&mut runs, 11, Duration::from_millis(20));
        println!(
            "| {n} | {} | {} | {l} | {:.2} | {} |",
            fmt_time(t[0]),
            fmt_time(t[1]),
            t[1] / t[0],
            t.get(2).map_or("-".into(), |&t| fmt_time(t))
        );
    }
}
