//! Local arrays made anew in each iteration of a loop, in a shape that changes: filled by
//! `push` or `collect` (flat, and rows), or `vec![x; n - i]`. The reverse sweep shaped
//! their adjoint after the last iteration's array, emptied by the reverse of the pushes,
//! and panicked ("index out of bounds: the len is 0") in the previous iteration's reads
//! (found by the fuzzer, seed 20261127, body 620). Each `_grad` is adjoint code and is
//! checked against finite differences and the tape; `_hessian` against finite
//! differences of `_grad`.

mod body_support;
use body_support::check_grad_hessian as check;
use fazang::prelude::*;

/// Distances to the first point, pushed anew for each point.
#[differentiate]
fn pushed(x: &[f64]) -> f64 {
    let (x0, theta) = (x[0], &x[1..]);
    let mut acc = 0.0;
    for i in 0..theta.len() {
        let mut d = Vec::new();
        for v in theta {
            d.push(v - x0);
        }
        acc -= (d[i] * d[0]).tanh();
    }
    acc
}

/// The same collected.
#[differentiate]
fn collected(x: &[f64]) -> f64 {
    let (x0, theta) = (x[0], &x[1..]);
    let mut acc = 0.0;
    for i in 0..theta.len() {
        let d: Vec<f64> = theta.iter().map(|v| v - x0).collect();
        acc -= (d[i] * d[0]).tanh();
    }
    acc
}

/// Rows collected anew in each iteration.
#[differentiate]
fn rows(x: &[f64]) -> f64 {
    let (x0, theta) = (x[0], &x[1..]);
    let mut acc = 0.0;
    for i in 0..theta.len() {
        let m: Vec<Vec<f64>> = (0..2)
            .map(|k| theta.iter().map(|v| v - x0 * k as f64).collect())
            .collect();
        acc -= (m[0][i] * m[1][i]).tanh();
    }
    acc
}

/// A vector shorter in each iteration.
#[differentiate]
fn shrinking(x: &[f64]) -> f64 {
    let (x0, theta) = (x[0], &x[1..]);
    let mut acc = 0.0;
    for i in 0..theta.len() {
        let w = vec![x0 * x0; theta.len() - i];
        acc += w[theta.len() - i - 1] * theta[i];
    }
    acc
}

#[test]
fn arrays_made_anew_in_each_iteration() {
    let x = vec![-1.04, 0.56, -0.13, -1.4];
    check!(
        pushed,
        pushed_grad,
        __pushed_grad_tape,
        __pushed_adjoint,
        pushed_hessian,
        x.clone()
    );
    check!(
        collected,
        collected_grad,
        __collected_grad_tape,
        __collected_adjoint,
        collected_hessian,
        x.clone()
    );
    check!(
        rows,
        rows_grad,
        __rows_grad_tape,
        __rows_adjoint,
        rows_hessian,
        x.clone()
    );
    check!(
        shrinking,
        shrinking_grad,
        __shrinking_grad_tape,
        __shrinking_adjoint,
        shrinking_hessian,
        x.clone()
    );
    // Closed form of `shrinking`: Σ_i x0² θ_i.
    let (_, g) = shrinking_grad(&x);
    let s: f64 = x[1..].iter().sum();
    body_support::assert_close(&g, &[2.0 * x[0] * s, 1.0816, 1.0816, 1.0816], 1e-12);
}
