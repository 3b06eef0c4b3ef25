//! [`Structure`]: what a vector or matrix argument failed to be, and Stan's message for
//! it.

use crate::dist::error::{format_g, Fixed, Stream};
use std::fmt;

/// What a vector or matrix argument failed to be (the
/// [`Constraint::Structure`](crate::dist::Constraint::Structure) of a
/// [`DomainError`](crate::DomainError)). Indices are 0-based here and printed from 1, as
/// Stan does; the error's [`value`](crate::DomainError::value) is the offending entry
/// (or sum, or size).
///
/// ```
/// use fazang::prelude::*;
/// use fazang::dist::{multi::Structure, Constraint};
/// let e = simplex_free(&[0.5, 0.25]).unwrap_err();
/// assert_eq!(e.constraint(), Constraint::Structure(Structure::SimplexSum));
/// assert_eq!(e.value(), 0.75);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum Structure {
    /// Symmetric: entry `(row, col)` (the value) differs from `(col, row)` (`other`).
    Symmetric {
        /// The row of the entry.
        row: usize,
        /// The column of the entry.
        col: usize,
        /// The mirrored entry.
        other: f64,
    },
    /// Positive definite (its Cholesky factorisation failed).
    PositiveDefinite,
    /// A simplex whose sum (the value) is not 1.
    SimplexSum,
    /// A simplex with a negative element (the error's index and value).
    SimplexElement,
    /// A unit vector whose sum of squares (the value) is not 1.
    UnitVector,
    /// An ordered vector whose element (the error's index and value) is not greater
    /// than the one before it.
    Ordered {
        /// The element before.
        previous: f64,
    },
    /// A positive ordered vector whose first element (the value) is negative.
    PositiveOrdered,
    /// Lower triangular: entry `(row, col)` above the diagonal (the value) is not 0.
    LowerTriangular {
        /// The row of the entry.
        row: usize,
        /// The column of the entry.
        col: usize,
    },
    /// A correlation matrix whose diagonal entry `k` (the value) is not 1.
    CorrelationDiagonal {
        /// The diagonal index.
        k: usize,
    },
    /// Two sizes that must match: this argument's (the value) and `other`'s.
    SizeMatch {
        /// The other size's name.
        other: &'static str,
        /// The other size.
        other_size: usize,
    },
    /// A square matrix: rows (the value) and columns differ.
    Square {
        /// The number of columns.
        cols: usize,
    },
    /// Rows of one length: row `row` has the length given as the value, row 1 `expected`.
    Ragged {
        /// The row whose length differs.
        row: usize,
        /// The length of the first row.
        expected: usize,
    },
    /// At least a bound (the value is below it).
    GreaterOrEqual {
        /// The bound.
        low: f64,
    },
    /// At most a bound (the value is above it).
    LessOrEqual {
        /// The bound.
        high: f64,
    },
}

impl Structure {
    /// The whole message, Stan's wording.
    pub(crate) fn fmt_message(
        &self,
        f: &mut fmt::Formatter<'_>,
        func: &str,
        a: &str,
        index: Option<usize>,
        value: f64,
    ) -> fmt::Result {
        match *self {
            Structure::Symmetric { .. }
            | Structure::PositiveDefinite
            | Structure::LowerTriangular { .. }
            | Structure::CorrelationDiagonal { .. }
            | Structure::Square { .. }
            | Structure::Ragged { .. } => self.fmt_matrix(f, func, a, value),
            _ => self.fmt_other(f, func, a, index, value),
        }
    }

    /// The messages about matrices.
    fn fmt_matrix(
        &self,
        f: &mut fmt::Formatter<'_>,
        func: &str,
        a: &str,
        value: f64,
    ) -> fmt::Result {
        let v = Stream(value, false);
        match *self {
            Structure::Symmetric { row, col, other } => write!(
                f,
                "{func}: {a} is not symmetric. {a}[{},{}] = {v}, but {a}[{},{}] = {}",
                row + 1,
                col + 1,
                col + 1,
                row + 1,
                Stream(other, false)
            ),
            Structure::PositiveDefinite => write!(f, "{func}: {a} is not positive definite."),
            Structure::LowerTriangular { row, col } => write!(
                f,
                "{func}: {a} is not lower triangular; {a}[{},{}]={v}",
                row + 1,
                col + 1
            ),
            Structure::CorrelationDiagonal { k } => write!(
                f,
                "{func}: {a} is not a valid correlation matrix. {a}({},{}) is {v}, but should \
                 be near 1.0",
                k + 1,
                k + 1
            ),
            Structure::Square { cols } => write!(
                f,
                "{func}: Expecting a square matrix; rows of {a} ({}) and columns of {a} \
                 ({cols}) must match in size",
                Stream(value, true)
            ),
            Structure::Ragged { row, expected } => write!(
                f,
                "{func}: {a} has rows of different sizes: row {} has size {}, but row 1 has \
                 size {expected}",
                row + 1,
                Stream(value, true)
            ),
            _ => unreachable!("not a matrix structure"),
        }
    }

    /// The messages about vectors, sizes and bounds.
    fn fmt_other(
        &self,
        f: &mut fmt::Formatter<'_>,
        func: &str,
        a: &str,
        index: Option<usize>,
        value: f64,
    ) -> fmt::Result {
        let v = Stream(value, false);
        let i = index.map_or(0, |i| i + 1);
        match *self {
            Structure::SimplexSum => write!(
                f,
                "{func}: {a} is not a valid simplex. sum({a}) = {}, but should be 1",
                format_g(value, 10)
            ),
            Structure::SimplexElement => write!(
                f,
                "{func}: {a} is not a valid simplex. {a}[{i}] = {v}, but should be greater \
                 than or equal to 0"
            ),
            Structure::UnitVector => write!(
                f,
                "{func}: {a} is not a valid unit vector. The sum of the squares of the \
                 elements should be 1, but is {v}"
            ),
            Structure::Ordered { previous } => write!(
                f,
                "{func}: {a} is not a valid ordered vector. The element at {i} is {v}, but \
                 should be greater than the previous element, {}",
                Stream(previous, false)
            ),
            Structure::PositiveOrdered => write!(
                f,
                "{func}: {a} is not a valid positive_ordered vector. The element at 1 is {v}, \
                 but should be positive."
            ),
            Structure::SizeMatch { other, other_size } => write!(
                f,
                "{func}: {a} ({}) and {other} ({other_size}) must match in size",
                Stream(value, true)
            ),
            Structure::GreaterOrEqual { low } => write!(
                f,
                "{func}: {a}{} is {v}, but must be greater than or equal to {}",
                Indexed(index),
                Fixed(low)
            ),
            Structure::LessOrEqual { high } => write!(
                f,
                "{func}: {a}{} is {v}, but must be less than or equal to {}",
                Indexed(index),
                Fixed(high)
            ),
            _ => unreachable!("a matrix structure"),
        }
    }
}

/// `[i]` (from 1) for an element of a sequence, nothing for a scalar.
struct Indexed(Option<usize>);

impl fmt::Display for Indexed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(i) => write!(f, "[{}]", i + 1),
            None => Ok(()),
        }
    }
}
