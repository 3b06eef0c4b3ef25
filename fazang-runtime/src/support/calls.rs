//! Support for adjoint code built from the core form (`#[differentiate]`): index
//! arithmetic of the loops iterator chains become, local copies of arrays, and calls of
//! functions the macro cannot see into, differentiated once in the forward sweep (by
//! forward lanes, or on the tape).
//!
//! Not a public API: reached through `::fazang::__private`.

use crate::forward::Dual;
use crate::tape::scope::NestedScope;
use crate::tape::var::Var;

/// Integers a `for` loop over a range walks (`lo..hi`): the number of items and the k-th.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot bound a range in a #[differentiate] body",
    label = "expected an integer, found `{Self}`",
    note = "a `for` loop over a range counts with integers (`usize`, `i32`, ..)"
)]
pub trait RangeInt: Copy {
    /// Items of `lo..hi` (0 if `hi <= lo`).
    fn span(lo: Self, hi: Self) -> usize;
    /// `lo + k`.
    fn nth(lo: Self, k: usize) -> Self;
}

macro_rules! range_int {
    ($($t:ty => $u:ty),*) => {$(
        impl RangeInt for $t {
            #[inline(always)]
            fn span(lo: Self, hi: Self) -> usize {
                // The difference fits the unsigned type of the same width.
                if hi > lo { hi.wrapping_sub(lo) as $u as usize } else { 0 }
            }
            #[inline(always)]
            fn nth(lo: Self, k: usize) -> Self {
                // `lo + k` is in range (k < span): wrapping arithmetic gives it exactly.
                lo.wrapping_add(k as $t)
            }
        }
    )*};
}
range_int!(usize => usize, isize => usize, u8 => u8, u16 => u16, u32 => u32, u64 => u64,
    i8 => u8, i16 => u16, i32 => u32, i64 => u64);

/// Items of `lo..hi`.
///
/// ```
/// assert_eq!(fazang::__private::span(2usize, 5), 3);
/// assert_eq!(fazang::__private::span(-2i32, -5), 0);
/// assert_eq!(fazang::__private::span(-128i8, 127), 255);
/// assert_eq!(fazang::__private::nth(-128i8, 255), 127);
/// ```
#[inline(always)]
pub fn span<T: RangeInt>(lo: T, hi: T) -> usize {
    T::span(lo, hi)
}

/// Items of `lo..=hi`.
///
/// ```
/// assert_eq!(fazang::__private::span_inclusive(2usize, 5), 4);
/// ```
#[inline(always)]
pub fn span_inclusive<T: RangeInt>(lo: T, hi: T) -> usize {
    if T::span(hi, lo) > 0 {
        0
    } else {
        T::span(lo, hi) + 1
    }
}

/// `lo + k`, in `lo`'s type.
///
/// ```
/// assert_eq!(fazang::__private::nth(-3i64, 5), 2);
/// ```
#[inline(always)]
pub fn nth<T: RangeInt>(lo: T, k: usize) -> T {
    T::nth(lo, k)
}

/// Items of `windows(w)` over `n` elements (`w` must not be 0, as std panics).
///
/// ```
/// assert_eq!(fazang::__private::windows_count(5, 2), 4);
/// assert_eq!(fazang::__private::windows_count(1, 2), 0);
/// ```
#[inline]
pub fn windows_count(n: usize, w: usize) -> usize {
    assert!(w != 0, "window size must be non-zero");
    if n >= w {
        n - w + 1
    } else {
        0
    }
}

/// Items of `chunks(c)` over `n` elements.
///
/// ```
/// assert_eq!(fazang::__private::chunks_count(7, 3), 3);
/// ```
#[inline]
pub fn chunks_count(n: usize, c: usize) -> usize {
    assert!(c != 0, "chunk size must be non-zero");
    n.div_ceil(c)
}

/// Items of `chunks_exact(c)` over `n` elements.
///
/// ```
/// assert_eq!(fazang::__private::chunks_exact_count(7, 3), 2);
/// ```
#[inline]
pub fn chunks_exact_count(n: usize, c: usize) -> usize {
    assert!(c != 0, "chunk size must be non-zero");
    n / c
}

