//! [`Probe`]: the scalar that runs a generic body to learn the *structure* of what it
//! computes, not its derivatives. Every value carries its `f64` value (computed exactly
//! as `f64` and `Var` compute it, so the body takes the same branches) and a handle that
//! stands for the expression that produced it:
//!
//! - in [`Record`] mode, the index of a node of a thread-local graph (`pattern`): what
//!   sparsity detection walks;
//! - in [`Fingerprint`] mode, a 64-bit hash of that same expression (a Merkle hash:
//!   the kind of each operation and the hashes of its operands), so that equal output
//!   hashes mean equal expressions, hence equal sparsity patterns, without recording
//!   anything.
//!
//! Both modes build their handles through the same rules ([`Kind`], and the functions
//! `linear`, `mul`, `div`, `nonlinear` below), so a hash always describes exactly the
//! graph detection would record. Handle 0 is a constant (no dependence on any input).
//!
//! Operations are classified by what they can contribute to first and second
//! derivatives, as SparseConnectivityTracer.jl and the sparsity literature do: linear
//! operations pass dependences on (and unary linear ones, `x + c`, `c x`, `-x`, `|x|`,
//! are transparent: the result keeps the operand's handle), `a * b` couples the inputs
//! of `a` with those of `b`, `a / b` also those of `b` with themselves, and any other
//! nonlinear operation couples all its operands' inputs with each other. Piecewise
//! constant functions (`floor`, `signum`, ...) give constants, and `min`, `max`, `clamp`
//! pass on the operand they pick: the pattern is that of the operations executed at
//! this input.

use super::pattern;
use crate::forward::ops::{number_ops, Arith};
use crate::math::elementary::{deriv2, value, with_unary_table};
use crate::math::internals::{sealed::Sealed, RealInternals};
use crate::math::real::{Partials, Real};
use crate::math::slice::{Mix, SliceOps};
use crate::math::special;
use std::fmt::Debug;
use std::marker::PhantomData;

/// What an operation contributes to derivatives (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An independent variable (its one operand is the input's index).
    Input,
    /// A linear combination of its operands.
    Linear,
    /// `a * b`.
    Mul,
    /// `a / b`.
    Div,
    /// Any other function of its operands.
    Nonlinear,
}

/// How a [`Probe`] makes its handles: [`Fingerprint`] or [`Record`].
pub trait Mode: Sealed + Copy + Debug + Send + Sync + 'static {
    /// The handle of input number `i` (never 0).
    fn input(i: usize) -> u64;
    /// The handle of an operation of `kind` on `ops` (non-zero handles; never 0).
    fn node(kind: Kind, ops: &[u64]) -> u64;
}

/// Handles are hashes of expressions (nothing is recorded).
#[derive(Clone, Copy, Debug)]
pub enum Fingerprint {}

/// Handles are nodes of the thread-local detection graph.
#[derive(Clone, Copy, Debug)]
pub enum Record {}

impl Sealed for Fingerprint {}
impl Sealed for Record {}

/// The finaliser of SplitMix64: a bijection of `u64` that mixes every bit.
#[inline(always)]
pub(crate) fn splitmix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The folded multiply of wyhash and foldhash: the 128-bit product of `a` and `b`, its
/// halves xored. One multiplication mixes both words well (the hash of every node is
/// paid on every call, so it must be cheap).
#[inline(always)]
fn fold(a: u64, b: u64) -> u64 {
    let p = u128::from(a) * u128::from(b);
    (p as u64) ^ ((p >> 64) as u64)
}

/// Per-kind keys of [`Fingerprint::node`] (digits of π, as foldhash's seeds).
const KEYS: [u64; 5] = [
    0x243f_6a88_85a3_08d3,
    0x1319_8a2e_0370_7344,
    0xa409_3822_299f_31d0,
    0x082e_fa98_ec4e_6c89,
    0x4528_21e6_38d0_1377,
];
/// Key of the second operand and of the operand count.
const KEY2: u64 = 0xbe54_66cf_34e9_0c6c;

