//! [`Fwd`]: forward mode that nests without perturbation confusion.
//!
//! Each call of [`derivative`](crate::derivative) (or
//! [`value_and_derivative`](crate::value_and_derivative)) introduces its own
//! infinitesimal εₗ, one per nesting level of this thread. A [`Fwd`] number is a
//! polynomial in the live ε's, multilinear (εₗ² = 0): its value plus one coefficient per
//! non-empty set of levels, stored in the forward arena. A derivative call reads the
//! coefficient of its own εₗ only, so a closure that captures an outer variable (itself
//! carrying an outer ε) differentiates correctly: d/dx [x · d/dy (x + y)] = 1, not 2
//! (Siskind and Pearlmutter's perturbation confusion).
//!
//! Functions of a `Fwd` take the dual view over its innermost ε: `f(p + q ε) = f(p) + f′(p)
//! q ε`, with `f(p)` and `f′(p)` again `Fwd` numbers over the outer ε's, from the
//! elementary table's derivative expressions, down to plain `f64`.

use super::arena::{self, Block};
use super::ops::{number_ops, Arith};
use crate::math::elementary::{deriv, deriv2, value, with_unary_table};
use crate::math::internals::{sealed::Sealed, RealInternals};
use crate::math::real::{Partials, Real};
use crate::math::slice::{Mix, SliceOps};

/// A forward-mode number carrying any number of nested perturbations, one per enclosing
/// [`derivative`](crate::derivative) call: the scalar of the closures that `derivative`
/// and [`value_and_derivative`](crate::value_and_derivative) differentiate. It implements
/// [`Real`], so generic bodies,
/// distributions and `#[deriv_rule]` functions (with partials written in their
/// arguments) run on it to any depth.
///
/// A `Fwd` made inside a `derivative` call must not outlive it (using one afterwards
/// panics): return the derivative, or `.val()`.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// use fazang::{derivative, Fwd};
/// // d/dx [x · d/dy (x + y) at y = 1] at x = 1: the inner derivative is 1, so 1, not 2.
/// let d = derivative(|x: Fwd| x * derivative(|y| x + y, 1.0), 1.0);
/// assert_eq!(d.val(), 1.0);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Fwd {
    /// The value (the coefficient of no ε).
    pub(super) v: f64,
    /// The levels whose ε this number carries, one bit each.
    pub(super) mask: u64,
    /// The coefficient of every non-empty subset of `mask`'s levels, in the order of the
    /// subset's index (bit j of the index for the j-th lowest level of `mask`), minus one.
    pub(super) blk: Block,
}

/// Coefficients of a `Fwd` while an operation works on them: on the stack up to 8
/// (three perturbations), on the heap beyond.
enum Buf {
    Small([f64; 8], usize),
    Big(Vec<f64>),
}

impl Buf {
    fn zeros(len: usize) -> Buf {
        if len <= 8 {
            Buf::Small([0.0; 8], len)
        } else {
            Buf::Big(vec![0.0; len])
        }
    }
}

impl std::ops::Deref for Buf {
    type Target = [f64];
    fn deref(&self) -> &[f64] {
        match self {
            Buf::Small(a, n) => &a[..*n],
            Buf::Big(v) => v,
        }
    }
}

impl std::ops::DerefMut for Buf {
    fn deref_mut(&mut self) -> &mut [f64] {
        match self {
            Buf::Small(a, n) => &mut a[..*n],
            Buf::Big(v) => v,
        }
    }
}

/// The highest level of a mask, as a one-bit mask.
#[inline]
fn top(mask: u64) -> u64 {
    1 << (63 - mask.leading_zeros())
}

impl Fwd {
    /// A constant (no perturbation).
    ///
    /// ```
    /// use fazang::Fwd;
    /// assert_eq!(Fwd::constant(2.0), 2.0);
    /// ```
    pub const fn constant(v: f64) -> Fwd {
        Fwd {
            v,
            mask: 0,
            blk: Block::EMPTY,
        }
    }

