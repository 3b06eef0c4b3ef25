//! Models written with nalgebra inside `#[differentiate]` bodies, as users write them: a
//! Gaussian-process marginal likelihood (a kernel matrix from `DMatrix::from_fn` plus a
//! noise term, `fazang::linalg`'s Cholesky and solve), and linear regressions with a
//! `DMatrix` of data and active coefficients (a `DVector` parameter, or a slice made into
//! one), with data meeting active values in `y - x * beta`, `x.transpose() * &r`,
//! `DMatrix::identity(n, n) * s2` and `&r / sigma`.
//!
//! Checks: gradients against closed forms (the GP's ½ tr((ααᵀ − K⁻¹) ∂K/∂θ), the
//! regression's Xᵀr/σ²) and finite differences; Hessians against closed forms (−XᵀX/σ²)
//! and differences of the gradient; `_jvp` against the gradient.

use fazang::linalg::{cholesky, solve_lower_triangular};
use fazang::prelude::*;
use nalgebra::{DMatrix, DVector};
use std::f64::consts::PI;

mod program_support;
use program_support::*;

/// Log marginal likelihood of a GP with a squared-exponential kernel, in the log
/// hyperparameters.
#[differentiate(wrt(log_alpha, log_rho, log_sigma))]
fn gp_lml(log_alpha: f64, log_rho: f64, log_sigma: f64, x: &[f64], y: &[f64]) -> f64 {
    let (alpha, rho, sigma) = (log_alpha.exp(), log_rho.exp(), log_sigma.exp());
    let n = x.len();
    let k = DMatrix::from_fn(n, n, |i, j| {
        alpha * alpha * (-0.5 * ((x[i] - x[j]) / rho).powi(2)).exp()
    }) + DMatrix::identity(n, n) * (sigma * sigma);
    let l = cholesky(&k).expect("positive definite");
    let a = solve_lower_triangular(&l, &DVector::from_column_slice(y)).expect("nonsingular");
    let log_det: f64 = l.diagonal().iter().map(|d| d.ln()).sum();
    -0.5 * a.norm_squared() - log_det - 0.5 * n as f64 * (2.0 * PI).ln()
}

/// The same likelihood with nalgebra's Cholesky (taped scalar by scalar).
#[differentiate(wrt(log_alpha, log_rho, log_sigma))]
fn gp_lml_nalgebra(log_alpha: f64, log_rho: f64, log_sigma: f64, x: &[f64], y: &[f64]) -> f64 {
    let (alpha, rho, sigma) = (log_alpha.exp(), log_rho.exp(), log_sigma.exp());
    let n = x.len();
    let mut k = DMatrix::from_fn(n, n, |i, j| {
        alpha * alpha * (-0.5 * ((x[i] - x[j]) / rho).powi(2)).exp()
    });
    for i in 0..n {
        k[(i, i)] += sigma * sigma;
    }
    let chol = k.cholesky().expect("positive definite");
    let a = chol.solve(&DVector::from_column_slice(y));
    let y = DVector::from_column_slice(y);
    -0.5 * y.dot(&a)
        - chol.l().diagonal().iter().map(|d| d.ln()).sum::<f64>()
        - 0.5 * n as f64 * (2.0 * PI).ln()
}

/// Gaussian linear regression: a `DMatrix` of covariates, active coefficients as a
/// `DVector` and an active noise scale.
#[differentiate(wrt(beta, sigma))]
fn regression(beta: &DVector<f64>, sigma: f64, x: &DMatrix<f64>, y: &DVector<f64>) -> f64 {
    let r = y - x * beta;
    let n = y.len() as f64;
    -0.5 * r.norm_squared() / (sigma * sigma) - n * sigma.ln()
}

/// The same regression with the coefficients as a slice (so `_hessian` exists), the
/// residual standardised by an active scale.
#[differentiate(wrt(beta, sigma))]
fn regression_slice(beta: &[f64], sigma: f64, x: &DMatrix<f64>, y: &DVector<f64>) -> f64 {
    let beta = DVector::from_column_slice(beta);
    let z = (y - x * &beta) / sigma;
    -0.5 * z.dot(&z) - y.len() as f64 * sigma.ln()
}

