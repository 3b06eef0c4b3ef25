//! What a distribution accepts as an argument: a scalar or a sequence of scalars, data
//! (`f64`, integers) or active (`Var`, or any [`Real`] in generic code), and the scalar type
//! of the result of a mix of them.
//!
//! | argument | [`Elements::VECTOR`] | [`Arg::Scalar`] |
//! | --- | --- | --- |
//! | `f64`, `Var`, `S: Real` | no | itself |
//! | `&[S]`, `&Vec<S>`, `&[S; N]` | yes | `S` |
//! | `i64`, `i32` ([`IntArg`], counts) | no | — |
//! | `&[i64]`, `&Vec<i64>`, `&[i64; N]` (and `i32`) | yes | — |
//!
//! The result of a density is active if any argument is: its type is the [`Mix`] of the
//! argument scalars ([`Args`], [`Ret`]), so that in a generic body with
//! `S: Real` and `where f64: ScalarOps<S>` (what `#[differentiate]` writes) the result of
//! `normal_lpdf(y, mu, sigma)` with `y: &[f64]`, `mu: S`, `sigma: S` is `S`.

use crate::math::internals::RealInternals;
use crate::math::slice::Mix;
use crate::{Partials, Real};
use std::any::TypeId;

/// Element access shared by real and integer arguments (what the
/// [`check`](super::check) functions read).
///
/// A scalar has one element, returned for every index; a sequence has [`len`](Self::len)
/// elements. Implemented for the argument types listed in the [module docs](self).
///
/// ```
/// use fazang::dist::args::Elements;
/// assert_eq!((Elements::len(&[1.0, 2.0, 3.0][..].as_ref()), Elements::len(&2.5_f64)), (3, 1));
/// assert!(<&[f64] as Elements>::VECTOR && !<f64 as Elements>::VECTOR);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be an argument of a distribution",
    label = "expected `f64`, an active value or a slice of them, found `{Self}`",
    note = "distributions take `f64`s, active values and slices of them; a reference to a number needs `*`"
)]
pub trait Elements: Copy {
    /// Whether this is a sequence (slice, `Vec`, array) rather than a single scalar.
    const VECTOR: bool;
    /// Whether the elements are integers (they are printed as integers in errors).
    const INTEGER: bool;
    /// The number of elements: 1 for a scalar.
    ///
    /// ```
    /// use fazang::dist::args::Elements;
    /// assert_eq!(Elements::len(&&vec![1.0, 2.0]), 2);
    /// ```
    fn len(&self) -> usize;
    /// The value of element `i` (a scalar ignores `i`).
    ///
    /// ```
    /// use fazang::dist::args::Elements;
    /// assert_eq!((Elements::value(&&[1.0, 2.0][..], 1), Elements::value(&7.0, 5)), (2.0, 7.0));
    /// ```
    fn value(&self, i: usize) -> f64;
    /// Whether a sequence is empty (never true for a scalar).
    ///
    /// ```
    /// use fazang::dist::args::Elements;
    /// let empty: &[f64] = &[];
    /// assert!(Elements::is_empty(&empty) && !Elements::is_empty(&1.0));
    /// ```
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The length if this is a sequence, `None` for a scalar (for
    /// [`check_consistent_sizes`](super::check::check_consistent_sizes)).
    ///
    /// ```
    /// use fazang::dist::args::Elements;
    /// assert_eq!((Elements::vector_len(&&[1.0, 2.0][..]), Elements::vector_len(&1.0)), (Some(2), None));
    /// ```
    fn vector_len(&self) -> Option<usize> {
        Self::VECTOR.then(|| self.len())
    }
}

/// A real argument of a distribution: a scalar `S: Real` or a sequence of them.
///
/// ```
/// use fazang::dist::args::Arg;
/// use fazang::Var;
/// let v = [Var::constant(1.0), Var::constant(2.0)];
/// assert_eq!(Arg::operand(&&v[..], 1).val(), 2.0);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be an argument of a distribution",
    label = "expected `f64`, an active value or a slice of them, found `{Self}`",
    note = "distributions take `f64`s, active values and slices of them; a reference to a number needs `*`"
)]
pub trait Arg: Elements {
    /// The scalar: `f64` for data, `Var` (or a generic `S: Real`) for active arguments.
    type Scalar: Real;
    /// Element `i` as an operand of the result (a scalar ignores `i`).
    ///
    /// ```
    /// use fazang::dist::args::Arg;
    /// assert_eq!(Arg::operand(&3.0_f64, 9), 3.0);
    /// ```
    fn operand(&self, i: usize) -> Self::Scalar;
}

