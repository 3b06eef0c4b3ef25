//! Every elementary function, defined once: its value on `f64` and its derivative.
//!
//! The table below (`unary!`) gives, per function, the value `v = f(x)` and the local
//! derivative in terms of `x` and `v`. From it come `Real for f64` (the value) and
//! `Real for Var` (value plus one recorded partial); the [`deriv`] module exposes the
//! derivatives to other number types (forward mode).

use super::special;
use crate::core::capture::op;
use crate::core::pool::Pool;
use crate::core::var::{binary_named, nary_named, unary_named, Var};
use crate::real::Partials;
use crate::Real;
use std::f64::consts::{FRAC_2_SQRT_PI, LN_10, LN_2};

macro_rules! unary {
    ($( $name:ident: |$x:ident, $v:ident| $value:expr, $deriv:expr; )*) => {
        /// Derivatives of the unary elementary functions: `name(x, v)` is f'(x) where
        /// `v = f(x)`.
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
                pub fn $name($x: f64, $v: f64) -> f64 {
                    $deriv
                }
            )*
        }

        /// Values of the unary elementary functions on `f64`.
        mod value {
            #[allow(unused_imports)]
            use super::*;
            $(
                #[inline]
                pub(super) fn $name($x: f64) -> f64 {
                    $value
                }
            )*
        }

        macro_rules! impl_unary_f64 {
            () => {$(
                #[inline]
                fn $name(self) -> f64 {
                    value::$name(self)
                }
            )*};
        }

        macro_rules! impl_unary_var {
            () => {$(
                #[inline]
                fn $name(self) -> Var {
                    let x = self.val();
                    let v = value::$name(x);
                    if self.is_constant() {
                        return Var::constant(v);
                    }
                    unary_named(op!(stringify!($name)), v, self, deriv::$name(x, v))
                }
            )*};
        }
    };
}

unary! {
    sin: |x, v| x.sin(), x.cos();
    cos: |x, v| x.cos(), -x.sin();
    tan: |x, v| x.tan(), 1.0 + v * v;
    asin: |x, v| x.asin(), 1.0 / ((1.0 - x) * (1.0 + x)).sqrt();
    acos: |x, v| x.acos(), -1.0 / ((1.0 - x) * (1.0 + x)).sqrt();
    atan: |x, v| x.atan(), 1.0 / x.mul_add(x, 1.0);
    sinh: |x, v| x.sinh(), x.cosh();
    cosh: |x, v| x.cosh(), x.sinh();
    tanh: |x, v| x.tanh(), special::sech2(x, v);
    asinh: |x, v| x.asinh(), 1.0 / x.hypot(1.0);
    acosh: |x, v| x.acosh(), 1.0 / ((x - 1.0).sqrt() * (x + 1.0).sqrt());
    atanh: |x, v| x.atanh(), 1.0 / ((1.0 - x) * (1.0 + x));
    exp: |x, v| x.exp(), v;
    exp2: |x, v| x.exp2(), v * LN_2;
    exp_m1: |x, v| x.exp_m1(), x.exp();
    ln: |x, v| x.ln(), 1.0 / x;
    log10: |x, v| x.log10(), special::inv_scaled(x, LN_10);
    log2: |x, v| x.log2(), special::inv_scaled(x, LN_2);
    ln_1p: |x, v| x.ln_1p(), 1.0 / (1.0 + x);
    sqrt: |x, v| x.sqrt(), 0.5 / v;
    cbrt: |x, v| x.cbrt(), 1.0 / (3.0 * v * v);
    abs: |x, v| x.abs(), special::sign_or_zero(x);
    recip: |x, v| x.recip(), -v * v;
    fract: |x, v| x.fract(), 1.0;
    erf: |x, v| libm::erf(x), FRAC_2_SQRT_PI * special::exp_neg_square(x);
    erfc: |x, v| libm::erfc(x), -FRAC_2_SQRT_PI * special::exp_neg_square(x);
    log_gamma: |x, v| libm::lgamma(x), special::digamma(x);
    square: |x, v| x * x, 2.0 * x;
    inv: |x, v| 1.0 / x, -v * v;
    inv_square: |x, v| 1.0 / (x * x), -2.0 * v / x;
    inv_sqrt: |x, v| 1.0 / x.sqrt(), -0.5 * v / x;
    logit: |x, v| x.ln() - (-x).ln_1p(), 1.0 / (x * (1.0 - x));
    inv_logit: |x, v| special::inv_logit(x), special::logistic_density(x);
    log1p_exp: |x, v| special::log1p_exp(x), special::inv_logit(x);
    to_degrees: |x, v| x.to_degrees(), 1f64.to_degrees();
    to_radians: |x, v| x.to_radians(), 1f64.to_radians();
}