impl Mode for Fingerprint {
    #[inline(always)]
    fn input(i: usize) -> u64 {
        splitmix(i as u64 ^ 0x5851_f42d_4c95_7f2d).max(1)
    }
    #[inline(always)]
    fn node(kind: Kind, ops: &[u64]) -> u64 {
        let key = KEYS[kind as usize];
        let h = match *ops {
            [a] => fold(a ^ key, KEY2),
            [a, b] => fold(a ^ key, b ^ KEY2),
            _ => ops
                .iter()
                .fold(fold(key, KEY2 ^ ops.len() as u64), |h, &o| {
                    fold(h ^ o, KEY2)
                }),
        };
        h.max(1)
    }
}

impl Mode for Record {
    #[inline]
    fn input(i: usize) -> u64 {
        pattern::push_node(Kind::Input, &[i as u64])
    }
    #[inline]
    fn node(kind: Kind, ops: &[u64]) -> u64 {
        pattern::push_node(kind, ops)
    }
}

/// A value and the handle of the expression that produced it (see the module
/// documentation). Only generated code and the sparse drivers make these.
#[derive(Clone, Copy, Debug)]
pub struct Probe<M: Mode> {
    v: f64,
    h: u64,
    mode: PhantomData<M>,
}

impl<M: Mode> Probe<M> {
    #[inline(always)]
    fn new(v: f64, h: u64) -> Self {
        Probe {
            v,
            h,
            mode: PhantomData,
        }
    }

    /// Independent variable number `i` with value `v`.
    #[inline]
    pub(crate) fn input(v: f64, i: usize) -> Self {
        Probe::new(v, M::input(i))
    }

    /// The handle (0 for a constant).
    #[inline]
    pub(crate) fn handle(&self) -> u64 {
        self.h
    }
}

/// A linear combination of `ops`: a constant, the one active operand, or a node.
#[inline]
fn linear<M: Mode>(ops: &[u64]) -> u64 {
    let mut active = ops.iter().filter(|&&h| h != 0);
    match (active.next(), active.next()) {
        (None, _) => 0,
        (Some(&h), None) => h,
        _ => M::node(Kind::Linear, &nonzero(ops)),
    }
}

/// `a + b` (or any linear combination of the two).
#[inline(always)]
fn linear2<M: Mode>(a: u64, b: u64) -> u64 {
    match (a, b) {
        (0, h) | (h, 0) => h,
        _ => M::node(Kind::Linear, &[a, b]),
    }
}

/// A nonlinear function of `ops` (constant if none is active).
#[inline]
fn nonlinear<M: Mode>(ops: &[u64]) -> u64 {
    if ops.iter().all(|&h| h == 0) {
        return 0;
    }
    M::node(Kind::Nonlinear, &nonzero(ops))
}

/// The active handles of `ops`.
#[inline]
fn nonzero(ops: &[u64]) -> Vec<u64> {
    ops.iter().copied().filter(|&h| h != 0).collect()
}

/// `a * b`: a scaling when one side is constant.
#[inline]
fn mul<M: Mode>(a: u64, b: u64) -> u64 {
    match (a, b) {
        (0, h) | (h, 0) => h,
        _ => M::node(Kind::Mul, &[a, b]),
    }
}

/// `a / b`.
#[inline]
fn div<M: Mode>(a: u64, b: u64) -> u64 {
    match (a, b) {
        (h, 0) => h,
        (0, h) => M::node(Kind::Nonlinear, &[h]),
        _ => M::node(Kind::Div, &[a, b]),
    }
}

/// `f(a)` for a nonlinear unary `f`.
#[inline]
fn unary<M: Mode>(a: u64) -> u64 {
    if a == 0 {
        0
    } else {
        M::node(Kind::Nonlinear, &[a])
    }
}

/// `f(a, b)` for a nonlinear binary `f`.
#[inline]
fn binary<M: Mode>(a: u64, b: u64) -> u64 {
    match (a, b) {
        (0, 0) => 0,
        (0, h) | (h, 0) => M::node(Kind::Nonlinear, &[h]),
        _ => M::node(Kind::Nonlinear, &[a, b]),
    }
}

