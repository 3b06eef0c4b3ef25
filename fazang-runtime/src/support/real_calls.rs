//! `Real`'s methods as free functions that take the scalar or a reference to it:
//! `real::sin(x)` for `x: S` or `x: &S`. Generated bodies call them instead of `x.sin()`,
//! so that a body's scalar can be bounded by `num_traits::Float` as well as `Real`
//! (both have `sin`, and a method call would be ambiguous) and `T: Float` helpers can be
//! called with active values.
//!
//! Not a public API: reached through `::fazang::__private::real`.

use crate::Real;
use std::cmp::Ordering;
use std::num::FpCategory;

/// A scalar `S`, by value or by reference.
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

unary! {
    sin -> S, cos -> S, tan -> S, asin -> S, acos -> S, atan -> S, sinh -> S, cosh -> S,
    tanh -> S, asinh -> S, acosh -> S, atanh -> S, exp -> S, exp2 -> S, exp_m1 -> S,
    ln -> S, log10 -> S, log2 -> S, ln_1p -> S, sqrt -> S, cbrt -> S, abs -> S, recip -> S,
    signum -> S, floor -> S, ceil -> S, round -> S, trunc -> S, fract -> S,
    round_ties_even -> S, to_degrees -> S, to_radians -> S, log1p_exp -> S, erf -> S,
    erfc -> S, log_gamma -> S, square -> S, inv -> S, inv_square -> S, inv_sqrt -> S,
    logit -> S, inv_logit -> S, sin_cos -> (S, S), is_nan -> bool, is_finite -> bool,
    is_infinite -> bool, is_normal -> bool, is_subnormal -> bool, classify -> FpCategory,
    is_sign_negative -> bool, is_sign_positive -> bool,
}

binary! {
    atan2, log, powf, hypot, min, max, copysign, rem_euclid, div_euclid, midpoint,
    log_sum_exp,
}

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