/// Partials of the binary functions: `(d/da, d/db)` of `f(a, b)` with value `v`.
pub mod deriv2 {
    /// `atan2(y, x)`: (x/r², -y/r²), (0, 0) at the origin; r = hypot(x, y), divided
    /// twice so that neither r² nor the quotients overflow or underflow needlessly.
    ///
    /// ```
    /// use fazang::math::elementary::deriv2;
    /// let (dy, dx) = deriv2::atan2(1.0, 1.0);
    /// assert!((dy - 0.5).abs() < 1e-15 && (dx + 0.5).abs() < 1e-15);
    /// assert_eq!(deriv2::atan2(0.0, 0.0), (0.0, 0.0));
    /// ```
    #[inline]
    pub fn atan2(y: f64, x: f64) -> (f64, f64) {
        let r = x.hypot(y);
        if r == 0.0 {
            (0.0, 0.0)
        } else {
            (x / r / r, -y / r / r)
        }
    }

    /// `a / b = q`: (1/b, -q/b), with the quotient already computed (never 0·∞: a NaN
    /// partial only where the value is NaN).
    ///
    /// ```
    /// use fazang::math::elementary::deriv2;
    /// assert_eq!(deriv2::div(2.0, 3.0), (0.5, -1.5)); // 6 / 2 = 3
    /// ```
    #[inline]
    pub fn div(b: f64, q: f64) -> (f64, f64) {
        (1.0 / b, -q / b)
    }

    /// `powf(x, y) = v`: (y x^(y-1), v ln x); each is 0 where its factor makes it 0
    /// (y = 0 for the first, v = 0 for the second) so no 0·∞ appears. At x = 0, where
    /// 0^y jumps at y = 0, the derivative in y is the one-sided 0 of y > 0 (not -∞, which
    /// times a zero adjoint would make NaN). x^(y-1) is v/x where that neither overflows
    /// nor underflows (`x.powf(y - 1)` would add the rounding of y - 1 times ln x: 70 ulp
    /// at x = 1e300, y = 1e-8).
    ///
    /// ```
    /// use fazang::math::elementary::deriv2;
    /// let (dx, dy) = deriv2::powf(2.0, 3.0, 8.0);
    /// assert_eq!((dx, dy), (12.0, 8.0 * 2.0_f64.ln()));
    /// ```
    #[inline]
    pub fn powf(x: f64, y: f64, v: f64) -> (f64, f64) {
        let q = v / x;
        let dx = if y == 0.0 {
            0.0
        } else if v.is_normal() && q.is_normal() {
            y * q
        } else {
            y * x.powf(y - 1.0)
        };
        let dy = if v == 0.0 || x == 0.0 {
            0.0
        } else {
            v * x.ln()
        };
        (dx, dy)
    }

    /// `hypot(a, b) = h`: (a/h, b/h), (0, 0) where h = 0.
    ///
    /// ```
    /// use fazang::math::elementary::deriv2;
    /// assert_eq!(deriv2::hypot(3.0, 4.0, 5.0), (0.6, 0.8));
    /// ```
    #[inline]
    pub fn hypot(a: f64, b: f64, h: f64) -> (f64, f64) {
        if h == 0.0 {
            (0.0, 0.0)
        } else {
            (a / h, b / h)
        }
    }

