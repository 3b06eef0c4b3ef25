//! Fused linear algebra on nalgebra matrices (feature `nalgebra`): each operation is one
//! node on the tape (or one lazy vector-Jacobian product) with an analytic adjoint, as in
//! Stan Math, instead of the thousands of scalar nodes nalgebra's own algorithms record on
//! `Var` matrices.
//!
//! | function | result | adjoint |
//! | --- | --- | --- |
//! | [`multiply`] | `A B` | `Ā += C̄ Bᵀ`, `B̄ += Aᵀ C̄` |
//! | [`cholesky`] | `L` with `L Lᵀ = A` | `Ā = L⁻ᵀ Φ(Lᵀ L̄) L⁻¹` (Murray 2016), on the lower triangle |
//! | [`solve_lower_triangular`] | `L⁻¹ B` | `B̄ = L⁻ᵀ X̄`, `L̄ = -B̄ Xᵀ` (lower triangle) |
//! | [`log_determinant`] | `ln \|det A\|` | `Ā = A⁻ᵀ` |
//! | [`log_determinant_spd`] | `ln det A`, `A` symmetric positive definite | `Ā = A⁻¹` (lower triangle) |
//! | [`quad_form`], [`quad_form_vec`] | `Bᵀ A B`, `vᵀ A v` | `Ā = B C̄ Bᵀ`, `B̄ = A B C̄ᵀ + Aᵀ B C̄` |
//!
//! Arguments are any nalgebra matrices or vectors (`DMatrix`, `DVector`, `SMatrix`,
//! views) of `f64` entries or of one [`Scalar`] (`Var`, a forward number, the scalar of a
//! `#[differentiate]` body), mixed freely with `f64`: data matrices cost nothing on the
//! tape and get no adjoint. Results are in the scalar the arguments mix to (data in, data
//! out; `f64` with `Var` gives `Var`), with the arguments' dimensions (static where they
//! are static). On `Var` each operation is the fused node of the table; on `f64` it is
//! nalgebra's plain computation; on forward numbers ([`Dual`](crate::Dual), the scalars of
//! `_jvp`, `_hessian` and `_hvp`), nalgebra's algorithm on the numbers.
//!
//! Functions that, like nalgebra's `Cholesky`, read a symmetric matrix from its lower
//! triangle (`cholesky`, `log_determinant_spd`) give the strict upper triangle no adjoint
//! and each strictly lower entry the derivative with respect to both of its mirrored
//! positions, exactly what the same code taped through nalgebra gives. Matrices that are
//! not positive definite (or singular, for the solves and `log_determinant`) are
//! [`LinalgError`]s; dimensions that do not fit are programming errors and panic.
//!
//! # Example
//!
//! The log marginal likelihood of a Gaussian process, `-½ yᵀK⁻¹y - ½ ln det K - n/2 ln 2π`,
//! written as on `f64` under `#[differentiate]`: the kernel matrix built entry by entry,
//! the O(n³) steps fused, the data `y` meeting the active factor in the solve.
//!
//! ```
//! use fazang::prelude::*;
//! use fazang::linalg::{cholesky, solve_lower_triangular, LinalgError};
//! use nalgebra::{DMatrix, DVector};
//!
//! #[differentiate(wrt(alpha, rho, sigma))]
//! fn gp_lml(alpha: f64, rho: f64, sigma: f64, x: &[f64], y: &[f64]) -> Result<f64, LinalgError> {
//!     let n = x.len();
//!     let k = DMatrix::from_fn(n, n, |i, j| {
//!         alpha * alpha * (-0.5 * ((x[i] - x[j]) / rho).powi(2)).exp()
//!     }) + DMatrix::identity(n, n) * (sigma * sigma);
//!     let l = cholesky(&k)?;
//!     let a = solve_lower_triangular(&l, &DVector::from_column_slice(y))?;
//!     let log_det: f64 = l.diagonal().iter().map(|d| d.ln()).sum();
//!     Ok(-0.5 * a.dot(&a) - log_det - 0.5 * n as f64 * (2.0 * std::f64::consts::PI).ln())
//! }
//!
//! let (x, y) = ([0.1, 0.5, 1.3, 2.0], [0.2, -0.1, 0.7, 1.1]);
//! let (v, g) = gp_lml_grad(1.0, 0.8, 0.3, &x, &y)?;         // one node per cholesky, solve
//! let (_, _, h) = gp_lml_hessian(1.0, 0.8, 0.3, &x, &y)?;   // the same body on forward numbers
//! assert!(v.is_finite() && g.len() == 3 && h.len() == 3);
//! # Ok::<(), LinalgError>(())
//! ```

