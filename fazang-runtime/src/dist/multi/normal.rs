//! The multivariate normal, by its covariance, the Cholesky factor of its covariance, or
//! its precision.

use super::args::{Flat, MultiArg};
use super::check::{check_positive_diagonal, check_symmetric, fail, Structure};
use super::dense::{
    cholesky, inverse_from_cholesky, log_det_from_cholesky, lower, solve_lower,
    solve_lower_transposed, symmetric,
};
use super::obs::Obs;
use super::record::{zeros_if, Operands};
use crate::dist::args::{Args, Inner, Ret};
use crate::dist::special::HALF_LN_TWO_PI;
use crate::dist::DomainError;
use crate::Real;

/// Log of the multivariate normal density of `y` with mean `mu` and the covariance
/// `L Lᵀ` given by its Cholesky factor `l`, summed over the observations:
///
/// ln N(y | μ, LLᵀ) = Σᵢ [ −K/2 ln(2π) − Σⱼ ln Lⱼⱼ − ½ ‖L⁻¹(yᵢ − μᵢ)‖² ]
///
/// `y` and `mu` are vectors of length K, or several as rows (a vector is broadcast
/// against rows); `l` is K × K, read from its lower triangle (the entries above the
/// diagonal are ignored, as in Stan). One node is recorded, whatever the number of
/// observations, with partials (zᵢ = L⁻¹rᵢ, aᵢ = L⁻ᵀzᵢ, rᵢ = yᵢ − μᵢ) ∂/∂yᵢ = −aᵢ,
/// ∂/∂μᵢ = aᵢ, ∂/∂L = Σᵢ aᵢzᵢᵀ − n diag(1/Lⱼⱼ) (lower triangle); two triangular solves
/// and an outer product per observation, no inverse.
///
/// # Errors
///
/// A [`DomainError`] if the sizes disagree, `y` has a NaN, `mu` is not finite, or the
/// diagonal of `l` is not positive.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// let l = vec![vec![1.0, 0.0], vec![0.5, 2.0]];
/// let y = vec![vec![0.3, -1.0], vec![1.2, 0.4]];
/// let (v, g) = gradient(|mu| multi_normal_cholesky_lpdf(&y, mu, &l).unwrap(), &[0.0, 0.1]);
/// // Two observations, each one quadratic form; g is Σᵢ Σ⁻¹(yᵢ − μ).
/// assert!(v.is_finite() && g.len() == 2);
/// # Ok::<(), DomainError>(())
/// ```
pub fn multi_normal_cholesky_lpdf<Y: MultiArg, M: MultiArg, L: MultiArg>(
    y: Y,
    mu: M,
    l: L,
) -> Result<Ret<(Flat<Y>, Flat<M>, Flat<L>)>, DomainError>
where
    (Flat<Y>, Flat<M>, Flat<L>): Args,
{
    const F: &str = "multi_normal_cholesky_lpdf";
    let names = (
        l,
        "rows of covariance parameter",
        "columns of covariance parameter",
    );
    let obs = Obs::check(F, y, mu, names)?;
    if obs.n == 0 || obs.k == 0 {
        return Ok(0.0.into());
    }
    check_positive_diagonal(F, "Cholesky factor of covariance matrix", l)?;
    let x = Operands::new((Flat::new(y), Flat::new(mu), Flat::new(l)));
    let k = obs.k;
    let lm = lower(k, |i, j| x.read_at(2, i * k + j));
    Ok(normal_with_factor(&x, &obs, &lm, None))
}