    /// `log(x, b) = ln x / ln b`: (1/(x ln b), -ln x/(b ln² b)).
    ///
    /// ```
    /// use fazang::math::elementary::deriv2;
    /// let (dx, db) = deriv2::log(8.0, 2.0);
    /// assert_eq!(dx, 1.0 / (8.0 * 2.0_f64.ln()));
    /// assert!((db - -3.0 / (2.0 * 2.0_f64.ln())).abs() < 1e-15);
    /// ```
    #[inline]
    pub fn log(x: f64, b: f64) -> (f64, f64) {
        let lb = b.ln();
        (1.0 / (x * lb), -x.ln() / (b * lb * lb))
    }

    /// Which argument `f64::max(a, b)` returns: true for `a`.
    ///
    /// ```
    /// use fazang::math::elementary::deriv2;
    /// assert!(deriv2::max_picks_first(2.0, 1.0) && deriv2::max_picks_first(1.0, f64::NAN));
    /// ```
    #[inline]
    pub fn max_picks_first(a: f64, b: f64) -> bool {
        a >= b || b.is_nan()
    }

    /// `copysign(x, s)`: (±1, 0): 1 where the sign bits of `x` and `s` agree, -1 where
    /// they differ, and 0 at `x = 0` (as `abs`, which is `copysign(x, 1)`).
    ///
    /// ```
    /// use fazang::math::elementary::deriv2;
    /// assert_eq!(deriv2::copysign(2.0, -1.0), (-1.0, 0.0));
    /// ```
    #[inline]
    pub fn copysign(x: f64, s: f64) -> (f64, f64) {
        let dx = if x == 0.0 {
            0.0
        } else if x.is_sign_negative() == s.is_sign_negative() {
            1.0
        } else {
            -1.0
        };
        (dx, 0.0)
    }

    /// `a % b = r` and `a.rem_euclid(b) = r`: (1, -q) with `q = (a - r) / b` the integer
    /// quotient that produced `r` (exactly, for |q| < 2⁵²; from the rounded `a / b` it
    /// could be off by one next to a multiple of `b`).
    ///
    /// ```
    /// use fazang::math::elementary::deriv2;
    /// assert_eq!(deriv2::rem(7.0, 2.0, 7.0 % 2.0), (1.0, -3.0));
    /// ```
    #[inline]
    pub fn rem(a: f64, b: f64, r: f64) -> (f64, f64) {
        (1.0, -((a - r) / b).round())
    }

    /// `log_sum_exp(a, b)`: (σ(a - b), σ(b - a)) with σ the logistic function; (1/2, 1/2)
    /// where a = b (also both infinite).
    ///
    /// ```
    /// use fazang::math::elementary::deriv2;
    /// assert_eq!(deriv2::log_sum_exp(1.0, 1.0), (0.5, 0.5));
    /// ```
    #[inline]
    pub fn log_sum_exp(a: f64, b: f64) -> (f64, f64) {
        if a == b {
            (0.5, 0.5)
        } else {
            let d = a - b;
            (super::special::inv_logit(d), super::special::inv_logit(-d))
        }
    }

    /// Which argument `f64::min(a, b)` returns: true for `a`.
    ///
    /// ```
    /// use fazang::math::elementary::deriv2;
    /// assert!(deriv2::min_picks_first(1.0, 2.0) && !deriv2::min_picks_first(3.0, 2.0));
    /// ```
    #[inline]
    pub fn min_picks_first(a: f64, b: f64) -> bool {
        a <= b || b.is_nan()
    }
}

