//! Statement forms that used to send a body to the tape: an empty `else { }` or a `()`
//! arm beside statements, `match` on a literal, `Vec::with_capacity(x.len())` filled with
//! active values, and element writes into a local data array (`w[i] /= 2.0`) between the
//! reads of its old and new values. Each `_grad` must be adjoint code (naming the hidden
//! `__name_adjoint` fails to compile otherwise) and agree with finite differences and the
//! tape; `_hessian` with finite differences of `_grad`.
#![allow(clippy::needless_range_loop)]

mod body_support;
use body_support::{assert_close, fd_grad};
use fazang::prelude::*;

macro_rules! check {
    ($f:ident, $grad:ident, $tape:ident, $adj:ident, $hess:ident, $x:expr) => {{
        let _adjoint_code = $adj;
        let x: Vec<f64> = $x;
        let (v, g) = $grad(&x);
        assert_eq!(v, $f(&x), "value");
        assert_close(&g, &fd_grad(|x| $f(x), &x), 1e-7);
        let (vt, gt) = $tape(&x);
        assert_eq!(v, vt);
        assert_close(&g, &gt, 1e-12);
        let (_, hg, h) = $hess(&x);
        assert_close(&hg, &g, 1e-12);
        for (i, row) in h.iter().enumerate() {
            assert_close(row, &fd_grad(|x| $grad(x).1[i], &x), 1e-6);
        }
    }};
}

/// A damped update applied only when the state is above a threshold (the empty `else` is
/// the construct under test).
#[allow(clippy::needless_else)]
#[differentiate]
fn thresholded(x: &[f64]) -> f64 {
    let mut acc = x[0] * x[1];
    if acc > 0.0 {
        acc *= 0.5;
    } else {
    }
    if x.len() > 2 {
        acc += x[2].sin()
    } else {
        acc -= 1.0
    };
    acc * x[0]
}

/// A mode chosen by a constant, as generated or configured code has it.
#[differentiate]
fn by_mode(x: &[f64]) -> f64 {
    let mut s = x[0];
    match 2 {
        0 => {
            s += x[1];
        }
        _ => {
            let e = x[1].exp();
            s *= e;
        }
    }
    s
}

/// Scaled copies pushed into a vector with a capacity.
#[differentiate]
fn with_capacity(x: &[f64]) -> f64 {
    let mut w = Vec::with_capacity(x.len());
    for (i, v) in x.iter().enumerate() {
        w.push(v * (i as f64 + 1.0));
    }
    w.iter().map(|v| v.tanh()).sum::<f64>()
}

/// Weights in a data array halved and reset between reads: the reverse sweep must use
/// the weight each product read.
#[differentiate]
fn reweighted(x: &[f64]) -> f64 {
    let mut w = vec![1.0; x.len()];
    let mut s = 0.0;
    for i in 0..x.len() {
        s += w[i] * x[i] * x[i];
        w[i] /= 2.0;
        s += w[i] * x[i].exp();
        w[(i + 1) % x.len()] = i as f64 + 3.0;
        let mut scratch: [f64; 2] = [0.5; 2];
        let y = s * scratch[1];
        scratch[1] *= 4.0;
        s = y * scratch[1];
    }
    s
}

/// Weights picked by data indices through a `&i` pattern (the fuzzer's E0606: the
/// pattern's `&` was dropped on the borrowed item).
#[differentiate(wrt(x))]
fn picked(x: &[f64], idx: &[usize]) -> f64 {
    let mut s = 0.0;
    for &i in idx {
        s += x[i % x.len()] * (i as f64 + 0.5).ln();
    }
    s
}

#[test]
fn data_items_through_ref_patterns() {
    let _adjoint_code = __picked_adjoint;
    let (x, idx) = (vec![0.3, -0.2, 0.5], [4usize, 0, 2, 2]);
    let (v, g) = picked_grad(&x, &idx);
    assert_eq!(v, picked(&x, &idx));
    assert_close(&g, &fd_grad(|x| picked(x, &idx), &x), 1e-7);
    let want = [0.5f64.ln(), 4.5f64.ln(), 2.0 * 2.5f64.ln()];
    assert_close(&g, &want, 1e-12);
}

#[test]
fn unit_branches_and_constant_match() {
    check!(
        thresholded,
        thresholded_grad,
        __thresholded_grad_tape,
        __thresholded_adjoint,
        thresholded_hessian,
        vec![0.7, 0.4, -0.3]
    );
    check!(
        thresholded,
        thresholded_grad,
        __thresholded_grad_tape,
        __thresholded_adjoint,
        thresholded_hessian,
        vec![-0.7, 0.4]
    );
    check!(
        by_mode,
        by_mode_grad,
        __by_mode_grad_tape,
        __by_mode_adjoint,
        by_mode_hessian,
        vec![0.3, -0.2]
    );
}

#[test]
fn vectors_with_capacity_and_data_element_writes() {
    check!(
        with_capacity,
        with_capacity_grad,
        __with_capacity_grad_tape,
        __with_capacity_adjoint,
        with_capacity_hessian,
        vec![0.3, -0.2, 0.5]
    );
    check!(
        reweighted,
        reweighted_grad,
        __reweighted_grad_tape,
        __reweighted_adjoint,
        reweighted_hessian,
        vec![0.3, -0.2, 0.5, 0.1]
    );
}
