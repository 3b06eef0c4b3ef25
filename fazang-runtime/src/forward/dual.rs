//! [`Dual`]: forward-mode numbers `re + ε·eps` over any inner [`Real`], with one or more
//! tangent lanes.
//!
//! Every function's derivative is evaluated on the inner scalar `S` (the elementary table,
//! distributions and `#[deriv_rule]` partials are generic), so a `Dual<Var>` records the
//! tangent on the tape (reverse-over-forward: Hessian-vector products) and a
//! `Dual<Dual<f64>>` carries second derivatives (forward-over-forward).

use super::ops::{number_ops, Arith};
use super::tangent::Tangent;
use crate::math::elementary::{deriv, deriv2, with_unary_table};
use crate::math::internals::{sealed::Sealed, RealInternals};
use crate::math::real::{Partials, Real};
use crate::math::slice::{Mix, SliceOps};
use std::any::TypeId;

/// A dual number `re + ε eps` (ε² = 0): the value `re` and its directional derivatives
/// `eps`, one per tangent lane.
///
/// - `Dual<f64>`: one directional derivative (forward mode; [`jvp`](crate::jvp)).
/// - `Dual<f64, [f64; N]>`: `N` directions at once (a gradient of `N` inputs in one pass).
/// - `Dual<f64, Lanes>`: a number of directions chosen at run time
///   ([`Lanes`](crate::Lanes)).
/// - `Dual<Var>`: the tangent is recorded on the tape, so a backward sweep of it gives a
///   Hessian-vector product (reverse-over-forward).
/// - `Dual<Dual<f64>>`: second derivatives (forward-over-forward).
///
/// It implements [`Real`], so every `#[differentiate]` body, math function, distribution
/// and `#[deriv_rule]` function runs on it.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// use fazang::Dual;
///
/// fn f<S: Real>(x: S, y: S) -> S {
///     x * y.sin()
/// }
/// // d/dx f at (2, 0.5): seed x with tangent 1.
/// let d = f(Dual::variable(2.0), Dual::from(0.5));
/// assert_eq!(d.re, 2.0 * 0.5_f64.sin());
/// assert_eq!(d.eps, 0.5_f64.sin());
///
/// // Second derivative d²/dy² by nesting: y = (0.5 + ε₁) + ε₂ (1 + 0 ε₁).
/// let y: Dual<Dual<f64>> = Dual::new(Dual::variable(0.5), Dual::from(1.0));
/// let d2 = f(Dual::from(2.0), y);
/// assert!((d2.eps.eps - (-2.0 * 0.5_f64.sin())).abs() < 1e-15);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Dual<S = f64, T = S> {
    /// The value.
    pub re: S,
    /// The directional derivatives, one per lane.
    pub eps: T,
}

impl<S: Real, T: Tangent<S>> Dual<S, T> {
    /// A dual number with value `re` and tangent `eps`.
    ///
    /// ```
    /// use fazang::Dual;
    /// let x = Dual::new(1.0, 2.0);
    /// assert_eq!((x.re, x.eps), (1.0, 2.0));
    /// ```
    #[inline]
    pub fn new(re: S, eps: T) -> Self {
        Dual { re, eps }
    }

    /// A constant: every lane zero.
    ///
    /// ```
    /// use fazang::Dual;
    /// let c: Dual<f64, [f64; 2]> = Dual::constant(3.0);
    /// assert_eq!(c.eps, [0.0, 0.0]);
    /// ```
    #[inline]
    pub fn constant(re: S) -> Self {
        Dual { re, eps: T::zero() }
    }
}

impl<S: Real> Dual<S, S> {
    /// An independent variable of a one-lane dual number: tangent 1.
    ///
    /// ```
    /// use fazang::Dual;
    /// let x = Dual::variable(2.0);
    /// assert_eq!((x * x).eps, 4.0);
    /// ```
    #[inline]
    pub fn variable(re: S) -> Self {
        Dual {
            re,
            eps: S::from(1.0),
        }
    }
}

