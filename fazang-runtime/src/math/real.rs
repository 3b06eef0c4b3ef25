//! [`Real`], the scalar trait every differentiable body is generic over.

use super::elementary::with_unary_table;
use super::internals::RealInternals;
use std::cmp::Ordering;
use std::fmt::{Debug, Display, LowerExp};
use std::iter::{Product, Sum};
use std::num::FpCategory;
use std::ops::{
    Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Rem, RemAssign, Sub, SubAssign,
};

/// Operands and their partial derivatives, collected by [`Real::from_partials`].
///
/// The partials are `f64` (`D = f64`) for [`Real::from_partials`]; code that computes
/// partials in the scalar one derivative order below (`D = S::Inner`, so that they can be
/// differentiated again, as distributions and `#[deriv_rule]` functions do) uses the
/// hidden `__from_partials_in`.
pub struct Partials<S, D = f64> {
    pub(crate) ops: Vec<(S, D)>,
}

impl<S, D> Partials<S, D> {
    /// Record that the result has partial derivative `d` with respect to `x` (constant
    /// operands, such as `f64` values converted with `into()`, are skipped).
    #[inline]
    pub fn push(&mut self, x: S, d: D) {
        self.ops.push((x, d));
    }

    /// An empty collection.
    #[inline]
    pub(crate) fn new() -> Self {
        Partials { ops: Vec::new() }
    }
}