impl<M: Mode> Arith for Probe<M> {
    #[inline(always)]
    fn add_(self, o: Self) -> Self {
        Probe::new(self.v + o.v, linear2::<M>(self.h, o.h))
    }
    #[inline(always)]
    fn sub_(self, o: Self) -> Self {
        Probe::new(self.v - o.v, linear2::<M>(self.h, o.h))
    }
    #[inline(always)]
    fn mul_(self, o: Self) -> Self {
        Probe::new(self.v * o.v, mul::<M>(self.h, o.h))
    }
    #[inline(always)]
    fn div_(self, o: Self) -> Self {
        Probe::new(self.v / o.v, div::<M>(self.h, o.h))
    }
    #[inline(always)]
    fn neg_(self) -> Self {
        Probe::new(-self.v, self.h)
    }
    #[inline(always)]
    fn add_f(self, f: f64) -> Self {
        Probe::new(self.v + f, self.h)
    }
    #[inline(always)]
    fn f_sub(self, f: f64) -> Self {
        Probe::new(f - self.v, self.h)
    }
    #[inline(always)]
    fn mul_f(self, f: f64) -> Self {
        Probe::new(self.v * f, self.h)
    }
    #[inline(always)]
    fn div_f(self, f: f64) -> Self {
        Probe::new(self.v / f, self.h)
    }
    #[inline(always)]
    fn f_div(self, f: f64) -> Self {
        Probe::new(f / self.v, unary::<M>(self.h))
    }
    // a % b = a - b trunc(a / b): linear in both (the quotient is piecewise constant).
    #[inline(always)]
    fn rem_(self, o: Self) -> Self {
        Probe::new(self.v % o.v, linear2::<M>(self.h, o.h))
    }
    #[inline(always)]
    fn rem_f(self, f: f64) -> Self {
        Probe::new(self.v % f, self.h)
    }
    #[inline(always)]
    fn f_rem(self, f: f64) -> Self {
        Probe::new(f % self.v, self.h)
    }
    #[inline(always)]
    fn cst(f: f64) -> Self {
        Probe::new(f, 0)
    }
    #[inline(always)]
    fn value(&self) -> f64 {
        self.v
    }
}

number_ops!([M: Mode] Probe<M>, []);
crate::math::interop::num_traits_for!(@generic [M: Mode] Probe<M>);
crate::math::interop::inherent_math!(@generic [M: Mode] Probe<M>);

/// Whether the unary function `name` of the elementary table is linear where it is
/// differentiable (its second derivative is zero): the result keeps its operand's handle.
const fn linear_unary(name: &str) -> bool {
    const LINEAR: [&str; 4] = ["abs", "fract", "to_degrees", "to_radians"];
    let mut i = 0;
    while i < LINEAR.len() {
        if same(LINEAR[i].as_bytes(), name.as_bytes()) {
            return true;
        }
        i += 1;
    }
    false
}

/// Byte-wise equality, in a `const fn`.
const fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

