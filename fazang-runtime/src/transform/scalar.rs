//! Scalar transforms: lower, upper and two-sided bounds, offset and multiplier.

use crate::dist::check::{check_bounded, check_finite, check_positive_finite};
use crate::dist::multi::check::{check_greater_or_equal, check_less_or_equal};
use crate::dist::DomainError;
use crate::Real;

/// `lb + eˣ`: an unconstrained `x` mapped above the lower bound `lb`; adds the log
/// Jacobian `x` to `lp`. With `lb = −∞`, `x` itself (and nothing added).
///
/// # Panics
///
/// If `lb` is NaN (a programming error).
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// let mut lp = 0.0;
/// let tau = lb_constrain(0.5, 1.0, &mut lp);
/// assert_eq!((tau, lp), (1.0 + 0.5_f64.exp(), 0.5));
/// assert_eq!(lb_free(tau, 1.0)?, 0.5);
/// # Ok::<(), DomainError>(())
/// ```
pub fn lb_constrain<S: Real>(x: S, lb: f64, lp: &mut S) -> S {
    assert!(!lb.is_nan(), "fazang: lb_constrain: the lower bound is NaN");
    if lb == f64::NEG_INFINITY {
        return x;
    }
    *lp += x;
    x.exp() + lb
}

/// The inverse of [`lb_constrain`]: `ln(y − lb)` (`y` itself if `lb = −∞`).
///
/// # Errors
///
/// A [`DomainError`] if `y < lb` or `y` is NaN.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// assert_eq!(
///     lb_free(0.5, 1.0).unwrap_err().to_string(),
///     "lb_free: Lower bounded variable is 0.5, but must be greater than or equal to 1.000000"
/// );
/// ```
pub fn lb_free(y: f64, lb: f64) -> Result<f64, DomainError> {
    if lb == f64::NEG_INFINITY {
        return Ok(y);
    }
    check_greater_or_equal("lb_free", "Lower bounded variable", y, lb)?;
    Ok((y - lb).ln())
}

/// `ub − eˣ`: an unconstrained `x` mapped below the upper bound `ub`; adds `x` to `lp`.
/// With `ub = +∞`, `x` itself.
///
/// # Panics
///
/// If `ub` is NaN.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// let mut lp = 0.0;
/// let y = ub_constrain(-1.0, 2.0, &mut lp);
/// assert_eq!((y, lp), (2.0 - (-1.0_f64).exp(), -1.0));
/// assert!((ub_free(y, 2.0)? + 1.0).abs() < 1e-15);
/// # Ok::<(), DomainError>(())
/// ```
pub fn ub_constrain<S: Real>(x: S, ub: f64, lp: &mut S) -> S {
    assert!(!ub.is_nan(), "fazang: ub_constrain: the upper bound is NaN");
    if ub == f64::INFINITY {
        return x;
    }
    *lp += x;
    -x.exp() + ub
}

/// The inverse of [`ub_constrain`]: `ln(ub − y)`.
///
/// # Errors
///
/// A [`DomainError`] if `y > ub` or `y` is NaN.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// assert!(ub_free(3.0, 2.0).is_err());
/// ```
pub fn ub_free(y: f64, ub: f64) -> Result<f64, DomainError> {
    if ub == f64::INFINITY {
        return Ok(y);
    }
    check_less_or_equal("ub_free", "Upper bounded variable", y, ub)?;
    Ok((ub - y).ln())
}

