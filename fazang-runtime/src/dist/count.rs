//! Distributions of counts: Poisson (rate and log rate) and negative binomial.

use super::args::{Arg, Args, Inner, IntArg, Ret};
use super::check::{
    check_consistent_sizes, check_nonnegative, check_not_nan, check_positive_finite,
};
use super::kernel::{density, Vals};
use super::special::{digamma_ratio, div0, lgamma_ratio, ln_factorial, mul_log};
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
        let lp = if need.value {
            mul_log(kf, ln_l.at(i)) - l - ln_factorial(k)
        } else {
            Default::default()
        };
        (lp, [div0(kf, l) - 1.0])
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
        let lp = if need.value {
            mul_log(kf, a) - e - ln_factorial(k)
        } else {
            Default::default()
        };
        (lp, [kf - e])
    }))
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
        let ln1p_m_p = (m / p).ln_1p();
        let lp = if need.value {
            lgamma_ratio(p, kf) - ln_factorial(k) - mul_log(kf, (p / m).ln_1p()) - p * ln1p_m_p
        } else {
            Default::default()
        };
        let dm = p * (kf - m) / (m * (m + p));
        let dp = if need.d[1] {
            digamma_ratio(p, k) + (m - kf) / (m + p) - ln1p_m_p
        } else {
            Default::default()
        };
        (lp, [dm, dp])
    }))
}
