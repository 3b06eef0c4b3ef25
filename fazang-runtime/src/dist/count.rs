//! Distributions of counts: Poisson (rate and log rate) and negative binomial.

use super::args::{Arg, Args, Inner, IntArg, Ret};
use super::check::{
    check_consistent_sizes, check_nonnegative, check_not_nan, check_positive_finite,
};
use super::kernel::{density, Vals};
use super::special::{
    centred, digamma_minus_ln_diff, div0, lgamma, lgamma_ratio, ln1p_minus_ratio, ln_factorial,
    mul_log, stirling_remainder, HALF_LN_TWO_PI,
};
use super::DomainError;
use crate::Real;

/// Log of the Poisson probability mass, summed over the elements:
///
/// ln Poisson(n | λ) = Σᵢ [ nᵢ ln λᵢ − λᵢ − ln nᵢ! ]
///
/// `n` ≥ 0 (integers: `i64` or `i32`, scalar or sequence), rate `lambda` ≥ 0 (a scalar or
/// sequence of `f64` or active scalars); sequences must have the same length. The result
/// is −∞ if some λ is +∞, or λ = 0 with n > 0. Partial: ∂/∂λ = n/λ − 1.
///
/// # Errors
///
/// A [`DomainError`] if `n` is negative, `lambda` is negative or NaN, or sequence lengths
/// differ.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// let counts: Vec<i64> = vec![2, 0, 3];
/// let (lp, g) = gradient(|x| poisson_lpmf(&counts, x[0]).unwrap(), &[1.5]);
/// let expected = 5.0 * 1.5_f64.ln() - 4.5 - (2.0_f64 * 6.0).ln();
/// assert!((lp - expected).abs() < 1e-14);
/// assert!((g[0] - (5.0 / 1.5 - 3.0)).abs() < 1e-14);
/// assert_eq!(
///     poisson_lpmf(-1, 1.5).unwrap_err().to_string(),
///     "poisson_lpmf: Random variable is -1, but must be nonnegative!"
/// );
/// ```
pub fn poisson_lpmf<N: IntArg, L: Arg>(n: N, lambda: L) -> Result<L::Scalar, DomainError> {
    const F: &str = "poisson_lpmf";
    let len = check_consistent_sizes(
        F,
        &[
            ("Random variable", n.vector_len()),
            ("Rate parameter", lambda.vector_len()),
        ],
    )?;
    check_nonnegative(F, "Random variable", n)?;
    check_nonnegative(F, "Rate parameter", lambda)?;
    let impossible = (0..lambda.len()).any(|i| lambda.value(i).is_infinite())
        || (0..len).any(|i| lambda.value(i) == 0.0 && n.int(i) != 0);
    if impossible {
        return Ok(f64::NEG_INFINITY.into());
    }
    let x = Vals::new((lambda,));
    let ln_l = x.hoist(0, |l| l.ln());
    Ok(density(len, &x, |i, need| {
        let (k, l) = (n.int(i), x.get(0, i));
        let kf: Inner<(L,)> = (k as f64).into();
        let lp = if !need.value {
            Default::default()
        } else if k >= STIRLING_COUNT && l.val() > 0.0 {
            count_centred(kf, l, || ln_l.at(i))
        } else {
            mul_log(kf, ln_l.at(i)) - l - ln_factorial(k)
        };
        // n/λ - 1 = (n - λ)/λ: exact to one rounding near the mode.
        let d = if l == 0.0 {
            div0(kf, l) - 1.0
        } else {
            (kf - l) / l
        };
        (lp, [d])
    }))
}