    /// The number of nested perturbations this number carries.
    ///
    /// ```
    /// use fazang::prelude::*;
    /// use fazang::{derivative, Fwd};
    /// let d = derivative(|x: Fwd| { assert_eq!(x.depth(), 1); x * x }, 3.0);
    /// assert_eq!((d.val(), d.depth()), (6.0, 0));
    /// ```
    pub fn depth(&self) -> u32 {
        self.mask.count_ones()
    }

    /// The coefficients over the subsets of `to` (`self.mask ⊆ to`), the value first.
    fn dense_in(&self, to: u64) -> Buf {
        let mut out = Buf::zeros(1 << to.count_ones());
        out[0] = self.v;
        if self.mask == 0 {
            return out;
        }
        arena::read(self.blk, |c| {
            if self.mask == to {
                out[1..=c.len()].copy_from_slice(c);
                return;
            }
            // Where each bit of self.mask lands in `to`, then the index of every subset
            // from the one without its lowest bit.
            let mut pos = [0usize; 64];
            let (mut bits, mut j) = (self.mask, 0);
            while bits != 0 {
                let b = bits & bits.wrapping_neg();
                pos[j] = 1 << (to & (b - 1)).count_ones();
                bits &= bits - 1;
                j += 1;
            }
            let (mut small, mut big) = ([0usize; 16], Vec::new());
            let idx: &mut [usize] = if c.len() < 16 {
                &mut small[..=c.len()]
            } else {
                big.resize(c.len() + 1, 0);
                &mut big
            };
            for (s, &x) in c.iter().enumerate() {
                let s = s + 1;
                idx[s] = idx[s & (s - 1)] | pos[s.trailing_zeros() as usize];
                out[idx[s]] = x;
            }
        });
        out
    }

    fn from_dense(mask: u64, d: &[f64]) -> Fwd {
        Fwd {
            v: d[0],
            mask,
            blk: if mask == 0 {
                Block::EMPTY
            } else {
                arena::alloc(&d[1..])
            },
        }
    }

    /// `(p, q)` with `self = p + q εₗ` for the level `bit` (p, q free of it).
    pub(super) fn split(&self, bit: u64) -> (Fwd, Fwd) {
        if self.mask & bit == 0 {
            return (*self, Fwd::constant(0.0));
        }
        let rest = self.mask & !bit;
        let d = self.dense_in(self.mask);
        let j = (self.mask & (bit - 1)).count_ones();
        let half = d.len() / 2;
        let (mut p, mut q) = (Buf::zeros(half), Buf::zeros(half));
        for s in 0..half {
            let e = ((s >> j) << (j + 1)) | (s & ((1 << j) - 1));
            p[s] = d[e];
            q[s] = d[e | (1 << j)];
        }
        (Fwd::from_dense(rest, &p), Fwd::from_dense(rest, &q))
    }

    /// `p + q εₗ` for the level `bit` (p, q free of it).
    pub(super) fn join(p: Fwd, q: Fwd, bit: u64) -> Fwd {
        if q.mask == 0 && q.v == 0.0 {
            return p;
        }
        let rest = p.mask | q.mask;
        let mask = rest | bit;
        let (dp, dq) = (p.dense_in(rest), q.dense_in(rest));
        let j = (mask & (bit - 1)).count_ones();
        let mut d = Buf::zeros(dp.len() * 2);
        for s in 0..dp.len() {
            let e = ((s >> j) << (j + 1)) | (s & ((1 << j) - 1));
            d[e] = dp[s];
            d[e | (1 << j)] = dq[s];
        }
        Fwd::from_dense(mask, &d)
    }

    /// Element-wise `f` over the union of the perturbations.
    fn zip(&self, o: &Fwd, f: impl Fn(f64, f64) -> f64) -> Fwd {
        let mask = self.mask | o.mask;
        let (mut a, b) = (self.dense_in(mask), o.dense_in(mask));
        for (x, y) in a.iter_mut().zip(b.iter()) {
            *x = f(*x, *y);
        }
        Fwd::from_dense(mask, &a)
    }

    fn map(&self, f: impl Fn(f64) -> f64) -> Fwd {
        let mut d = self.dense_in(self.mask);
        d.iter_mut().for_each(|x| *x = f(*x));
        Fwd::from_dense(self.mask, &d)
    }

