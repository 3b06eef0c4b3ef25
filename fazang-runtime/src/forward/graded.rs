//! The engine of the truncated series ([`Taylor`](super::Taylor), [`Jet`](super::Jet)):
//! every function of a series from the elementary table's first derivative.
//!
//! A series `u = u₀ + h` (h without constant term) is graded by total degree. The Euler
//! operator `E` (multiply the degree-d part by d) is a derivation, so for `y = f(u)`
//!
//! ```text
//! E y = f′(u) · E u,    y = f(u₀) + E⁻¹[ f′(u) · E u ]
//! ```
//!
//! and the degree-d part of `f′(u) · E u` needs `f′(u)` only to degree d − 1 (E u has no
//! constant term). So a function of a series of order k needs its derivative at the
//! series truncated to order k − 1: the derivative expression of the table, evaluated on
//! the series type itself one order lower, recursively down to order 0. Where the
//! derivative is written in terms of the value (`exp′ = v`), `y` is found by a fixed-point
//! iteration that gains one order per step. Several operands (binary functions,
//! distributions, rules) add their terms: `E y = Σₘ ∂ₘf · E uₘ`.

use super::ops::Arith;
use crate::math::real::{Partials, Real};

/// A truncated series graded by total degree, valid up to a runtime order.
pub(crate) trait Graded: Arith + Real {
    /// The degree up to which the coefficients are valid.
    fn order(&self) -> usize;
    /// The series cut after degree `k` (its order becomes at most `k`).
    fn truncate(&self, k: usize) -> Self;
    /// The Euler operator: the degree-d part times d.
    fn euler(&self) -> Self;
    /// The inverse of [`Graded::euler`] on series without constant term: the degree-d
    /// part divided by d (the constant term dropped).
    fn euler_inv(&self) -> Self;
    /// `p · h` where `h` has no constant term: valid to one order more than `p`.
    fn mul_nilpotent(&self, h: &Self) -> Self;
    /// The constant `v`, valid to order `k`.
    fn constant_to(v: f64, k: usize) -> Self;
    /// Whether every coefficient but the constant is zero.
    fn is_flat(&self) -> bool;
    /// The same series with the constant term `v`.
    fn with_value(&self, v: f64) -> Self;
}

/// `a + b·db` with the value `r`: a result whose partials are 1 and the constant `db`
/// (`%`, `rem_euclid`), its value computed on `f64`.
#[inline]
pub(crate) fn shifted<X: Graded>(a: X, b: X, db: f64, r: f64) -> X {
    (a + b * db).with_value(r)
}

/// `f(u)` from its value `f(u₀)` and its derivative `d(x, v)` (evaluated one order
/// lower); `uses_v` when `d` reads the value.
#[inline]
pub(crate) fn unary<X: Graded>(u: X, value: f64, uses_v: bool, d: impl Fn(X, X) -> X) -> X {
    let k = u.order();
    let y0 = X::constant_to(value, k);
    if k == 0 || u.is_flat() {
        return y0;
    }
    let ui = u.truncate(k - 1);
    let eu = u.euler();
    let step = |y: X| y0 + d(ui, y.truncate(k - 1)).mul_nilpotent(&eu).euler_inv();
    if !uses_v {
        return step(y0);
    }
    (0..k).fold(y0, |y, _| step(y))
}

/// `f(a, b)` from its value and its partials `d(a, b, v) = (∂f/∂a, ∂f/∂b)`; `uses_v`
/// when they read the value.
#[inline]
pub(crate) fn binary<X: Graded>(
    a: X,
    b: X,
    value: f64,
    uses_v: bool,
    d: impl Fn(X, X, X) -> (X, X),
) -> X {
    let k = a.order().min(b.order());
    let y0 = X::constant_to(value, k);
    if k == 0 || (a.is_flat() && b.is_flat()) {
        return y0;
    }
    let (ai, bi) = (a.truncate(k - 1), b.truncate(k - 1));
    let (ea, eb) = (a.euler(), b.euler());
    let step = |y: X| {
        let (da, db) = d(ai, bi, y.truncate(k - 1));
        (y0 + (da.mul_nilpotent(&ea) + db.mul_nilpotent(&eb)).euler_inv()).truncate(k)
    };
    if !uses_v {
        return step(y0);
    }
    (0..k).fold(y0, |y, _| step(y))
}

