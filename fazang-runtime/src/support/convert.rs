//! Conversions in differentiated bodies: `as f64` ([`AsF64`]), literals and data
//! flowing into active places ([`lit`], [`Pass`], [`Promote`]), data passed by reference
//! next to active arguments ([`adapt_ref`]).

use crate::Real;

/// `x as f64` inside a differentiated body: allowed on numbers, refused (with a message
/// that says why) on active values, whose derivative the cast would drop.
#[diagnostic::on_unimplemented(
    message = "`as f64` on an active value would silently drop its derivative",
    label = "this value is active in a #[differentiate] body",
    note = "keep it as it is (arithmetic works on active values), or take `.val()` if you \
            really want a constant"
)]
pub trait AsF64 {
    /// The value as `f64`.
    fn to_f64(self) -> f64;
}
macro_rules! as_f64 {
    ($($t:ty),*) => {$(
        impl AsF64 for $t {
            #[inline]
            fn to_f64(self) -> f64 {
                self as f64
            }
        }
    )*};
}
as_f64!(f64, f32, i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);

/// A constant of scalar type `S`: an `f64` (literal or data) flowing into an active place
/// of a differentiated body (a binding later given active values, a method receiver next
/// to active arguments, a branch of an active `if`).
#[inline(always)]
pub fn lit<S: Real>(v: f64) -> S {
    S::from(v)
}

/// A data value of a type the macro cannot see (the result of a call on data) passed
/// next to active arguments: an `f64` becomes the parameter's scalar, integers and
/// `bool`s pass through.
#[diagnostic::on_unimplemented(
    message = "expected `{T}`, found `{Self}`",
    label = "expected `{T}`, found `{Self}`"
)]
pub trait Pass<T> {
    /// The value as the parameter takes it.
    fn pass(self) -> T;
}

impl<T: Real> Pass<T> for f64 {
    #[inline(always)]
    fn pass(self) -> T {
        T::from(self)
    }
}

/// Arrays and vectors of data passed by value: the parameter's scalar decides (data
/// stays `f64`).
impl<T: Real, const N: usize> Pass<[T; N]> for [f64; N] {
    #[inline(always)]
    fn pass(self) -> [T; N] {
        self.map(T::from)
    }
}

impl<T: Real> Pass<Vec<T>> for Vec<f64> {
    #[inline]
    fn pass(self) -> Vec<T> {
        self.into_iter().map(T::from).collect()
    }
}

impl<T: Real> Pass<Vec<Vec<T>>> for Vec<Vec<f64>> {
    #[inline]
    fn pass(self) -> Vec<Vec<T>> {
        self.into_iter()
            .map(|r| r.into_iter().map(T::from).collect())
            .collect()
    }
}

macro_rules! pass_through {
    ($($t:ty),*) => {$(
        impl Pass<$t> for $t {
            #[inline(always)]
            fn pass(self) -> $t {
                self
            }
        }
    )*};
}
pass_through!(bool, usize, isize, u8, u16, u32, u64, i8, i16, i32, i64);

/// [`Pass::pass`].
#[inline(always)]
pub fn pass<V: Pass<T>, T>(v: V) -> T {
    v.pass()
}

/// Data of any shape made of `f64`s (arrays, vectors) converted to the same shape of
/// scalar `S`, where a differentiated body later writes active values into it
/// (`let mut u = u0; u[0] += h * x;`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot hold the active values written into it",
    label = "expected `f64` data (a number, or an array or vector of them), found `{Self}`"
)]
pub trait Promote<S> {
    /// The same shape with `S` for `f64`.
    type Output;
    /// The converted value.
    fn promote(self) -> Self::Output;
}

impl<S: Real> Promote<S> for f64 {
    type Output = S;
    #[inline(always)]
    fn promote(self) -> S {
        S::from(self)
    }
}

impl<S: Real> Promote<S> for &f64 {
    type Output = S;
    #[inline(always)]
    fn promote(self) -> S {
        S::from(*self)
    }
}

impl<S, T: Promote<S>, const N: usize> Promote<S> for [T; N] {
    type Output = [T::Output; N];
    #[inline]
    fn promote(self) -> Self::Output {
        self.map(T::promote)
    }
}

