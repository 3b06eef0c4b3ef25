//! fazang's scalars as nalgebra scalars: simba's [`ComplexField`] and [`RealField`]
//! (feature `nalgebra`) for [`Var`] and every forward-mode number ([`Dual`], [`Taylor`],
//! [`Jet`], [`JetDyn`], [`Fwd`]), so `DMatrix<Var>` and `SMatrix<Dual<f64>, R, C>` have
//! nalgebra's whole API, decompositions included (Cholesky, LU, QR, SVD, solves,
//! determinants), and a `#[differentiate]` body may call it on its own scalar (`_jvp`,
//! `_hessian` and `_hvp` run such bodies on the forward numbers). On `Var` each scalar
//! operation is recorded on the tape.
//!
//! Every math method forwards to [`Real`], so derivatives are those of
//! [`math::elementary`](crate::math::elementary). Conversions down to `f64`/`f32`
//! (`SubsetOf`, as in `nalgebra::try_convert`) read the value, like `x.val()`.
//!
//! For the operations models use most, [`linalg`](crate::linalg) records one node with an
//! analytic adjoint instead, which is much faster than taping them scalar by scalar.
//!
//! ```
//! use fazang::prelude::*;
//! use nalgebra::{DMatrix, DVector};
//! // d/dA of ln det A = A^-T, through nalgebra's LU on Var.
//! let a = [4.0, 1.0, 2.0, 3.0];
//! let (v, g) = gradient(|x| DMatrix::from_column_slice(2, 2, x).determinant().ln(), &a);
//! let det: f64 = 4.0 * 3.0 - 2.0 * 1.0;
//! assert!((v - det.ln()).abs() < 1e-15);
//! // A^-T in column-major order: [3, -2, -1, 4] / det
//! let want = [3.0 / det, -2.0 / det, -1.0 / det, 4.0 / det];
//! assert!(g.iter().zip(want).all(|(g, w)| (g - w).abs() < 1e-15));
//! # let _ = DVector::<f64>::zeros(1);
//! ```
//!
//! The same on a forward number: the directional derivative of ln det along a direction.
//!
//! ```
//! use fazang::prelude::*;
//! use fazang::Dual;
//! use nalgebra::DMatrix;
//! let a = DMatrix::from_fn(2, 2, |i, j| Dual::<f64>::new([4.0, 2.0, 1.0, 3.0][i + 2 * j], [1.0, 0.0, 0.0, 0.0][i + 2 * j]));
//! // d ln det / dA₀₀ = (A⁻ᵀ)₀₀ = 3 / 10
//! assert!((a.determinant().ln().eps - 0.3).abs() < 1e-15);
//! ```

use crate::forward::{Dual, Fwd, Jet, JetDyn, Tangent, Taylor};
use crate::math::elementary::{with_method_list, with_unary_table};
use crate::tape::var::Var;
use crate::Real;
use simba::scalar::{ComplexField, Field, RealField, SubsetOf};
use simba::simd::SimdValue;