/// Items of `step_by(s)` over `n` items.
///
/// ```
/// assert_eq!(fazang::__private::step_count(7, 3), 3);
/// ```
#[inline]
pub fn step_count(n: usize, s: usize) -> usize {
    assert!(s != 0, "assertion failed: step != 0");
    n.div_ceil(s)
}

/// The panic of slicing `x[lo..hi]` with `x.len() == n`, where the primal would panic.
///
/// ```
/// fazang::__private::check_range(1, 3, 4);
/// ```
#[inline]
#[track_caller]
pub fn check_range(lo: usize, hi: usize, n: usize) {
    if lo > hi {
        panic!("slice index starts at {lo} but ends at {hi}");
    }
    if hi > n {
        panic!("range end index {hi} out of range for slice of length {n}");
    }
}

/// The panic of `dot_product` on slices of different lengths.
///
/// ```
/// fazang::__private::check_same_len(3, 3);
/// ```
#[inline]
#[track_caller]
pub fn check_same_len(a: usize, b: usize) {
    assert_eq!(
        a, b,
        "fazang: dot_product of slices of different lengths ({a} and {b})"
    );
}

/// `name_grad_into`'s buffer must hold one entry per active input.
///
/// ```
/// fazang::__private::check_grad_len("f", 3, 3);
/// ```
#[inline]
#[track_caller]
pub fn check_grad_len(name: &str, got: usize, want: usize) {
    assert!(
        got == want,
        "fazang: {name}_grad_into needs a gradient buffer of {want} entries (one per active \
         input, in parameter order), got {got}"
    );
}

/// A local, growable copy of an array of floats (what adjoint code writes into).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an array of numbers",
    label = "expected an array or vector of `f64`, found `{Self}`"
)]
pub trait ToLocal {
    /// `Vec`s all the way down.
    type Out;
    /// The copy.
    fn to_local(&self) -> Self::Out;
}

impl ToLocal for f64 {
    type Out = f64;
    #[inline]
    fn to_local(&self) -> f64 {
        *self
    }
}

impl<T: ToLocal> ToLocal for [T] {
    type Out = Vec<T::Out>;
    fn to_local(&self) -> Vec<T::Out> {
        self.iter().map(T::to_local).collect()
    }
}

impl<T: ToLocal> ToLocal for Vec<T> {
    type Out = Vec<T::Out>;
    fn to_local(&self) -> Vec<T::Out> {
        self.as_slice().to_local()
    }
}

impl<T: ToLocal, const N: usize> ToLocal for [T; N] {
    type Out = Vec<T::Out>;
    fn to_local(&self) -> Vec<T::Out> {
        self.as_slice().to_local()
    }
}

impl<T: ToLocal + ?Sized> ToLocal for &T {
    type Out = T::Out;
    fn to_local(&self) -> T::Out {
        (**self).to_local()
    }
}

/// A copy of `x` as nested `Vec`s.
///
/// ```
/// let v = fazang::__private::to_local(&[1.0, 2.0]);
/// assert_eq!(v, vec![1.0, 2.0]);
/// ```
#[inline]
pub fn to_local<T: ToLocal + ?Sized>(x: &T) -> T::Out {
    x.to_local()
}

/// Zero every entry of an array's adjoint.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an array of numbers",
    label = "expected an array or vector of `f64`, found `{Self}`"
)]
pub trait ClearAdjoint {
    /// Set to zero.
    fn clear_adjoint(&mut self);
}

impl ClearAdjoint for f64 {
    #[inline]
    fn clear_adjoint(&mut self) {
        *self = 0.0;
    }
}

impl<T: ClearAdjoint> ClearAdjoint for [T] {
    fn clear_adjoint(&mut self) {
        self.iter_mut().for_each(T::clear_adjoint);
    }
}

impl<T: ClearAdjoint> ClearAdjoint for Vec<T> {
    fn clear_adjoint(&mut self) {
        self.as_mut_slice().clear_adjoint();
    }
}

