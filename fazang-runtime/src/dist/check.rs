//! Argument checks, after Stan Math's `prim/err`: each checks every element of a scalar
//! or sequence argument and returns a [`DomainError`] with Stan's message for the first
//! one that fails.
//!
//! ```
//! use fazang::dist::check::{check_consistent_sizes, check_positive};
//! let sigma = [1.0, 0.0];
//! let e = check_positive("my_lpdf", "Scale parameter", &sigma).unwrap_err();
//! assert_eq!(e.to_string(), "my_lpdf: Scale parameter[2] is 0, but must be positive!");
//!
//! let y = [1.0, 2.0, 3.0];
//! let e = check_consistent_sizes("my_lpdf", &[("Random variable", Some(3)), ("Scale parameter", Some(2))])
//!     .unwrap_err();
//! assert_eq!(
//!     e.to_string(),
//!     "my_lpdf: Random variable has size = 3, but Scale parameter has size 2; and they must be \
//!      the same size."
//! );
//! # let _ = y;
//! ```

use super::args::{Elements, IntArg};
use super::error::{Constraint, DomainError};
use std::cmp::Ordering;

/// Every element of `x` satisfies `ok`, or the error for the first that does not.
fn check_each<E: Elements>(
    function: &'static str,
    name: &'static str,
    x: E,
    constraint: Constraint,
    ok: impl Fn(f64) -> bool,
) -> Result<(), DomainError> {
    // A branch-free pass first (it vectorises: the common case costs little), then the
    // search for the first failure only if there is one.
    if (0..x.len()).fold(true, |all, i| all & ok(x.value(i))) {
        return Ok(());
    }
    let i = (0..x.len())
        .position(|i| !ok(x.value(i)))
        .expect("some element failed");
    Err(element_error(function, name, x, i, x.value(i), constraint))
}

#[cold]
fn element_error<E: Elements>(
    function: &'static str,
    name: &'static str,
    _: E,
    i: usize,
    v: f64,
    constraint: Constraint,
) -> DomainError {
    let index = E::VECTOR.then_some(i);
    DomainError::new(function, name, index, v, constraint).integers(E::INTEGER, false)
}

/// No element is NaN: `"{function}: {name} is nan, but must be not nan!"`.
///
/// ```
/// use fazang::dist::check::check_not_nan;
/// let e = check_not_nan("f", "Location parameter", f64::NAN).unwrap_err();
/// assert_eq!(e.to_string(), "f: Location parameter is nan, but must be not nan!");
/// assert!(check_not_nan("f", "x", &[1.0, 2.0][..]).is_ok());
/// ```
pub fn check_not_nan<E: Elements>(
    function: &'static str,
    name: &'static str,
    x: E,
) -> Result<(), DomainError> {
    check_each(function, name, x, Constraint::NotNan, |v| !v.is_nan())
}

/// Every element is finite (not NaN or ±∞): `"... is inf, but must be finite!"`.
///
/// ```
/// use fazang::dist::check::check_finite;
/// assert!(check_finite("f", "Location parameter", f64::INFINITY).is_err());
/// assert!(check_finite("f", "Location parameter", 1.0).is_ok());
/// ```
pub fn check_finite<E: Elements>(
    function: &'static str,
    name: &'static str,
    x: E,
) -> Result<(), DomainError> {
    check_each(function, name, x, Constraint::Finite, f64::is_finite)
}

/// Every element is > 0 (+∞ allowed, NaN not): `"... is -1, but must be positive!"`.
///
/// ```
/// use fazang::dist::check::check_positive;
/// let e = check_positive("f", "Scale parameter", -1.0).unwrap_err();
/// assert_eq!(e.to_string(), "f: Scale parameter is -1, but must be positive!");
/// ```
pub fn check_positive<E: Elements>(
    function: &'static str,
    name: &'static str,
    x: E,
) -> Result<(), DomainError> {
    check_each(function, name, x, Constraint::Positive, |v| v > 0.0)
}

/// Every element is ≥ 0 (NaN not): `"... is -1, but must be nonnegative!"`.
///
/// ```
/// use fazang::dist::check::check_nonnegative;
/// assert!(check_nonnegative("f", "x", 0.0).is_ok() && check_nonnegative("f", "x", -1.0).is_err());
/// ```
pub fn check_nonnegative<E: Elements>(
    function: &'static str,
    name: &'static str,
    x: E,
) -> Result<(), DomainError> {
    check_each(function, name, x, Constraint::Nonnegative, |v| v >= 0.0)
}

/// Every element is > 0 and finite: `"... is inf, but must be positive finite!"`.
///
/// ```
/// use fazang::dist::check::check_positive_finite;
/// assert!(check_positive_finite("f", "x", 2.0).is_ok());
/// assert!(check_positive_finite("f", "x", f64::INFINITY).is_err());
/// ```
pub fn check_positive_finite<E: Elements>(
    function: &'static str,
    name: &'static str,
    x: E,
) -> Result<(), DomainError> {
    check_each(function, name, x, Constraint::PositiveFinite, |v| {
        v > 0.0 && v.is_finite()
    })
}

