//! The LKJ-prior hierarchical model (3 x 3 correlation, Stan's manual) as one
//! `#[differentiate]` log density: the cost of its gradient as adjoint code and on the
//! tape, each against the value's. `cargo run --profile bench-lto -p fazang-bench --bin lkj`.
//!
//! The gradients are checked against central differences of the value and against each
//! other before anything is timed.

use fazang::prelude::*;
use fazang_bench::data::Rng;
use fazang_bench::report::fmt_time;
use fazang_bench::timer::median_times;
use std::hint::black_box;
use std::time::Duration;

#[differentiate(wrt(p))]
fn lkj_model(p: &[f64], y: &[Vec<f64>]) -> Result<f64, DomainError> {
    let mut lp = 0.0;
    let l_corr = cholesky_corr_constrain(&p[0..3], 3, &mut lp);
    let tau: Vec<f64> = p[3..6]
        .iter()
        .map(|&t| lb_constrain(t, 0.0, &mut lp))
        .collect();
    let l: Vec<Vec<f64>> = (0..3)
        .map(|i| l_corr[i].iter().map(|&v| tau[i] * v).collect())
        .collect();
    lp += lkj_corr_cholesky_lpdf(&l_corr, 2.0)? + cauchy_lpdf(&tau, 0.0, 2.5)?;
    lp += multi_normal_cholesky_lpdf(y, &p[6..9], &l)?;
    Ok(lp)
}

fn main() {
    let mut rng = Rng::new(5);
    let n = 20;
    let y: Vec<Vec<f64>> = (0..n).map(|_| rng.vec(3, -2.0, 2.0)).collect();
    let p = rng.vec(9, -0.5, 0.5);

    let value = |p: &[f64]| lkj_model(p, &y).unwrap();
    let (_, g) = lkj_model_grad(&p, &y).unwrap();
    let (_, gt) = __lkj_model_grad_tape(&p, &y).unwrap();
    for j in 0..p.len() {
        let h = 1e-5;
        let (mut lo, mut hi) = (p.clone(), p.clone());
        lo[j] -= h;
        hi[j] += h;
        let fd = (value(&hi) - value(&lo)) / (2.0 * h);
        assert!(
            (g[j] - fd).abs() < 1e-6 * fd.abs().max(1.0),
            "{j}: {} vs {fd}",
            g[j]
        );
        assert!((g[j] - gt[j]).abs() < 1e-12 * g[j].abs().max(1.0));
    }

    // `LKJ_PROFILE=1`: only the adjoint code's gradient, in a loop, for a profiler.
    if std::env::var_os("LKJ_PROFILE").is_some() {
        let acc: f64 = (0..200_000)
            .map(|_| lkj_model_grad(black_box(&p), &y).unwrap().0)
            .sum();
        println!("{acc}");
        return;
    }
    let mut v = || value(black_box(&p));
    let mut ga = || lkj_model_grad(black_box(&p), &y).unwrap().0;
    let mut gt = || __lkj_model_grad_tape(black_box(&p), &y).unwrap().0;
    let t = median_times(
        &mut [&mut v, &mut ga, &mut gt],
        21,
        Duration::from_millis(50),
    );
    println!("LKJ-prior hierarchical model, 3 x 3 correlation, {n} observations");
    println!("{:<28} {:>10} {:>14}", "", "time", "ratio to value");
    for (i, name) in ["value (f64)", "_grad (adjoint code)", "_grad on the tape"]
        .iter()
        .enumerate()
    {
        println!("{name:<28} {:>10} {:>14.2}", fmt_time(t[i]), t[i] / t[0]);
    }
}
