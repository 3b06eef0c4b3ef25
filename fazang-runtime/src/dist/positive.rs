//! Distributions on the positive reals: exponential, gamma, inverse gamma, Weibull and
//! chi-square.

use super::args::{Arg, Args, Ret};
use super::check::{
    check_consistent_sizes, check_finite, check_nonnegative, check_positive_finite, sizes3,
};
use super::kernel::{density, Vals};
use super::normal::any_infinite;
use super::special::{
    centred, digamma_minus_ln, div0, lgamma, mul_log, stirling_remainder, HALF_LN_TWO_PI,
};
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
    let shape = x.hoist(1, shape_terms);
    let ln_b = x.hoist(2, |b| b.ln());
    Ok(density(n, &x, |i, need| {
        let (yi, ai, bi) = (x.get(0, i), x.get(1, i), x.get(2, i));
        let sh = shape.at(i);
        let ln_y = yi.ln();
        // δ = α - βy (one rounding), t = βy/α - 1 = -δ/α.
        let delta = (-bi).mul_add(yi, ai);
        let (l, a_log1pmx) = centred(ai, -delta / ai, || ln_b.at(i) + ln_y - ai.ln());
        let lp = if !need.value {
            zero()
        } else if ai.val() >= STIRLING {
            // α ln β - ln Γ(α) + (α-1) ln y - βy with Stirling's ln Γ(α): the terms of
            // size α ln α cancel, leaving α (ln(1+t) - t) + ½ ln α - ln y - ½ ln 2π - R(α).
            a_log1pmx + half_ln_ratio(ai, yi, ln_y) + sh.stirling
        } else if ai.val() < 1.0 {
            // ln(α/y) - ln Γ(1+α) + α ln(βy) - βy.
            (ai / yi).ln() - sh.lg1p + ai * (ln_b.at(i) + ln_y) - bi * yi
        } else {
            ai * ln_b.at(i) - sh.lg + mul_log(ai - 1.0, ln_y) - bi * yi
        };
        let da = if need.d[1] { l - sh.e_psi } else { zero() };
        // (α-1)/y - β = ((α-1) - βy)/y and α/β - y = δ/β, each with one rounding (α - 1
        // is exact where it matters, near α = 1).
        (lp, [(-bi).mul_add(yi, ai - 1.0) / yi, da, delta / bi])
    }))
}

/// Shapes from which [`shape_terms`] use Stirling's formula.
const STIRLING: f64 = 10.0;

/// Terms of a shape α for the gamma family: (ln Γ(α), ½ ln α - ½ ln 2π - R(α) (the
/// Stirling part left after the cancellation, for α ≥ [`STIRLING`]), ψ(α) - ln α).
fn shape_terms<T: Real>(a: T) -> Shape<T> {
    let zero = T::from(0.0);
    Shape {
        lg: lgamma(a),
        lg1p: if a.val() < 1.0 { lgamma(a + 1.0) } else { zero },
        stirling: if a.val() >= STIRLING {
            T::from(-HALF_LN_TWO_PI) - stirling_remainder(a)
        } else {
            zero
        },
        e_psi: digamma_minus_ln(a),
    }
}

/// Terms of a shape α for the gamma family, computed once per scalar α.
#[derive(Clone, Copy, Default)]
struct Shape<T> {
    /// ln Γ(α).
    lg: T,
    /// ln Γ(1 + α) for α < 1: the forms for small shapes write ln Γ(α) = ln Γ(1+α) - ln α
    /// and combine ln α with ln y, which cancel otherwise (α = y = 1e-10: 23.7 - 23.0).
    lg1p: T,
    /// -½ ln 2π - R(α) for α ≥ [`STIRLING`] (R the Stirling remainder).
    stirling: T,
    /// ψ(α) - ln α.
    e_psi: T,
}

