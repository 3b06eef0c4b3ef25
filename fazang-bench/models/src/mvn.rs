//! Multivariate normal log densities written with nalgebra inside `#[differentiate]`
//! bodies, three ways each: nalgebra's own algorithms (`.cholesky()`,
//! `solve_lower_triangular`, taped scalar by scalar under `_grad`), `fazang::linalg`'s
//! fused operations (one node per factorisation and solve), and fazang's
//! `multi_normal_lpdf` / `multi_normal_cholesky_lpdf` (one node, analytic partials).
//!
//! `mvn_*` take the covariance Σ (row-major, read from its lower triangle); `mvn_chol_*`
//! take the lower triangle of its Cholesky factor L, row by row.

use fazang::linalg::{cholesky, solve_lower_triangular};
use fazang::nalgebra::{DMatrix, DVector};
use fazang::prelude::*;

/// ln √(2π).
const HALF_LN_2PI: f64 = 0.918_938_533_204_672_8;

/// ln N(y | μ, Σ) with nalgebra's Cholesky and triangular solve.
#[differentiate(wrt(mu, sigma))]
pub fn mvn_nalgebra(y: &[f64], mu: &[f64], sigma: &[f64]) -> f64 {
    let n = y.len();
    let s = DMatrix::from_fn(n, n, |i, j| sigma[i * n + j]);
    let chol = s.cholesky().expect("positive definite");
    let y = DVector::from_column_slice(y);
    let mu = DVector::from_column_slice(mu);
    let z = chol
        .l()
        .solve_lower_triangular(&(y - &mu))
        .expect("nonsingular");
    let log_det: f64 = chol.l().diagonal().iter().map(|d| d.ln()).sum();
    -0.5 * z.norm_squared() - log_det - n as f64 * HALF_LN_2PI
}

/// The same with `fazang::linalg`'s fused Cholesky and solve.
#[differentiate(wrt(mu, sigma))]
pub fn mvn_fused(y: &[f64], mu: &[f64], sigma: &[f64]) -> f64 {
    let n = y.len();
    let s = DMatrix::from_fn(n, n, |i, j| sigma[i * n + j]);
    let l = cholesky(&s).expect("positive definite");
    let y = DVector::from_column_slice(y);
    let mu = DVector::from_column_slice(mu);
    let z = solve_lower_triangular(&l, &(y - &mu)).expect("nonsingular");
    let log_det: f64 = l.diagonal().iter().map(|d| d.ln()).sum();
    -0.5 * z.norm_squared() - log_det - n as f64 * HALF_LN_2PI
}

/// The same with fazang's `multi_normal_lpdf` (Σ as rows, mirrored from its lower
/// triangle like the Cholesky factorisations read it).
#[differentiate(wrt(mu, sigma))]
pub fn mvn_lpdf(y: &[f64], mu: &[f64], sigma: &[f64]) -> f64 {
    let n = y.len();
    let rows: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| sigma[i.max(j) * n + i.min(j)]).collect())
        .collect();
    multi_normal_lpdf(y, mu, &rows).expect("positive definite")
}

/// The factor L from its lower triangle, row by row.
#[differentiate]
fn factor(lower: &[f64], n: usize) -> Vec<Vec<f64>> {
    (0..n)
        .map(|i| {
            (0..n)
                .map(|j| {
                    if j <= i {
                        lower[i * (i + 1) / 2 + j]
                    } else {
                        0.0
                    }
                })
                .collect()
        })
        .collect()
}

/// ln N(y | μ, L Lᵀ) with nalgebra's triangular solve.
#[differentiate(wrt(mu, lower))]
pub fn mvn_chol_nalgebra(y: &[f64], mu: &[f64], lower: &[f64]) -> f64 {
    let n = y.len();
    let l = DMatrix::from_fn(n, n, |i, j| {
        if j <= i {
            lower[i * (i + 1) / 2 + j]
        } else {
            0.0
        }
    });
    let r = DVector::from_column_slice(y) - DVector::from_column_slice(mu);
    let z = l.solve_lower_triangular(&r).expect("nonsingular");
    let log_det: f64 = l.diagonal().iter().map(|d| d.ln()).sum();
    -0.5 * z.norm_squared() - log_det - n as f64 * HALF_LN_2PI
}

/// The same with `fazang::linalg`'s fused solve.
#[differentiate(wrt(mu, lower))]
pub fn mvn_chol_fused(y: &[f64], mu: &[f64], lower: &[f64]) -> f64 {
    let n = y.len();
    let l = DMatrix::from_fn(n, n, |i, j| {
        if j <= i {
            lower[i * (i + 1) / 2 + j]
        } else {
            0.0
        }
    });
    let r = DVector::from_column_slice(y) - DVector::from_column_slice(mu);
    let z = solve_lower_triangular(&l, &r).expect("nonsingular");
    let log_det: f64 = l.diagonal().iter().map(|d| d.ln()).sum();
    -0.5 * z.norm_squared() - log_det - n as f64 * HALF_LN_2PI
}

/// The same with fazang's `multi_normal_cholesky_lpdf`.
#[differentiate(wrt(mu, lower))]
pub fn mvn_chol_lpdf(y: &[f64], mu: &[f64], lower: &[f64]) -> f64 {
    let l = factor(lower, y.len());
    multi_normal_cholesky_lpdf(y, mu, &l).expect("a Cholesky factor")
}