impl Real for f64 {
    #[inline]
    fn val(&self) -> f64 {
        *self
    }
    #[inline(always)]
    fn from_partials(value: f64, _: impl FnOnce(&mut Partials<f64>)) -> f64 {
        value
    }
    #[inline]
    fn __vals(x: &[f64]) -> std::borrow::Cow<'_, [f64]> {
        std::borrow::Cow::Borrowed(x)
    }
    #[inline]
    fn __from_data(x: &[f64]) -> std::borrow::Cow<'_, [f64]> {
        std::borrow::Cow::Borrowed(x)
    }
    #[inline]
    fn __from_data_array<const N: usize>(x: &[f64; N]) -> std::borrow::Cow<'_, [f64; N]> {
        std::borrow::Cow::Borrowed(x)
    }
    #[inline]
    fn __into_vals(x: Vec<f64>) -> (Vec<f64>, Vec<f64>) {
        (x, Vec::new())
    }
    #[inline(always)]
    fn __from_vjp<V>(_: &[f64], _: impl FnOnce(&mut Vec<f64>) -> V) -> Option<Vec<f64>> {
        None
    }
    impl_unary_f64!();
    #[inline]
    fn atan2(self, other: impl Into<f64>) -> f64 {
        f64::atan2(self, other.into())
    }
    #[inline]
    fn log(self, base: impl Into<f64>) -> f64 {
        f64::log(self, base.into())
    }
    #[inline]
    fn powi(self, n: i32) -> f64 {
        f64::powi(self, n)
    }
    #[inline]
    fn powf(self, n: impl Into<f64>) -> f64 {
        f64::powf(self, n.into())
    }
    #[inline]
    fn hypot(self, other: impl Into<f64>) -> f64 {
        f64::hypot(self, other.into())
    }
    #[inline]
    fn min(self, other: impl Into<f64>) -> f64 {
        f64::min(self, other.into())
    }
    #[inline]
    fn max(self, other: impl Into<f64>) -> f64 {
        f64::max(self, other.into())
    }
    #[inline]
    fn mul_add(self, a: impl Into<f64>, b: impl Into<f64>) -> f64 {
        f64::mul_add(self, a.into(), b.into())
    }
    #[inline]
    fn signum(self) -> f64 {
        f64::signum(self)
    }
    #[inline]
    fn floor(self) -> f64 {
        f64::floor(self)
    }
    #[inline]
    fn ceil(self) -> f64 {
        f64::ceil(self)
    }
    #[inline]
    fn round(self) -> f64 {
        f64::round(self)
    }
    #[inline]
    fn trunc(self) -> f64 {
        f64::trunc(self)
    }
    #[inline]
    fn round_ties_even(self) -> f64 {
        f64::round_ties_even(self)
    }
    #[inline]
    fn clamp(self, lo: impl Into<f64>, hi: impl Into<f64>) -> f64 {
        f64::clamp(self, lo.into(), hi.into())
    }
    #[inline]
    fn copysign(self, sign: impl Into<f64>) -> f64 {
        f64::copysign(self, sign.into())
    }
    #[inline]
    fn rem_euclid(self, rhs: impl Into<f64>) -> f64 {
        f64::rem_euclid(self, rhs.into())
    }
    #[inline]
    fn div_euclid(self, rhs: impl Into<f64>) -> f64 {
        f64::div_euclid(self, rhs.into())
    }
    #[inline]
    fn midpoint(self, other: impl Into<f64>) -> f64 {
        f64::midpoint(self, other.into())
    }
    #[inline]
    fn log_sum_exp(self, other: impl Into<f64>) -> f64 {
        special::log_sum_exp2(self, other.into())
    }
}

thread_local! {
    /// Reusable operand buffers for `from_partials`, one per nesting level in use.
    static PARTIALS: Pool<(Var, f64)> = const { Pool::new() };
}

/// Free the buffers of [`PARTIALS`].
pub(crate) fn release_buffers() {
    let _ = PARTIALS.try_with(Pool::release);
}