macro_rules! probe_methods {
    ($( $(#[$doc:meta])* $name:ident [$k:ident] $fam:ident: |$x:ident, $v:ident| $value:expr, $deriv:expr; )*) => {$(
        #[inline]
        fn $name(self) -> Self {
            let h = if const { linear_unary(stringify!($name)) } {
                self.h
            } else {
                unary::<M>(self.h)
            };
            Probe::new(value::$name(self.v), h)
        }
    )*};
}

/// The handle of an operation given as operands and partials (a distribution, a
/// `#[deriv_rule]` function, ...): nonlinear in all of them.
fn from_ops<M: Mode, D>(p: &Partials<Probe<M>, D>) -> u64 {
    let hs: Vec<u64> = p.ops.iter().map(|(x, _)| x.h).collect();
    nonlinear::<M>(&hs)
}

impl<M: Mode> Sealed for Probe<M> {}
impl<M: Mode> RealInternals for Probe<M> {
    type Inner = f64;
    type __Ctx = ();

    #[inline(always)]
    fn __ctx(&self, _: &mut ()) {}

    #[inline(always)]
    fn __inner(&self, _: &()) -> f64 {
        self.v
    }

    #[inline(always)]
    fn __f64_partials_suffice(&self) -> bool {
        true
    }

    fn __from_partials_in(
        _: &(),
        value: f64,
        partials: impl FnOnce(&mut Partials<Self, f64>),
    ) -> Self {
        let mut p = Partials::new();
        partials(&mut p);
        Probe::new(value, from_ops(&p))
    }

    fn __from_vjp<V>(values: &[f64], record: impl FnOnce(&mut Vec<Self>) -> V) -> Option<Vec<Self>>
    where
        V: Fn(&[f64], &mut [f64]) + 'static,
    {
        let mut inputs = Vec::new();
        let _vjp = record(&mut inputs);
        let hs: Vec<u64> = inputs.iter().map(|x| x.h).collect();
        let h = nonlinear::<M>(&hs);
        Some(values.iter().map(|&v| Probe::new(v, h)).collect())
    }

    #[inline]
    fn __polygamma(self, n: u32) -> Self {
        Probe::new(special::polygamma(n, self.v), unary::<M>(self.h))
    }
}

impl<M: Mode> Real for Probe<M> {
    #[inline]
    fn val(&self) -> f64 {
        self.v
    }

    fn from_partials(value: f64, partials: impl FnOnce(&mut Partials<Self>)) -> Self {
        let mut p = Partials::new();
        partials(&mut p);
        Probe::new(value, from_ops(&p))
    }

    with_unary_table!(probe_methods);

    #[inline]
    fn atan2(self, other: impl Into<Self>) -> Self {
        let b: Self = other.into();
        Probe::new(self.v.atan2(b.v), binary::<M>(self.h, b.h))
    }
    #[inline]
    fn log(self, base: impl Into<Self>) -> Self {
        let b: Self = base.into();
        Probe::new(self.v.log(b.v), binary::<M>(self.h, b.h))
    }
    #[inline]
    fn powi(self, n: i32) -> Self {
        let h = match n {
            0 => 0,
            1 => self.h,
            _ => unary::<M>(self.h),
        };
        Probe::new(self.v.powi(n), h)
    }
    #[inline]
    fn powf(self, n: impl Into<Self>) -> Self {
        let y: Self = n.into();
        Probe::new(self.v.powf(y.v), binary::<M>(self.h, y.h))
    }
    #[inline]
    fn hypot(self, other: impl Into<Self>) -> Self {
        let b: Self = other.into();
        Probe::new(self.v.hypot(b.v), binary::<M>(self.h, b.h))
    }
    #[inline]
    fn min(self, other: impl Into<Self>) -> Self {
        let b: Self = other.into();
        if deriv2::min_picks_first(self.v, b.v) {
            self
        } else {
            b
        }
    }
    #[inline]
    fn max(self, other: impl Into<Self>) -> Self {
        let b: Self = other.into();
        if deriv2::max_picks_first(self.v, b.v) {
            self
        } else {
            b
        }
    }
    #[inline]
    fn mul_add(self, a: impl Into<Self>, b: impl Into<Self>) -> Self {
        let (a, b): (Self, Self) = (a.into(), b.into());
        let h = linear2::<M>(mul::<M>(self.h, a.h), b.h);
        Probe::new(self.v.mul_add(a.v, b.v), h)
    }
    #[inline]
    fn signum(self) -> Self {
        Probe::new(self.v.signum(), 0)
    }
    #[inline]
    fn floor(self) -> Self {
        Probe::new(self.v.floor(), 0)
    }
    #[inline]
    fn ceil(self) -> Self {
        Probe::new(self.v.ceil(), 0)
    }
    #[inline]
    fn round(self) -> Self {
        Probe::new(self.v.round(), 0)
    }
    #[inline]
    fn trunc(self) -> Self {
        Probe::new(self.v.trunc(), 0)
    }
    #[inline]
    fn copysign(self, sign: impl Into<Self>) -> Self {
        let s: Self = sign.into();
        Probe::new(self.v.copysign(s.v), self.h)
    }
    #[inline]
    fn rem_euclid(self, rhs: impl Into<Self>) -> Self {
        let b: Self = rhs.into();
        Probe::new(self.v.rem_euclid(b.v), linear2::<M>(self.h, b.h))
    }
    #[inline]
    fn midpoint(self, other: impl Into<Self>) -> Self {
        let b: Self = other.into();
        Probe::new(self.v.midpoint(b.v), linear2::<M>(self.h, b.h))
    }
    #[inline]
    fn log_sum_exp(self, other: impl Into<Self>) -> Self {
        let b: Self = other.into();
        let v = special::log_sum_exp2(self.v, b.v);
        Probe::new(v, binary::<M>(self.h, b.h))
    }
}

/// The values of a slice of probes.
fn vals<M: Mode>(x: &[Probe<M>]) -> Vec<f64> {
    x.iter().map(|p| p.v).collect()
}

/// The handles of a slice of probes.
fn handles<M: Mode>(x: &[Probe<M>]) -> Vec<u64> {
    x.iter().map(|p| p.h).collect()
}

impl<M: Mode> SliceOps for Probe<M> {
    fn sum_slice(x: &[Self]) -> Self {
        Probe::new(f64::sum_slice(&vals(x)), linear::<M>(&handles(x)))
    }
    fn log_sum_exp_slice(x: &[Self]) -> Self {
        Probe::new(
            f64::log_sum_exp_slice(&vals(x)),
            nonlinear::<M>(&handles(x)),
        )
    }
    fn norm2_slice(x: &[Self]) -> Self {
        Probe::new(f64::norm2_slice(&vals(x)), nonlinear::<M>(&handles(x)))
    }
}

impl<M: Mode> Mix<Probe<M>> for Probe<M> {
    type Output = Probe<M>;
    fn dot(a: &[Self], b: &[Self]) -> Self {
        let v = <f64 as Mix<f64>>::dot(&vals(a), &vals(b));
        let terms: Vec<u64> = a.iter().zip(b).map(|(x, y)| mul::<M>(x.h, y.h)).collect();
        Probe::new(v, linear::<M>(&terms))
    }
}

impl<M: Mode> Mix<f64> for Probe<M> {
    type Output = Probe<M>;
    fn dot(a: &[Self], b: &[f64]) -> Self {
        let v = <f64 as Mix<f64>>::dot(&vals(a), b);
        let n = a.len().min(b.len());
        Probe::new(v, linear::<M>(&handles(&a[..n])))
    }
}

impl<M: Mode> Mix<Probe<M>> for f64 {
    type Output = Probe<M>;
    fn dot(a: &[f64], b: &[Probe<M>]) -> Probe<M> {
        <Probe<M> as Mix<f64>>::dot(b, a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type P = Probe<Fingerprint>;

    #[test]
    fn values_are_those_of_f64() {
        let (x, y) = (P::input(0.7, 0), P::input(-1.3, 1));
        let z = (x * y).exp() / (x.sin() + 2.0) - y.powi(3).atan2(x);
        let f = (0.7_f64 * -1.3).exp() / (0.7_f64.sin() + 2.0) - (-1.3_f64).powi(3).atan2(0.7);
        assert_eq!(z.val(), f);
    }

    #[test]
    fn equal_expressions_hash_equal_and_others_differ() {
        let (x, y) = (P::input(0.7, 0), P::input(-1.3, 1));
        let a = (x * y).sin() + 3.0 * x;
        let b = (x * y).sin() + 5.0 * x; // constants do not change the structure
        let c = (y * x).sin() + 3.0 * x; // operand order does
        let d = (x * y).sin() + 3.0 * y;
        assert_eq!(a.handle(), b.handle());
        assert_ne!(a.handle(), c.handle());
        assert_ne!(a.handle(), d.handle());
    }

    #[test]
    fn constants_and_transparent_operations() {
        let x = P::input(0.7, 0);
        assert_eq!(x.floor().handle(), 0);
        assert_eq!((2.0 * x - 1.0).abs().handle(), x.handle());
        assert_eq!(x.powi(0).handle(), 0);
        assert_ne!(x.powi(2).handle(), x.handle());
        assert_eq!(x.max(P::from(3.0)).handle(), 0);
        assert_eq!(x.min(P::from(3.0)).handle(), x.handle());
    }
}