mod decomp;
mod forward;
mod product;
mod var_decomp;
mod var_product;

pub use decomp::{cholesky, log_determinant, log_determinant_spd, solve_lower_triangular};
pub use product::{multiply, quad_form, quad_form_vec};

use crate::math::slice::Mix;
use crate::tape::var::Var;
use crate::Real;
use nalgebra::{DMatrix, Dim, Matrix, RawStorage};
use std::fmt;

/// A scalar the fused operations compute in: `f64` (plain nalgebra on values), [`Var`]
/// (one fused node or lazy operation per call, with the analytic adjoint of the table
/// above) and every forward-mode number ([`Dual`](crate::Dual), [`Taylor`](crate::Taylor),
/// [`Jet`](crate::Jet), [`JetDyn`](crate::JetDyn), [`Fwd`](crate::Fwd): nalgebra's own
/// algorithm on the number, whose arithmetic carries the derivatives). A
/// `#[differentiate]` body's scalar is one, so a body calls [`cholesky`] and the others
/// on its own matrices; its `_grad` then records one node per operation, and its `_jvp`,
/// `_hessian`, `_hvp` run the same body on forward numbers.
///
/// Implemented by fazang's number types only (it is sealed, as [`Real`]); its methods are
/// hidden: call the functions of this module.
///
/// ```
/// use fazang::prelude::*;
/// use fazang::linalg::{cholesky, Scalar};
/// use nalgebra::DMatrix;
/// // One function for every scalar: f64 computes, Var records one node, Dual carries a
/// // tangent.
/// fn l11<T: Scalar>(a: T) -> T {
///     let m = DMatrix::from_fn(2, 2, |i, j| if i == j { a } else { T::from(1.0) });
///     cholesky(&m).unwrap()[(1, 1)]
/// }
/// let want = (3.0_f64 - 1.0 / 3.0).sqrt();
/// assert_eq!(l11(3.0), want);
/// let (v, g) = gradient(|x| l11(x[0]), &[3.0]);
/// let d = l11(fazang::Dual::<f64>::new(3.0, 1.0));
/// assert_eq!((v, d.re), (want, want));
/// assert!((g[0] - d.eps).abs() < 1e-15);
/// ```
pub trait Scalar: Real + simba::scalar::RealField + Entry<Self> {
    #[doc(hidden)]
    fn __cholesky(a: DMatrix<Self>) -> Result<DMatrix<Self>, LinalgError>;
    #[doc(hidden)]
    fn __solve_lower_triangular<A: Entry<Self>, B: Entry<Self>>(
        l: DMatrix<A>,
        b: DMatrix<B>,
    ) -> Result<DMatrix<Self>, LinalgError>;
    #[doc(hidden)]
    fn __log_determinant(a: DMatrix<Self>) -> Result<Self, LinalgError>;
    #[doc(hidden)]
    fn __log_determinant_spd(a: DMatrix<Self>) -> Result<Self, LinalgError>;
    #[doc(hidden)]
    fn __multiply<A: Entry<Self>, B: Entry<Self>>(a: DMatrix<A>, b: DMatrix<B>) -> DMatrix<Self>;
    #[doc(hidden)]
    fn __quad_form<A: Entry<Self>, B: Entry<Self>>(a: DMatrix<A>, b: DMatrix<B>) -> DMatrix<Self>;
    #[doc(hidden)]
    fn __quad_form_vec<A: Entry<Self>, B: Entry<Self>>(a: DMatrix<A>, v: DMatrix<B>) -> Self;
}