/// Log of the multivariate normal density of `y` with mean `mu` and covariance `sigma`,
/// summed over the observations:
///
/// ln N(y | μ, Σ) = Σᵢ [ −K/2 ln(2π) − ½ ln det Σ − ½ (yᵢ − μᵢ)ᵀ Σ⁻¹ (yᵢ − μᵢ) ]
///
/// Arguments as for [`multi_normal_cholesky_lpdf`], with `sigma` K × K symmetric positive
/// definite. Σ is factored once (on values, not on the tape); one node is recorded, with
/// partials ∂/∂yᵢ = −aᵢ, ∂/∂μᵢ = aᵢ (aᵢ = Σ⁻¹rᵢ) and ∂/∂Σ = ½ Σᵢ aᵢaᵢᵀ − n/2 Σ⁻¹, the
/// symmetric gradient (each off-diagonal entry gets its own partial; a parameter placed
/// in both mirrored entries gets their sum).
///
/// # Errors
///
/// A [`DomainError`] for inconsistent sizes, a NaN in `y`, `mu` not finite, `sigma` not
/// symmetric (to 1e-8) or not positive definite.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// let sigma = vec![vec![2.0, 0.3], vec![0.3, 1.0]];
/// let lp = multi_normal_lpdf(&[0.5, -0.2], &[0.0, 0.0], &sigma)?;
/// let l = vec![vec![2.0_f64.sqrt(), 0.0], vec![0.3 / 2.0_f64.sqrt(), (1.0 - 0.045_f64).sqrt()]];
/// let same = multi_normal_cholesky_lpdf(&[0.5, -0.2], &[0.0, 0.0], &l)?;
/// assert!((lp - same).abs() < 1e-14);
/// let bad = vec![vec![1.0, 2.0], vec![2.0, 1.0]];
/// assert_eq!(
///     multi_normal_lpdf(&[0.5, -0.2], &[0.0, 0.0], &bad).unwrap_err().to_string(),
///     "multi_normal_lpdf: Covariance matrix is not positive definite."
/// );
/// # Ok::<(), DomainError>(())
/// ```
pub fn multi_normal_lpdf<Y: MultiArg, M: MultiArg, Sg: MultiArg>(
    y: Y,
    mu: M,
    sigma: Sg,
) -> Result<Ret<(Flat<Y>, Flat<M>, Flat<Sg>)>, DomainError>
where
    (Flat<Y>, Flat<M>, Flat<Sg>): Args,
{
    const F: &str = "multi_normal_lpdf";
    let names = (
        sigma,
        "rows of covariance parameter",
        "columns of covariance parameter",
    );
    let obs = Obs::check(F, y, mu, names)?;
    if obs.n == 0 || obs.k == 0 {
        return Ok(0.0.into());
    }
    check_symmetric(F, "Covariance matrix", sigma)?;
    let x = Operands::new((Flat::new(y), Flat::new(mu), Flat::new(sigma)));
    let k = obs.k;
    let s = symmetric(k, |i, j| x.read_at(2, i * k + j));
    let l = cholesky(&s, k).ok_or_else(not_pd(F, "Covariance matrix"))?;
    Ok(normal_with_factor(&x, &obs, &l, Some(())))
}

/// The error of a matrix that is not positive definite.
pub(crate) fn not_pd(f: &'static str, name: &'static str) -> impl FnOnce() -> DomainError {
    move || fail(f, name, None, f64::NAN, Structure::PositiveDefinite)
}

/// The density of [`multi_normal_cholesky_lpdf`] (`covariance` `None`: argument 2 is
/// `l`) or [`multi_normal_lpdf`] (`Some`: argument 2 is Σ = L Lᵀ), recorded.
fn normal_with_factor<O: Args>(
    x: &Operands<O>,
    obs: &Obs,
    l: &[Inner<O>],
    covariance: Option<()>,
) -> O::Ret {
    let (n, k) = (obs.n, obs.k);
    let (ylen, mulen) = obs.lens();
    let (y, mu) = (x.read(0, ylen), x.read(1, mulen));
    let mut dy = zeros_if(x.needs(0), ylen);
    let mut dmu = zeros_if(x.needs(1), mulen);
    let mut dm = zeros_if(x.needs(2), k * k);
    let back = dy.is_some() || dmu.is_some() || dm.is_some();
    let zero = Inner::<O>::from(0.0);
    let (mut z, mut a) = (vec![zero; k], vec![zero; k]);
    let mut quad = zero;
    for i in 0..n {
        obs.residual(i, &y, &mu, &mut z);
        solve_lower(l, k, &mut z);
        quad += super::dense::dot(&z, &z);
        if !back {
            continue;
        }
        a.copy_from_slice(&z);
        solve_lower_transposed(l, k, &mut a);
        obs.scatter(i, &a, Inner::<O>::from(-1.0), &mut dy, &mut dmu);
        if let Some(dm) = &mut dm {
            // Cholesky factor: Σᵢ aᵢ zᵢᵀ on the lower triangle; covariance: ½ Σᵢ aᵢ aᵢᵀ.
            let right = if covariance.is_some() { &a } else { &z };
            let half = if covariance.is_some() { 0.5 } else { 1.0 };
            for r in 0..k {
                let ar = a[r] * half;
                for c in 0..=r {
                    dm[r * k + c] += ar * right[c];
                }
            }
        }
    }
    let nf = n as f64;
    let log_det = log_det_from_cholesky(l, k);
    let value = -(quad * 0.5) - log_det * (0.5 * nf) - HALF_LN_TWO_PI * (nf * k as f64);
    if let Some(dm) = &mut dm {
        if covariance.is_some() {
            let inv = inverse_from_cholesky(l, k);
            for r in 0..k {
                for c in 0..=r {
                    let v = dm[r * k + c] - inv[r * k + c] * (0.5 * nf);
                    dm[r * k + c] = v;
                    dm[c * k + r] = v;
                }
            }
        } else {
            for j in 0..k {
                dm[j * k + j] -= l[j * k + j].recip() * nf;
            }
        }
    }
    x.record(value, |p| {
        p.all(0, dy);
        p.all(1, dmu);
        if covariance.is_some() {
            p.all(2, dm);
        } else {
            p.lower(2, k, dm);
        }
    })
}