/// Log of the Poisson probability mass with log rate `alpha` (λ = e^α), summed over the
/// elements:
///
/// ln PoissonLog(n | α) = Σᵢ [ nᵢ αᵢ − e^αᵢ − ln nᵢ! ]
///
/// `n` ≥ 0 (integers), `alpha` not NaN; arguments as for [`poisson_lpmf`]. The result is
/// −∞ if some α is +∞, or α = −∞ with n > 0. Partial: ∂/∂α = n − e^α.
///
/// # Errors
///
/// A [`DomainError`] if `n` is negative, `alpha` is NaN, or sequence lengths differ.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// let a = poisson_log_lpmf(&[2, 0, 3], 1.5_f64.ln())?;
/// let b = poisson_lpmf(&[2, 0, 3], 1.5)?;
/// assert!((a - b).abs() < 1e-14);
/// # Ok::<(), DomainError>(())
/// ```
pub fn poisson_log_lpmf<N: IntArg, A: Arg>(n: N, alpha: A) -> Result<A::Scalar, DomainError> {
    const F: &str = "poisson_log_lpmf";
    let len = check_consistent_sizes(
        F,
        &[
            ("Random variable", n.vector_len()),
            ("Log rate parameter", alpha.vector_len()),
        ],
    )?;
    check_nonnegative(F, "Random variable", n)?;
    check_not_nan(F, "Log rate parameter", alpha)?;
    let impossible = (0..alpha.len()).any(|i| alpha.value(i) == f64::INFINITY)
        || (0..len).any(|i| alpha.value(i) == f64::NEG_INFINITY && n.int(i) != 0);
    if impossible {
        return Ok(f64::NEG_INFINITY.into());
    }
    let x = Vals::new((alpha,));
    let exp_a = x.hoist(0, |a| a.exp());
    Ok(density(len, &x, |i, need| {
        let (k, a, e) = (n.int(i), x.get(0, i), exp_a.at(i));
        let kf: Inner<(A,)> = (k as f64).into();
        let lp = if !need.value {
            Default::default()
        } else if k >= STIRLING_COUNT && e.val() > 0.0 && e.val().is_finite() {
            count_centred(kf, e, || a)
        } else {
            mul_log(kf, a) - e - ln_factorial(k)
        };
        (lp, [kf - e])
    }))
}

/// The negative binomial log mass for n, φ ≥ 10, where the terms of size n ln n and
/// φ ln φ cancel near the mode: with Stirling's formula for ln Γ(n+φ) - ln Γ(φ) - ln n! =
/// -ln B(n, φ) - ln n, and s = μ + φ, u = φ(μ-n)/(ns), v = (n-μ)/s (so that nu + φv = 0),
/// n (ln(1+u) - u) + φ (ln(1+v) - v) - ½ ln(1 + φ/n) + ½ ln φ - ln n - ½ ln 2π
/// - R(n) - R(φ) + R(n+φ).
fn nb2_centred<T: Real>(n: T, mu: T, phi: T) -> T {
    let s = mu + phi;
    let (u, v) = (phi * (mu - n) / (n * s), (n - mu) / s);
    let c = n + phi;
    let (_, a) = centred(n, u, || mu.ln() + c.ln() - n.ln() - s.ln());
    let (_, b) = centred(phi, v, || (c / s).ln());
    a + b - (phi / n).ln_1p() * 0.5 + phi.ln() * 0.5
        - n.ln()
        - HALF_LN_TWO_PI
        - stirling_remainder(n)
        - stirling_remainder(phi)
        + stirling_remainder(c)
}

/// Counts from which the Poisson densities use Stirling's formula for ln n!.
const STIRLING_COUNT: i64 = 10;

/// n ln λ - λ - ln n! for n ≥ 10 and λ > 0, where the terms of size n ln n cancel at the
/// mode: with Stirling's ln n! and t = λ/n - 1, n (ln(1+t) - t) - ½ ln 2πn - R(n).
/// `ln_lambda` gives ln λ (for t far from 0, where nothing cancels).
fn count_centred<T: Real>(n: T, lambda: T, ln_lambda: impl FnOnce() -> T) -> T {
    let (_, n_log1pmx) = centred(n, (lambda - n) / n, || ln_lambda() - n.ln());
    n_log1pmx - n.ln() * 0.5 - HALF_LN_TWO_PI - stirling_remainder(n)
}

