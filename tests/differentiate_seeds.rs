//! The seeds' examples through `#[differentiate]`, against closed forms.
use fazang::prelude::*;

/// Fazang's log normal density at y = 1.3.
#[differentiate]
fn normal_lp(mu: f64, sigma: f64) -> f64 {
    let y = 1.3;
    -0.5 * (2.0 * std::f64::consts::PI).ln() - sigma.ln() - 0.5 * ((y - mu) / sigma).powi(2)
}

/// ReverseDiffSource's Rosenbrock.
#[differentiate]
fn rosenbrock(x: &[f64]) -> f64 {
    let mut acc = 0.0;
    for i in 0..x.len() - 1 {
        acc += (1.0 - x[i]).powi(2) + 100.0 * (x[i + 1] - x[i] * x[i]).powi(2);
    }
    acc
}

#[test]
fn fazang_log_density() {
    let (mu, sigma, y) = (0.5, 1.2, 1.3_f64);
    let (v, g) = normal_lp_grad(mu, sigma);
    assert_eq!(v, normal_lp(mu, sigma));
    let z = (y - mu) / sigma;
    assert!((g[0] - z / sigma).abs() < 1e-15);
    assert!((g[1] - (-1.0 / sigma + z * z / sigma)).abs() < 1e-15);
}

#[test]
fn rosenbrock_seed_values() {
    let (v, g) = rosenbrock_grad(&[0.5, 2.0]);
    assert_eq!(v, 306.5);
    assert_eq!(g, vec![-351.0, 350.0]);
    assert_eq!(rosenbrock(&[0.5, 2.0]), 306.5);
    let p: fn(&[f64]) -> f64 = rosenbrock;
    assert_eq!(p(&vec![0.5, 2.0]), 306.5);
}
