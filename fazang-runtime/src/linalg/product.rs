//! Products: [`multiply`] (`A B`), [`quad_form`] (`Bᵀ A B`) and [`quad_form_vec`]
//! (`vᵀ A v`), for any mix of `f64` with a [`Scalar`](super::Scalar).

use super::{owned, Entry, Mixed, Scalar};
use crate::math::slice::Mix;
use nalgebra::allocator::Allocator;
use nalgebra::{DefaultAllocator, Dim, Matrix, OMatrix, RawStorage};

/// The matrix product `A B`. On [`Var`](crate::Var), one lazy operation: the forward
/// pass is one `f64` product (nalgebra's), the backward pass two (`Ā += C̄ Bᵀ`,
/// `B̄ += Aᵀ C̄`), and the tape holds the two value matrices instead of one node per
/// multiply-add.
///
/// Panics if `A` has not as many columns as `B` has rows.
///
/// ```
/// use fazang::prelude::*;
/// use fazang::linalg::multiply;
/// use nalgebra::{DMatrix, DVector};
/// // f(x) = Σ (W x)ᵢ with data W: the gradient is the column sums of W.
/// let w = DMatrix::from_row_slice(2, 3, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
/// let (v, g) = gradient(|x| multiply(&w, &DVector::from_column_slice(x)).sum(), &[1.0, 0.0, -1.0]);
/// assert_eq!(v, -2.0 + -2.0);
/// assert_eq!(g, vec![5.0, 7.0, 9.0]);
/// ```
pub fn multiply<A, B, R1, C1, R2, C2, S1, S2>(
    a: &Matrix<A, R1, C1, S1>,
    b: &Matrix<B, R2, C2, S2>,
) -> OMatrix<Mixed<A, B>, R1, C2>
where
    A: Mix<B> + Entry<Mixed<A, B>>,
    B: Entry<Mixed<A, B>>,
    Mixed<A, B>: Scalar,
    R1: Dim,
    C1: Dim,
    R2: Dim,
    C2: Dim,
    S1: RawStorage<A, R1, C1>,
    S2: RawStorage<B, R2, C2>,
    DefaultAllocator: Allocator<R1, C2>,
{
    assert_eq!(
        a.ncols(),
        b.nrows(),
        "fazang: linalg::multiply of a {}x{} and a {}x{} matrix",
        a.nrows(),
        a.ncols(),
        b.nrows(),
        b.ncols()
    );
    let c = <Mixed<A, B>>::__multiply(owned(a), owned(b));
    let (r, _) = a.shape_generic();
    let (_, cc) = b.shape_generic();
    OMatrix::from_iterator_generic(r, cc, c.iter().copied())
}

/// The quadratic form `Bᵀ A B` (Stan's `quad_form`). On [`Var`](crate::Var), one lazy
/// operation: `Ā = B C̄ Bᵀ`, `B̄ = A B C̄ᵀ + Aᵀ B C̄`.
///
/// Panics unless `A` is square with as many rows as `B`.
///
/// ```
/// use fazang::prelude::*;
/// use fazang::linalg::quad_form;
/// use nalgebra::DMatrix;
/// let a = DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 3.0]);
/// // trace(Bᵀ A B) with B = x as a 2×1 matrix: xᵀ A x, gradient (A + Aᵀ) x.
/// let (v, g) = gradient(|x| quad_form(&a, &DMatrix::from_column_slice(2, 1, x)).trace(), &[1.0, 2.0]);
/// assert_eq!(v, 2.0 + 4.0 + 12.0);
/// assert_eq!(g, vec![8.0, 14.0]);
/// ```
pub fn quad_form<A, B, R1, C1, R2, C2, S1, S2>(
    a: &Matrix<A, R1, C1, S1>,
    b: &Matrix<B, R2, C2, S2>,
) -> OMatrix<Mixed<A, B>, C2, C2>
where
    A: Mix<B> + Entry<Mixed<A, B>>,
    B: Entry<Mixed<A, B>>,
    Mixed<A, B>: Scalar,
    R1: Dim,
    C1: Dim,
    R2: Dim,
    C2: Dim,
    S1: RawStorage<A, R1, C1>,
    S2: RawStorage<B, R2, C2>,
    DefaultAllocator: Allocator<C2, C2>,
{
    check_quad("quad_form", a.shape(), b.nrows());
    let c = <Mixed<A, B>>::__quad_form(owned(a), owned(b));
    let (_, cc) = b.shape_generic();
    OMatrix::from_iterator_generic(cc, cc, c.iter().copied())
}

/// The quadratic form `vᵀ A v` of a vector. On [`Var`](crate::Var), one node with
/// partials `vᵢ vⱼ` for `Aᵢⱼ` and `(A + Aᵀ) v` for `v`.
///
/// Panics unless `A` is square with as many rows as `v`.
///
/// ```
/// use fazang::prelude::*;
/// use fazang::linalg::quad_form_vec;
/// use nalgebra::{DMatrix, DVector};
/// let a = DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 3.0]);
/// let (v, g) = gradient(|x| quad_form_vec(&a, &DVector::from_column_slice(x)), &[1.0, 2.0]);
/// assert_eq!((v, g), (18.0, vec![8.0, 14.0]));
/// ```
pub fn quad_form_vec<A, B, R1, C1, R2, C2, S1, S2>(
    a: &Matrix<A, R1, C1, S1>,
    v: &Matrix<B, R2, C2, S2>,
) -> Mixed<A, B>
where
    A: Mix<B> + Entry<Mixed<A, B>>,
    B: Entry<Mixed<A, B>>,
    Mixed<A, B>: Scalar,
    R1: Dim,
    C1: Dim,
    R2: Dim,
    C2: Dim,
    S1: RawStorage<A, R1, C1>,
    S2: RawStorage<B, R2, C2>,
{
    assert_eq!(
        v.ncols(),
        1,
        "fazang: linalg::quad_form_vec needs a column vector"
    );
    check_quad("quad_form_vec", a.shape(), v.nrows());
    <Mixed<A, B>>::__quad_form_vec(owned(a), owned(v))
}

#[track_caller]
fn check_quad(function: &str, (r, c): (usize, usize), n: usize) {
    assert!(
        r == c && c == n,
        "fazang: linalg::{function} needs a square A with as many rows as B, got A {r}x{c} \
         and B with {n} rows"
    );
}