/// The normal equations' residual `Xᵀ(y − Xβ)`, squared: data matrices on both sides of
/// an active vector.
#[differentiate(wrt(beta))]
fn normal_equations(beta: &[f64], x: &DMatrix<f64>, y: &DVector<f64>) -> f64 {
    let r = y - x * DVector::from_column_slice(beta);
    let g = x.transpose() * &r;
    0.5 * g.norm_squared()
}

fn gp_data() -> (Vec<f64>, Vec<f64>) {
    let x: Vec<f64> = (0..8).map(|i| 0.35 * i as f64 - 1.0).collect();
    let y = x.iter().map(|t| (1.7 * t).sin() + 0.1 * t).collect();
    (x, y)
}

/// ½ tr((ααᵀ − K⁻¹) ∂K/∂θ) for θ = ln α, ln ρ, ln σ.
fn gp_closed_form(p: [f64; 3], x: &[f64], y: &[f64]) -> Vec<f64> {
    let (alpha, rho, sigma) = (p[0].exp(), p[1].exp(), p[2].exp());
    let n = x.len();
    let se = DMatrix::from_fn(n, n, |i, j| (-0.5 * ((x[i] - x[j]) / rho).powi(2)).exp());
    let k = &se * (alpha * alpha) + DMatrix::identity(n, n) * (sigma * sigma);
    let kinv = k.try_inverse().unwrap();
    let a = &kinv * DVector::from_column_slice(y);
    let w = &a * a.transpose() - &kinv;
    let dk = [
        &se * (2.0 * alpha * alpha),
        DMatrix::from_fn(n, n, |i, j| {
            alpha * alpha * se[(i, j)] * ((x[i] - x[j]) / rho).powi(2)
        }),
        DMatrix::identity(n, n) * (2.0 * sigma * sigma),
    ];
    dk.iter().map(|d| 0.5 * (&w * d).trace()).collect()
}

#[test]
fn gp_gradient_is_the_closed_form_on_both_paths() {
    let (x, y) = gp_data();
    let p = [0.2, -0.3, -1.2];
    let want = gp_closed_form(p, &x, &y);
    let (v, g) = gp_lml_grad(p[0], p[1], p[2], &x, &y);
    let (vn, gn) = gp_lml_nalgebra_grad(p[0], p[1], p[2], &x, &y);
    assert_close(v, gp_lml(p[0], p[1], p[2], &x, &y), 1e-14, "value");
    assert_close(vn, v, 1e-12, "nalgebra value");
    assert_all_close(&g, &want, 1e-10, "fused gradient");
    assert_all_close(&gn, &want, 1e-10, "nalgebra gradient");
    let f = |q: &[f64]| gp_lml(q[0], q[1], q[2], &x, &y);
    assert_all_close(&g, &fd_gradient(f, &p), 1e-7, "finite differences");
}

#[test]
fn gp_hessian_and_jvp() {
    let (x, y) = gp_data();
    let p = [0.2, -0.3, -1.2];
    let (v, g, h) = gp_lml_hessian(p[0], p[1], p[2], &x, &y);
    let (_, gg) = gp_lml_grad(p[0], p[1], p[2], &x, &y);
    assert_close(v, gp_lml(p[0], p[1], p[2], &x, &y), 1e-14, "value");
    assert_all_close(&g, &gg, 1e-12, "gradient of _hessian");
    let grad = |q: &[f64]| gp_lml_grad(q[0], q[1], q[2], &x, &y).1.to_vec();
    assert_rows_close(&h, &fd_jacobian(grad, &p), 1e-6, "Hessian");
    let (_, _, hn) = gp_lml_nalgebra_hessian(p[0], p[1], p[2], &x, &y);
    assert_rows_close(&hn, &h, 1e-9, "nalgebra Hessian");
    let dir = [0.5, -1.0, 2.0];
    let (_, d) = gp_lml_jvp(p[0], p[1], p[2], &x, &y, &dir);
    let want: f64 = gg.iter().zip(dir).map(|(g, v)| g * v).sum();
    assert_close(d, want, 1e-12, "jvp");
}

