//! Location-scale families on ℝ besides the normal: Cauchy, Student's t, logistic and
//! double exponential (Laplace).

use super::args::{Arg, Args, Ret};
use super::check::{
    check_consistent_sizes, check_finite, check_not_nan, check_positive_finite,
    location_scale_sizes,
};
use super::kernel::{density, Hoist};
use super::special::{digamma, lgamma, LN_PI};
use super::DomainError;
use crate::math::special::sign_or_zero;
use std::f64::consts::LN_2;

/// Log of the Cauchy density, summed over the elements:
///
/// ln Cauchy(y | μ, σ) = Σᵢ [ −ln π − ln σᵢ − ln(1 + ((yᵢ − μᵢ)/σᵢ)²) ]
///
/// `y` not NaN, location `mu` finite, scale `sigma` > 0 and finite; arguments as for
/// [`normal_lpdf`](super::normal_lpdf). Partials, with z = (y − μ)/σ:
/// ∂/∂y = −2z/(σ(1 + z²)), ∂/∂μ = −∂/∂y, ∂/∂σ = (z² − 1)/(σ(1 + z²)).
///
/// # Errors
///
/// A [`DomainError`] if `y` is NaN, `mu` is not finite, `sigma` is not positive and
/// finite, or sequence lengths differ.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// let lp = cauchy_lpdf(1.0, 0.0, 1.0)?;
/// assert!((lp - (0.5 / std::f64::consts::PI).ln()).abs() < 1e-15);
/// # Ok::<(), DomainError>(())
/// ```
pub fn cauchy_lpdf<Y: Arg, M: Arg, Sg: Arg>(
    y: Y,
    mu: M,
    sigma: Sg,
) -> Result<Ret<(Y, M, Sg)>, DomainError>
where
    (Y, M, Sg): Args,
{
    const F: &str = "cauchy_lpdf";
    let n = location_scale_sizes(F, y, mu, sigma)?;
    check_not_nan(F, "Random variable", y)?;
    check_finite(F, "Location parameter", mu)?;
    check_positive_finite(F, "Scale parameter", sigma)?;
    let s = Hoist::new(sigma, |s| (1.0 / s, s.ln()));
    Ok(density(n, (y, mu, sigma), |i, _| {
        let (inv_s, ln_s) = s.at(i);
        let z = (y.value(i) - mu.value(i)) * inv_s;
        let z2 = z * z;
        let w = inv_s / (1.0 + z2);
        let dy = -2.0 * z * w;
        (-LN_PI - ln_s - z2.ln_1p(), [dy, -dy, (z2 - 1.0) * w])
    }))
}

/// Log of Student's t density with `nu` degrees of freedom, summed over the elements:
///
/// ln StudentT(y | ν, μ, σ) = Σᵢ [ ln Γ((ν+1)/2) − ln Γ(ν/2) − ½ ln(νπ) − ln σ
///   − (ν+1)/2 · ln(1 + ((y − μ)/σ)²/ν) ]
///
/// `y` not NaN, `nu` > 0 and finite, location `mu` finite, scale `sigma` > 0 and finite;
/// arguments as for [`normal_lpdf`](super::normal_lpdf) (Stan's argument order: `y, nu,
/// mu, sigma`). Partials, with r = z²/ν and z = (y − μ)/σ:
/// ∂/∂y = −(ν+1) z/(σν(1 + r)), ∂/∂μ = −∂/∂y, ∂/∂σ = ((ν+1) r/(1+r) − 1)/σ,
/// ∂/∂ν = ½ [ψ((ν+1)/2) − ψ(ν/2) − ln(1 + r) + ((ν+1) r/(1+r) − 1)/ν].
///
/// # Errors
///
/// A [`DomainError`] if `y` is NaN, `nu` or `sigma` is not positive and finite, `mu` is
/// not finite, or sequence lengths differ.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// // With one degree of freedom, Student's t is the Cauchy distribution.
/// let t = student_t_lpdf(&[0.3, 2.0], 1.0, 0.5, 1.5)?;
/// let c = cauchy_lpdf(&[0.3, 2.0], 0.5, 1.5)?;
/// assert!((t - c).abs() < 1e-14);
/// # Ok::<(), DomainError>(())
/// ```
pub fn student_t_lpdf<Y: Arg, N: Arg, M: Arg, Sg: Arg>(
    y: Y,
    nu: N,
    mu: M,
    sigma: Sg,
) -> Result<Ret<(Y, N, M, Sg)>, DomainError>
where
    (Y, N, M, Sg): Args,
{
    const F: &str = "student_t_lpdf";
    let n = check_consistent_sizes(
        F,
        &[
            ("Random variable", y.vector_len()),
            ("Degrees of freedom parameter", nu.vector_len()),
            ("Location parameter", mu.vector_len()),
            ("Scale parameter", sigma.vector_len()),
        ],
    )?;
    check_not_nan(F, "Random variable", y)?;
    check_positive_finite(F, "Degrees of freedom parameter", nu)?;
    check_finite(F, "Location parameter", mu)?;
    check_positive_finite(F, "Scale parameter", sigma)?;
    // The normalising constant of ν and the digamma difference of ∂/∂ν.
    let c = Hoist::new(nu, |v| {
        lgamma(0.5 * (v + 1.0)) - lgamma(0.5 * v) - 0.5 * (v.ln() + LN_PI)
    });
    let dg = Hoist::new(nu, |v| digamma(0.5 * (v + 1.0)) - digamma(0.5 * v));
    let s = Hoist::new(sigma, |s| (1.0 / s, s.ln()));
    Ok(density(n, (y, nu, mu, sigma), |i, need| {
        let (inv_s, ln_s) = s.at(i);
        let v = nu.value(i);
        let z = (y.value(i) - mu.value(i)) * inv_s;
        let r = z * z / v;
        let ln1p_r = r.ln_1p();
        let lp = if need.value {
            c.at(i) - ln_s - 0.5 * (v + 1.0) * ln1p_r
        } else {
            0.0
        };
        let dy = -(v + 1.0) * z * inv_s / (v * (1.0 + r));
        let rep = (v + 1.0) * r / (1.0 + r) - 1.0;
        let dnu = if need.d[1] {
            0.5 * (dg.at(i) - ln1p_r + rep / v)
        } else {
            0.0
        };
        (lp, [dy, dnu, -dy, rep * inv_s])
    }))
}