/// `x^y`. With a constant exponent, a unary function whose derivative is again a power;
/// with x₀ ≠ 0, the partials written with the value, (v y/x, v ln x), so that the
/// fixed point does not recurse into `powf`; at x₀ = 0 the table's partials.
#[inline]
pub(crate) fn powf<X: Graded>(x: X, y: X) -> X {
    let v = x.val().powf(y.val());
    if y.is_flat() {
        let e = y.val();
        return unary(x, v, false, |x: X, _| {
            if e == 0.0 {
                X::from(0.0)
            } else {
                x.powf(e - 1.0) * e
            }
        });
    }
    if x.val() != 0.0 {
        return binary(x, y, v, true, |x, y, v| (v * y / x, v * x.ln()));
    }
    binary(x, y, v, true, crate::math::elementary::deriv2::powf)
}

/// `a / b` by the fixed point `q = (a − (b − b₀) q) / b₀`, one order per step.
#[inline]
pub(crate) fn div<X: Graded>(a: X, b: X) -> X {
    let k = a.order().min(b.order());
    let b0 = b.val();
    let q0 = X::constant_to(a.val() / b0, k);
    if b.is_flat() {
        return a.truncate(k).div_f(b0);
    }
    let hb = b - b0;
    (0..k).fold(q0, |q, _| (a - q.mul_nilpotent(&hb)).truncate(k).div_f(b0))
}

/// The result of partials computed one order lower on the operands' inner parts (a
/// distribution or a rule): `y = value₀ + E⁻¹ Σₘ pₘ · E uₘ`.
pub(crate) fn from_partials_in<X: Graded>(
    value: X,
    partials: impl FnOnce(&mut Partials<X, X>),
) -> X {
    let mut p = Partials::new();
    partials(&mut p);
    let k = p.ops.iter().map(|(x, _)| x.order()).min().unwrap_or(0);
    let y0 = X::constant_to(value.val(), k);
    if k == 0 {
        return y0;
    }
    let sum = p
        .ops
        .iter()
        .filter(|(x, _)| !x.is_flat())
        .fold(X::constant_to(0.0, k), |acc, (x, d)| {
            acc + d.mul_nilpotent(&x.euler())
        });
    (y0 + sum.euler_inv()).truncate(k)
}

/// The result of `f64` partials: exact when every operand is of order at most 1 (or
/// flat); otherwise the second derivatives would be lost, which panics.
#[track_caller]
pub(crate) fn from_f64_partials<X: Graded>(
    value: f64,
    partials: impl FnOnce(&mut Partials<X>),
) -> X {
    let mut p = Partials::new();
    partials(&mut p);
    if p.ops.iter().any(|(x, _)| x.order() > 1 && !x.is_flat()) {
        panic!(
            "fazang: a custom operation built with `Real::from_partials` (called where this \
             panic points) gave partial derivatives as f64 to a series of order 2 or more \
             (Taylor, Jet): the derivatives of the partials would be lost, so this operation \
             is first-order only. Compute it from the scalar's own methods (arithmetic and \
             `Real` methods differentiate to any order), or give a #[deriv_rule] its partials \
             as expressions in its arguments, which are evaluated on the series itself"
        );
    }
    let k = p.ops.iter().map(|(x, _)| x.order()).min().unwrap_or(0);
    p.ops
        .iter()
        .fold(X::constant_to(value, k), |acc, (x, d)| {
            acc + (*x - x.val()) * *d
        })
        .truncate(k)
}

/// The panic of an adjoint rule on a series.
#[cold]
#[track_caller]
pub(crate) fn no_vjp() -> ! {
    panic!(
        "fazang: a #[deriv_rule(adjoint = ..)] function cannot run on Taylor or Jet series: \
         its vector-Jacobian product gives first derivatives only. Give the rule its \
         partials (`#[deriv_rule(x => ..)]`) to take higher derivatives through it"
    )
}