impl Real for Var {
    #[inline]
    fn val(&self) -> f64 {
        Var::val(self)
    }
    fn from_partials(value: f64, partials: impl FnOnce(&mut Partials<Var>)) -> Var {
        let mut p = Partials {
            ops: PARTIALS.with(Pool::take),
        };
        partials(&mut p);
        let out = nary_named("from_partials", value, p.ops.iter().copied());
        let used = p.ops.len();
        PARTIALS.with(|b| b.give(p.ops, used));
        out
    }
    fn __from_vjp<V>(values: &[f64], record: impl FnOnce(&mut Vec<Var>) -> V) -> Option<Vec<Var>>
    where
        V: Fn(&[f64], &mut [f64]) + 'static,
    {
        let mut inputs = Vec::new();
        let vjp = record(&mut inputs);
        Some(crate::core::var::vector_named("vjp", &inputs, values, vjp))
    }
    impl_unary_var!();
    #[inline]
    fn atan2(self, other: impl Into<Var>) -> Var {
        let x = other.into();
        let (da, db) = deriv2::atan2(self.val(), x.val());
        binary_named(op!("atan2"), self.val().atan2(x.val()), self, da, x, db)
    }
    #[inline]
    fn log(self, base: impl Into<Var>) -> Var {
        let b = base.into();
        let (da, db) = deriv2::log(self.val(), b.val());
        binary_named(op!("log"), self.val().log(b.val()), self, da, b, db)
    }
    #[inline]
    fn powi(self, n: i32) -> Var {
        let x = self.val();
        // n x^(n-1); n - 1 overflows i32 for n = i32::MIN, where x^n / x is used instead.
        let d = match n.checked_sub(1) {
            _ if n == 0 => 0.0,
            Some(m) => f64::from(n) * x.powi(m),
            None => f64::from(n) * (x.powi(n) / x),
        };
        unary_named(op!("powi"), x.powi(n), self, d)
    }
    #[inline]
    fn powf(self, n: impl Into<Var>) -> Var {
        let y = n.into();
        let v = self.val().powf(y.val());
        let (dx, dy) = deriv2::powf(self.val(), y.val(), v);
        binary_named(op!("powf"), v, self, dx, y, dy)
    }
    #[inline]
    fn hypot(self, other: impl Into<Var>) -> Var {
        let b = other.into();
        let h = self.val().hypot(b.val());
        let (da, db) = deriv2::hypot(self.val(), b.val(), h);
        binary_named(op!("hypot"), h, self, da, b, db)
    }
    #[inline]
    fn min(self, other: impl Into<Var>) -> Var {
        let b = other.into();
        if deriv2::min_picks_first(self.val(), b.val()) {
            self
        } else {
            b
        }
    }
    #[inline]
    fn max(self, other: impl Into<Var>) -> Var {
        let b = other.into();
        if deriv2::max_picks_first(self.val(), b.val()) {
            self
        } else {
            b
        }
    }
    #[inline]
    fn mul_add(self, a: impl Into<Var>, b: impl Into<Var>) -> Var {
        let (a, b) = (a.into(), b.into());
        let v = self.val().mul_add(a.val(), b.val());
        nary_named("mul_add", v, [(self, a.val()), (a, self.val()), (b, 1.0)])
    }
    #[inline]
    fn signum(self) -> Var {
        Var::constant(self.val().signum())
    }
    #[inline]
    fn floor(self) -> Var {
        Var::constant(self.val().floor())
    }
    #[inline]
    fn ceil(self) -> Var {
        Var::constant(self.val().ceil())
    }
    #[inline]
    fn round(self) -> Var {
        Var::constant(self.val().round())
    }
    #[inline]
    fn trunc(self) -> Var {
        Var::constant(self.val().trunc())
    }
    #[inline]
    fn copysign(self, sign: impl Into<Var>) -> Var {
        let (x, s) = (self.val(), sign.into().val());
        unary_named(
            op!("copysign"),
            x.copysign(s),
            self,
            deriv2::copysign(x, s).0,
        )
    }
    #[inline]
    fn rem_euclid(self, rhs: impl Into<Var>) -> Var {
        let b = rhs.into();
        let r = self.val().rem_euclid(b.val());
        let (da, db) = deriv2::rem(self.val(), b.val(), r);
        binary_named(op!("rem_euclid"), r, self, da, b, db)
    }
    #[inline]
    fn log_sum_exp(self, other: impl Into<Var>) -> Var {
        let b = other.into();
        let (da, db) = deriv2::log_sum_exp(self.val(), b.val());
        binary_named(
            op!("log_sum_exp"),
            special::log_sum_exp2(self.val(), b.val()),
            self,
            da,
            b,
            db,
        )
    }
}
