//! Data meeting active values in the operators of a generic body, where the operator
//! has no impl for the mix: nalgebra implements `Matrix<T> - Matrix<T>` and `Matrix<T> *
//! T` for one entry type `T` only, so `y - &mu` (a data vector minus an active one),
//! `2.0 * &v` and `&v / 2.0` (an active matrix and a data number) need the data side
//! converted, and Rust's coherence rules forbid fazang to add the mixed impls.
//!
//! `#[differentiate]` wraps such operands in [`Mixed`] where it sees data meet an
//! active value and the operand's type is hidden from it, and calls one of the methods
//! below. Each method is found by autoref specialisation: for nalgebra matrices
//! (and ndarray arrays) the first trait applies and converts or maps the entries; for
//! every other type (numbers, user types) the fallback on `&Mixed` applies the operator
//! as written, so code that compiled before compiles to the same operations.
//!
//! - `(&Mixed::<S, _>::new(d)).fz_lift()`: a data matrix as a matrix of `S`;
//! - `(&Mixed::<S, _, K>::number_left(k, a)).fz_lmul()`, and `number_right(a, k)` with
//!   `.fz_rmul()` or `.fz_div()`: `k * a`, `a * k`, `a / k` with `k` a number of type
//!   `K` (`f64` or `S`), entry by entry for matrices.
//!
//! - `(&MixedRef::<S, _, _>::new(&d)).fz_lift_ref()`: a data matrix passed by reference
//!   to a method of an active value, or the receiver of a method called with one, as a
//!   reference to a matrix of `S` (other types: the reference itself).
//!
//! The traits are imported once at the top of a body that uses them.

use crate::Real;
use std::cell::{Cell, OnceCell};
use std::marker::PhantomData;
use std::ops::{Div, Mul};

/// An operand of a mixed operation (see the module documentation), for the body's
/// scalar `S`, with the number `K` it is scaled by, if any.
pub struct Mixed<S, T, K = ()>(Cell<Option<T>>, Cell<Option<K>>, PhantomData<S>);

impl<S, T> Mixed<S, T> {
    /// An operand to convert.
    #[inline(always)]
    pub fn new(x: T) -> Self {
        Mixed(Cell::new(Some(x)), Cell::new(Some(())), PhantomData)
    }
}

impl<S, T, K> Mixed<S, T, K> {
    /// `k * a`, both evaluated in that order.
    #[inline(always)]
    pub fn number_left(k: K, a: T) -> Self {
        Mixed(Cell::new(Some(a)), Cell::new(Some(k)), PhantomData)
    }

    /// `a * k` or `a / k`, both evaluated in that order.
    #[inline(always)]
    pub fn number_right(a: T, k: K) -> Self {
        Mixed(Cell::new(Some(a)), Cell::new(Some(k)), PhantomData)
    }

    /// The operand and the number (taken once, by the one method called).
    #[inline(always)]
    fn take(&self) -> (T, K) {
        let once = "fazang: a mixed operand is used once (a bug of fazang)";
        (self.0.take().expect(once), self.1.take().expect(once))
    }
}

/// A data operand passed by reference to a method (`y.dot(&a)`, `chol.solve(&y)`), for
/// the body's scalar `S`; `L` holds the converted matrix, if it is one.
pub struct MixedRef<'a, S, T: ?Sized, L = ()>(&'a T, OnceCell<L>, PhantomData<S>);

impl<'a, S, T: ?Sized, L> MixedRef<'a, S, T, L> {
    /// Wrap a reference.
    #[inline(always)]
    pub fn new(x: &'a T) -> Self {
        MixedRef(x, OnceCell::new(), PhantomData)
    }
}

/// A data matrix behind a reference, converted to the body's scalar and borrowed from
/// the wrapper (the specialised case).
pub trait LiftMatrixRef {
    /// The converted matrix.
    type Out;
    /// Convert (once).
    fn fz_lift_ref(&self) -> &Self::Out;
}

/// Any other reference, unchanged (the fallback).
pub trait LiftOtherRef<'a, T: ?Sized> {
    /// The reference.
    fn fz_lift_ref(&self) -> &'a T;
}

impl<'a, S, T: ?Sized> LiftOtherRef<'a, T> for &MixedRef<'a, S, T, ()> {
    #[inline(always)]
    fn fz_lift_ref(&self) -> &'a T {
        self.0
    }
}

/// A data matrix converted to the body's scalar (the specialised case).
pub trait LiftMatrix {
    /// The converted matrix.
    type Out;
    /// Convert.
    fn fz_lift(&self) -> Self::Out;
}

/// Any other operand, unchanged (the fallback).
pub trait LiftOther {
    /// The operand's type.
    type Out;
    /// The operand.
    fn fz_lift(&self) -> Self::Out;
}

