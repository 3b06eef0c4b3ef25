//! The LKJ distribution of correlation matrices (Lewandowski, Kurowicka and Joe 2009),
//! of the matrix itself or of its Cholesky factor.

use super::args::{Flat, MultiArg};
use super::check::{
    check_lower_triangular, check_positive_diagonal, check_square, check_symmetric,
    check_unit_diagonal,
};
use super::dense::{cholesky, inverse_from_cholesky, log_det_from_cholesky, symmetric};
use super::normal::not_pd;
use super::record::{zeros_if, Operands};
use crate::dist::args::{Arg, Args, Inner, Ret};
use crate::dist::check::check_positive;
use crate::dist::DomainError;
use crate::Real;

/// Log of the LKJ density of the Cholesky factor `l` of a K × K correlation matrix, with
/// shape `eta`:
///
/// ln LkjCholesky(L | η) = c_K(η) + Σⱼ₌₂ᴷ (K − j + 2η − 2) ln Lⱼⱼ
///
/// (j from 1), the density of Ω = LLᵀ, `lkj_corr_lpdf(LLᵀ, η)`, times the Jacobian of
/// L ↦ Ω. The normalising constant (LKJ 2009, theorem 5) is
/// c_K(η) = (K−1) ln Γ(η + (K−1)/2) − Σₖ₌₁ᴷ⁻¹ [ k/2 ln π + ln Γ(η + (K−1−k)/2) ].
/// One node; partials ∂/∂Lⱼⱼ = (K − j + 2η − 2)/Lⱼⱼ and
/// ∂/∂η = c′_K(η) + 2 Σⱼ₌₂ᴷ ln Lⱼⱼ (with ψ for the derivative of ln Γ).
///
/// # Errors
///
/// A [`DomainError`] if `eta` is not positive, `l` is not square, not lower triangular,
/// or its diagonal is not positive (Stan's `check_cholesky_factor`).
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// let mut lp = 0.0;
/// let l = cholesky_corr_constrain(&[0.3, -0.2, 0.5], 3, &mut lp);
/// let density = lkj_corr_cholesky_lpdf(&l, 2.0)?;
/// assert!(density.is_finite());
/// // η = 1: uniform over correlation matrices.
/// let omega = vec![vec![1.0, 0.0], vec![0.0, 1.0]];
/// assert!((lkj_corr_lpdf(&omega, 1.0)? - (-2.0_f64.ln())).abs() < 1e-15);
/// # Ok::<(), DomainError>(())
/// ```
pub fn lkj_corr_cholesky_lpdf<L: MultiArg, E: Arg>(
    l: L,
    eta: E,
) -> Result<Ret<(Flat<L>, E)>, DomainError>
where
    (Flat<L>, E): Args,
{
    const F: &str = "lkj_corr_cholesky_lpdf";
    check_positive(F, "Shape parameter", eta)?;
    let k = check_square(F, "Random variable", l)?;
    check_lower_triangular(F, "Random variable", l)?;
    check_positive_diagonal(F, "Random variable", l)?;
    if k == 0 {
        return Ok(0.0.into());
    }
    let x = Operands::new((Flat::new(l), eta));
    let eta = x.read_at(1, 0);
    let (c, dc) = lkj_constant(eta, k);
    let zero = Inner::<(Flat<L>, E)>::from(0.0);
    let (mut value, mut sum_log) = (c, zero);
    let mut dl = zeros_if(x.needs(0), k * k);
    for j in 1..k {
        let ljj = x.read_at(0, j * k + j);
        let coef = eta * 2.0 + (k as f64 - j as f64 - 3.0);
        let ln = ljj.ln();
        value += coef * ln;
        sum_log += ln;
        if let Some(dl) = &mut dl {
            dl[j * k + j] = coef / ljj;
        }
    }
    let need_eta = x.needs(1);
    Ok(x.record(value, |p| {
        if let Some(dl) = dl {
            for j in 1..k {
                p.one(0, j * k + j, dl[j * k + j]);
            }
        }
        if need_eta {
            p.one(1, 0, dc + sum_log * 2.0);
        }
    }))
}

/// Log of the LKJ density of the K × K correlation matrix `omega` with shape `eta`:
///
/// ln Lkj(Ω | η) = c_K(η) + (η − 1) ln det Ω
///
/// (c_K as in [`lkj_corr_cholesky_lpdf`]). Ω is factored once on values; one node, with
/// partials ∂/∂Ω = (η − 1) Ω⁻¹ (the symmetric gradient) and ∂/∂η = c′_K(η) + ln det Ω.
///
/// # Errors
///
/// A [`DomainError`] if `eta` is not positive, or `omega` is not a correlation matrix:
/// square, unit diagonal, symmetric, positive definite (each to 1e-8, Stan's
/// `check_corr_matrix`).
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// let omega = vec![vec![1.0, 0.3], vec![0.3, 1.0]];
/// let (v, g) = gradient(|eta| lkj_corr_lpdf(&omega, eta[0]).unwrap(), &[2.0]);
/// assert!(v.is_finite() && g[0].is_finite());
/// # Ok::<(), DomainError>(())
/// ```
pub fn lkj_corr_lpdf<Om: MultiArg, E: Arg>(
    omega: Om,
    eta: E,
) -> Result<Ret<(Flat<Om>, E)>, DomainError>
where
    (Flat<Om>, E): Args,
{
    const F: &str = "lkj_corr_lpdf";
    check_positive(F, "Shape parameter", eta)?;
    let k = check_square(F, "Correlation matrix", omega)?;
    check_unit_diagonal(F, "Correlation matrix", omega)?;
    check_symmetric(F, "Correlation matrix", omega)?;
    if k == 0 {
        return Ok(0.0.into());
    }
    let x = Operands::new((Flat::new(omega), eta));
    let s = symmetric(k, |i, j| x.read_at(0, i * k + j));
    let l = cholesky(&s, k).ok_or_else(not_pd(F, "Correlation matrix"))?;
    let eta = x.read_at(1, 0);
    let (c, dc) = lkj_constant(eta, k);
    let log_det = log_det_from_cholesky(&l, k);
    let value = c + (eta - 1.0) * log_det;
    let domega = x.needs(0).then(|| {
        let mut inv = inverse_from_cholesky(&l, k);
        for v in &mut inv {
            *v *= eta - 1.0;
        }
        inv
    });
    let need_eta = x.needs(1);
    Ok(x.record(value, |p| {
        p.all(0, domega);
        if need_eta {
            p.one(1, 0, dc + log_det);
        }
    }))
}

/// The LKJ normalising constant c_K(η) and its derivative in η.
fn lkj_constant<T: Real>(eta: T, k: usize) -> (T, T) {
    let km1 = (k - 1) as f64;
    let mut c = (eta + km1 * 0.5).log_gamma() * km1;
    let mut dc = (eta + km1 * 0.5).digamma() * km1;
    for i in 1..k {
        let shift = (km1 - i as f64) * 0.5;
        c -= (eta + shift).log_gamma() + 0.5 * i as f64 * std::f64::consts::PI.ln();
        dc -= (eta + shift).digamma();
    }
    (c, dc)
}
