//! Checks of vector and matrix arguments, after Stan Math's `prim/err`: sizes, square,
//! symmetric, lower triangular, simplex, unit vector, ordered, correlation diagonal. Each
//! returns a [`DomainError`] whose message is Stan's ([`Structure`] says which).
//!
//! Tolerances are Stan's `CONSTRAINT_TOLERANCE`, 1e-8 (absolute): a symmetric matrix's
//! mirrored entries, a simplex's sum and a unit vector's squared norm are compared to it.
//!
//! ```
//! use fazang::dist::multi::check::check_symmetric;
//! let m = vec![vec![1.0, 0.5], vec![0.4, 1.0]];
//! let e = check_symmetric("f", "Covariance matrix", &m).unwrap_err();
//! assert_eq!(
//!     e.to_string(),
//!     "f: Covariance matrix is not symmetric. Covariance matrix[1,2] = 0.5, but \
//!      Covariance matrix[2,1] = 0.4"
//! );
//! ```

use super::args::MultiArg;
pub use super::structure::Structure;
use crate::dist::error::{Constraint, DomainError};

/// Stan's `CONSTRAINT_TOLERANCE`.
pub const TOLERANCE: f64 = 1e-8;

/// |d| ≤ [`TOLERANCE`] (false for NaN).
fn within_tolerance(d: f64) -> bool {
    d.abs() <= TOLERANCE
}

/// v > 0 (false for NaN).
fn is_positive(v: f64) -> bool {
    v > 0.0
}

/// v ≥ 0 (false for NaN).
fn is_nonnegative(v: f64) -> bool {
    v >= 0.0
}

/// The error for `structure` of argument `name` of `function`.
#[cold]
pub(crate) fn fail(
    function: &'static str,
    name: &'static str,
    index: Option<usize>,
    value: f64,
    structure: Structure,
) -> DomainError {
    DomainError::new(
        function,
        name,
        index,
        value,
        Constraint::Structure(structure),
    )
}

/// Sizes `i` (of `name_i`) and `j` (of `name_j`) are equal (Stan's `check_size_match`):
/// `"f: Size of random variable (3) and rows of covariance parameter (2) must match in
/// size"`.
///
/// ```
/// use fazang::dist::multi::check::check_size_match;
/// let e = check_size_match("f", "Size of random variable", 3, "rows of covariance parameter", 2);
/// assert_eq!(
///     e.unwrap_err().to_string(),
///     "f: Size of random variable (3) and rows of covariance parameter (2) must match in size"
/// );
/// ```
pub fn check_size_match(
    function: &'static str,
    name_i: &'static str,
    i: usize,
    name_j: &'static str,
    j: usize,
) -> Result<(), DomainError> {
    if i == j {
        return Ok(());
    }
    let s = Structure::SizeMatch {
        other: name_j,
        other_size: j,
    };
    Err(fail(function, name_i, None, i as f64, s))
}

/// Every row of `a` is as long as the first; its `(rows, cols)`.
///
/// ```
/// use fazang::dist::multi::check::check_rectangular;
/// let ragged = vec![vec![1.0, 2.0], vec![3.0]];
/// assert_eq!(
///     check_rectangular("f", "Scale matrix", &ragged).unwrap_err().to_string(),
///     "f: Scale matrix has rows of different sizes: row 2 has size 1, but row 1 has size 2"
/// );
/// ```
pub fn check_rectangular<A: MultiArg>(
    function: &'static str,
    name: &'static str,
    a: A,
) -> Result<(usize, usize), DomainError> {
    let (rows, cols) = (a.rows(), a.cols());
    if let Some(r) = (1..rows).find(|&r| a.row_len(r) != cols) {
        let s = Structure::Ragged {
            row: r,
            expected: cols,
        };
        return Err(fail(function, name, None, a.row_len(r) as f64, s));
    }
    Ok((rows, cols))
}

/// `a` is a square matrix (rows of equal length, as many as rows); its size.
///
/// ```
/// use fazang::dist::multi::check::check_square;
/// let m = vec![vec![1.0, 2.0]];
/// assert_eq!(
///     check_square("f", "Covariance matrix", &m).unwrap_err().to_string(),
///     "f: Expecting a square matrix; rows of Covariance matrix (1) and columns of \
///      Covariance matrix (2) must match in size"
/// );
/// ```
pub fn check_square<A: MultiArg>(
    function: &'static str,
    name: &'static str,
    a: A,
) -> Result<usize, DomainError> {
    let (rows, cols) = check_rectangular(function, name, a)?;
    if rows != cols || !A::MATRIX && rows * cols > 1 {
        let s = Structure::Square { cols };
        return Err(fail(function, name, None, rows as f64, s));
    }
    Ok(rows)
}

