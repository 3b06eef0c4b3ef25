//! Forward-mode drivers: [`jvp`] (directional derivatives) and [`derivatives`] (every
//! derivative of a univariate function up to an order).

use super::dual::Dual;
use super::taylor::Taylor;

/// What a closure given to [`jvp`] may return: one dual number (a scalar function) or a
/// `Vec` of them (a vector function), read back as values and directional derivatives.
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
