//! Arithmetic (`+ - * / %`) and comparison operators of [`Var`], for every mix of `Var`, `f64` and
//! references. Each operator's value and partials are defined once, in `arith!`; the
//! owned/borrowed combinations are generated from it.

use crate::math::elementary::deriv2::{div as div_partials, rem as rem_partials};
use crate::tape::capture::op;
use crate::tape::var::{binary_named, unary_named, Var};
use std::cmp::Ordering;
use std::iter::{Product, Sum};
use std::ops::{
    Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Rem, RemAssign, Sub, SubAssign,
};

/// `a + b`: partials 1, 1.
#[inline]
fn add_vv(a: Var, b: Var) -> Var {
    binary_named(op!("+"), a.val() + b.val(), a, 1.0, b, 1.0)
}
#[inline]
fn add_vf(a: Var, b: f64) -> Var {
    unary_named(op!("+"), a.val() + b, a, 1.0)
}
#[inline]
fn add_fv(a: f64, b: Var) -> Var {
    unary_named(op!("+"), a + b.val(), b, 1.0)
}

/// `a - b`: partials 1, -1.
#[inline]
fn sub_vv(a: Var, b: Var) -> Var {
    binary_named(op!("-"), a.val() - b.val(), a, 1.0, b, -1.0)
}
#[inline]
fn sub_vf(a: Var, b: f64) -> Var {
    unary_named(op!("-"), a.val() - b, a, 1.0)
}
#[inline]
fn sub_fv(a: f64, b: Var) -> Var {
    unary_named(op!("-"), a - b.val(), b, -1.0)
}

/// `a * b`: partials b, a.
#[inline]
fn mul_vv(a: Var, b: Var) -> Var {
    binary_named(op!("*"), a.val() * b.val(), a, b.val(), b, a.val())
}
#[inline]
fn mul_vf(a: Var, b: f64) -> Var {
    unary_named(op!("*"), a.val() * b, a, b)
}
#[inline]
fn mul_fv(a: f64, b: Var) -> Var {
    unary_named(op!("*"), a * b.val(), b, a)
}

/// `a / b = q`: partials 1/b, -q/b (see
/// [`deriv2::div`](crate::math::elementary::deriv2::div)).
#[inline]
fn div_vv(a: Var, b: Var) -> Var {
    let q = a.val() / b.val();
    let (da, db) = div_partials(b.val(), q);
    binary_named(op!("/"), q, a, da, b, db)
}
#[inline]
fn div_vf(a: Var, b: f64) -> Var {
    unary_named(op!("/"), a.val() / b, a, 1.0 / b)
}
#[inline]
fn div_fv(a: f64, b: Var) -> Var {
    let q = a / b.val();
    unary_named(op!("/"), q, b, div_partials(b.val(), q).1)
}

/// `a % b = r` (`f64`'s remainder, sign of `a`): partials 1 and -q, with q the integer
/// quotient (see [`deriv2::rem`](crate::math::elementary::deriv2::rem)).
#[inline]
fn rem_vv(a: Var, b: Var) -> Var {
    let r = a.val() % b.val();
    let (da, db) = rem_partials(a.val(), b.val(), r);
    binary_named(op!("%"), r, a, da, b, db)
}
#[inline]
fn rem_vf(a: Var, b: f64) -> Var {
    unary_named(op!("%"), a.val() % b, a, 1.0)
}
#[inline]
fn rem_fv(a: f64, b: Var) -> Var {
    let r = a % b.val();
    unary_named(op!("%"), r, b, rem_partials(a, b.val(), r).1)
}

