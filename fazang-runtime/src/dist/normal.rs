//! The normal and log-normal distributions (Fazang's Appendix B).

use super::args::{Arg, Args, Ret};
use super::check::{
    check_finite, check_not_nan, check_positive, check_positive_finite, location_scale_sizes,
};
use super::kernel::{density, sum_and_squares, Vals};
use super::special::HALF_LN_TWO_PI;
use super::DomainError;
use crate::math::internals::RealInternals;
use crate::Real;

/// Log of the normal density, summed over the elements:
///
/// ln Normal(y | μ, σ) = Σᵢ [ −½ ln(2π) − ln σᵢ − ½ ((yᵢ − μᵢ)/σᵢ)² ]
///
/// `y` ∈ ℝ (not NaN), location `mu` finite, scale `sigma` > 0. Each argument may be a
/// scalar or a sequence (`&[_]`, `&Vec<_>`, `&[_; N]`) of `f64` or active scalars;
/// sequences must have the same length, scalars broadcast, and the result is active if
/// any argument is. One node is recorded, with partials
/// ∂/∂y = −z/σ, ∂/∂μ = z/σ, ∂/∂σ = (z² − 1)/σ where z = (y − μ)/σ. An infinite `sigma`
/// (where the density is 0) gives the constant −∞; an infinite `y` gives −∞ with infinite
/// partials, never NaN.
///
/// # Errors
///
/// A [`DomainError`] if `y` is NaN, `mu` is not finite, `sigma` is not positive (or NaN),
/// or sequence lengths differ.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// let y = [1.3, 0.2, -0.4];
/// // Data only: an f64.
/// let lp: f64 = normal_lpdf(&y, 0.5, 1.2)?;
///
/// // Active parameters: a Var, and its gradient.
/// let (mu, sigma) = (Var::new(0.5), Var::new(1.2));
/// let f = normal_lpdf(&y, mu, sigma)?;
/// f.grad();
/// assert!((f.val() - lp).abs() < 1e-14);
/// let dmu: f64 = y.iter().map(|yi| (yi - 0.5) / 1.44).sum();
/// assert!((mu.adj() - dmu).abs() < 1e-14);
///
/// assert_eq!(
///     normal_lpdf(&y, 0.5, -1.0).unwrap_err().to_string(),
///     "normal_lpdf: Scale parameter is -1, but must be positive!"
/// );
/// # fazang::clear_tape();
/// # Ok::<(), DomainError>(())
/// ```
pub fn normal_lpdf<Y: Arg, M: Arg, Sg: Arg>(
    y: Y,
    mu: M,
    sigma: Sg,
) -> Result<Ret<(Y, M, Sg)>, DomainError>
where
    (Y, M, Sg): Args,
{
    const F: &str = "normal_lpdf";
    let n = location_scale_sizes(F, y, mu, sigma)?;
    check_not_nan(F, "Random variable", y)?;
    check_finite(F, "Location parameter", mu)?;
    check_positive(F, "Scale parameter", sigma)?;
    // An infinite σ (the density is 0 everywhere as σ → ∞): the constant -∞ (with an
    // infinite y too, z would be ∞ · 0 = NaN). An infinite y alone gives -∞ by the
    // formulas themselves, without a NaN (and without a pass over y here).
    if any_infinite(sigma) {
        return Ok(Ret::<(Y, M, Sg)>::from(f64::NEG_INFINITY));
    }
    let x = Vals::new((y, mu, sigma));
    if !M::VECTOR && !Sg::VECTOR {
        return Ok(normal_scalar_parameters(n, &x));
    }
    let s = x.hoist(2, |s| (s.recip(), s.ln()));
    Ok(density(n, &x, |i, _| {
        let (inv_s, ln_s) = s.at(i);
        let z = (x.get(0, i) - x.get(1, i)) * inv_s;
        let dy = -z * inv_s;
        let lp = -ln_s - HALF_LN_TWO_PI - z * 0.5 * z;
        (lp, [dy, -dy, (z * z - 1.0) * inv_s])
    }))
}

