//! Functions over slices of any [`Real`](crate::Real): `sum dot_product log_sum_exp norm2 matmul`.
//!
//! On `Var` each result is one recorded node with analytic partials (one operand per
//! active element), not a chain of elementary operations.

use crate::tape::pool::Pool;
use crate::tape::var::{nary_named, Var};

/// Slice reductions, implemented per scalar type (a supertrait of [`Real`](crate::Real)); call them
/// through the free functions [`sum`], [`log_sum_exp`] and [`norm2`].
///
/// ```
/// use fazang::SliceOps;
/// assert_eq!(f64::sum_slice(&[1.0, 2.0]), fazang::sum(&[1.0, 2.0]));
/// ```
pub trait SliceOps: Sized {
    /// Σ xᵢ.
    ///
    /// ```
    /// use fazang::SliceOps;
    /// assert_eq!(f64::sum_slice(&[1.0, 2.5]), 3.5);
    /// ```
    fn sum_slice(x: &[Self]) -> Self;
    /// ln Σ exp xᵢ.
    ///
    /// ```
    /// use fazang::SliceOps;
    /// assert_eq!(f64::log_sum_exp_slice(&[0.0, 0.0]), 2.0_f64.ln());
    /// ```
    fn log_sum_exp_slice(x: &[Self]) -> Self;
    /// √Σ xᵢ².
    ///
    /// ```
    /// use fazang::SliceOps;
    /// assert_eq!(f64::norm2_slice(&[3.0, 4.0]), 5.0);
    /// ```
    fn norm2_slice(x: &[Self]) -> Self;
}

/// Binary slice functions between `Self` and `B`, one impl per type combination
/// (`f64`/`f64`, `f64`/`Var`, `Var`/`f64`, `Var`/`Var`): Fazang's mixed arguments.
///
/// ```
/// use fazang::{Mix, Var};
/// // f64 with Var mixes to Var: the result of a mixed dot product is active
/// let d: <f64 as Mix<Var>>::Output = fazang::dot_product(&[1.0], &[Var::constant(2.0)]);
/// assert_eq!(d.val(), 2.0);
/// ```
#[diagnostic::on_unimplemented(
    message = "fazang's functions cannot take `{Self}` with `{B}`",
    label = "this argument is `{B}`",
    note = "fazang's functions take `f64`s, active values and slices of them; a reference to a number needs `*`"
)]
pub trait Mix<B>: Sized {
    /// The result type: active if either side is.
    type Output;
    /// Σ aᵢ bᵢ (equal lengths, checked by [`dot_product`]).
    ///
    /// ```
    /// use fazang::Mix;
    /// assert_eq!(<f64 as Mix<f64>>::dot(&[1.0, 2.0], &[3.0, 4.0]), 11.0);
    /// ```
    fn dot(a: &[Self], b: &[B]) -> Self::Output;
}

/// Σ xᵢ; on `Var`, one node with a partial of 1 per active element.
///
/// ```
/// # use fazang::prelude::*;
/// assert_eq!(sum(&[1.0, 2.0, 3.5]), 6.5);
/// ```
pub fn sum<T: SliceOps>(x: &[T]) -> T {
    T::sum_slice(x)
}

/// ln Σ exp xᵢ, stable for large and very different inputs (shifted by the maximum);
/// `-∞` for an empty slice, NaN if an entry is NaN. Partials: softmax(x).
///
/// ```
/// # use fazang::prelude::*;
/// let v = log_sum_exp(&[1.0, 7.0, 1e8, 5.0]);
/// assert_eq!(v, 1e8);
/// ```
pub fn log_sum_exp<T: SliceOps>(x: &[T]) -> T {
    T::log_sum_exp_slice(x)
}

/// Euclidean norm √Σ xᵢ², computed with scaling so it neither overflows nor underflows;
/// NaN if an entry is NaN. Partials xᵢ/‖x‖ (0 at the zero vector).
///
/// ```
/// # use fazang::prelude::*;
/// assert_eq!(norm2(&[3.0, 4.0]), 5.0);
/// ```
pub fn norm2<T: SliceOps>(x: &[T]) -> T {
    T::norm2_slice(x)
}

