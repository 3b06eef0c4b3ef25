//! Distributions on and over simplexes: the Dirichlet, the multinomial and the
//! categorical (by probabilities or by log odds).

use super::args::{Flat, MultiArg};
use super::check::{check_rectangular, check_simplex, check_size_match};
use super::record::{zeros_if, Operands};
use crate::dist::args::{Args, Inner, IntArg, Ret};
use crate::dist::check::{
    check_bounded_int, check_consistent_sizes, check_finite, check_nonnegative, check_positive,
};
use crate::dist::DomainError;
use crate::Real;

/// Log of the Dirichlet density of the simplex `theta` with prior sample sizes `alpha`:
///
/// ln Dir(θ | α) = ln Γ(Σⱼ αⱼ) − Σⱼ ln Γ(αⱼ) + Σⱼ (αⱼ − 1) ln θⱼ
///
/// `theta` and `alpha` are vectors of one length, or several as rows (summed; a vector is
/// broadcast against rows). One node, with partials ∂/∂θⱼ = (αⱼ − 1)/θⱼ and
/// ∂/∂αⱼ = ψ(Σα) − ψ(αⱼ) + ln θⱼ. A term with αⱼ = 1 is 0 even where θⱼ = 0.
///
/// # Errors
///
/// A [`DomainError`] if the sizes differ, an `alpha` is not positive, or `theta` is not a
/// simplex (sum 1 to within 1e-8, no negative element).
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// // α = (1, 1, 1): uniform on the 2-simplex, density Γ(3) = 2.
/// assert!((dirichlet_lpdf(&[0.2, 0.3, 0.5], &[1.0, 1.0, 1.0])? - 2.0_f64.ln()).abs() < 1e-15);
/// let (v, g) = gradient(|a| dirichlet_lpdf(&[0.2, 0.3, 0.5], a).unwrap(), &[2.0, 3.0, 4.0]);
/// assert!(v.is_finite() && g.len() == 3);
/// # Ok::<(), DomainError>(())
/// ```
pub fn dirichlet_lpdf<Th: MultiArg, Al: MultiArg>(
    theta: Th,
    alpha: Al,
) -> Result<Ret<(Flat<Th>, Flat<Al>)>, DomainError>
where
    (Flat<Th>, Flat<Al>): Args,
{
    const F: &str = "dirichlet_lpdf";
    let (nt, kt) = check_rectangular(F, "probabilities", theta)?;
    let (na, ka) = check_rectangular(F, "prior sample sizes", alpha)?;
    if Th::MATRIX && Al::MATRIX {
        check_consistent_sizes(
            F,
            &[
                ("probabilities", Some(nt)),
                ("prior sample sizes", Some(na)),
            ],
        )?;
    }
    let n = if Th::MATRIX {
        nt
    } else if Al::MATRIX {
        na
    } else {
        1
    };
    if n == 0 {
        return Ok(0.0.into());
    }
    check_consistent_sizes(
        F,
        &[
            ("probabilities", Some(kt)),
            ("prior sample sizes", Some(ka)),
        ],
    )?;
    check_positive(F, "prior sample sizes", Flat::new(alpha))?;
    for r in 0..nt {
        check_simplex(F, "probabilities", Row(theta, r))?;
    }
    let x = Operands::new((Flat::new(theta), Flat::new(alpha)));
    let k = kt;
    let (th, al) = (x.read(0, nt * k), x.read(1, na * k));
    let (mut dth, mut dal) = (zeros_if(x.needs(0), nt * k), zeros_if(x.needs(1), na * k));
    let zero = Inner::<(Flat<Th>, Flat<Al>)>::from(0.0);
    let mut value = zero;
    for i in 0..n {
        let (ti, ai) = (
            if Th::MATRIX { i * k } else { 0 },
            if Al::MATRIX { i * k } else { 0 },
        );
        let (t, a) = (&th[ti..ti + k], &al[ai..ai + k]);
        let total = a.iter().fold(zero, |s, v| s + *v);
        value += total.log_gamma();
        let psi_total = dal.as_ref().map(|_| total.digamma());
        for j in 0..k {
            let am1 = a[j] - 1.0;
            let ln_t = t[j].ln();
            value -= a[j].log_gamma();
            if am1 != 0.0 {
                value += am1 * ln_t;
            }
            if let Some(d) = &mut dth {
                if am1 != 0.0 {
                    d[ti + j] += am1 / t[j];
                }
            }
            if let (Some(d), Some(psi)) = (&mut dal, psi_total) {
                d[ai + j] += psi - a[j].digamma() + ln_t;
            }
        }
    }
    Ok(x.record(value, |p| {
        p.all(0, dth);
        p.all(1, dal);
    }))
}

