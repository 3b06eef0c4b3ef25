//! Helpers shared by the distribution tests (tests/dist_*.rs).
#![allow(dead_code)]

use fazang::prelude::*;

/// The same expression of `x` as a function of `&[Var]` (for gradients) and of `&[f64]`
/// (the primal, and finite differences).
#[macro_export]
macro_rules! both {
    (|$x:ident| $body:expr) => {
        (
            |$x: &[fazang::Var]| -> fazang::Var { $body },
            |$x: &[f64]| -> f64 { $body },
        )
    };
}

#[path = "../support/close.rs"]
mod close;
// Not every test crate that includes this module uses both.
#[allow(unused_imports)]
pub use close::{assert_all_close, assert_close};

/// Value and gradient by reverse mode, checked against the primal value.
#[track_caller]
pub fn value_and_grad(
    fv: impl Fn(&[Var]) -> Var,
    ff: impl Fn(&[f64]) -> f64,
    x: &[f64],
) -> (f64, Vec<f64>) {
    let (v, g) = gradient(fv, x);
    let p = ff(x);
    assert!(
        (v - p).abs() <= 1e-15 * p.abs().max(1.0),
        "the Var value {v:e} differs from the f64 value {p:e}"
    );
    (v, g)
}

/// Central finite differences of `f` at `x` (five-point stencil, step 1e-3·max(1, |xᵢ|)).
pub fn finite_diff(f: impl Fn(&[f64]) -> f64, x: &[f64]) -> Vec<f64> {
    (0..x.len())
        .map(|i| {
            let h = 1e-3 * x[i].abs().max(1.0);
            let at = |d: f64| {
                let mut y = x.to_vec();
                y[i] += d;
                f(&y)
            };
            (at(-2.0 * h) - 8.0 * at(-h) + 8.0 * at(h) - at(2.0 * h)) / (12.0 * h)
        })
        .collect()
}

/// The reverse-mode gradient agrees with finite differences.
#[track_caller]
pub fn check_fd(fv: impl Fn(&[Var]) -> Var, ff: impl Fn(&[f64]) -> f64 + Copy, x: &[f64]) {
    let (_, g) = value_and_grad(fv, ff, x);
    let fd = finite_diff(ff, x);
    assert_all_close(&g, &fd, 1e-7, "gradient vs finite differences");
}
