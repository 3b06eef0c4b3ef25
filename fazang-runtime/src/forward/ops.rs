//! The operator boilerplate of every forward-mode number type, written once.
//!
//! A number type implements [`Arith`] (its arithmetic, the only part specific to it);
//! [`number_ops!`] then writes the operators for every mix of the type, `f64` and
//! references (`a + b`, `2.0 * x`, `&a * &b`, `x -= 1.0`, ...), comparisons by value,
//! `Sum`, `Product`, `Default`, `From<f64>`, formatting as the value, and the hidden
//! `IntoScalar` conversions of generated code: what [`Real`](crate::Real) asks of a
//! scalar besides its math.

/// The arithmetic of a number type, from which [`number_ops!`] writes the operators.
pub(crate) trait Arith: Copy {
    /// `self + o`.
    fn add_(self, o: Self) -> Self;
    /// `self - o`.
    fn sub_(self, o: Self) -> Self;
    /// `self * o`.
    fn mul_(self, o: Self) -> Self;
    /// `self / o`.
    fn div_(self, o: Self) -> Self;
    /// `-self`.
    fn neg_(self) -> Self;
    /// `self + f`.
    fn add_f(self, f: f64) -> Self;
    /// `f - self`.
    fn f_sub(self, f: f64) -> Self;
    /// `self * f`.
    fn mul_f(self, f: f64) -> Self;
    /// `self / f`.
    fn div_f(self, f: f64) -> Self;
    /// `f / self`.
    fn f_div(self, f: f64) -> Self;
    /// `self % o` (`f64`'s remainder; partials 1 and -q, q the integer quotient).
    fn rem_(self, o: Self) -> Self;
    /// `self % f`.
    fn rem_f(self, f: f64) -> Self;
    /// `f % self`.
    fn f_rem(self, f: f64) -> Self;
    /// A constant.
    fn cst(f: f64) -> Self;
    /// The value (degree-zero part).
    fn value(&self) -> f64;
}

/// One binary operator for every mix of `$t`, `f64` and references.
macro_rules! binop {
    ([$($g:tt)*] $t:ty, [$($w:tt)*], $Tr:ident $m:ident $TrA:ident $ma:ident,
     |$a:ident, $b:ident| $vv:expr, |$c:ident, $f:ident| $vf:expr, |$d:ident, $e:ident| $fv:expr) => {
        impl<$($g)*> std::ops::$Tr<$t> for $t where $($w)* {
            type Output = $t;
            #[inline]
            fn $m(self, $b: $t) -> $t {
                let $a = self;
                $vv
            }
        }
        impl<$($g)*> std::ops::$Tr<&$t> for $t where $($w)* {
            type Output = $t;
            #[inline]
            fn $m(self, $b: &$t) -> $t {
                let ($a, $b) = (self, *$b);
                $vv
            }
        }
        impl<$($g)*> std::ops::$Tr<$t> for &$t where $($w)* {
            type Output = $t;
            #[inline]
            fn $m(self, $b: $t) -> $t {
                let $a = *self;
                $vv
            }
        }
        impl<$($g)*> std::ops::$Tr<&$t> for &$t where $($w)* {
            type Output = $t;
            #[inline]
            fn $m(self, $b: &$t) -> $t {
                let ($a, $b) = (*self, *$b);
                $vv
            }
        }
        impl<$($g)*> std::ops::$Tr<f64> for $t where $($w)* {
            type Output = $t;
            #[inline]
            fn $m(self, $f: f64) -> $t {
                let $c = self;
                $vf
            }
        }
        impl<$($g)*> std::ops::$Tr<&f64> for $t where $($w)* {
            type Output = $t;
            #[inline]
            fn $m(self, $f: &f64) -> $t {
                let ($c, $f) = (self, *$f);
                $vf
            }
        }
        impl<$($g)*> std::ops::$Tr<f64> for &$t where $($w)* {
            type Output = $t;
            #[inline]
            fn $m(self, $f: f64) -> $t {
                let $c = *self;
                $vf
            }
        }
        impl<$($g)*> std::ops::$Tr<&f64> for &$t where $($w)* {
            type Output = $t;
            #[inline]
            fn $m(self, $f: &f64) -> $t {
                let ($c, $f) = (*self, *$f);
                $vf
            }
        }
        impl<$($g)*> std::ops::$Tr<$t> for f64 where $($w)* {
            type Output = $t;
            #[inline]
            fn $m(self, $e: $t) -> $t {
                let $d = self;
                $fv
            }
        }
        impl<$($g)*> std::ops::$Tr<&$t> for f64 where $($w)* {
            type Output = $t;
            #[inline]
            fn $m(self, $e: &$t) -> $t {
                let ($d, $e) = (self, *$e);
                $fv
            }
        }
        impl<$($g)*> std::ops::$Tr<$t> for &f64 where $($w)* {
            type Output = $t;
            #[inline]
            fn $m(self, $e: $t) -> $t {
                let $d = *self;
                $fv
            }
        }
        impl<$($g)*> std::ops::$Tr<&$t> for &f64 where $($w)* {
            type Output = $t;
            #[inline]
            fn $m(self, $e: &$t) -> $t {
                let ($d, $e) = (*self, *$e);
                $fv
            }
        }
        impl<$($g)*> std::ops::$TrA<$t> for $t where $($w)* {
            #[inline]
            fn $ma(&mut self, $b: $t) {
                let $a = *self;
                *self = $vv;
            }
        }
        impl<$($g)*> std::ops::$TrA<&$t> for $t where $($w)* {
            #[inline]
            fn $ma(&mut self, $b: &$t) {
                let ($a, $b) = (*self, *$b);
                *self = $vv;
            }
        }
        impl<$($g)*> std::ops::$TrA<f64> for $t where $($w)* {
            #[inline]
            fn $ma(&mut self, $f: f64) {
                let $c = *self;
                *self = $vf;
            }
        }
        impl<$($g)*> std::ops::$TrA<&f64> for $t where $($w)* {
            #[inline]
            fn $ma(&mut self, $f: &f64) {
                let ($c, $f) = (*self, *$f);
                *self = $vf;
            }
        }
    };
}
pub(crate) use binop;

