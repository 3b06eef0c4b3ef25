//! Location-scale families on ℝ besides the normal: Cauchy, Student's t, logistic and
//! double exponential (Laplace).

use super::args::{Arg, Args, Ret};
use super::check::{
    check_consistent_sizes, check_finite, check_not_nan, check_positive_finite,
    location_scale_sizes,
};
use super::kernel::{density, Vals};
use super::normal::any_infinite;
use super::special::{
    half_shift_digamma_excess, lgamma, log1pmx, stirling_remainder, HALF_LN_TWO_PI, LN_PI,
};
use super::DomainError;
use crate::Real;
use std::f64::consts::LN_2;

/// Log of the Cauchy density, summed over the elements:
///
/// ln Cauchy(y | μ, σ) = Σᵢ [ −ln π − ln σᵢ − ln(1 + ((yᵢ − μᵢ)/σᵢ)²) ]
///
/// `y` not NaN, location `mu` finite, scale `sigma` > 0 and finite; arguments as for
/// [`normal_lpdf`](super::normal_lpdf). Partials, with z = (y − μ)/σ:
/// ∂/∂y = −2z/(σ(1 + z²)), ∂/∂μ = −∂/∂y, ∂/∂σ = (z² − 1)/(σ(1 + z²)), computed in 1/z
/// for |z| > 1 so that no z² overflows. An infinite `y` gives the constant −∞.
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
    if any_infinite(y) {
        return Ok(f64::NEG_INFINITY.into());
    }
    let x = Vals::new((y, mu, sigma));
    let s = x.hoist(2, |s| (s.recip(), s.ln()));
    Ok(density(n, &x, |i, _| {
        let (inv_s, ln_s) = s.at(i);
        let d = x.get(0, i) - x.get(1, i);
        let z = d * inv_s;
        if z.val().abs() <= 1.0 {
            let z2 = z * z;
            let w = inv_s / (z2 + 1.0);
            let dy = z * -2.0 * w;
            return (-ln_s - LN_PI - z2.ln_1p(), [dy, -dy, (z2 - 1.0) * w]);
        }
        // In t = 1/z (z² would overflow from |z| ≈ 1e154): ln(1 + z²) = 2 ln|z| +
        // ln(1 + t²), ∂/∂y = -2t/(σ(1 + t²)), ∂/∂σ = (1 - t²)/(σ(1 + t²)).
        let (t, ln_z) = recip_and_ln(d, x.get(2, i), ln_s);
        let t2 = t * t;
        let w = inv_s / (t2 + 1.0);
        let dy = t * -2.0 * w;
        (
            -ln_s - LN_PI - ln_z * 2.0 - t2.ln_1p(),
            [dy, -dy, (-t2 + 1.0) * w],
        )
    }))
}