/// Σ aᵢ bᵢ for any mix of `f64` and active slices.
///
/// Panics if the lengths differ (a programming error, as in Fortran's `dot_product`).
///
/// ```
/// # use fazang::prelude::*;
/// let w = [1.0, 2.0];
/// let x = [Var::new(3.0), Var::new(4.0)];
/// let d = dot_product(&w, &x);
/// d.grad();
/// assert_eq!(d.val(), 11.0);
/// assert_eq!([x[0].adj(), x[1].adj()], [1.0, 2.0]);
/// # fazang::clear_tape();
/// ```
pub fn dot_product<A: Mix<B>, B>(a: &[A], b: &[B]) -> A::Output {
    assert_eq!(
        a.len(),
        b.len(),
        "fazang: dot_product of slices of different lengths ({} and {})",
        a.len(),
        b.len()
    );
    A::dot(a, b)
}

/// Matrix product `C = A B` of row-major matrices given as slices of rows (`Vec`s or
/// arrays): `A` is n×k (n rows of length k), `B` is k×m, and `C` comes back as n rows of
/// length m. Any mix of `f64` and active entries; each entry of `C` is one
/// [`dot_product`] node.
///
/// Panics if the rows of `A` are not all as long as `B` has rows, or `B` is ragged.
///
/// ```
/// # use fazang::prelude::*;
/// let a = [[1.0, 2.0], [3.0, 4.0]];
/// let b = [[5.0], [6.0]];
/// assert_eq!(matmul(&a, &b), vec![vec![17.0], vec![39.0]]);
/// ```
pub fn matmul<A, B, RA, RB>(a: &[RA], b: &[RB]) -> Vec<Vec<A::Output>>
where
    A: Mix<B>,
    B: Copy,
    RA: AsRef<[A]>,
    RB: AsRef<[B]>,
{
    let k = b.len();
    let m = b.first().map_or(0, |r| r.as_ref().len());
    assert!(
        b.iter().all(|r| r.as_ref().len() == m),
        "fazang: matmul: the rows of the right-hand matrix differ in length"
    );
    let cols: Vec<Vec<B>> = (0..m)
        .map(|j| b.iter().map(|r| r.as_ref()[j]).collect())
        .collect();
    a.iter()
        .map(|row| {
            let row = row.as_ref();
            assert_eq!(
                row.len(),
                k,
                "fazang: matmul: a row of the left matrix has {} entries but the right \
                 matrix has {} rows",
                row.len(),
                k
            );
            cols.iter().map(|c| A::dot(row, c)).collect()
        })
        .collect()
}

/// Largest element, -∞ for an empty slice, NaN if any element is NaN (unlike
/// `f64::max`, which would skip it and let a NaN input give a number).
fn max_of(v: impl Iterator<Item = f64>) -> f64 {
    v.fold(
        f64::NEG_INFINITY,
        |m, x| if x > m || x.is_nan() { x } else { m },
    )
}

/// ln Σ exp xᵢ on f64, shifted by the maximum.
fn lse(x: impl Iterator<Item = f64> + Clone) -> f64 {
    let m = max_of(x.clone());
    if m.is_infinite() || m.is_nan() {
        // all -inf (or empty): -inf; any +inf: +inf; any NaN: NaN
        return m;
    }
    m + x.map(|v| (v - m).exp()).sum::<f64>().ln()
}

/// √Σ xᵢ² on f64, scaled by the power of two at or below the largest magnitude (so the
/// scaling is exact).
fn norm(x: impl Iterator<Item = f64> + Clone) -> f64 {
    let m = max_of(x.clone().map(f64::abs));
    if m.is_nan() {
        return m;
    }
    if m == 0.0 || m.is_infinite() {
        // empty (m = -inf) or all zero: 0; any ±inf: +inf
        return m.max(0.0);
    }
    // Keep only the exponent bits: 2^floor(log2 m), or the smallest normal for subnormals.
    let s = f64::from_bits(m.to_bits() & 0x7ff0_0000_0000_0000).max(f64::MIN_POSITIVE);
    s * x.map(|v| (v / s) * (v / s)).sum::<f64>().sqrt()
}

