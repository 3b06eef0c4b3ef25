//! Distributions on an interval: beta and uniform.

use super::args::{Arg, Args, Ret};
use super::check::{
    check_bounded, check_finite, check_greater, check_not_nan, check_positive_finite, sizes3,
};
use super::kernel::{density, Vals};
use super::special::{
    digamma_minus_ln_diff, div0, lbeta, lgamma, lgamma_ratio, log1pmx, mul_log, stirling_remainder,
    HALF_LN_TWO_PI,
};
use super::DomainError;
use crate::Real;
use std::any::TypeId;

/// Log of the beta density with shapes `alpha` and `beta`, summed over the elements:
///
/// ln Beta(y | α, β) = Σᵢ [ ln Γ(α + β) − ln Γ(α) − ln Γ(β) + (α − 1) ln y
///   + (β − 1) ln(1 − y) ]
///
/// `y` in [0, 1], `alpha` and `beta` > 0 and finite; each argument a scalar or a sequence
/// of `f64` or active scalars (see [`normal_lpdf`](super::normal_lpdf)). Partials:
/// ∂/∂y = (α − 1)/y − (β − 1)/(1 − y), ∂/∂α = ln y + ψ(α + β) − ψ(α),
/// ∂/∂β = ln(1 − y) + ψ(α + β) − ψ(β).
///
/// ln B(α, β), the value near the mode and the partials are computed in forms that keep
/// their accuracy for large α and β (the plain sums cancel: the value at α = β = 1e12 would
/// lose 5 digits).
///
/// # Errors
///
/// A [`DomainError`] if `alpha` or `beta` is not positive and finite, `y` is outside
/// [0, 1] (or NaN), or sequence lengths differ.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// // Beta(2, 1) has density 2y.
/// let lp = beta_lpdf(0.3, 2.0, 1.0)?;
/// assert!((lp - 0.6_f64.ln()).abs() < 1e-15);
/// assert_eq!(
///     beta_lpdf(1.5, 2.0, 1.0).unwrap_err().to_string(),
///     "beta_lpdf: Random variable is 1.5, but must be in the interval [0, 1]"
/// );
/// # Ok::<(), DomainError>(())
/// ```
pub fn beta_lpdf<Y: Arg, A: Arg, B: Arg>(
    y: Y,
    alpha: A,
    beta: B,
) -> Result<Ret<(Y, A, B)>, DomainError>
where
    (Y, A, B): Args,
{
    const F: &str = "beta_lpdf";
    let n = sizes3(
        F,
        y,
        ("First shape parameter", alpha),
        ("Second shape parameter", beta),
    )?;
    check_positive_finite(F, "First shape parameter", alpha)?;
    check_positive_finite(F, "Second shape parameter", beta)?;
    check_bounded(F, "Random variable", y, 0.0, 1.0)?;
    // -ln B(α, β) and the ψ differences of the partials; for α, β ≥ 10 the value is
    // computed in the form of [`beta_large`].
    let x = Vals::new((y, alpha, beta));
    let zero = || Default::default();
    let lb = x.hoist2(1, 2, lbeta);
    let dg = x.hoist2(1, 2, |a, b| {
        (digamma_minus_ln_diff(a, b), digamma_minus_ln_diff(b, a))
    });
    Ok(density(n, &x, |i, need| {
        let (yi, ai, bi) = (x.get(0, i), x.get(1, i), x.get(2, i));
        let (ln_y, ln_1m_y) = (yi.ln(), (-yi).ln_1p());
        // u = y(α+β)/α - 1 and v = (1-y)(α+β)/β - 1 = -uα/β: ln y + ln((α+β)/α) =
        // ln(1 + u) and ln(1-y) + ln((α+β)/β) = ln(1 + v), which the partials need
        // without cancellation near the mode.
        let delta = diff_of_products(yi, bi, -yi + 1.0, ai);
        let (u, v) = (delta / ai, -delta / bi);
        let lp = if !need.value {
            zero()
        } else if ai >= 10.0 && bi >= 10.0 && u.val().abs() < 0.5 && v.val().abs() < 0.5 {
            beta_large(ai, bi, u, v, ln_y, ln_1m_y)
        } else if (ai < 1.0 || bi < 1.0) && yi > 0.0 && yi < 1.0 {
            beta_small(ai, bi, yi, ln_y, ln_1m_y)
        } else {
            -lb.at(i) + mul_log(ai - 1.0, ln_y) + mul_log(bi - 1.0, ln_1m_y)
        };
        // (α-1)/y - (β-1)/(1-y) = -(δ + 1 - 2y)/(y(1-y)): the two terms cancel near the
        // mode, δ does not (to the rounding of 1 - y).
        let dy = if ai >= 2.0 && bi >= 2.0 && yi > 0.0 && yi < 1.0 {
            -(delta + (-(yi * 2.0) + 1.0)) / (yi * (-yi + 1.0))
        } else {
            div0(ai - 1.0, yi) - div0(bi - 1.0, -yi + 1.0)
        };
        let (e_a, e_b) = if need.d[1] || need.d[2] {
            dg.at(i)
        } else {
            (zero(), zero())
        };
        let da = if need.d[1] {
            ln_sum(u, ln_y, (bi / ai).ln_1p()) + e_a
        } else {
            zero()
        };
        let db = if need.d[2] {
            ln_sum(v, ln_1m_y, (ai / bi).ln_1p()) + e_b
        } else {
            zero()
        };
        (lp, [dy, da, db])
    }))
}