/// An entry type of a matrix argument computed in scalar `T`: `f64` (data, for every
/// `T`) or `T` itself. The result of a function of two matrices is in the scalar both
/// mix to ([`Mix`]): `f64` and `f64` give `f64`, `f64` and `Var` give `Var`, and so on.
///
/// ```
/// use fazang::linalg::Entry;
/// use fazang::Var;
/// assert_eq!(Entry::<Var>::value(&2.5_f64), 2.5);
/// assert!(!<f64 as Entry<Var>>::ACTIVE && <Var as Entry<Var>>::ACTIVE);
/// ```
pub trait Entry<T>: nalgebra::Scalar + Copy {
    /// Whether entries of this type can carry derivatives in `T` (`false` for data).
    const ACTIVE: bool;
    /// The value.
    ///
    /// ```
    /// use fazang::linalg::Entry;
    /// assert_eq!(Entry::<fazang::Var>::value(&fazang::Var::constant(1.5)), 1.5);
    /// ```
    fn value(&self) -> f64;
    /// The entry as a `T` (a constant for `f64`).
    ///
    /// ```
    /// use fazang::linalg::Entry;
    /// let x: fazang::Var = Entry::to_scalar(2.0_f64);
    /// assert!(x.is_constant());
    /// ```
    fn to_scalar(self) -> T;
}

impl<T: Scalar> Entry<T> for f64 {
    const ACTIVE: bool = false;
    #[inline]
    fn value(&self) -> f64 {
        *self
    }
    #[inline]
    fn to_scalar(self) -> T {
        T::from(self)
    }
}

/// `Entry<T> for T`, for each scalar `T` other than `f64` (which the impl for `f64`
/// covers).
macro_rules! entry_for {
    ($(@generic [$($g:tt)*])? $t:ty) => {
        impl<$($($g)*)?> Entry<$t> for $t {
            const ACTIVE: bool = true;
            #[inline]
            fn value(&self) -> f64 {
                Real::val(self)
            }
            #[inline]
            fn to_scalar(self) -> $t {
                self
            }
        }
    };
}
pub(crate) use entry_for;

entry_for!(Var);

impl Scalar for Var {
    fn __cholesky(a: DMatrix<Var>) -> Result<DMatrix<Var>, LinalgError> {
        var_decomp::cholesky(a)
    }
    fn __solve_lower_triangular<A: Entry<Var>, B: Entry<Var>>(
        l: DMatrix<A>,
        b: DMatrix<B>,
    ) -> Result<DMatrix<Var>, LinalgError> {
        var_decomp::solve_lower_triangular(l, b)
    }
    fn __log_determinant(a: DMatrix<Var>) -> Result<Var, LinalgError> {
        var_decomp::log_determinant(a)
    }
    fn __log_determinant_spd(a: DMatrix<Var>) -> Result<Var, LinalgError> {
        var_decomp::log_determinant_spd(a)
    }
    fn __multiply<A: Entry<Var>, B: Entry<Var>>(a: DMatrix<A>, b: DMatrix<B>) -> DMatrix<Var> {
        var_product::multiply(a, b)
    }
    fn __quad_form<A: Entry<Var>, B: Entry<Var>>(a: DMatrix<A>, b: DMatrix<B>) -> DMatrix<Var> {
        var_product::quad_form(a, b)
    }
    fn __quad_form_vec<A: Entry<Var>, B: Entry<Var>>(a: DMatrix<A>, v: DMatrix<B>) -> Var {
        var_product::quad_form_vec(a, v)
    }
}

/// A data matrix as a matrix of scalar `T` (of constants, for an active `T`; the same
/// values, copied, for `f64`), for a call of your own generic code that takes two
/// matrices of one entry type, one of them data and the other active.
///
/// Operators and methods need no such conversion in a `#[differentiate]` body: where
/// data meets an active matrix in `y - &mu`, `x * &beta`, `y.dot(&a)`, `chol.solve(&y)` or
/// `2.0 * &v`, the body converts the data itself (Rust's coherence rules forbid the mixed
/// operator impls to nalgebra and fazang alike).
///
/// ```
/// use fazang::prelude::*;
/// use fazang::linalg::promote;
/// use nalgebra::{DVector, RealField};
///
/// // A helper written for any nalgebra scalar, both vectors of one type.
/// fn weighted<T: RealField + Copy>(w: &DVector<T>, x: &DVector<T>) -> T {
///     w.dot(x)
/// }
///
/// #[differentiate(wrt(x))]
/// fn f(x: &[f64], w: &[f64]) -> f64 {
///     let (x, w) = (DVector::from_column_slice(x), DVector::from_column_slice(w));
///     weighted(&promote(&w), &x)
/// }
///
/// let (v, g) = f_grad(&[1.0, 2.0], &[0.5, -1.0]);
/// assert_eq!((v, g), (-1.5, vec![0.5, -1.0]));
/// ```
pub fn promote<T, R, C, St>(m: &Matrix<f64, R, C, St>) -> nalgebra::OMatrix<T, R, C>
where
    T: Scalar,
    R: Dim,
    C: Dim,
    St: RawStorage<f64, R, C>,
    nalgebra::DefaultAllocator: nalgebra::allocator::Allocator<R, C>,
{
    m.map(T::from)
}

