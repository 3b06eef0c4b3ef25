//! Matrix transforms: Cholesky factors of correlation and covariance matrices, and the
//! matrices themselves. Matrices are `Vec<Vec<_>>` rows; the unconstrained vector is read
//! row by row over the lower triangle.

use crate::dist::multi::check::{
    check_lower_triangular, check_positive_diagonal, check_square, check_symmetric,
    check_unit_diagonal, fail, Structure,
};
use crate::dist::multi::dense_cholesky;
use crate::dist::DomainError;
use crate::math::slice::dot_product;
use crate::Real;
use std::f64::consts::LN_2;

/// Panic unless `y` has `want` entries (a programming error: the sizes are fixed by `k`).
#[track_caller]
fn check_len(function: &str, len: usize, want: usize, k: usize) {
    assert_eq!(
        len, want,
        "fazang: {function} of a {k}x{k} matrix reads {want} unconstrained values, got {len}"
    );
}

/// ln(1 − tanh²(y)) = −2 ln cosh y, without overflow and smooth at every `y`.
fn log1m_tanh_squared<S: Real>(y: S) -> S {
    (y + LN_2 - (y * 2.0).log1p_exp()) * 2.0
}

/// The Cholesky factor of a correlation matrix from k(k−1)/2 canonical partial
/// correlations zᵢⱼ = tanh(yᵢⱼ), and the logs of its diagonal; adds the log Jacobian of
/// y ↦ the strictly lower entries of L to `lp`.
fn corr_cholesky<S: Real>(y: &[S], k: usize, lp: &mut S) -> (Vec<Vec<S>>, Vec<S>) {
    let zero = S::from(0.0);
    let mut l = vec![vec![zero; k]; k];
    let mut log_diag = vec![zero; k];
    let mut next = y.iter();
    for i in 0..k {
        // ln of what is left of row i's unit length: Σ over the entries to come of L²ᵢⱼ.
        let mut log_rem = zero;
        for (j, lij) in l[i][..i].iter_mut().enumerate() {
            let yij = *next.next().expect("length checked");
            let log1m_z2 = log1m_tanh_squared(yij);
            *lij = if j == 0 {
                yij.tanh()
            } else {
                yij.tanh() * (log_rem * 0.5).exp()
            };
            *lp += log_rem * 0.5 + log1m_z2;
            log_rem += log1m_z2;
        }
        log_diag[i] = log_rem * 0.5;
        l[i][i] = if i == 0 {
            S::from(1.0)
        } else {
            log_diag[i].exp()
        };
    }
    (l, log_diag)
}

/// k(k−1)/2 unconstrained values to the Cholesky factor L of a k × k correlation matrix
/// (lower triangular, positive diagonal, rows of unit length), as Stan: canonical partial
/// correlations zᵢⱼ = tanh(yᵢⱼ), then Lᵢⱼ = zᵢⱼ √(1 − Σₘ₍ⱼ L²ᵢₘ) along each row and the
/// diagonal the rest. Adds the log Jacobian of y ↦ the strictly lower entries of L,
/// Σᵢ₍ⱼ [ln(1 − z²ᵢⱼ) + ½ ln(1 − Σₘ₍ⱼ L²ᵢₘ)], to `lp`; both logs are carried as running
/// sums of ln(1 − z²) = −2 ln cosh y, so rows close to saturation and large |y| keep
/// their accuracy. `y` is read row by row (L₂₁, L₃₁, L₃₂, …).
///
/// # Panics
///
/// If `y.len() != k(k−1)/2`.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// let mut lp = 0.0;
/// let l = cholesky_corr_constrain(&[0.4, -1.0, 0.3], 3, &mut lp);
/// for row in &l {
///     let norm: f64 = row.iter().map(|v| v * v).sum();
///     assert!((norm - 1.0).abs() < 1e-15);
/// }
/// let y = cholesky_corr_free(&l)?;
/// assert!((y[1] + 1.0).abs() < 1e-14);
/// # Ok::<(), DomainError>(())
/// ```
pub fn cholesky_corr_constrain<S: Real>(y: &[S], k: usize, lp: &mut S) -> Vec<Vec<S>> {
    check_len(
        "cholesky_corr_constrain",
        y.len(),
        k * k.saturating_sub(1) / 2,
        k,
    );
    corr_cholesky(y, k, lp).0
}

/// The inverse of [`cholesky_corr_constrain`]: yᵢⱼ = atanh(Lᵢⱼ / √(Σₘ≥ⱼ L²ᵢₘ)).
///
/// # Errors
///
/// A [`DomainError`] if `l` is not square, not lower triangular, has a diagonal entry
/// that is not positive, or a row whose squared length is further than 1e-8 from 1.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// let e = cholesky_corr_free(&[vec![1.0, 0.0], vec![0.5, 0.5]]).unwrap_err();
/// assert_eq!(
///     e.to_string(),
///     "cholesky_corr_free: Cholesky factor of correlation matrix is not a valid unit \
///      vector. The sum of the squares of the elements should be 1, but is 0.5"
/// );
/// ```
pub fn cholesky_corr_free(l: &[Vec<f64>]) -> Result<Vec<f64>, DomainError> {
    const F: &str = "cholesky_corr_free";
    const N: &str = "Cholesky factor of correlation matrix";
    let k = check_square(F, N, l)?;
    check_lower_triangular(F, N, l)?;
    check_positive_diagonal(F, N, l)?;
    for row in l {
        crate::dist::multi::check::check_unit_vector(F, N, row)?;
    }
    Ok(corr_free(l, k))
}