/// Log of the negative binomial probability mass with mean `mu` and precision (inverse
/// overdispersion) `phi`, summed over the elements (Stan's `neg_binomial_2`; the
/// variance is μ + μ²/φ):
///
/// ln NegBinomial2(n | μ, φ) = Σᵢ [ ln C(n + φ − 1, n) + n ln(μ/(μ + φ))
///   + φ ln(φ/(μ + φ)) ]
///
/// `n` ≥ 0 (integers), `mu` and `phi` > 0 and finite (scalars or sequences of `f64` or
/// active scalars). Computed without the cancellation of ln Γ differences for large φ.
/// Partials: ∂/∂μ = φ(n − μ)/(μ(μ + φ)),
/// ∂/∂φ = ψ(n + φ) − ψ(φ) + (μ − n)/(μ + φ) − ln(1 + μ/φ).
///
/// # Errors
///
/// A [`DomainError`] if `n` is negative, `mu` or `phi` is not positive and finite, or
/// sequence lengths differ.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// // As φ → ∞ the negative binomial tends to the Poisson.
/// let nb = neg_binomial_2_lpmf(&[2, 0, 3], 1.5, 1e12)?;
/// let p = poisson_lpmf(&[2, 0, 3], 1.5)?;
/// assert!((nb - p).abs() < 1e-10);
/// # Ok::<(), DomainError>(())
/// ```
pub fn neg_binomial_2_lpmf<N: IntArg, M: Arg, P: Arg>(
    n: N,
    mu: M,
    phi: P,
) -> Result<Ret<(M, P)>, DomainError>
where
    (M, P): Args,
{
    const F: &str = "neg_binomial_2_lpmf";
    let len = check_consistent_sizes(
        F,
        &[
            ("Failures variable", n.vector_len()),
            ("Location parameter", mu.vector_len()),
            ("Precision parameter", phi.vector_len()),
        ],
    )?;
    check_nonnegative(F, "Failures variable", n)?;
    check_positive_finite(F, "Location parameter", mu)?;
    check_positive_finite(F, "Precision parameter", phi)?;
    let x = Vals::new((mu, phi));
    Ok(density(len, &x, |i, need| {
        let (k, m, p) = (n.int(i), x.get(0, i), x.get(1, i));
        let kf: Inner<(M, P)> = (k as f64).into();
        let lp = if !need.value {
            Default::default()
        } else if k >= STIRLING_COUNT && p.val() >= 10.0 {
            nb2_centred(kf, m, p)
        } else if k >= STIRLING_COUNT {
            // ln Γ(n+φ) - ln n! = ln Γ(n+φ) - ln Γ(n) - ln n, in a difference that keeps the
            // small φ (n + φ would round it away).
            lgamma_ratio(kf, p) - kf.ln() - lgamma(p) - kf * (p / m).ln_1p() - p * (m / p).ln_1p()
        } else if p.val() >= 1.0 || k == 0 {
            // n < 10: ln Γ(n+φ) - ln Γ(φ) = n ln φ + Σ_{j<n} ln(1 + j/φ), whose n ln φ
            // cancels against n ln(μ/(μ+φ)) exactly: n ln μ - ln n! + Σ ln(1 + j/φ)
            // - (n+φ) ln(1 + μ/φ) (the Poisson limit n ln μ - ln n! - μ as φ → ∞).
            let sum: Inner<(M, P)> = (1..k)
                .map(|j| (Inner::<(M, P)>::from(j as f64) / p).ln_1p())
                .sum();
            mul_log(kf, m.ln()) - ln_factorial(k) + sum - (kf + p) * (m / p).ln_1p()
        } else {
            // n < 10, φ < 1: ln Γ(n+φ) - ln Γ(φ) - ln n! = ln(φ/n) + Σ_{0<j<n} ln(1 + φ/j),
            // so ln(φ/n) + Σ ln(1 + φ/j) - n ln(1 + φ/μ) - φ ln(1 + μ/φ).
            let sum: Inner<(M, P)> = (1..k).map(|j| (p / j as f64).ln_1p()).sum();
            (p / kf).ln() + sum - kf * (p / m).ln_1p() - p * (m / p).ln_1p()
        };
        let dm = p * (kf - m) / (m * (m + p));
        // ψ(n+φ) - ψ(φ) + ln(φ/(μ+φ)) + (μ-n)/(μ+φ) = (ln(1+v) - v) + E(n+φ) - E(φ), with
        // v = (n-μ)/(μ+φ) and E(t) = ψ(t) - ln t: the terms of size n/φ cancel exactly.
        let dp = if !need.d[1] {
            Default::default()
        } else if k <= 32 {
            // ψ(n+φ) - ψ(φ) = Σ_{j<n} 1/(φ+j), so the partial is
            // Σ_{j<n} (μ - j)/((φ+j)(μ+φ)) - (ln(1+w) - w/(1+w)) with w = μ/φ: no
            // cancellation for small μ, where the partial is O(μ).
            let s = m + p;
            let sum: Inner<(M, P)> = (0..k).map(|j| (m - j as f64) / ((p + j as f64) * s)).sum();
            sum - ln1p_minus_ratio(m / p)
        } else {
            let v = (kf - m) / (m + p);
            // ln(1+v) = ln((n+φ)/(μ+φ)) from the ratio itself where 1 + v is far from 1
            // (v close to -1 would lose its relative accuracy).
            let (_, lv) = centred(Inner::<(M, P)>::from(1.0), v, || ((kf + p) / (m + p)).ln());
            lv + digamma_minus_ln_diff(p, kf)
        };
        (lp, [dm, dp])
    }))
}
