//! `num_traits` for fazang's scalars: `Zero`, `One`, `Num`, `NumCast`, `ToPrimitive`,
//! `FromPrimitive`, `Signed`, `Float` and `FloatConst`, written once by
//! [`num_traits_for!`] for any type that implements [`Real`](crate::Real) and `%`.
//!
//! Every math method forwards to the `Real` method of the same name, so its derivative is
//! the one defined in [`math::elementary`](crate::math::elementary). The one `Float`
//! method `Real` lacks, `abs_sub`, is a selection between `x - y` and 0, so it needs no
//! derivative of its own. Constants
//! (`Float::nan()`, `FloatConst::PI()`, `FromPrimitive`, `NumCast`) record nothing.
//!
//! Conversions to primitives (`ToPrimitive`, `NumCast::from` of an active value,
//! `Float::integer_decode`, `classify`) read the value, as `x.val()` does: the result is a
//! plain number without derivative.

use crate::tape::var::Var;

/// Implements the `num_traits` traits for a scalar type `$t` that implements
/// [`Real`](crate::Real), `Rem<Output = $t>` and `RemAssign` (an optional `[generics]`
/// prefix gives the impl's generic parameters, for forward-mode types:
/// `num_traits_for!(@generic [S: Real, T: Tangent<S>] Dual<S, T>)`; the `@generic`
/// marker, which cannot start a type, keeps the bracket from being read as one).
macro_rules! num_traits_for {
    ($(@generic [$($g:tt)*])? $t:ty) => {
        impl<$($($g)*)?> ::num_traits::Zero for $t {
            /// The constant 0 (records nothing).
            #[inline]
            fn zero() -> Self {
                <Self as ::core::convert::From<f64>>::from(0.0)
            }
            /// Whether the value is zero (`-0.0` included).
            #[inline]
            fn is_zero(&self) -> bool {
                $crate::Real::val(self) == 0.0
            }
        }

        impl<$($($g)*)?> ::num_traits::One for $t {
            /// The constant 1 (records nothing).
            #[inline]
            fn one() -> Self {
                <Self as ::core::convert::From<f64>>::from(1.0)
            }
            /// Whether the value is one.
            #[inline]
            fn is_one(&self) -> bool {
                $crate::Real::val(self) == 1.0
            }
        }

        impl<$($($g)*)?> ::num_traits::Num for $t {
            type FromStrRadixErr = ::num_traits::ParseFloatError;
            /// Parses an `f64` (as `f64::from_str_radix`) into a constant.
            fn from_str_radix(s: &str, radix: u32) -> Result<Self, Self::FromStrRadixErr> {
                <f64 as ::num_traits::Num>::from_str_radix(s, radix).map(Self::from)
            }
        }

        impl<$($($g)*)?> ::num_traits::ToPrimitive for $t {
            $crate::math::interop::num_traits_for!(@to $t;
                to_isize isize, to_i8 i8, to_i16 i16, to_i32 i32, to_i64 i64, to_i128 i128,
                to_usize usize, to_u8 u8, to_u16 u16, to_u32 u32, to_u64 u64, to_u128 u128,
                to_f32 f32, to_f64 f64);
        }

        impl<$($($g)*)?> ::num_traits::FromPrimitive for $t {
            $crate::math::interop::num_traits_for!(@from $t;
                from_isize isize, from_i8 i8, from_i16 i16, from_i32 i32, from_i64 i64,
                from_i128 i128, from_usize usize, from_u8 u8, from_u16 u16, from_u32 u32,
                from_u64 u64, from_u128 u128, from_f32 f32, from_f64 f64);
        }

        impl<$($($g)*)?> ::num_traits::NumCast for $t {
            /// A constant with the number's value as `f64` (an active value passed in
            /// gives its value only, as `ToPrimitive` does).
            #[inline]
            fn from<__FzN: ::num_traits::ToPrimitive>(n: __FzN) -> Option<Self> {
                n.to_f64().map(<Self as ::core::convert::From<f64>>::from)
            }
        }

        impl<$($($g)*)?> ::num_traits::Signed for $t {
            /// `Real::abs` (derivative sign x, 0 at 0).
            #[inline]
            fn abs(&self) -> Self {
                $crate::Real::abs(*self)
            }
            /// `x - y` where `x > y`, else 0 (derivatives 1, -1 or 0, 0).
            #[inline]
            fn abs_sub(&self, other: &Self) -> Self {
                <Self as ::num_traits::Float>::abs_sub(*self, *other)
            }
            /// `Real::signum` (derivative 0).
            #[inline]
            fn signum(&self) -> Self {
                $crate::Real::signum(*self)
            }
            /// Whether the value is > 0 (as for `f64`: `+0.0` counts).
            #[inline]
            fn is_positive(&self) -> bool {
                ::num_traits::Signed::is_positive(&$crate::Real::val(self))
            }
            /// Whether the value is < 0 (as for `f64`: `-0.0` counts).
            #[inline]
            fn is_negative(&self) -> bool {
                ::num_traits::Signed::is_negative(&$crate::Real::val(self))
            }
        }

        impl<$($($g)*)?> ::num_traits::FloatConst for $t {
            $crate::math::interop::num_traits_for!(@consts E, FRAC_1_PI, FRAC_1_SQRT_2, FRAC_2_PI,
                FRAC_2_SQRT_PI, FRAC_PI_2, FRAC_PI_3, FRAC_PI_4, FRAC_PI_6, FRAC_PI_8, LN_10,
                LN_2, LOG10_E, LOG2_E, PI, SQRT_2, TAU, LOG10_2, LOG2_10);
        }

        impl<$($($g)*)?> ::num_traits::Float for $t {
            $crate::math::interop::num_traits_for!(@const_fns
                nan NAN, infinity INFINITY, neg_infinity NEG_INFINITY, min_value MIN,
                min_positive_value MIN_POSITIVE, max_value MAX, epsilon EPSILON);
            /// `-0.0` (a constant).
            #[inline]
            fn neg_zero() -> Self {
                Self::from(-0.0)
            }
            $crate::math::elementary::with_unary_table! { [$crate::math::interop::num_traits_for] @table }
            $crate::math::elementary::with_method_list! { [$crate::math::interop::num_traits_for] @list }
            /// `Real::mul_add`.
            #[inline]
            fn mul_add(self, a: Self, b: Self) -> Self {
                $crate::Real::mul_add(self, a, b)
            }
            /// `Real::powi`.
            #[inline]
            fn powi(self, n: i32) -> Self {
                $crate::Real::powi(self, n)
            }
            /// `Real::sin_cos`.
            #[inline]
            fn sin_cos(self) -> (Self, Self) {
                $crate::Real::sin_cos(self)
            }
            /// `Real::clamp`: the derivative goes to the value chosen.
            #[inline]
            fn clamp(self, lo: Self, hi: Self) -> Self {
                $crate::Real::clamp(self, lo, hi)
            }
            /// `x - y` where `x > y`, else 0 (NaN if either is NaN, as `f64`).
            #[inline]
            fn abs_sub(self, other: Self) -> Self {
                if $crate::Real::val(&self) <= $crate::Real::val(&other) {
                    Self::from(0.0)
                } else {
                    self - other
                }
            }
            /// `Real::classify` (of the value).
            #[inline]
            fn classify(self) -> ::core::num::FpCategory {
                $crate::Real::classify(self)
            }
            /// Mantissa, exponent and sign of the value.
            #[inline]
            fn integer_decode(self) -> (u64, i16, i8) {
                ::num_traits::Float::integer_decode($crate::Real::val(&self))
            }
        }
    };
    // `Float`'s methods among the table's rows and `with_method_list!`'s methods: those
    // of the families `std` and `float` (unary) and `std` and `real` (binary).
    (@table $( $(#[$doc:meta])* $name:ident [$k:ident] $fam:ident: |$x:ident, $v:ident| $value:expr, $deriv:expr; )*) => {
        $($crate::math::interop::num_traits_for!(@unary_in $fam $name);)*
    };
    (@list $($kind:ident $name:ident $fam:ident;)*) => {
        $($crate::math::interop::num_traits_for!(@$kind $fam $name);)*
    };
    (@flat $fam:ident $m:ident) => { $crate::math::interop::num_traits_for!(@unary_in $fam $m); };
    (@binary $fam:ident $m:ident) => { $crate::math::interop::num_traits_for!(@binary_in $fam $m); };
    (@binary_flat $fam:ident $m:ident) => { $crate::math::interop::num_traits_for!(@binary_in $fam $m); };
    (@predicate $fam:ident $m:ident) => { $crate::math::interop::num_traits_for!(@predicates $m); };
    (@unary_in std $m:ident) => { $crate::math::interop::num_traits_for!(@unary $m); };
    (@unary_in float $m:ident) => { $crate::math::interop::num_traits_for!(@unary $m); };
    (@unary_in $other:ident $m:ident) => {};
    (@binary_in std $m:ident) => { $crate::math::interop::num_traits_for!(@binary $m); };
    (@binary_in real $m:ident) => { $crate::math::interop::num_traits_for!(@binary $m); };
    (@binary_in $other:ident $m:ident) => {};
    (@to $t:ty; $($m:ident $p:ty),*) => {$(
        /// The value, converted as `f64` converts.
        #[inline]
        fn $m(&self) -> Option<$p> {
            ::num_traits::ToPrimitive::$m(&$crate::Real::val(self))
        }
    )*};
    (@from $t:ty; $($m:ident $p:ty),*) => {$(
        /// A constant, converted as `f64` converts.
        #[inline]
        fn $m(n: $p) -> Option<Self> {
            <f64 as ::num_traits::FromPrimitive>::$m(n).map(Self::from)
        }
    )*};
    (@consts $($c:ident),*) => {$(
        /// `f64`'s constant (records nothing).
        #[inline]
        fn $c() -> Self {
            Self::from(<f64 as ::num_traits::FloatConst>::$c())
        }
    )*};
    (@const_fns $($m:ident $c:ident),*) => {$(
        #[doc = concat!("`f64::", stringify!($c), "` (a constant).")]
        #[inline]
        fn $m() -> Self {
            Self::from(f64::$c)
        }
    )*};
    (@unary $($m:ident)*) => {$(
        #[doc = concat!("`Real::", stringify!($m), "`.")]
        #[inline]
        fn $m(self) -> Self {
            $crate::Real::$m(self)
        }
    )*};
    (@binary $($m:ident)*) => {$(
        #[doc = concat!("`Real::", stringify!($m), "`.")]
        #[inline]
        fn $m(self, other: Self) -> Self {
            $crate::Real::$m(self, other)
        }
    )*};
    (@predicates $($m:ident)*) => {$(
        #[doc = concat!("`Real::", stringify!($m), "` (of the value).")]
        #[inline]
        fn $m(self) -> bool {
            $crate::Real::$m(self)
        }
    )*};
}
pub(crate) use num_traits_for;

num_traits_for!(Var);

#[cfg(test)]
mod tests {
    use crate::tape::scope::nested;
    use crate::Var;
    use num_traits::{
        Float, FloatConst, FromPrimitive, Num, NumCast, One, Signed, ToPrimitive, Zero,
    };

    /// Value and derivative of `f` at `x`, on a nested scope.
    fn d(f: impl Fn(Var) -> Var, x: f64) -> (f64, f64) {
        nested(|| {
            let v = Var::new(x);
            let y = f(v);
            y.grad();
            (y.val(), v.adj())
        })
    }

    #[test]
    fn zero_and_one_are_constants_with_the_right_values() {
        let before = crate::tape_stats();
        assert_eq!((Var::zero().val(), Var::one().val()), (0.0, 1.0));
        assert!(Var::zero().is_constant() && Var::one().is_constant());
        assert_eq!(crate::tape_stats(), before, "they record nothing");
        assert!(Var::constant(-0.0).is_zero());
        assert!(!Var::constant(1.0 + f64::EPSILON).is_one());
        assert!(Var::constant(1.0).is_one() && !Var::constant(1.0).is_zero());
    }

    #[test]
    fn constants_and_conversions_record_nothing() {
        let before = crate::tape_stats();
        let cs = [
            <Var as Float>::nan(),
            Var::infinity(),
            Var::neg_infinity(),
            Var::neg_zero(),
            <Var as Float>::min_value(),
            Var::min_positive_value(),
            <Var as Float>::max_value(),
            <Var as Float>::epsilon(),
            Var::PI(),
            Var::TAU(),
            Var::LOG2_10(),
            <Var as NumCast>::from(3_u8).unwrap(),
            Var::from_i64(-7).unwrap(),
            Var::from_str_radix("1.5", 10).unwrap(),
        ];
        assert!(cs.iter().all(Var::is_constant));
        assert_eq!(crate::tape_stats(), before);
        assert!(cs[0].is_nan() && cs[1].is_infinite() && cs[3].is_sign_negative());
        assert_eq!(cs[4].val(), f64::MIN);
        assert_eq!(cs[8].val(), std::f64::consts::PI);
        assert_eq!(cs[9].val(), std::f64::consts::TAU);
        assert_eq!((cs[11].val(), cs[12].val(), cs[13].val()), (3.0, -7.0, 1.5));
        assert!(Var::from_str_radix("x", 10).is_err());
    }

    #[test]
    fn to_primitive_reads_the_value_as_f64_converts() {
        let x = Var::constant(-3.7);
        assert_eq!(x.to_i32(), (-3.7_f64).to_i32());
        assert_eq!(x.to_u32(), None);
        assert_eq!(x.to_f32(), Some(-3.7_f32));
        assert_eq!(Var::constant(300.0).to_u8(), None);
        let y = Var::constant(2.5);
        assert_eq!(y.integer_decode(), 2.5_f64.integer_decode());
        assert_eq!(y.classify(), std::num::FpCategory::Normal);
        assert!(Var::constant(1e-310).is_subnormal() && !Var::constant(1e-310).is_normal());
    }

    #[test]
    fn float_methods_without_a_real_counterpart_have_correct_derivatives() {
        // to_degrees/to_radians: linear.
        assert_eq!(
            d(Float::to_degrees, 1.0),
            (1.0_f64.to_degrees(), 180.0 / std::f64::consts::PI)
        );
        assert_eq!(
            d(Float::to_radians, 90.0),
            (90.0_f64.to_radians(), std::f64::consts::PI / 180.0)
        );
        // copysign: ±1 for x, 0 for the sign.
        assert_eq!(d(|x| x.copysign(Var::constant(-2.0)), 3.0), (-3.0, -1.0));
        assert_eq!(d(|x| x.copysign(Var::constant(2.0)), 3.0), (3.0, 1.0));
        assert_eq!(d(|s| Var::constant(3.0).copysign(s), -1.0), (-3.0, 0.0));
        // abs_sub: max(x - y, 0).
        assert_eq!(
            d(|x| Float::abs_sub(x, Var::constant(1.0)), 3.0),
            (2.0, 1.0)
        );
        assert_eq!(
            d(|x| Float::abs_sub(x, Var::constant(5.0)), 3.0),
            (0.0, 0.0)
        );
        assert_eq!(
            d(|y| Float::abs_sub(Var::constant(5.0), y), 3.0),
            (2.0, -1.0)
        );
        assert_eq!(
            d(|x| Signed::abs_sub(&x, &Var::constant(1.0)), 3.0),
            (2.0, 1.0)
        );
        // clamp with active bounds: the derivative follows the value chosen.
        assert_eq!(
            d(
                |x| Float::clamp(x, Var::constant(0.0), Var::constant(1.0)),
                0.5
            ),
            (0.5, 1.0)
        );
        assert_eq!(
            d(
                |lo| Float::clamp(Var::constant(-1.0), lo, Var::constant(1.0)),
                0.2
            ),
            (0.2, 1.0)
        );
        assert_eq!(
            d(
                |hi| Float::clamp(Var::constant(2.0), Var::constant(0.0), hi),
                1.5
            ),
            (1.5, 1.0)
        );
        assert!(Float::clamp(Var::constant(f64::NAN), Var::zero(), Var::one()).is_nan());
    }

    #[test]
    fn signed_reads_and_records_like_f64() {
        assert_eq!(d(|x| Signed::abs(&x), -2.0), (2.0, -1.0));
        assert_eq!(d(|x| Signed::signum(&x), -2.0), (-1.0, 0.0));
        assert!(Var::constant(0.0).is_positive() == Signed::is_positive(&0.0_f64));
        assert!(Var::constant(-0.0).is_negative() == Signed::is_negative(&-0.0_f64));
    }

    #[test]
    fn num_traits_code_runs_on_the_tape() {
        // A generic sum of squares written against num_traits only.
        fn sum_sq<T: Zero + Copy + std::ops::Mul<Output = T>>(x: &[T]) -> T {
            x.iter().fold(T::zero(), |acc, &v| acc + v * v)
        }
        let (v, g) = nested(|| {
            let xs = [Var::new(3.0), Var::new(-4.0)];
            let y = sum_sq(&xs);
            y.grad();
            (y.val(), [xs[0].adj(), xs[1].adj()])
        });
        assert_eq!((v, g), (25.0, [6.0, -8.0]));
    }
}