/// Log of the multivariate normal density of `y` with mean `mu` and precision matrix
/// `omega` (the inverse covariance), summed over the observations:
///
/// ln N(y | μ, Ω⁻¹) = Σᵢ [ −K/2 ln(2π) + ½ ln det Ω − ½ (yᵢ − μᵢ)ᵀ Ω (yᵢ − μᵢ) ]
///
/// Arguments as for [`multi_normal_lpdf`], `omega` symmetric positive definite. One node,
/// with partials ∂/∂yᵢ = −Ωrᵢ, ∂/∂μᵢ = Ωrᵢ, ∂/∂Ω = n/2 Ω⁻¹ − ½ Σᵢ rᵢrᵢᵀ.
///
/// # Errors
///
/// As [`multi_normal_lpdf`], for the "Precision matrix".
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// let omega = vec![vec![2.0, 0.0], vec![0.0, 0.5]];
/// let sigma = vec![vec![0.5, 0.0], vec![0.0, 2.0]];
/// let a = multi_normal_prec_lpdf(&[0.1, 0.2], &[0.0, 0.0], &omega)?;
/// let b = multi_normal_lpdf(&[0.1, 0.2], &[0.0, 0.0], &sigma)?;
/// assert!((a - b).abs() < 1e-14);
/// # Ok::<(), DomainError>(())
/// ```
pub fn multi_normal_prec_lpdf<Y: MultiArg, M: MultiArg, Om: MultiArg>(
    y: Y,
    mu: M,
    omega: Om,
) -> Result<Ret<(Flat<Y>, Flat<M>, Flat<Om>)>, DomainError>
where
    (Flat<Y>, Flat<M>, Flat<Om>): Args,
{
    const F: &str = "multi_normal_prec_lpdf";
    let names = (
        omega,
        "rows of precision parameter",
        "columns of precision parameter",
    );
    let obs = Obs::check(F, y, mu, names)?;
    if obs.n == 0 || obs.k == 0 {
        return Ok(0.0.into());
    }
    check_symmetric(F, "Precision matrix", omega)?;
    let x = Operands::new((Flat::new(y), Flat::new(mu), Flat::new(omega)));
    let (n, k) = (obs.n, obs.k);
    let om = symmetric(k, |i, j| x.read_at(2, i * k + j));
    let l = cholesky(&om, k).ok_or_else(not_pd(F, "Precision matrix"))?;
    let (ylen, mulen) = obs.lens();
    let (yv, muv) = (x.read(0, ylen), x.read(1, mulen));
    let (mut dy, mut dmu) = (zeros_if(x.needs(0), ylen), zeros_if(x.needs(1), mulen));
    let mut dom = zeros_if(x.needs(2), k * k);
    let zero = Inner::<(Flat<Y>, Flat<M>, Flat<Om>)>::from(0.0);
    let (mut r, mut w) = (vec![zero; k], vec![zero; k]);
    let mut quad = zero;
    for i in 0..n {
        obs.residual(i, &yv, &muv, &mut r);
        for (row, wr) in w.iter_mut().enumerate() {
            *wr = super::dense::dot(&om[row * k..(row + 1) * k], &r);
        }
        quad += super::dense::dot(&r, &w);
        obs.scatter(i, &w, zero - 1.0, &mut dy, &mut dmu);
        if let Some(d) = &mut dom {
            for a in 0..k {
                for b in 0..k {
                    d[a * k + b] -= r[a] * r[b] * 0.5;
                }
            }
        }
    }
    let nf = n as f64;
    if let Some(d) = &mut dom {
        let inv = inverse_from_cholesky(&l, k);
        for (di, vi) in d.iter_mut().zip(&inv) {
            *di += *vi * (0.5 * nf);
        }
    }
    let value =
        log_det_from_cholesky(&l, k) * (0.5 * nf) - quad * 0.5 - HALF_LN_TWO_PI * (nf * k as f64);
    Ok(x.record(value, |p| {
        p.all(0, dy);
        p.all(1, dmu);
        p.all(2, dom);
    }))
}
