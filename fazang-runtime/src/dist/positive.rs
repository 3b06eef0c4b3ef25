//! Distributions on the positive reals: exponential, gamma, inverse gamma, Weibull and
//! chi-square.

use super::args::{Arg, Args, Ret};
use super::check::{
    check_consistent_sizes, check_finite, check_nonnegative, check_positive_finite, sizes3,
};
use super::kernel::{density, Vals};
use super::normal::any_infinite;
use super::special::{digamma, div0, lgamma, mul_log};
use super::DomainError;
use crate::Real;
use std::f64::consts::LN_2;

/// Log of the exponential density with rate (inverse scale) `beta`, summed over the
/// elements:
///
/// ln Exponential(y | β) = Σᵢ [ ln βᵢ − βᵢ yᵢ ]
///
/// `y` ≥ 0, `beta` > 0 and finite; each argument a scalar or a sequence of `f64` or
/// active scalars (see [`normal_lpdf`](super::normal_lpdf)). Partials: ∂/∂y = −β,
/// ∂/∂β = 1/β − y.
///
/// # Errors
///
/// A [`DomainError`] if `y` is negative (or NaN), `beta` is not positive and finite, or
/// sequence lengths differ.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// let (lp, g) = gradient(|x| exponential_lpdf(&[0.5, 1.5], x[0]).unwrap(), &[2.0]);
/// assert!((lp - (2.0 * 2.0_f64.ln() - 4.0)).abs() < 1e-15);
/// assert!((g[0] - (2.0 / 2.0 - 2.0)).abs() < 1e-15);
/// ```
pub fn exponential_lpdf<Y: Arg, B: Arg>(y: Y, beta: B) -> Result<Ret<(Y, B)>, DomainError>
where
    (Y, B): Args,
{
    const F: &str = "exponential_lpdf";
    let n = check_consistent_sizes(
        F,
        &[
            ("Random variable", y.vector_len()),
            ("Inverse scale parameter", beta.vector_len()),
        ],
    )?;
    check_nonnegative(F, "Random variable", y)?;
    check_positive_finite(F, "Inverse scale parameter", beta)?;
    let x = Vals::new((y, beta));
    let b = x.hoist(1, |b| (b.ln(), b.recip()));
    Ok(density(n, &x, |i, _| {
        let (ln_b, inv_b) = b.at(i);
        let (yi, bi) = (x.get(0, i), x.get(1, i));
        (ln_b - bi * yi, [-bi, inv_b - yi])
    }))
}

/// Log of the gamma density with shape `alpha` and rate (inverse scale) `beta`, summed
/// over the elements:
///
/// ln Gamma(y | α, β) = Σᵢ [ α ln β − ln Γ(α) + (α − 1) ln y − β y ]
///
/// `y` > 0 and finite, `alpha` and `beta` > 0 and finite; arguments as for
/// [`exponential_lpdf`]. Partials: ∂/∂y = (α − 1)/y − β, ∂/∂α = ln β − ψ(α) + ln y,
/// ∂/∂β = α/β − y.
///
/// # Errors
///
/// A [`DomainError`] if `y`, `alpha` or `beta` is not positive and finite, or sequence
/// lengths differ.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// // Gamma(1, β) is Exponential(β).
/// let g = gamma_lpdf(&[0.5, 1.5], 1.0, 2.0)?;
/// let e = exponential_lpdf(&[0.5, 1.5], 2.0)?;
/// assert!((g - e).abs() < 1e-15);
/// # Ok::<(), DomainError>(())
/// ```
pub fn gamma_lpdf<Y: Arg, A: Arg, B: Arg>(
    y: Y,
    alpha: A,
    beta: B,
) -> Result<Ret<(Y, A, B)>, DomainError>
where
    (Y, A, B): Args,
{
    const F: &str = "gamma_lpdf";
    let n = sizes3(
        F,
        y,
        ("Shape parameter", alpha),
        ("Inverse scale parameter", beta),
    )?;
    check_positive_finite(F, "Random variable", y)?;
    check_positive_finite(F, "Shape parameter", alpha)?;
    check_positive_finite(F, "Inverse scale parameter", beta)?;
    let x = Vals::new((y, alpha, beta));
    let zero = || Default::default();
    let lg = x.hoist(1, lgamma);
    let dg = x.hoist(1, digamma);
    let b = x.hoist(2, |b| (b.ln(), b.recip()));
    Ok(density(n, &x, |i, need| {
        let (yi, ai, bi) = (x.get(0, i), x.get(1, i), x.get(2, i));
        let (ln_b, inv_b) = b.at(i);
        let ln_y = yi.ln();
        let lp = if need.value {
            ai * ln_b - lg.at(i) + mul_log(ai - 1.0, ln_y) - bi * yi
        } else {
            zero()
        };
        let da = if need.d[1] {
            ln_b - dg.at(i) + ln_y
        } else {
            zero()
        };
        (lp, [div0(ai - 1.0, yi) - bi, da, ai * inv_b - yi])
    }))
}