/// a·b - c·d with the rounding errors of both products added back (computed with
/// `mul_add`): exact to one rounding unless the products cancel beyond the 2⁻¹⁰⁶ of the
/// error terms.
#[inline]
fn diff_of_products<T: Real>(a: T, b: T, c: T, d: T) -> T {
    let p = a * b;
    let q = c * d;
    if TypeId::of::<T>() != TypeId::of::<f64>() {
        // The error terms are a rounding correction of f64's products only.
        return p - q;
    }
    let ep = a.mul_add(b, -p);
    let eq = c.mul_add(d, -q);
    (p - q) + (ep - eq)
}

/// The beta log density with a shape below 1. For such a shape s with its variable x
/// (α with y, β with 1 - y), -ln Γ(s) + (s-1) ln x is written ln(s/x) + s ln x -
/// ln Γ(1+s) (ln Γ(s) ≈ -ln s and -ln x cancel otherwise: 23.0 against 23.0 at
/// α = y = 1e-10); and if the other shape is ≥ 10, ln Γ(α+β) and its ln Γ combine into a
/// Stirling difference.
fn beta_small<T: Real>(a: T, b: T, y: T, ln_y: T, ln_1m_y: T) -> T {
    let part = |s: T, x: T, ln_x: T| {
        if s.val() < 1.0 {
            (s / x).ln() + s * ln_x - lgamma(s + 1.0)
        } else {
            (s - 1.0) * ln_x - lgamma(s)
        }
    };
    let (small, large) = ((a, y, ln_y), (b, -y + 1.0, ln_1m_y));
    let (small, large) = if a.val() <= b.val() {
        (small, large)
    } else {
        (large, small)
    };
    if large.0.val() >= 10.0 {
        lgamma_ratio(large.0, small.0) + part(small.0, small.1, small.2) + (large.0 - 1.0) * large.2
    } else {
        lgamma(a + b) + part(a, y, ln_y) + part(b, -y + 1.0, ln_1m_y)
    }
}

/// ln(1 + u) = `ln_p + ln_q` (two logarithms that cancel near u = 0): from u where it is
/// small, from the two logarithms where they do not cancel.
#[inline]
fn ln_sum<T: Real>(u: T, ln_p: T, ln_q: T) -> T {
    if u.val().abs() < 0.5 {
        u.ln_1p()
    } else {
        ln_p + ln_q
    }
}

