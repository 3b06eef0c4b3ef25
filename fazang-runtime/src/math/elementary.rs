//! Every elementary function, defined once: its value on `f64` and its derivative as an
//! expression generic over the scalar.
//!
//! The table (`with_unary_table!`) gives, per function, the value `v = f(x)` on `f64`
//! and the local derivative f'(x) in terms of `x` and `v`, written for any [`Real`] `T`.
//! Every number type is built from it:
//!
//! - `Real for f64` takes the value;
//! - `Real for Var` takes the value and records the derivative evaluated on `f64` (the
//!   first-order tape's fast path: the same code as a hand-written `f64` partial);
//! - dual numbers `Dual<S>` evaluate the derivative on `S`, so that a `Dual<Var>` or a
//!   `Dual<Dual<f64>>` differentiates it again (second and higher derivatives);
//! - truncated series (Taylor, Jet) and nested numbers evaluate it on themselves, one
//!   order lower.
//!
//! The marker `[x]` or `[v]` says whether the derivative needs the value `v` (the series
//! solve for such functions by a fixed-point iteration, see `forward::graded`).

use super::special;
use crate::Real;
use std::f64::consts::{FRAC_2_SQRT_PI, LN_10, LN_2};

/// Calls `$m!` with the table of unary functions, one row per function:
///
/// ```text
/// /// doc of the method (what it is, its derivative)
/// name [x|v] family: |x, v| value on f64, derivative generic over T: Real;
/// ```
///
/// Derivatives are written with the scalar on the left of every `f64` operand (`v * v +
/// 1.0`, not `1.0 + v * v`), since `f64 op T` is not available for every scalar.
///
/// The family says where else the function appears, so that one row writes all of it:
/// `std`, a method of `f64`, `num_traits::Float` and simba's `ComplexField`; `float`, of
/// `f64` and `Float` only; `fazang`, fazang's own (also a free function,
/// [`crate::math::functions`]). From the rows come: `Real`'s method (with the row's doc),
/// its value on `f64` and its recorded partial on `Var` (here), the derivative on every
/// other scalar (`forward`), the free function `__private::real::name` generated code
/// calls, the inherent method of every scalar type, the `Float` and `ComplexField`
/// methods, and the entry of `__private::ELEMENTARY`, the list the macros' catalogue is
/// checked against. Adding a function is adding a row (and the macros' catalogue entry).
///
/// `with_unary_table!(m)` calls `m! { rows }`; `with_unary_table!([path::to::m] tokens..)`
/// calls `path::to::m! { tokens.. rows }` (for macros that call it from their expansion).
macro_rules! with_unary_table {
    ($m:ident) => {
        $crate::math::elementary::with_unary_table! { [$m] }
    };
    ([$($m:tt)*] $($pre:tt)*) => {
        $($m)*! {
            $($pre)*
            /// Sine. d/dx = cos x.
            sin [x] std: |x, v| x.sin(), x.cos();
            /// Cosine. d/dx = -sin x.
            cos [x] std: |x, v| x.cos(), -x.sin();
            /// Tangent. d/dx = 1 + tan² x.
            tan [v] std: |x, v| x.tan(), v * v + 1.0;
            /// Arcsine. d/dx = 1/√(1-x²).
            asin [x] std: |x, v| x.asin(), ((-x + 1.0) * (x + 1.0)).sqrt().recip();
            /// Arccosine. d/dx = -1/√(1-x²).
            acos [x] std: |x, v| x.acos(), -((-x + 1.0) * (x + 1.0)).sqrt().recip();
            /// Arctangent. d/dx = 1/(1+x²).
            atan [x] std: |x, v| x.atan(), x.mul_add(x, 1.0).recip();
            /// Hyperbolic sine. d/dx = cosh x.
            sinh [x] std: |x, v| x.sinh(), x.cosh();
            /// Hyperbolic cosine. d/dx = sinh x.
            cosh [x] std: |x, v| x.cosh(), x.sinh();
            /// Hyperbolic tangent. d/dx = 1 - tanh² x.
            tanh [v] std: |x, v| x.tanh(), precise::sech2(x, v);
            /// Inverse hyperbolic sine. d/dx = 1/√(x²+1).
            asinh [x] std: |x, v| x.asinh(), x.hypot(1.0).recip();
            /// Inverse hyperbolic cosine. d/dx = 1/√((x-1)(x+1)).
            acosh [x] std: |x, v| x.acosh(), ((x - 1.0).sqrt() * (x + 1.0).sqrt()).recip();
            /// Inverse hyperbolic tangent. d/dx = 1/((1-x)(1+x)).
            atanh [x] std: |x, v| x.atanh(), ((-x + 1.0) * (x + 1.0)).recip();
            /// eˣ. d/dx = eˣ.
            exp [v] std: |x, v| x.exp(), v;
            /// 2ˣ. d/dx = 2ˣ ln 2.
            exp2 [v] std: |x, v| x.exp2(), v * LN_2;
            /// eˣ - 1, accurate near 0. d/dx = eˣ.
            exp_m1 [x] std: |x, v| x.exp_m1(), x.exp();
            /// Natural logarithm. d/dx = 1/x.
            ln [x] std: |x, v| x.ln(), x.recip();
            /// Base-10 logarithm. d/dx = 1/(x ln 10).
            log10 [x] std: |x, v| x.log10(), precise::inv_scaled(x, LN_10);
            /// Base-2 logarithm. d/dx = 1/(x ln 2).
            log2 [x] std: |x, v| x.log2(), precise::inv_scaled(x, LN_2);
            /// ln(1 + x), accurate near 0. d/dx = 1/(1+x).
            ln_1p [x] std: |x, v| x.ln_1p(), (x + 1.0).recip();
            /// Square root. d/dx = 1/(2√x).
            sqrt [v] std: |x, v| x.sqrt(), v.recip() * 0.5;
            /// Cube root. d/dx = 1/(3 ∛x²).
            cbrt [v] std: |x, v| x.cbrt(), (v * 3.0 * v).recip();
            /// Absolute value. d/dx = sign x, and 0 at x = 0.
            abs [x] std: |x, v| x.abs(), T::from(special::sign_or_zero(x.val()));
            /// 1/x. d/dx = -1/x².
            recip [v] std: |x, v| x.recip(), -v * v;
            /// Fractional part `x - trunc(x)`. d/dx = 1.
            fract [x] std: |x, v| x.fract(), T::from(1.0);
            /// Error function. d/dx = 2/√π e^(-x²).
            erf [x] fazang: |x, v| libm::erf(x), precise::exp_neg_square(x) * FRAC_2_SQRT_PI;
            /// Complementary error function 1 - erf x. d/dx = -2/√π e^(-x²).
            erfc [x] fazang: |x, v| libm::erfc(x), precise::exp_neg_square(x) * -FRAC_2_SQRT_PI;
            /// ln |Γ(x)|. d/dx = ψ(x), the digamma function.
            log_gamma [x] fazang: |x, v| libm::lgamma(x), x.digamma();
            /// The digamma function ψ(x) = d/dx ln Γ(x). d/dx = ψ′(x), the trigamma function.
            digamma [x] fazang: |x, v| special::digamma(x), x.__polygamma(1);
            /// x². d/dx = 2x.
            square [x] fazang: |x, v| x * x, x * 2.0;
            /// 1/x. d/dx = -1/x².
            inv [v] fazang: |x, v| 1.0 / x, -v * v;
            /// 1/x². d/dx = -2/x³.
            inv_square [v] fazang: |x, v| 1.0 / (x * x), v * -2.0 / x;
            /// 1/√x. d/dx = -1/(2 x^{3/2}).
            inv_sqrt [v] fazang: |x, v| 1.0 / x.sqrt(), v * -0.5 / x;
            /// ln(x/(1-x)). d/dx = 1/(x(1-x)).
            logit [x] fazang: |x, v| x.ln() - (-x).ln_1p(), (x * (-x + 1.0)).recip();
            /// 1/(1+e^(-x)), computed without overflow. d/dx = σ(x)(1-σ(x)).
            inv_logit [x] fazang: |x, v| special::inv_logit(x), precise::logistic_density(x);
            /// ln(1 + eˣ) (softplus), without overflow for large x and accurate for very negative
            /// x (Stan's `log1p_exp`). d/dx = 1/(1+e^(-x)), the [`inv_logit`](Real::inv_logit).
            log1p_exp [x] fazang: |x, v| special::log1p_exp(x), x.inv_logit();
            /// Converts radians to degrees. d/dx = 180/π.
            to_degrees [x] float: |x, v| x.to_degrees(), T::from(1f64.to_degrees());
            /// Converts degrees to radians. d/dx = π/180.
            to_radians [x] float: |x, v| x.to_radians(), T::from(1f64.to_radians());
        }
    };
}
pub(crate) use with_unary_table;