impl<S: Real, const N: usize> Dual<S, [S; N]> {
    /// Independent variable number `i` of `N`: lane `i` is 1, the others 0.
    ///
    /// ```
    /// use fazang::Dual;
    /// let (x, y) = (Dual::<f64, [f64; 2]>::lane_variable(3.0, 0), Dual::lane_variable(4.0, 1));
    /// assert_eq!((x * y).eps, [4.0, 3.0]);
    /// ```
    #[inline]
    pub fn lane_variable(re: S, i: usize) -> Self {
        let mut eps = [S::from(0.0); N];
        eps[i] = S::from(1.0);
        Dual { re, eps }
    }
}

/// Whether `S` is `f64` (its dual numbers are first-order: `f64` partials suffice).
#[inline(always)]
fn is_f64<S: 'static>() -> bool {
    TypeId::of::<S>() == TypeId::of::<f64>()
}

impl<S: Real, T: Tangent<S>> Arith for Dual<S, T> {
    #[inline(always)]
    fn add_(self, o: Self) -> Self {
        Dual::new(self.re + o.re, self.eps.add(&o.eps))
    }
    #[inline(always)]
    fn sub_(self, o: Self) -> Self {
        Dual::new(self.re - o.re, self.eps.sub(&o.eps))
    }
    #[inline(always)]
    fn mul_(self, o: Self) -> Self {
        Dual::new(self.re * o.re, self.eps.lincomb(o.re, &o.eps, self.re))
    }
    #[inline(always)]
    fn div_(self, o: Self) -> Self {
        let q = self.re / o.re;
        if o.eps.is_zero() {
            if self.eps.is_zero() {
                return Dual::constant(q);
            }
            return Dual::new(q, self.eps.scale(o.re.recip()));
        }
        let inv = o.re.recip();
        Dual::new(q, self.eps.lincomb(inv, &o.eps, -(q * inv)))
    }
    #[inline(always)]
    fn neg_(self) -> Self {
        Dual::new(-self.re, self.eps.neg())
    }
    #[inline(always)]
    fn add_f(self, f: f64) -> Self {
        Dual::new(self.re + f, self.eps)
    }
    #[inline(always)]
    fn f_sub(self, f: f64) -> Self {
        Dual::new(-(self.re - f), self.eps.neg())
    }
    #[inline(always)]
    fn mul_f(self, f: f64) -> Self {
        Dual::new(self.re * f, self.eps.scale_f64(f))
    }
    #[inline(always)]
    fn div_f(self, f: f64) -> Self {
        Dual::new(self.re / f, self.eps.scale_f64(1.0 / f))
    }
    #[inline(always)]
    fn f_div(self, f: f64) -> Self {
        let q = S::from(f) / self.re;
        if self.eps.is_zero() {
            return Dual::constant(q);
        }
        let inv = self.re.recip();
        Dual::new(q, self.eps.scale(-(q * inv)))
    }
    #[inline(always)]
    fn rem_(self, o: Self) -> Self {
        let re = self.re % o.re;
        let (_, db) = deriv2::rem(self.val(), o.val(), re.val());
        Dual::new(re, self.eps.add(&o.eps.scale_f64(db)))
    }
    #[inline(always)]
    fn rem_f(self, f: f64) -> Self {
        Dual::new(self.re % f, self.eps)
    }
    #[inline(always)]
    fn f_rem(self, f: f64) -> Self {
        let re = S::from(f) % self.re;
        let (_, db) = deriv2::rem(f, self.val(), re.val());
        Dual::new(re, self.eps.scale_f64(db))
    }
    #[inline(always)]
    fn cst(f: f64) -> Self {
        Dual::constant(S::from(f))
    }
    #[inline(always)]
    fn value(&self) -> f64 {
        self.re.val()
    }
}

number_ops!([S: Real, T: Tangent<S>] Dual<S, T>, []);
crate::math::interop::num_traits_for!(@generic [S: Real, T: Tangent<S>] Dual<S, T>);
crate::math::interop::inherent_math!(@generic [S: Real, T: Tangent<S>] Dual<S, T>);

