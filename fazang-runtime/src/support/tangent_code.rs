//! Support for the generated code of `_jvp`, `_hvp` and `_hessian` (issue 21): the core
//! form printed once more over a scalar `T` (`AdjointScalar`) instead of `f64`. With
//! `T = Dual<f64, f64>` the forward sweep alone is tangent code (`_jvp`) and both sweeps
//! are the tangent of the adjoint code (forward over reverse: `_hvp`); with
//! `T = Dual<f64, [f64; K]>`, `K` Hessian columns per pass (`_hessian`).
//!
//! - [`AdjointScalar`]: what such code needs of its scalar beyond [`Real`];
//! - [`TStacks`]: the stacks of the generic adjoint code (the `f64` code's [`Stacks`]
//!   keep `f64`s);
//! - [`lift_vec`], [`vals`]: data meeting the scalar (a data array copied into a local
//!   array, active values read by a data expression);
//! - [`TangentSeed`], [`HessianLanes`]: seeding the parameters and reading the gradient
//!   buffers back.
//!
//! Not a public API: reached through `::fazang::__private`.
//!
//! [`Stacks`]: crate::support::adjoint::Stacks

use crate::forward::Dual;
use crate::support::adjoint::Stackable;
use crate::support::jacobian_lanes::UnitLanes;
use crate::support::jvp_hessian::{Flatten, Seed};
use crate::Real;

/// The scalar of generic adjoint code: `f64` or a dual number over `f64` (one lane or
/// `K`).
pub trait AdjointScalar:
    Real
    + crate::support::adjoint::ZerosLike<Out = Self>
    + crate::support::adjoint::Accumulate<Self>
    + crate::support::calls::ToLocal<Out = Self>
    + crate::support::calls::ClearAdjoint
{
    /// Whether the value and every lane are zero (an adjoint that adds nothing).
    fn is_zero(&self) -> bool;
    /// The value, as `f64`.
    fn value(&self) -> f64;
}

impl AdjointScalar for f64 {
    #[inline(always)]
    fn is_zero(&self) -> bool {
        *self == 0.0
    }
    #[inline(always)]
    fn value(&self) -> f64 {
        *self
    }
}

impl AdjointScalar for Dual<f64, f64> {
    #[inline(always)]
    fn is_zero(&self) -> bool {
        self.re == 0.0 && self.eps == 0.0
    }
    #[inline(always)]
    fn value(&self) -> f64 {
        self.re
    }
}

impl<const K: usize> AdjointScalar for Dual<f64, [f64; K]> {
    #[inline(always)]
    fn is_zero(&self) -> bool {
        self.re == 0.0 && self.eps.iter().all(|e| *e == 0.0)
    }
    #[inline(always)]
    fn value(&self) -> f64 {
        self.re
    }
}

/// Whether an adjoint adds anything (the guard of a partial that may be infinite where
/// the adjoint is zero, as the tape's sweep skips zero adjoints).
///
/// ```
/// use fazang::{Dual, __private::nonzero};
/// assert!(!nonzero(&0.0));
/// assert!(nonzero(&Dual::new(0.0, 1.0)));
/// ```
#[inline(always)]
pub fn nonzero<T: AdjointScalar>(g: &T) -> bool {
    !g.is_zero()
}

/// The value of an active number, for data expressions (`if x > 0.0`, `x as usize`).
///
/// ```
/// use fazang::{Dual, __private::val};
/// assert_eq!(val(Dual::new(1.5, 2.0)), 1.5);
/// ```
#[inline(always)]
pub fn val<T: AdjointScalar>(x: T) -> f64 {
    x.value()
}

/// Values of an array of active numbers, for data expressions that read it.
pub trait Vals {
    /// The same shape of `f64`s (`Vec`s for slices).
    type Out;
    /// The values.
    fn vals(&self) -> Self::Out;
}

impl<T: AdjointScalar> Vals for T {
    type Out = f64;
    #[inline]
    fn vals(&self) -> f64 {
        self.value()
    }
}

impl<T: Vals> Vals for [T] {
    type Out = Vec<T::Out>;
    fn vals(&self) -> Vec<T::Out> {
        self.iter().map(Vals::vals).collect()
    }
}

impl<T: Vals> Vals for Vec<T> {
    type Out = Vec<T::Out>;
    fn vals(&self) -> Vec<T::Out> {
        self.as_slice().vals()
    }
}

impl<T: Vals, const N: usize> Vals for [T; N] {
    type Out = [T::Out; N];
    fn vals(&self) -> [T::Out; N] {
        let mut it = self.iter();
        std::array::from_fn(|_| it.next().expect("N elements").vals())
    }
}

