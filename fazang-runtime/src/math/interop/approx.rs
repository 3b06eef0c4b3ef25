//! `approx`'s [`AbsDiffEq`], [`RelativeEq`] and [`UlpsEq`] for [`Var`] and the
//! forward-mode numbers, which compare values, as the comparison operators do.
//!
//! Between two `Var`s the tolerance is a `Var` (`Epsilon = Var`, as nalgebra's
//! `RealField` requires): `assert_abs_diff_eq!(x, y, epsilon = Var::from(1e-9))`. Between a
//! `Var` and an `f64` it is an `f64`. The forward numbers compare with themselves, with
//! a tolerance of their own type.

use crate::forward::{Dual, Fwd, Jet, JetDyn, Tangent, Taylor};
use crate::tape::var::Var;
use crate::Real;
use approx::{AbsDiffEq, RelativeEq, UlpsEq};

/// `approx`'s comparisons between `$a` and `$b`, on their values, exactly as on `f64`.
macro_rules! approx_by_value {
    ($($(#[$doc:meta])* $(@generic [$($g:tt)*])? $a:ty, $b:ty, $e:ty;)*) => {$(
        /// Compares values with an absolute tolerance, as `f64` does.
        $(#[$doc])*
        impl<$($($g)*)?> AbsDiffEq<$b> for $a {
            type Epsilon = $e;

            /// `f64::EPSILON`, as for `f64`.
            #[inline]
            fn default_epsilon() -> $e {
                f64::EPSILON.into()
            }

            /// `|self - other| <= epsilon` on the values.
            #[inline]
            fn abs_diff_eq(&self, other: &$b, epsilon: $e) -> bool {
                f64::abs_diff_eq(&Real::val(self), &Real::val(other), Real::val(&epsilon))
            }
        }

        /// Compares values with a relative tolerance, as `f64` does.
        impl<$($($g)*)?> RelativeEq<$b> for $a {
            /// `f64::EPSILON`, as for `f64`.
            #[inline]
            fn default_max_relative() -> $e {
                f64::EPSILON.into()
            }

            /// `f64`'s relative comparison of the values.
            #[inline]
            fn relative_eq(&self, other: &$b, epsilon: $e, max_relative: $e) -> bool {
                f64::relative_eq(
                    &Real::val(self),
                    &Real::val(other),
                    Real::val(&epsilon),
                    Real::val(&max_relative),
                )
            }
        }

        /// Compares values in units in the last place, as `f64` does.
        impl<$($($g)*)?> UlpsEq<$b> for $a {
            /// 4, as for `f64`.
            #[inline]
            fn default_max_ulps() -> u32 {
                4
            }

            /// `f64`'s ULPs comparison of the values.
            #[inline]
            fn ulps_eq(&self, other: &$b, epsilon: $e, max_ulps: u32) -> bool {
                f64::ulps_eq(&Real::val(self), &Real::val(other), Real::val(&epsilon), max_ulps)
            }
        }
    )*};
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
    /// assert_abs_diff_eq!(y, 0.31, epsilon = 0.02);
    /// assert_abs_diff_eq!(y, Var::new(0.31), epsilon = Var::from(0.02));
    /// assert_ulps_eq!(y, 0.3, max_ulps = 1);
    /// # fazang::clear_tape();
    /// ```
    Var, Var, Var;
    Var, f64, f64;
    f64, Var, f64;
    @generic [S: Real, T: Tangent<S>] Dual<S, T>, Dual<S, T>, Dual<S, T>;
    @generic [const K: usize] Taylor<K>, Taylor<K>, Taylor<K>;
    @generic [const N: usize, const M: usize, const L: usize] Jet<N, M, L>, Jet<N, M, L>, Jet<N, M, L>;
    JetDyn, JetDyn, JetDyn;
    Fwd, Fwd, Fwd;
    @generic [M: crate::sparse::probe::Mode] crate::sparse::probe::Probe<M>, crate::sparse::probe::Probe<M>, crate::sparse::probe::Probe<M>;
    crate::sparse::fwdrev::FwdRev, crate::sparse::fwdrev::FwdRev, crate::sparse::fwdrev::FwdRev;
}

#[cfg(test)]
mod tests {
    use super::*;

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
            let veps = Var::constant(eps);
            assert_eq!(va.abs_diff_eq(&vb, veps), a.abs_diff_eq(&b, eps));
            assert_eq!(va.abs_diff_eq(&b, eps), a.abs_diff_eq(&b, eps));
            assert_eq!(a.abs_diff_eq(&vb, eps), a.abs_diff_eq(&b, eps));
            let rel = Var::constant(1e-9);
            assert_eq!(va.relative_eq(&vb, veps, rel), a.relative_eq(&b, eps, 1e-9));
            assert_eq!(va.relative_eq(&b, eps, 1e-9), a.relative_eq(&b, eps, 1e-9));
            assert_eq!(
                va.ulps_eq(&vb, Var::constant(0.0), 4),
                a.ulps_eq(&b, 0.0, 4)
            );
            assert_eq!(b.ulps_eq(&va, 0.0, 4), b.ulps_eq(&a, 0.0, 4));
        }
        assert!(Var::constant(0.1 + 0.2).relative_eq(&0.3, 0.0, f64::EPSILON));
        assert!(!Var::constant(0.1 + 0.2).abs_diff_eq(&0.3, 0.0));
        assert!(!Var::constant(2.0).relative_eq(&3.0, 0.1, 0.1));
        assert_eq!(<Var as AbsDiffEq>::default_epsilon(), f64::EPSILON);
        assert_eq!(<Var as AbsDiffEq<f64>>::default_epsilon(), f64::EPSILON);
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
