//! The Jacobian of a call with a vector result on forward lanes: one pass of
//! `Dual<f64, [f64; K]>` with a lane per active input (scalars, `&mut` floats, the
//! elements of short windows), in place of a recording swept once per output. Adjoint
//! code keeps the values and the Jacobian exactly as a taped call's.
//!
//! Not a public API: reached through `::fazang::__private`.

use crate::forward::Dual;

/// Lanes for the floats of `xs`, starting at lane `*next` (advanced past them).
///
/// ```
/// let mut next = 1;
/// let v = fazang::__private::lanes_of::<3>(&[2.0, 5.0], &mut next);
/// assert_eq!((v[1].re, v[1].eps, next), (5.0, [0.0, 0.0, 1.0], 3));
/// ```
pub fn lanes_of<const K: usize>(xs: &[f64], next: &mut usize) -> Vec<Dual<f64, [f64; K]>> {
    xs.iter()
        .map(|&x| {
            let mut eps = [0.0; K];
            eps[*next] = 1.0;
            *next += 1;
            Dual { re: x, eps }
        })
        .collect()
}

/// A call's result on lanes, flattened row-major into values and Jacobian rows.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a vector result",
    label = "expected a number, or vectors or rows of them"
)]
pub trait LaneOutputs<const K: usize> {
    /// Push each output's value onto `ys` and its lanes onto `jac`.
    fn lane_outputs(&self, ys: &mut Vec<f64>, jac: &mut Vec<f64>);
}

impl<const K: usize> LaneOutputs<K> for Dual<f64, [f64; K]> {
    #[inline]
    fn lane_outputs(&self, ys: &mut Vec<f64>, jac: &mut Vec<f64>) {
        ys.push(self.re);
        jac.extend_from_slice(&self.eps);
    }
}

impl<const K: usize> LaneOutputs<K> for () {
    #[inline]
    fn lane_outputs(&self, _: &mut Vec<f64>, _: &mut Vec<f64>) {}
}

impl<const K: usize, T: LaneOutputs<K>> LaneOutputs<K> for [T] {
    fn lane_outputs(&self, ys: &mut Vec<f64>, jac: &mut Vec<f64>) {
        self.iter().for_each(|x| x.lane_outputs(ys, jac));
    }
}

impl<const K: usize, T: LaneOutputs<K>> LaneOutputs<K> for Vec<T> {
    fn lane_outputs(&self, ys: &mut Vec<f64>, jac: &mut Vec<f64>) {
        self.as_slice().lane_outputs(ys, jac);
    }
}

impl<const K: usize, T: LaneOutputs<K>, const N: usize> LaneOutputs<K> for [T; N] {
    fn lane_outputs(&self, ys: &mut Vec<f64>, jac: &mut Vec<f64>) {
        self.as_slice().lane_outputs(ys, jac);
    }
}

/// Push the values and Jacobian rows of `r` (see [`LaneOutputs`]).
///
/// ```
/// use fazang::__private::{lane, lane_outputs};
/// let (x, y) = (lane::<2>(3.0, 0), lane::<2>(4.0, 1));
/// let (mut ys, mut jac) = (Vec::new(), Vec::new());
/// lane_outputs(&vec![vec![x * y], vec![x + y]], &mut ys, &mut jac);
/// assert_eq!((ys, jac), (vec![12.0, 7.0], vec![4.0, 3.0, 1.0, 1.0]));
/// ```
#[inline]
pub fn lane_outputs<const K: usize, R: LaneOutputs<K> + ?Sized>(
    r: &R,
    ys: &mut Vec<f64>,
    jac: &mut Vec<f64>,
) {
    r.lane_outputs(ys, jac);
}

/// The lengths of rows (to shape a call's flat outputs again).
///
/// ```
/// let mut lens = Vec::new();
/// fazang::__private::row_lens_of(&[vec![1.0], vec![2.0, 3.0]], &mut lens);
/// assert_eq!(lens, [1, 2]);
/// ```
pub fn row_lens_of<T>(rows: &[Vec<T>], lens: &mut Vec<usize>) {
    lens.extend(rows.iter().map(Vec::len));
}

/// The result of a call on forward lanes: its value and the partial derivative in lane
/// `j`. A callee returning a plain `f64` (`fn h<S: Real>(x: S) -> f64 { x.val() }`) gives a
/// constant: its value, and no derivative in any lane, as the tape sees it too.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a number",
    label = "a function called with active values returns a number here",
    note = "a call returning a `Result` needs `?` (or `.unwrap()`) before its value is used"
)]
pub trait LaneResult<T> {
    /// The value.
    fn lane_re(&self) -> T;
    /// The partial derivative in lane `j`.
    fn lane_eps(&self, j: usize) -> T;
}

impl<T: Copy, const K: usize> LaneResult<T> for Dual<T, [T; K]> {
    #[inline(always)]
    fn lane_re(&self) -> T {
        self.re
    }
    #[inline(always)]
    fn lane_eps(&self, j: usize) -> T {
        self.eps[j]
    }
}

impl<T: crate::Real> LaneResult<T> for f64 {
    #[inline(always)]
    fn lane_re(&self) -> T {
        T::from(*self)
    }
    #[inline(always)]
    fn lane_eps(&self, _: usize) -> T {
        T::from(0.0)
    }
}

/// The value of a call's result on lanes (see [`LaneResult`]).
///
/// ```
/// use fazang::__private::{lane, lane_eps, lane_re};
/// let y = lane::<2>(3.0, 1) * 2.0;
/// assert_eq!((lane_re::<f64, _>(&y), lane_eps::<f64, _>(&y, 1)), (6.0, 2.0));
/// assert_eq!(lane_eps::<f64, _>(&4.0, 0), 0.0);
/// ```
#[inline(always)]
pub fn lane_re<T, R: LaneResult<T>>(r: &R) -> T {
    r.lane_re()
}

/// The partial derivative in lane `j` of a call's result on lanes (see [`LaneResult`]).
#[inline(always)]
pub fn lane_eps<T, R: LaneResult<T>>(r: &R, j: usize) -> T {
    r.lane_eps(j)
}
