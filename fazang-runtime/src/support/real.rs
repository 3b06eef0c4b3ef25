//! `Real`'s methods as free functions that take the scalar or a reference to it:
//! `real::sin(x)` for `x: S` or `x: &S`. Generated bodies call them instead of `x.sin()`,
//! so that a body's scalar can be bounded by `num_traits::Float` as well as `Real`
//! (both have `sin`, and a method call would be ambiguous) and `T: Float` helpers can be
//! called with active values.
//!
//! Not a public API: reached through `::fazang::__private::real`.

use crate::math::elementary::{with_method_list, with_unary_table};
use crate::Real;
use std::cmp::Ordering;
use std::num::FpCategory;

/// A scalar `S`, by value or by reference.
#[diagnostic::on_unimplemented(
    message = "expected `f64`, found `{Self}`",
    label = "expected `f64`, found `{Self}`",
    note = "the math methods (`sin`, `exp`, `powi`, ..) of a #[differentiate] body work on `f64` values"
)]
pub trait AsScalar<S> {
    /// The scalar.
    fn scalar(self) -> S;
}

impl<S: Real> AsScalar<S> for S {
    #[inline(always)]
    fn scalar(self) -> S {
        self
    }
}

impl<S: Real> AsScalar<S> for &S {
    #[inline(always)]
    fn scalar(self) -> S {
        *self
    }
}

/// `filter(|v| v.abs() < 1.0)` over `iter()` sees `&&S`.
impl<S: Real> AsScalar<S> for &&S {
    #[inline(always)]
    fn scalar(self) -> S {
        **self
    }
}

macro_rules! unary {
    ($($name:ident -> $out:ty),* $(,)?) => {$(
        #[doc = concat!("`Real::", stringify!($name), "`.")]
        #[inline(always)]
        pub fn $name<S: Real>(x: impl AsScalar<S>) -> $out {
            Real::$name(x.scalar())
        }
    )*};
}

macro_rules! binary {
    ($($name:ident),* $(,)?) => {$(
        #[doc = concat!("`Real::", stringify!($name), "`.")]
        #[inline(always)]
        pub fn $name<S: Real>(x: impl AsScalar<S>, y: impl Into<S>) -> S {
            Real::$name(x.scalar(), y)
        }
    )*};
}

/// The table's functions.
macro_rules! table_calls {
    ($( $(#[$doc:meta])* $name:ident [$k:ident] $fam:ident: |$x:ident, $v:ident| $value:expr, $deriv:expr; )*) => {
        unary! { $($name -> S),* }
    };
}
with_unary_table!(table_calls);

/// `Real`'s other methods, by shape.
macro_rules! list_calls {
    ($($kind:ident $name:ident $fam:ident;)*) => { $(list_calls!(@$kind $name);)* };
    (@flat $name:ident) => { unary! { $name -> S } };
    (@predicate $name:ident) => { unary! { $name -> bool } };
    (@$binary:ident $name:ident) => { binary! { $name } };
}
with_method_list!([list_calls]);

unary! { sin_cos -> (S, S), classify -> FpCategory }

/// `Real::powi`.
#[inline(always)]
pub fn powi<S: Real>(x: impl AsScalar<S>, n: i32) -> S {
    Real::powi(x.scalar(), n)
}

/// `Real::mul_add`.
#[inline(always)]
pub fn mul_add<S: Real>(x: impl AsScalar<S>, a: impl Into<S>, b: impl Into<S>) -> S {
    Real::mul_add(x.scalar(), a, b)
}

/// `Real::clamp`.
#[inline(always)]
pub fn clamp<S: Real>(x: impl AsScalar<S>, lo: impl Into<S>, hi: impl Into<S>) -> S {
    Real::clamp(x.scalar(), lo, hi)
}

/// `Real::total_cmp`.
#[inline(always)]
pub fn total_cmp<S: Real>(x: impl AsScalar<S>, y: impl AsScalar<S>) -> Ordering {
    Real::total_cmp(&x.scalar(), &y.scalar())
}

/// `Real::val`.
#[inline(always)]
pub fn val<S: Real>(x: impl AsScalar<S>) -> f64 {
    Real::val(&x.scalar())
}