/// The partial correlations of the rows of a Cholesky factor of a correlation matrix.
fn corr_free(l: &[Vec<f64>], k: usize) -> Vec<f64> {
    let mut y = Vec::with_capacity(k * k.saturating_sub(1) / 2);
    for (i, row) in l.iter().enumerate() {
        // rest[j] = Σₘ≥ⱼ L²ᵢₘ, summed from the diagonal back (no cancellation).
        let mut rest = vec![0.0; i + 2];
        for j in (0..=i).rev() {
            rest[j] = rest[j + 1] + row[j] * row[j];
        }
        for j in 0..i {
            y.push((row[j] / rest[j].sqrt()).atanh());
        }
    }
    y
}

/// k(k+1)/2 unconstrained values to a k × k lower triangular matrix with positive
/// diagonal (a Cholesky factor of a covariance matrix), read row by row with the
/// diagonal entry last in each row and exponentiated; adds the log Jacobian, the sum of
/// the diagonal's `y`, to `lp`.
///
/// # Panics
///
/// If `y.len() != k(k+1)/2`.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// let mut lp = 0.0;
/// let l = cholesky_cov_constrain(&[0.0, 0.5, 1.0], 2, &mut lp);
/// assert_eq!(l, vec![vec![1.0, 0.0], vec![0.5, 1.0_f64.exp()]]);
/// assert_eq!(lp, 1.0);
/// assert_eq!(cholesky_cov_free(&l)?, vec![0.0, 0.5, 1.0]);
/// # Ok::<(), DomainError>(())
/// ```
pub fn cholesky_cov_constrain<S: Real>(y: &[S], k: usize, lp: &mut S) -> Vec<Vec<S>> {
    check_len("cholesky_cov_constrain", y.len(), k * (k + 1) / 2, k);
    cov_cholesky(y, k, lp)
}

/// The lower triangular factor of [`cholesky_cov_constrain`].
fn cov_cholesky<S: Real>(y: &[S], k: usize, lp: &mut S) -> Vec<Vec<S>> {
    let mut next = y.iter();
    (0..k)
        .map(|i| {
            let mut row = vec![S::from(0.0); k];
            for r in row.iter_mut().take(i) {
                *r = *next.next().expect("length checked");
            }
            let d = *next.next().expect("length checked");
            *lp += d;
            row[i] = d.exp();
            row
        })
        .collect()
}

/// The inverse of [`cholesky_cov_constrain`].
///
/// # Errors
///
/// A [`DomainError`] if `l` is not square, not lower triangular, or has a diagonal entry
/// that is not positive.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// assert!(cholesky_cov_free(&[vec![1.0, 0.1], vec![0.5, 1.0]]).is_err());
/// ```
pub fn cholesky_cov_free(l: &[Vec<f64>]) -> Result<Vec<f64>, DomainError> {
    const F: &str = "cholesky_cov_free";
    const N: &str = "Cholesky factor";
    check_square(F, N, l)?;
    check_lower_triangular(F, N, l)?;
    check_positive_diagonal(F, N, l)?;
    Ok(cov_free(l))
}

/// The entries of a lower triangular factor, row by row, the diagonal as its log.
fn cov_free(l: &[Vec<f64>]) -> Vec<f64> {
    let mut y = Vec::new();
    for (i, row) in l.iter().enumerate() {
        y.extend_from_slice(&row[..i]);
        y.push(row[i].ln());
    }
    y
}

/// `L Lᵀ` of a lower triangular `L`, each entry one dot product (one node on the tape).
fn times_transpose<S: Real>(l: &[Vec<S>], k: usize) -> Vec<Vec<S>> {
    let mut m = vec![vec![S::from(0.0); k]; k];
    for i in 0..k {
        for j in 0..=i {
            let v: S = dot_product(&l[i][..=j], &l[j][..=j]);
            m[i][j] = v;
            m[j][i] = v;
        }
    }
    m
}

