//! Distributions on an interval: beta and uniform.

use super::args::{Arg, Args, Ret};
use super::check::{
    check_bounded, check_finite, check_greater, check_not_nan, check_positive_finite, sizes3,
};
use super::kernel::{density, Vals};
use super::special::{digamma, div0, lgamma, mul_log};
use super::DomainError;
use crate::Real;

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
    let x = Vals::new((y, alpha, beta));
    let zero = || Default::default();
    let (lg_a, dg_a) = (x.hoist(1, lgamma), x.hoist(1, digamma));
    let (lg_b, dg_b) = (x.hoist(2, lgamma), x.hoist(2, digamma));
    let lg_ab = x.hoist2(1, 2, |a, b| lgamma(a + b));
    let dg_ab = x.hoist2(1, 2, |a, b| digamma(a + b));
    Ok(density(n, &x, |i, need| {
        let (yi, ai, bi) = (x.get(0, i), x.get(1, i), x.get(2, i));
        let (ln_y, ln_1m_y) = (yi.ln(), (-yi).ln_1p());
        let lp = if need.value {
            lg_ab.at(i) - lg_a.at(i) - lg_b.at(i)
                + mul_log(ai - 1.0, ln_y)
                + mul_log(bi - 1.0, ln_1m_y)
        } else {
            zero()
        };
        let dy = div0(ai - 1.0, yi) - div0(bi - 1.0, -yi + 1.0);
        let d_ab = if need.d[1] || need.d[2] {
            dg_ab.at(i)
        } else {
            zero()
        };
        let da = if need.d[1] {
            ln_y + d_ab - dg_a.at(i)
        } else {
            zero()
        };
        let db = if need.d[2] {
            ln_1m_y + d_ab - dg_b.at(i)
        } else {
            zero()
        };
        (lp, [dy, da, db])
    }))
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
