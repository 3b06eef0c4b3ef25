//! Adjoint code (issue 10): bodies in the subset get `_grad` as a forward and a reverse
//! sweep in plain `f64`; the hidden `__name_grad_tape` (generated only then) is the tape.
//! Both must agree to rounding, and with finite differences.
#![allow(clippy::needless_range_loop)]

mod body_support;
use body_support::{assert_close, fd_grad};
use fazang::prelude::*;

#[differentiate]
fn rosenbrock(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        let a = x[i + 1] - x[i] * x[i];
        let b = 1.0 - x[i];
        s += 100.0 * a * a + b * b;
    }
    s
}

#[test]
fn rosenbrock_plain_loop() {
    let x: Vec<f64> = (0..7).map(|i| 0.3 * i as f64 - 0.8).collect();
    let (v, g) = rosenbrock_grad(&x);
    let (vt, gt) = __rosenbrock_grad_tape(&x);
    assert_eq!(v, rosenbrock(&x));
    assert_eq!(v, vt);
    assert_close(&g, &gt, 1e-14);
    assert_close(&g, &fd_grad(rosenbrock, &x), 1e-8);
}

#[differentiate(wrt(beta))]
fn logistic(beta: &[f64], xs: &[f64], y: &[f64], d: usize) -> f64 {
    let n = y.len();
    let mut ll = 0.0;
    for r in 0..n {
        let mut eta = 0.0;
        for j in 0..d {
            eta += xs[r * d + j] * beta[j];
        }
        ll += y[r] * eta - eta.exp().ln_1p();
    }
    ll
}

#[test]
fn logistic_nested_loops() {
    let (n, d) = (20, 3);
    let xs: Vec<f64> = (0..n * d)
        .map(|i| ((i * 37) % 11) as f64 / 11.0 - 0.5)
        .collect();
    let y: Vec<f64> = (0..n).map(|i| (i % 2) as f64).collect();
    let beta = [0.3, -0.7, 1.1];
    let (v, g) = logistic_grad(&beta, &xs, &y, d);
    let (vt, gt) = __logistic_grad_tape(&beta, &xs, &y, d);
    assert_eq!(v, vt);
    assert_close(&g, &gt, 1e-13);
    assert_close(&g, &fd_grad(|b| logistic(b, &xs, &y, d), &beta), 1e-8);
}

#[differentiate]
fn normal_lp(mu: f64, sigma: f64) -> f64 {
    let y = 1.3;
    -0.5 * (2.0 * std::f64::consts::PI).ln() - sigma.ln() - 0.5 * ((y - mu) / sigma).powi(2)
}

#[test]
fn straight_line() {
    let (v, g) = normal_lp_grad(0.5, 1.2);
    let (vt, gt) = __normal_lp_grad_tape(0.5, 1.2);
    assert_eq!(v, vt);
    assert_close(&g, &gt, 1e-15);
}

#[differentiate]
fn branchy(x: f64, y: f64) -> f64 {
    let mut t = x * y;
    if t > 1.0 {
        return t.ln();
    }
    let mut k = 0;
    while t < 5.0 && k < 10 {
        t *= 1.5 + y;
        k += 1;
    }
    t /= x;
    if x > 0.0 {
        t.sqrt().max(y)
    } else {
        t.abs().clamp(0.5, 2.0 * y)
    }
}

#[test]
fn branches_while_and_early_return() {
    for (x, y) in [(2.0, 0.9), (0.3, 0.4), (-0.4, 0.7), (0.5, 0.05), (0.2, 1.3)] {
        let (v, g) = branchy_grad(x, y);
        let (vt, gt) = __branchy_grad_tape(x, y);
        assert_eq!(v, branchy(x, y));
        assert_eq!(v, vt);
        assert_close(&g, &gt, 1e-13);
    }
}

#[differentiate(wrt(x))]
fn local_arrays(x: &[f64], h: f64) -> f64 {
    let mut u = [1.0, 0.0];
    let mut w = vec![0.0; x.len()];
    for i in 0..x.len() {
        w[i] = x[i].sin() * u[0];
        u[0] += h * x[i];
        u[1] = u[1] * 0.5 + w[i] * u[0];
    }
    let mut s = 0.0;
    for (i, v) in w.iter().enumerate() {
        s += v * (i as f64 + 1.0);
    }
    s + u[1].atan2(u[0])
}

