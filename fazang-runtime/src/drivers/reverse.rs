//! `gradient` and `jacobian`: derivatives of closures over `&[Var]`, on nested scopes.

use crate::tape::pool::Pool;
use crate::tape::scope::NestedScope;
use crate::tape::var::{grad_in_scope_into, jacobian_into, new_vars, Var};

/// Value and gradient of `f` at `x` (Fazang's `gradient`).
///
/// Runs on a nested scope: the variables it creates are discarded afterwards, and the
/// values and adjoints of variables created outside are left unchanged (derivatives
/// with respect to outer variables that `f` captures are not propagated).
///
/// ```
/// use fazang::prelude::*;
/// let f = |x: &[Var]| {
///     let (mu, sigma) = (x[0], x[1]);
///     -0.5 * (2.0 * std::f64::consts::PI).ln() - sigma.ln()
///         - 0.5 * ((1.3 - mu) / sigma).powi(2)
/// };
/// let (v, g) = gradient(f, &[0.5, 1.2]);
/// assert!((g[0] - 0.8 / 1.44).abs() < 1e-15);
/// # let _ = v;
/// ```
pub fn gradient<F>(f: F, x: &[f64]) -> (f64, Vec<f64>)
where
    F: FnOnce(&[Var]) -> Var,
{
    let mut g = vec![0.0; x.len()];
    let v = gradient_into(f, x, &mut g);
    (v, g)
}

/// [`gradient`] writing the gradient into `g` (which must be as long as `x`); returns the
/// value. In steady state it allocates nothing.
///
/// ```
/// # use fazang::prelude::*;
/// let mut g = [0.0; 2];
/// let v = gradient_into(|x| x[0] * x[1], &[3.0, 4.0], &mut g);
/// assert_eq!((v, g), (12.0, [4.0, 3.0]));
/// ```
pub fn gradient_into<F>(f: F, x: &[f64], g: &mut [f64]) -> f64
where
    F: FnOnce(&[Var]) -> Var,
{
    assert_eq!(
        g.len(),
        x.len(),
        "fazang: gradient_into needs a gradient buffer as long as x"
    );
    let _scope = NestedScope::begin();
    with_vars(x, |xv| {
        let y = f(xv);
        grad_in_scope_into(y, xv, g);
        y.val()
    })
}

/// Inputs up to this many live on the stack; more use a reusable buffer.
const STACK_VARS: usize = 16;

thread_local! {
    /// Reusable buffers of input variables.
    static VAR_BUFS: Pool<Var> = const { Pool::new() };
}

/// Free the pooled input buffers (part of
/// [`release_tape_memory`](crate::release_tape_memory)).
pub(crate) fn release_buffers() {
    let _ = VAR_BUFS.try_with(Pool::release);
}

/// Create one independent `Var` per entry of `x` (consecutive nodes, one visit to the
/// tape) and run `f` on them. Up to [`STACK_VARS`] inputs sit in an array on the stack;
/// longer inputs use a buffer taken from (and given back to) a thread-local pool, so
/// nothing is allocated in steady state.
#[inline]
pub(crate) fn with_vars<R>(x: &[f64], f: impl FnOnce(&[Var]) -> R) -> R {
    if x.len() <= STACK_VARS {
        let mut buf = [Var::constant(0.0); STACK_VARS];
        let xv = &mut buf[..x.len()];
        new_vars(x, xv);
        return f(xv);
    }
    let mut buf = VAR_BUFS.with(Pool::take);
    buf.resize(x.len(), Var::constant(0.0));
    new_vars(x, &mut buf);
    let out = f(&buf);
    VAR_BUFS.with(|p| p.give(buf, x.len()));
    out
}

/// Values and Jacobian of `f: ℝⁿ → ℝᵐ` at `x`: `jac[i][j] = d out_i / d x_j`.
///
/// Runs on a nested scope like [`gradient`]. Cost: one evaluation of `f` recorded on the
/// tape, then one backward sweep per 8 outputs carrying 8 adjoints per node, so it
/// suits m ≲ n; the memory is the tape of one evaluation, 64 bytes per recorded node
/// for the block of adjoints, and the m×n result.
///
/// ```
/// use fazang::prelude::*;
/// // f(x, y) = (x y, x + y)
/// let (v, jac) = jacobian(|x| vec![x[0] * x[1], x[0] + x[1]], &[2.0, 5.0]);
/// assert_eq!(v, vec![10.0, 7.0]);
/// assert_eq!(jac, vec![vec![5.0, 2.0], vec![1.0, 1.0]]);
/// ```
pub fn jacobian<F>(f: F, x: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>)
where
    F: FnOnce(&[Var]) -> Vec<Var>,
{
    let _scope = NestedScope::begin();
    with_vars(x, |xv| jacobian_rows(&f(xv), xv))
}

/// Values of `ys` and rows `d ys[i] / d xs[j]` over the innermost scope: one backward
/// sweep per 8 outputs, each carrying 8 adjoints per node.
pub(crate) fn jacobian_rows(ys: &[Var], xs: &[Var]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let vals = ys.iter().map(Var::val).collect();
    let mut rows = vec![vec![0.0; xs.len()]; ys.len()];
    jacobian_into(ys, xs, &mut rows);
    (vals, rows)
}
