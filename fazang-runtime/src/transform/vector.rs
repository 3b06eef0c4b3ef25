//! Vector transforms: simplex, ordered, positive ordered, unit vector.

use crate::dist::multi::check::{
    check_ordered, check_positive_ordered, check_simplex, check_unit_vector,
};
use crate::dist::DomainError;
use crate::math::slice::dot_product;
use crate::Real;

/// K − 1 unconstrained values to a K-simplex, by Stan's stick breaking: with
/// zₖ = logit⁻¹(yₖ − ln(K − k)) (k from 1), each xₖ takes the fraction zₖ of what is left
/// of the stick, and x_K the rest. Adds the log Jacobian of y ↦ (x₁, …, x_{K−1}),
/// Σₖ [ln zₖ + ln(1 − zₖ) + ln(stickₖ)], to `lp`.
///
/// Computed in logarithms (ln zₖ = −ln(1 + e^{−u}), ln(1 − zₖ) = −ln(1 + eᵘ), the stick
/// as a running log), so that tiny components and one component close to 1 keep their
/// relative accuracy, and no `y` overflows. An empty `y` gives `[1]`.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// let mut lp = 0.0;
/// let x = simplex_constrain(&[0.0, 0.0], &mut lp);
/// // y = 0 is the centre of the simplex.
/// assert!(x.iter().all(|v| (v - 1.0 / 3.0).abs() < 1e-15));
/// let y = simplex_free(&x)?;
/// assert!(y.iter().all(|v| v.abs() < 1e-15));
/// # Ok::<(), DomainError>(())
/// ```
pub fn simplex_constrain<S: Real>(y: &[S], lp: &mut S) -> Vec<S> {
    let n = y.len();
    let mut x = Vec::with_capacity(n + 1);
    let mut log_stick = S::from(0.0);
    for (k, &yk) in y.iter().enumerate() {
        let u = yk - ((n - k) as f64).ln();
        let log_z = -(-u).log1p_exp();
        let log_1mz = -u.log1p_exp();
        let log_x = log_stick + log_z;
        x.push(log_x.exp());
        *lp += log_x + log_1mz;
        log_stick += log_1mz;
    }
    x.push(log_stick.exp());
    x
}

/// The inverse of [`simplex_constrain`]: yₖ = ln xₖ − ln(x_{k+1} + … + x_K) + ln(K − k),
/// each remainder summed directly (not by subtraction from 1, which would cancel).
///
/// # Errors
///
/// A [`DomainError`] if `x` is not a simplex: empty, a negative element, or a sum
/// further than 1e-8 from 1.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// assert_eq!(
///     simplex_free(&[0.5, 0.6]).unwrap_err().to_string(),
///     "simplex_free: Simplex variable is not a valid simplex. sum(Simplex variable) = 1.1, \
///      but should be 1"
/// );
/// ```
pub fn simplex_free(x: &[f64]) -> Result<Vec<f64>, DomainError> {
    check_simplex("simplex_free", "Simplex variable", x)?;
    let n = x.len() - 1;
    let mut rest = vec![0.0; x.len() + 1];
    for k in (0..x.len()).rev() {
        rest[k] = rest[k + 1] + x[k];
    }
    Ok((0..n)
        .map(|k| x[k].ln() - rest[k + 1].ln() + ((n - k) as f64).ln())
        .collect())
}

/// An increasing vector: x₁ = y₁, xₖ = xₖ₋₁ + e^{yₖ}; adds Σₖ₌₂ yₖ to `lp`.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// let mut lp = 0.0;
/// let x = ordered_constrain(&[1.0, 0.0, 0.0], &mut lp);
/// assert_eq!((x, lp), (vec![1.0, 2.0, 3.0], 0.0));
/// assert_eq!(ordered_free(&[1.0, 2.0, 3.0])?, vec![1.0, 0.0, 0.0]);
/// # Ok::<(), DomainError>(())
/// ```
pub fn ordered_constrain<S: Real>(y: &[S], lp: &mut S) -> Vec<S> {
    let mut x: Vec<S> = Vec::with_capacity(y.len());
    for (k, &yk) in y.iter().enumerate() {
        if k == 0 {
            x.push(yk);
        } else {
            *lp += yk;
            x.push(x[k - 1] + yk.exp());
        }
    }
    x
}