    /// The product: a subset convolution (εₗ² = 0).
    fn product(&self, o: &Fwd) -> Fwd {
        let mask = self.mask | o.mask;
        if mask == 0 {
            return Fwd::constant(self.v * o.v);
        }
        let (a, b) = (self.dense_in(mask), o.dense_in(mask));
        let mut d = Buf::zeros(a.len());
        for (s, ds) in d.iter_mut().enumerate() {
            // Every subset t of s, with its complement s \ t.
            let mut t = s;
            loop {
                *ds += a[t] * b[s ^ t];
                if t == 0 {
                    break;
                }
                t = (t - 1) & s;
            }
        }
        Fwd::from_dense(mask, &d)
    }
}

/// `f(u)` by the dual view over u's innermost perturbation: `f(p) + f′(p) q ε`.
#[inline]
fn unary(
    u: Fwd,
    value: impl Fn(f64) -> f64,
    f: impl Fn(Fwd) -> Fwd,
    d: impl Fn(Fwd, Fwd) -> Fwd,
) -> Fwd {
    if u.mask == 0 {
        return Fwd::constant(value(u.v));
    }
    let t = top(u.mask);
    let (p, q) = u.split(t);
    let vp = f(p);
    Fwd::join(vp, d(p, vp) * q, t)
}

/// `f(a, b)` by the dual view over the innermost perturbation of either.
#[inline]
fn binary(
    a: Fwd,
    b: Fwd,
    value: impl Fn(f64, f64) -> f64,
    f: impl Fn(Fwd, Fwd) -> Fwd,
    d: impl Fn(Fwd, Fwd, Fwd) -> (Fwd, Fwd),
) -> Fwd {
    let mask = a.mask | b.mask;
    if mask == 0 {
        return Fwd::constant(value(a.v, b.v));
    }
    let t = top(mask);
    let ((pa, qa), (pb, qb)) = (a.split(t), b.split(t));
    let v = f(pa, pb);
    let (da, db) = d(pa, pb, v);
    Fwd::join(v, da * qa + db * qb, t)
}

impl Arith for Fwd {
    fn add_(self, o: Fwd) -> Fwd {
        if self.mask == 0 && o.mask == 0 {
            return Fwd::constant(self.v + o.v);
        }
        self.zip(&o, |a, b| a + b)
    }
    fn sub_(self, o: Fwd) -> Fwd {
        if self.mask == 0 && o.mask == 0 {
            return Fwd::constant(self.v - o.v);
        }
        self.zip(&o, |a, b| a - b)
    }
    fn mul_(self, o: Fwd) -> Fwd {
        self.product(&o)
    }
    fn div_(self, o: Fwd) -> Fwd {
        binary(
            self,
            o,
            |a, b| a / b,
            Arith::div_,
            |_, b, q| (b.recip(), -q / b),
        )
    }
    fn neg_(self) -> Fwd {
        self.map(|a| -a)
    }
    fn add_f(self, f: f64) -> Fwd {
        arena::check(self.blk);
        Fwd {
            v: self.v + f,
            ..self
        }
    }
    fn f_sub(self, f: f64) -> Fwd {
        let mut out = self.neg_();
        out.v = f - self.v;
        out
    }
    fn mul_f(self, f: f64) -> Fwd {
        self.map(|a| a * f)
    }
    fn div_f(self, f: f64) -> Fwd {
        self.map(|a| a / f)
    }
    fn f_div(self, f: f64) -> Fwd {
        Fwd::constant(f).div_(self)
    }
    fn rem_(self, o: Fwd) -> Fwd {
        let r = self.v % o.v;
        let (_, db) = deriv2::rem(self.v, o.v, r);
        Fwd {
            v: r,
            ..(self + o * db)
        }
    }
    fn rem_f(self, f: f64) -> Fwd {
        arena::check(self.blk);
        Fwd {
            v: self.v % f,
            ..self
        }
    }
    fn f_rem(self, f: f64) -> Fwd {
        let r = f % self.v;
        let (_, db) = deriv2::rem(f, self.v, r);
        Fwd {
            v: r,
            ..(self * db)
        }
    }
    fn cst(f: f64) -> Fwd {
        Fwd::constant(f)
    }
    fn value(&self) -> f64 {
        self.v
    }
}

