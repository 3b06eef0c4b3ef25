//! Distributions of successes: Bernoulli (probability and logit) and binomial.

use super::args::{Arg, Inner, IntArg};
use super::check::{
    check_bounded, check_bounded_int, check_consistent_sizes, check_nonnegative, check_not_nan,
};
use super::kernel::{density, Vals};
use super::special::{centred, div0, lchoose, mul_log, stirling_remainder, HALF_LN_TWO_PI};
use super::DomainError;
use crate::Real;

/// Log of the Bernoulli probability mass, summed over the elements:
///
/// ln Bernoulli(n | θ) = Σᵢ [ ln θᵢ if nᵢ = 1, ln(1 − θᵢ) if nᵢ = 0 ]
///
/// `n` in {0, 1} (integers: `i64` or `i32`, scalar or sequence), `theta` in [0, 1] (a
/// scalar or sequence of `f64` or active scalars); sequences must have the same length.
/// Partial: ∂/∂θ = 1/θ for n = 1, −1/(1 − θ) for n = 0.
///
/// # Errors
///
/// A [`DomainError`] if some `n` is not 0 or 1, `theta` is outside [0, 1] (or NaN), or
/// sequence lengths differ.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// let lp = bernoulli_lpmf(&[1, 0, 1], 0.25)?;
/// assert!((lp - (2.0 * 0.25_f64.ln() + 0.75_f64.ln())).abs() < 1e-15);
/// assert_eq!(
///     bernoulli_lpmf(1, 1.25).unwrap_err().to_string(),
///     "bernoulli_lpmf: Probability parameter is 1.25, but must be in the interval [0, 1]"
/// );
/// # Ok::<(), DomainError>(())
/// ```
pub fn bernoulli_lpmf<N: IntArg, T: Arg>(n: N, theta: T) -> Result<T::Scalar, DomainError> {
    const F: &str = "bernoulli_lpmf";
    let len = check_consistent_sizes(
        F,
        &[
            ("Random variable", n.vector_len()),
            ("Probability parameter", theta.vector_len()),
        ],
    )?;
    check_bounded(F, "n", n, 0i64, 1i64)?;
    check_bounded(F, "Probability parameter", theta, 0.0, 1.0)?;
    // (ln θ, 1/θ) for n = 1 and (ln(1 − θ), −1/(1 − θ)) for n = 0.
    let x = Vals::new((theta,));
    let t = x.hoist(0, |t| {
        [((-t).ln_1p(), -(-t + 1.0).recip()), (t.ln(), t.recip())]
    });
    Ok(density(len, &x, |i, _| {
        let (lp, d) = t.at(i)[usize::from(n.int(i) == 1)];
        (lp, [d])
    }))
}

/// Log of the Bernoulli probability mass with the probability on the logit scale
/// (θ = logit⁻¹(α)), summed over the elements:
///
/// ln BernoulliLogit(n | α) = Σᵢ −ln(1 + e^(−sᵢαᵢ)),  sᵢ = 2nᵢ − 1
///
/// computed without overflow for any α. `n` in {0, 1}, `alpha` not NaN; arguments as for
/// [`bernoulli_lpmf`]. Partial: ∂/∂α = s · logit⁻¹(−sα).
///
/// # Errors
///
/// A [`DomainError`] if some `n` is not 0 or 1, `alpha` is NaN, or sequence lengths
/// differ.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// // Logistic regression: y_i ~ bernoulli_logit(a + b x_i).
/// let (x, y) = ([-1.0, 0.5, 2.0], [0, 1, 1]);
/// let (lp, g) = gradient(
///     |p| {
///         let eta: Vec<Var> = x.iter().map(|&xi| p[0] + p[1] * xi).collect();
///         bernoulli_logit_lpmf(&y, &eta).unwrap()
///     },
///     &[0.2, 0.7],
/// );
/// let s = |a: f64| 1.0 / (1.0 + (-a).exp());
/// let expected: f64 = x.iter().zip(y).map(|(&xi, yi)| {
///     let t = s(0.2 + 0.7 * xi);
///     if yi == 1 { t.ln() } else { (1.0 - t).ln() }
/// }).sum();
/// assert!((lp - expected).abs() < 1e-14);
/// # let _ = g;
/// ```
pub fn bernoulli_logit_lpmf<N: IntArg, A: Arg>(n: N, alpha: A) -> Result<A::Scalar, DomainError> {
    const F: &str = "bernoulli_logit_lpmf";
    let len = check_consistent_sizes(
        F,
        &[
            ("Random variable", n.vector_len()),
            ("Probability parameter", alpha.vector_len()),
        ],
    )?;
    check_bounded(F, "n", n, 0i64, 1i64)?;
    check_not_nan(F, "Logit transformed probability parameter", alpha)?;
    // (value, partial) for n = 0 and for n = 1.
    let x = Vals::new((alpha,));
    let a = x.hoist(0, |a| {
        [
            (-a.log1p_exp(), -a.inv_logit()),
            (-(-a).log1p_exp(), (-a).inv_logit()),
        ]
    });
    Ok(density(len, &x, |i, _| {
        let (lp, d) = a.at(i)[usize::from(n.int(i) == 1)];
        (lp, [d])
    }))
}

