//! Products: [`multiply`] (`A B`), [`quad_form`] (`Bᵀ A B`) and [`quad_form_vec`]
//! (`vᵀ A v`).

use super::{add_all, operands, values, Entry};
use crate::tape::var::{nary_named, vector_named, Var};
use nalgebra::allocator::Allocator;
use nalgebra::{DMatrix, DefaultAllocator, Dim, Matrix, OMatrix, RawStorage};

/// The matrix product `A B` as one lazy operation: the forward pass is one `f64` product
/// (nalgebra's), the backward pass two (`Ā += C̄ Bᵀ`, `B̄ += Aᵀ C̄`), and the tape holds
/// the two value matrices instead of one node per multiply-add.
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
) -> OMatrix<Var, R1, C2>
where
    A: Entry,
    B: Entry,
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
    let (av, bv) = (values(a), values(b));
    let c = &av * &bv;
    let mut inputs = Vec::new();
    operands(a, &mut inputs);
    operands(b, &mut inputs);
    let (na, (m, n)) = (if A::ACTIVE { av.len() } else { 0 }, c.shape());
    let outs = vector_named("multiply", &inputs, c.as_slice(), move |ob, ib| {
        let cbar = DMatrix::from_column_slice(m, n, ob);
        if A::ACTIVE {
            add_all(&(&cbar * bv.transpose()), &mut ib[..na]);
        }
        if B::ACTIVE {
            add_all(&(av.transpose() * &cbar), &mut ib[na..]);
        }
    });
    let (r, _) = a.shape_generic();
    let (_, cc) = b.shape_generic();
    OMatrix::from_iterator_generic(r, cc, outs)
}

/// The quadratic form `Bᵀ A B` (Stan's `quad_form`) as one lazy operation:
/// `Ā = B C̄ Bᵀ`, `B̄ = A B C̄ᵀ + Aᵀ B C̄`.
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
) -> OMatrix<Var, C2, C2>
where
    A: Entry,
    B: Entry,
    R1: Dim,
    C1: Dim,
    R2: Dim,
    C2: Dim,
    S1: RawStorage<A, R1, C1>,
    S2: RawStorage<B, R2, C2>,
    DefaultAllocator: Allocator<C2, C2>,
{
    check_quad("quad_form", a.shape(), b.nrows());
    let (av, bv) = (values(a), values(b));
    let ab = &av * &bv;
    let c = bv.transpose() * &ab;
    let mut inputs = Vec::new();
    operands(a, &mut inputs);
    operands(b, &mut inputs);
    let (na, k) = (if A::ACTIVE { av.len() } else { 0 }, c.nrows());
    let outs = vector_named("quad_form", &inputs, c.as_slice(), move |ob, ib| {
        let cbar = DMatrix::from_column_slice(k, k, ob);
        if A::ACTIVE {
            add_all(&(&bv * &cbar * bv.transpose()), &mut ib[..na]);
        }
        if B::ACTIVE {
            let g = &ab * cbar.transpose() + av.transpose() * &bv * &cbar;
            add_all(&g, &mut ib[na..]);
        }
    });
    let (_, cc) = b.shape_generic();
    OMatrix::from_iterator_generic(cc, cc, outs)
}

/// The quadratic form `vᵀ A v` of a vector, as one node with partials `vᵢ vⱼ` for `Aᵢⱼ`
/// and `(A + Aᵀ) v` for `v`.
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
) -> Var
where
    A: Entry,
    B: Entry,
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
    let (av, vv) = (values(a), values(v));
    let av_v = &av * &vv;
    let value = vv.dot(&av_v);
    let sym = av_v + av.transpose() * &vv;
    let n = vv.len();
    let pa = (0..n * n).map(|k| vv[k % n] * vv[k / n]);
    let a_ops = a.iter().map(Entry::var).zip(pa).filter(|_| A::ACTIVE);
    let v_ops = v
        .iter()
        .map(Entry::var)
        .zip(sym.iter().copied())
        .filter(|_| B::ACTIVE);
    nary_named("quad_form_vec", value, a_ops.chain(v_ops))
}

#[track_caller]
fn check_quad(function: &str, (r, c): (usize, usize), n: usize) {
    assert!(
        r == c && c == n,
        "fazang: linalg::{function} needs a square A with as many rows as B, got A {r}x{c} \
         and B with {n} rows"
    );
}