/// Row `r` of a [`MultiArg`] as a vector.
#[derive(Clone, Copy)]
struct Row<A>(A, usize);

impl<A: MultiArg> MultiArg for Row<A> {
    type Scalar = A::Scalar;
    const MATRIX: bool = false;
    fn rows(&self) -> usize {
        1
    }
    fn row_len(&self, _: usize) -> usize {
        self.0.row_len(self.1)
    }
    fn get(&self, _: usize, c: usize) -> A::Scalar {
        self.0.get(self.1, c)
    }
}

/// Log of the multinomial probability of the counts `ns` with outcome probabilities
/// `theta` (a simplex):
///
/// ln Multinomial(n | θ) = ln Γ(1 + Σⱼ nⱼ) − Σⱼ ln Γ(nⱼ + 1) + Σⱼ nⱼ ln θⱼ
///
/// (a term with nⱼ = 0 is 0 even where θⱼ = 0). One node, with partials ∂/∂θⱼ = nⱼ/θⱼ.
///
/// # Errors
///
/// A [`DomainError`] if `ns` and `theta` differ in length, a count is negative, or
/// `theta` is not a simplex.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// // Two draws, one of each of two outcomes with probability ½: 2 · ¼.
/// let lp = multinomial_lpmf(&[1, 1], &[0.5, 0.5])?;
/// assert!((lp - 0.5_f64.ln()).abs() < 1e-15);
/// # Ok::<(), DomainError>(())
/// ```
pub fn multinomial_lpmf<Th: MultiArg>(
    ns: &[i64],
    theta: Th,
) -> Result<Ret<(Flat<Th>,)>, DomainError>
where
    (Flat<Th>,): Args,
{
    const F: &str = "multinomial_lpmf";
    let k = theta.cols();
    check_size_match(
        F,
        "Size of number of trials variable",
        ns.len(),
        "rows of probabilities parameter",
        k,
    )?;
    check_nonnegative(F, "Number of trials variable", ns)?;
    check_simplex(F, "Probabilities parameter", Row(theta, 0))?;
    let x = Operands::new((Flat::new(theta),));
    let th = x.read(0, k);
    let total: f64 = ns.iter().map(|&n| n as f64).sum();
    let mut value = Inner::<(Flat<Th>,)>::from(lgamma(total + 1.0));
    let mut d = zeros_if(x.needs(0), k);
    for (j, &n) in ns.iter().enumerate() {
        value -= lgamma(n as f64 + 1.0);
        if n > 0 {
            value += th[j].ln() * n as f64;
            if let Some(d) = &mut d {
                d[j] = th[j].recip() * n as f64;
            }
        }
    }
    Ok(x.record(value, |p| p.all(0, d)))
}

/// ln Γ(x) on `f64`.
fn lgamma(x: f64) -> f64 {
    crate::log_gamma(x)
}