/// The scalar of fazang: implemented by `f64` (the primal, zero cost) and by
/// [`Var`](crate::Var) (records onto the tape), and designed for forward-mode types
/// generic over an inner `Real` (`Dual<S>`), so one body serves every mode.
///
/// Methods carry `f64`'s names and meanings. Binary methods take `impl Into<Self>`, so
/// `x.powf(2.0)` and `x.powf(y)` both work. Beyond `f64`'s methods, `Real` has Fazang's
/// `erf erfc log_gamma square inv inv_square inv_sqrt logit inv_logit`, on `f64` too.
///
/// Every scalar is `Send + Sync` (a value, or a value and an index into its thread's tape),
/// so generic code may hand closures over `S` to a thread pool ([`reduce_sum`](crate::reduce_sum)).
///
/// Operators with `f64` on the left (`2.0 * x`) cannot be supertraits; generic code
/// states them as `where f64: Mul<S, Output = S>` (`#[differentiate]` does this for you).
///
/// `Real` is implemented by fazang's number types only (it is sealed); what generated code
/// needs of them beyond this math is in a hidden supertrait.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
///
/// fn logistic<S: Real>(x: S, k: f64) -> S {
///     (x * k).inv_logit()
/// }
/// let v: f64 = logistic(0.3, 2.0);
/// let x = Var::new(0.3);
/// let y = logistic(x, 2.0);
/// y.grad();
/// assert_eq!(y.val(), v);
/// assert!((x.adj() - 2.0 * v * (1.0 - v)).abs() < 1e-15);
/// # fazang::clear_tape();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a number fazang can differentiate",
    label = "expected `f64` here, found `{Self}`",
    note = "#[differentiate] functions take `f64` values and arrays, slices and vectors of them; write `2.0` for a number rather than `2`, and convert other types with `f64::from(..)` or `as f64`"
)]
pub trait Real:
    RealInternals
    + Copy
    + Send
    + Sync
    + Debug
    + Display
    + LowerExp
    + Default
    + PartialEq
    + PartialOrd
    + PartialEq<f64>
    + PartialOrd<f64>
    + From<f64>
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Rem<Output = Self>
    + Neg<Output = Self>
    + Add<f64, Output = Self>
    + Sub<f64, Output = Self>
    + Mul<f64, Output = Self>
    + Div<f64, Output = Self>
    + Rem<f64, Output = Self>
    + for<'a> Add<&'a Self, Output = Self>
    + for<'a> Sub<&'a Self, Output = Self>
    + for<'a> Mul<&'a Self, Output = Self>
    + for<'a> Div<&'a Self, Output = Self>
    + for<'a> Rem<&'a Self, Output = Self>
    + for<'a> Add<&'a f64, Output = Self>
    + for<'a> Sub<&'a f64, Output = Self>
    + for<'a> Mul<&'a f64, Output = Self>
    + for<'a> Div<&'a f64, Output = Self>
    + for<'a> Rem<&'a f64, Output = Self>
    + AddAssign
    + SubAssign
    + MulAssign
    + DivAssign
    + RemAssign
    + AddAssign<f64>
    + SubAssign<f64>
    + MulAssign<f64>
    + DivAssign<f64>
    + RemAssign<f64>
    + for<'a> AddAssign<&'a Self>
    + for<'a> SubAssign<&'a Self>
    + for<'a> MulAssign<&'a Self>
    + for<'a> DivAssign<&'a Self>
    + for<'a> RemAssign<&'a Self>
    + for<'a> AddAssign<&'a f64>
    + for<'a> SubAssign<&'a f64>
    + for<'a> MulAssign<&'a f64>
    + for<'a> DivAssign<&'a f64>
    + for<'a> RemAssign<&'a f64>
    + Sum
    + Product
    + for<'a> Sum<&'a Self>
    + Sum<f64>
    + for<'a> Sum<&'a f64>
    + for<'a> Product<&'a Self>
    + crate::math::slice::SliceOps
    + crate::math::slice::Mix<Self, Output = Self>
    + crate::math::slice::Mix<f64, Output = Self>
    + 'static
{
    /// The value as a plain `f64` (the primal value for active types).
    fn val(&self) -> f64;

    /// Build a result from its value and its partial derivatives with respect to
    /// operands of type `Self` (Stan's operands-and-partials; what `#[deriv_rule]` and the
    /// distributions expand to). `partials` is called only when `Self` is active: on
    /// `f64` this returns `value` and computes no derivative at all.
    ///
    /// ```
    /// # use fazang::prelude::*;
    /// // f(a, b) = a b with hand-written partials, generic over the scalar.
    /// fn mul2<S: Real>(a: S, b: S) -> S {
    ///     let (av, bv) = (a.val(), b.val());
    ///     S::from_partials(av * bv, |p| {
    ///         p.push(a, bv);
    ///         p.push(b, av);
    ///     })
    /// }
    /// assert_eq!(mul2(3.0, 4.0), 12.0);
    /// let (a, b) = (Var::new(3.0), Var::new(4.0));
    /// mul2(a, b).grad();
    /// assert_eq!((a.adj(), b.adj()), (4.0, 3.0));
    /// # fazang::clear_tape();
    /// ```
    ///
    /// `f64` partials give first derivatives only: on a scalar that carries second
    /// derivatives through the operands, this panics naming the caller's location.
    #[track_caller]
    fn from_partials(value: f64, partials: impl FnOnce(&mut Partials<Self>)) -> Self;

    // One method per row of the elementary table, with the row's doc.
    with_unary_table!(declare_unary);

    /// Four-quadrant arctangent of `self / other`. d/dy = x/(x²+y²), d/dx = -y/(x²+y²).
    fn atan2(self, other: impl Into<Self>) -> Self;
    /// Sine and cosine at once.
    fn sin_cos(self) -> (Self, Self) {
        (self.sin(), self.cos())
    }
    /// Logarithm to base `base`. d/dx = 1/(x ln b), d/db = -ln x/(b ln² b).
    fn log(self, base: impl Into<Self>) -> Self;
    /// Integer power. d/dx = n xⁿ⁻¹.
    fn powi(self, n: i32) -> Self;
    /// Real power xʸ. d/dx = y xʸ⁻¹, d/dy = xʸ ln x (taken as 0 where x = 0).
    fn powf(self, n: impl Into<Self>) -> Self;
    /// √(x² + y²) without overflow. d/dx = x/h, d/dy = y/h (0 where h = 0).
    fn hypot(self, other: impl Into<Self>) -> Self;
    /// The smaller of two values (ignoring NaN, as `f64::min`); the derivative follows
    /// the one chosen, which is `self` on a tie.
    fn min(self, other: impl Into<Self>) -> Self;
    /// The larger of two values (ignoring NaN, as `f64::max`); the derivative follows
    /// the one chosen, which is `self` on a tie.
    fn max(self, other: impl Into<Self>) -> Self;
    /// `self * a + b`. Partials a, self, 1.
    fn mul_add(self, a: impl Into<Self>, b: impl Into<Self>) -> Self;
    /// Sign (1, -1 or NaN). Derivative 0.
    fn signum(self) -> Self;
    /// Largest integer ≤ x. Derivative 0.
    fn floor(self) -> Self;
    /// Smallest integer ≥ x. Derivative 0.
    fn ceil(self) -> Self;
    /// Nearest integer, ties away from zero. Derivative 0.
    fn round(self) -> Self;
    /// Integer part. Derivative 0.
    fn trunc(self) -> Self;
    /// Rounds to the nearest integer, ties to even. Derivative 0.
    fn round_ties_even(self) -> Self {
        Self::from(self.val().round_ties_even())
    }
    /// `self` restricted to `[lo, hi]`: `lo` if `self < lo`, `hi` if `self > hi`,
    /// otherwise `self` (NaN stays NaN). The result *is* the argument returned, so the
    /// derivative flows to it: 1 for `self` inside, 1 for the bound that is returned.
    ///
    /// Like `f64::clamp`, panics if `lo > hi` or either bound is NaN (compared by value).
    ///
    /// ```
    /// # use fazang::prelude::*;
    /// let (x, hi) = (Var::new(3.0), Var::new(2.0));
    /// let y = x.clamp(0.0, hi);
    /// y.grad();
    /// assert_eq!((y.val(), x.adj(), hi.adj()), (2.0, 0.0, 1.0));
    /// # fazang::clear_tape();
    /// ```
    fn clamp(self, lo: impl Into<Self>, hi: impl Into<Self>) -> Self {
        let (lo, hi) = (lo.into(), hi.into());
        if lo.val().partial_cmp(&hi.val()).is_none_or(Ordering::is_gt) {
            clamp_bounds_panic(lo.val(), hi.val());
        }
        if self < lo {
            lo
        } else if self > hi {
            hi
        } else {
            self
        }
    }
    /// `|self|` with the sign of `sign` (its sign bit, as `f64::copysign`). d/dself = ±1
    /// (1 where the signs agree; 0 at `self = 0`, as [`abs`](Real::abs)), d/dsign = 0.
    fn copysign(self, sign: impl Into<Self>) -> Self;
    /// The least nonnegative remainder `self mod |rhs|`, as `f64::rem_euclid`:
    /// `self - rhs * q` with `q` the Euclidean quotient. d/dself = 1, d/drhs = -q.
    fn rem_euclid(self, rhs: impl Into<Self>) -> Self;
    /// The Euclidean quotient, as `f64::div_euclid` (an integer). Derivative 0.
    fn div_euclid(self, rhs: impl Into<Self>) -> Self {
        Self::from(self.val().div_euclid(rhs.into().val()))
    }
    /// The midpoint `(self + other) / 2`, without overflow, as `f64::midpoint`. Partials
    /// 1/2, 1/2.
    fn midpoint(self, other: impl Into<Self>) -> Self {
        let b = other.into();
        Self::from_partials(self.val().midpoint(b.val()), |p| {
            p.push(self, 0.5);
            p.push(b, 0.5);
        })
    }
    /// ln(e^self + e^other), without overflow (Stan's two-argument `log_sum_exp`; the
    /// free function [`log_sum_exp`](crate::log_sum_exp) takes a slice). Partials
    /// 1/(1+e^(other-self)) and 1/(1+e^(self-other)), each 1/2 where the arguments are
    /// equal (also both -∞).
    ///
    /// ```
    /// # use fazang::prelude::*;
    /// let v = 1000.0_f64.log_sum_exp(1000.0);
    /// assert_eq!(v, 1000.0 + std::f64::consts::LN_2);
    /// ```
    fn log_sum_exp(self, other: impl Into<Self>) -> Self;
    /// The total order of `f64::total_cmp` on the values (`-NaN < -∞ < ... < -0 < +0 <
    /// ... < ∞ < NaN`), for sorting: `v.sort_by(|a, b| a.total_cmp(b))`.
    fn total_cmp(&self, other: &Self) -> Ordering {
        self.val().total_cmp(&other.val())
    }
    /// Whether the value is NaN.
    fn is_nan(self) -> bool {
        self.val().is_nan()
    }
    /// Whether the value is finite.
    fn is_finite(self) -> bool {
        self.val().is_finite()
    }
    /// Whether the value is ±∞.
    fn is_infinite(self) -> bool {
        self.val().is_infinite()
    }
    /// Whether the value is neither zero, infinite, subnormal nor NaN.
    fn is_normal(self) -> bool {
        self.val().is_normal()
    }
    /// Whether the value is subnormal.
    fn is_subnormal(self) -> bool {
        self.val().is_subnormal()
    }
    /// The floating-point category of the value.
    fn classify(self) -> FpCategory {
        self.val().classify()
    }
    /// Whether the sign bit of the value is set.
    fn is_sign_negative(self) -> bool {
        self.val().is_sign_negative()
    }
    /// Whether the sign bit of the value is clear.
    fn is_sign_positive(self) -> bool {
        self.val().is_sign_positive()
    }
}

/// `Real`'s declarations of the elementary table's functions (`fn sin(self) -> Self;`, ...).
macro_rules! declare_unary {
    ($( $(#[$doc:meta])* $name:ident [$k:ident] $fam:ident: |$x:ident, $v:ident| $value:expr, $deriv:expr; )*) => {$(
        $(#[$doc])*
        fn $name(self) -> Self;
    )*};
}
use declare_unary;

/// The panic of [`Real::clamp`] for bad bounds, with `f64::clamp`'s condition.
#[cold]
#[inline(never)]
#[track_caller]
fn clamp_bounds_panic(lo: f64, hi: f64) -> ! {
    panic!(
        "fazang: clamp(lo, hi) needs lo <= hi and neither NaN (as f64::clamp), got lo = \
         {lo:?}, hi = {hi:?}; order the bounds, or use max(lo).min(hi) to clamp without \
         this check"
    )
}