/// Log of the logistic density, summed over the elements:
///
/// ln Logistic(y | μ, σ) = Σᵢ [ −z − 2 ln(1 + e⁻ᶻ) − ln σ ],  z = (y − μ)/σ
///
/// (computed as −|z| − 2 ln(1 + e^−|z|) − ln σ, the density being symmetric in z, so it
/// neither overflows nor loses digits in the tails). `y` finite, location `mu` finite,
/// scale `sigma` > 0 and finite; arguments as for [`normal_lpdf`](super::normal_lpdf).
/// Partials: ∂/∂y = −tanh(z/2)/σ, ∂/∂μ = −∂/∂y, ∂/∂σ = (z tanh(z/2) − 1)/σ.
///
/// # Errors
///
/// A [`DomainError`] if `y` or `mu` is not finite, `sigma` is not positive and finite, or
/// sequence lengths differ.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// let lp = logistic_lpdf(0.0, 0.0, 1.0)?;
/// assert!((lp - 0.25_f64.ln()).abs() < 1e-15);
/// # Ok::<(), DomainError>(())
/// ```
pub fn logistic_lpdf<Y: Arg, M: Arg, Sg: Arg>(
    y: Y,
    mu: M,
    sigma: Sg,
) -> Result<Ret<(Y, M, Sg)>, DomainError>
where
    (Y, M, Sg): Args,
{
    const F: &str = "logistic_lpdf";
    let n = location_scale_sizes(F, y, mu, sigma)?;
    check_finite(F, "Random variable", y)?;
    check_finite(F, "Location parameter", mu)?;
    check_positive_finite(F, "Scale parameter", sigma)?;
    let s = Hoist::new(sigma, |s| (1.0 / s, s.ln()));
    Ok(density(n, (y, mu, sigma), |i, _| {
        let (inv_s, ln_s) = s.at(i);
        let z = (y.value(i) - mu.value(i)) * inv_s;
        let a = z.abs();
        let lp = -a - 2.0 * (-a).exp().ln_1p() - ln_s;
        let t = (0.5 * z).tanh();
        let dy = -t * inv_s;
        (lp, [dy, -dy, (z * t - 1.0) * inv_s])
    }))
}

/// Log of the double exponential (Laplace) density, summed over the elements:
///
/// ln DoubleExponential(y | μ, σ) = Σᵢ [ −ln 2 − ln σᵢ − |yᵢ − μᵢ|/σᵢ ]
///
/// `y` finite, location `mu` finite, scale `sigma` > 0 and finite; arguments as for
/// [`normal_lpdf`](super::normal_lpdf). Partials: ∂/∂y = −sign(y − μ)/σ (0 at y = μ),
/// ∂/∂μ = −∂/∂y, ∂/∂σ = (|y − μ|/σ − 1)/σ.
///
/// # Errors
///
/// A [`DomainError`] if `y` or `mu` is not finite, `sigma` is not positive and finite, or
/// sequence lengths differ.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// let lp = double_exponential_lpdf(&[1.0, -1.0], 0.0, 2.0)?;
/// assert!((lp - 2.0 * (0.25_f64.ln() - 0.5)).abs() < 1e-15);
/// # Ok::<(), DomainError>(())
/// ```
pub fn double_exponential_lpdf<Y: Arg, M: Arg, Sg: Arg>(
    y: Y,
    mu: M,
    sigma: Sg,
) -> Result<Ret<(Y, M, Sg)>, DomainError>
where
    (Y, M, Sg): Args,
{
    const F: &str = "double_exponential_lpdf";
    let n = location_scale_sizes(F, y, mu, sigma)?;
    check_finite(F, "Random variable", y)?;
    check_finite(F, "Location parameter", mu)?;
    check_positive_finite(F, "Scale parameter", sigma)?;
    let s = Hoist::new(sigma, |s| (1.0 / s, s.ln()));
    Ok(density(n, (y, mu, sigma), |i, _| {
        let (inv_s, ln_s) = s.at(i);
        let d = y.value(i) - mu.value(i);
        let a = d.abs() * inv_s;
        let dy = -sign_or_zero(d) * inv_s;
        (-LN_2 - ln_s - a, [dy, -dy, (a - 1.0) * inv_s])
    }))
}
