//! What a multivariate distribution accepts as a vector or matrix argument, data or
//! active, and its flat view as a distribution argument ([`Flat`]).
//!
//! | argument | [`MultiArg::MATRIX`] | read as |
//! | --- | --- | --- |
//! | `&[S]`, `&Vec<S>`, `&[S; N]`, `&DVector<S>` | no | one vector |
//! | `&[Vec<S>]`, `&Vec<Vec<S>>`, `&[[S; N]]`, `&[[S; N]; M]`, `&DMatrix<S>`, `&[DVector<S>]`, `&Vec<DVector<S>>` | yes | rows |
//!
//! `S` is `f64` (data) or any active [`Real`]. A matrix argument is a matrix (a covariance,
//! a Cholesky factor) or, where a vector is expected (`y`, `mu`), several vectors given as
//! its rows. nalgebra types need the `nalgebra` feature.

use crate::dist::args::{Arg, Args, Elements, Pending};
use crate::Partials;
use crate::Real;

/// A vector or matrix argument of a multivariate distribution.
///
/// | argument | [`MATRIX`](Self::MATRIX) | read as |
/// | --- | --- | --- |
/// | `&[S]`, `&Vec<S>`, `&[S; N]`, `&DVector<S>` | no | one vector |
/// | `&[Vec<S>]`, `&Vec<Vec<S>>`, `&[Vec<S>; N]`, `&[[S; N]]`, `&[[S; N]; M]`, `&DMatrix<S>`, `&[DVector<S>]`, `&Vec<DVector<S>>` | yes | rows |
///
/// `S` is `f64` (data) or any active [`Real`]. A matrix argument is a matrix (a
/// covariance, a Cholesky factor) or, where a vector is expected (`y`, `mu`), several
/// vectors given as its rows. nalgebra types need the `nalgebra` feature.
///
/// ```
/// use fazang::dist::multi::MultiArg;
/// let rows = vec![vec![1.0, 2.0], vec![3.0, 4.0]];
/// assert_eq!((MultiArg::rows(&&rows), MultiArg::row_len(&&rows, 1)), (2, 2));
/// assert_eq!(MultiArg::value(&&rows, 1, 0), 3.0);
/// assert!(<&Vec<Vec<f64>> as MultiArg>::MATRIX && !<&[f64] as MultiArg>::MATRIX);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a vector or matrix argument of a distribution",
    label = "expected a slice or `Vec` of numbers or of rows, found `{Self}`",
    note = "vectors are `&[f64]` (or active values), matrices `&[Vec<f64>]` rows"
)]
pub trait MultiArg: Copy {
    /// The scalar: `f64` for data, an active [`Real`] otherwise.
    type Scalar: Real;
    /// Whether this is a matrix (or a sequence of vectors) rather than one vector.
    const MATRIX: bool;
    /// The number of rows: 1 for a vector.
    ///
    /// ```
    /// use fazang::dist::multi::MultiArg;
    /// assert_eq!(MultiArg::rows(&&[1.0, 2.0][..]), 1);
    /// ```
    fn rows(&self) -> usize;
    /// The length of row `r` (of the vector itself for a vector).
    ///
    /// ```
    /// use fazang::dist::multi::MultiArg;
    /// assert_eq!(MultiArg::row_len(&&[1.0, 2.0][..], 0), 2);
    /// ```
    fn row_len(&self, r: usize) -> usize;
    /// Entry `(r, c)` (for a vector, `r` is 0).
    ///
    /// ```
    /// use fazang::dist::multi::MultiArg;
    /// assert_eq!(MultiArg::get(&&[[1.0, 2.0]][..], 0, 1), 2.0);
    /// ```
    fn get(&self, r: usize, c: usize) -> Self::Scalar;
    /// The value of entry `(r, c)`.
    ///
    /// ```
    /// use fazang::dist::multi::MultiArg;
    /// assert_eq!(MultiArg::value(&&vec![0.5], 0, 0), 0.5);
    /// ```
    #[inline(always)]
    fn value(&self, r: usize, c: usize) -> f64 {
        self.get(r, c).val()
    }
    /// The number of columns: the length of the first row (0 without rows).
    ///
    /// ```
    /// use fazang::dist::multi::MultiArg;
    /// let empty: &[Vec<f64>] = &[];
    /// assert_eq!((MultiArg::cols(&&[1.0, 2.0, 3.0][..]), MultiArg::cols(&empty)), (3, 0));
    /// ```
    fn cols(&self) -> usize {
        if self.rows() == 0 {
            0
        } else {
            self.row_len(0)
        }
    }
}