/// For z = d/σ with |z| > 1: (1/z, ln|z|), computed from d and σ so that neither
/// overflows when z does.
#[inline]
fn recip_and_ln<T: Real>(d: T, s: T, ln_s: T) -> (T, T) {
    let t = s / d;
    let ln_z = if t.val().is_normal() {
        -t.abs().ln()
    } else {
        d.abs().ln() - ln_s
    };
    (t, ln_z)
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
/// The normalising constant and ∂/∂ν are computed in forms that keep their relative
/// accuracy for any ν (the plain differences of ln Γ and ψ lose all digits by ν ≈ 1e15),
/// and large |z| in 1/z. An infinite `y` gives the constant −∞.
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
    if any_infinite(y) {
        return Ok(Ret::<(Y, N, M, Sg)>::from(f64::NEG_INFINITY));
    }
    // The normalising constant of ν and the digamma term of ∂/∂ν.
    let x = Vals::new((y, nu, mu, sigma));
    let zero = || Default::default();
    let c = x.hoist(1, student_t_constant);
    let dg = x.hoist(1, |v| half_shift_digamma_excess(v * 0.5));
    let s = x.hoist(3, |s| (s.recip(), s.ln()));
    Ok(density(n, &x, |i, need| {
        let (inv_s, ln_s) = s.at(i);
        let v = x.get(1, i);
        let d = x.get(0, i) - x.get(2, i);
        let z = d * inv_s;
        // r = z²/ν, with ln(1 + r), r/(1 + r), z/(1 + r) and
        // g = ln(1 + r) - r/(1 + r) (= r²/2 + O(r³)), each without overflow or
        // cancellation: in t = 1/z when |z| > 1.
        // rep = (ν+1) r/(1+r) - 1 = (z² - 1)/(1 + r), also from these.
        let (ln1p_r, r_1pr, z_1pr, g, rep) = if z.val().abs() <= 1.0 {
            let r = z * z / v;
            let l = r.ln_1p();
            let g = if r < 1.0 {
                log1pmx(r) + r * r / (r + 1.0)
            } else {
                l - r / (r + 1.0)
            };
            (
                l,
                r / (r + 1.0),
                z / (r + 1.0),
                g,
                (z * z - 1.0) / (r + 1.0),
            )
        } else {
            let (t, ln_z) = recip_and_ln(d, x.get(3, i), ln_s);
            // 1/r = ν t², finite; r may not be.
            let inv_r = v * t * t;
            let l = if inv_r < 1.0 {
                ln_z * 2.0 - v.ln() + inv_r.ln_1p()
            } else {
                inv_r.recip().ln_1p()
            };
            let r_1pr = (inv_r + 1.0).recip();
            let g = if inv_r > 1.0 {
                let r = inv_r.recip();
                log1pmx(r) + r * r_1pr
            } else {
                l - r_1pr
            };
            // (z² - 1)/(1 + r) = ν(1 - t²)/(1 + 1/r)
            let rep = v * (-(t * t) + 1.0) / (inv_r + 1.0);
            (l, r_1pr, v * t / (inv_r + 1.0), g, rep)
        };
        let lp = if need.value {
            c.at(i) - ln_s - (v + 1.0) * 0.5 * ln1p_r
        } else {
            zero()
        };
        let dy = -(v + 1.0) * z_1pr * inv_s / v;
        let dnu = if need.d[1] {
            (dg.at(i) + r_1pr / v - g) * 0.5
        } else {
            zero()
        };
        (lp, [dy, dnu, -dy, rep * inv_s])
    }))
}

/// ln Γ((ν+1)/2) - ln Γ(ν/2) - ½ ln(νπ), which tends to -½ ln 2π: for ν/2 = x ≥ 10 as
/// x (ln(1 + h) - h) + R(x + ½) - R(x) - ½ ln 2π with h = 1/(2x) and R the Stirling
/// remainder (the plain difference loses all digits by ν ≈ 1e15).
fn student_t_constant<T: Real>(v: T) -> T {
    let x = v * 0.5;
    if x < 10.0 {
        lgamma(x + 0.5) - lgamma(x) - (v.ln() + LN_PI) * 0.5
    } else {
        x * log1pmx(T::from(0.5) / x) + stirling_remainder(x + 0.5)
            - stirling_remainder(x)
            - HALF_LN_TWO_PI
    }
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
    let x = Vals::new((y, mu, sigma));
    let s = x.hoist(2, |s| (s.recip(), s.ln()));
    Ok(density(n, &x, |i, _| {
        let (inv_s, ln_s) = s.at(i);
        let z = (x.get(0, i) - x.get(1, i)) * inv_s;
        let a = z.abs();
        let lp = -a - (-a).exp().ln_1p() * 2.0 - ln_s;
        let t = (z * 0.5).tanh();
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
    let x = Vals::new((y, mu, sigma));
    let s = x.hoist(2, |s| (s.recip(), s.ln()));
    Ok(density(n, &x, |i, _| {
        let (inv_s, ln_s) = s.at(i);
        let d = x.get(0, i) - x.get(1, i);
        let a = d.abs() * inv_s;
        // −sign(y − μ)/σ, 0 at y = μ (the derivative of |d| the table gives abs).
        let dy = -inv_s * crate::math::special::sign_or_zero(d.val());
        (-ln_s - LN_2 - a, [dy, -dy, (a - 1.0) * inv_s])
    }))
}