/// `with_method_list!([path::to::m] tokens..)` calls `path::to::m! { tokens.. rows }` with
/// the list of `Real`'s other methods that forwarding code writes by shape, one row per
/// method: `kind name family;`. (The rest, `powi mul_add clamp sin_cos classify total_cmp
/// val`, each have a signature of their own and are written out where they are
/// forwarded.) They are not rows of the table: their values and partials are written per
/// scalar type (`deriv2` holds their partials), and `Real` declares them with their docs.
///
/// Kinds: `flat`, unary and piecewise constant (derivative 0); `binary`, `fn(self, impl
/// Into<Self>) -> Self` with partials in `deriv2`; `binary_flat`, binary and piecewise
/// constant; `predicate`, `fn(self) -> bool` on the value. Families, as in the table:
/// `std` (also in `Float` and `ComplexField`), `real` (also in `Float` and simba's
/// `RealField`), `float` (also in `Float`), `own` (neither).
macro_rules! with_method_list {
    ([$($m:tt)*] $($pre:tt)*) => {
        $($m)*! {
            $($pre)*
            flat signum std; flat floor std; flat ceil std; flat round std; flat trunc std;
            flat round_ties_even own;
            binary atan2 real; binary log std; binary powf std; binary hypot std;
            binary min real; binary max real; binary copysign real; binary rem_euclid own;
            binary midpoint own; binary log_sum_exp own;
            binary_flat div_euclid own;
            predicate is_nan float; predicate is_infinite float; predicate is_finite float;
            predicate is_sign_positive float; predicate is_sign_negative float;
            predicate is_normal float; predicate is_subnormal float;
        }
    };
}
pub(crate) use with_method_list;