/// Vectors: `&[S]`, `&Vec<S>`, `&[S; N]`.
macro_rules! vector_arg {
    ($([$($g:tt)*] $t:ty),*) => {$(
        impl<$($g)*> MultiArg for $t {
            type Scalar = S;
            const MATRIX: bool = false;
            #[inline(always)]
            fn rows(&self) -> usize {
                1
            }
            #[inline(always)]
            fn row_len(&self, _: usize) -> usize {
                self[..].len()
            }
            #[inline(always)]
            fn get(&self, _: usize, c: usize) -> S {
                self[c]
            }
        }
    )*};
}

vector_arg!(
    ['a, S: Real] &'a [S],
    ['a, S: Real] &'a Vec<S>,
    ['a, S: Real, const N: usize] &'a [S; N]
);

/// Rows: sequences of vectors or arrays.
macro_rules! rows_arg {
    ($([$($g:tt)*] $t:ty),*) => {$(
        impl<$($g)*> MultiArg for $t {
            type Scalar = S;
            const MATRIX: bool = true;
            #[inline(always)]
            fn rows(&self) -> usize {
                self[..].len()
            }
            #[inline(always)]
            fn row_len(&self, r: usize) -> usize {
                self[r].len()
            }
            #[inline(always)]
            fn get(&self, r: usize, c: usize) -> S {
                self[r][c]
            }
        }
    )*};
}

rows_arg!(
    ['a, S: Real] &'a [Vec<S>],
    ['a, S: Real] &'a Vec<Vec<S>>,
    ['a, S: Real, const N: usize] &'a [[S; N]],
    ['a, S: Real, const N: usize, const M: usize] &'a [[S; N]; M],
    ['a, S: Real, const N: usize] &'a Vec<[S; N]>,
    ['a, S: Real, const N: usize] &'a [Vec<S>; N]
);

/// Impls of [`Args`] for tuples with the flat view of a sequence of [`Pending`] in one
/// place, never used: with them, the scalar of a sequence of float literals
/// (`&[0.0, 1.0]`) stays undecided until rustc's fallback makes it `f64`, instead of being
/// matched against a generic body's `f64: Mix<S>` where-clause first (the device of the
/// univariate families' [`Args`] impls, one level down).
macro_rules! pending_flat {
    ($([$($g:tt)*] $p:ty),*) => {$(
        pending_flat!(@impls [$($g)*] Flat<$p>);
    )*};
    (@impls [$($g:tt)*] $p:ty) => {
        pending_flat!(@one [$($g)*, B: Copy] ($p, B));
        pending_flat!(@one [$($g)*, A: Arg] (A, $p));
        pending_flat!(@one [$($g)*, B: Copy, C: Copy] ($p, B, C));
        pending_flat!(@one [$($g)*, A: Arg, C: Copy] (A, $p, C));
        pending_flat!(@one [$($g)*, A: Arg, B: Arg] (A, B, $p));
        pending_flat!(@one [$($g)*, B: Copy, C: Copy, D: Copy] ($p, B, C, D));
        pending_flat!(@one [$($g)*, A: Arg, C: Copy, D: Copy] (A, $p, C, D));
        pending_flat!(@one [$($g)*, A: Arg, B: Arg, D: Copy] (A, B, $p, D));
        pending_flat!(@one [$($g)*, A: Arg, B: Arg, C: Arg] (A, B, C, $p));
    };
    (@one [$($g:tt)*] $t:ty) => {
        impl<$($g)*> Args for $t {
            type Ret = f64;
            const VECTOR: [bool; 4] = [false; 4];
            fn active() -> [bool; 4] {
                unreachable!()
            }
            fn lengths_are(&self, _: usize) -> bool {
                unreachable!()
            }
            fn ctx(&self) {
                unreachable!()
            }
            fn inner(&self, _: &(), _: usize, _: usize) -> f64 {
                unreachable!()
            }
            fn push(&self, _: &mut Partials<f64>, _: usize, _: usize, _: f64) {
                unreachable!()
            }
            fn push_in(&self, _: &mut Partials<f64>, _: usize, _: usize, _: f64) {
                unreachable!()
            }
        }
    };
}

pending_flat!(
    ['a, const N: usize] &'a [Pending; N],
    ['a, const N: usize, const M: usize] &'a [[Pending; N]; M],
    ['a, const N: usize] &'a [Vec<Pending>; N],
    ['a] &'a Vec<Pending>,
    ['a] &'a Vec<Vec<Pending>>
);

#[cfg(feature = "nalgebra")]
mod with_nalgebra {
    use super::MultiArg;
    use crate::Real;
    use nalgebra::{DMatrix, DVector};

    impl<S: Real> MultiArg for &DVector<S> {
        type Scalar = S;
        const MATRIX: bool = false;
        #[inline(always)]
        fn rows(&self) -> usize {
            1
        }
        #[inline(always)]
        fn row_len(&self, _: usize) -> usize {
            self.len()
        }
        #[inline(always)]
        fn get(&self, _: usize, c: usize) -> S {
            self[c]
        }
    }

    impl<S: Real> MultiArg for &DMatrix<S> {
        type Scalar = S;
        const MATRIX: bool = true;
        #[inline(always)]
        fn rows(&self) -> usize {
            self.nrows()
        }
        #[inline(always)]
        fn row_len(&self, _: usize) -> usize {
            self.ncols()
        }
        #[inline(always)]
        fn get(&self, r: usize, c: usize) -> S {
            self[(r, c)]
        }
    }

    rows_arg!(['a, S: Real] &'a [DVector<S>], ['a, S: Real] &'a Vec<DVector<S>>);
}

/// A [`MultiArg`] seen as one flat sequence (row-major) of `rows × cols` entries: the
/// [`Arg`] of the operands-and-partials machinery the univariate distributions use. Made
/// by the multivariate distributions after checking the argument is rectangular; it
/// appears in their signatures only to name the result type.
///
/// ```
/// use fazang::dist::args::Elements;
/// use fazang::dist::multi::Flat;
/// let m = vec![vec![1.0, 2.0], vec![3.0, 4.0]];
/// let f = Flat::new(&m);
/// assert_eq!((Elements::len(&f), Elements::value(&f, 2)), (4, 3.0));
/// ```
#[derive(Clone, Copy)]
pub struct Flat<A> {
    a: A,
    cols: usize,
    /// ⌈2⁶⁴/cols⌉, for the row of a flat index by a multiplication rather than a
    /// division (Lemire, Kaser and Kurz 2019: exact for indices below 2³²); 0 for one
    /// column or a matrix too large for it (plain division then).
    magic: u64,
}

impl<A: MultiArg> Flat<A> {
    /// The flat view of `a` (its rows must all be as long as the first).
    ///
    /// ```
    /// use fazang::dist::multi::Flat;
    /// let _ = Flat::new(&[1.0, 2.0][..]);
    /// ```
    pub fn new(a: A) -> Self {
        let cols = a.cols();
        let fits = cols > 1 && (a.rows() as u64) * (cols as u64) < 1 << 32;
        let magic = if fits { u64::MAX / cols as u64 + 1 } else { 0 };
        Flat { a, cols, magic }
    }

    /// The row and column of flat index `i`.
    #[inline(always)]
    fn at(&self, i: usize) -> (usize, usize) {
        if !A::MATRIX {
            return (0, i);
        }
        let r = if self.magic != 0 {
            ((u128::from(self.magic) * i as u128) >> 64) as usize
        } else {
            i / self.cols
        };
        (r, i - r * self.cols)
    }
}

impl<A: MultiArg> Elements for Flat<A> {
    const VECTOR: bool = true;
    const INTEGER: bool = false;
    #[inline(always)]
    fn len(&self) -> usize {
        self.a.rows() * self.cols
    }
    #[inline(always)]
    fn value(&self, i: usize) -> f64 {
        let (r, c) = self.at(i);
        self.a.value(r, c)
    }
}

impl<A: MultiArg> Arg for Flat<A> {
    type Scalar = A::Scalar;
    #[inline(always)]
    fn operand(&self, i: usize) -> A::Scalar {
        let (r, c) = self.at(i);
        self.a.get(r, c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_indices_by_multiplication_are_exact() {
        for cols in [1usize, 2, 3, 7, 50, 641, 1000, 65_537] {
            let rows = vec![vec![0.0; cols]; 3];
            let f = Flat::new(&rows);
            for i in (0..3 * cols).chain([u32::MAX as usize - 1]) {
                assert_eq!(f.at(i), (i / cols, i % cols), "cols {cols}, index {i}");
            }
        }
    }
}