/// ½ ln(a/y²) (= ½ ln a - ln y, which cancel near the mode of a gamma density with a
/// large shape): from the ratio where it is a normal number.
#[inline]
fn half_ln_ratio<T: Real>(a: T, y: T, ln_y: T) -> T {
    let r = a / y / y;
    if r.val().is_normal() {
        r.ln() * 0.5
    } else {
        a.ln() * 0.5 - ln_y
    }
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
    let shape = x.hoist(1, shape_terms);
    let ln_b = x.hoist(2, |b| b.ln());
    Ok(density(n, &x, |i, need| {
        let (yi, ai, bi) = (x.get(0, i), x.get(1, i), x.get(2, i));
        let sh = shape.at(i);
        let ln_y = yi.ln();
        // δ = β - αy (one rounding), t = β/(αy) - 1 = δ/(αy).
        let delta = (-ai).mul_add(yi, bi);
        let (l, a_log1pmx) = centred(ai, delta / ai / yi, || ln_b.at(i) - ln_y - ai.ln());
        let lp = if !need.value {
            zero()
        } else if ai.val() >= STIRLING {
            // As for the gamma density, in w = β/y: α (ln(1+t) - t) + ½ ln α - ln y
            // - ½ ln 2π - R(α).
            a_log1pmx + half_ln_ratio(ai, yi, ln_y) + sh.stirling
        } else if ai.val() < 1.0 {
            // ln(α/y) - ln Γ(1+α) + α ln(β/y) - β/y.
            (ai / yi).ln() - sh.lg1p + ai * (ln_b.at(i) - ln_y) - bi / yi
        } else {
            ai * ln_b.at(i) - sh.lg - (ai + 1.0) * ln_y - bi / yi
        };
        let da = if need.d[1] { l - sh.e_psi } else { zero() };
        // (β/y - α - 1)/y = (β - (α+1)y)/y² and α/β - 1/y = -δ/(βy), each with one
        // rounding of the difference.
        let dy = (-(ai + 1.0)).mul_add(yi, bi) / yi / yi;
        (lp, [dy, da, -delta / bi / yi])
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
        let (yi, ai, si) = (x.get(0, i), x.get(1, i), x.get(2, i));
        let (ln_s, inv_s) = s.at(i);
        let ln_y = yi.ln();
        if yi == 0.0 {
            let t = (yi * inv_s).powf(ai);
            let lp = ln_alpha.at(i) + mul_log(ai - 1.0, ln_y) - ai * ln_s - t;
            let dy = div0(ai * (-t + 1.0) - 1.0, yi);
            let da = ai.recip() + mul_log(-t + 1.0, ln_y - ln_s);
            return (lp, [dy, da, ai * (t - 1.0) * inv_s]);
        }
        // ln(y/σ) from y - σ where they are close (exact there), so that α ln(y/σ), the
        // exponent of t = (y/σ)^α, keeps its accuracy for large α (α ln y - α ln σ and
        // powf(y/σ, α) both lose α ulps), and 1 - t = -expm1(α ln(y/σ)).
        let d = yi - si;
        let lr = if d.val().abs() < 0.5 * si.val() {
            (d * inv_s).ln_1p()
        } else {
            ln_y - ln_s
        };
        let e = ai * lr;
        let (t, omt) = (e.exp(), -e.exp_m1());
        // ln α + (α-1) ln y - α ln σ - t = ln α + α ln(y/σ) - ln y - t.
        let lp = ln_alpha.at(i) + e - ln_y - t;
        // (α(1-t) - 1)/y: from 1 - t near the mode, as ((α-1) - αt)/y away from it (exact
        // for α = 1, the exponential distribution, where the partial is -1/σ).
        let dy = if t.val() < 0.5 {
            ((ai - 1.0) - ai * t) / yi
        } else {
            (ai * omt - 1.0) / yi
        };
        let da = ai.recip() + omt * lr;
        (lp, [dy, da, -ai * omt * inv_s])
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
    let shape = x.hoist(1, |v| shape_terms(v * 0.5));
    Ok(density(n, &x, |i, need| {
        let (yi, vi) = (x.get(0, i), x.get(1, i));
        let k = vi * 0.5;
        let sh = shape.at(i);
        let ln_y = yi.ln();
        // Gamma(ν/2, ½): δ = y - ν (exact near the mode), t = y/ν - 1 = δ/ν.
        let delta = yi - vi;
        let (l, a_log1pmx) = centred(k, delta / vi, || ln_y - vi.ln());
        let lp = if !need.value {
            zero()
        } else if k.val() >= STIRLING && yi.val() > 0.0 {
            // ½ ln k - ln y = ½ ln(k/y²) + ln 2 ... written in ν: ½ ln(ν/y²) - ½ ln 2.
            a_log1pmx + half_ln_ratio(vi, yi, ln_y) - 0.5 * LN_2 + sh.stirling
        } else if k.val() < 1.0 && yi.val() > 0.0 {
            // ln(k/y) - ln Γ(1+k) + k ln(y/2) - y/2.
            (k / yi).ln() - sh.lg1p + k * (ln_y - LN_2) - yi * 0.5
        } else {
            k * -LN_2 - sh.lg + mul_log(k - 1.0, ln_y) - yi * 0.5
        };
        let dnu = if need.d[1] {
            (l - sh.e_psi) * 0.5
        } else {
            zero()
        };
        // (ν/2 - 1)/y - ½ = ((ν - 2) - y)/(2y) (ν - 2 exact near ν = 2, where the partial
        // is -½ for any y), 0 · ∞ = 0 at y = 0 for ν = 2.
        let dy = if yi == 0.0 {
            div0(k - 1.0, yi) - 0.5
        } else {
            ((vi - 2.0) - yi) / (yi * 2.0)
        };
        (lp, [dy, dnu])
    }))
}