fn regression_data() -> (DMatrix<f64>, DVector<f64>, Vec<f64>) {
    let x = DMatrix::from_fn(12, 3, |i, j| match j {
        0 => 1.0,
        1 => (i as f64 * 0.7).sin(),
        _ => 0.1 * i as f64 - 0.4,
    });
    let y = DVector::from_fn(12, |i, _| {
        0.5 - 0.8 * (i as f64 * 0.7).sin() + 0.05 * i as f64
    });
    (x, y, vec![0.4, -0.6, 0.3])
}

#[test]
fn regression_gradient_is_x_transpose_residual() {
    let (x, y, b) = regression_data();
    let beta = DVector::from_vec(b.clone());
    let sigma = 0.7;
    let r = &y - &x * &beta;
    let want_beta = x.transpose() * &r / (sigma * sigma);
    let want_sigma = r.norm_squared() / sigma.powi(3) - y.len() as f64 / sigma;
    let (v, (gb, gs)) = regression_grad(&beta, sigma, &x, &y);
    assert_close(v, regression(&beta, sigma, &x, &y), 1e-14, "value");
    assert_all_close(gb.as_slice(), want_beta.as_slice(), 1e-12, "d/dbeta");
    assert_close(gs, want_sigma, 1e-12, "d/dsigma");
    let (vs, (gbs, gss)) = regression_slice_grad(&b, sigma, &x, &y);
    assert_close(vs, v, 1e-13, "slice value");
    assert_all_close(&gbs, want_beta.as_slice(), 1e-12, "slice d/dbeta");
    assert_close(gss, want_sigma, 1e-12, "slice d/dsigma");
}

#[test]
fn regression_hessian_is_minus_x_transpose_x() {
    let (x, y, b) = regression_data();
    let sigma = 0.7;
    let (_, _, h) = regression_slice_hessian(&b, sigma, &x, &y);
    let xtx = x.transpose() * &x / (sigma * sigma);
    for i in 0..3 {
        let want: Vec<f64> = (0..3).map(|j| -xtx[(i, j)]).collect();
        assert_all_close(&h[i][..3], &want, 1e-12, &format!("H[{i}]"));
    }
    let mut p = b.clone();
    p.push(sigma);
    let grad = |q: &[f64]| {
        let (_, (gb, gs)) = regression_slice_grad(&q[..3], q[3], &x, &y);
        gb.into_iter().chain([gs]).collect::<Vec<f64>>()
    };
    assert_rows_close(&h, &fd_jacobian(grad, &p), 1e-6, "Hessian");
    let dir = [1.0, -0.5, 0.25, 0.5];
    let (_, d) = regression_slice_jvp(&b, sigma, &x, &y, &dir);
    let g = grad(&p);
    let want: f64 = g.iter().zip(dir).map(|(g, v)| g * v).sum();
    assert_close(d, want, 1e-12, "jvp");
}

#[test]
fn normal_equations_gradient() {
    let (x, y, b) = regression_data();
    // f = ½|Xᵀ(y − Xβ)|², ∇f = −XᵀX Xᵀ(y − Xβ).
    let beta = DVector::from_vec(b.clone());
    let xtx = x.transpose() * &x;
    let want = -(&xtx * (x.transpose() * (&y - &x * &beta)));
    let (v, g) = normal_equations_grad(&b, &x, &y);
    assert_close(v, normal_equations(&b, &x, &y), 1e-14, "value");
    assert_all_close(&g, want.as_slice(), 1e-11, "gradient");
    let f = |q: &[f64]| normal_equations(q, &x, &y);
    assert_all_close(&g, &fd_gradient(f, &b), 1e-7, "finite differences");
}
