//! Decompositions and what is computed from them: [`cholesky`],
//! [`solve_lower_triangular`], [`log_determinant`] and [`log_determinant_spd`], for any
//! [`Scalar`] (and mixes of `f64` with one).

use super::{check_square, owned, Entry, LinalgError, Mixed, Scalar};
use crate::math::slice::Mix;
use nalgebra::allocator::Allocator;
use nalgebra::{DefaultAllocator, Dim, Matrix, OMatrix, RawStorage};

/// The Cholesky factor `L` (lower triangular, `L Lᵀ = A`) of a symmetric positive
/// definite matrix, read from its lower triangle as nalgebra's `Cholesky` reads it.
///
/// On [`Var`](crate::Var), one lazy operation: the backward pass computes
/// `S = L⁻ᵀ Φ(Lᵀ L̄) L⁻¹` (Φ takes the lower triangle and halves the diagonal; Murray
/// 2016, as Stan Math) with two triangular solves, and gives each lower entry
/// `Āᵢⱼ = Sᵢⱼ + Sⱼᵢ` (`Sᵢᵢ` on the diagonal). On `f64`, nalgebra's factor; on forward
/// numbers, nalgebra's algorithm on the numbers.
///
/// Returns [`LinalgError::NotPositiveDefinite`] if the factor does not exist; panics if
/// `A` is not square.
///
/// ```
/// use fazang::prelude::*;
/// use fazang::linalg::cholesky;
/// use nalgebra::DMatrix;
/// // A = [[a, b], [b, c]]: L₂₂ = √(c - b²/a), so dL₂₂/da = b² / (2 a² L₂₂).
/// let (v, g) = gradient(
///     |p| {
///         let a = DMatrix::from_row_slice(2, 2, &[p[0], p[1], p[1], p[2]]);
///         cholesky(&a).unwrap()[(1, 1)]
///     },
///     &[4.0, 2.0, 5.0],
/// );
/// assert_eq!(v, 2.0);
/// assert!((g[0] - 4.0 / (2.0 * 16.0 * 2.0)).abs() < 1e-15);
/// // Data stays data.
/// let l: DMatrix<f64> = cholesky(&DMatrix::from_row_slice(2, 2, &[4.0, 2.0, 2.0, 5.0])).unwrap();
/// assert_eq!(l[(1, 1)], 2.0);
/// ```
pub fn cholesky<T, D, C, S>(a: &Matrix<T, D, C, S>) -> Result<OMatrix<T, D, D>, LinalgError>
where
    T: Scalar,
    D: Dim,
    C: Dim,
    S: RawStorage<T, D, C>,
    DefaultAllocator: Allocator<D, D>,
{
    check_square("cholesky", a.nrows(), a.ncols());
    let l = T::__cholesky(owned(a))?;
    let (d, _) = a.shape_generic();
    Ok(OMatrix::from_iterator_generic(d, d, l.iter().copied()))
}

