//! `#[deriv_rule(adjoint = path)]`: vector-Jacobian products, run lazily in the sweep.

use fazang::prelude::*;
use fazang::{check_deriv_rule, check_deriv_rule_vec, tape_stats};
use std::cell::Cell;

/// softmax(x)ᵢ = e^xᵢ / Σ e^xⱼ.
#[deriv_rule(adjoint = softmax_adjoint)]
fn softmax(x: &[f64]) -> Vec<f64> {
    let m = x.iter().fold(f64::NEG_INFINITY, |a, &b| a.max(b));
    let e: Vec<f64> = x.iter().map(|v| (v - m).exp()).collect();
    let z: f64 = e.iter().sum();
    e.iter().map(|v| v / z).collect()
}

thread_local! {
    /// Calls of the adjoint on this thread (tests run in parallel).
    static SOFTMAX_CALLS: Cell<usize> = const { Cell::new(0) };
}

fn softmax_calls() -> usize {
    SOFTMAX_CALLS.with(Cell::get)
}

/// x̄ = s ⊙ (ds - (s · ds)): the Jacobian is never formed.
fn softmax_adjoint(_x: &[f64], s: &[f64], ds: &[f64]) -> Vec<f64> {
    SOFTMAX_CALLS.with(|c| c.set(c.get() + 1));
    let dot: f64 = s.iter().zip(ds).map(|(a, b)| a * b).sum();
    s.iter().zip(ds).map(|(a, b)| a * (b - dot)).collect()
}

#[test]
fn vector_output_matches_the_closed_form_jacobian() {
    let x = [0.5, -1.0, 2.0];
    let s = softmax(&x);
    let (v, jac) = jacobian(softmax, &x);
    assert_eq!(v, s);
    for i in 0..3 {
        for j in 0..3 {
            let want = s[i] * (if i == j { 1.0 } else { 0.0 } - s[j]);
            assert!((jac[i][j] - want).abs() < 1e-15, "J[{i}][{j}]");
        }
    }
    check_deriv_rule_vec(softmax, softmax, &[x, [0.0, 0.0, 0.0]]).assert_ok(1e-8);
}

#[test]
fn the_adjoint_runs_lazily_once_per_sweep() {
    let xs = [Var::new(0.1), Var::new(0.2)];
    let before = softmax_calls();
    let out = softmax(&xs);
    assert_eq!(softmax_calls(), before, "not called while recording");
    let y = out[0] * 3.0;
    y.grad();
    assert_eq!(softmax_calls(), before + 1);
    let s = softmax(&[0.1, 0.2]);
    assert!((xs[0].adj() - 3.0 * s[0] * (1.0 - s[0])).abs() < 1e-15);
    clear_tape();
}

/// Polar to Cartesian coordinates: an array result, two scalar inputs.
#[deriv_rule(adjoint = polar_adjoint)]
fn polar(r: f64, theta: f64) -> [f64; 2] {
    [r * theta.cos(), r * theta.sin()]
}

/// (r̄, θ̄) = Jᵀ ds, J = [[cos θ, -r sin θ], [sin θ, r cos θ]].
fn polar_adjoint(r: f64, theta: f64, _out: &[f64; 2], ds: &[f64; 2]) -> (f64, f64) {
    let (s, c) = theta.sin_cos();
    (c * ds[0] + s * ds[1], -r * s * ds[0] + r * c * ds[1])
}

#[test]
fn array_output_with_two_scalar_inputs() {
    assert_eq!(polar(2.0, 0.0), [2.0, 0.0]);
    let (v, jac) = jacobian(|p| polar(p[0], p[1]).to_vec(), &[2.0, 0.5]);
    assert_eq!(v, polar(2.0, 0.5).to_vec());
    let (s, c) = 0.5_f64.sin_cos();
    assert_eq!(jac, vec![vec![c, -2.0 * s], vec![s, 2.0 * c]]);
}