/// Log of the inverse gamma density with shape `alpha` and scale `beta`, summed over the
/// elements:
///
/// ln InvGamma(y | α, β) = Σᵢ [ α ln β − ln Γ(α) − (α + 1) ln y − β/y ]
///
/// `y` > 0 and finite, `alpha` and `beta` > 0 and finite; arguments as for
/// [`exponential_lpdf`]. Partials: ∂/∂y = (β/y − α − 1)/y, ∂/∂α = ln β − ψ(α) − ln y,
/// ∂/∂β = α/β − 1/y.
///
/// Stan returns −∞ for y ≤ 0; here data outside the support is an error.
///
/// # Errors
///
/// A [`DomainError`] if `y`, `alpha` or `beta` is not positive and finite, or sequence
/// lengths differ.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// // If y ~ InvGamma(α, β) then 1/y ~ Gamma(α, β), with Jacobian 1/y².
/// let ig = inv_gamma_lpdf(0.8, 3.0, 2.0)?;
/// let g = gamma_lpdf(1.0 / 0.8, 3.0, 2.0)? - 2.0 * 0.8_f64.ln();
/// assert!((ig - g).abs() < 1e-14);
/// # Ok::<(), DomainError>(())
/// ```
pub fn inv_gamma_lpdf<Y: Arg, A: Arg, B: Arg>(
    y: Y,
    alpha: A,
    beta: B,
) -> Result<Ret<(Y, A, B)>, DomainError>
where
    (Y, A, B): Args,
{
    const F: &str = "inv_gamma_lpdf";
    let n = sizes3(F, y, ("Shape parameter", alpha), ("Scale parameter", beta))?;
    check_positive_finite(F, "Random variable", y)?;
    check_positive_finite(F, "Shape parameter", alpha)?;
    check_positive_finite(F, "Scale parameter", beta)?;
    let x = Vals::new((y, alpha, beta));
    let zero = || Default::default();
    let lg = x.hoist(1, lgamma);
    let dg = x.hoist(1, digamma);
    let b = x.hoist(2, |b| (b.ln(), b.recip()));
    Ok(density(n, &x, |i, need| {
        let (yi, ai, bi) = (x.get(0, i), x.get(1, i), x.get(2, i));
        let (ln_b, inv_b) = b.at(i);
        let (ln_y, inv_y) = (yi.ln(), yi.recip());
        let lp = if need.value {
            ai * ln_b - lg.at(i) - (ai + 1.0) * ln_y - bi * inv_y
        } else {
            zero()
        };
        let da = if need.d[1] {
            ln_b - dg.at(i) - ln_y
        } else {
            zero()
        };
        let dy = (bi * inv_y - ai - 1.0) * inv_y;
        (lp, [dy, da, ai * inv_b - inv_y])
    }))
}