impl<T: ClearAdjoint, const N: usize> ClearAdjoint for [T; N] {
    fn clear_adjoint(&mut self) {
        self.as_mut_slice().clear_adjoint();
    }
}

/// Zero an adjoint.
///
/// ```
/// let mut a = vec![1.0, 2.0];
/// fazang::__private::clear_adjoint(&mut a);
/// assert_eq!(a, [0.0, 0.0]);
/// ```
#[inline]
pub fn clear_adjoint<T: ClearAdjoint + ?Sized>(x: &mut T) {
    x.clear_adjoint();
}

/// An input of a call differentiated by forward lanes: value `v`, tangent the unit
/// vector `i` of `K` lanes.
///
/// ```
/// let x = fazang::__private::lane::<2>(1.5, 1);
/// assert_eq!((x.re, x.eps), (1.5, [0.0, 1.0]));
/// ```
#[inline(always)]
pub fn lane<const K: usize>(v: f64, i: usize) -> Dual<f64, [f64; K]> {
    let mut eps = [0.0; K];
    eps[i] = 1.0;
    Dual { re: v, eps }
}

/// [`lane`] over any scalar: the input of a call by lanes in code over dual numbers (the
/// tangent of the adjoint code), a dual number whose lanes are dual numbers.
///
/// ```
/// use fazang::Dual;
/// let x = fazang::__private::lane_t::<2, Dual<f64, f64>>(Dual::new(1.5, 1.0), 0);
/// assert_eq!((x.re.re, x.re.eps, x.eps[0].re, x.eps[1].re), (1.5, 1.0, 1.0, 0.0));
/// ```
#[inline(always)]
pub fn lane_t<const K: usize, T: crate::Real>(v: T, i: usize) -> Dual<T, [T; K]>
where
    [T; K]: crate::forward::Tangent<T>,
{
    let mut eps = [T::from(0.0); K];
    eps[i] = T::from(1.0);
    Dual { re: v, eps }
}

/// A call differentiated on the tape, once: `f` receives the inputs `xs` as variables;
/// returns its value and writes its gradient with respect to `xs` into `g`. A
/// differentiated function called so records one node with the partials of its own
/// adjoint code.
///
/// ```
/// let mut g = Vec::new();
/// let v = fazang::__private::taped_call(&[2.0, 3.0], &mut g, |x| x[0] * x[1]);
/// assert_eq!((v, g), (6.0, vec![3.0, 2.0]));
/// ```
pub fn taped_call(xs: &[f64], g: &mut Vec<f64>, f: impl FnOnce(&[Var]) -> Var) -> f64 {
    let _scope = NestedScope::begin();
    let vars: Vec<Var> = xs.iter().map(|&x| Var::new(x)).collect();
    let y = f(&vars);
    y.grad_in_scope();
    g.clear();
    g.extend(vars.iter().map(|v| v.adj()));
    y.val()
}

/// [`taped_call`] of a function returning a `Result`: its error is returned.
///
/// ```
/// let mut g = Vec::new();
/// let v: Result<f64, ()> = fazang::__private::taped_call_result(&[2.0], &mut g, |x| Ok(x[0] * x[0]));
/// assert_eq!((v, g), (Ok(4.0), vec![4.0]));
/// ```
pub fn taped_call_result<E>(
    xs: &[f64],
    g: &mut Vec<f64>,
    f: impl FnOnce(&[Var]) -> Result<Var, E>,
) -> Result<f64, E> {
    let _scope = NestedScope::begin();
    let vars: Vec<Var> = xs.iter().map(|&x| Var::new(x)).collect();
    let y = f(&vars)?;
    y.grad_in_scope();
    g.clear();
    g.extend(vars.iter().map(|v| v.adj()));
    Ok(y.val())
}

/// A number the macro could not type (`f64`, or a reference to one, as iterators give).
#[diagnostic::on_unimplemented(
    message = "expected `f64`, found `{Self}`",
    label = "expected `f64`, found `{Self}`"
)]
pub trait ToF64 {
    /// The value.
    fn to_f64(self) -> f64;
}