/// The values of `x` (an array of any shape).
///
/// ```
/// use fazang::{Dual, __private::vals};
/// assert_eq!(vals(&vec![Dual::new(1.0, 0.5)]), vec![1.0]);
/// ```
#[inline]
pub fn vals<X: Vals + ?Sized>(x: &X) -> X::Out {
    x.vals()
}

/// A data array copied into a local array of the scalar.
///
/// ```
/// use fazang::{Dual, __private::lift_vec};
/// let v: Vec<Dual<f64, f64>> = lift_vec(&[1.0, 2.0]);
/// assert_eq!((v[1].re, v[1].eps), (2.0, 0.0));
/// ```
pub fn lift_vec<T: Real>(x: &[f64]) -> Vec<T> {
    x.iter().map(|&v| T::from(v)).collect()
}

/// The stacks of generic adjoint code: values of the scalar, whole arrays of it, and
/// control decisions (as 64 bits).
pub struct TStacks<T> {
    vals: Vec<T>,
    arrays: Vec<Vec<T>>,
    ctrl: Vec<i64>,
}

impl<T: Copy> Default for TStacks<T> {
    fn default() -> Self {
        TStacks::new()
    }
}

const POP: &str = "fazang: the reverse sweep of generated code read more than its forward \
                   sweep kept; this is a bug of #[differentiate], please report it (use \
                   #[differentiate(tape)] meanwhile)";

impl<T: Copy> TStacks<T> {
    /// Empty stacks.
    ///
    /// ```
    /// let mut st = fazang::__private::TStacks::<f64>::new();
    /// st.push(1.5);
    /// st.push_any(3usize);
    /// st.push_array(&vec![1.0, 2.0]);
    /// let mut a = Vec::new();
    /// st.pop_array(&mut a);
    /// assert_eq!((a, st.pop_any::<usize>(), st.pop()), (vec![1.0, 2.0], 3, 1.5));
    /// ```
    pub fn new() -> Self {
        TStacks {
            vals: Vec::new(),
            arrays: Vec::new(),
            ctrl: Vec::new(),
        }
    }

    /// Keep a value.
    #[inline]
    pub fn push(&mut self, v: T) {
        self.vals.push(v);
    }

    /// The last value kept.
    #[inline]
    pub fn pop(&mut self) -> T {
        self.vals.pop().expect(POP)
    }

    /// Keep an integer or a boolean.
    #[inline]
    pub fn push_any<C: Stackable>(&mut self, v: C) {
        self.ctrl.push(v.to_bits());
    }

    /// The last integer or boolean kept.
    #[inline]
    pub fn pop_any<C: Stackable>(&mut self) -> C {
        C::from_bits(self.ctrl.pop().expect(POP))
    }

    /// Keep a whole array.
    pub fn push_array<A: RestoreArray<T> + ?Sized>(&mut self, a: &A) {
        a.save_into(&mut self.arrays, &mut self.ctrl);
    }

    /// The last array kept, back into `a`.
    pub fn pop_array<A: RestoreArray<T> + ?Sized>(&mut self, a: &mut A) {
        a.restore_from(&mut self.arrays, &mut self.ctrl);
    }
}

/// A local array the generic stacks keep and restore.
pub trait RestoreArray<T> {
    /// Push its elements (a row per array) onto `arrays`, its shape onto `ctrl`.
    fn save_into(&self, arrays: &mut Vec<Vec<T>>, ctrl: &mut Vec<i64>);
    /// Back to what [`RestoreArray::save_into`] pushed last (popping it).
    fn restore_from(&mut self, arrays: &mut Vec<Vec<T>>, ctrl: &mut Vec<i64>);
}

impl<T: Copy> RestoreArray<T> for Vec<T> {
    fn save_into(&self, arrays: &mut Vec<Vec<T>>, _: &mut Vec<i64>) {
        arrays.push(self.clone());
    }
    fn restore_from(&mut self, arrays: &mut Vec<Vec<T>>, _: &mut Vec<i64>) {
        *self = arrays.pop().expect(POP);
    }
}

impl<T: Copy, const N: usize> RestoreArray<T> for [T; N] {
    fn save_into(&self, arrays: &mut Vec<Vec<T>>, _: &mut Vec<i64>) {
        arrays.push(self.to_vec());
    }
    fn restore_from(&mut self, arrays: &mut Vec<Vec<T>>, _: &mut Vec<i64>) {
        self.copy_from_slice(&arrays.pop().expect(POP));
    }
}

