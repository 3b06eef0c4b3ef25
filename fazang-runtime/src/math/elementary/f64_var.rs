//! `Real` for `f64` (the values of the elementary table) and for `Var` (the values, and
//! the partials recorded on the tape), with the methods the table has no row for.

use super::{deriv, deriv2, value};
use crate::math::internals::{sealed::Sealed, RealInternals};
use crate::math::real::Partials;
use crate::math::special;
use crate::tape::capture::op;
use crate::tape::pool::Pool;
use crate::tape::var::{binary_named, nary_named, unary_named, Var};
use crate::Real;

macro_rules! f64_methods {
    ($( $(#[$doc:meta])* $name:ident [$k:ident] $fam:ident: |$x:ident, $v:ident| $value:expr, $deriv:expr; )*) => {$(
        #[inline]
        fn $name(self) -> f64 {
            value::$name(self)
        }
    )*};
}

macro_rules! var_methods {
    ($( $(#[$doc:meta])* $name:ident [$k:ident] $fam:ident: |$x:ident, $v:ident| $value:expr, $deriv:expr; )*) => {$(
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

impl Sealed for f64 {}
impl RealInternals for f64 {
    type Inner = f64;
    type __Ctx = ();
    #[inline(always)]
    fn __ctx(&self, _: &mut ()) {}
    #[inline(always)]
    fn __inner(&self, _: &()) -> f64 {
        *self
    }
    #[inline(always)]
    fn __f64_partials_suffice(&self) -> bool {
        true
    }
    #[inline(always)]
    fn __is_constant(&self) -> bool {
        true
    }
    #[inline(always)]
    fn __from_partials_in(_: &(), value: f64, _: impl FnOnce(&mut Partials<f64>)) -> f64 {
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
    fn __from_data_rows(x: &[Vec<f64>]) -> std::borrow::Cow<'_, [Vec<f64>]> {
        std::borrow::Cow::Borrowed(x)
    }
    #[inline]
    fn __from_data_vec(x: &Vec<f64>) -> std::borrow::Cow<'_, Vec<f64>> {
        std::borrow::Cow::Borrowed(x)
    }
    #[inline]
    fn __from_data_vec_rows(x: &Vec<Vec<f64>>) -> std::borrow::Cow<'_, Vec<Vec<f64>>> {
        std::borrow::Cow::Borrowed(x)
    }

    fn __from_data_array_rows<const N: usize>(x: &[[f64; N]]) -> std::borrow::Cow<'_, [[f64; N]]> {
        std::borrow::Cow::Borrowed(x)
    }

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
    #[inline]
    fn __polygamma(self, n: u32) -> f64 {
        special::polygamma(n, self)
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
    with_unary_table!(f64_methods);
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

impl Sealed for Var {}
impl RealInternals for Var {
    type Inner = f64;
    type __Ctx = ();
    #[inline(always)]
    fn __ctx(&self, _: &mut ()) {}
    #[inline(always)]
    fn __inner(&self, _: &()) -> f64 {
        self.val()
    }
    #[inline(always)]
    fn __is_const_zero(&self) -> bool {
        self.is_constant() && self.val() == 0.0
    }
    #[inline(always)]
    fn __is_constant(&self) -> bool {
        self.is_constant()
    }
    #[inline]
    fn __dot2(self, a: Var, o: Var, b: Var) -> Var {
        let v = self.val() * a.val() + o.val() * b.val();
        nary_named(
            "dot2",
            v,
            [(self, a.val()), (a, self.val()), (o, b.val()), (b, o.val())],
        )
    }
    #[inline(always)]
    fn __f64_partials_suffice(&self) -> bool {
        true
    }
    #[inline]
    fn __from_partials_in(_: &(), value: f64, partials: impl FnOnce(&mut Partials<Var>)) -> Var {
        Self::from_partials(value, partials)
    }
    fn __from_vjp<V>(values: &[f64], record: impl FnOnce(&mut Vec<Var>) -> V) -> Option<Vec<Var>>
    where
        V: Fn(&[f64], &mut [f64]) + 'static,
    {
        let mut inputs = Vec::new();
        let vjp = record(&mut inputs);
        Some(crate::tape::var::vector_named("vjp", &inputs, values, vjp))
    }
    #[inline]
    fn __polygamma(self, n: u32) -> Var {
        let x = self.val();
        unary_named(
            op!("polygamma"),
            special::polygamma(n, x),
            self,
            special::polygamma(n + 1, x),
        )
    }
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
    with_unary_table!(var_methods);
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
    #[inline(always)]
    fn powi(self, n: i32) -> Var {
        let x = self.val();
        unary_named(op!("powi"), x.powi(n), self, deriv2::powi(x, n))
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