/// Log of the categorical probability of the outcomes `n` (each in `1..=K`, as in Stan)
/// with probabilities `theta` (a simplex of length K): Σᵢ ln θ_{nᵢ}.
///
/// `n` is an `i64` (or `i32`) or a slice of them. One node, with partials
/// ∂/∂θⱼ = cⱼ/θⱼ for cⱼ outcomes equal to j.
///
/// # Errors
///
/// A [`DomainError`] if an outcome is outside `1..=K` or `theta` is not a simplex.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// let lp = categorical_lpmf(&[1, 3, 3], &[0.2, 0.3, 0.5])?;
/// assert!((lp - (0.2_f64.ln() + 2.0 * 0.5_f64.ln())).abs() < 1e-15);
/// assert_eq!(
///     categorical_lpmf(4, &[0.2, 0.3, 0.5]).unwrap_err().to_string(),
///     "categorical_lpmf: Number of categories is 4, but must be in the interval [1, 3]"
/// );
/// # Ok::<(), DomainError>(())
/// ```
pub fn categorical_lpmf<N: IntArg, Th: MultiArg>(
    n: N,
    theta: Th,
) -> Result<Ret<(Flat<Th>,)>, DomainError>
where
    (Flat<Th>,): Args,
{
    const F: &str = "categorical_lpmf";
    if n.is_empty() {
        return Ok(0.0.into());
    }
    let k = theta.cols();
    check_bounded_int(F, "Number of categories", n, 1, k as i64)?;
    check_simplex(F, "Probabilities parameter", Row(theta, 0))?;
    let counts = counts(n, k);
    let x = Operands::new((Flat::new(theta),));
    let th = x.read(0, k);
    let mut value = Inner::<(Flat<Th>,)>::from(0.0);
    let mut d = zeros_if(x.needs(0), k);
    for (j, &c) in counts.iter().enumerate() {
        if c > 0 {
            value += th[j].ln() * c as f64;
            if let Some(d) = &mut d {
                d[j] = th[j].recip() * c as f64;
            }
        }
    }
    Ok(x.record(value, |p| p.all(0, d)))
}

/// Log of the categorical probability of the outcomes `n` (each in `1..=K`) with
/// probabilities softmax(β) given by the log odds `beta`:
/// Σᵢ (β_{nᵢ} − ln Σⱼ e^{βⱼ}).
///
/// One node, with partials ∂/∂βⱼ = cⱼ − N softmax(β)ⱼ (cⱼ outcomes equal to j, N in all);
/// the log-sum-exp is shifted by the largest β.
///
/// # Errors
///
/// A [`DomainError`] if an outcome is outside `1..=K` or a β is not finite.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// let (v, g) = gradient(|b| categorical_logit_lpmf(&[2, 2, 1], b).unwrap(), &[0.0, 0.0]);
/// assert!((v - 3.0 * 0.5_f64.ln()).abs() < 1e-15);
/// assert_eq!(g, vec![1.0 - 1.5, 2.0 - 1.5]);
/// # Ok::<(), DomainError>(())
/// ```
pub fn categorical_logit_lpmf<N: IntArg, B: MultiArg>(
    n: N,
    beta: B,
) -> Result<Ret<(Flat<B>,)>, DomainError>
where
    (Flat<B>,): Args,
{
    const F: &str = "categorical_logit_lpmf";
    if n.is_empty() {
        return Ok(0.0.into());
    }
    let k = beta.cols();
    check_bounded_int(F, "categorical outcome out of support", n, 1, k as i64)?;
    check_finite(F, "log odds parameter", Flat::new(beta))?;
    let counts = counts(n, k);
    let x = Operands::new((Flat::new(beta),));
    let b = x.read(0, k);
    let max = b.iter().fold(f64::NEG_INFINITY, |m, v| m.max(v.val()));
    let shifted: Vec<_> = b.iter().map(|v| (*v - max).exp()).collect();
    let zero = Inner::<(Flat<B>,)>::from(0.0);
    let sum = shifted.iter().fold(zero, |s, v| s + *v);
    let lse = sum.ln() + max;
    let total = counts.iter().sum::<u64>() as f64;
    let mut value = -(lse * total);
    for (j, &c) in counts.iter().enumerate() {
        if c > 0 {
            value += b[j] * c as f64;
        }
    }
    let d = x.needs(0).then(|| {
        let scale = sum.recip() * total;
        let it = counts.iter().zip(&shifted);
        it.map(|(&c, e)| -(*e * scale) + c as f64)
            .collect::<Vec<_>>()
    });
    Ok(x.record(value, |p| p.all(0, d)))
}

/// How many of the outcomes `n` (checked to be in `1..=k`) are each category.
fn counts<N: IntArg>(n: N, k: usize) -> Vec<u64> {
    let mut c = vec![0; k];
    for i in 0..n.len() {
        c[(n.int(i) - 1) as usize] += 1;
    }
    c
}
