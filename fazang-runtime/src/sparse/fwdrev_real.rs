//! [`Real`] for [`FwdRev`]: every operation's value and partials computed on
//! [`Inner`] dual numbers by the generic derivative code (`math::elementary`), recorded
//! on the forward-over-reverse tape.

use super::fwdrev::{first_order_only, flat, record, FwdRev, Inner};
use crate::forward::ops::{number_ops, Arith};
use crate::math::elementary::{deriv, deriv2, with_unary_table};
use crate::math::internals::{sealed::Sealed, RealInternals};
use crate::math::real::{Partials, Real};
use crate::math::slice::{Mix, SliceOps};

/// A constant dual number.
#[inline(always)]
fn c(v: f64) -> Inner {
    Inner::constant(v)
}

impl Arith for FwdRev {
    #[inline(always)]
    fn add_(self, o: Self) -> Self {
        record(self.x + o.x, &[(self, c(1.0)), (o, c(1.0))])
    }
    #[inline(always)]
    fn sub_(self, o: Self) -> Self {
        record(self.x - o.x, &[(self, c(1.0)), (o, c(-1.0))])
    }
    #[inline(always)]
    fn mul_(self, o: Self) -> Self {
        record(self.x * o.x, &[(self, o.x), (o, self.x)])
    }
    #[inline(always)]
    fn div_(self, o: Self) -> Self {
        let q = self.x / o.x;
        let inv = o.x.recip();
        record(q, &[(self, inv), (o, -(q * inv))])
    }
    #[inline(always)]
    fn neg_(self) -> Self {
        record(-self.x, &[(self, c(-1.0))])
    }
    // x + c has x's adjoint: the same node.
    #[inline(always)]
    fn add_f(self, f: f64) -> Self {
        FwdRev {
            x: self.x + f,
            idx: self.idx,
        }
    }
    #[inline(always)]
    fn f_sub(self, f: f64) -> Self {
        record(f - self.x, &[(self, c(-1.0))])
    }
    #[inline(always)]
    fn mul_f(self, f: f64) -> Self {
        record(self.x * f, &[(self, c(f))])
    }
    #[inline(always)]
    fn div_f(self, f: f64) -> Self {
        record(self.x / f, &[(self, c(1.0 / f))])
    }
    #[inline(always)]
    fn f_div(self, f: f64) -> Self {
        let q = f / self.x;
        record(q, &[(self, -(q / self.x))])
    }
    #[inline(always)]
    fn rem_(self, o: Self) -> Self {
        let r = self.x % o.x;
        let (_, db) = deriv2::rem(self.x.re, o.x.re, r.re);
        record(r, &[(self, c(1.0)), (o, c(db))])
    }
    #[inline(always)]
    fn rem_f(self, f: f64) -> Self {
        FwdRev {
            x: self.x % f,
            idx: self.idx,
        }
    }
    #[inline(always)]
    fn f_rem(self, f: f64) -> Self {
        let r = f % self.x;
        let (_, db) = deriv2::rem(f, self.x.re, r.re);
        record(r, &[(self, c(db))])
    }
    #[inline(always)]
    fn cst(f: f64) -> Self {
        FwdRev::constant(c(f))
    }
    #[inline(always)]
    fn value(&self) -> f64 {
        self.x.re
    }
}

number_ops!([] FwdRev, []);
crate::math::interop::num_traits_for!(FwdRev);
crate::math::interop::inherent_math!(FwdRev);