/// An integer argument of a probability mass function (counts, trials, outcomes): `i64`
/// or `i32`, or a slice, `Vec` or array of them.
///
/// ```
/// use fazang::dist::args::IntArg;
/// assert_eq!((IntArg::int(&&[4_i64, 5][..], 1), IntArg::int(&3_i32, 0)), (5, 3));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be an integer argument of a distribution",
    label = "expected an integer or a slice of integers, found `{Self}`",
    note = "counts and categories are `i64`, `i32` or `usize`, or slices of them"
)]
pub trait IntArg: Elements {
    /// Element `i` (a scalar ignores `i`).
    ///
    /// ```
    /// use fazang::dist::args::IntArg;
    /// assert_eq!(IntArg::int(&&vec![7_i64], 0), 7);
    /// ```
    fn int(&self, i: usize) -> i64;
}

impl<S: Real> Elements for S {
    const VECTOR: bool = false;
    const INTEGER: bool = false;
    #[inline(always)]
    fn len(&self) -> usize {
        1
    }
    #[inline(always)]
    fn value(&self, _: usize) -> f64 {
        self.val()
    }
}

impl<S: Real> Arg for S {
    type Scalar = S;
    #[inline(always)]
    fn operand(&self, _: usize) -> S {
        *self
    }
}