/// Rows: each row, then their count.
impl<T: Copy> RestoreArray<T> for Vec<Vec<T>> {
    fn save_into(&self, arrays: &mut Vec<Vec<T>>, ctrl: &mut Vec<i64>) {
        arrays.extend(self.iter().cloned());
        ctrl.push(self.len() as i64);
    }
    fn restore_from(&mut self, arrays: &mut Vec<Vec<T>>, ctrl: &mut Vec<i64>) {
        let m = ctrl.pop().expect(POP) as usize;
        let at = arrays.len().checked_sub(m).expect(POP);
        *self = arrays.split_off(at);
    }
}

/// Seeds of one direction (`_jvp`, `_hvp`): each input `x_i` becomes the dual number
/// `(x_i, v_i)`, in parameter order.
///
/// ```
/// use fazang::{Dual, __private::TangentSeed};
/// let mut s = TangentSeed::new("f_jvp", &[0.5, -1.0], 2);
/// let x: Vec<Dual<f64, f64>> = s.seed(&[3.0, 4.0][..]);
/// assert_eq!((x[1].re, x[1].eps), (4.0, -1.0));
/// ```
pub struct TangentSeed<'a> {
    v: &'a [f64],
    next: usize,
}

impl<'a> TangentSeed<'a> {
    /// Seeds along `v`, which must have `n` entries (one per active input).
    ///
    /// # Panics
    ///
    /// If `v` has not `n` entries: the message names `what` (the generated function).
    pub fn new(what: &str, v: &'a [f64], n: usize) -> Self {
        if v.len() != n {
            panic!(
                "fazang: {what}: the direction v has {} entries, but the function has {n} \
                 active inputs (flattened in parameter order); give one entry per input",
                v.len()
            );
        }
        TangentSeed { v, next: 0 }
    }

    /// The next parameter, its inputs seeded.
    pub fn seed<P: Seed + ?Sized>(&mut self, p: &P) -> P::Of<Dual<f64, f64>> {
        p.seed(&mut |x| {
            let d = Dual::new(x, self.v[self.next]);
            self.next += 1;
            d
        })
    }
}

/// Every scalar of a gradient buffer of dual numbers, flattened in parameter order.
///
/// ```
/// use fazang::{Dual, __private::flat_duals};
/// let mut out = Vec::new();
/// flat_duals(vec![Dual::new(1.0, 2.0)], &mut out);
/// assert_eq!(out[0].eps, 2.0);
/// ```
pub fn flat_duals<D, B: Flatten<D>>(b: B, out: &mut Vec<D>) {
    b.flatten_into(out);
}

/// The value and Hessian of generic adjoint code, `K` columns per pass: pass `p` seeds
/// the inputs `pK .. pK + K` with the unit tangents, and the gradient buffers' lanes are
/// those columns of the Hessian (their values the gradient).
///
/// ```
/// use fazang::{Dual, __private::HessianLanes};
/// // f(x) = x0² x1: H = [[2 x1, 2 x0], [2 x0, 0]].
/// let x = [3.0, 2.0];
/// let mut s = HessianLanes::<2>::new(2);
/// while s.next_pass() {
///     let d: [Dual<f64, [f64; 2]>; 2] = s.seed(&x);
///     s.read(vec![d[0] * d[1] * 2.0, d[0] * d[0]]);
///     s.finish_pass(d[0] * d[0] * d[1]);
/// }
/// let (v, g, h) = s.finish();
/// assert_eq!((v, g), (18.0, vec![12.0, 9.0]));
/// assert_eq!(h, vec![vec![4.0, 6.0], vec![6.0, 0.0]]);
/// ```
pub struct HessianLanes<const K: usize> {
    lanes: UnitLanes<K>,
    value: f64,
    grad: Vec<f64>,
    h: Vec<Vec<f64>>,
    flat: Vec<Dual<f64, [f64; K]>>,
}

impl<const K: usize> HessianLanes<K> {
    /// A Hessian over `n` inputs.
    pub fn new(n: usize) -> Self {
        HessianLanes {
            lanes: UnitLanes::new(n),
            value: 0.0,
            grad: vec![0.0; n],
            h: vec![vec![0.0; n]; n],
            flat: Vec::with_capacity(n),
        }
    }

    /// Start the next pass; `false` once every column is done (one pass at least).
    pub fn next_pass(&mut self) -> bool {
        self.lanes.next_pass()
    }

    /// The next parameter, its inputs seeded for this pass.
    pub fn seed<P: Seed + ?Sized>(&mut self, p: &P) -> P::Of<Dual<f64, [f64; K]>> {
        self.lanes.seed(p)
    }

    /// One gradient buffer, in parameter order (then [`HessianLanes::finish_pass`]).
    pub fn read<B: Flatten<Dual<f64, [f64; K]>>>(&mut self, b: B) {
        b.flatten_into(&mut self.flat);
    }