/// The square matrix `a` is symmetric to within [`TOLERANCE`] (NaN fails).
///
/// ```
/// use fazang::dist::multi::check::check_symmetric;
/// assert!(check_symmetric("f", "m", &[[1.0, 2.0], [2.0, 1.0]]).is_ok());
/// ```
pub fn check_symmetric<A: MultiArg>(
    function: &'static str,
    name: &'static str,
    a: A,
) -> Result<(), DomainError> {
    let n = check_square(function, name, a)?;
    for i in 0..n {
        for j in i + 1..n {
            let (x, y) = (a.value(i, j), a.value(j, i));
            if !within_tolerance(x - y) {
                let s = Structure::Symmetric {
                    row: i,
                    col: j,
                    other: y,
                };
                return Err(fail(function, name, None, x, s));
            }
        }
    }
    Ok(())
}

/// Every entry of the square matrix `a` above the diagonal is 0.
///
/// ```
/// use fazang::dist::multi::check::check_lower_triangular;
/// let e = check_lower_triangular("f", "L", &[[1.0, 3.0], [0.0, 1.0]]).unwrap_err();
/// assert_eq!(e.to_string(), "f: L is not lower triangular; L[1,2]=3");
/// ```
pub fn check_lower_triangular<A: MultiArg>(
    function: &'static str,
    name: &'static str,
    a: A,
) -> Result<(), DomainError> {
    let n = a.rows();
    for i in 0..n {
        for j in i + 1..n {
            let v = a.value(i, j);
            if v != 0.0 {
                let s = Structure::LowerTriangular { row: i, col: j };
                return Err(fail(function, name, None, v, s));
            }
        }
    }
    Ok(())
}

/// The diagonal of the square matrix `a` is positive (NaN fails): `"f: L[2] is -1, but
/// must be positive!"` (the index of the diagonal entry).
///
/// ```
/// use fazang::dist::multi::check::check_positive_diagonal;
/// let e = check_positive_diagonal("f", "L", &[[1.0, 0.0], [0.5, -1.0]]).unwrap_err();
/// assert_eq!(e.to_string(), "f: L[2] is -1, but must be positive!");
/// ```
pub fn check_positive_diagonal<A: MultiArg>(
    function: &'static str,
    name: &'static str,
    a: A,
) -> Result<(), DomainError> {
    let n = a.rows();
    match (0..n).find(|&i| !is_positive(a.value(i, i))) {
        Some(i) => Err(DomainError::new(
            function,
            name,
            Some(i),
            a.value(i, i),
            Constraint::Positive,
        )),
        None => Ok(()),
    }
}

/// The vector `theta` is a simplex: not empty, its sum within [`TOLERANCE`] of 1, no
/// element negative (or NaN).
///
/// ```
/// use fazang::dist::multi::check::check_simplex;
/// let e = check_simplex("f", "Probabilities parameter", &[0.5, 0.6]).unwrap_err();
/// assert_eq!(
///     e.to_string(),
///     "f: Probabilities parameter is not a valid simplex. sum(Probabilities parameter) = \
///      1.1, but should be 1"
/// );
/// ```
pub fn check_simplex<A: MultiArg>(
    function: &'static str,
    name: &'static str,
    theta: A,
) -> Result<(), DomainError> {
    let n = theta.row_len(0);
    if n == 0 {
        return Err(DomainError::new(
            function,
            name,
            None,
            0.0,
            Constraint::NonzeroSize,
        ));
    }
    let sum: f64 = (0..n).map(|i| theta.value(0, i)).sum();
    if !within_tolerance(1.0 - sum) {
        return Err(fail(function, name, None, sum, Structure::SimplexSum));
    }
    match (0..n).find(|&i| !is_nonnegative(theta.value(0, i))) {
        Some(i) => Err(fail(
            function,
            name,
            Some(i),
            theta.value(0, i),
            Structure::SimplexElement,
        )),
        None => Ok(()),
    }
}