/// `X = L⁻¹ B` for a lower triangular `L` (only its lower triangle is read), by forward
/// substitution. On [`Var`](crate::Var), one lazy operation: `B̄ = L⁻ᵀ X̄`, and
/// `L̄ = -B̄ Xᵀ` on the lower triangle (Stan's `mdivide_left_tri_low`).
///
/// `L` and `B` may be data (`f64`) or active, in any mix; the result is active if either
/// is.
///
/// Returns [`LinalgError::Singular`] if a diagonal entry of `L` is zero; panics unless `L`
/// is square with as many rows as `B`.
///
/// ```
/// use fazang::prelude::*;
/// use fazang::linalg::solve_lower_triangular;
/// use nalgebra::{DMatrix, DVector};
/// let l = DMatrix::from_row_slice(2, 2, &[2.0, 0.0, 1.0, 4.0]);
/// // x = L⁻¹ b; d(x₁ + x₂)/db = L⁻ᵀ [1, 1]
/// let (v, g) = gradient(|b| solve_lower_triangular(&l, &DVector::from_column_slice(b)).unwrap().sum(), &[2.0, 9.0]);
/// assert_eq!(v, 1.0 + 2.0);
/// assert_eq!(g, vec![0.375, 0.25]);
/// ```
pub fn solve_lower_triangular<A, B, D, C1, R2, C2, S1, S2>(
    l: &Matrix<A, D, C1, S1>,
    b: &Matrix<B, R2, C2, S2>,
) -> Result<OMatrix<Mixed<A, B>, R2, C2>, LinalgError>
where
    A: Mix<B> + Entry<Mixed<A, B>>,
    B: Entry<Mixed<A, B>>,
    Mixed<A, B>: Scalar,
    D: Dim,
    C1: Dim,
    R2: Dim,
    C2: Dim,
    S1: RawStorage<A, D, C1>,
    S2: RawStorage<B, R2, C2>,
    DefaultAllocator: Allocator<R2, C2>,
{
    let n = l.nrows();
    check_square("solve_lower_triangular", n, l.ncols());
    assert_eq!(
        n,
        b.nrows(),
        "fazang: linalg::solve_lower_triangular of a {n}x{n} L and a B with {} rows",
        b.nrows()
    );
    let x = <Mixed<A, B>>::__solve_lower_triangular(owned(l), owned(b))?;
    let (r, c) = b.shape_generic();
    Ok(OMatrix::from_iterator_generic(r, c, x.iter().copied()))
}

/// `ln |det A|` of a square matrix, through its LU decomposition. On
/// [`Var`](crate::Var), one node with partials `A⁻ᵀ` (Stan's `log_determinant`).
///
/// Returns [`LinalgError::Singular`] if `A` is singular; panics if it is not square.
///
/// ```
/// use fazang::prelude::*;
/// use fazang::linalg::log_determinant;
/// use nalgebra::DMatrix;
/// let (v, g) = gradient(|a| log_determinant(&DMatrix::from_column_slice(2, 2, a)).unwrap(), &[2.0, 0.0, 0.0, -4.0]);
/// assert_eq!(v, 8.0_f64.ln());
/// assert_eq!(g, vec![0.5, 0.0, 0.0, -0.25]);
/// ```
pub fn log_determinant<T, R, C, S>(a: &Matrix<T, R, C, S>) -> Result<T, LinalgError>
where
    T: Scalar,
    R: Dim,
    C: Dim,
    S: RawStorage<T, R, C>,
{
    check_square("log_determinant", a.nrows(), a.ncols());
    T::__log_determinant(owned(a))
}

/// `ln det A` of a symmetric positive definite matrix, read from its lower triangle,
/// through its Cholesky factor (`2 Σ ln Lᵢᵢ`). On [`Var`](crate::Var), one node with
/// partials `A⁻¹` folded onto the lower triangle (Stan's `log_determinant_spd`).
///
/// Returns [`LinalgError::NotPositiveDefinite`] if `A` is not positive definite; panics if
/// it is not square.
///
/// ```
/// use fazang::prelude::*;
/// use fazang::linalg::log_determinant_spd;
/// use nalgebra::DMatrix;
/// // d ln det / dA = A⁻¹; the off-diagonal entry below the diagonal gets both halves.
/// let (v, g) = gradient(|a| log_determinant_spd(&DMatrix::from_column_slice(2, 2, a)).unwrap(), &[2.0, 1.0, 1.0, 2.0]);
/// assert!((v - 3.0_f64.ln()).abs() < 1e-15);
/// let want = [2.0 / 3.0, -2.0 / 3.0, 0.0, 2.0 / 3.0];
/// assert!(g.iter().zip(want).all(|(g, w)| (g - w).abs() < 1e-15));
/// ```
pub fn log_determinant_spd<T, R, C, S>(a: &Matrix<T, R, C, S>) -> Result<T, LinalgError>
where
    T: Scalar,
    R: Dim,
    C: Dim,
    S: RawStorage<T, R, C>,
{
    check_square("log_determinant_spd", a.nrows(), a.ncols());
    T::__log_determinant_spd(owned(a))
}
