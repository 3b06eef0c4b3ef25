//! [`Scalar`] for `f64` and the forward-mode numbers: nalgebra's own algorithms on the
//! scalar itself. On `f64` that is the plain computation (the same `f64` operations the
//! fused [`Var`](crate::Var) operations run on values); on a forward number, whose
//! arithmetic carries the derivatives, it is forward-mode differentiation of the
//! algorithm, exact wherever the algorithm is differentiable.

use super::{entry_for, Entry, LinalgError, Scalar};
use crate::forward::{Dual, Fwd, Jet, JetDyn, Tangent, Taylor};
use crate::Real;
use nalgebra::{Cholesky, DMatrix, Dyn};

/// The matrix in scalar `T`.
fn to<T: Scalar, A: Entry<T>>(m: DMatrix<A>) -> DMatrix<T> {
    m.map(Entry::to_scalar)
}

pub(super) fn cholesky<T: Scalar>(a: DMatrix<T>) -> Result<DMatrix<T>, LinalgError> {
    Cholesky::<T, Dyn>::new(a)
        .map(Cholesky::unpack)
        .ok_or(LinalgError::NotPositiveDefinite {
            function: "cholesky",
        })
}

pub(super) fn solve_lower_triangular<T: Scalar, A: Entry<T>, B: Entry<T>>(
    l: DMatrix<A>,
    b: DMatrix<B>,
) -> Result<DMatrix<T>, LinalgError> {
    to::<T, A>(l)
        .solve_lower_triangular::<Dyn, Dyn, _>(&to::<T, B>(b))
        .ok_or(LinalgError::Singular {
            function: "solve_lower_triangular",
        })
}

pub(super) fn log_determinant<T: Scalar>(a: DMatrix<T>) -> Result<T, LinalgError> {
    let singular = LinalgError::Singular {
        function: "log_determinant",
    };
    let lu = a.lu();
    if !lu.is_invertible() {
        return Err(singular);
    }
    let value: T = lu
        .u()
        .diagonal()
        .iter()
        .map(|d| Real::ln(Real::abs(*d)))
        .sum();
    if !Real::val(&value).is_finite() {
        return Err(singular);
    }
    Ok(value)
}

pub(super) fn log_determinant_spd<T: Scalar>(a: DMatrix<T>) -> Result<T, LinalgError> {
    let chol = Cholesky::<T, Dyn>::new(a).ok_or(LinalgError::NotPositiveDefinite {
        function: "log_determinant_spd",
    })?;
    let sum: T = chol.l_dirty().diagonal().iter().map(|d| Real::ln(*d)).sum();
    Ok(T::from(2.0) * sum)
}

pub(super) fn multiply<T: Scalar, A: Entry<T>, B: Entry<T>>(
    a: DMatrix<A>,
    b: DMatrix<B>,
) -> DMatrix<T> {
    to::<T, A>(a) * to::<T, B>(b)
}

pub(super) fn quad_form<T: Scalar, A: Entry<T>, B: Entry<T>>(
    a: DMatrix<A>,
    b: DMatrix<B>,
) -> DMatrix<T> {
    let b = to::<T, B>(b);
    let ab = to::<T, A>(a) * &b;
    b.transpose() * ab
}

pub(super) fn quad_form_vec<T: Scalar, A: Entry<T>, B: Entry<T>>(
    a: DMatrix<A>,
    v: DMatrix<B>,
) -> T {
    let v = to::<T, B>(v);
    let av = to::<T, A>(a) * &v;
    v.dot(&av)
}

/// `Scalar` for `$t` by the functions above (`[generics]` as for `num_traits_for!`).
macro_rules! plain_scalar {
    ($(@generic [$($g:tt)*])? $t:ty) => {
        impl<$($($g)*)?> Scalar for $t {
            fn __cholesky(a: DMatrix<Self>) -> Result<DMatrix<Self>, LinalgError> {
                cholesky(a)
            }
            fn __solve_lower_triangular<A: Entry<Self>, B: Entry<Self>>(
                l: DMatrix<A>,
                b: DMatrix<B>,
            ) -> Result<DMatrix<Self>, LinalgError> {
                solve_lower_triangular(l, b)
            }
            fn __log_determinant(a: DMatrix<Self>) -> Result<Self, LinalgError> {
                log_determinant(a)
            }
            fn __log_determinant_spd(a: DMatrix<Self>) -> Result<Self, LinalgError> {
                log_determinant_spd(a)
            }
            fn __multiply<A: Entry<Self>, B: Entry<Self>>(
                a: DMatrix<A>,
                b: DMatrix<B>,
            ) -> DMatrix<Self> {
                multiply(a, b)
            }
            fn __quad_form<A: Entry<Self>, B: Entry<Self>>(
                a: DMatrix<A>,
                b: DMatrix<B>,
            ) -> DMatrix<Self> {
                quad_form(a, b)
            }
            fn __quad_form_vec<A: Entry<Self>, B: Entry<Self>>(
                a: DMatrix<A>,
                v: DMatrix<B>,
            ) -> Self {
                quad_form_vec(a, v)
            }
        }
    };
}

plain_scalar!(f64);
plain_scalar!(@generic [S: Real, T: Tangent<S>] Dual<S, T>);
plain_scalar!(@generic [const K: usize] Taylor<K>);
plain_scalar!(@generic [const N: usize, const M: usize, const L: usize] Jet<N, M, L>);
plain_scalar!(JetDyn);
plain_scalar!(Fwd);
plain_scalar!(@generic [M: crate::sparse::probe::Mode] crate::sparse::probe::Probe<M>);
plain_scalar!(crate::sparse::fwdrev::FwdRev);

entry_for!(@generic [S: Real, T: Tangent<S>] Dual<S, T>);
entry_for!(@generic [const K: usize] Taylor<K>);
entry_for!(@generic [const N: usize, const M: usize, const L: usize] Jet<N, M, L>);
entry_for!(JetDyn);
entry_for!(Fwd);
entry_for!(@generic [M: crate::sparse::probe::Mode] crate::sparse::probe::Probe<M>);
entry_for!(crate::sparse::fwdrev::FwdRev);