number_ops!([] Fwd, []);
crate::math::interop::num_traits_for!(Fwd);
crate::math::interop::inherent_math!(Fwd);

macro_rules! fwd_methods {
    ($( $(#[$doc:meta])* $name:ident [$k:ident] $fam:ident: |$x:ident, $v:ident| $value:expr, $deriv:expr; )*) => {$(
        fn $name(self) -> Fwd {
            unary(self, value::$name, Fwd::$name, deriv::$name)
        }
    )*};
}

/// The panic of `f64` partials on a number with nested perturbations.
#[cold]
#[track_caller]
fn f64_partials_lost(what: &str) -> ! {
    panic!(
        "fazang: {what} (called where this panic points) gave partial derivatives as f64 to \
         a number nested in several `derivative` calls: the derivatives of the partials \
         would be lost, so this operation is first-order only. Compute it from the scalar's \
         own methods (arithmetic and `Real` methods differentiate to any order), or give a \
         #[deriv_rule] its partials as expressions in its arguments, which are evaluated \
         on the scalar itself"
    )
}

impl Sealed for Fwd {}
impl RealInternals for Fwd {
    type Inner = Fwd;
    /// The union of the operands' perturbations.
    type __Ctx = u64;
    fn __ctx(&self, ctx: &mut u64) {
        *ctx |= self.mask;
    }
    fn __inner(&self, ctx: &u64) -> Fwd {
        if *ctx == 0 {
            return *self;
        }
        self.split(top(*ctx)).0
    }
    fn __f64_partials_suffice(&self) -> bool {
        self.mask.count_ones() <= 1
    }
    fn __is_const_zero(&self) -> bool {
        self.mask == 0 && self.v == 0.0
    }
    fn __from_partials_in(
        ctx: &u64,
        value: Fwd,
        partials: impl FnOnce(&mut Partials<Fwd, Fwd>),
    ) -> Fwd {
        let mut p = Partials::new();
        partials(&mut p);
        if *ctx == 0 {
            return value;
        }
        let t = top(*ctx);
        let tangent = p
            .ops
            .iter()
            .fold(Fwd::constant(0.0), |acc, (x, d)| acc + *d * x.split(t).1);
        Fwd::join(value, tangent, t)
    }
    #[track_caller]
    fn __from_vjp<V>(values: &[f64], record: impl FnOnce(&mut Vec<Fwd>) -> V) -> Option<Vec<Fwd>>
    where
        V: Fn(&[f64], &mut [f64]) + 'static,
    {
        let mut inputs = Vec::new();
        let vjp = record(&mut inputs);
        if inputs.iter().any(|x| x.mask.count_ones() > 1) {
            f64_partials_lost("a vector-Jacobian product (`adjoint = ..`)");
        }
        let (mut ds, mut row) = (vec![0.0; values.len()], vec![0.0; inputs.len()]);
        let out = (0..values.len())
            .map(|i| {
                ds.iter_mut().for_each(|d| *d = 0.0);
                ds[i] = 1.0;
                row.iter_mut().for_each(|r| *r = 0.0);
                vjp(&ds, &mut row);
                inputs
                    .iter()
                    .zip(&row)
                    .fold(Fwd::constant(values[i]), |acc, (x, &j)| {
                        acc + (*x - x.v) * j
                    })
            })
            .collect();
        Some(out)
    }

    fn __polygamma(self, n: u32) -> Fwd {
        unary(
            self,
            |x| crate::math::special::polygamma(n, x),
            |p| p.__polygamma(n),
            |p, _| p.__polygamma(n + 1),
        )
    }
}
impl Real for Fwd {
    fn val(&self) -> f64 {
        self.v
    }
    #[track_caller]
    fn from_partials(value: f64, partials: impl FnOnce(&mut Partials<Fwd>)) -> Fwd {
        let mut p = Partials::new();
        partials(&mut p);
        if p.ops.iter().any(|(x, _)| x.mask.count_ones() > 1) {
            f64_partials_lost("a custom operation built with `Real::from_partials`");
        }
        p.ops
            .iter()
            .fold(Fwd::constant(value), |acc, (x, d)| acc + (*x - x.v) * *d)
    }

    with_unary_table!(fwd_methods);
    fn atan2(self, other: impl Into<Fwd>) -> Fwd {
        binary(self, other.into(), f64::atan2, Real::atan2, |y, x, _| {
            deriv2::atan2(y, x)
        })
    }
    fn log(self, base: impl Into<Fwd>) -> Fwd {
        binary(self, base.into(), f64::log, Real::log, |x, b, _| {
            deriv2::log(x, b)
        })
    }
    fn powi(self, n: i32) -> Fwd {
        unary(
            self,
            |x| x.powi(n),
            |p| p.powi(n),
            |p, _| deriv2::powi(p, n),
        )
    }
    fn powf(self, n: impl Into<Fwd>) -> Fwd {
        binary(self, n.into(), f64::powf, Real::powf, deriv2::powf)
    }
    fn hypot(self, other: impl Into<Fwd>) -> Fwd {
        binary(self, other.into(), f64::hypot, Real::hypot, deriv2::hypot)
    }
    fn min(self, other: impl Into<Fwd>) -> Fwd {
        let b = other.into();
        if deriv2::min_picks_first(self.v, b.v) {
            self
        } else {
            b
        }
    }
    fn max(self, other: impl Into<Fwd>) -> Fwd {
        let b = other.into();
        if deriv2::max_picks_first(self.v, b.v) {
            self
        } else {
            b
        }
    }
    fn mul_add(self, a: impl Into<Fwd>, b: impl Into<Fwd>) -> Fwd {
        self * a.into() + b.into()
    }
    fn signum(self) -> Fwd {
        Fwd::constant(self.v.signum())
    }
    fn floor(self) -> Fwd {
        Fwd::constant(self.v.floor())
    }
    fn ceil(self) -> Fwd {
        Fwd::constant(self.v.ceil())
    }
    fn round(self) -> Fwd {
        Fwd::constant(self.v.round())
    }
    fn trunc(self) -> Fwd {
        Fwd::constant(self.v.trunc())
    }
    fn copysign(self, sign: impl Into<Fwd>) -> Fwd {
        let s = sign.into();
        let (dx, _) = deriv2::copysign(self.v, s.v);
        Fwd {
            v: self.v.copysign(s.v),
            ..(self * dx)
        }
    }
    fn rem_euclid(self, rhs: impl Into<Fwd>) -> Fwd {
        let b = rhs.into();
        let r = self.v.rem_euclid(b.v);
        let (_, db) = deriv2::rem(self.v, b.v, r);
        Fwd {
            v: r,
            ..(self + b * db)
        }
    }
    fn midpoint(self, other: impl Into<Fwd>) -> Fwd {
        let b = other.into();
        Fwd {
            v: self.v.midpoint(b.v),
            ..((self + b) * 0.5)
        }
    }
    fn log_sum_exp(self, other: impl Into<Fwd>) -> Fwd {
        binary(
            self,
            other.into(),
            |a, b| a.log_sum_exp(b),
            |a, b| a.log_sum_exp(b),
            |a, b, _| deriv2::log_sum_exp(a, b),
        )
    }
}

impl SliceOps for Fwd {
    fn sum_slice(x: &[Fwd]) -> Fwd {
        x.iter().copied().sum()
    }
    fn log_sum_exp_slice(x: &[Fwd]) -> Fwd {
        super::graded::log_sum_exp(x)
    }
    fn norm2_slice(x: &[Fwd]) -> Fwd {
        super::graded::norm2(x)
    }
}

impl Mix<Fwd> for Fwd {
    type Output = Fwd;
    fn dot(a: &[Fwd], b: &[Fwd]) -> Fwd {
        a.iter().zip(b).map(|(x, y)| *x * *y).sum()
    }
}

impl Mix<f64> for Fwd {
    type Output = Fwd;
    fn dot(a: &[Fwd], b: &[f64]) -> Fwd {
        a.iter().zip(b).map(|(x, y)| *x * *y).sum()
    }
}

impl Mix<Fwd> for f64 {
    type Output = Fwd;
    fn dot(a: &[f64], b: &[Fwd]) -> Fwd {
        a.iter().zip(b).map(|(x, y)| *y * *x).sum()
    }
}