/// Every element `y[i]` is in `[low[i], high[i]]` (bounds may be scalars or sequences,
/// NaN fails): `"... is 1.5, but must be in the interval [0, 1]"`.
///
/// The longest of the three is walked; the caller has checked their sizes agree.
///
/// ```
/// use fazang::dist::check::check_bounded;
/// let e = check_bounded("f", "Probability parameter", 1.5, 0.0, 1.0).unwrap_err();
/// assert_eq!(e.to_string(), "f: Probability parameter is 1.5, but must be in the interval [0, 1]");
/// ```
pub fn check_bounded<E: Elements, L: Elements, H: Elements>(
    function: &'static str,
    name: &'static str,
    y: E,
    low: L,
    high: H,
) -> Result<(), DomainError> {
    let n = y.len().max(low.len()).max(high.len());
    for i in 0..n {
        let (v, lo, hi) = (y.value(i), low.value(i), high.value(i));
        if !(lo <= v && v <= hi) {
            let c = Constraint::Bounded { low: lo, high: hi };
            let integer_bounds = L::INTEGER && H::INTEGER;
            return Err(
                element_error(function, name, y, i, v, c).integers(E::INTEGER, integer_bounds)
            );
        }
    }
    Ok(())
}

/// [`check_bounded`] for counts: every `y[i]` is in `[low, high[i]]`, compared as
/// integers, so exactly also beyond 2⁵³ (where `f64` would round):
/// `"... is 11, but must be in the interval [0, 10]"`.
///
/// ```
/// use fazang::dist::check::check_bounded_int;
/// let big: i64 = 1 << 60;
/// assert!(check_bounded_int("f", "n", big, 0, big).is_ok());
/// // n = N + 1 is out of range although both round to the same f64.
/// assert!(check_bounded_int("f", "n", big + 1, 0, big).is_err());
/// ```
pub fn check_bounded_int<E: IntArg, H: IntArg>(
    function: &'static str,
    name: &'static str,
    y: E,
    low: i64,
    high: H,
) -> Result<(), DomainError> {
    let n = y.len().max(high.len());
    for i in 0..n {
        let (v, hi) = (y.int(i), high.int(i));
        if !(low <= v && v <= hi) {
            let c = Constraint::Bounded {
                low: low as f64,
                high: hi as f64,
            };
            return Err(element_error(function, name, y, i, y.value(i), c).integers(true, true));
        }
    }
    Ok(())
}

/// Every element `y[i]` is strictly greater than `low[i]` (NaN fails):
/// `"... is 0, but must be greater than 1.000000"` (the bound printed as C++'s
/// `std::to_string` does, as in Stan).
///
/// ```
/// use fazang::dist::check::check_greater;
/// let e = check_greater("f", "Upper bound", 0.0, 1.0).unwrap_err();
/// assert_eq!(e.to_string(), "f: Upper bound is 0, but must be greater than 1.000000");
/// ```
pub fn check_greater<E: Elements, L: Elements>(
    function: &'static str,
    name: &'static str,
    y: E,
    low: L,
) -> Result<(), DomainError> {
    let n = y.len().max(low.len());
    for i in 0..n {
        let (v, lo) = (y.value(i), low.value(i));
        // Not `v <= lo`: NaN on either side fails too.
        if v.partial_cmp(&lo) != Some(Ordering::Greater) {
            return Err(element_error(
                function,
                name,
                y,
                i,
                v,
                Constraint::Greater { low: lo },
            ));
        }
    }
    Ok(())
}

/// The arguments (name, `Some(length)` for sequences, `None` for scalars) are of
/// consistent sizes: all sequences have the same length (scalars broadcast). Returns that
/// length, or 1 if every argument is a scalar.
///
/// The message names the first sequence and the first one whose length differs from it:
/// `"... Random variable has size = 3, but Scale parameter has size 2; and they must be
/// the same size."`.
///
/// ```
/// use fazang::dist::check::check_consistent_sizes;
/// let n = check_consistent_sizes("f", &[("Random variable", Some(3)), ("Location parameter", None)]);
/// assert_eq!(n.unwrap(), 3);
/// assert!(check_consistent_sizes("f", &[("a", Some(3)), ("b", Some(2))]).is_err());
/// ```
pub fn check_consistent_sizes(
    function: &'static str,
    args: &[(&'static str, Option<usize>)],
) -> Result<usize, DomainError> {
    let mut first: Option<(&'static str, usize)> = None;
    for &(name, len) in args {
        let Some(len) = len else { continue };
        match first {
            None => first = Some((name, len)),
            Some((_, n)) if n == len => {}
            Some((first_name, n)) => {
                let c = Constraint::ConsistentSize {
                    other: name,
                    other_size: len,
                };
                return Err(DomainError::new(function, first_name, None, n as f64, c));
            }
        }
    }
    Ok(first.map_or(1, |(_, n)| n))
}

/// Sizes of a `(y, a, b)` family: `check_consistent_sizes` with the random variable and
/// two named parameters; the common length (1 if all are scalars).
pub(crate) fn sizes3(
    function: &'static str,
    y: impl super::args::Arg,
    (a_name, a): (&'static str, impl super::args::Arg),
    (b_name, b): (&'static str, impl super::args::Arg),
) -> Result<usize, DomainError> {
    check_consistent_sizes(
        function,
        &[
            ("Random variable", y.vector_len()),
            (a_name, a.vector_len()),
            (b_name, b.vector_len()),
        ],
    )
}

/// Sizes of a `(y, mu, sigma)` location-scale family.
pub(crate) fn location_scale_sizes(
    function: &'static str,
    y: impl super::args::Arg,
    mu: impl super::args::Arg,
    sigma: impl super::args::Arg,
) -> Result<usize, DomainError> {
    sizes3(
        function,
        y,
        ("Location parameter", mu),
        ("Scale parameter", sigma),
    )
}
