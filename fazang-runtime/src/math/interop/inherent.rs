//! Inherent math methods for fazang's scalars, each forwarding to the [`Real`] method of
//! the same name.
//!
//! A type that implements both [`Real`] and `num_traits::Float` (or simba's
//! `ComplexField`) has two trait methods named `sin`; with both traits in scope, `x.sin()`
//! would not compile (E0034, multiple applicable items). Inherent methods take precedence
//! over trait methods, so giving the type its own `sin` that calls `Real::sin` keeps such
//! calls unambiguous, while the derivative stays defined once, in
//! [`math::elementary`](crate::math::elementary). Generic code (`S: Real`, `T: Float`)
//! is unaffected: it calls the trait methods.
//!
//! The methods are hidden from the documentation: they are the `Real` methods, documented
//! there.

use crate::tape::var::Var;
#[cfg(doc)]
use crate::Real;

/// Inherent forwarding methods for a scalar type `$t: Real` (optional `[generics]` prefix
/// as for `num_traits_for!`): one per row of the elementary table and per method of
/// `with_method_list!`, and the few methods of their own signature.
macro_rules! inherent_math {
    ($(@generic [$($g:tt)*])? $t:ty) => {
        #[doc(hidden)]
        impl<$($($g)*)?> $t {
            $crate::math::elementary::with_unary_table! { [$crate::math::interop::inherent_math] @table }
            $crate::math::elementary::with_method_list! { [$crate::math::interop::inherent_math] @list }
            /// `Real::classify` (of the value).
            #[inline]
            pub fn classify(self) -> ::core::num::FpCategory {
                $crate::Real::classify(self)
            }
            /// `Real::mul_add`.
            #[inline]
            pub fn mul_add(self, a: impl Into<Self>, b: impl Into<Self>) -> Self {
                $crate::Real::mul_add(self, a, b)
            }
            /// `Real::powi`.
            #[inline]
            pub fn powi(self, n: i32) -> Self {
                $crate::Real::powi(self, n)
            }
            /// `Real::sin_cos`.
            #[inline]
            pub fn sin_cos(self) -> (Self, Self) {
                $crate::Real::sin_cos(self)
            }
            /// `Real::clamp`.
            #[inline]
            pub fn clamp(self, lo: impl Into<Self>, hi: impl Into<Self>) -> Self {
                $crate::Real::clamp(self, lo, hi)
            }
        }
    };
    (@table $( $(#[$doc:meta])* $name:ident [$k:ident] $fam:ident: |$x:ident, $v:ident| $value:expr, $deriv:expr; )*) => {
        $crate::math::interop::inherent_math!(@unary $($name)*);
    };
    (@list $($kind:ident $name:ident $fam:ident;)*) => {
        $($crate::math::interop::inherent_math!(@$kind $name);)*
    };
    (@flat $m:ident) => { $crate::math::interop::inherent_math!(@unary $m); };
    (@predicate $m:ident) => { $crate::math::interop::inherent_math!(@predicates $m); };
    (@binary_flat $m:ident) => { $crate::math::interop::inherent_math!(@binary $m); };
    (@unary $($m:ident)*) => {$(
        #[doc = concat!("`Real::", stringify!($m), "`.")]
        #[inline]
        pub fn $m(self) -> Self {
            $crate::Real::$m(self)
        }
    )*};
    (@binary $($m:ident)*) => {$(
        #[doc = concat!("`Real::", stringify!($m), "`.")]
        #[inline]
        pub fn $m(self, other: impl Into<Self>) -> Self {
            $crate::Real::$m(self, other)
        }
    )*};
    (@predicates $($m:ident)*) => {$(
        #[doc = concat!("`Real::", stringify!($m), "` (of the value).")]
        #[inline]
        pub fn $m(self) -> bool {
            $crate::Real::$m(self)
        }
    )*};
}
pub(crate) use inherent_math;

inherent_math!(Var);

#[cfg(test)]
mod tests {
    // Both traits in scope, as a user of num_traits and fazang has them: every call below
    // would be E0034 (ambiguous) without the inherent methods.
    #[allow(unused_imports)]
    use crate::Real;
    use crate::{nested, Var};
    #[allow(unused_imports)]
    use num_traits::{Float, Signed};

    #[test]
    fn method_calls_compile_and_record_with_real_and_float_in_scope() {
        let (v, g) = nested(|| {
            let x = Var::new(0.7);
            let y = x.sin() * x.exp()
                + x.powf(2.0)
                + x.powi(3)
                + x.abs()
                + x.max(0.1)
                + x.hypot(x)
                + x.mul_add(2.0, 1.0)
                + x.clamp(0.0, 1.0)
                + x.ln_1p()
                + x.sin_cos().1;
            y.grad();
            (y.val(), x.adj())
        });
        let x = 0.7_f64;
        let want = x.sin() * x.exp()
            + x * x
            + x.powi(3)
            + x
            + x
            + 2.0_f64.sqrt() * x
            + (2.0 * x + 1.0)
            + x
            + x.ln_1p()
            + x.cos();
        let dwant = x.cos() * x.exp()
            + x.sin() * x.exp()
            + 2.0 * x
            + 3.0 * x * x
            + 1.0
            + 1.0
            + 2.0_f64.sqrt()
            + 2.0
            + 1.0
            + 1.0 / (1.0 + x)
            - x.sin();
        assert!((v - want).abs() < 1e-14, "{v} {want}");
        assert!((g - dwant).abs() < 1e-13, "{g} {dwant}");
    }

    #[test]
    fn clamp_takes_active_bounds() {
        let (v, g) = nested(|| {
            let (x, lo) = (Var::new(-1.0), Var::new(0.25));
            let y = x.clamp(lo, 1.0);
            y.grad();
            (y.val(), [x.adj(), lo.adj()])
        });
        assert_eq!((v, g), (0.25, [0.0, 1.0]));
    }

    #[test]
    #[should_panic(expected = "needs lo <= hi")]
    fn clamp_refuses_crossed_bounds() {
        let _ = Var::constant(0.5).clamp(1.0, 0.0);
    }
}