impl<S, T> LiftOther for &Mixed<S, T> {
    type Out = T;
    #[inline(always)]
    fn fz_lift(&self) -> T {
        self.take().0
    }
}

/// `k * a`, `a * k` and `a / k` for a number `k`, entry by entry (the specialised case).
pub trait ScaleMatrix {
    /// The scaled matrix.
    type Out;
    /// `k * a`.
    fn fz_lmul(&self) -> Self::Out;
    /// `a * k`.
    fn fz_rmul(&self) -> Self::Out;
    /// `a / k`.
    fn fz_div(&self) -> Self::Out;
}

/// `k * a`, `a * k` and `a / k` as written (the fallback).
pub trait ScaleOther<T, K> {
    /// `k * a`.
    fn fz_lmul(&self) -> <K as Mul<T>>::Output
    where
        K: Mul<T>;
    /// `a * k`.
    fn fz_rmul(&self) -> <T as Mul<K>>::Output
    where
        T: Mul<K>;
    /// `a / k`.
    fn fz_div(&self) -> <T as Div<K>>::Output
    where
        T: Div<K>;
}

impl<S, T, K> ScaleOther<T, K> for &Mixed<S, T, K> {
    #[inline(always)]
    fn fz_lmul(&self) -> <K as Mul<T>>::Output
    where
        K: Mul<T>,
    {
        let (a, k) = self.take();
        k * a
    }
    #[inline(always)]
    fn fz_rmul(&self) -> <T as Mul<K>>::Output
    where
        T: Mul<K>,
    {
        let (a, k) = self.take();
        a * k
    }
    #[inline(always)]
    fn fz_div(&self) -> <T as Div<K>>::Output
    where
        T: Div<K>,
    {
        let (a, k) = self.take();
        a / k
    }
}

#[cfg(feature = "nalgebra")]
mod nalgebra_impls {
    use super::*;
    use nalgebra::allocator::Allocator;
    use nalgebra::{DefaultAllocator, Dim, Matrix, OMatrix, RawStorage, Scalar};

    /// A data matrix taken by reference.
    impl<S: Real, R: Dim, C: Dim, St: RawStorage<f64, R, C>> LiftMatrix
        for Mixed<S, &Matrix<f64, R, C, St>>
    where
        DefaultAllocator: Allocator<R, C>,
    {
        type Out = OMatrix<S, R, C>;
        #[inline]
        fn fz_lift(&self) -> OMatrix<S, R, C> {
            self.take().0.map(S::from)
        }
    }

    /// An owned data matrix (its views too).
    impl<S: Real, R: Dim, C: Dim, St: RawStorage<f64, R, C>> LiftMatrix
        for Mixed<S, Matrix<f64, R, C, St>>
    where
        DefaultAllocator: Allocator<R, C>,
    {
        type Out = OMatrix<S, R, C>;
        #[inline]
        fn fz_lift(&self) -> OMatrix<S, R, C> {
            self.take().0.map(S::from)
        }
    }

    impl<'a, S: Real, R: Dim, C: Dim, St: RawStorage<f64, R, C>> LiftMatrixRef
        for MixedRef<'a, S, Matrix<f64, R, C, St>, OMatrix<S, R, C>>
    where
        DefaultAllocator: Allocator<R, C>,
    {
        type Out = OMatrix<S, R, C>;
        #[inline]
        fn fz_lift_ref(&self) -> &OMatrix<S, R, C> {
            self.1.get_or_init(|| self.0.map(S::from))
        }
    }

    macro_rules! scale_matrix {
        ($($m:ty),*) => {$(
            impl<'a, S, K, E, R, C, St> ScaleMatrix for Mixed<S, $m, K>
            where
                K: Copy + Mul<E>,
                E: Scalar
                    + Copy
                    + Mul<K, Output = <K as Mul<E>>::Output>
                    + Div<K, Output = <K as Mul<E>>::Output>,
                <K as Mul<E>>::Output: Scalar,
                R: Dim,
                C: Dim,
                St: RawStorage<E, R, C>,
                DefaultAllocator: Allocator<R, C>,
            {
                type Out = OMatrix<<K as Mul<E>>::Output, R, C>;
                #[inline]
                fn fz_lmul(&self) -> Self::Out {
                    let (a, k) = self.take();
                    a.map(|x| k * x)
                }
                #[inline]
                fn fz_rmul(&self) -> Self::Out {
                    let (a, k) = self.take();
                    a.map(|x| x * k)
                }
                #[inline]
                fn fz_div(&self) -> Self::Out {
                    let (a, k) = self.take();
                    a.map(|x| x / k)
                }
            }
        )*};
    }
    scale_matrix!(&'a Matrix<E, R, C, St>, Matrix<E, R, C, St>);
}
