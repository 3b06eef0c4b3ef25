//! The gradient of ODE models against the primal solve, and against central finite
//! differences of the primal: time and accuracy.
//!
//! - the SIR log posterior of `examples/ode_model.rs` (2 parameters, 3 states, 20 output
//!   times) with each solver;
//! - Robertson's stiff kinetics, Σ ln yᵢ(40) as a function of the 3 log rates, `ode_bdf`.
//!
//! `cargo run --release -p fazang-bench --bin ode`
//!
//! Accuracy is measured against a reference gradient: `_grad` at rtol = 1e-12, itself
//! checked here against central differences of the primal at rtol = 1e-13 (a benchmark
//! never times a wrong answer).

use fazang::prelude::*;
use fazang_bench::data::Rng;
use fazang_bench::report::fmt_time;
use fazang_bench::timer::median_times;
use fazang_bench_models::{
    robertson_log_y, robertson_log_y_grad, sir_log_posterior, sir_log_posterior_grad, Sir,
    SIR_DAYS, SIR_SIGMA, SIR_Y0,
};
use std::hint::black_box;
use std::time::Duration;

/// The working tolerance of the timed solves.
const RTOL: f64 = 1e-8;
/// The relative step of the finite differences.
const H: f64 = 1e-5;

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

/// A log density at the inputs and a relative tolerance.
type Primal<'a> = Box<dyn Fn(&[f64], f64) -> f64 + 'a>;
/// Its value and gradient (`_grad`).
type Grad<'a> = Box<dyn Fn(&[f64], f64) -> (f64, Vec<f64>) + 'a>;

/// One model: its log density and its `_grad`, at the point `x`.
struct Case<'a> {
    name: &'a str,
    x: Vec<f64>,
    primal: Primal<'a>,
    grad: Grad<'a>,
}

fn row(c: &Case) {
    let x = &c.x;
    let (_, reference) = (c.grad)(x, 1e-12);
    let tight = central(|x| (c.primal)(x, 1e-13), x, H);
    let check = max_rel_err(&tight, &reference);
    assert!(
        check < 1e-6,
        "{}: reference {reference:?}, FD {tight:?}",
        c.name
    );
    let primal = |x: &[f64]| (c.primal)(x, RTOL);
    let (_, g) = (c.grad)(x, RTOL);
    let fd = central(primal, x, H);
    let mut run_primal = || primal(black_box(x));
    let mut run_grad = || {
        let (v, g) = (c.grad)(black_box(x), RTOL);
        v + g[0]
    };
    let mut run_fd = || central(primal, black_box(x), H)[0];
    let t = median_times(
        &mut [&mut run_primal, &mut run_grad, &mut run_fd],
        21,
        Duration::from_millis(50),
    );
    println!(
        "| {} | {} | {} | {} | {:.2} | {} | {:.2} | {:.1e} | {:.1e} |",
        c.name,
        x.len(),
        fmt_time(t[0]),
        fmt_time(t[1]),
        t[1] / t[0],
        fmt_time(t[2]),
        t[2] / t[1],
        max_rel_err(&g, &reference),
        max_rel_err(&fd, &reference),
    );
}

fn main() {
    let truth = [0.6, 0.2];
    let tol = OdeTol::new(1e-12, 1e-14, 100_000);
    let clean = ode_rk45(&Sir, &SIR_Y0, 0.0, &SIR_DAYS, &truth, tol).expect("the model solves");
    let mut rng = Rng::new(11);
    let observed: Vec<f64> = clean
        .iter()
        .map(|y| y[1] * (SIR_SIGMA * rng.normal()).exp())
        .collect();
    let obs = &observed;
    // Points away from the optimum, where the gradient is not small.
    let sir_x = vec![0.45_f64.ln(), 0.25_f64.ln()];
    let sir = |bdf| {
        let primal = move |x: &[f64], rtol| sir_log_posterior(x, obs, rtol, bdf).unwrap();
        let grad = move |x: &[f64], rtol| sir_log_posterior_grad(x, obs, rtol, bdf).unwrap();
        (Box::new(primal), Box::new(grad))
    };
    let ((p1, g1), (p2, g2)) = (sir(false), sir(true));
    let cases = [
        Case {
            name: "SIR posterior, ode_rk45",
            x: sir_x.clone(),
            primal: p1,
            grad: g1,
        },
        Case {
            name: "SIR posterior, ode_bdf",
            x: sir_x,
            primal: p2,
            grad: g2,
        },
        Case {
            name: "Robertson Σ ln y(40), ode_bdf",
            x: [0.04_f64, 1e4, 3e7].iter().map(|k| k.ln()).collect(),
            primal: Box::new(|x, rtol| robertson_log_y(x, rtol).unwrap()),
            grad: Box::new(|x, rtol| robertson_log_y_grad(x, rtol).unwrap()),
        },
    ];
    println!("rtol = {RTOL:e}; central differences with relative step {H:e}\n");
    println!(
        "| model | inputs | primal | _grad | _grad / primal | central FD | FD / _grad | \
         _grad error | FD error |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for c in &cases {
        row(c);
    }
    println!(
        "\nErrors: max |g - g_ref| / max |g_ref|, g_ref = _grad at rtol 1e-12 (checked against \
         central differences at rtol 1e-13)."
    );
}