/// The scalar two matrices of entry types `A` and `B` mix to (see [`Entry`]).
pub type Mixed<A, B> = <A as Mix<B>>::Output;

/// A matrix argument that has no valid result: not positive definite, or singular.
///
/// ```
/// use fazang::linalg::{cholesky, LinalgError};
/// use nalgebra::DMatrix;
/// let e = cholesky(&DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 2.0, 1.0])).unwrap_err();
/// assert_eq!(e, LinalgError::NotPositiveDefinite { function: "cholesky" });
/// assert_eq!(e.to_string(), "cholesky: Matrix is not positive definite");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum LinalgError {
    /// A symmetric matrix that is not positive definite (its Cholesky factor does not
    /// exist).
    NotPositiveDefinite {
        /// The function that was given the matrix.
        function: &'static str,
    },
    /// A singular matrix (a zero pivot or zero diagonal entry).
    Singular {
        /// The function that was given the matrix.
        function: &'static str,
    },
}

impl fmt::Display for LinalgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinalgError::NotPositiveDefinite { function } => {
                write!(f, "{function}: Matrix is not positive definite")
            }
            LinalgError::Singular { function } => write!(f, "{function}: Matrix is singular"),
        }
    }
}

impl std::error::Error for LinalgError {}

/// The values of a matrix, column-major, as a `DMatrix<f64>`.
fn values<U, T: Entry<U>>(m: &DMatrix<T>) -> DMatrix<f64> {
    m.map(|x| x.value())
}

/// A matrix argument as a `DMatrix` of its own entries (what the scalars' methods take).
fn owned<T: Copy + nalgebra::Scalar, R: Dim, C: Dim, S: RawStorage<T, R, C>>(
    m: &Matrix<T, R, C, S>,
) -> DMatrix<T> {
    DMatrix::from_iterator(m.nrows(), m.ncols(), m.iter().copied())
}

/// The operands a matrix argument contributes to a recorded operation: every entry,
/// column-major, if its type can be active, else none.
fn operands<T: Entry<Var>>(m: &DMatrix<T>, out: &mut Vec<Var>) {
    if T::ACTIVE {
        out.extend(m.iter().map(|x| x.to_scalar()));
    }
}

/// The operands of the lower triangle of a square matrix (column by column, each from
/// the diagonal down), if its type can be active.
fn lower_operands<T: Entry<Var>>(m: &DMatrix<T>, out: &mut Vec<Var>) {
    if T::ACTIVE {
        let n = m.nrows();
        for j in 0..n {
            out.extend((j..n).map(|i| m[(i, j)].to_scalar()));
        }
    }
}

/// Add the lower triangle of `g` (the order of [`lower_operands`]) to `ib`, folding the
/// strict upper triangle onto its mirror when `fold` (the adjoint of a matrix read as
/// symmetric from its lower triangle).
fn add_lower(g: &DMatrix<f64>, fold: bool, ib: &mut [f64]) {
    let n = g.nrows();
    let mut k = 0;
    for j in 0..n {
        for i in j..n {
            let mirrored = if fold && i != j { g[(j, i)] } else { 0.0 };
            ib[k] += g[(i, j)] + mirrored;
            k += 1;
        }
    }
}

/// Add `g` (column-major) to `ib`.
fn add_all(g: &DMatrix<f64>, ib: &mut [f64]) {
    for (b, v) in ib.iter_mut().zip(g.iter()) {
        *b += v;
    }
}

/// Panic unless the matrix is square.
#[track_caller]
fn check_square(function: &str, r: usize, c: usize) {
    assert_eq!(
        r, c,
        "fazang: linalg::{function} needs a square matrix, got {r}x{c}"
    );
}
