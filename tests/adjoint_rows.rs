//! Rows of active values (`Vec<Vec<f64>>`) made in a body, as users build matrices:
//! nested `collect`, rows pushed in a loop, products (`matmul`); the factor a matrix
//! transform returns (`cholesky_corr_constrain(.., &mut lp)`) and densities taking rows
//! are in the LKJ model of `tests/bayes_macro.rs`. Each `_grad` must be adjoint code
//! (naming the hidden `__name_adjoint` fails to compile otherwise) and agree with finite
//! differences and the tape; `_hessian` with finite differences of `_grad`.
//!
//! Also: data rows read beside active values in `_hessian`'s code, and a taped call whose
//! value is only tested (inactive) inside a loop with nothing to differentiate; its
//! gradient was kept on the stack and popped by another call's reverse (the fuzzer's
//! seed 7: a wrong gradient).

mod body_support;
use body_support::{assert_close, fd_grad};
use fazang::prelude::*;

use body_support::check_grad_hessian as check;

/// A scaled design matrix built with a nested `collect`, then read row by row.
#[differentiate]
fn scaled_rows(x: &[f64]) -> f64 {
    let design = [[1.0, 0.5, -0.2], [0.3, -1.0, 0.8], [2.0, 0.1, 0.4]];
    let m: Vec<Vec<f64>> = design
        .iter()
        .map(|row| row.iter().zip(x).map(|(a, b)| a * b).collect())
        .collect();
    let mut s = 0.0;
    for r in &m {
        s += r.iter().map(|v| v.sin()).sum::<f64>();
    }
    s + m[1][2] * m[2][0]
}

/// Rows pushed one by one in a loop, each a `collect` of its own.
#[differentiate]
fn pushed_rows(x: &[f64]) -> f64 {
    let mut rows = Vec::new();
    for i in 0..3 {
        let row: Vec<f64> = x.iter().map(|v| (v * (i as f64 + 1.0)).tanh()).collect();
        rows.push(row);
    }
    let trace: f64 = (0..3).map(|i| rows[i][i]).sum();
    trace * rows[2].iter().map(|v| v * v).sum::<f64>()
}

/// A product of rows with itself: the product is one taped call inside the adjoint code.
#[differentiate]
fn gram(x: &[f64]) -> f64 {
    let a: Vec<Vec<f64>> = (0..3)
        .map(|i| x.iter().map(|v| v * (i as f64 - 0.5)).collect())
        .collect();
    let p = matmul(&a, &a);
    p.iter().map(|r| r.iter().sum::<f64>()).sum::<f64>() + p[1][0].exp()
}

#[test]
fn rows_collected_pushed_and_multiplied() {
    check!(
        scaled_rows,
        scaled_rows_grad,
        __scaled_rows_grad_tape,
        __scaled_rows_adjoint,
        scaled_rows_hessian,
        vec![0.3, -0.7, 0.5]
    );
    check!(
        pushed_rows,
        pushed_rows_grad,
        __pushed_rows_grad_tape,
        __pushed_rows_adjoint,
        pushed_rows_hessian,
        vec![0.3, -0.7, 0.5]
    );
    check!(
        gram,
        gram_grad,
        __gram_grad_tape,
        __gram_adjoint,
        gram_hessian,
        vec![0.3, -0.7, 0.5]
    );
}

/// A penalty computed by a differentiated helper (one taped call: it takes an active
/// slice).
#[differentiate]
fn penalty(w: &[f64], x: f64) -> f64 {
    w.iter().map(|v| v * v).sum::<f64>() * x
}

/// The same helper called in a loop only to check a value (inactive: no derivative flows
/// through it), after a call whose gradient is used.
#[differentiate]
fn checked_fit(w: &[f64]) -> f64 {
    let fit = 4.0 * penalty(w, w[0]);
    let mut worst = 0.0;
    for i in 1..w.len() {
        worst = penalty(w, w[i]).max(worst);
    }
    if worst > 1e12 {
        eprintln!("checked_fit: a penalty of {}", worst);
    }
    fit
}

#[test]
fn inactive_taped_calls_in_loops_keep_no_gradient() {
    let _adjoint_code = __checked_fit_adjoint;
    let w = vec![0.3, -0.2, 0.5, 1.5];
    let (v, g) = checked_fit_grad(&w);
    assert_eq!(v, checked_fit(&w));
    // fit = 4 |w|² w0: d/dw0 = 4 (|w|² + 2 w0²), d/dwi = 8 wi w0.
    let n2: f64 = w.iter().map(|v| v * v).sum();
    let want: Vec<f64> = (0..4)
        .map(|i| {
            if i == 0 {
                4.0 * (n2 + 2.0 * w[0] * w[0])
            } else {
                8.0 * w[i] * w[0]
            }
        })
        .collect();
    assert_close(&g, &want, 1e-12);
}

/// Rows of data as long as an active vector, one iterated beside it (the fuzzer's seed 1
/// after rows joined it: E0716 in `_hessian`'s code, which borrowed a row of a copy of
/// the rows' values that ended with its statement).
#[differentiate(wrt(x))]
fn weighted_by_row(x: &[f64], w: &[f64]) -> f64 {
    let rows: Vec<Vec<f64>> = (0..3).map(|i| x.iter().map(|_| w[i]).collect()).collect();
    let mut s = 0.0;
    for (a, b) in rows[2].iter().zip(x.iter()) {
        s += a * b.sin();
    }
    s
}

#[test]
fn data_rows_read_beside_active_values() {
    let _adjoint_code = __weighted_by_row_adjoint;
    let (x, w) = (vec![0.3, -0.7, 1.1], vec![0.5, 2.0, -1.5]);
    let f = |x: &[f64]| weighted_by_row(x, &w);
    let (v, g) = weighted_by_row_grad(&x, &w);
    assert_eq!(v, f(&x));
    let want: Vec<f64> = x.iter().map(|b| w[2] * b.cos()).collect();
    assert_close(&g, &want, 1e-12);
    let (_, _, h) = weighted_by_row_hessian(&x, &w);
    for (i, row) in h.iter().enumerate() {
        assert_close(
            row,
            &fd_grad(|x| weighted_by_row_grad(x, &w).1[i], &x),
            1e-6,
        );
    }
}
