//! The recording helpers every operation goes through: one node per result, with its
//! operands and partials ([`unary_op`], [`binary_op`], [`nary_op`]), or a lazily
//! applied vector-Jacobian product ([`vector_op`]).

use super::Var;
use crate::tape::capture::{op, OpName};
use crate::tape::stack::with_tape;
use crate::tape::sweep::Adjoints;

/// Node index standing for a constant input of [`vector_op`].
const NO_NODE: u32 = u32::MAX;

/// Record a result of one operand: `value` with partial `dx` = d value / d `x`.
///
/// This is how every unary function of fazang is written (Fazang's chapter 5, MESA's
/// `make_unop`); a constant `x` gives a constant result and records nothing.
///
/// ```
/// # use fazang::prelude::*;
/// // cube(x) = x^3, d/dx = 3x^2
/// fn cube(x: Var) -> Var {
///     let v = x.val();
///     unary_op(v * v * v, x, 3.0 * v * v)
/// }
/// let x = Var::new(2.0);
/// cube(x).grad();
/// assert_eq!(x.adj(), 12.0);
/// # fazang::clear_tape();
/// ```
#[inline]
pub fn unary_op(value: f64, x: Var, dx: f64) -> Var {
    unary_named(op!("unary_op"), value, x, dx)
}

/// [`unary_op`] for the operation named by `N` (what a graph capture shows).
#[inline]
pub(crate) fn unary_named<N: OpName>(_: N, value: f64, x: Var, dx: f64) -> Var {
    if x.is_constant() {
        return Var::constant(value);
    }
    Var::recorded(value, record1::<N>(x.key, dx, value))
}

// The recording helpers below each visit the tape once; they are small enough to inline
// into the operators once the thread-local access itself inlines (see `with_tape`).

/// Record a node with operand `a`; returns its key.
#[inline]
fn record1<N: OpName>(a: u64, da: f64, value: f64) -> u64 {
    with_tape(|t| {
        let a = t.lookup(a);
        let i = t.push1(a, da, N::NAME, value);
        t.key(i)
    })
}

/// Record a node with operands `a` and `b`; returns its key.
#[inline]
fn record2<N: OpName>(a: u64, da: f64, b: u64, db: f64, value: f64) -> u64 {
    with_tape(|t| {
        let (a, b) = (t.lookup(a), t.lookup(b));
        let i = t.push2(a, da, b, db, N::NAME, value);
        t.key(i)
    })
}

/// Record an independent variable; returns its key.
#[inline]
pub(super) fn record0(value: f64) -> u64 {
    with_tape(|t| {
        let i = t.push_independent("var", value);
        t.key(i)
    })
}

/// Record a result of two operands with partials `da` and `db`. Constant operands are
/// skipped; if both are constant the result is a constant.
///
/// ```
/// # use fazang::prelude::*;
/// // f(a, b) = a * b^2
/// fn f(a: Var, b: Var) -> Var {
///     let (av, bv) = (a.val(), b.val());
///     binary_op(av * bv * bv, a, bv * bv, b, 2.0 * av * bv)
/// }
/// let (a, b) = (Var::new(3.0), Var::new(2.0));
/// f(a, b).grad();
/// assert_eq!((a.adj(), b.adj()), (4.0, 12.0));
/// # fazang::clear_tape();
/// ```
#[inline]
pub fn binary_op(value: f64, a: Var, da: f64, b: Var, db: f64) -> Var {
    binary_named(op!("binary_op"), value, a, da, b, db)
}

/// [`binary_op`] for the operation named by `N` (what a graph capture shows).
#[inline]
pub(crate) fn binary_named<N: OpName>(
    name: N,
    value: f64,
    a: Var,
    da: f64,
    b: Var,
    db: f64,
) -> Var {
    match (a.is_constant(), b.is_constant()) {
        (true, true) => Var::constant(value),
        (false, true) => unary_named(name, value, a, da),
        (true, false) => unary_named(name, value, b, db),
        (false, false) => Var::recorded(value, record2::<N>(a.key, da, b.key, db, value)),
    }
}

/// Record one result of any number of operands: `partials[i]` = d value / d
/// `operands[i]`. Constant operands are skipped. This is Stan's operands-and-partials:
/// one node, however many inputs.
///
/// Panics if the two slices differ in length.
///
/// ```
/// # use fazang::prelude::*;
/// // weighted sum 2x + 3y + 4z
/// let xs = [Var::new(1.0), Var::new(1.0), Var::new(1.0)];
/// let s = nary_op(9.0, &xs, &[2.0, 3.0, 4.0]);
/// s.grad();
/// assert_eq!(xs.map(|x| x.adj()), [2.0, 3.0, 4.0]);
/// # fazang::clear_tape();
/// ```
pub fn nary_op(value: f64, operands: &[Var], partials: &[f64]) -> Var {
    assert_eq!(
        operands.len(),
        partials.len(),
        "fazang: nary_op needs one partial per operand"
    );
    nary_op_iter(
        value,
        operands.iter().copied().zip(partials.iter().copied()),
    )
}

