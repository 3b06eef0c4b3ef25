//! Second derivatives where a function saturates: `tanh` of a large argument (found by
//! the fuzzer: d/dx tanh was 1/cosh² x, whose derivative on a dual number is inf/inf once
//! cosh x overflows, so `_hessian` was NaN where the Hessian is finite). Checked against
//! finite differences of `_grad` and the closed form.

mod body_support;
use body_support::{assert_close, fd_grad};
use fazang::prelude::*;

/// A saturated `tanh` beside a smooth term.
#[differentiate]
fn saturated(x: &[f64]) -> f64 {
    let big: f64 = x.iter().map(|_| 1000.0).sum();
    (x[0] * x[1] - big).tanh() + x[0] * x[0] * x[1]
}

/// tanh at moderate and large arguments, in one body.
#[differentiate]
fn tanh_terms(x: &[f64]) -> f64 {
    x.iter()
        .enumerate()
        .map(|(i, v)| (v * (1.0 + 300.0 * i as f64)).tanh())
        .sum()
}

#[test]
fn hessians_where_tanh_saturates() {
    for x in [vec![0.5, 1.5], vec![-1.4, 0.5], vec![2.0, -3.0]] {
        let (_, g, h) = saturated_hessian(&x);
        // Closed form: the tanh term is flat to rounding (sech² of -2000 is 0).
        let want = [[2.0 * x[1], 2.0 * x[0]], [2.0 * x[0], 0.0]];
        for (row, w) in h.iter().zip(want) {
            assert_close(row, &w, 1e-12);
        }
        assert_close(&g, &[2.0 * x[0] * x[1], x[0] * x[0]], 1e-12);
        let (_, hv) = saturated_hvp(&x, &[1.0, 0.0]);
        assert_close(&hv, &want[0], 1e-12);
    }
    let x = [0.3, 0.7, -0.9, 1.2];
    let (_, _, h) = tanh_terms_hessian(&x);
    for (i, row) in h.iter().enumerate() {
        assert!(row.iter().all(|v| v.is_finite()), "row {i}: {row:?}");
        assert_close(row, &fd_grad(|x| tanh_terms_grad(x).1[i], &x), 1e-6);
    }
}
