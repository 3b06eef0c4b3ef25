//! Forward-mode drivers: [`jvp`] (directional derivatives), [`derivatives`] (every
//! derivative of a univariate function up to an order), and [`derivative`] /
//! [`value_and_derivative`], which nest.

use super::arena;
use super::dual::Dual;
use super::nested::Fwd;
use super::taylor::Taylor;
use std::cell::Cell;

thread_local! {
    /// Number of `derivative` calls in progress on this thread: the next level.
    static DEPTH: Cell<u32> = const { Cell::new(0) };
}

/// What a closure given to [`jvp`] may return: one dual number (a scalar function) or a
/// `Vec` of them (a vector function), read back as values and directional derivatives.
///
/// ```
/// use fazang::{Dual, JvpOutput};
/// assert_eq!(Dual::new(1.0, 2.0).split(), (1.0, 2.0));
/// assert_eq!(vec![Dual::new(1.0, 2.0)].split(), (vec![1.0], vec![2.0]));
/// ```
pub trait JvpOutput {
    /// `(value, derivative)`: `(f64, f64)` or `(Vec<f64>, Vec<f64>)`.
    type Out;
    /// The values and the tangents.
    fn split(self) -> Self::Out;
}

impl JvpOutput for Dual<f64> {
    type Out = (f64, f64);
    fn split(self) -> (f64, f64) {
        (self.re, self.eps)
    }
}

impl JvpOutput for Vec<Dual<f64>> {
    type Out = (Vec<f64>, Vec<f64>);
    fn split(self) -> (Vec<f64>, Vec<f64>) {
        self.into_iter().map(|d| (d.re, d.eps)).unzip()
    }
}

impl<const M: usize> JvpOutput for [Dual<f64>; M] {
    type Out = (Vec<f64>, Vec<f64>);
    fn split(self) -> (Vec<f64>, Vec<f64>) {
        self.into_iter().map(|d| (d.re, d.eps)).unzip()
    }
}

/// The value of `f` at `x` and its directional derivative along `v` (a Jacobian-vector
/// product), by forward mode: one evaluation on [`Dual<f64>`](Dual), the closure's scalar.
/// `f` may return one number (`(f64, f64)` back) or a `Vec` or array of them
/// (`(Vec<f64>, Vec<f64>)`: values and J v).
///
/// Panics if `v` is not as long as `x`.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// use fazang::jvp;
/// // f(x, y) = x y + sin x, along (1, 2): y + cos x + 2x.
/// let (v, d) = jvp(|x| x[0] * x[1] + x[0].sin(), &[1.0, 3.0], &[1.0, 2.0]);
/// assert_eq!(v, 3.0 + 1.0_f64.sin());
/// assert_eq!(d, 3.0 + 1.0_f64.cos() + 2.0);
///
/// // A vector function: J v in one pass.
/// let (vals, jv) = jvp(|x| vec![x[0] * x[1], x[0] + x[1]], &[2.0, 5.0], &[1.0, 0.0]);
/// assert_eq!((vals, jv), (vec![10.0, 7.0], vec![5.0, 1.0]));
/// ```
pub fn jvp<F, R>(f: F, x: &[f64], v: &[f64]) -> R::Out
where
    F: FnOnce(&[Dual<f64>]) -> R,
    R: JvpOutput,
{
    assert_eq!(
        x.len(),
        v.len(),
        "fazang: jvp needs a direction as long as x"
    );
    let xs: Vec<Dual<f64>> = x.iter().zip(v).map(|(&x, &d)| Dual::new(x, d)).collect();
    f(&xs).split()
}

/// The derivatives of order 0 to `K` of `f: ℝ → ℝ` at `x`, by Taylor arithmetic
/// (ReverseDiffSource's `rdiff(.., order = K)` for one variable): one evaluation of `f`
/// on a [`Taylor<K>`](Taylor), the closure's scalar.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// use fazang::derivatives;
/// // sin to order 10, as in ReverseDiffSource's documentation: sin, cos, -sin, -cos, ...
/// let d = derivatives::<10>(|x| x.sin(), 2.0);
/// assert_eq!(d.len(), 11);
/// assert!((d[9] - 2.0_f64.cos()).abs() < 1e-12);
/// ```
pub fn derivatives<const K: usize>(f: impl FnOnce(Taylor<K>) -> Taylor<K>, x: f64) -> Vec<f64> {
    f(Taylor::variable(x)).derivatives()
}

/// The value of `f` at `x` and its derivative there, each a [`Fwd`] that still carries
/// the perturbations of enclosing `derivative` calls (so this nests: the closure may
/// itself call `derivative`, and capture outer variables). See [`derivative`].
///
/// ```
/// use fazang::prelude::*;
/// use fazang::{value_and_derivative, Fwd};
/// let (y, dy) = value_and_derivative(|x: Fwd| x.exp() * x, 1.0);
/// assert_eq!(y.val(), 1.0_f64.exp());
/// assert_eq!(dy.val(), 2.0 * 1.0_f64.exp());
/// ```
pub fn value_and_derivative(f: impl FnOnce(Fwd) -> Fwd, x: impl Into<Fwd>) -> (Fwd, Fwd) {
    let level = DEPTH.with(Cell::get);
    assert!(
        level < 64,
        "fazang: more than 64 nested `derivative` calls on one thread"
    );
    let bit = 1u64 << level;
    struct Leave(u32);
    impl Drop for Leave {
        fn drop(&mut self) {
            DEPTH.with(|d| d.set(self.0));
        }
    }
    DEPTH.with(|d| d.set(level + 1));
    let _leave = Leave(level);
    let x = x.into();
    arena::scope(
        || {
            let seeded = Fwd::join(x, Fwd::constant(1.0), bit);
            f(seeded).split(bit)
        },
        |(p, q), keep| {
            (
                Fwd {
                    blk: keep(p.blk),
                    ..p
                },
                Fwd {
                    blk: keep(q.blk),
                    ..q
                },
            )
        },
    )
}

/// The derivative of `f: ℝ → ℝ` at `x`, by forward mode: FARFEL's `DERIV1`, VLAD's
/// `J→(f, x, 1)`. The closure's scalar is [`Fwd`]; the result is a `Fwd` too, so that
/// derivatives nest to any depth through closures and functions passed as arguments, with
/// no perturbation confusion (each call has its own infinitesimal). At top level, read the
/// number with `.val()`.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// use fazang::{derivative, Fwd};
///
/// // A derivative of a derivative (sin″ = -sin).
/// let d2 = derivative(|x: Fwd| derivative(|y: Fwd| y.sin(), x), 0.5);
/// assert!((d2.val() + 0.5_f64.sin()).abs() < 1e-15);
///
/// // Newton's method on a derivative: the minimum of (x - 3)² + 1, from functions
/// // passed as arguments.
/// fn root(f: impl Fn(Fwd) -> Fwd, mut x: Fwd, n: usize) -> Fwd {
///     for _ in 0..n {
///         let (y, dy) = fazang::value_and_derivative(&f, x);
///         x = x - y / dy;
///     }
///     x
/// }
/// let f = |x: Fwd| (x - 3.0).powi(2) + 1.0;
/// let argmin = root(|x| derivative(f, x), Fwd::from(0.0), 3);
/// assert_eq!(argmin.val(), 3.0);
/// ```
pub fn derivative(f: impl FnOnce(Fwd) -> Fwd, x: impl Into<Fwd>) -> Fwd {
    value_and_derivative(f, x).1
}