impl ToF64 for f64 {
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self
    }
}

impl ToF64 for &f64 {
    #[inline(always)]
    fn to_f64(self) -> f64 {
        *self
    }
}

impl ToF64 for &&f64 {
    #[inline(always)]
    fn to_f64(self) -> f64 {
        **self
    }
}

/// `x` as an `f64`.
///
/// ```
/// assert_eq!(fazang::__private::to_f64(&2.5), 2.5);
/// ```
#[inline(always)]
pub fn to_f64<T: ToF64>(x: T) -> f64 {
    x.to_f64()
}

/// An index the macro could not type (`usize`, or a reference to one).
#[diagnostic::on_unimplemented(
    message = "expected `usize`, found `{Self}`",
    label = "expected `usize`, found `{Self}`"
)]
pub trait ToIndex {
    /// The index.
    fn to_index(self) -> usize;
}

impl ToIndex for usize {
    #[inline(always)]
    fn to_index(self) -> usize {
        self
    }
}

impl ToIndex for &usize {
    #[inline(always)]
    fn to_index(self) -> usize {
        *self
    }
}

impl ToIndex for &&usize {
    #[inline(always)]
    fn to_index(self) -> usize {
        **self
    }
}

/// `x` as a `usize` index.
///
/// ```
/// assert_eq!(fazang::__private::to_index(&3usize), 3);
/// ```
#[inline(always)]
pub fn to_index<T: ToIndex>(x: T) -> usize {
    x.to_index()
}

/// A condition the macro could not type (`bool`, or a reference to one).
#[diagnostic::on_unimplemented(
    message = "expected `bool`, found `{Self}`",
    label = "expected `bool`, found `{Self}`"
)]
pub trait ToBool {
    /// The condition.
    fn to_bool(self) -> bool;
}

impl ToBool for bool {
    #[inline(always)]
    fn to_bool(self) -> bool {
        self
    }
}

impl ToBool for &bool {
    #[inline(always)]
    fn to_bool(self) -> bool {
        *self
    }
}

/// `x` as a `bool`.
///
/// ```
/// assert!(fazang::__private::to_bool(&true));
/// ```
#[inline(always)]
pub fn to_bool<T: ToBool>(x: T) -> bool {
    x.to_bool()
}

/// The values and partials of a vector result computed by forward lanes: `values[i]` its
/// entries, `jac[i * K + j]` their derivatives along lane `j`.
///
/// ```
/// let x = fazang::__private::lane::<2>(3.0, 0);
/// let y = fazang::__private::lane::<2>(4.0, 1);
/// let out = [x * y, x + y];
/// let (mut values, mut jac) = (Vec::new(), Vec::new());
/// fazang::__private::lanes_out(&out[..], &mut values, &mut jac);
/// assert_eq!((values, jac), (vec![12.0, 7.0], vec![4.0, 3.0, 1.0, 1.0]));
/// ```
pub fn lanes_out<const K: usize>(
    out: &[Dual<f64, [f64; K]>],
    values: &mut Vec<f64>,
    jac: &mut Vec<f64>,
) {
    values.clear();
    jac.clear();
    for d in out {
        values.push(d.re);
        jac.extend_from_slice(&d.eps);
    }
}

/// [`taped_call`] of a function with a vector result: its values, and its Jacobian with
/// respect to `xs` written row-major into `jac`.
///
/// ```
/// let mut jac = Vec::new();
/// let v = fazang::__private::taped_call_vec(&[2.0, 3.0], &mut jac, |x| vec![x[0] * x[1], x[0]]);
/// assert_eq!((v, jac), (vec![6.0, 2.0], vec![3.0, 2.0, 1.0, 0.0]));
/// ```
pub fn taped_call_vec<R: AsRef<[Var]>>(
    xs: &[f64],
    jac: &mut Vec<f64>,
    f: impl FnOnce(&[Var]) -> R,
) -> Vec<f64> {
    let _scope = NestedScope::begin();
    let vars: Vec<Var> = xs.iter().map(|&x| Var::new(x)).collect();
    let ys = f(&vars);
    vector_jacobian(ys.as_ref(), &vars, jac)
}