/// The inverse of [`ordered_constrain`]: y₁ = x₁, yₖ = ln(xₖ − xₖ₋₁).
///
/// # Errors
///
/// A [`DomainError`] if `x` is not strictly increasing.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// assert!(ordered_free(&[1.0, 1.0]).is_err());
/// ```
pub fn ordered_free(x: &[f64]) -> Result<Vec<f64>, DomainError> {
    check_ordered("ordered_free", "Ordered variable", x)?;
    Ok(free_increments(x, x.first().copied()))
}

/// y₁ (given), then ln(xₖ − xₖ₋₁).
fn free_increments(x: &[f64], first: Option<f64>) -> Vec<f64> {
    first
        .into_iter()
        .chain(x.windows(2).map(|w| (w[1] - w[0]).ln()))
        .collect()
}

/// A positive increasing vector: x₁ = e^{y₁}, xₖ = xₖ₋₁ + e^{yₖ}; adds Σₖ yₖ to `lp`.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// let mut lp = 0.0;
/// let x = positive_ordered_constrain(&[0.0, 0.0], &mut lp);
/// assert_eq!((x, lp), (vec![1.0, 2.0], 0.0));
/// assert_eq!(positive_ordered_free(&[1.0, 2.0])?, vec![0.0, 0.0]);
/// # Ok::<(), DomainError>(())
/// ```
pub fn positive_ordered_constrain<S: Real>(y: &[S], lp: &mut S) -> Vec<S> {
    let mut x: Vec<S> = Vec::with_capacity(y.len());
    for (k, &yk) in y.iter().enumerate() {
        *lp += yk;
        let e = yk.exp();
        x.push(if k == 0 { e } else { x[k - 1] + e });
    }
    x
}

/// The inverse of [`positive_ordered_constrain`]: y₁ = ln x₁, yₖ = ln(xₖ − xₖ₋₁).
///
/// # Errors
///
/// A [`DomainError`] if `x` is not strictly increasing or its first element is negative.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// assert!(positive_ordered_free(&[-1.0, 1.0]).is_err());
/// ```
pub fn positive_ordered_free(x: &[f64]) -> Result<Vec<f64>, DomainError> {
    check_positive_ordered("positive_ordered_free", "Positive ordered variable", x)?;
    Ok(free_increments(x, x.first().map(|v| v.ln())))
}

/// `y / |y|`, a point on the unit sphere; adds −½|y|² to `lp`, as Stan does (the map is
/// not one-to-one: with this term, a standard normal `y` makes the direction uniform).
/// At `y = 0` the direction is undefined: the entries are NaN.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// let mut lp = 0.0;
/// let x = unit_vector_constrain(&[3.0, 4.0], &mut lp);
/// assert_eq!((x, lp), (vec![0.6, 0.8], -12.5));
/// assert_eq!(unit_vector_free(&[0.6, 0.8])?, vec![0.6, 0.8]);
/// # Ok::<(), DomainError>(())
/// ```
pub fn unit_vector_constrain<S: Real>(y: &[S], lp: &mut S) -> Vec<S> {
    let ssq: S = dot_product(y, y);
    *lp -= ssq * 0.5;
    let norm = ssq.sqrt();
    y.iter().map(|&v| v / norm).collect()
}

/// A `y` with `unit_vector_constrain(y) == x`: `x` itself.
///
/// # Errors
///
/// A [`DomainError`] if `x` is empty or Σ xᵢ² is further than 1e-8 from 1.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// assert_eq!(
///     unit_vector_free(&[0.6, 0.9]).unwrap_err().to_string(),
///     "unit_vector_free: Unit vector variable is not a valid unit vector. The sum of the \
///      squares of the elements should be 1, but is 1.17"
/// );
/// ```
pub fn unit_vector_free(x: &[f64]) -> Result<Vec<f64>, DomainError> {
    check_unit_vector("unit_vector_free", "Unit vector variable", x)?;
    Ok(x.to_vec())
}