/// [`nary_op`] with (operand, partial) pairs from an iterator, recorded without
/// allocating. The iterator must not itself record on the tape.
///
/// ```
/// # use fazang::prelude::*;
/// let xs = [Var::new(1.0), Var::new(2.0)];
/// // sum of squares, d/dx_i = 2 x_i
/// let v = xs.iter().map(|x| x.val() * x.val()).sum();
/// let s = nary_op_iter(v, xs.iter().map(|&x| (x, 2.0 * x.val())));
/// s.grad();
/// assert_eq!([xs[0].adj(), xs[1].adj()], [2.0, 4.0]);
/// # fazang::clear_tape();
/// ```
pub fn nary_op_iter(value: f64, operands: impl IntoIterator<Item = (Var, f64)>) -> Var {
    nary_named("nary_op", value, operands)
}

/// [`nary_op_iter`] for an operation called `name` (what a graph capture shows).
pub(crate) fn nary_named(
    name: &'static str,
    value: f64,
    operands: impl IntoIterator<Item = (Var, f64)>,
) -> Var {
    let operands = operands.into_iter().filter(|(v, _)| !v.is_constant());
    with_tape(
        |t| match t.push_node(operands.map(|(v, p)| (v.key, p)), name, value) {
            Some(i) => Var::recorded(value, t.key(i)),
            None => Var::constant(value),
        },
    )
}

/// Record `values.len()` results computed from `inputs` whose adjoints are computed
/// lazily, during the backward sweep, by a vector-Jacobian product.
///
/// `vjp(out_adj, in_adj)` receives the adjoints of the outputs and must *add* the
/// resulting contributions to `in_adj` (one slot per input, zero-initialised, constants
/// included and ignored). Use it for vector functions whose Jacobian is expensive to
/// store but cheap to apply (ODE sensitivities, linear solves). The closure must compute
/// on `f64` only: it runs inside the sweep and may not record.
///
/// ```
/// # use fazang::prelude::*;
/// // out = [x * y, x + y]
/// let (x, y) = (Var::new(2.0), Var::new(5.0));
/// let (xv, yv) = (x.val(), y.val());
/// let out = vector_op(&[x, y], &[xv * yv, xv + yv], move |ob, ib| {
///     ib[0] += ob[0] * yv + ob[1];
///     ib[1] += ob[0] * xv + ob[1];
/// });
/// out[0].grad();
/// assert_eq!((x.adj(), y.adj()), (5.0, 2.0));
/// # fazang::clear_tape();
/// ```
pub fn vector_op(
    inputs: &[Var],
    values: &[f64],
    vjp: impl Fn(&[f64], &mut [f64]) + 'static,
) -> Vec<Var> {
    vector_named("vector_op", inputs, values, vjp)
}

/// [`vector_op`] for an operation called `name` (what a graph capture shows).
pub(crate) fn vector_named(
    name: &'static str,
    inputs: &[Var],
    values: &[f64],
    vjp: impl Fn(&[f64], &mut [f64]) + 'static,
) -> Vec<Var> {
    if inputs.iter().all(Var::is_constant) {
        return values.iter().map(|&v| Var::constant(v)).collect();
    }
    with_tape(|t| {
        // Every input is looked up (and checked) before anything is recorded.
        let in_idx: Vec<u32> = inputs
            .iter()
            .map(|v| {
                if v.is_constant() {
                    NO_NODE
                } else {
                    t.lookup(v.key)
                }
            })
            .collect();
        let first = t.push_independents(name, values);
        if let Some(log) = t.log_mut() {
            let active = in_idx.iter().copied().filter(|&i| i != NO_NODE).collect();
            log.lazy.push((first, values.len() as u32, active));
        }
        let outs: Vec<Var> = values
            .iter()
            .zip(first..)
            .map(|(&v, i)| Var::recorded(v, t.key(i)))
            .collect();
        let out_idx: Vec<u32> = (first..).take(values.len()).collect();
        t.push_callback(Box::new(move |adj: &mut Adjoints<'_>| {
            let ob: Vec<f64> = out_idx.iter().map(|&i| adj.get(i)).collect();
            if ob.iter().all(|&a| a == 0.0) {
                return;
            }
            let mut ib = vec![0.0; in_idx.len()];
            vjp(&ob, &mut ib);
            for (&i, &g) in in_idx.iter().zip(&ib) {
                if i != NO_NODE {
                    adj.add(i, g);
                }
            }
        }));
        outs
    })
}
