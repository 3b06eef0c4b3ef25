//! Dual numbers: one, `[S; N]` and run-time lanes give the gradient the tape gives and
//! the exact one (sympy, `forward_support/hessian_reference.py`); `Dual<Var>` records its
//! tangent (reverse-over-forward), whose sweep is the exact H v; `jvp` for scalar and
//! vector functions; every scalar type runs a `#[differentiate]` body with data, loops and
//! distributions.

#[allow(dead_code)]
#[path = "support/close.rs"]
mod close;
#[allow(dead_code)]
#[path = "forward_support/hessian_values.rs"]
mod hessian_values;

use close::{assert_all_close, assert_close};
use fazang::prelude::*;
use fazang::{forward_scope, jvp, Dual, Lanes, Tangent};

/// A body with loops, data, math functions and a distribution.
#[differentiate(wrt(theta))]
fn model(theta: &[f64], y: &[f64]) -> Result<f64, DomainError> {
    let (mu, log_sigma, w) = (theta[0], theta[1], theta[2]);
    let sigma = log_sigma.exp();
    let mut acc = normal_lpdf(y, mu, sigma)? + normal_lpdf(mu, 0.0, 10.0)?;
    for (i, yi) in y.iter().enumerate() {
        acc += (w * yi).tanh() * (i as f64 + 1.0).ln() - (w - mu).powi(2) * 0.1;
    }
    Ok(acc + log_sum_exp(theta) + w.atan2(mu).sin() * sigma.sqrt())
}

const Y: [f64; 4] = [1.3, -0.4, 2.7, 0.9];
const THETA: [f64; 3] = [0.5, -0.2, 0.8];

/// The exact value, gradient and Hessian (rows flattened) of `model` at `THETA`, by sympy
/// from the same formula (`forward_support/hessian_reference.py`).
fn exact() -> (f64, &'static [f64], &'static [f64]) {
    let r = hessian_values::REFERENCE
        .iter()
        .find(|r| r.case == "forward_dual_model" && r.x == THETA)
        .expect("reference of the model");
    (r.value, r.grad, r.hess)
}

/// Every entry within 1e-12 of its own magnitude (plus 1e-14): a 1 % error anywhere fails.
#[track_caller]
fn assert_entries(got: &[f64], want: &[f64], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: lengths differ");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let allowed = 1e-12 * w.abs() + 1e-14;
        assert!(0.01 * w.abs() > allowed, "{what}[{i}]: reference too small");
        assert!(
            (g - w).abs() <= allowed,
            "{what}[{i}]: got {g:e}, want {w:e} (error {:e})",
            (g - w).abs()
        );
    }
}

fn tape_gradient() -> Vec<f64> {
    model_grad(&THETA, &Y).unwrap().1
}

#[test]
fn the_tape_and_the_primal_match_the_exact_values() {
    let (value, grad, _) = exact();
    let (v, g) = model_grad(&THETA, &Y).unwrap();
    assert_entries(&[model(&THETA, &Y).unwrap(), v], &[value; 2], "value");
    assert_entries(&g, grad, "tape gradient");
}

#[test]
fn one_lane_per_input_gives_the_gradient() {
    for (i, gi) in tape_gradient().into_iter().enumerate() {
        let x: Vec<Dual<f64>> = THETA
            .iter()
            .enumerate()
            .map(|(j, &v)| Dual::new(v, if i == j { 1.0 } else { 0.0 }))
            .collect();
        let d = model(&x, &Y).unwrap();
        assert_close(d.eps, gi, 1e-14, &format!("lane {i}"));
        assert_entries(&[d.eps], &[exact().1[i]], &format!("lane {i}"));
    }
}

#[test]
fn static_lanes_give_the_gradient_in_one_pass() {
    let x: Vec<Dual<f64, [f64; 3]>> = THETA
        .iter()
        .enumerate()
        .map(|(i, &v)| Dual::lane_variable(v, i))
        .collect();
    let d = model(&x, &Y).unwrap();
    assert_all_close(&d.eps, &tape_gradient(), 1e-14, "gradient");
    assert_entries(&d.eps, exact().1, "gradient");
    assert_eq!(d.re, model(&THETA, &Y).unwrap());
}