/// The method of one unary function of the table on a graded type.
macro_rules! graded_unary_methods {
    ($( $(#[$doc:meta])* $name:ident [$k:ident] $fam:ident: |$x:ident, $v:ident| $value:expr, $deriv:expr; )*) => {$(
        #[inline]
        fn $name(self) -> Self {
            $crate::forward::graded::unary(
                self,
                $crate::math::elementary::value::$name(self.val()),
                stringify!($k) == "v",
                $crate::math::elementary::deriv::$name,
            )
        }
    )*};
}
pub(crate) use graded_unary_methods;

/// `impl Real` for a graded type (`graded_real!([generics] Type, [where])`): every
/// method from the engine above and the elementary table.
macro_rules! graded_real {
    ([$($g:tt)*] $t:ty, [$($w:tt)*]) => {
        impl<$($g)*> $crate::math::internals::sealed::Sealed for $t where $($w)* {}
        impl<$($g)*> $crate::math::internals::RealInternals for $t where $($w)* {
            type Inner = $t;
            type __Ctx = ();
            #[inline]
            fn __ctx(&self, _: &mut ()) {}
            #[inline]
            fn __inner(&self, _: &()) -> Self {
                let k = $crate::forward::graded::Graded::order(self);
                $crate::forward::graded::Graded::truncate(self, k.saturating_sub(1))
            }
            #[inline]
            fn __f64_partials_suffice(&self) -> bool {
                $crate::forward::graded::Graded::order(self) <= 1
                    || $crate::forward::graded::Graded::is_flat(self)
            }
            #[inline]
            fn __is_const_zero(&self) -> bool {
                $crate::forward::graded::Graded::is_flat(self) && $crate::Real::val(self) == 0.0
            }
            fn __from_partials_in(
                _: &(),
                value: Self,
                partials: impl FnOnce(&mut $crate::Partials<Self, Self>),
            ) -> Self {
                $crate::forward::graded::from_partials_in(value, partials)
            }
            #[track_caller]
            fn __from_vjp<V>(
                _: &[f64],
                _: impl FnOnce(&mut Vec<Self>) -> V,
            ) -> Option<Vec<Self>>
            where
                V: Fn(&[f64], &mut [f64]) + 'static,
            {
                $crate::forward::graded::no_vjp()
            }

            #[inline]
            fn __polygamma(self, n: u32) -> Self {
                $crate::forward::graded::unary(
                    self,
                    $crate::math::special::polygamma(n, $crate::Real::val(&self)),
                    false,
                    |x: Self, _| x.__polygamma(n + 1),
                )
            }
        }
        impl<$($g)*> $crate::Real for $t where $($w)* {
            #[inline]
            fn val(&self) -> f64 {
                $crate::forward::ops::Arith::value(self)
            }
            #[track_caller]
            fn from_partials(
                value: f64,
                partials: impl FnOnce(&mut $crate::Partials<Self>),
            ) -> Self {
                $crate::forward::graded::from_f64_partials(value, partials)
            }

            $crate::math::elementary::with_unary_table!(graded_unary_methods);
            #[inline]
            fn atan2(self, other: impl Into<Self>) -> Self {
                let b: Self = other.into();
                let v = self.val().atan2(b.val());
                $crate::forward::graded::binary(self, b, v, false, |y, x, _| {
                    $crate::math::elementary::deriv2::atan2(y, x)
                })
            }
            #[inline]
            fn log(self, base: impl Into<Self>) -> Self {
                let b: Self = base.into();
                let v = self.val().log(b.val());
                $crate::forward::graded::binary(self, b, v, false, |x, b, _| {
                    $crate::math::elementary::deriv2::log(x, b)
                })
            }
            #[inline]
            fn powi(self, n: i32) -> Self {
                $crate::forward::graded::unary(self, self.val().powi(n), false, |x: Self, _| {
                    $crate::math::elementary::deriv2::powi(x, n)
                })
            }
            #[inline]
            fn powf(self, n: impl Into<Self>) -> Self {
                $crate::forward::graded::powf(self, n.into())
            }
            #[inline]
            fn hypot(self, other: impl Into<Self>) -> Self {
                let b: Self = other.into();
                let v = self.val().hypot(b.val());
                $crate::forward::graded::binary(self, b, v, true, |a, b, h| {
                    $crate::math::elementary::deriv2::hypot(a, b, h)
                })
            }
            #[inline]
            fn min(self, other: impl Into<Self>) -> Self {
                let b: Self = other.into();
                if $crate::math::elementary::deriv2::min_picks_first(self.val(), b.val()) {
                    self
                } else {
                    b
                }
            }
            #[inline]
            fn max(self, other: impl Into<Self>) -> Self {
                let b: Self = other.into();
                if $crate::math::elementary::deriv2::max_picks_first(self.val(), b.val()) {
                    self
                } else {
                    b
                }
            }
            #[inline]
            fn mul_add(self, a: impl Into<Self>, b: impl Into<Self>) -> Self {
                let (a, b): (Self, Self) = (a.into(), b.into());
                self * a + b
            }
            #[inline]
            fn copysign(self, sign: impl Into<Self>) -> Self {
                let s: Self = sign.into();
                let (dx, _) = $crate::math::elementary::deriv2::copysign(self.val(), s.val());
                $crate::forward::graded::Graded::with_value(
                    &(self * dx),
                    self.val().copysign(s.val()),
                )
            }
            #[inline]
            fn rem_euclid(self, rhs: impl Into<Self>) -> Self {
                let b: Self = rhs.into();
                let r = self.val().rem_euclid(b.val());
                let (_, db) = $crate::math::elementary::deriv2::rem(self.val(), b.val(), r);
                $crate::forward::graded::shifted(self, b, db, r)
            }
            #[inline]
            fn midpoint(self, other: impl Into<Self>) -> Self {
                let b: Self = other.into();
                $crate::forward::graded::Graded::with_value(
                    &((self + b) * 0.5),
                    self.val().midpoint(b.val()),
                )
            }
            #[inline]
            fn log_sum_exp(self, other: impl Into<Self>) -> Self {
                let b: Self = other.into();
                let v = self.val().log_sum_exp(b.val());
                $crate::forward::graded::binary(self, b, v, false, |x, y, _| {
                    $crate::math::elementary::deriv2::log_sum_exp(x, y)
                })
            }
            #[inline]
            fn signum(self) -> Self {
                Self::from(self.val().signum())
            }
            #[inline]
            fn floor(self) -> Self {
                Self::from(self.val().floor())
            }
            #[inline]
            fn ceil(self) -> Self {
                Self::from(self.val().ceil())
            }
            #[inline]
            fn round(self) -> Self {
                Self::from(self.val().round())
            }
            #[inline]
            fn trunc(self) -> Self {
                Self::from(self.val().trunc())
            }        }

        impl<$($g)*> $crate::math::slice::SliceOps for $t where $($w)* {
            fn sum_slice(x: &[Self]) -> Self {
                x.iter().copied().sum()
            }
            fn log_sum_exp_slice(x: &[Self]) -> Self {
                $crate::forward::graded::log_sum_exp(x)
            }
            fn norm2_slice(x: &[Self]) -> Self {
                $crate::forward::graded::norm2(x)
            }
        }
        impl<$($g)*> $crate::math::slice::Mix<$t> for $t where $($w)* {
            type Output = $t;
            fn dot(a: &[$t], b: &[$t]) -> $t {
                a.iter().zip(b).map(|(x, y)| *x * *y).sum()
            }
        }
        impl<$($g)*> $crate::math::slice::Mix<f64> for $t where $($w)* {
            type Output = $t;
            fn dot(a: &[$t], b: &[f64]) -> $t {
                a.iter().zip(b).map(|(x, y)| *x * *y).sum()
            }
        }
        impl<$($g)*> $crate::math::slice::Mix<$t> for f64 where $($w)* {
            type Output = $t;
            fn dot(a: &[f64], b: &[$t]) -> $t {
                a.iter().zip(b).map(|(x, y)| *y * *x).sum()
            }
        }
    };
}
pub(crate) use graded_real;

/// ln Σ exp xᵢ for any scalar, shifted by the largest value (as on `f64`).
pub(crate) fn log_sum_exp<X: Real>(x: &[X]) -> X {
    let m =
        x.iter().map(Real::val).fold(
            f64::NEG_INFINITY,
            |m, v| if v > m || v.is_nan() { v } else { m },
        );
    if m.is_infinite() || m.is_nan() {
        return X::from(m);
    }
    x.iter().map(|&v| (v - m).exp()).sum::<X>().ln() + m
}

/// √Σ xᵢ² for any scalar, scaled by the largest magnitude; 0 (with zero derivatives) at
/// the zero vector, as on `Var`.
pub(crate) fn norm2<X: Real>(x: &[X]) -> X {
    let m = x.iter().map(|v| v.val().abs()).fold(0.0, f64::max);
    if m == 0.0 || !m.is_finite() {
        return X::from(crate::math::slice::norm2(
            &x.iter().map(Real::val).collect::<Vec<_>>(),
        ));
    }
    x.iter().map(|&v| (v / m).square()).sum::<X>().sqrt() * m
}