/// Log of the Weibull density with shape `alpha` and scale `sigma`, summed over the
/// elements:
///
/// ln Weibull(y | α, σ) = Σᵢ [ ln α + (α − 1) ln y − α ln σ − (y/σ)^α ]
///
/// `y` ≥ 0 and finite, `alpha` and `sigma` > 0 and finite; arguments as for
/// [`exponential_lpdf`]. Partials, with t = (y/σ)^α: ∂/∂y = (α(1 − t) − 1)/y,
/// ∂/∂α = 1/α + (1 − t)(ln y − ln σ), ∂/∂σ = α(t − 1)/σ.
///
/// Stan returns −∞ for y < 0; here data outside the support is an error.
///
/// # Errors
///
/// A [`DomainError`] if `y` is not finite or negative, `alpha` or `sigma` is not positive
/// and finite, or sequence lengths differ.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// // Weibull(1, σ) is Exponential(1/σ).
/// let w = weibull_lpdf(&[0.5, 1.5], 1.0, 2.0)?;
/// let e = exponential_lpdf(&[0.5, 1.5], 0.5)?;
/// assert!((w - e).abs() < 1e-15);
/// # Ok::<(), DomainError>(())
/// ```
pub fn weibull_lpdf<Y: Arg, A: Arg, Sg: Arg>(
    y: Y,
    alpha: A,
    sigma: Sg,
) -> Result<Ret<(Y, A, Sg)>, DomainError>
where
    (Y, A, Sg): Args,
{
    const F: &str = "weibull_lpdf";
    let n = sizes3(F, y, ("Shape parameter", alpha), ("Scale parameter", sigma))?;
    check_finite(F, "Random variable", y)?;
    check_nonnegative(F, "Random variable", y)?;
    check_positive_finite(F, "Shape parameter", alpha)?;
    check_positive_finite(F, "Scale parameter", sigma)?;
    let x = Vals::new((y, alpha, sigma));
    let ln_alpha = x.hoist(1, |a| a.ln());
    let s = x.hoist(2, |s| (s.ln(), s.recip()));
    Ok(density(n, &x, |i, _| {
        let (yi, ai) = (x.get(0, i), x.get(1, i));
        let (ln_s, inv_s) = s.at(i);
        let ln_y = yi.ln();
        let t = (yi * inv_s).powf(ai);
        let lp = ln_alpha.at(i) + mul_log(ai - 1.0, ln_y) - ai * ln_s - t;
        let dy = div0(ai * (-t + 1.0) - 1.0, yi);
        let da = ai.recip() + mul_log(-t + 1.0, ln_y - ln_s);
        (lp, [dy, da, ai * (t - 1.0) * inv_s])
    }))
}

/// Log of the chi-square density with `nu` degrees of freedom, summed over the elements:
///
/// ln ChiSquare(y | ν) = Σᵢ [ −(ν/2) ln 2 − ln Γ(ν/2) + (ν/2 − 1) ln y − y/2 ]
///
/// `y` ≥ 0, `nu` > 0 and finite; arguments as for [`exponential_lpdf`]. Partials:
/// ∂/∂y = (ν/2 − 1)/y − ½, ∂/∂ν = ½ (ln y − ψ(ν/2) − ln 2). y = +∞ gives the constant −∞.
///
/// # Errors
///
/// A [`DomainError`] if `y` is negative (or NaN), `nu` is not positive and finite, or
/// sequence lengths differ.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// // ChiSquare(ν) is Gamma(ν/2, 1/2).
/// let c = chi_square_lpdf(&[0.5, 3.0], 3.0)?;
/// let g = gamma_lpdf(&[0.5, 3.0], 1.5, 0.5)?;
/// assert!((c - g).abs() < 1e-14);
/// # Ok::<(), DomainError>(())
/// ```
pub fn chi_square_lpdf<Y: Arg, N: Arg>(y: Y, nu: N) -> Result<Ret<(Y, N)>, DomainError>
where
    (Y, N): Args,
{
    const F: &str = "chi_square_lpdf";
    let n = check_consistent_sizes(
        F,
        &[
            ("Random variable", y.vector_len()),
            ("Degrees of freedom parameter", nu.vector_len()),
        ],
    )?;
    check_nonnegative(F, "Random variable", y)?;
    check_positive_finite(F, "Degrees of freedom parameter", nu)?;
    // y = +∞: the density is 0 (the formula would give ∞ - ∞).
    if any_infinite(y) {
        return Ok(Ret::<(Y, N)>::from(f64::NEG_INFINITY));
    }
    let x = Vals::new((y, nu));
    let zero = || Default::default();
    let c = x.hoist(1, |v| v * -0.5 * LN_2 - lgamma(v * 0.5));
    let dg = x.hoist(1, |v| digamma(v * 0.5));
    Ok(density(n, &x, |i, need| {
        let (yi, half_nu) = (x.get(0, i), x.get(1, i) * 0.5);
        let ln_y = yi.ln();
        let lp = if need.value {
            c.at(i) + mul_log(half_nu - 1.0, ln_y) - yi * 0.5
        } else {
            zero()
        };
        let dnu = if need.d[1] {
            (ln_y - dg.at(i) - LN_2) * 0.5
        } else {
            zero()
        };
        (lp, [div0(half_nu - 1.0, yi) - 0.5, dnu])
    }))
}