macro_rules! fwdrev_methods {
    ($( $(#[$doc:meta])* $name:ident [$k:ident] $fam:ident: |$x:ident, $v:ident| $value:expr, $deriv:expr; )*) => {$(
        #[inline]
        fn $name(self) -> Self {
            let v = self.x.$name();
            if self.is_constant() {
                return FwdRev::constant(v);
            }
            record(v, &[(self, deriv::$name(self.x, v))])
        }
    )*};
}

/// A binary function given its value and partials on [`Inner`] (not computed for
/// constants).
#[inline]
fn binary(a: FwdRev, b: FwdRev, v: Inner, d: impl FnOnce() -> (Inner, Inner)) -> FwdRev {
    if a.is_constant() && b.is_constant() {
        return FwdRev::constant(v);
    }
    let (da, db) = d();
    record(v, &[(a, da), (b, db)])
}

impl Sealed for FwdRev {}
impl RealInternals for FwdRev {
    type Inner = Inner;
    type __Ctx = ();

    #[inline(always)]
    fn __ctx(&self, _: &mut ()) {}

    #[inline(always)]
    fn __inner(&self, _: &()) -> Inner {
        self.x
    }

    #[inline(always)]
    fn __f64_partials_suffice(&self) -> bool {
        flat(&self.x)
    }

    fn __from_partials_in(
        _: &(),
        value: Inner,
        partials: impl FnOnce(&mut Partials<Self, Inner>),
    ) -> Self {
        let mut p = Partials::new();
        partials(&mut p);
        super::fwdrev::from_partials_in(value, &p)
    }

    fn __from_vjp<V>(
        values: &[f64],
        record_inputs: impl FnOnce(&mut Vec<Self>) -> V,
    ) -> Option<Vec<Self>>
    where
        V: Fn(&[f64], &mut [f64]) + 'static,
    {
        let mut inputs = Vec::new();
        let _vjp = record_inputs(&mut inputs);
        if inputs.iter().any(|x| !x.is_constant()) {
            first_order_only("a #[deriv_rule(adjoint = ..)] function");
        }
        Some(values.iter().map(|&v| FwdRev::constant(c(v))).collect())
    }

    #[inline]
    fn __polygamma(self, n: u32) -> Self {
        let v = self.x.__polygamma(n);
        if self.is_constant() {
            return FwdRev::constant(v);
        }
        record(v, &[(self, self.x.__polygamma(n + 1))])
    }
}

impl Real for FwdRev {
    #[inline]
    fn val(&self) -> f64 {
        self.x.re
    }

    fn from_partials(value: f64, partials: impl FnOnce(&mut Partials<Self>)) -> Self {
        let mut p = Partials::new();
        partials(&mut p);
        if p.ops.iter().any(|(x, _)| !flat(&x.x)) {
            first_order_only("`Real::from_partials`");
        }
        let ops: Vec<(FwdRev, Inner)> = p.ops.iter().map(|&(x, d)| (x, c(d))).collect();
        record(c(value), &ops)
    }

    with_unary_table!(fwdrev_methods);

    #[inline]
    fn atan2(self, other: impl Into<Self>) -> Self {
        let b: Self = other.into();
        binary(self, b, self.x.atan2(b.x), || deriv2::atan2(self.x, b.x))
    }
    #[inline]
    fn log(self, base: impl Into<Self>) -> Self {
        let b: Self = base.into();
        binary(self, b, self.x.log(b.x), || deriv2::log(self.x, b.x))
    }
    #[inline]
    fn powi(self, n: i32) -> Self {
        let v = self.x.powi(n);
        if self.is_constant() {
            return FwdRev::constant(v);
        }
        record(v, &[(self, deriv2::powi(self.x, n))])
    }
    #[inline]
    fn powf(self, n: impl Into<Self>) -> Self {
        let y: Self = n.into();
        let v = self.x.powf(y.x);
        binary(self, y, v, || deriv2::powf(self.x, y.x, v))
    }
    #[inline]
    fn hypot(self, other: impl Into<Self>) -> Self {
        let b: Self = other.into();
        let h = self.x.hypot(b.x);
        binary(self, b, h, || deriv2::hypot(self.x, b.x, h))
    }
    #[inline]
    fn min(self, other: impl Into<Self>) -> Self {
        let b: Self = other.into();
        if deriv2::min_picks_first(self.x.re, b.x.re) {
            self
        } else {
            b
        }
    }
    #[inline]
    fn max(self, other: impl Into<Self>) -> Self {
        let b: Self = other.into();
        if deriv2::max_picks_first(self.x.re, b.x.re) {
            self
        } else {
            b
        }
    }
    #[inline]
    fn mul_add(self, a: impl Into<Self>, b: impl Into<Self>) -> Self {
        let (a, b): (Self, Self) = (a.into(), b.into());
        let v = self.x.mul_add(a.x, b.x);
        record(v, &[(self, a.x), (a, self.x), (b, c(1.0))])
    }
    #[inline]
    fn signum(self) -> Self {
        FwdRev::constant(c(self.x.re.signum()))
    }
    #[inline]
    fn floor(self) -> Self {
        FwdRev::constant(c(self.x.re.floor()))
    }
    #[inline]
    fn ceil(self) -> Self {
        FwdRev::constant(c(self.x.re.ceil()))
    }
    #[inline]
    fn round(self) -> Self {
        FwdRev::constant(c(self.x.re.round()))
    }
    #[inline]
    fn trunc(self) -> Self {
        FwdRev::constant(c(self.x.re.trunc()))
    }
    #[inline]
    fn copysign(self, sign: impl Into<Self>) -> Self {
        let s: Self = sign.into();
        let (dx, _) = deriv2::copysign(self.x.re, s.x.re);
        record(self.x.copysign(s.x), &[(self, c(dx))])
    }
    #[inline]
    fn rem_euclid(self, rhs: impl Into<Self>) -> Self {
        let b: Self = rhs.into();
        let r = self.x.rem_euclid(b.x);
        let (_, db) = deriv2::rem(self.x.re, b.x.re, r.re);
        record(r, &[(self, c(1.0)), (b, c(db))])
    }
    #[inline]
    fn midpoint(self, other: impl Into<Self>) -> Self {
        let b: Self = other.into();
        record(self.x.midpoint(b.x), &[(self, c(0.5)), (b, c(0.5))])
    }
    #[inline]
    fn log_sum_exp(self, other: impl Into<Self>) -> Self {
        let b: Self = other.into();
        let v = self.x.log_sum_exp(b.x);
        binary(self, b, v, || deriv2::log_sum_exp(self.x, b.x))
    }
}

/// The values of a slice.
fn xs(x: &[FwdRev]) -> Vec<Inner> {
    x.iter().map(|a| a.x).collect()
}

impl SliceOps for FwdRev {
    fn sum_slice(x: &[Self]) -> Self {
        let ops: Vec<(FwdRev, Inner)> = x.iter().map(|&a| (a, c(1.0))).collect();
        record(Inner::sum_slice(&xs(x)), &ops)
    }
    fn log_sum_exp_slice(x: &[Self]) -> Self {
        let v = Inner::log_sum_exp_slice(&xs(x));
        if v.re.is_infinite() {
            return FwdRev::constant(v);
        }
        let ops: Vec<(FwdRev, Inner)> = x.iter().map(|&a| (a, (a.x - v).exp())).collect();
        record(v, &ops)
    }
    fn norm2_slice(x: &[Self]) -> Self {
        let v = Inner::norm2_slice(&xs(x));
        if v.re == 0.0 {
            return FwdRev::constant(v);
        }
        let inv = v.recip();
        let ops: Vec<(FwdRev, Inner)> = x.iter().map(|&a| (a, a.x * inv)).collect();
        record(v, &ops)
    }
}

impl Mix<FwdRev> for FwdRev {
    type Output = FwdRev;
    fn dot(a: &[Self], b: &[Self]) -> Self {
        let v = <Inner as Mix<Inner>>::dot(&xs(a), &xs(b));
        let ops: Vec<(FwdRev, Inner)> = a
            .iter()
            .zip(b)
            .flat_map(|(&p, &q)| [(p, q.x), (q, p.x)])
            .collect();
        record(v, &ops)
    }
}

impl Mix<f64> for FwdRev {
    type Output = FwdRev;
    fn dot(a: &[Self], b: &[f64]) -> Self {
        let v = <Inner as Mix<f64>>::dot(&xs(a), b);
        let ops: Vec<(FwdRev, Inner)> = a.iter().zip(b).map(|(&p, &w)| (p, c(w))).collect();
        record(v, &ops)
    }
}

impl Mix<FwdRev> for f64 {
    type Output = FwdRev;
    fn dot(a: &[f64], b: &[FwdRev]) -> FwdRev {
        <FwdRev as Mix<f64>>::dot(b, a)
    }
}