/// [`taped_call_vec`] of a function returning a `Result`: its error is returned.
///
/// ```
/// let mut jac = Vec::new();
/// let v: Result<Vec<f64>, ()> =
///     fazang::__private::taped_call_vec_result(&[2.0], &mut jac, |x| Ok(vec![x[0] * x[0]]));
/// assert_eq!((v, jac), (Ok(vec![4.0]), vec![4.0]));
/// ```
pub fn taped_call_vec_result<R: AsRef<[Var]>, E>(
    xs: &[f64],
    jac: &mut Vec<f64>,
    f: impl FnOnce(&[Var]) -> Result<R, E>,
) -> Result<Vec<f64>, E> {
    let _scope = NestedScope::begin();
    let vars: Vec<Var> = xs.iter().map(|&x| Var::new(x)).collect();
    let ys = f(&vars)?;
    Ok(vector_jacobian(ys.as_ref(), &vars, jac))
}

/// Values of `ys` and their Jacobian rows over `vars`, flattened into `jac`.
fn vector_jacobian(ys: &[Var], vars: &[Var], jac: &mut Vec<f64>) -> Vec<f64> {
    let (values, rows) = crate::drivers::reverse::jacobian_rows(ys, vars);
    jac.clear();
    for r in rows {
        jac.extend_from_slice(&r);
    }
    values
}

/// An active array passed to a call on the tape, as the callee's parameter takes it: a
/// slice, a reference to an array, an array or a vector of variables.
#[diagnostic::on_unimplemented(
    message = "a function called with active values cannot take `{Self}`",
    label = "this argument is active (it depends on a differentiated parameter)",
    note = "an active value is an `f64` fazang differentiates, and a plain `fn(f64)` cannot take it: put #[differentiate] on the called function, or pass `.val()` if a constant is meant"
)]
pub trait FromVars<'a>: Sized {
    /// The parameter made of `v` (its length as the primal's argument had).
    fn from_vars(v: &'a [Var]) -> Self;
}

impl<'a> FromVars<'a> for &'a [Var] {
    #[inline]
    fn from_vars(v: &'a [Var]) -> Self {
        v
    }
}

impl<'a, const N: usize> FromVars<'a> for &'a [Var; N] {
    #[inline]
    fn from_vars(v: &'a [Var]) -> Self {
        v.try_into().expect("an array argument keeps its length")
    }
}

impl<const N: usize> FromVars<'_> for [Var; N] {
    #[inline]
    fn from_vars(v: &[Var]) -> Self {
        v.try_into().expect("an array argument keeps its length")
    }
}

impl FromVars<'_> for Vec<Var> {
    #[inline]
    fn from_vars(v: &[Var]) -> Self {
        v.to_vec()
    }
}

impl<'a> FromVars<'a> for &'a Vec<Var> {
    #[inline]
    fn from_vars(_: &'a [Var]) -> Self {
        unreachable!("a `&Vec` parameter takes an owned vector: see `Vec<Var>`")
    }
}

/// `v` as the callee's parameter type.
///
/// ```
/// use fazang::Var;
/// let v = [Var::new(1.0), Var::new(2.0)];
/// let a: &[Var; 2] = fazang::__private::from_vars(&v[..]);
/// assert_eq!(a[1].val(), 2.0);
/// # fazang::clear_tape();
/// ```
#[inline]
pub fn from_vars<'a, T: FromVars<'a>>(v: &'a [Var]) -> T {
    T::from_vars(v)
}

/// The panic of `dst.copy_from_slice(src)` when the lengths differ.
///
/// ```
/// fazang::__private::check_copy_len(2, 2);
/// ```
#[inline]
#[track_caller]
pub fn check_copy_len(dst: usize, src: usize) {
    assert!(
        dst == src,
        "source slice length ({src}) does not match destination slice length ({dst})"
    );
}