#[test]
fn local_arrays_and_element_writes() {
    let x = [0.3, 1.2, -0.7, 0.4];
    let (v, g) = local_arrays_grad(&x, 0.1);
    let (vt, gt) = __local_arrays_grad_tape(&x, 0.1);
    assert_eq!(v, vt);
    assert_close(&g, &gt, 1e-13);
    assert_close(&g, &fd_grad(|x| local_arrays(x, 0.1), &x), 1e-8);
}

#[differentiate]
fn sq(v: f64) -> f64 {
    v * v
}

#[differentiate(wrt(mu, sigma))]
fn with_calls(mu: f64, sigma: f64, y: &[f64]) -> Result<f64, DomainError> {
    let lp = normal_lpdf(y, mu, sigma)?;
    let prior = sq(mu) + dot_product(y, y) * sigma;
    Ok(lp - prior)
}

#[test]
fn calls_differentiated_on_the_tape_in_reverse() {
    let y = [0.3, 1.9, 2.4];
    let (v, g) = with_calls_grad(1.0, 2.0, &y).unwrap();
    let (vt, gt) = __with_calls_grad_tape(1.0, 2.0, &y).unwrap();
    assert_eq!(v, vt);
    assert_close(&g, &gt, 1e-13);
    assert!(with_calls_grad(1.0, -2.0, &y).is_err());
}

#[differentiate(wrt(beta, scale))]
fn regression(beta: &[f64], scale: f64, xs: &[f64], ys: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..ys.len() {
        let r = ys[i] - beta[0] - beta[1] * xs[i];
        s += r * r;
    }
    -0.5 * s / (scale * scale) - ys.len() as f64 * scale.ln()
}

#[test]
fn grad_into_writes_the_flat_gradient() {
    let (xs, ys) = ([0.0, 1.0, 2.0], [0.1, 1.1, 1.9]);
    let mut g = [0.0; 3];
    let v = regression_grad_into(&[0.2, 0.8], 0.5, &xs, &ys, &mut g);
    let (w, (gb, gs)) = regression_grad(&[0.2, 0.8], 0.5, &xs, &ys);
    assert_eq!(v, w);
    assert_close(&g, &[gb[0], gb[1], gs], 1e-14);
}

/// Called on the tape (the runtime driver, another function's tape twin), a function
/// whose `_grad` is adjoint code and whose body loops records one node with the partials
/// that code computes.
#[test]
fn on_the_tape_a_looping_function_records_one_node() {
    let x: Vec<f64> = (0..50).map(|i| 0.05 * i as f64 - 1.0).collect();
    let (v, g) = gradient(rosenbrock::<Var>, &x);
    let (vt, gt) = __rosenbrock_grad_tape(&x);
    assert_eq!(v, vt);
    assert_close(&g, &gt, 1e-13);
    let nodes = nested(|| {
        let xs: Vec<Var> = x.iter().map(|&v| Var::new(v)).collect();
        let before = tape_stats();
        let _ = rosenbrock(&xs);
        tape_stats().nodes - before.nodes
    });
    assert_eq!(nodes, 1);
}

#[differentiate]
fn scaled_head(p: &[f64], s: f64) -> f64 {
    p[0] * s
}

/// The result of one differentiated call passed to another (found by the fuzzer: the
/// macro panicked on it).
#[differentiate(wrt(theta, x))]
fn nested_calls(theta: &[f64], x: f64, data: &[f64]) -> f64 {
    let a = scaled_head(data, scaled_head(theta, data[0])).exp();
    x.atan() * a
}

#[test]
fn a_call_result_passed_to_a_call() {
    let (theta, data) = ([0.3, 0.9], [0.7, -0.2]);
    let (v, (gt, gx)) = nested_calls_grad(&theta, 0.4, &data);
    assert_eq!(v, nested_calls(&theta, 0.4, &data));
    let mut g = gt.clone();
    g.push(gx);
    let fd = fd_grad(|z| nested_calls(&z[..2], z[2], &data), &[0.3, 0.9, 0.4]);
    assert_close(&g, &fd, 1e-8);
}