/// The sequence impls of [`Elements`], [`Arg`] and [`IntArg`]: `[$generics] $type`.
macro_rules! sequence {
    (real: $([$($g:tt)*] $t:ty),*) => {$(
        impl<$($g)*> Elements for $t {
            const VECTOR: bool = true;
            const INTEGER: bool = false;
            #[inline(always)]
            fn len(&self) -> usize {
                self[..].len()
            }
            #[inline(always)]
            fn value(&self, i: usize) -> f64 {
                self[i].val()
            }
        }
        impl<$($g)*> Arg for $t {
            type Scalar = S;
            #[inline(always)]
            fn operand(&self, i: usize) -> S {
                self[i]
            }
        }
    )*};
    (int: $($t:ty),*) => {$(
        impl Elements for $t {
            const VECTOR: bool = false;
            const INTEGER: bool = true;
            #[inline(always)]
            fn len(&self) -> usize {
                1
            }
            #[inline(always)]
            fn value(&self, _: usize) -> f64 {
                *self as f64
            }
        }
        impl IntArg for $t {
            #[inline(always)]
            fn int(&self, _: usize) -> i64 {
                i64::from(*self)
            }
        }
        sequence!(ints: [$t] ['a] &'a [$t], ['a] &'a Vec<$t>, ['a, const N: usize] &'a [$t; N]);
    )*};
    (ints: [$i:ty] $([$($g:tt)*] $t:ty),*) => {$(
        impl<$($g)*> Elements for $t {
            const VECTOR: bool = true;
            const INTEGER: bool = true;
            #[inline(always)]
            fn len(&self) -> usize {
                self[..].len()
            }
            #[inline(always)]
            fn value(&self, i: usize) -> f64 {
                self[i] as f64
            }
        }
        impl<$($g)*> IntArg for $t {
            #[inline(always)]
            fn int(&self, i: usize) -> i64 {
                i64::from(self[i])
            }
        }
    )*};
}

sequence!(real:
    ['a, S: Real] &'a [S],
    ['a, S: Real] &'a Vec<S>,
    ['a, S: Real, const N: usize] &'a [S; N]
);
sequence!(int: i64, i32);

/// Whether the scalar type `T` is active (records derivatives): every [`Real`] but `f64`.
/// Known at compile time after monomorphisation, so data arguments cost nothing.
#[inline(always)]
pub(crate) fn is_active<T: 'static>() -> bool {
    TypeId::of::<T>() != TypeId::of::<f64>()
}

/// The result scalar of a mix of two scalar types: `f64` if both are, else active.
pub type Mixed<A, B> = <A as Mix<B>>::Output;

/// The result scalar of a distribution with the real arguments `T` (a tuple of
/// [`Arg`]s): `f64` if all are data, else active.
pub type Ret<T> = <T as Args>::Ret;

/// The real arguments of a distribution, as a tuple `(A,)`, `(A, B)`, `(A, B, C)` or
/// `(A, B, C, D)` of [`Arg`]s, and the scalar of its result, [`Args::Ret`]: the [`Mix`] of
/// the argument scalars.
///
/// Implemented for every tuple of arguments whose scalars mix; you never implement it, and
/// in generic code the bounds `S: Real` and `f64: ScalarOps<S>` (what `#[differentiate]`
/// writes) imply it. The hidden methods are the operands-and-partials interface of the
/// distributions.
///
/// ```
/// use fazang::dist::args::Ret;
/// use fazang::Var;
/// // data with an active location: the density is active
/// let _: Ret<(&[f64], Var, f64)> = Var::constant(0.0);
/// let _: Ret<(f64, f64)> = 0.0_f64;
/// ```
#[diagnostic::on_unimplemented(
    message = "these arguments cannot be given to a distribution together",
    label = "the arguments are `{Self}`",
    note = "distributions take `f64`s, active values and slices of them; a reference to a number needs `*`"
)]
pub trait Args: Copy {
    /// The result scalar.
    type Ret: Real;
    /// Which arguments are sequences (the first `arity` entries).
    #[doc(hidden)]
    const VECTOR: [bool; 4];
    /// Which arguments are active, by type (the first `arity` entries).
    #[doc(hidden)]
    fn active() -> [bool; 4];
    /// Whether every sequence among the arguments has length `n`.
    #[doc(hidden)]
    fn lengths_are(&self, n: usize) -> bool;
    /// The context every operand's inner part is taken in (see `RealInternals::__ctx`).
    #[doc(hidden)]
    fn ctx(&self) -> <Self::Ret as RealInternals>::__Ctx;
    /// Element `i` of argument `k` one derivative order below the result (its value for
    /// `f64` and `Var` results), in which the partials are computed.
    #[doc(hidden)]
    fn inner(&self, ctx: &<Self::Ret as RealInternals>::__Ctx, k: usize, i: usize) -> Inner<Self>;
    /// Record partial `d` with respect to element `i` of argument `k`.
    #[doc(hidden)]
    fn push(&self, p: &mut Partials<Self::Ret>, k: usize, i: usize, d: f64);
    /// Record partial `d`, computed one derivative order below the result, with respect
    /// to element `i` of argument `k`.
    #[doc(hidden)]
    fn push_in(&self, p: &mut Partials<Self::Ret, Inner<Self>>, k: usize, i: usize, d: Inner<Self>);
}

/// The scalar a distribution's value and partials are computed in: `f64` for `f64` and
/// `Var` results, `S` for `Dual<S>`, one order lower for series.
pub type Inner<T> = <<T as Args>::Ret as RealInternals>::Inner;

/// A placeholder type that is never an [`Arg`]: the impls of [`Args`] for tuples with it
/// keep the selection of `(Y, M, Sg): Args` ambiguous until the compiler knows every
/// argument type. Without them, in a generic body (`where f64: ScalarOps<S>`) a float
/// literal's scalar could be matched against that where-clause (`f64: Mix<S>`) before the
/// other argument types are known, and be inferred wrongly.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub enum Pending {}

/// The methods of [`Args`] for a tuple whose fields are `$n: $a`.
macro_rules! args_methods {
    ($($a:ident $n:tt),*) => {
        const VECTOR: [bool; 4] = {
            let mut v = [false; 4];
            $(v[$n] = $a::VECTOR;)*
            v
        };
        #[inline(always)]
        fn active() -> [bool; 4] {
            let mut v = [false; 4];
            $(v[$n] = is_active::<$a::Scalar>();)*
            v
        }
        #[inline(always)]
        fn lengths_are(&self, n: usize) -> bool {
            true $(&& (!$a::VECTOR || self.$n.len() == n))*
        }
        #[inline(always)]
        fn ctx(&self) -> <Self::Ret as RealInternals>::__Ctx {
            let mut ctx = Default::default();
            $(
                for i in 0..self.$n.len() {
                    <Self::Ret as From<$a::Scalar>>::from(self.$n.operand(i)).__ctx(&mut ctx);
                }
            )*
            ctx
        }
        #[inline(always)]
        fn inner(&self, ctx: &<Self::Ret as RealInternals>::__Ctx, k: usize, i: usize) -> Inner<Self> {
            match k {
                $($n => <Self::Ret as From<$a::Scalar>>::from(self.$n.operand(i)).__inner(ctx),)*
                _ => unreachable!("no argument {k}"),
            }
        }
        #[inline(always)]
        fn push(&self, p: &mut Partials<Self::Ret>, k: usize, i: usize, d: f64) {
            match k {
                $($n => p.push(<Self::Ret as From<$a::Scalar>>::from(self.$n.operand(i)), d),)*
                _ => unreachable!("no argument {k}"),
            }
        }
        #[inline(always)]
        fn push_in(&self, p: &mut Partials<Self::Ret, Inner<Self>>, k: usize, i: usize, d: Inner<Self>) {
            match k {
                $($n => p.push(<Self::Ret as From<$a::Scalar>>::from(self.$n.operand(i)), d),)*
                _ => unreachable!("no argument {k}"),
            }
        }
    };
}

/// An impl of [`Args`] for a tuple with [`Pending`] in one place: never used.
macro_rules! pending {
    ($([$($g:tt)*] $t:ty;)*) => {$(
        impl<$($g)*> Args for $t {
            type Ret = f64;
            const VECTOR: [bool; 4] = [false; 4];
            fn active() -> [bool; 4] {
                unreachable!()
            }
            fn lengths_are(&self, _: usize) -> bool {
                unreachable!()
            }
            fn ctx(&self) {
                unreachable!()
            }
            fn inner(&self, _: &(), _: usize, _: usize) -> f64 {
                unreachable!()
            }
            fn push(&self, _: &mut Partials<f64>, _: usize, _: usize, _: f64) {
                unreachable!()
            }
            fn push_in(&self, _: &mut Partials<f64>, _: usize, _: usize, _: f64) {
                unreachable!()
            }
        }
    )*};
}

pending! {
    [B: Copy] (Pending, B);
    [A: Arg] (A, Pending);
    [B: Copy, C: Copy] (Pending, B, C);
    [A: Arg, C: Copy] (A, Pending, C);
    [A: Arg, B: Arg] (A, B, Pending);
    [B: Copy, C: Copy, D: Copy] (Pending, B, C, D);
    [A: Arg, C: Copy, D: Copy] (A, Pending, C, D);
    [A: Arg, B: Arg, D: Copy] (A, B, Pending, D);
    [A: Arg, B: Arg, C: Arg] (A, B, C, Pending);
}

impl<A: Arg> Args for (A,) {
    type Ret = A::Scalar;
    args_methods!(A 0);
}

impl<A: Arg, B: Arg> Args for (A, B)
where
    A::Scalar: Mix<B::Scalar>,
    Mixed<A::Scalar, B::Scalar>: Real + From<A::Scalar> + From<B::Scalar>,
{
    type Ret = Mixed<A::Scalar, B::Scalar>;
    args_methods!(A 0, B 1);
}

impl<A: Arg, B: Arg, C: Arg> Args for (A, B, C)
where
    A::Scalar: Mix<B::Scalar>,
    Mixed<A::Scalar, B::Scalar>: Mix<C::Scalar>,
    Mixed<Mixed<A::Scalar, B::Scalar>, C::Scalar>:
        Real + From<A::Scalar> + From<B::Scalar> + From<C::Scalar>,
{
    type Ret = Mixed<Mixed<A::Scalar, B::Scalar>, C::Scalar>;
    args_methods!(A 0, B 1, C 2);
}

impl<A: Arg, B: Arg, C: Arg, D: Arg> Args for (A, B, C, D)
where
    A::Scalar: Mix<B::Scalar>,
    Mixed<A::Scalar, B::Scalar>: Mix<C::Scalar>,
    Mixed<Mixed<A::Scalar, B::Scalar>, C::Scalar>: Mix<D::Scalar>,
    Mixed<Mixed<Mixed<A::Scalar, B::Scalar>, C::Scalar>, D::Scalar>:
        Real + From<A::Scalar> + From<B::Scalar> + From<C::Scalar> + From<D::Scalar>,
{
    type Ret = Mixed<Mixed<Mixed<A::Scalar, B::Scalar>, C::Scalar>, D::Scalar>;
    args_methods!(A 0, B 1, C 2, D 3);
}
