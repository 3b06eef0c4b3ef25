//! nalgebra in helpers called from a body with scalar code around the calls, the shape of
//! body that gets adjoint code and, from it, tangent code for `_jvp`, `_hvp` and
//! `_hessian` (forward lanes through the callees). The helpers are written as with
//! nalgebra on `f64`: a `#[differentiate]` log-determinant with `.cholesky()`, one with
//! `fazang::linalg`, and a plain helper generic over nalgebra's `RealField`.
//!
//! Whatever path each item takes, its numbers are checked against independent truth:
//! `_grad` against finite differences of the primal, `_hessian` against finite
//! differences of `_grad`, `_hvp` against the Hessian times the direction and `_jvp`
//! against the gradient's dot product with it.

use fazang::linalg::log_determinant_spd;
use fazang::prelude::*;
use nalgebra::{DMatrix, DVector, RealField};

mod program_support;
use program_support::*;

/// ln det Σ through nalgebra's Cholesky, Σ read from its lower triangle (row-major).
#[differentiate]
fn log_det_chol(sigma: &[f64]) -> f64 {
    let n = (sigma.len() as f64).sqrt() as usize;
    let s = DMatrix::from_fn(n, n, |i, j| sigma[i.max(j) * n + i.min(j)]);
    let chol = s.cholesky().expect("positive definite");
    2.0 * chol.l().diagonal().iter().map(|d| d.ln()).sum::<f64>()
}

/// ln det Σ through `fazang::linalg` (the full matrix, symmetric by construction).
#[differentiate]
fn log_det_fused(sigma: &[f64]) -> f64 {
    let n = (sigma.len() as f64).sqrt() as usize;
    let s = DMatrix::from_fn(n, n, |i, j| sigma[i.max(j) * n + i.min(j)]);
    log_determinant_spd(&s).expect("positive definite")
}

/// (y − μ)ᵀ Σ⁻¹ (y − μ), a helper generic over nalgebra's scalar.
fn mahalanobis<T: RealField + Copy>(y: &[f64], mu: &[T], sigma: &[T]) -> T {
    let n = y.len();
    let s = DMatrix::from_fn(n, n, |i, j| sigma[i.max(j) * n + i.min(j)]);
    let r = DVector::from_fn(n, |i, _| nalgebra::convert::<f64, T>(y[i]) - mu[i]);
    let chol = s.cholesky().expect("positive definite");
    r.dot(&chol.solve(&r))
}

/// A penalised Gaussian log density with scalar arithmetic around the calls.
#[differentiate(wrt(mu, sigma))]
fn objective(y: &[f64], mu: &[f64], sigma: &[f64]) -> f64 {
    let ld = log_det_chol(sigma);
    let q = mahalanobis(y, mu, sigma);
    let mut penalty = 0.0;
    for m in mu {
        penalty += m * m;
    }
    -0.5 * q - 0.5 * ld - 0.1 * penalty + (0.3 * ld).sin()
}

/// The same with the fused log-determinant.
#[differentiate(wrt(mu, sigma))]
fn objective_fused(y: &[f64], mu: &[f64], sigma: &[f64]) -> f64 {
    let ld = log_det_fused(sigma);
    let q = mahalanobis(y, mu, sigma);
    let mut penalty = 0.0;
    for m in mu {
        penalty += m * m;
    }
    -0.5 * q - 0.5 * ld - 0.1 * penalty + (0.3 * ld).sin()
}

const N: usize = 3;

fn y() -> Vec<f64> {
    vec![0.4, -1.1, 0.7]
}

/// μ then a well-conditioned Σ (row-major, symmetric).
fn inputs() -> Vec<f64> {
    let b = DMatrix::from_row_slice(N, N, &[0.9, 0.2, -0.3, 0.1, 1.1, 0.25, -0.2, 0.3, 0.8]);
    let s = &b * b.transpose() + DMatrix::identity(N, N) * 0.5;
    let mut x = vec![0.2, -0.3, 0.5];
    x.extend(s.transpose().as_slice());
    x
}

type Fns = (
    fn(&[f64], &[f64], &[f64]) -> f64,
    fn(&[f64], &[f64], &[f64]) -> (f64, (Vec<f64>, Vec<f64>)),
    fn(&[f64], &[f64], &[f64]) -> (f64, (Vec<f64>, Vec<f64>), Vec<Vec<f64>>),
    fn(&[f64], &[f64], &[f64], &[f64]) -> (f64, f64),
    fn(&[f64], &[f64], &[f64], &[f64]) -> (f64, Vec<f64>),
);

fn check(what: &str, (f, grad, hessian, jvp, hvp): Fns) {
    let (y, x) = (y(), inputs());
    let flat_grad = |x: &[f64]| {
        let (_, (a, b)) = grad(&y, &x[..N], &x[N..]);
        a.into_iter().chain(b).collect::<Vec<f64>>()
    };
    let g = flat_grad(&x);
    let fd = fd_gradient(|x| f(&y, &x[..N], &x[N..]), &x);
    assert_all_close(&g, &fd, 1e-6, &format!("{what}: gradient vs differences"));

    let (v, (ga, gb), h) = hessian(&y, &x[..N], &x[N..]);
    let gh: Vec<f64> = ga.into_iter().chain(gb).collect();
    assert_eq!(v, f(&y, &x[..N], &x[N..]), "{what}: value of _hessian");
    assert_all_close(&gh, &g, 1e-12, &format!("{what}: gradient of _hessian"));
    let fdh = fd_jacobian(flat_grad, &x);
    assert_rows_close(&h, &fdh, 1e-6, &format!("{what}: Hessian vs differences"));

    let dir: Vec<f64> = (0..x.len()).map(|i| 0.4 - 0.09 * i as f64).collect();
    let (_, d) = jvp(&y, &x[..N], &x[N..], &dir);
    let gd: f64 = g.iter().zip(&dir).map(|(a, b)| a * b).sum();
    assert_all_close(&[d], &[gd], 1e-12, &format!("{what}: jvp"));
    let (_, hv) = hvp(&y, &x[..N], &x[N..], &dir);
    let want: Vec<f64> = h
        .iter()
        .map(|row| row.iter().zip(&dir).map(|(a, b)| a * b).sum())
        .collect();
    assert_all_close(&hv, &want, 1e-10, &format!("{what}: hvp"));
}

#[test]
fn nalgebra_helpers_under_a_scalar_body() {
    check(
        "nalgebra cholesky helper",
        (
            objective,
            objective_grad,
            objective_hessian,
            objective_jvp,
            objective_hvp,
        ),
    );
}

#[test]
fn fused_helper_under_a_scalar_body() {
    check(
        "fused log-determinant helper",
        (
            objective_fused,
            objective_fused_grad,
            objective_fused_hessian,
            objective_fused_jvp,
            objective_fused_hvp,
        ),
    );
}

#[test]
fn helper_hessians_match_differences() {
    let x = inputs();
    for (what, grad, hessian) in [
        (
            "log_det_chol",
            log_det_chol_grad as fn(&[f64]) -> (f64, Vec<f64>),
            log_det_chol_hessian as fn(&[f64]) -> (f64, Vec<f64>, Vec<Vec<f64>>),
        ),
        ("log_det_fused", log_det_fused_grad, log_det_fused_hessian),
    ] {
        let fd = fd_jacobian(|s| grad(s).1, &x[N..]);
        let (_, _, h) = hessian(&x[N..]);
        assert_rows_close(&h, &fd, 1e-6, what);
    }
}
