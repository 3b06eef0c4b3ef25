//! Traits of the numeric ecosystem for [`Var`]: `num_traits`' [`Zero`] and [`One`], and
//! `approx`'s [`AbsDiffEq`], [`RelativeEq`] and [`UlpsEq`] (which compare values, as the
//! comparison operators of `Var` do).
//!
//! `num_traits::Num` is not implemented: it needs the `%` operator and parsing from a
//! string in any radix, neither of which has a meaning worth recording on a tape.

use crate::core::var::Var;
use approx::{AbsDiffEq, RelativeEq, UlpsEq};
use num_traits::{One, Zero};

/// The constant 0, for generic code written against `num_traits`.
///
/// ```
/// # use fazang::prelude::*;
/// use num_traits::Zero;
/// let z = Var::zero();
/// assert!(z.is_zero() && z.is_constant());
/// assert!(!Var::new(1e-300).is_zero());
/// # fazang::clear_tape();
/// ```
impl Zero for Var {
    /// The constant 0 (records nothing).
    #[inline]
    fn zero() -> Var {
        Var::constant(0.0)
    }

    /// Whether the value is zero (`-0.0` included).
    #[inline]
    fn is_zero(&self) -> bool {
        self.val() == 0.0
    }
}

/// The constant 1, for generic code written against `num_traits`.
///
/// ```
/// # use fazang::prelude::*;
/// use num_traits::One;
/// let x = Var::new(3.0);
/// let y = x * Var::one();
/// y.grad();
/// assert!(Var::one().is_one());
/// assert_eq!((y.val(), x.adj()), (3.0, 1.0));
/// # fazang::clear_tape();
/// ```
impl One for Var {
    /// The constant 1 (records nothing).
    #[inline]
    fn one() -> Var {
        Var::constant(1.0)
    }

    /// Whether the value is one.
    #[inline]
    fn is_one(&self) -> bool {
        self.val() == 1.0
    }
}

/// `approx`'s comparisons between `$a` and `$b`, on their values, exactly as on `f64`.
macro_rules! approx_by_value {
    ($($(#[$doc:meta])* $a:ty, $b:ty;)*) => {$(
        /// Compares values with an absolute tolerance, as `f64` does.
        $(#[$doc])*
        impl AbsDiffEq<$b> for $a {
            type Epsilon = f64;

            /// `f64::EPSILON`, as for `f64`.
            #[inline]
            fn default_epsilon() -> f64 {
                f64::EPSILON
            }

            /// `|self - other| <= epsilon` on the values.
            #[inline]
            fn abs_diff_eq(&self, other: &$b, epsilon: f64) -> bool {
                f64::abs_diff_eq(&self.val(), &other.val(), epsilon)
            }
        }

        /// Compares values with a relative tolerance, as `f64` does.
        impl RelativeEq<$b> for $a {
            /// `f64::EPSILON`, as for `f64`.
            #[inline]
            fn default_max_relative() -> f64 {
                f64::EPSILON
            }

            /// `f64`'s relative comparison of the values.
            #[inline]
            fn relative_eq(&self, other: &$b, epsilon: f64, max_relative: f64) -> bool {
                f64::relative_eq(&self.val(), &other.val(), epsilon, max_relative)
            }
        }

        /// Compares values in units in the last place, as `f64` does.
        impl UlpsEq<$b> for $a {
            /// 4, as for `f64`.
            #[inline]
            fn default_max_ulps() -> u32 {
                4
            }

            /// `f64`'s ULPs comparison of the values.
            #[inline]
            fn ulps_eq(&self, other: &$b, epsilon: f64, max_ulps: u32) -> bool {
                f64::ulps_eq(&self.val(), &other.val(), epsilon, max_ulps)
            }
        }
    )*};
}

/// The value of a `Var` or an `f64`, for [`approx_by_value`].
trait Value {
    fn val(&self) -> f64;
}
impl Value for f64 {
    #[inline]
    fn val(&self) -> f64 {
        *self
    }
}
impl Value for Var {
    #[inline]
    fn val(&self) -> f64 {
        Var::val(self)
    }
}

approx_by_value! {
    ///
    /// `approx`'s assertions work on `Var`s and between `Var` and `f64`:
    ///
    /// ```
    /// # use fazang::prelude::*;
    /// use approx::{assert_abs_diff_eq, assert_relative_eq, assert_ulps_eq};
    /// let x = Var::new(0.1);
    /// let y = x + 0.2;
    /// assert_relative_eq!(y, 0.3);
    /// assert_relative_eq!(0.3, y);
    /// assert_abs_diff_eq!(y, Var::new(0.31), epsilon = 0.02);
    /// assert_ulps_eq!(y, 0.3, max_ulps = 1);
    /// # fazang::clear_tape();
    /// ```
    Var, Var;
    Var, f64;
    f64, Var;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::scope::nested;

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
    fn zero_and_one_serve_generic_num_traits_code() {
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

    #[test]
    fn approx_compares_values_like_f64() {
        let pairs = [
            (0.1 + 0.2, 0.3),
            (1.0, 1.0 + 1e-10),
            (1e-300, -1e-300),
            (2.0, 3.0),
        ];
        for (a, b) in pairs {
            let (va, vb) = (Var::constant(a), Var::constant(b));
            let eps = 1e-12;
            assert_eq!(va.abs_diff_eq(&vb, eps), a.abs_diff_eq(&b, eps));
            assert_eq!(va.abs_diff_eq(&b, eps), a.abs_diff_eq(&b, eps));
            assert_eq!(a.abs_diff_eq(&vb, eps), a.abs_diff_eq(&b, eps));
            assert_eq!(va.relative_eq(&vb, eps, 1e-9), a.relative_eq(&b, eps, 1e-9));
            assert_eq!(va.relative_eq(&b, eps, 1e-9), a.relative_eq(&b, eps, 1e-9));
            assert_eq!(va.ulps_eq(&vb, 0.0, 4), a.ulps_eq(&b, 0.0, 4));
            assert_eq!(b.ulps_eq(&va, 0.0, 4), b.ulps_eq(&a, 0.0, 4));
        }
        assert!(Var::constant(0.1 + 0.2).relative_eq(&0.3, 0.0, f64::EPSILON));
        assert!(!Var::constant(0.1 + 0.2).abs_diff_eq(&0.3, 0.0));
        assert!(!Var::constant(2.0).relative_eq(&3.0, 0.1, 0.1));
        assert_eq!(<Var as AbsDiffEq>::default_epsilon(), f64::EPSILON);
        assert_eq!(<Var as UlpsEq<f64>>::default_max_ulps(), 4);
    }

    #[test]
    fn approx_macros_accept_vars() {
        let x = Var::constant(0.1);
        approx::assert_relative_eq!(x + 0.2, 0.3);
        approx::assert_ulps_eq!(0.3, x + 0.2);
        approx::assert_abs_diff_ne!(x, Var::constant(0.2));
    }
}