/// `f(x)` for a unary function given its value on `S` and its derivative there (not
/// computed at all when the tangent is zero: on `Var` it would record a node for nothing).
#[inline(always)]
fn chain<S: Real, T: Tangent<S>>(x: Dual<S, T>, v: S, d: impl FnOnce() -> S) -> Dual<S, T> {
    if x.eps.is_zero() {
        return Dual::constant(v);
    }
    Dual::new(v, x.eps.scale(d()))
}

/// `f(a, b)` given its value and partials (not computed when both tangents are zero).
#[inline(always)]
fn chain2<S: Real, T: Tangent<S>>(
    a: Dual<S, T>,
    b: Dual<S, T>,
    v: S,
    d: impl FnOnce() -> (S, S),
) -> Dual<S, T> {
    if a.eps.is_zero() && b.eps.is_zero() {
        return Dual::constant(v);
    }
    let (da, db) = d();
    Dual::new(v, a.eps.lincomb(da, &b.eps, db))
}

macro_rules! dual_methods {
    ($( $(#[$doc:meta])* $name:ident [$k:ident] $fam:ident: |$x:ident, $v:ident| $value:expr, $deriv:expr; )*) => {$(
        #[inline]
        fn $name(self) -> Self {
            let v = self.re.$name();
            chain(self, v, || deriv::$name(self.re, v))
        }
    )*};
}

/// The panic of a second-order dual number asked to use `f64` partials.
#[cold]
#[inline(never)]
#[track_caller]
fn f64_partials_lost(what: &str) -> ! {
    panic!(
        "fazang: {what} (called where this panic points) gave partial derivatives as f64 to \
         a number that carries second derivatives (a `_hessian`, `_hvp` or nested \
         derivative): their own derivatives would be lost, so this operation is first-order \
         only. Compute it from the scalar's own methods (arithmetic and `Real` methods \
         differentiate to any order), or give a #[deriv_rule] its partials as expressions \
         in its arguments, which are evaluated on the scalar itself"
    )
}

impl<S: Real, T: Tangent<S>> Sealed for Dual<S, T> {}
impl<S: Real, T: Tangent<S>> RealInternals for Dual<S, T> {
    type Inner = S;
    type __Ctx = ();

    #[inline(always)]
    fn __ctx(&self, _: &mut ()) {}

    #[inline(always)]
    fn __inner(&self, _: &()) -> S {
        self.re
    }

    #[inline(always)]
    fn __f64_partials_suffice(&self) -> bool {
        is_f64::<S>() || self.eps.is_zero()
    }

    #[inline(always)]
    fn __is_const_zero(&self) -> bool {
        self.re.__is_const_zero() && self.eps.is_zero()
    }

    fn __from_partials_in(_: &(), value: S, partials: impl FnOnce(&mut Partials<Self, S>)) -> Self {
        let mut p = Partials::new();
        partials(&mut p);
        let eps = p
            .ops
            .iter()
            .fold(T::zero(), |acc, (x, d)| acc.add_scaled(&x.eps, *d));
        Dual::new(value, eps)
    }

    #[track_caller]
    fn __from_vjp<V>(values: &[f64], record: impl FnOnce(&mut Vec<Self>) -> V) -> Option<Vec<Self>>
    where
        V: Fn(&[f64], &mut [f64]) + 'static,
    {
        let mut inputs = Vec::new();
        let vjp = record(&mut inputs);
        if !is_f64::<S>() {
            if inputs.iter().any(|x| !x.eps.is_zero()) {
                f64_partials_lost("a vector-Jacobian product (`adjoint = ..`)");
            }
            let outs = S::__from_vjp(values, move |ins| {
                ins.extend(inputs.iter().map(|x| x.re));
                vjp
            });
            return outs.map(|o| o.into_iter().map(Dual::constant).collect());
        }
        // The Jacobian, one row per output (J^T e_i), then each output's tangent J t.
        let mut ds = vec![0.0; values.len()];
        let mut row = vec![0.0; inputs.len()];
        let out = (0..values.len())
            .map(|i| {
                ds.iter_mut().for_each(|d| *d = 0.0);
                ds[i] = 1.0;
                row.iter_mut().for_each(|r| *r = 0.0);
                vjp(&ds, &mut row);
                let eps = inputs
                    .iter()
                    .zip(&row)
                    .fold(T::zero(), |acc, (x, &j)| acc.add(&x.eps.scale_f64(j)));
                Dual::new(S::from(values[i]), eps)
            })
            .collect();
        Some(out)
    }

    #[inline]
    fn __polygamma(self, n: u32) -> Self {
        let v = self.re.__polygamma(n);
        chain(self, v, || self.re.__polygamma(n + 1))
    }
}
impl<S: Real, T: Tangent<S>> Real for Dual<S, T> {
    #[inline]
    fn val(&self) -> f64 {
        self.re.val()
    }

    #[track_caller]
    fn from_partials(value: f64, partials: impl FnOnce(&mut Partials<Self>)) -> Self {
        let mut p = Partials::new();
        partials(&mut p);
        if is_f64::<S>() {
            let eps = p
                .ops
                .iter()
                .fold(T::zero(), |acc, (x, d)| acc.add(&x.eps.scale_f64(*d)));
            return Dual::new(S::from(value), eps);
        }
        // A second-order number: f64 partials give the value's first derivatives (on S)
        // and a zero tangent its (zero) derivatives, but not the derivative of a tangent.
        if p.ops.iter().any(|(x, _)| !x.eps.is_zero()) {
            f64_partials_lost("a custom operation built with `Real::from_partials`");
        }
        let re = S::from_partials(value, |q| {
            for (x, d) in &p.ops {
                q.push(x.re, *d);
            }
        });
        Dual::constant(re)
    }

    with_unary_table!(dual_methods);
    #[inline]
    fn atan2(self, other: impl Into<Self>) -> Self {
        let b: Self = other.into();
        chain2(self, b, self.re.atan2(b.re), || {
            deriv2::atan2(self.re, b.re)
        })
    }
    #[inline]
    fn log(self, base: impl Into<Self>) -> Self {
        let b: Self = base.into();
        chain2(self, b, self.re.log(b.re), || deriv2::log(self.re, b.re))
    }
    #[inline]
    fn powi(self, n: i32) -> Self {
        chain(self, self.re.powi(n), || deriv2::powi(self.re, n))
    }
    #[inline]
    fn powf(self, n: impl Into<Self>) -> Self {
        let y: Self = n.into();
        let v = self.re.powf(y.re);
        chain2(self, y, v, || deriv2::powf(self.re, y.re, v))
    }
    #[inline]
    fn hypot(self, other: impl Into<Self>) -> Self {
        let b: Self = other.into();
        let h = self.re.hypot(b.re);
        chain2(self, b, h, || deriv2::hypot(self.re, b.re, h))
    }
    #[inline]
    fn min(self, other: impl Into<Self>) -> Self {
        let b: Self = other.into();
        if deriv2::min_picks_first(self.val(), b.val()) {
            self
        } else {
            b
        }
    }
    #[inline]
    fn max(self, other: impl Into<Self>) -> Self {
        let b: Self = other.into();
        if deriv2::max_picks_first(self.val(), b.val()) {
            self
        } else {
            b
        }
    }
    #[inline]
    fn mul_add(self, a: impl Into<Self>, b: impl Into<Self>) -> Self {
        let (a, b): (Self, Self) = (a.into(), b.into());
        let eps = self.eps.lincomb(a.re, &a.eps, self.re).add(&b.eps);
        Dual::new(self.re.mul_add(a.re, b.re), eps)
    }
    #[inline]
    fn copysign(self, sign: impl Into<Self>) -> Self {
        let s: Self = sign.into();
        let (dx, _) = deriv2::copysign(self.val(), s.val());
        Dual::new(self.re.copysign(s.re), self.eps.scale_f64(dx))
    }
    #[inline]
    fn rem_euclid(self, rhs: impl Into<Self>) -> Self {
        let b: Self = rhs.into();
        let re = self.re.rem_euclid(b.re);
        let (_, db) = deriv2::rem(self.val(), b.val(), re.val());
        Dual::new(re, self.eps.add(&b.eps.scale_f64(db)))
    }
    #[inline]
    fn midpoint(self, other: impl Into<Self>) -> Self {
        let b: Self = other.into();
        Dual::new(self.re.midpoint(b.re), self.eps.add(&b.eps).scale_f64(0.5))
    }
    #[inline]
    fn log_sum_exp(self, other: impl Into<Self>) -> Self {
        let b: Self = other.into();
        let v = self.re.log_sum_exp(b.re);
        chain2(self, b, v, || deriv2::log_sum_exp(self.re, b.re))
    }
    #[inline]
    fn signum(self) -> Self {
        Dual::constant(self.re.signum())
    }
    #[inline]
    fn floor(self) -> Self {
        Dual::constant(self.re.floor())
    }
    #[inline]
    fn ceil(self) -> Self {
        Dual::constant(self.re.ceil())
    }
    #[inline]
    fn round(self) -> Self {
        Dual::constant(self.re.round())
    }
    #[inline]
    fn trunc(self) -> Self {
        Dual::constant(self.re.trunc())
    }
}

/// The real parts of a slice of dual numbers.
fn res<S: Real, T: Tangent<S>>(x: &[Dual<S, T>]) -> Vec<S> {
    x.iter().map(|d| d.re).collect()
}

impl<S: Real, T: Tangent<S>> SliceOps for Dual<S, T> {
    fn sum_slice(x: &[Self]) -> Self {
        let eps = x.iter().fold(T::zero(), |acc, d| acc.add(&d.eps));
        Dual::new(S::sum_slice(&res(x)), eps)
    }
    fn log_sum_exp_slice(x: &[Self]) -> Self {
        let v = S::log_sum_exp_slice(&res(x));
        if v.val().is_infinite() {
            return Dual::constant(v);
        }
        // Partials: softmax(x), on S.
        let eps = x
            .iter()
            .fold(T::zero(), |acc, d| acc.add_scaled(&d.eps, (d.re - v).exp()));
        Dual::new(v, eps)
    }
    fn norm2_slice(x: &[Self]) -> Self {
        let v = S::norm2_slice(&res(x));
        if v == 0.0 {
            return Dual::constant(v);
        }
        let inv = v.recip();
        let eps = x
            .iter()
            .fold(T::zero(), |acc, d| acc.add_scaled(&d.eps, d.re * inv));
        Dual::new(v, eps)
    }
}

impl<S: Real, T: Tangent<S>> Mix<Dual<S, T>> for Dual<S, T> {
    type Output = Dual<S, T>;
    fn dot(a: &[Self], b: &[Self]) -> Self {
        let re = <S as Mix<S>>::dot(&res(a), &res(b));
        let eps = a.iter().zip(b).fold(T::zero(), |acc, (x, y)| {
            acc.add(&x.eps.lincomb(y.re, &y.eps, x.re))
        });
        Dual::new(re, eps)
    }
}

impl<S: Real, T: Tangent<S>> Mix<f64> for Dual<S, T> {
    type Output = Dual<S, T>;
    fn dot(a: &[Self], b: &[f64]) -> Self {
        let re = <S as Mix<f64>>::dot(&res(a), b);
        let eps = a
            .iter()
            .zip(b)
            .fold(T::zero(), |acc, (x, &w)| acc.add(&x.eps.scale_f64(w)));
        Dual::new(re, eps)
    }
}

impl<S: Real, T: Tangent<S>> Mix<Dual<S, T>> for f64 {
    type Output = Dual<S, T>;
    fn dot(a: &[f64], b: &[Dual<S, T>]) -> Dual<S, T> {
        <Dual<S, T> as Mix<f64>>::dot(b, a)
    }
}