impl<S, T: Promote<S>> Promote<S> for Vec<T> {
    type Output = Vec<T::Output>;
    #[inline]
    fn promote(self) -> Self::Output {
        self.into_iter().map(T::promote).collect()
    }
}

impl<'a, S, T> Promote<S> for &'a [T]
where
    &'a T: Promote<S>,
{
    type Output = Vec<<&'a T as Promote<S>>::Output>;
    #[inline]
    fn promote(self) -> Self::Output {
        self.iter().map(Promote::promote).collect()
    }
}

impl<'a, S, T, const N: usize> Promote<S> for &'a [T; N]
where
    &'a T: Promote<S>,
{
    type Output = [<&'a T as Promote<S>>::Output; N];
    #[inline]
    fn promote(self) -> Self::Output {
        let mut it = self.iter();
        std::array::from_fn(|_| it.next().expect("N elements").promote())
    }
}

impl<'a, S, T> Promote<S> for &'a Vec<T>
where
    &'a T: Promote<S>,
{
    type Output = Vec<<&'a T as Promote<S>>::Output>;
    #[inline]
    fn promote(self) -> Self::Output {
        self.iter().map(Promote::promote).collect()
    }
}

/// Data passed by reference to a function the macro cannot see, next to active
/// arguments: `&*adapt_ref(ys)` is `&[S]` (or `&[S; N]`) if the parameter is active, and
/// the same data, borrowed, if it is a data parameter.
#[inline(always)]
pub fn adapt_ref<T: Real, D: DataRef + ?Sized>(x: &D) -> D::Adapted<'_, T> {
    x.adapt()
}

/// A slice, vector or array of `f64` that [`adapt_ref`] accepts.
#[diagnostic::on_unimplemented(
    message = "expected `f64` data next to active arguments, found `{Self}`",
    label = "expected a slice, vector or array of `f64`, found `{Self}`"
)]
pub trait DataRef {
    /// The same container of `T`, borrowed when `T` is `f64`.
    type Adapted<'a, T: Real>: std::ops::Deref
    where
        Self: 'a;
    /// The data as `T`s.
    fn adapt<T: Real>(&self) -> Self::Adapted<'_, T>;
}

impl DataRef for [f64] {
    type Adapted<'a, T: Real> = std::borrow::Cow<'a, [T]>;
    #[inline]
    fn adapt<T: Real>(&self) -> std::borrow::Cow<'_, [T]> {
        T::__from_data(self)
    }
}

impl DataRef for Vec<f64> {
    type Adapted<'a, T: Real> = std::borrow::Cow<'a, [T]>;
    #[inline]
    fn adapt<T: Real>(&self) -> std::borrow::Cow<'_, [T]> {
        T::__from_data(self)
    }
}

impl<const N: usize> DataRef for [f64; N] {
    type Adapted<'a, T: Real> = std::borrow::Cow<'a, [T; N]>;
    #[inline]
    fn adapt<T: Real>(&self) -> std::borrow::Cow<'_, [T; N]> {
        T::__from_data_array(self)
    }
}

impl DataRef for [Vec<f64>] {
    type Adapted<'a, T: Real> = std::borrow::Cow<'a, [Vec<T>]>;
    #[inline]
    fn adapt<T: Real>(&self) -> std::borrow::Cow<'_, [Vec<T>]> {
        T::__from_data_rows(self)
    }
}

impl DataRef for Vec<Vec<f64>> {
    type Adapted<'a, T: Real> = std::borrow::Cow<'a, [Vec<T>]>;
    #[inline]
    fn adapt<T: Real>(&self) -> std::borrow::Cow<'_, [Vec<T>]> {
        T::__from_data_rows(self)
    }
}

impl<const N: usize> DataRef for [[f64; N]] {
    type Adapted<'a, T: Real> = std::borrow::Cow<'a, [[T; N]]>;
    #[inline]
    fn adapt<T: Real>(&self) -> std::borrow::Cow<'_, [[T; N]]> {
        T::__from_data_array_rows(self)
    }
}

/// `Promote::promote` with the scalar named: `promote::<S, _>(u0)`.
#[inline(always)]
pub fn promote<S, T: Promote<S>>(x: T) -> T::Output {
    x.promote()
}