macro_rules! define_unary {
    ($( $(#[$doc:meta])* $name:ident [$k:ident] $fam:ident: |$x:ident, $v:ident| $value:expr, $deriv:expr; )*) => {
        /// Derivatives of the unary elementary functions, generic over the scalar:
        /// `name(x, v)` is f'(x) where `v = f(x)`.
        pub mod deriv {
            #[allow(unused_imports)]
            use super::*;
            $(
                #[doc = concat!("Derivative of `", stringify!($name), "` at `x`, given its value `v`.")]
                #[doc = ""]
                #[doc = "```"]
                #[doc = "use fazang::math::elementary::deriv;"]
                #[doc = concat!("// the partial `Var::", stringify!($name), "` records, here at x = 0.75")]
                #[doc = concat!("let (x, v) = (0.75_f64, fazang::Real::", stringify!($name), "(0.75_f64));")]
                #[doc = concat!("let g = fazang::gradient(|x| fazang::Real::", stringify!($name), "(x[0]), &[x]).1[0];")]
                #[doc = concat!("let d = deriv::", stringify!($name), "(x, v);")]
                #[doc = "assert!(d == g || d.is_nan() && g.is_nan()); // NaN outside the domain"]
                #[doc = "```"]
                #[inline]
                #[allow(unused_variables)]
                pub fn $name<T: Real>($x: T, $v: T) -> T {
                    $deriv
                }
            )*
        }

        /// Values of the unary elementary functions on `f64`.
        pub(crate) mod value {
            #[allow(unused_imports)]
            use super::*;
            $(
                #[inline]
                pub(crate) fn $name($x: f64) -> f64 {
                    $value
                }
            )*
        }
    };
}
with_unary_table!(define_unary);

/// The careful `f64` formulas of some derivatives (see `special`), written for any scalar:
/// the same operations on `f64`, and their exact counterparts on the other scalars (whose
/// derivatives are taken again), with branches chosen by value.
pub(crate) mod precise {
    use crate::Real;
    use std::any::TypeId;

    /// 1 - tanh² x given v = tanh x: (1 - v)(1 + v) near 0, 1/cosh² x further out, and
    /// 4u/(1 + u)² with u = e^(-2|x|) far out, where cosh x overflows: its derivative
    /// would then be inf/inf (NaN) on a dual number; u underflows to 0 with its tangent.
    #[inline]
    pub(crate) fn sech2<T: Real>(x: T, v: T) -> T {
        let a = x.val().abs();
        if a < 0.625 {
            (-v + 1.0) * (v + 1.0)
        } else if a < 20.0 {
            let s = x.cosh().recip();
            s * s
        } else {
            let u = (x.abs() * -2.0).exp();
            let d = u + 1.0;
            u * 4.0 / (d * d)
        }
    }

    /// 1/(x·c) without overflowing x·c.
    #[inline]
    pub(crate) fn inv_scaled<T: Real>(x: T, c: f64) -> T {
        if x.val().abs() > 1.0 {
            x.recip() / c
        } else {
            (x * c).recip()
        }
    }

    /// e^(-x²): with the exact split of x² on `f64`.
    #[inline]
    pub(crate) fn exp_neg_square<T: Real>(x: T) -> T {
        if TypeId::of::<T>() == TypeId::of::<f64>() {
            T::from(super::special::exp_neg_square(x.val()))
        } else {
            (-x * x).exp()
        }
    }

    /// σ(x)(1 - σ(x)) = e^(-|x|)/(1 + e^(-|x|))², accurate in both tails.
    #[inline]
    pub(crate) fn logistic_density<T: Real>(x: T) -> T {
        let e = (-x.abs()).exp();
        let d = e + 1.0;
        e / d / d
    }
}

pub mod deriv2;
mod f64_var;

pub(crate) use f64_var::release_buffers;
