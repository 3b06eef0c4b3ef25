//! Data of a type the macro cannot see, passed next to active arguments to a function the
//! macro cannot see either (`energy(&state, x)` with `let state = initial();`).
//!
//! If the data is made of `f64`s (`[f64; N]`, `Vec<f64>`, rows of them), the callee's
//! parameter decides what it becomes: the active scalar for an active parameter, the same
//! data for a data parameter (as [`Pass`] and [`adapt_ref`](super::adapt_ref) do). Any
//! other value (a `String`, a `usize`, a struct) is passed as it is. Which of the two is
//! chosen by method resolution on the concrete type ("autoref specialisation"): the
//! `f64` case is an inherent method of [`DataArg`] bounded on the data's type, which
//! rustc tries first; when the bound does not hold, it finds the method of the same name
//! on [`DataArg`]'s `Deref` target, which returns the value unchanged. Generated code
//! writes `DataArg::new(x).get()` and `&*DataRefArg::new(&x).get()`.

use super::convert::{DataRef, Pass};
use crate::Real;
use std::cell::Cell;
use std::ops::Deref;

/// Types whose values [`DataArg`] converts with [`Pass`]: `f64` and arrays and vectors
/// of it.
pub trait PassData {}
impl PassData for f64 {}
impl<const N: usize> PassData for [f64; N] {}
impl PassData for Vec<f64> {}
impl PassData for Vec<Vec<f64>> {}

/// A data argument passed by value (see the module doc).
///
/// ```
/// use fazang::__private::DataArg;
/// fn takes<S: fazang::Real>(a: [S; 2], label: String) -> (S, usize) {
///     (a[0] + a[1], label.len())
/// }
/// let state = [1.0, 2.0];
/// let (v, n) = takes::<fazang::Var>(DataArg::new(state).get(), DataArg::new(String::from("ab")).get());
/// assert_eq!((fazang::Real::val(&v), n), (3.0, 2));
/// # fazang::clear_tape();
/// ```
pub struct DataArg<T>(AsItIs<T>);

/// What [`DataArg`] derefs to: the value as it is.
pub struct AsItIs<T>(Cell<Option<T>>);

impl<T> DataArg<T> {
    /// Wrap a value.
    #[inline(always)]
    pub fn new(x: T) -> Self {
        DataArg(AsItIs(Cell::new(Some(x))))
    }
}

impl<T> Deref for DataArg<T> {
    type Target = AsItIs<T>;
    #[inline(always)]
    fn deref(&self) -> &AsItIs<T> {
        &self.0
    }
}

impl<X: PassData> DataArg<X> {
    /// `f64` data as the parameter takes it.
    #[inline(always)]
    pub fn get<U>(self) -> U
    where
        X: Pass<U>,
    {
        self.0.get().pass()
    }
}

impl<X> AsItIs<X> {
    /// The value, unchanged.
    #[inline(always)]
    pub fn get(&self) -> X {
        // Only ever called once, on a `DataArg` just built.
        self.0.take().expect("a DataArg is read once")
    }
}

/// A data argument passed by reference: `&*DataRefArg::new(&x).get()` is `&[S]` (or
/// `&[S; N]`, `&Vec<S>`, ..) for `f64` data, the same reference otherwise.
///
/// ```
/// use fazang::__private::DataRefArg;
/// fn takes<S: fazang::Real>(a: &[S; 2], label: &str) -> (S, usize) {
///     (a[0] + a[1], label.len())
/// }
/// let state = [1.0, 2.0];
/// let label = String::from("abc");
/// let (v, n) = takes::<fazang::Var>(&*DataRefArg::new(&state).get(), &*DataRefArg::new(&label).get());
/// assert_eq!((fazang::Real::val(&v), n), (3.0, 3));
/// # fazang::clear_tape();
/// ```
pub struct DataRefArg<'a, D: ?Sized>(RefAsItIs<'a, D>);

/// What [`DataRefArg`] derefs to: the reference as it is.
pub struct RefAsItIs<'a, D: ?Sized>(&'a D);

impl<'a, D: ?Sized> DataRefArg<'a, D> {
    /// Wrap a reference.
    #[inline(always)]
    pub fn new(x: &'a D) -> Self {
        DataRefArg(RefAsItIs(x))
    }
}

impl<'a, D: ?Sized> Deref for DataRefArg<'a, D> {
    type Target = RefAsItIs<'a, D>;
    #[inline(always)]
    fn deref(&self) -> &RefAsItIs<'a, D> {
        &self.0
    }
}

impl<'a, D: DataRef + ?Sized> DataRefArg<'a, D> {
    /// `f64` data as `T`s, borrowed when `T` is `f64`.
    #[inline(always)]
    pub fn get<T: Real>(self) -> D::Adapted<'a, T> {
        (self.0).0.adapt()
    }
}

impl<'a, D: ?Sized> RefAsItIs<'a, D> {
    /// The reference, unchanged.
    #[inline(always)]
    pub fn get(&self) -> &'a D {
        self.0
    }
}
