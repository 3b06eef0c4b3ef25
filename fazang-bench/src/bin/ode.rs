//! The gradient of an ODE model's log posterior (the SIR model of
//! `examples/ode_model.rs`) against the primal solve, and against central finite
//! differences of the primal: time and accuracy, for both solvers.
//!
//! `cargo run --release -p fazang-bench --bin ode`
//!
//! Accuracy is measured against a reference gradient: `_grad` at rtol = 1e-12, itself
//! checked here against central differences of the primal at rtol = 1e-13.

use fazang::prelude::*;
use fazang_bench::data::Rng;
use fazang_bench::report::fmt_time;
use fazang_bench::timer::median_times;
use fazang_bench_models::{
    sir_log_posterior, sir_log_posterior_grad, Sir, SIR_DAYS, SIR_SIGMA, SIR_Y0,
};
use std::hint::black_box;
use std::time::Duration;

/// The working tolerance of the timed solves.
const RTOL: f64 = 1e-8;

/// Central differences of `f` at `x` with relative step `h`.
fn central(f: impl Fn(&[f64]) -> f64, x: &[f64], h: f64) -> Vec<f64> {
    (0..x.len())
        .map(|j| {
            let step = h * x[j].abs().max(1.0);
            let (mut lo, mut hi) = (x.to_vec(), x.to_vec());
            lo[j] -= step;
            hi[j] += step;
            (f(&hi) - f(&lo)) / (2.0 * step)
        })
        .collect()
}

fn max_rel_err(a: &[f64], reference: &[f64]) -> f64 {
    let scale = reference.iter().fold(0.0_f64, |m, x| m.max(x.abs()));
    a.iter()
        .zip(reference)
        .fold(0.0, |m, (x, r)| m.max((x - r).abs() / scale))
}

fn main() {
    let truth = [0.6, 0.2];
    let clean = ode_rk45(
        &Sir,
        &SIR_Y0,
        0.0,
        &SIR_DAYS,
        &truth,
        OdeTol::new(1e-12, 1e-14, 100_000),
    )
    .expect("the true model solves");
    let mut rng = Rng::new(11);
    let observed: Vec<f64> = clean
        .iter()
        .map(|y| y[1] * (SIR_SIGMA * rng.normal()).exp())
        .collect();
    // A point away from the mode, where the gradient is not small.
    let x = [0.45_f64.ln(), 0.25_f64.ln()];

    println!("SIR log posterior, 2 parameters, 3 states, 20 output times, rtol = {RTOL:e}\n");
    println!("| solver | primal | _grad | _grad / primal | central FD (h = 1e-5) | FD / _grad | _grad error | FD error |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for (name, bdf) in [("ode_rk45", false), ("ode_bdf", true)] {
        let (_, reference) = sir_log_posterior_grad(&x, &observed, 1e-12, bdf).expect("reference");
        let tight = central(
            |x| sir_log_posterior(x, &observed, 1e-13, bdf).unwrap(),
            &x,
            1e-5,
        );
        assert!(
            max_rel_err(&tight, &reference) < 1e-6,
            "{name}: reference {reference:?} vs FD {tight:?}"
        );

        let primal = |x: &[f64]| sir_log_posterior(x, &observed, RTOL, bdf).unwrap();
        let (_, g) = sir_log_posterior_grad(&x, &observed, RTOL, bdf).unwrap();
        let fd = central(primal, &x, 1e-5);
        let mut run_primal = || primal(black_box(&x));
        let mut run_grad = || {
            let (v, g) = sir_log_posterior_grad(black_box(&x), &observed, RTOL, bdf).unwrap();
            v + g[0]
        };
        let mut run_fd = || central(primal, black_box(&x), 1e-5)[0];
        let t = median_times(
            &mut [&mut run_primal, &mut run_grad, &mut run_fd],
            21,
            Duration::from_millis(50),
        );
        println!(
            "| {name} | {} | {} | {:.2} | {} | {:.2} | {:.1e} | {:.1e} |",
            fmt_time(t[0]),
            fmt_time(t[1]),
            t[1] / t[0],
            fmt_time(t[2]),
            t[2] / t[1],
            max_rel_err(&g, &reference),
            max_rel_err(&fd, &reference),
        );
    }
    println!(
        "\nErrors: max |g - g_ref| / max |g_ref| over the gradient, g_ref = _grad at rtol 1e-12."
    );
}
