//! Fitting models with argmin's L-BFGS through `#[differentiate]` gradients, checked
//! against independent answers: the closed-form maximum-likelihood estimate of a normal
//! model, and Newton's method with a hand-written Hessian for a logistic regression.

use argmin::core::{CostFunction, Error, Executor, Gradient, State};
use argmin::solver::linesearch::MoreThuenteLineSearch;
use argmin::solver::quasinewton::LBFGS;
use fazang::prelude::*;

/// Negative log-likelihood of normal(μ, e^τ) (up to a constant), `theta = [μ, τ]`.
#[differentiate(wrt(theta))]
fn normal_nll(theta: &[f64], y: &[f64]) -> f64 {
    let (mu, tau) = (theta[0], theta[1]);
    let inv_var = (-2.0 * tau).exp();
    let mut ss = 0.0;
    for &yi in y {
        ss += (yi - mu) * (yi - mu);
    }
    y.len() as f64 * tau + 0.5 * ss * inv_var
}

/// Negative log-likelihood of a logistic regression with intercept, one feature per row.
#[differentiate(wrt(beta))]
fn logistic_nll(beta: &[f64], x: &[f64], y: &[f64]) -> f64 {
    let mut nll = 0.0;
    for (&xi, &yi) in x.iter().zip(y) {
        let eta = beta[0] + beta[1] * xi;
        nll += eta.exp().ln_1p() - yi * eta;
    }
    nll
}

/// An argmin problem from a cost and its `_grad`.
struct Problem<C, G> {
    cost: C,
    grad: G,
}

impl<C: Fn(&[f64]) -> f64, G: Fn(&[f64]) -> Vec<f64>> CostFunction for Problem<C, G> {
    type Param = Vec<f64>;
    type Output = f64;
    fn cost(&self, p: &Vec<f64>) -> Result<f64, Error> {
        Ok((self.cost)(p))
    }
}

impl<C: Fn(&[f64]) -> f64, G: Fn(&[f64]) -> Vec<f64>> Gradient for Problem<C, G> {
    type Param = Vec<f64>;
    type Gradient = Vec<f64>;
    fn gradient(&self, p: &Vec<f64>) -> Result<Vec<f64>, Error> {
        Ok((self.grad)(p))
    }
}

fn lbfgs(
    cost: impl Fn(&[f64]) -> f64,
    grad: impl Fn(&[f64]) -> Vec<f64>,
    start: Vec<f64>,
) -> Vec<f64> {
    let solver = LBFGS::new(MoreThuenteLineSearch::new(), 7)
        .with_tolerance_grad(1e-12)
        .unwrap()
        .with_tolerance_cost(0.0)
        .unwrap();
    let res = Executor::new(Problem { cost, grad }, solver)
        .configure(|s| s.param(start).max_iters(200))
        .run()
        .expect("L-BFGS runs");
    res.state().get_best_param().expect("a best point").clone()
}

#[test]
fn lbfgs_finds_the_closed_form_normal_mle() {
    let y = [2.1, 1.4, 3.3, 2.8, 1.9, 2.5, 3.9, 2.2, 0.7, 2.6];
    let fit = lbfgs(
        |t| normal_nll(t, &y),
        |t| normal_nll_grad(t, &y).1,
        vec![0.0, 0.0],
    );
    let n = y.len() as f64;
    let mean = y.iter().sum::<f64>() / n;
    let var = y.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n;
    assert!((fit[0] - mean).abs() < 1e-8, "mu {} vs {mean}", fit[0]);
    assert!(
        (fit[1] - 0.5 * var.ln()).abs() < 1e-8,
        "tau {} vs {}",
        fit[1],
        0.5 * var.ln()
    );
}

#[test]
fn lbfgs_agrees_with_newtons_method_on_a_logistic_regression() {
    let x: Vec<f64> = (0..60).map(|i| (i as f64 * 0.37).sin() * 2.0).collect();
    let y: Vec<f64> = x
        .iter()
        .enumerate()
        .map(|(i, xi)| f64::from((xi + 0.3 * (i as f64).cos()) > 0.2))
        .collect();
    let fit = lbfgs(
        |b| logistic_nll(b, &x, &y),
        |b| logistic_nll_grad(b, &x, &y).1,
        vec![0.0, 0.0],
    );
    // Newton's method with the hand-written gradient Σ (p - y)(1, x) and Hessian
    // Σ p(1 - p)(1, x)(1, x)ᵀ.
    let mut b = [0.0, 0.0];
    for _ in 0..50 {
        let (mut g, mut h) = ([0.0; 2], [[0.0; 2]; 2]);
        for (&xi, &yi) in x.iter().zip(&y) {
            let p = 1.0 / (1.0 + (-(b[0] + b[1] * xi)).exp());
            let (r, w) = (p - yi, p * (1.0 - p));
            g[0] += r;
            g[1] += r * xi;
            h[0][0] += w;
            h[0][1] += w * xi;
            h[1][1] += w * xi * xi;
        }
        let det = h[0][0] * h[1][1] - h[0][1] * h[0][1];
        b[0] -= (h[1][1] * g[0] - h[0][1] * g[1]) / det;
        b[1] -= (h[0][0] * g[1] - h[0][1] * g[0]) / det;
    }
    assert!(
        (fit[0] - b[0]).abs() < 1e-6 && (fit[1] - b[1]).abs() < 1e-6,
        "{fit:?} vs {b:?}"
    );
}