#[test]
fn run_time_lanes_give_the_gradient() {
    let g = forward_scope(|| {
        let n = THETA.len();
        let x: Vec<Dual<f64, Lanes>> = THETA
            .iter()
            .enumerate()
            .map(|(i, &v)| Dual::new(v, Lanes::unit(n, i)))
            .collect();
        model(&x, &Y).unwrap().eps.to_vec()
    });
    assert_all_close(&g, &tape_gradient(), 1e-14, "gradient");
    assert_entries(&g, exact().1, "gradient");
}

#[test]
fn dual_over_var_records_the_tangent() {
    // The tangent along v is ∇f·v; sweeping it gives H v, which the Hessian confirms.
    let v = [1.0, -0.5, 2.0];
    let x: Vec<Var> = THETA.iter().map(|&t| Var::new(t)).collect();
    let d: Vec<Dual<Var>> = x
        .iter()
        .zip(&v)
        .map(|(&x, &v)| Dual::new(x, Var::from(v)))
        .collect();
    let y = model(&d, &Y).unwrap();
    let g = tape_gradient();
    let dir: f64 = g.iter().zip(&v).map(|(a, b)| a * b).sum();
    assert_close(y.eps.val(), dir, 1e-14, "∇f·v");
    y.eps.grad();
    let hv: Vec<f64> = x.iter().map(Var::adj).collect();
    let want: Vec<f64> = exact()
        .2
        .chunks(3)
        .map(|r| r.iter().zip(&v).map(|(a, b)| a * b).sum())
        .collect();
    assert_entries(&hv, &want, "H v");
    let direction: f64 = exact().1.iter().zip(&v).map(|(a, b)| a * b).sum();
    assert_entries(&[y.eps.val()], &[direction], "∇f·v");
    clear_tape();
}

#[test]
fn jvp_of_scalar_and_vector_functions() {
    let v = [0.3, 1.0, -2.0];
    let (val, d) = jvp(|t| model(t, &Y).unwrap(), &THETA, &v);
    let g = tape_gradient();
    assert_eq!(val, model(&THETA, &Y).unwrap());
    assert_close(d, g.iter().zip(&v).map(|(a, b)| a * b).sum(), 1e-14, "∇f·v");
    let direction: f64 = exact().1.iter().zip(&v).map(|(a, b)| a * b).sum();
    assert_entries(&[d], &[direction], "∇f·v");
    let (vals, jv) = jvp(
        |x| vec![x[0] * x[1], x[2].exp(), dot_product(&[1.0, 2.0, 3.0], x)],
        &THETA,
        &v,
    );
    assert_eq!(vals.len(), 3);
    let want = [
        v[0] * THETA[1] + THETA[0] * v[1],
        THETA[2].exp() * v[2],
        v[0] + 2.0 * v[1] + 3.0 * v[2],
    ];
    assert_all_close(&jv, &want, 1e-15, "J v");
}

#[test]
fn tangent_lanes_are_skipped_when_they_are_constant_zeros() {
    // A reverse-over-forward number whose tangent lanes are constant zeros records only
    // its value: the Hessian drivers rely on it for sparse problems.
    let x = Var::new(1.5);
    let before = tape_stats();
    let d: Dual<Var, [Var; 4]> = Dual::new(x, [Var::from(0.0); 4]);
    let y = (d * d).sin() + d;
    let after = tape_stats();
    assert!(y.eps.is_zero());
    assert_eq!(
        after.nodes - before.nodes,
        3,
        "value nodes only: d², sin, +"
    );
    clear_tape();
}

/// Generic numeric code written against `num_traits::Float` only.
fn softplus<T: num_traits::Float>(x: T) -> T {
    (T::one() + x.exp()).ln()
}

#[test]
fn num_traits_float_code_runs_on_every_forward_scalar() {
    use fazang::{Fwd, Jet, Taylor};
    let s = |x: f64| 1.0 / (1.0 + (-x).exp());
    let d = softplus(Dual::variable(0.3));
    assert_close(d.eps, s(0.3), 1e-15, "Dual");
    let t = softplus(Taylor::<2>::variable(0.3)).derivatives();
    assert_close(t[2], s(0.3) * (1.0 - s(0.3)), 1e-15, "Taylor");
    let j = softplus(Jet::<1, 2, 3>::variable(0.3, 0));
    assert_close(j.partial([2]), t[2], 1e-15, "Jet");
    let f = fazang::derivative(|x: Fwd| softplus(x), 0.3);
    assert_close(f.val(), s(0.3), 1e-15, "Fwd");
}