/// k(k−1)/2 unconstrained values to a k × k correlation matrix Ω = LLᵀ, with L from
/// [`cholesky_corr_constrain`] (the same `y`, read row by row). Adds the log Jacobian of
/// y ↦ the strictly lower entries of Ω: that of y ↦ L plus Σⱼ (k − j) ln Lⱼⱼ (j from 1).
/// The diagonal of Ω is exactly 1.
///
/// # Panics
///
/// If `y.len() != k(k−1)/2`.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// let mut lp = 0.0;
/// let omega = corr_matrix_constrain(&[0.5, -0.2, 0.1], 3, &mut lp);
/// assert_eq!(omega[1][1], 1.0);
/// assert!((omega[1][0] - 0.5_f64.tanh()).abs() < 1e-15);
/// let y = corr_matrix_free(&omega)?;
/// assert!((y[2] - 0.1).abs() < 1e-12);
/// # Ok::<(), DomainError>(())
/// ```
pub fn corr_matrix_constrain<S: Real>(y: &[S], k: usize, lp: &mut S) -> Vec<Vec<S>> {
    check_len(
        "corr_matrix_constrain",
        y.len(),
        k * k.saturating_sub(1) / 2,
        k,
    );
    let (l, log_diag) = corr_cholesky(y, k, lp);
    for (j, &ld) in log_diag.iter().enumerate().skip(1) {
        *lp += ld * (k - 1 - j) as f64;
    }
    let mut m = times_transpose(&l, k);
    for (i, row) in m.iter_mut().enumerate() {
        row[i] = S::from(1.0);
    }
    m
}

/// The inverse of [`corr_matrix_constrain`]: the partial correlations of its Cholesky
/// factor.
///
/// # Errors
///
/// A [`DomainError`] if `m` is not square, its diagonal is not 1, it is not symmetric or
/// not positive definite (each to 1e-8).
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// let e = corr_matrix_free(&[vec![1.0, 0.9], vec![0.9, 0.5]]).unwrap_err();
/// assert!(e.to_string().contains("is not a valid correlation matrix"));
/// ```
pub fn corr_matrix_free(m: &[Vec<f64>]) -> Result<Vec<f64>, DomainError> {
    const F: &str = "corr_matrix_free";
    const N: &str = "Correlation matrix";
    let k = check_square(F, N, m)?;
    check_unit_diagonal(F, N, m)?;
    check_symmetric(F, N, m)?;
    let l = factor(F, N, m, k)?;
    Ok(corr_free(&l, k))
}

/// The Cholesky factor of a checked square symmetric matrix, as rows.
fn factor(
    f: &'static str,
    n: &'static str,
    m: &[Vec<f64>],
    k: usize,
) -> Result<Vec<Vec<f64>>, DomainError> {
    let flat: Vec<f64> = m.iter().flatten().copied().collect();
    let l = dense_cholesky(&flat, k)
        .ok_or_else(|| fail(f, n, None, f64::NAN, Structure::PositiveDefinite))?;
    Ok(l.chunks(k.max(1)).map(<[f64]>::to_vec).collect())
}

/// k + k(k−1)/2 unconstrained values to a k × k covariance matrix Σ = LLᵀ, with L from
/// [`cholesky_cov_constrain`] (the same `y`, row by row, each diagonal entry last and
/// exponentiated). Adds the log Jacobian of y ↦ the lower entries of Σ (diagonal
/// included), as Stan: k ln 2 + Σⱼ (k − j + 2) ln Lⱼⱼ (j from 1).
///
/// # Panics
///
/// If `y.len() != k(k+1)/2`.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// let mut lp = 0.0;
/// let sigma = cov_matrix_constrain(&[0.0, 0.5, 0.0], 2, &mut lp);
/// assert_eq!(sigma, vec![vec![1.0, 0.5], vec![0.5, 1.25]]);
/// assert_eq!(cov_matrix_free(&sigma)?, vec![0.0, 0.5, 0.0]);
/// # Ok::<(), DomainError>(())
/// ```
pub fn cov_matrix_constrain<S: Real>(y: &[S], k: usize, lp: &mut S) -> Vec<Vec<S>> {
    check_len("cov_matrix_constrain", y.len(), k * (k + 1) / 2, k);
    let mut jac = S::from(0.0);
    let l = cov_cholesky(y, k, &mut jac);
    *lp += k as f64 * LN_2;
    // The diagonal's y is ln Lⱼⱼ; cov_cholesky added each once, the map to Σ adds k − j.
    let mut d = 0;
    for (j, _) in l.iter().enumerate() {
        d += j;
        *lp += y[d] * (k - j + 1) as f64;
        d += 1;
    }
    times_transpose(&l, k)
}

/// The inverse of [`cov_matrix_constrain`]: the entries of its Cholesky factor, row by
/// row, the diagonal as its log.
///
/// # Errors
///
/// A [`DomainError`] if `m` is not square, not symmetric (to 1e-8), or not positive
/// definite.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// assert_eq!(
///     cov_matrix_free(&[vec![1.0, 2.0], vec![2.0, 1.0]]).unwrap_err().to_string(),
///     "cov_matrix_free: Covariance matrix is not positive definite."
/// );
/// ```
pub fn cov_matrix_free(m: &[Vec<f64>]) -> Result<Vec<f64>, DomainError> {
    const F: &str = "cov_matrix_free";
    const N: &str = "Covariance matrix";
    let k = check_square(F, N, m)?;
    check_symmetric(F, N, m)?;
    let l = factor(F, N, m, k)?;
    Ok(cov_free(&l))
}