    /// The pass's value, after its gradient buffers.
    pub fn finish_pass(&mut self, value: Dual<f64, [f64; K]>) {
        let start = self.lanes.start();
        self.value = value.re;
        for (i, d) in self.flat.drain(..).enumerate().take(self.lanes.n) {
            self.grad[i] = d.re;
            for (l, e) in d.eps.iter().enumerate() {
                if let Some(row) = self.h.get_mut(start + l) {
                    row[i] = *e;
                }
            }
        }
    }

    /// Value, gradient and the Hessian (made exactly symmetric: the mean of both
    /// triangles, which agree to rounding).
    pub fn finish(mut self) -> (f64, Vec<f64>, Vec<Vec<f64>>) {
        for i in 0..self.lanes.n {
            for j in 0..i {
                let m = 0.5 * (self.h[i][j] + self.h[j][i]);
                self.h[i][j] = m;
                self.h[j][i] = m;
            }
        }
        (self.value, self.grad, self.h)
    }
}

impl<const K: usize> Flatten<Dual<f64, [f64; K]>> for Dual<f64, [f64; K]> {
    fn flatten_into(self, out: &mut Vec<Dual<f64, [f64; K]>>) {
        out.push(self);
    }
}

/// The adjoint-code traits of `f64` ([`ZerosLike`], [`Accumulate`], [`ToLocal`],
/// [`ClearAdjoint`]) for a dual scalar.
///
/// [`ZerosLike`]: crate::support::adjoint::ZerosLike
/// [`Accumulate`]: crate::support::adjoint::Accumulate
/// [`ToLocal`]: crate::support::calls::ToLocal
/// [`ClearAdjoint`]: crate::support::calls::ClearAdjoint
macro_rules! scalar_like_f64 {
    ([$($g:tt)*] $t:ty) => {
        impl<$($g)*> crate::support::adjoint::ZerosLike for $t {
            type Out = $t;
            #[inline]
            fn zeros_like(&self) -> $t {
                <$t>::from(0.0)
            }
        }
        impl<$($g)*> crate::support::adjoint::Accumulate<$t> for $t {
            #[inline]
            fn accumulate(&mut self, src: &$t) {
                *self += *src;
            }
        }
        impl<$($g)*> crate::support::calls::ToLocal for $t {
            type Out = $t;
            #[inline]
            fn to_local(&self) -> $t {
                *self
            }
        }
        impl<$($g)*> crate::support::calls::ClearAdjoint for $t {
            #[inline]
            fn clear_adjoint(&mut self) {
                *self = <$t>::from(0.0);
            }
        }
    };
}
scalar_like_f64!([] Dual<f64, f64>);
scalar_like_f64!([const K: usize] Dual<f64, [f64; K]>);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::support::adjoint::{accumulate, zeros_like};

    #[test]
    fn dual_buffers_are_zeroed_and_accumulated_lane_by_lane() {
        let x = vec![Dual::new(1.0, [2.0, 3.0]); 2];
        let mut z = zeros_like(&x);
        assert!(z.iter().all(|d| d.is_zero()));
        accumulate(&mut z[..], &x[..]);
        accumulate(&mut z[..], &x[..]);
        assert_eq!((z[1].re, z[1].eps), (2.0, [4.0, 6.0]));
    }

    #[test]
    fn a_zero_value_with_a_tangent_is_not_zero() {
        assert!(nonzero(&Dual::new(0.0, [0.0, 1e-300])));
        assert!(!nonzero(&Dual::new(0.0, [0.0, 0.0])));
    }

    #[test]
    fn hessian_lanes_fill_columns_over_several_passes() {
        // f(x) = x0 x1 x2 over 3 inputs with 2 lanes: two passes.
        let x = [2.0, 3.0, 5.0];
        let mut s = HessianLanes::<2>::new(3);
        let mut passes = 0;
        while s.next_pass() {
            passes += 1;
            let d: [Dual<f64, [f64; 2]>; 3] = s.seed(&x);
            s.read(vec![d[1] * d[2], d[0] * d[2], d[0] * d[1]]);
            s.finish_pass(d[0] * d[1] * d[2]);
        }
        let (v, g, h) = s.finish();
        assert_eq!(passes, 2);
        assert_eq!((v, g), (30.0, vec![15.0, 10.0, 6.0]));
        assert_eq!(
            h,
            vec![
                vec![0.0, 5.0, 3.0],
                vec![5.0, 0.0, 2.0],
                vec![3.0, 2.0, 0.0]
            ]
        );
    }
}