/// Forward simba methods to `Real`'s of the same name: `ComplexField`'s are the table's
/// rows and `with_method_list!`'s methods of family `std`, `RealField`'s the binary
/// methods of family `real`.
macro_rules! forward {
    (complex_table $( $(#[$doc:meta])* $name:ident [$k:ident] $fam:ident: |$x:ident, $v:ident| $value:expr, $deriv:expr; )*) => {
        $(forward!(unary_in $fam $name);)*
    };
    (complex_list $($kind:ident $name:ident $fam:ident;)*) => {
        $(forward!(complex_in $kind $fam $name);)*
    };
    (real_list $($kind:ident $name:ident $fam:ident;)*) => {
        $(forward!(real_in $kind $fam $name);)*
    };
    (complex_in flat std $m:ident) => { forward!(unary $m); };
    (complex_in binary std $m:ident) => { forward!(binary $m); };
    (complex_in $kind:ident $fam:ident $m:ident) => {};
    (real_in binary real $m:ident) => { forward!(binary $m); };
    (real_in $kind:ident $fam:ident $m:ident) => {};
    (unary_in std $m:ident) => { forward!(unary $m); };
    (unary_in $other:ident $m:ident) => {};
    (unary $($m:ident)*) => {$(
        #[inline]
        fn $m(self) -> Self {
            Real::$m(self)
        }
    )*};
    (binary $($m:ident)*) => {$(
        #[inline]
        fn $m(self, other: Self) -> Self {
            Real::$m(self, other)
        }
    )*};
    (consts $($m:ident $c:ident),*) => {$(
        #[inline]
        fn $m() -> Self {
            constant(std::f64::consts::$c)
        }
    )*};
}

/// A constant of scalar `T` (records nothing).
#[inline(always)]
fn constant<T: From<f64>>(v: f64) -> T {
    T::from(v)
}

/// simba's `SimdValue` (one lane), `Field`, `SubsetOf` (itself, and `f64`/`f32` as
/// constants; the way back reads the value), `ComplexField` and `RealField` for a scalar
/// type `$t` that implements [`Real`] (`[generics]` as for `num_traits_for!`).
macro_rules! real_field_for {
    ($(@generic [$($g:tt)*])? $t:ty) => {
        impl<$($($g)*)?> SimdValue for $t {
            const LANES: usize = 1;
            type Element = Self;
            type SimdBool = bool;

            #[inline(always)]
            fn splat(val: Self) -> Self {
                val
            }
            #[inline(always)]
            fn extract(&self, _: usize) -> Self {
                *self
            }
            // SAFETY: nothing unsafe happens here; simba declares these methods `unsafe`
            // (callers promise `i < LANES`), and a one-lane scalar ignores the index.
            #[allow(unsafe_code)]
            #[inline(always)]
            unsafe fn extract_unchecked(&self, _: usize) -> Self {
                *self
            }
            #[inline(always)]
            fn replace(&mut self, _: usize, val: Self) {
                *self = val
            }
            // SAFETY: as `extract_unchecked`: a plain assignment, whatever the index.
            #[allow(unsafe_code)]
            #[inline(always)]
            unsafe fn replace_unchecked(&mut self, _: usize, val: Self) {
                *self = val
            }
            #[inline(always)]
            fn select(self, cond: bool, other: Self) -> Self {
                if cond {
                    self
                } else {
                    other
                }
            }
        }

        impl<$($($g)*)?> Field for $t {}

        impl<$($($g)*)?> SubsetOf<$t> for $t {
            #[inline]
            fn to_superset(&self) -> Self {
                *self
            }
            #[inline]
            fn from_superset_unchecked(element: &Self) -> Self {
                *element
            }
            #[inline]
            fn is_in_subset(_: &Self) -> bool {
                true
            }
        }

        real_field_for!(@subset [$($($g)*)?] $t; f64);
        real_field_for!(@subset [$($($g)*)?] $t; f32);

        impl<$($($g)*)?> ComplexField for $t {
            type RealField = Self;

            with_unary_table!([forward] complex_table);
            with_method_list!([forward] complex_list);

            #[inline]
            fn from_real(re: Self) -> Self {
                re
            }
            #[inline]
            fn real(self) -> Self {
                self
            }
            #[inline]
            fn imaginary(self) -> Self {
                constant(0.0)
            }
            #[inline]
            fn modulus(self) -> Self {
                Real::abs(self)
            }
            #[inline]
            fn modulus_squared(self) -> Self {
                self * self
            }
            #[inline]
            fn argument(self) -> Self {
                constant(if Real::val(&self) >= 0.0 {
                    0.0
                } else {
                    std::f64::consts::PI
                })
            }
            #[inline]
            fn norm1(self) -> Self {
                Real::abs(self)
            }
            #[inline]
            fn scale(self, factor: Self) -> Self {
                self * factor
            }
            #[inline]
            fn unscale(self, factor: Self) -> Self {
                self / factor
            }
            #[inline]
            fn to_exp(self) -> (Self, Self) {
                if Real::val(&self) >= 0.0 {
                    (self, constant(1.0))
                } else {
                    (-self, constant(-1.0))
                }
            }
            #[inline]
            fn mul_add(self, a: Self, b: Self) -> Self {
                Real::mul_add(self, a, b)
            }
            #[inline]
            fn conjugate(self) -> Self {
                self
            }
            #[inline]
            fn sin_cos(self) -> (Self, Self) {
                Real::sin_cos(self)
            }
            #[inline]
            fn powi(self, n: i32) -> Self {
                Real::powi(self, n)
            }
            #[inline]
            fn powc(self, n: Self) -> Self {
                Real::powf(self, n)
            }
            #[inline]
            fn is_finite(&self) -> bool {
                Real::val(self).is_finite()
            }
            #[inline]
            fn try_sqrt(self) -> Option<Self> {
                (Real::val(&self) >= 0.0).then(|| Real::sqrt(self))
            }
        }

        impl<$($($g)*)?> RealField for $t {
            with_method_list!([forward] real_list);
            forward!(consts pi PI, two_pi TAU, frac_pi_2 FRAC_PI_2, frac_pi_3 FRAC_PI_3,
                frac_pi_4 FRAC_PI_4, frac_pi_6 FRAC_PI_6, frac_pi_8 FRAC_PI_8,
                frac_1_pi FRAC_1_PI, frac_2_pi FRAC_2_PI, frac_2_sqrt_pi FRAC_2_SQRT_PI,
                e E, log2_e LOG2_E, log10_e LOG10_E, ln_2 LN_2, ln_10 LN_10);

            #[inline]
            fn is_sign_positive(&self) -> bool {
                Real::val(self).is_sign_positive()
            }
            #[inline]
            fn is_sign_negative(&self) -> bool {
                Real::val(self).is_sign_negative()
            }
            #[inline]
            fn clamp(self, min: Self, max: Self) -> Self {
                Real::clamp(self, min, max)
            }
            #[inline]
            fn min_value() -> Option<Self> {
                Some(constant(f64::MIN))
            }
            #[inline]
            fn max_value() -> Option<Self> {
                Some(constant(f64::MAX))
            }
        }
    };
    (@subset [$($g:tt)*] $t:ty; $f:ty) => {
        impl<$($g)*> SubsetOf<$t> for $f {
            #[inline]
            fn to_superset(&self) -> $t {
                constant(f64::from(*self))
            }
            #[inline]
            fn from_superset_unchecked(element: &$t) -> $f {
                Real::val(element) as $f
            }
            #[inline]
            fn is_in_subset(_: &$t) -> bool {
                true
            }
        }
    };
}

real_field_for!(Var);
real_field_for!(@generic [S: Real, T: Tangent<S>] Dual<S, T>);
real_field_for!(@generic [const K: usize] Taylor<K>);
real_field_for!(@generic [const N: usize, const M: usize, const L: usize] Jet<N, M, L>);
real_field_for!(JetDyn);
real_field_for!(Fwd);
// The sparse drivers' scalars run the same bodies.
real_field_for!(@generic [M: crate::sparse::probe::Mode] crate::sparse::probe::Probe<M>);
real_field_for!(crate::sparse::fwdrev::FwdRev);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simd_value_is_a_single_lane() {
        let mut x = Var::constant(1.5);
        assert_eq!(<Var as SimdValue>::LANES, 1);
        assert_eq!(Var::splat(Var::constant(2.0)).val(), 2.0);
        assert_eq!(x.extract(0).val(), 1.5);
        // SAFETY: index 0 < LANES.
        #[allow(unsafe_code)]
        let e = unsafe { x.extract_unchecked(0) };
        assert_eq!(e.val(), 1.5);
        x.replace(0, Var::constant(3.0));
        assert_eq!(x.val(), 3.0);
        // SAFETY: index 0 < LANES.
        #[allow(unsafe_code)]
        unsafe {
            x.replace_unchecked(0, Var::constant(4.0))
        };
        assert_eq!(x.val(), 4.0);
        assert_eq!(x.select(false, Var::constant(5.0)).val(), 5.0);
        assert_eq!(x.select(true, Var::constant(5.0)).val(), 4.0);
    }

    #[test]
    fn subsets_embed_constants_and_read_values() {
        let v: Var = 2.5_f64.to_superset();
        assert!(v.is_constant() && v.val() == 2.5);
        assert_eq!(
            <f32 as SubsetOf<Var>>::from_superset(&Var::constant(0.5)),
            Some(0.5_f32)
        );
        assert_eq!(<f64 as SubsetOf<Var>>::from_superset_unchecked(&v), 2.5);
    }

    #[test]
    fn complex_field_parts_of_a_real() {
        let x = Var::constant(-2.0);
        assert_eq!(ComplexField::imaginary(x).val(), 0.0);
        assert_eq!(ComplexField::argument(x).val(), std::f64::consts::PI);
        assert_eq!(ComplexField::modulus_squared(x).val(), 4.0);
        let (m, s) = ComplexField::to_exp(x);
        assert_eq!((m.val(), s.val()), (2.0, -1.0));
        assert_eq!(ComplexField::try_sqrt(x), None);
        assert_eq!(RealField::min_value().map(|v: Var| v.val()), Some(f64::MIN));
        assert_eq!(<Var as RealField>::two_pi().val(), std::f64::consts::TAU);
    }
}