/// [`normal_lpdf`] with scalar `mu` and `sigma` (the common case: a sample and its
/// parameters), from the sums S₁ = Σ (yᵢ − μ) and S₂ = Σ (yᵢ − μ)²: the value is
/// −n(½ ln 2π + ln σ) − S₂/(2σ²), ∂/∂μ = S₁/σ², ∂/∂σ = (S₂/σ² − n)/σ and
/// ∂/∂yᵢ = −(yᵢ − μ)/σ². Four operations per observation.
fn normal_scalar_parameters<O: Args>(n: usize, x: &Vals<O>) -> O::Ret {
    let (m, s) = (x.get(1, 0), x.get(2, 0));
    let (s1, s2) = sum_and_squares(n, |i| x.get(0, i) - m);
    let (nf, inv_s) = (n as f64, s.recip());
    let inv_s2 = inv_s * inv_s;
    let value = -(s.ln() + HALF_LN_TWO_PI) * nf - s2 * 0.5 * inv_s2;
    let active = O::active();
    O::Ret::__from_partials_in(&x.ctx, value, |p| {
        if active[0] {
            for i in 0..n {
                x.ops.push_in(p, 0, i, -(x.get(0, i) - m) * inv_s2);
            }
        }
        if active[1] {
            x.ops.push_in(p, 1, 0, s1 * inv_s2);
        }
        if active[2] {
            x.ops.push_in(p, 2, 0, (s2 * inv_s2 - nf) * inv_s);
        }
    })
}

/// Log of the log-normal density, summed over the elements:
///
/// ln LogNormal(y | μ, σ) = Σᵢ [ −½ ln(2π) − ln σᵢ − ln yᵢ − ½ ((ln yᵢ − μᵢ)/σᵢ)² ]
///
/// `y` > 0, location `mu` finite, scale `sigma` > 0 and finite; arguments as for
/// [`normal_lpdf`]. Partials, with z = (ln y − μ)/σ: ∂/∂y = −(1 + z/σ)/y, ∂/∂μ = z/σ,
/// ∂/∂σ = (z² − 1)/σ.
///
/// Stan returns −∞ for y = 0; here, as in Fazang, y must be strictly positive. y = +∞
/// gives the constant −∞.
///
/// # Errors
///
/// A [`DomainError`] if `y` is not positive (or NaN), `mu` is not finite, `sigma` is not
/// positive and finite, or sequence lengths differ.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// let (v, g) = gradient(|x| lognormal_lpdf(&[0.5, 2.0], x[0], x[1]).unwrap(), &[0.1, 0.8]);
/// let z = |y: f64| (y.ln() - 0.1) / 0.8;
/// assert!((g[0] - (z(0.5) + z(2.0)) / 0.8).abs() < 1e-14);
/// assert_eq!(
///     lognormal_lpdf(0.0, 0.1, 0.8).unwrap_err().to_string(),
///     "lognormal_lpdf: Random variable is 0, but must be positive!"
/// );
/// # let _ = v;
/// ```
pub fn lognormal_lpdf<Y: Arg, M: Arg, Sg: Arg>(
    y: Y,
    mu: M,
    sigma: Sg,
) -> Result<Ret<(Y, M, Sg)>, DomainError>
where
    (Y, M, Sg): Args,
{
    const F: &str = "lognormal_lpdf";
    let n = location_scale_sizes(F, y, mu, sigma)?;
    check_positive(F, "Random variable", y)?;
    check_finite(F, "Location parameter", mu)?;
    check_positive_finite(F, "Scale parameter", sigma)?;
    if any_infinite(y) {
        return Ok(Ret::<(Y, M, Sg)>::from(f64::NEG_INFINITY));
    }
    let x = Vals::new((y, mu, sigma));
    let s = x.hoist(2, |s| (s.recip(), s.ln()));
    Ok(density(n, &x, |i, _| {
        let (inv_s, ln_s) = s.at(i);
        let yi = x.get(0, i);
        let ln_y = yi.ln();
        let z = (ln_y - x.get(1, i)) * inv_s;
        let z_s = z * inv_s;
        let lp = -ln_s - HALF_LN_TWO_PI - ln_y - z * 0.5 * z;
        (lp, [-(z_s + 1.0) / yi, z_s, (z * z - 1.0) * inv_s])
    }))
}

/// Whether some element of `x` is ±∞.
pub(crate) fn any_infinite(x: impl Arg) -> bool {
    (0..x.len()).any(|i| x.value(i).is_infinite())
}
