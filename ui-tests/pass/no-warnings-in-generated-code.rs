// Generated code must not make rustc warn in user crates: every common use of both
// attributes, compiled under deny(warnings), and run.
#![deny(warnings)]

use fazang::prelude::*;

#[deriv_rule(x => x.cos() / (1.0 + x.sin()))]
fn foo(x: f64) -> f64 {
    (1.0 + x.sin()).ln()
}

#[deriv_rule(a => b, b => a)]
fn mul2(a: f64, b: f64) -> f64 {
    a * b
}

#[deriv_rule]
#[derive(Clone, Debug)]
struct Bar {
    x: f64,
    y: f64,
}

#[deriv_rule(z => Bar { x: 2.0 * z.x, y: 2.0 * z.y })]
fn norm(z: Bar) -> f64 { z.x * z.x + z.y * z.y }

#[differentiate]
fn uses_both(x: f64, z: Bar) -> f64 {
    let two = 2.0;
    foo(x) * norm(z) + mul2(x, two)
}

#[differentiate(wrt(mu, sigma))]
fn log_posterior(mu: f64, sigma: f64, y: &[f64]) -> Result<f64, DomainError> {
    Ok(normal_lpdf(mu, 0.0, 10.0)? + normal_lpdf(y, mu, sigma)?)
}

#[differentiate]
fn body(x: &[f64]) -> f64 {
    let mut acc = 0.0;
    for i in 0..x.len() {
        acc += (1.0 - x[i]).powi(2);
    }
    let n = x.len() as f64;
    let s: f64 = x.iter().sum();
    acc / n + s + 2.0f64.powf(x[0]) + f64::max(x[0], 0.0)
}

#[differentiate]
fn layer(x: &[f64]) -> Vec<f64> {
    x.iter().map(|v| v.tanh()).collect()
}

fn main() {
    let (v, (dx, dz)) = uses_both_grad(0.8, Bar { x: 1.0, y: 2.0 });
    assert!(v.is_finite() && dx.is_finite() && dz.x.is_finite());
    assert!(log_posterior_grad(1.0, 2.0, &[0.3]).is_ok());
    assert_eq!(body_grad(&[0.5, 1.0]).1.len(), 2);
    assert_eq!(layer_jacobian(&[0.5, 1.0]).1.len(), 2);
}