/// Log of the binomial probability mass of `n` successes in `trials` trials with success
/// probability `theta`, summed over the elements:
///
/// ln Binomial(n | N, θ) = Σᵢ [ ln C(Nᵢ, nᵢ) + nᵢ ln θᵢ + (Nᵢ − nᵢ) ln(1 − θᵢ) ]
///
/// `n` in [0, N], `trials` ≥ 0 (integers: `i64` or `i32`, scalars or sequences), `theta` in
/// [0, 1] (a scalar or sequence of `f64` or active scalars). Partial:
/// ∂/∂θ = n/θ − (N − n)/(1 − θ).
///
/// # Errors
///
/// A [`DomainError`] if some `n` is outside [0, N], `trials` is negative, `theta` is
/// outside [0, 1] (or NaN), or sequence lengths differ.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// let lp = binomial_lpmf(3, 10, 0.25)?;
/// let expected = 120.0_f64.ln() + 3.0 * 0.25_f64.ln() + 7.0 * 0.75_f64.ln();
/// assert!((lp - expected).abs() < 1e-14);
/// assert_eq!(
///     binomial_lpmf(&[3, 11], 10, 0.25).unwrap_err().to_string(),
///     "binomial_lpmf: Successes variable[2] is 11, but must be in the interval [0, 10]"
/// );
/// # Ok::<(), DomainError>(())
/// ```
pub fn binomial_lpmf<N, Tr, T>(n: N, trials: Tr, theta: T) -> Result<T::Scalar, DomainError>
where
    N: IntArg,
    Tr: IntArg,
    T: Arg,
{
    const F: &str = "binomial_lpmf";
    let len = check_consistent_sizes(
        F,
        &[
            ("Successes variable", n.vector_len()),
            ("Population size parameter", trials.vector_len()),
            ("Probability parameter", theta.vector_len()),
        ],
    )?;
    // N first, so that N < 0 is reported as such rather than as n out of [0, N].
    check_nonnegative(F, "Population size parameter", trials)?;
    check_bounded_int(F, "Successes variable", n, 0, trials)?;
    check_bounded(F, "Probability parameter", theta, 0.0, 1.0)?;
    let x = Vals::new((theta,));
    let t = x.hoist(0, |t| (t.ln(), (-t).ln_1p()));
    Ok(density(len, &x, |i, need| {
        let (k, m, th) = (n.int(i), trials.int(i), x.get(0, i));
        let (ln_t, ln_1m_t) = t.at(i);
        let c = |v: i64| Inner::<(T,)>::from(v as f64);
        let (kf, rest, mf) = (c(k), c(m - k), c(m));
        let inside = th.val() > 0.0 && th.val() < 1.0;
        // δ = n - Nθ (one rounding): the mode is at δ = 0.
        let delta = (-mf).mul_add(th, kf);
        let lp = if !need.value {
            Default::default()
        } else if k >= 10 && m - k >= 10 && inside {
            // With Stirling's formula for the three factorials of C(N, n) the terms of
            // size N ln N cancel; in u = Nθ/n - 1 and v = N(1-θ)/(N-n) - 1 what is left is
            // n (ln(1+u) - u) + (N-n)(ln(1+v) - v) + ½ ln(N/(n(N-n))) - ½ ln 2π
            // + R(N) - R(n) - R(N-n).
            let ln_n = mf.ln();
            let (_, a) = centred(kf, -delta / kf, || ln_n + ln_t - kf.ln());
            let (_, b) = centred(rest, delta / rest, || ln_n + ln_1m_t - rest.ln());
            a + b + (ln_n - kf.ln() - rest.ln()) * 0.5 - HALF_LN_TWO_PI + stirling_remainder(mf)
                - stirling_remainder(kf)
                - stirling_remainder(rest)
        } else {
            Inner::<(T,)>::from(lchoose(m, k)) + mul_log(kf, ln_t) + mul_log(rest, ln_1m_t)
        };
        // n/θ - (N-n)/(1-θ) = δ/(θ(1-θ)).
        let d = if inside {
            delta / (th * (-th + 1.0))
        } else {
            div0(kf, th) - div0(rest, -th + 1.0)
        };
        (lp, [d])
    }))
}