macro_rules! arith {
    ($Tr:ident, $m:ident, $TrA:ident, $ma:ident, $vv:ident, $vf:ident, $fv:ident) => {
        impl $Tr<Var> for Var {
            type Output = Var;
            #[inline]
            fn $m(self, rhs: Var) -> Var {
                $vv(self, rhs)
            }
        }
        impl $Tr<&Var> for Var {
            type Output = Var;
            #[inline]
            fn $m(self, rhs: &Var) -> Var {
                $vv(self, *rhs)
            }
        }
        impl $Tr<Var> for &Var {
            type Output = Var;
            #[inline]
            fn $m(self, rhs: Var) -> Var {
                $vv(*self, rhs)
            }
        }
        impl $Tr<&Var> for &Var {
            type Output = Var;
            #[inline]
            fn $m(self, rhs: &Var) -> Var {
                $vv(*self, *rhs)
            }
        }
        impl $Tr<f64> for Var {
            type Output = Var;
            #[inline]
            fn $m(self, rhs: f64) -> Var {
                $vf(self, rhs)
            }
        }
        impl $Tr<&f64> for Var {
            type Output = Var;
            #[inline]
            fn $m(self, rhs: &f64) -> Var {
                $vf(self, *rhs)
            }
        }
        impl $Tr<f64> for &Var {
            type Output = Var;
            #[inline]
            fn $m(self, rhs: f64) -> Var {
                $vf(*self, rhs)
            }
        }
        impl $Tr<&f64> for &Var {
            type Output = Var;
            #[inline]
            fn $m(self, rhs: &f64) -> Var {
                $vf(*self, *rhs)
            }
        }
        impl $Tr<Var> for f64 {
            type Output = Var;
            #[inline]
            fn $m(self, rhs: Var) -> Var {
                $fv(self, rhs)
            }
        }
        impl $Tr<&Var> for f64 {
            type Output = Var;
            #[inline]
            fn $m(self, rhs: &Var) -> Var {
                $fv(self, *rhs)
            }
        }
        impl $Tr<Var> for &f64 {
            type Output = Var;
            #[inline]
            fn $m(self, rhs: Var) -> Var {
                $fv(*self, rhs)
            }
        }
        impl $Tr<&Var> for &f64 {
            type Output = Var;
            #[inline]
            fn $m(self, rhs: &Var) -> Var {
                $fv(*self, *rhs)
            }
        }
        impl $TrA<Var> for Var {
            #[inline]
            fn $ma(&mut self, rhs: Var) {
                *self = $vv(*self, rhs);
            }
        }
        impl $TrA<&Var> for Var {
            #[inline]
            fn $ma(&mut self, rhs: &Var) {
                *self = $vv(*self, *rhs);
            }
        }
        impl $TrA<f64> for Var {
            #[inline]
            fn $ma(&mut self, rhs: f64) {
                *self = $vf(*self, rhs);
            }
        }
        impl $TrA<&f64> for Var {
            #[inline]
            fn $ma(&mut self, rhs: &f64) {
                *self = $vf(*self, *rhs);
            }
        }
    };
}

arith!(Add, add, AddAssign, add_assign, add_vv, add_vf, add_fv);
arith!(Sub, sub, SubAssign, sub_assign, sub_vv, sub_vf, sub_fv);
arith!(Mul, mul, MulAssign, mul_assign, mul_vv, mul_vf, mul_fv);
arith!(Div, div, DivAssign, div_assign, div_vv, div_vf, div_fv);
arith!(Rem, rem, RemAssign, rem_assign, rem_vv, rem_vf, rem_fv);

impl Neg for Var {
    type Output = Var;
    /// `-x`: partial -1.
    #[inline]
    fn neg(self) -> Var {
        unary_named(op!("neg"), -self.val(), self, -1.0)
    }
}

impl Neg for &Var {
    type Output = Var;
    #[inline]
    fn neg(self) -> Var {
        -*self
    }
}

impl PartialEq for Var {
    /// Compares values.
    fn eq(&self, other: &Var) -> bool {
        self.val() == other.val()
    }
}
impl PartialEq<f64> for Var {
    /// Compares values.
    fn eq(&self, other: &f64) -> bool {
        self.val() == *other
    }
}
impl PartialEq<Var> for f64 {
    /// Compares values.
    fn eq(&self, other: &Var) -> bool {
        *self == other.val()
    }
}
impl PartialOrd for Var {
    /// Compares values.
    fn partial_cmp(&self, other: &Var) -> Option<Ordering> {
        self.val().partial_cmp(&other.val())
    }
}
impl PartialOrd<f64> for Var {
    /// Compares values.
    fn partial_cmp(&self, other: &f64) -> Option<Ordering> {
        self.val().partial_cmp(other)
    }
}
impl PartialOrd<Var> for f64 {
    /// Compares values.
    fn partial_cmp(&self, other: &Var) -> Option<Ordering> {
        self.partial_cmp(&other.val())
    }
}

impl Sum for Var {
    /// One recorded result with a partial of 1 per active term.
    fn sum<I: Iterator<Item = Var>>(iter: I) -> Var {
        crate::math::slice::sum_iter(iter)
    }
}
impl<'a> Sum<&'a Var> for Var {
    /// One recorded result with a partial of 1 per active term.
    fn sum<I: Iterator<Item = &'a Var>>(iter: I) -> Var {
        crate::math::slice::sum_iter(iter.copied())
    }
}
impl Sum<f64> for Var {
    /// The sum of data values: a constant (records nothing).
    fn sum<I: Iterator<Item = f64>>(iter: I) -> Var {
        Var::constant(iter.sum())
    }
}
impl<'a> Sum<&'a f64> for Var {
    /// The sum of data values: a constant (records nothing).
    fn sum<I: Iterator<Item = &'a f64>>(iter: I) -> Var {
        Var::constant(iter.sum())
    }
}
impl Product for Var {
    /// A chain of multiplications (exact partials even with zero factors).
    fn product<I: Iterator<Item = Var>>(iter: I) -> Var {
        iter.fold(Var::constant(1.0), |a, b| a * b)
    }
}
impl<'a> Product<&'a Var> for Var {
    /// A chain of multiplications (exact partials even with zero factors).
    fn product<I: Iterator<Item = &'a Var>>(iter: I) -> Var {
        iter.fold(Var::constant(1.0), |a, b| a * b)
    }
}
