//! Adjoint code through `match` and branch values: `match` on data (integers, enums,
//! tuples, ranges, guards) as a statement, as the result and as a `let` value, and
//! `let y = if .. { .. } else { .. }` with active values. Each `_grad` is compared with
//! the tape twin `__name_grad_tape` and with central differences.

#![allow(clippy::manual_is_multiple_of)] // `k % 2 == 0`, as most code still writes it

mod body_support;
use body_support::{assert_close, fd_grad};
use fazang::prelude::*;

#[derive(Clone, Copy, PartialEq, Debug)]
enum Loss {
    Squared,
    Absolute,
    Huber,
}

/// A loss chosen by an enum, summed over residuals; `match` as a statement.
#[differentiate(wrt(theta))]
fn total_loss(theta: &[f64], xs: &[f64], ys: &[f64], loss: Loss) -> f64 {
    let mut s = 0.0;
    for i in 0..xs.len() {
        let r = ys[i] - theta[0] - theta[1] * xs[i];
        match loss {
            Loss::Squared => s += r * r,
            Loss::Absolute => {
                s += r.abs();
            }
            Loss::Huber => {
                if r.abs() < 1.0 {
                    s += 0.5 * r * r;
                } else {
                    s += r.abs() - 0.5;
                }
            }
        }
    }
    s
}

#[test]
fn match_on_an_enum_inside_a_loop() {
    let xs = [0.0, 0.5, 1.0, 1.5, 2.0, 2.5];
    let ys = [0.2, 0.4, 1.7, 1.2, 4.5, 2.1]; // no residual at a kink (|r| = 1, r = 0)
    let theta = [0.1, 0.8];
    for loss in [Loss::Squared, Loss::Absolute, Loss::Huber] {
        let (v, g) = total_loss_grad(&theta, &xs, &ys, loss);
        let (vt, gt) = __total_loss_grad_tape(&theta, &xs, &ys, loss);
        assert_eq!(v, total_loss(&theta, &xs, &ys, loss), "{loss:?}");
        assert_eq!(v, vt, "{loss:?}");
        assert_close(&g, &gt, 1e-13);
        let fd = fd_grad(|t| total_loss(t, &xs, &ys, loss), &theta);
        assert_close(&g, &fd, 1e-7);
    }
}

/// A piecewise polynomial by `match` on the segment index, as the result; guards and
/// ranges.
#[differentiate]
fn piecewise(x: f64, k: usize) -> f64 {
    let t = x * x;
    match k {
        0 => t + 1.0,
        1 | 2 => 3.0 * t * x,
        _ if k % 2 == 0 && k < 10 => {
            let u = x.sin();
            u * t
        }
        3..=9 => x.exp() - t,
        _ => -x,
    }
}

#[test]
fn match_as_the_result() {
    for k in [0, 1, 2, 4, 5, 11, 12] {
        for x in [-0.7, 0.3, 1.4] {
            let (v, [g]) = piecewise_grad(x, k);
            let (vt, [gt]) = __piecewise_grad_tape(x, k);
            assert_eq!(v, piecewise(x, k));
            assert_eq!(v, vt);
            assert_close(&[g], &[gt], 1e-14);
            assert_close(&[g], &fd_grad(|z| piecewise(z[0], k), &[x]), 1e-7);
        }
    }
}

/// Branch values bound by `let`: an `if` with active arms, a `match` on a tuple, nested.
#[differentiate]
fn branch_values(x: f64, y: f64, i: usize, j: usize) -> f64 {
    let a = if x > y { x * y } else { y - x.powi(2) };
    let b = match (i % 2, j) {
        (0, 0) => a * 2.0,
        (0, _) => {
            let w = a.exp();
            w / (1.0 + w)
        }
        (_, 1..=3) => {
            if a > 0.0 {
                a.sqrt()
            } else {
                -a
            }
        }
        _ => y,
    };
    let mut total = a + b;
    for step in 0..3 {
        let c = if step == j { total * x } else { total + y };
        total = c.tanh() + b;
    }
    total
}

#[test]
fn branch_values_bound_by_let() {
    for (i, j) in [(0, 0), (0, 2), (1, 2), (1, 7), (3, 1)] {
        for (x, y) in [(0.9, 0.4), (0.2, 0.7), (-0.5, 1.3)] {
            let (v, g) = branch_values_grad(x, y, i, j);
            let (vt, gt) = __branch_values_grad_tape(x, y, i, j);
            assert_eq!(v, branch_values(x, y, i, j));
            assert_eq!(v, vt);
            assert_close(&g, &gt, 1e-13);
            let fd = fd_grad(|z| branch_values(z[0], z[1], i, j), &[x, y]);
            assert_close(&g, &fd, 1e-7);
        }
    }
}

/// An `else if` chain as the result.
#[differentiate]
fn smooth_step(x: f64, lo: f64) -> f64 {
    if x < lo {
        0.0
    } else if x < lo + 1.0 {
        let t = x - lo;
        t * t * (3.0 - 2.0 * t)
    } else {
        1.0
    }
}

#[test]
fn else_if_chain_as_the_result() {
    for (x, lo) in [(-0.5, 0.0), (0.3, 0.0), (0.7, 0.2), (2.5, 1.0)] {
        let (v, g) = smooth_step_grad(x, lo);
        let (vt, gt) = __smooth_step_grad_tape(x, lo);
        assert_eq!(v, smooth_step(x, lo));
        assert_eq!(v, vt);
        assert_close(&g, &gt, 1e-14);
        assert_close(&g, &fd_grad(|z| smooth_step(z[0], z[1]), &[x, lo]), 1e-7);
    }
}