/// The beta log density for α, β ≥ 10 near its mode (|u|, |v| < ½, with u, v as in
/// [`beta_lpdf`]). With Stirling's formula for ln B(α, β) the terms of size α and β
/// cancel exactly, and what is left is, with R the Stirling remainder,
///
/// ```text
/// α (ln(1+u) - u) + β (ln(1+v) - v) - ½ ln(1+u) - ½ ln y - ln(1-y) + ½ ln β - ½ ln 2π
///     - R(α) - R(β) + R(α+β)
/// ```
///
/// all of moderate size (the plain sum loses log₂ α bits: 1e-5 relative at
/// α = β = 1e12).
fn beta_large<T: Real>(a: T, b: T, u: T, v: T, ln_y: T, ln_1m_y: T) -> T {
    a * log1pmx(u) + b * log1pmx(v) - u.ln_1p() * 0.5 - ln_y * 0.5 - ln_1m_y + b.ln() * 0.5
        - HALF_LN_TWO_PI
        - stirling_remainder(a)
        - stirling_remainder(b)
        + stirling_remainder(a + b)
}

/// Log of the uniform density on [`alpha`, `beta`], summed over the elements:
///
/// ln Uniform(y | α, β) = Σᵢ −ln(βᵢ − αᵢ) if every yᵢ ∈ [αᵢ, βᵢ], −∞ otherwise.
///
/// `y` not NaN, `alpha` and `beta` finite with `beta` > `alpha`; arguments as for
/// [`beta_lpdf`]. A `y` outside its interval is not an error (the support depends on the
/// parameters): the result is the constant −∞, as in Stan. Partials:
/// ∂/∂α = 1/(β − α), ∂/∂β = −1/(β − α), ∂/∂y = 0.
///
/// # Errors
///
/// A [`DomainError`] if `y` is NaN, `alpha` or `beta` is not finite, `beta` is not
/// greater than `alpha`, or sequence lengths differ.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// assert_eq!(uniform_lpdf(&[0.5, 1.5], 0.0, 2.0)?, 2.0 * 0.5_f64.ln());
/// assert_eq!(uniform_lpdf(2.5, 0.0, 2.0)?, f64::NEG_INFINITY);
/// assert_eq!(
///     uniform_lpdf(0.5, 1.0, 0.0).unwrap_err().to_string(),
///     "uniform_lpdf: Upper bound parameter is 0, but must be greater than 1.000000"
/// );
/// # Ok::<(), DomainError>(())
/// ```
pub fn uniform_lpdf<Y: Arg, A: Arg, B: Arg>(
    y: Y,
    alpha: A,
    beta: B,
) -> Result<Ret<(Y, A, B)>, DomainError>
where
    (Y, A, B): Args,
{
    const F: &str = "uniform_lpdf";
    let n = sizes3(
        F,
        y,
        ("Lower bound parameter", alpha),
        ("Upper bound parameter", beta),
    )?;
    check_not_nan(F, "Random variable", y)?;
    check_finite(F, "Lower bound parameter", alpha)?;
    check_finite(F, "Upper bound parameter", beta)?;
    check_greater(F, "Upper bound parameter", beta, alpha)?;
    let outside = (0..n).any(|i| {
        let yi = y.value(i);
        yi < alpha.value(i) || yi > beta.value(i)
    });
    if outside {
        return Ok(Ret::<(Y, A, B)>::from(f64::NEG_INFINITY));
    }
    let x = Vals::new((y, alpha, beta));
    let w = x.hoist2(1, 2, |a, b| ((b - a).ln(), (b - a).recip()));
    Ok(density(n, &x, |i, _| {
        let (ln_w, inv_w) = w.at(i);
        (-ln_w, [Default::default(), inv_w, -inv_w])
    }))
}
