//! Helpers shared by the `runtime_*` integration tests: independent derivatives by finite
//! differences, derivatives off the tape, and tolerant comparisons.
#![allow(dead_code)]

use fazang::prelude::*;

/// Derivative of `f` at `x` by a fourth-order central difference (Richardson on two
/// steps). Truncation error O(h⁴) with h = 1e-3·max(1, |x|), rounding about 1e-13/h: about
/// 1e-10 relative for smooth functions of moderate scale.
pub fn fd(f: impl Fn(f64) -> f64, x: f64) -> f64 {
    let h = 1e-3 * x.abs().max(1.0);
    let d1 = f(x + h) - f(x - h);
    let d2 = f(x + 2.0 * h) - f(x - 2.0 * h);
    (8.0 * d1 - d2) / (12.0 * h)
}

/// Gradient of `f` at `x` by [`fd`] along each coordinate.
pub fn fd_grad(f: impl Fn(&[f64]) -> f64, x: &[f64]) -> Vec<f64> {
    (0..x.len())
        .map(|i| {
            fd(
                |t| {
                    let mut y = x.to_vec();
                    y[i] = t;
                    f(&y)
                },
                x[i],
            )
        })
        .collect()
}

/// Value and derivative of a one-variable function recorded on the tape (in a nested
/// scope, so nothing stays behind).
pub fn tape_d1(f: impl Fn(Var) -> Var, x: f64) -> (f64, f64) {
    nested(|| {
        let v = Var::new(x);
        let y = f(v);
        y.grad();
        (y.val(), v.adj())
    })
}

/// Value and both partials of a two-variable function recorded on the tape.
pub fn tape_d2(f: impl Fn(Var, Var) -> Var, a: f64, b: f64) -> (f64, f64, f64) {
    nested(|| {
        let (va, vb) = (Var::new(a), Var::new(b));
        let y = f(va, vb);
        y.grad();
        (y.val(), va.adj(), vb.adj())
    })
}

#[path = "../support/close.rs"]
mod close;
// Not every test crate that includes this module uses both.
#[allow(unused_imports)]
pub use close::{assert_all_close, assert_close};

/// The message of a caught panic, whichever string type it carries.
pub fn panic_message(e: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = e.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = e.downcast_ref::<String>() {
        s.clone()
    } else {
        String::from("<non-string panic payload>")
    }
}
