//! Tangent lanes of a [`Dual`](super::Dual) number: one (`S`), a fixed number (`[S; N]`)
//! or a number chosen at run time ([`Lanes`](super::Lanes), on `f64`).
//!
//! A dual number with `N` lanes carries `N` directional derivatives at once, so one
//! evaluation gives a Jacobian-vector product with `N` directions (a whole gradient when
//! `N` is the number of inputs).

use crate::Real;
use std::any::TypeId;
use std::fmt::Debug;

/// The tangent part of a dual number over the scalar `S`: one or more lanes, each a
/// directional derivative. Implemented by `S` (one lane), `[S; N]` and, for `S = f64`,
/// [`Lanes`](super::Lanes).
///
/// ```
/// use fazang::{Dual, Tangent};
/// let t = [1.0, 2.0];
/// assert_eq!(t.scale(3.0), [3.0, 6.0]);
/// let x: Dual<f64, [f64; 2]> = Dual::new(1.5, [1.0, 0.0]);
/// assert_eq!(x.eps.lane(0), 1.0);
/// ```
pub trait Tangent<S: Real>: Copy + Send + Sync + Debug + 'static {
    /// All lanes zero.
    fn zero() -> Self;
    /// The number of lanes (a runtime tangent that is still all zero may report 0).
    fn lanes(&self) -> usize;
    /// Lane `i` (zero past the end of a runtime tangent).
    fn lane(&self, i: usize) -> S;
    /// Every lane times `k`.
    fn scale(&self, k: S) -> Self;
    /// Every lane times the constant `k`.
    fn scale_f64(&self, k: f64) -> Self;
    /// Lane-wise sum.
    fn add(&self, o: &Self) -> Self;
    /// Lane-wise difference.
    fn sub(&self, o: &Self) -> Self;
    /// Every lane negated.
    fn neg(&self) -> Self;
    /// `self * a + o * b`, lane-wise.
    fn lincomb(&self, a: S, o: &Self, b: S) -> Self;
    /// Whether every lane is a constant zero (no derivative at all).
    fn is_zero(&self) -> bool;
    /// `self + o * b`, lane-wise.
    fn add_scaled(&self, o: &Self, b: S) -> Self {
        self.add(&o.scale(b))
    }
}

impl<S: Real> Tangent<S> for S {
    #[inline(always)]
    fn zero() -> S {
        S::from(0.0)
    }
    #[inline(always)]
    fn lanes(&self) -> usize {
        1
    }
    #[inline(always)]
    fn is_zero(&self) -> bool {
        if TypeId::of::<S>() == TypeId::of::<f64>() {
            self.val() == 0.0
        } else {
            self.__is_const_zero()
        }
    }
    #[inline(always)]
    fn lane(&self, i: usize) -> S {
        if i == 0 {
            *self
        } else {
            S::from(0.0)
        }
    }
    #[inline(always)]
    fn scale(&self, k: S) -> S {
        mul(*self, k)
    }
    #[inline(always)]
    fn scale_f64(&self, k: f64) -> S {
        if self.__is_const_zero() {
            *self
        } else {
            *self * k
        }
    }
    #[inline(always)]
    fn add(&self, o: &S) -> S {
        add(*self, *o)
    }
    #[inline(always)]
    fn sub(&self, o: &S) -> S {
        if o.__is_const_zero() {
            *self
        } else {
            *self - *o
        }
    }
    #[inline(always)]
    fn neg(&self) -> S {
        if self.__is_const_zero() {
            *self
        } else {
            -*self
        }
    }
    #[inline(always)]
    fn lincomb(&self, a: S, o: &S, b: S) -> S {
        if self.__is_const_zero() {
            mul(*o, b)
        } else if o.__is_const_zero() {
            mul(*self, a)
        } else {
            self.__dot2(a, *o, b)
        }
    }
    #[inline(always)]
    fn add_scaled(&self, o: &S, b: S) -> S {
        if o.__is_const_zero() {
            *self
        } else if self.__is_const_zero() {
            mul(*o, b)
        } else {
            self.__dot2(S::from(1.0), *o, b)
        }
    }
}

/// `t * k`, skipping a tangent that is a constant zero (it would record a useless node
/// on the tape when `k` is active).
#[inline(always)]
fn mul<S: Real>(t: S, k: S) -> S {
    if t.__is_const_zero() {
        t
    } else {
        t * k
    }
}

/// `a + b`, skipping constant zeros.
#[inline(always)]
fn add<S: Real>(a: S, b: S) -> S {
    if a.__is_const_zero() {
        b
    } else if b.__is_const_zero() {
        a
    } else {
        a + b
    }
}

impl<S: Real, const N: usize> Tangent<S> for [S; N] {
    #[inline(always)]
    fn zero() -> Self {
        [S::from(0.0); N]
    }
    #[inline(always)]
    fn lanes(&self) -> usize {
        N
    }
    #[inline(always)]
    fn is_zero(&self) -> bool {
        self.iter().all(Tangent::is_zero)
    }
    #[inline(always)]
    fn lane(&self, i: usize) -> S {
        self.get(i).copied().unwrap_or_else(|| S::from(0.0))
    }
    #[inline(always)]
    fn scale(&self, k: S) -> Self {
        self.map(|t| t.scale(k))
    }
    #[inline(always)]
    fn scale_f64(&self, k: f64) -> Self {
        self.map(|t| t.scale_f64(k))
    }
    #[inline(always)]
    fn add(&self, o: &Self) -> Self {
        std::array::from_fn(|i| add(self[i], o[i]))
    }
    #[inline(always)]
    fn sub(&self, o: &Self) -> Self {
        std::array::from_fn(|i| self[i].sub(&o[i]))
    }
    #[inline(always)]
    fn neg(&self) -> Self {
        self.map(|t| Tangent::neg(&t))
    }
    #[inline(always)]
    fn lincomb(&self, a: S, o: &Self, b: S) -> Self {
        std::array::from_fn(|i| self[i].lincomb(a, &o[i], b))
    }
    #[inline(always)]
    fn add_scaled(&self, o: &Self, b: S) -> Self {
        std::array::from_fn(|i| self[i].add_scaled(&o[i], b))
    }
}