/// Operators, comparisons, `Sum`, `Product`, `Default`, `From<f64>`, formatting and the
/// hidden conversions for a number type implementing [`Arith`]:
/// `number_ops!([generics] Type, [where-clauses]);`.
macro_rules! number_ops {
    ([$($g:tt)*] $t:ty, [$($w:tt)*]) => {
        $crate::forward::ops::binop!([$($g)*] $t, [$($w)*], Add add AddAssign add_assign,
            |a, b| $crate::forward::ops::Arith::add_(a, b),
            |a, f| $crate::forward::ops::Arith::add_f(a, f),
            |f, a| $crate::forward::ops::Arith::add_f(a, f));
        $crate::forward::ops::binop!([$($g)*] $t, [$($w)*], Sub sub SubAssign sub_assign,
            |a, b| $crate::forward::ops::Arith::sub_(a, b),
            |a, f| $crate::forward::ops::Arith::add_f(a, -f),
            |f, a| $crate::forward::ops::Arith::f_sub(a, f));
        $crate::forward::ops::binop!([$($g)*] $t, [$($w)*], Mul mul MulAssign mul_assign,
            |a, b| $crate::forward::ops::Arith::mul_(a, b),
            |a, f| $crate::forward::ops::Arith::mul_f(a, f),
            |f, a| $crate::forward::ops::Arith::mul_f(a, f));
        $crate::forward::ops::binop!([$($g)*] $t, [$($w)*], Div div DivAssign div_assign,
            |a, b| $crate::forward::ops::Arith::div_(a, b),
            |a, f| $crate::forward::ops::Arith::div_f(a, f),
            |f, a| $crate::forward::ops::Arith::f_div(a, f));

        $crate::forward::ops::binop!([$($g)*] $t, [$($w)*], Rem rem RemAssign rem_assign,
            |a, b| $crate::forward::ops::Arith::rem_(a, b),
            |a, f| $crate::forward::ops::Arith::rem_f(a, f),
            |f, a| $crate::forward::ops::Arith::f_rem(a, f));

        impl<$($g)*> std::ops::Neg for $t where $($w)* {
            type Output = $t;
            #[inline]
            fn neg(self) -> $t {
                $crate::forward::ops::Arith::neg_(self)
            }
        }
        impl<$($g)*> std::ops::Neg for &$t where $($w)* {
            type Output = $t;
            #[inline]
            fn neg(self) -> $t {
                $crate::forward::ops::Arith::neg_(*self)
            }
        }

        impl<$($g)*> PartialEq for $t where $($w)* {
            /// Compares values.
            fn eq(&self, o: &$t) -> bool {
                $crate::forward::ops::Arith::value(self) == $crate::forward::ops::Arith::value(o)
            }
        }
        impl<$($g)*> PartialEq<f64> for $t where $($w)* {
            /// Compares values.
            fn eq(&self, o: &f64) -> bool {
                $crate::forward::ops::Arith::value(self) == *o
            }
        }
        impl<$($g)*> PartialEq<$t> for f64 where $($w)* {
            /// Compares values.
            fn eq(&self, o: &$t) -> bool {
                *self == $crate::forward::ops::Arith::value(o)
            }
        }
        impl<$($g)*> PartialOrd for $t where $($w)* {
            /// Compares values.
            fn partial_cmp(&self, o: &$t) -> Option<std::cmp::Ordering> {
                $crate::forward::ops::Arith::value(self).partial_cmp(&$crate::forward::ops::Arith::value(o))
            }
        }
        impl<$($g)*> PartialOrd<f64> for $t where $($w)* {
            /// Compares values.
            fn partial_cmp(&self, o: &f64) -> Option<std::cmp::Ordering> {
                $crate::forward::ops::Arith::value(self).partial_cmp(o)
            }
        }
        impl<$($g)*> PartialOrd<$t> for f64 where $($w)* {
            /// Compares values.
            fn partial_cmp(&self, o: &$t) -> Option<std::cmp::Ordering> {
                self.partial_cmp(&$crate::forward::ops::Arith::value(o))
            }
        }

        // From -0.0, as std's `Sum for f64`: an empty sum, or one of -0.0s, is -0.0.
        impl<$($g)*> std::iter::Sum for $t where $($w)* {
            fn sum<I: Iterator<Item = $t>>(iter: I) -> $t {
                iter.fold(<$t as $crate::forward::ops::Arith>::cst(-0.0), |a, b| {
                    $crate::forward::ops::Arith::add_(a, b)
                })
            }
        }
        impl<'a, $($g)*> std::iter::Sum<&'a $t> for $t where $($w)* {
            fn sum<I: Iterator<Item = &'a $t>>(iter: I) -> $t {
                iter.fold(<$t as $crate::forward::ops::Arith>::cst(-0.0), |a, b| {
                    $crate::forward::ops::Arith::add_(a, *b)
                })
            }
        }
        impl<$($g)*> std::iter::Sum<f64> for $t where $($w)* {
            /// The sum of data values: a constant.
            fn sum<I: Iterator<Item = f64>>(iter: I) -> $t {
                <$t as $crate::forward::ops::Arith>::cst(iter.sum())
            }
        }
        impl<'a, $($g)*> std::iter::Sum<&'a f64> for $t where $($w)* {
            /// The sum of data values: a constant.
            fn sum<I: Iterator<Item = &'a f64>>(iter: I) -> $t {
                <$t as $crate::forward::ops::Arith>::cst(iter.sum())
            }
        }
        impl<$($g)*> std::iter::Product for $t where $($w)* {
            fn product<I: Iterator<Item = $t>>(iter: I) -> $t {
                iter.fold(<$t as $crate::forward::ops::Arith>::cst(1.0), |a, b| {
                    $crate::forward::ops::Arith::mul_(a, b)
                })
            }
        }
        impl<'a, $($g)*> std::iter::Product<&'a $t> for $t where $($w)* {
            fn product<I: Iterator<Item = &'a $t>>(iter: I) -> $t {
                iter.fold(<$t as $crate::forward::ops::Arith>::cst(1.0), |a, b| {
                    $crate::forward::ops::Arith::mul_(a, *b)
                })
            }
        }

        impl<$($g)*> Default for $t where $($w)* {
            /// The constant zero.
            fn default() -> $t {
                <$t as $crate::forward::ops::Arith>::cst(0.0)
            }
        }
        impl<$($g)*> From<f64> for $t where $($w)* {
            /// A constant.
            #[inline]
            fn from(v: f64) -> $t {
                <$t as $crate::forward::ops::Arith>::cst(v)
            }
        }
        impl<$($g)*> std::fmt::Display for $t where $($w)* {
            /// Formats the value exactly as `f64` would.
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::Display::fmt(&$crate::forward::ops::Arith::value(self), f)
            }
        }
        impl<$($g)*> std::fmt::LowerExp for $t where $($w)* {
            /// Formats the value exactly as `f64` would.
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::LowerExp::fmt(&$crate::forward::ops::Arith::value(self), f)
            }
        }
        impl<$($g)*> $crate::math::internals::IntoScalar<$t> for f64 where $($w)* {
            #[inline(always)]
            fn into_scalar(self) -> $t {
                <$t as $crate::forward::ops::Arith>::cst(self)
            }
        }
        impl<$($g)*> $crate::math::internals::IntoScalar<$t> for $t where $($w)* {
            #[inline(always)]
            fn into_scalar(self) -> $t {
                self
            }
        }
    };
}
pub(crate) use number_ops;