impl SliceOps for f64 {
    fn sum_slice(x: &[f64]) -> f64 {
        x.iter().sum()
    }
    fn log_sum_exp_slice(x: &[f64]) -> f64 {
        lse(x.iter().copied())
    }
    fn norm2_slice(x: &[f64]) -> f64 {
        norm(x.iter().copied())
    }
}

impl SliceOps for Var {
    fn sum_slice(x: &[Var]) -> Var {
        let v = x.iter().map(|x| x.val()).sum();
        nary_named("sum", v, x.iter().map(|&x| (x, 1.0)))
    }
    fn log_sum_exp_slice(x: &[Var]) -> Var {
        let vals = x.iter().map(|x| x.val());
        let m = max_of(vals.clone());
        if m.is_infinite() || m.is_nan() {
            return Var::constant(m);
        }
        // Partials softmax(x) = e^(xᵢ - m) / Σ e^(xⱼ - m), from the sum itself rather
        // than as e^(xᵢ - v) with the rounded result v (which is e^(xᵢ - m) / s only to
        // the rounding of v, i.e. |v| ulp: all wrong for |v| ≥ 2⁵²).
        let s: f64 = vals.map(|v| (v - m).exp()).sum();
        let inv_s = 1.0 / s;
        nary_named(
            "log_sum_exp",
            m + s.ln(),
            x.iter().map(|&x| (x, (x.val() - m).exp() * inv_s)),
        )
    }
    fn norm2_slice(x: &[Var]) -> Var {
        let v = norm(x.iter().map(|x| x.val()));
        let inv = if v == 0.0 { 0.0 } else { 1.0 / v };
        nary_named("norm2", v, x.iter().map(|&x| (x, x.val() * inv)))
    }
}

fn dot_f64(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

impl Mix<f64> for f64 {
    type Output = f64;
    fn dot(a: &[f64], b: &[f64]) -> f64 {
        dot_f64(a, b)
    }
}

impl Mix<Var> for f64 {
    type Output = Var;
    fn dot(a: &[f64], b: &[Var]) -> Var {
        let v = a.iter().zip(b).map(|(x, y)| x * y.val()).sum();
        nary_named("dot_product", v, b.iter().zip(a).map(|(&y, &x)| (y, x)))
    }
}

impl Mix<f64> for Var {
    type Output = Var;
    fn dot(a: &[Var], b: &[f64]) -> Var {
        <f64 as Mix<Var>>::dot(b, a)
    }
}

impl Mix<Var> for Var {
    type Output = Var;
    fn dot(a: &[Var], b: &[Var]) -> Var {
        let v = a.iter().zip(b).map(|(x, y)| x.val() * y.val()).sum();
        let left = a.iter().zip(b).map(|(&x, y)| (x, y.val()));
        let right = b.iter().zip(a).map(|(&y, x)| (y, x.val()));
        nary_named("dot_product", v, left.chain(right))
    }
}

thread_local! {
    /// Reusable buffers for [`sum_iter`], so summing an iterator does not allocate.
    static SUM_BUF: Pool<Var> = const { Pool::new() };
}

/// Free the buffers of [`sum_iter`].
pub(crate) fn release_buffers() {
    let _ = SUM_BUF.try_with(Pool::release);
}

/// `Sum` of an iterator of `Var`s: one node. The iterator may itself record (as in
/// `x.iter().map(|a| a * a).sum()`), so the operands are gathered before recording.
pub(crate) fn sum_iter(iter: impl Iterator<Item = Var>) -> Var {
    // Taken out of the pool, so that a sum inside the iterator finds another one.
    let mut ops = SUM_BUF.with(Pool::take);
    let mut total = -0.0;
    for x in iter {
        total += x.val();
        if !x.is_constant() {
            ops.push(x);
        }
    }
    let out = nary_named("sum", total, ops.iter().map(|&x| (x, 1.0)));
    let used = ops.len();
    SUM_BUF.with(|b| b.give(ops, used));
    out
}