/// The vector `x` has unit length: not empty, Σ xᵢ² within [`TOLERANCE`] of 1.
///
/// ```
/// use fazang::dist::multi::check::check_unit_vector;
/// assert!(check_unit_vector("f", "u", &[0.6, 0.8]).is_ok());
/// assert!(check_unit_vector("f", "u", &[0.6, 0.9]).is_err());
/// ```
pub fn check_unit_vector(
    function: &'static str,
    name: &'static str,
    x: &[f64],
) -> Result<(), DomainError> {
    if x.is_empty() {
        return Err(DomainError::new(
            function,
            name,
            None,
            0.0,
            Constraint::NonzeroSize,
        ));
    }
    let ssq: f64 = x.iter().map(|v| v * v).sum();
    if !within_tolerance(1.0 - ssq) {
        return Err(fail(function, name, None, ssq, Structure::UnitVector));
    }
    Ok(())
}

/// The vector `x` is strictly increasing (NaN fails).
///
/// ```
/// use fazang::dist::multi::check::check_ordered;
/// let e = check_ordered("f", "y", &[1.0, 3.0, 2.0]).unwrap_err();
/// assert_eq!(
///     e.to_string(),
///     "f: y is not a valid ordered vector. The element at 3 is 2, but should be greater \
///      than the previous element, 3"
/// );
/// ```
pub fn check_ordered(
    function: &'static str,
    name: &'static str,
    x: &[f64],
) -> Result<(), DomainError> {
    match x.windows(2).position(|w| !is_positive(w[1] - w[0])) {
        Some(i) => Err(fail(
            function,
            name,
            Some(i + 1),
            x[i + 1],
            Structure::Ordered { previous: x[i] },
        )),
        None => Ok(()),
    }
}

/// The vector `x` is strictly increasing and its first element is not negative.
///
/// ```
/// use fazang::dist::multi::check::check_positive_ordered;
/// assert!(check_positive_ordered("f", "y", &[-1.0, 2.0]).is_err());
/// assert!(check_positive_ordered("f", "y", &[0.5, 2.0]).is_ok());
/// ```
pub fn check_positive_ordered(
    function: &'static str,
    name: &'static str,
    x: &[f64],
) -> Result<(), DomainError> {
    if let Some(&first) = x.first() {
        if !is_nonnegative(first) {
            return Err(fail(
                function,
                name,
                None,
                first,
                Structure::PositiveOrdered,
            ));
        }
    }
    check_ordered(function, name, x)
}

/// The square matrix `a` has a unit diagonal (to within [`TOLERANCE`]).
///
/// ```
/// use fazang::dist::multi::check::check_unit_diagonal;
/// let e = check_unit_diagonal("f", "Omega", &[[1.0, 0.0], [0.0, 2.0]]).unwrap_err();
/// assert_eq!(
///     e.to_string(),
///     "f: Omega is not a valid correlation matrix. Omega(2,2) is 2, but should be near 1.0"
/// );
/// ```
pub fn check_unit_diagonal<A: MultiArg>(
    function: &'static str,
    name: &'static str,
    a: A,
) -> Result<(), DomainError> {
    match (0..a.rows()).find(|&k| !within_tolerance(a.value(k, k) - 1.0)) {
        Some(k) => Err(fail(
            function,
            name,
            None,
            a.value(k, k),
            Structure::CorrelationDiagonal { k },
        )),
        None => Ok(()),
    }
}

/// `y ≥ low` (NaN fails), Stan's `check_greater_or_equal`.
pub(crate) fn check_greater_or_equal(
    function: &'static str,
    name: &'static str,
    y: f64,
    low: f64,
) -> Result<(), DomainError> {
    if y >= low {
        return Ok(());
    }
    Err(fail(
        function,
        name,
        None,
        y,
        Structure::GreaterOrEqual { low },
    ))
}

/// `y ≤ high` (NaN fails), Stan's `check_less_or_equal`.
pub(crate) fn check_less_or_equal(
    function: &'static str,
    name: &'static str,
    y: f64,
    high: f64,
) -> Result<(), DomainError> {
    if y <= high {
        return Ok(());
    }
    Err(fail(
        function,
        name,
        None,
        y,
        Structure::LessOrEqual { high },
    ))
}