/// A scalar result with data parameters: Σ xᵢ^k, labelled.
#[deriv_rule(adjoint = power_sum_adjoint)]
fn power_sum(x: &[f64], k: i32, label: &str) -> f64 {
    assert_eq!(label, "ok");
    x.iter().map(|v| v.powi(k)).sum()
}

fn power_sum_adjoint(x: &[f64], k: i32, label: &str, _out: f64, ds: f64) -> Vec<f64> {
    assert_eq!(label, "ok", "data parameters reach the adjoint function");
    x.iter()
        .map(|v| ds * f64::from(k) * v.powi(k - 1))
        .collect()
}

#[test]
fn scalar_output_and_data_parameters() {
    assert_eq!(power_sum(&[1.0, 2.0], 3, "ok"), 9.0);
    let label = String::from("ok");
    let (v, g) = gradient(|x| power_sum(x, 3, &label), &[1.0, 2.0]);
    assert_eq!((v, g), (9.0, vec![3.0, 12.0]));
    check_deriv_rule(
        |x| power_sum(x, 4, "ok"),
        |x| power_sum(x, 4, "ok"),
        &[[0.5, -1.5]],
    )
    .assert_ok(1e-8);
}

/// An owned vector and a scalar, several adjoints returned as a tuple: y = a x.
#[deriv_rule(adjoint = scale_adjoint)]
fn scale(a: f64, x: Vec<f64>) -> Vec<f64> {
    x.iter().map(|v| a * v).collect()
}

fn scale_adjoint(a: f64, x: &[f64], _out: &[f64], ds: &[f64]) -> (f64, Vec<f64>) {
    let da = x.iter().zip(ds).map(|(v, d)| v * d).sum();
    (da, ds.iter().map(|d| a * d).collect())
}

#[test]
fn several_inputs_tuple_of_adjoints() {
    assert_eq!(scale(2.0, vec![1.0, 3.0]), vec![2.0, 6.0]);
    let (_, jac) = jacobian(|p| scale(p[0], p[1..].to_vec()), &[2.0, 1.0, 3.0]);
    assert_eq!(jac, vec![vec![1.0, 2.0, 0.0], vec![3.0, 0.0, 2.0]]);
}

#[test]
fn recording_makes_one_node_per_output_and_one_callback() {
    let xs = [Var::new(1.0), Var::new(2.0), Var::new(3.0)];
    let before = tape_stats();
    let _ = softmax(&xs);
    let after = tape_stats();
    assert_eq!(after.nodes - before.nodes, 3);
    assert_eq!(after.callbacks - before.callbacks, 1);
    clear_tape();
}

fn entropy_of_softmax<S: Real>(x: &[S]) -> S {
    softmax(x).iter().map(|&p| -p * p.ln()).sum()
}

#[test]
fn generic_callers() {
    let x = [0.3, 1.0, -0.4];
    let v: f64 = entropy_of_softmax(&x);
    let (vv, _) = gradient(entropy_of_softmax, &x);
    assert_eq!(v, vv);
    check_deriv_rule(entropy_of_softmax, entropy_of_softmax, &[x]).assert_ok(1e-8);
}

/// Explicit lifetimes on the function are fine: kept values are owned.
#[deriv_rule(adjoint = weighted_adjoint)]
fn weighted<'a>(x: &'a [f64], w: &'a [usize]) -> f64 {
    x.iter().zip(w).map(|(v, &k)| v * k as f64).sum()
}

fn weighted_adjoint(x: &[f64], w: &[usize], _out: f64, ds: f64) -> Vec<f64> {
    x.iter().zip(w).map(|(_, &k)| ds * k as f64).collect()
}

#[test]
fn lifetimes_and_data_slices() {
    let w = vec![1, 2, 3];
    let (v, g) = gradient(|x| weighted(x, &w), &[1.0, 1.0, 1.0]);
    assert_eq!((v, g), (6.0, vec![1.0, 2.0, 3.0]));
}