/// `lb + (ub − lb) logit⁻¹(x)`: an unconstrained `x` mapped into `(lb, ub)`; adds the log
/// Jacobian ln(ub − lb) + ln σ(x) + ln σ(−x) to `lp`, computed as
/// ln(ub − lb) − ln(1 + e⁻ˣ) − ln(1 + eˣ) (no overflow at any `x`). For `x > 0` the value
/// is computed from the upper end, `ub − (ub − lb) σ(−x)`, so that it keeps its accuracy
/// close to `ub`. An infinite bound gives [`lb_constrain`] or [`ub_constrain`].
///
/// # Panics
///
/// If a bound is NaN or `lb ≥ ub`.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// let mut lp = 0.0;
/// let p = lub_constrain(0.0, 0.0, 1.0, &mut lp);
/// assert_eq!(p, 0.5);
/// assert!((lp - 0.25_f64.ln()).abs() < 1e-15);
/// assert!((lub_free(0.25, 0.0, 1.0)? - (1.0_f64 / 3.0).ln()).abs() < 1e-15);
/// # Ok::<(), DomainError>(())
/// ```
pub fn lub_constrain<S: Real>(x: S, lb: f64, ub: f64, lp: &mut S) -> S {
    assert!(
        lb < ub,
        "fazang: lub_constrain needs lb < ub (neither NaN), got lb = {lb}, ub = {ub}"
    );
    match (lb == f64::NEG_INFINITY, ub == f64::INFINITY) {
        (true, true) => return x,
        (true, false) => return ub_constrain(x, ub, lp),
        (false, true) => return lb_constrain(x, lb, lp),
        (false, false) => {}
    }
    let diff = ub - lb;
    *lp += -x.log1p_exp() - (-x).log1p_exp() + diff.ln();
    if x > 0.0 {
        -((-x).inv_logit() * diff) + ub
    } else {
        x.inv_logit() * diff + lb
    }
}

/// The inverse of [`lub_constrain`]: logit((y − lb)/(ub − lb)), computed as
/// ln(y − lb) − ln(ub − y).
///
/// # Errors
///
/// A [`DomainError`] if `y` is outside `[lb, ub]` (or NaN).
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// assert_eq!(
///     lub_free(2.0, 0.0, 1.0).unwrap_err().to_string(),
///     "lub_free: Bounded variable is 2, but must be in the interval [0, 1]"
/// );
/// ```
pub fn lub_free(y: f64, lb: f64, ub: f64) -> Result<f64, DomainError> {
    match (lb == f64::NEG_INFINITY, ub == f64::INFINITY) {
        (true, true) => return Ok(y),
        (true, false) => return ub_free(y, ub),
        (false, true) => return lb_free(y, lb),
        (false, false) => {}
    }
    check_bounded("lub_free", "Bounded variable", y, lb, ub)?;
    Ok((y - lb).ln() - (ub - y).ln())
}

/// `mu + sigma x`: Stan's `offset`/`multiplier`; adds ln σ to `lp`.
///
/// # Panics
///
/// If `mu` is not finite or `sigma` is not positive and finite.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// let mut lp = 0.0;
/// let theta = offset_multiplier_constrain(1.5, 10.0, 2.0, &mut lp);
/// assert_eq!((theta, lp), (13.0, 2.0_f64.ln()));
/// assert_eq!(offset_multiplier_free(13.0, 10.0, 2.0)?, 1.5);
/// # Ok::<(), DomainError>(())
/// ```
pub fn offset_multiplier_constrain<S: Real>(x: S, mu: f64, sigma: f64, lp: &mut S) -> S {
    assert!(
        mu.is_finite() && sigma > 0.0 && sigma.is_finite(),
        "fazang: offset_multiplier_constrain needs a finite offset and a positive finite \
         multiplier, got mu = {mu}, sigma = {sigma}"
    );
    *lp += sigma.ln();
    x * sigma + mu
}

/// The inverse of [`offset_multiplier_constrain`]: `(y − mu)/sigma`.
///
/// # Errors
///
/// A [`DomainError`] if `mu` is not finite or `sigma` is not positive and finite.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// assert!(offset_multiplier_free(1.0, 0.0, -1.0).is_err());
/// ```
pub fn offset_multiplier_free(y: f64, mu: f64, sigma: f64) -> Result<f64, DomainError> {
    const F: &str = "offset_multiplier_free";
    check_finite(F, "Location parameter", mu)?;
    check_positive_finite(F, "Scale parameter", sigma)?;
    Ok((y - mu) / sigma)
}
