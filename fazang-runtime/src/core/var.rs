//! [`Var`], the active scalar, and the recording helpers every operation goes through.

use super::capture::{op, OpName};
use super::sweep::Adjoints;
use super::tape::{with_tape, TapeStats, LANES};
use std::fmt;

/// Key of constants: they are never recorded (no node has this key).
const CONSTANT: u64 = u64::MAX;

/// Node index standing for a constant input of [`vector_op`].
const NO_NODE: u32 = u32::MAX;

/// A `Copy` handle to a value on the current thread's tape (16 bytes: the value and the
/// key of its node, a number never reused, so a `Var` whose node is gone is detected).
///
/// Arithmetic between `Var`s, `f64`s and references records onto the tape; a backward
/// sweep started by [`grad`](Var::grad) fills in adjoints.
///
/// # Example
///
/// Fazang's log-normal-density example, with `y = 1.3`:
///
/// ```
/// use fazang::prelude::*;
/// let mu = Var::new(0.5);
/// let sigma = Var::new(1.2);
/// let f = -0.5 * (2.0 * std::f64::consts::PI).ln() - sigma.ln()
///     - 0.5 * ((1.3 - mu) / sigma).powi(2);
/// f.grad();
/// assert!((mu.adj() - 0.8 / 1.44).abs() < 1e-15);
/// assert!((sigma.adj() - (-1.0 / 1.2 + 0.64 / 1.728)).abs() < 1e-15);
/// # fazang::clear_tape();
/// ```
#[derive(Clone, Copy)]
pub struct Var {
    val: f64,
    /// The key of the node (see `core::keys`): one integer, so that a `Var` is a pair of
    /// scalars and passes and returns in two registers.
    key: u64,
}

const _: () = assert!(std::mem::size_of::<Var>() == 16);

impl Var {
    /// A new independent variable with value `v`, recorded on this thread's tape.
    ///
    /// ```
    /// # use fazang::prelude::*;
    /// let x = Var::new(2.0);
    /// assert_eq!(x.val(), 2.0);
    /// ```
    #[inline]
    pub fn new(v: f64) -> Var {
        Var::recorded(v, record0(v))
    }

    /// A constant: it records nothing and its adjoint is always zero.
    ///
    /// ```
    /// # use fazang::prelude::*;
    /// let c = Var::constant(3.0);
    /// assert!(c.is_constant());
    /// ```
    #[inline]
    pub const fn constant(v: f64) -> Var {
        Var {
            val: v,
            key: CONSTANT,
        }
    }

    /// The value. Reading it never touches the tape, so it works on any thread and after
    /// the variable's scope has ended.
    ///
    /// ```
    /// # use fazang::prelude::*;
    /// let y = Var::new(2.0) * 3.0;
    /// assert_eq!(y.val(), 6.0);
    /// # fazang::clear_tape();
    /// ```
    #[inline]
    pub fn val(&self) -> f64 {
        self.val
    }

    /// Whether this is a constant (records nothing, adjoint zero).
    ///
    /// ```
    /// # use fazang::prelude::*;
    /// assert!(Var::constant(1.0).is_constant() && Var::from(2.0).is_constant());
    /// assert!(!Var::new(1.0).is_constant());
    /// # fazang::clear_tape();
    /// ```
    #[inline]
    pub fn is_constant(&self) -> bool {
        self.key == CONSTANT
    }

    /// The node index on the tape, or `None` for constants (for custom operations).
    ///
    /// Panics if the variable's scope has ended or it belongs to another thread.
    ///
    /// ```
    /// # use fazang::prelude::*;
    /// assert_eq!(Var::from(1.0).index(), None);
    /// assert!(Var::new(1.0).index().is_some());
    /// # fazang::clear_tape();
    /// ```
    #[inline]
    pub fn index(&self) -> Option<u32> {
        (!self.is_constant()).then(|| with_tape(|t| t.lookup(self.key)))
    }

    /// The adjoint: the derivative of the last [`grad`](Var::grad) seed with respect to
    /// this variable (zero for constants and before any sweep).
    ///
    /// Panics if the variable's scope has ended or it belongs to another thread.
    ///
    /// ```
    /// # use fazang::prelude::*;
    /// let x = Var::new(3.0);
    /// let y = x * x;
    /// y.grad();
    /// assert_eq!(x.adj(), 6.0);
    /// # fazang::clear_tape();
    /// ```
    #[inline]
    pub fn adj(&self) -> f64 {
        if self.is_constant() {
            return 0.0;
        }
        with_tape(|t| t.adj(t.lookup(self.key)))
    }

    /// Backward sweep seeded at this variable: its adjoint is set to 1 and every node of
    /// the tape propagates its adjoint to its operands. Adjoints accumulate across calls;
    /// call [`set_zero_all_adj`] between two sweeps.
    ///
    /// ```
    /// # use fazang::prelude::*;
    /// let x = Var::new(0.5);
    /// let y = x.sin();
    /// y.grad();
    /// assert_eq!(x.adj(), 0.5_f64.cos());
    /// # fazang::clear_tape();
    /// ```
    pub fn grad(&self) {
        if self.is_constant() {
            return;
        }
        with_tape(|t| {
            let i = t.lookup(self.key);
            t.grad(i);
        })
    }

    /// Sweep only the innermost nested scope, seeded here (drivers use this). Its
    /// adjoints are zeroed first even when this is a constant, so that each row of a
    /// Jacobian starts from zero.
    pub(crate) fn grad_in_scope(&self) {
        with_tape(|t| {
            if self.is_constant() {
                return t.grad_in_scope(None);
            }
            let i = t.lookup(self.key);
            t.grad_in_scope(Some(i));
        })
    }

    #[inline(always)]
    fn recorded(val: f64, key: u64) -> Var {
        Var { val, key }
    }
}

/// Zero the adjoint of every variable on this thread's tape (before a second
/// [`Var::grad`]).
///
/// ```
/// # use fazang::prelude::*;
/// let x = Var::new(2.0);
/// let y = x * x;
/// y.grad();
/// set_zero_all_adj();
/// assert_eq!(x.adj(), 0.0);
/// (x * 3.0).grad();
/// assert_eq!(x.adj(), 3.0);
/// # fazang::clear_tape();
/// ```
pub fn set_zero_all_adj() {
    with_tape(|t| t.zero_all());
}

/// Discard everything recorded at top level on this thread's tape, making the space
/// reusable. Every `Var` created so far becomes invalid. Memory is kept for the next
/// recording, unless this recording was much larger than the recent ones (then the
/// excess is given back; [`release_tape_memory`] gives back all of it).
///
/// Panics if called inside a nested scope.
///
/// ```
/// # use fazang::prelude::*;
/// let x = Var::new(1.0);
/// let _y = x.exp();
/// clear_tape();
/// assert_eq!(tape_stats().nodes, 0);
/// ```
pub fn clear_tape() {
    with_tape(|t| t.clear());
}

/// What this thread's tape holds now (node and operand counts, scope depth).
///
/// ```
/// # use fazang::prelude::*;
/// let before = tape_stats();
/// let (a, b) = (Var::new(1.0), Var::new(2.0));
/// let _c = a * b;
/// let after = tape_stats();
/// assert_eq!(after.nodes - before.nodes, 3);
/// # fazang::clear_tape();
/// ```
pub fn tape_stats() -> TapeStats {
    with_tape(|t| t.stats())
}

/// Give back to the allocator all memory this thread's tape holds beyond what it records
/// now (after an unusually large gradient, say). What is recorded stays valid; the next
/// recordings grow the tape again as needed.
///
/// The tape gives back memory by itself too: when the outermost nested scope ends or
/// [`clear_tape`] is called after a recording more than 4 times larger than the recent
/// ones (and above about 1 MB), the excess is released down to twice the recent size.
///
/// ```
/// # use fazang::prelude::*;
/// let (v, g) = gradient(|x| (0..1_000_000).map(|i| x[0] * (i as f64)).sum(), &[1.0]);
/// release_tape_memory();
/// assert!(tape_reserved_bytes() < 1000);
/// # let _ = (v, g);
/// ```
pub fn release_tape_memory() {
    with_tape(|t| t.release());
    crate::math::release_buffers();
    crate::drivers::release_buffers();
}

/// Bytes this thread's tape has reserved: the capacity of its arrays, which may exceed
/// what it holds now ([`TapeStats::bytes`]).
///
/// ```
/// # use fazang::prelude::*;
/// release_tape_memory();
/// let before = tape_reserved_bytes();
/// let x = Var::new(1.0);
/// let _y = x * x;
/// assert!(tape_reserved_bytes() > before);
/// # fazang::clear_tape();
/// ```
pub fn tape_reserved_bytes() -> usize {
    with_tape(|t| t.reserved_bytes())
}

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
fn record0(value: f64) -> u64 {
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

/// Record one independent variable per entry of `x` into `out` (as long as `x`), in one
/// visit to the tape; their node indices are consecutive.
pub(crate) fn new_vars(x: &[f64], out: &mut [Var]) {
    debug_assert_eq!(x.len(), out.len());
    with_tape(|t| {
        let first = t.push_independents("input", x);
        for ((o, &v), i) in out.iter_mut().zip(x).zip(first..) {
            *o = Var::recorded(v, t.key(i));
        }
    })
}

/// The Jacobian rows `rows[r][j] = d ys[r] / d xs[j]` over the innermost scope: one
/// block sweep per [`LANES`] outputs (one sweep per output if the scope recorded
/// callbacks). Same values as [`grad_in_scope_into`] row by row.
pub(crate) fn jacobian_into(ys: &[Var], xs: &[Var], rows: &mut [Vec<f64>]) {
    debug_assert_eq!(ys.len(), rows.len());
    with_tape(|t| {
        let node = |t: &super::tape::Tape, v: &Var| (!v.is_constant()).then(|| t.lookup(v.key));
        // Every variable is checked before anything is swept.
        for v in ys.iter().chain(xs) {
            node(t, v);
        }
        let mut seeds = [None; LANES];
        for (ys, rows) in ys.chunks(LANES).zip(rows.chunks_mut(LANES)) {
            for (s, y) in seeds.iter_mut().zip(ys) {
                *s = node(t, y);
            }
            if t.sweep_lanes(&seeds[..ys.len()]) {
                for (l, row) in rows.iter_mut().enumerate() {
                    for (r, x) in row.iter_mut().zip(xs) {
                        *r = node(t, x).map_or(0.0, |i| t.lane_adj(i, l));
                    }
                }
            } else {
                for (row, y) in rows.iter_mut().zip(ys) {
                    t.grad_in_scope(node(t, y));
                    for (r, x) in row.iter_mut().zip(xs) {
                        *r = node(t, x).map_or(0.0, |i| t.adj(i));
                    }
                }
            }
        }
    })
}

/// Sweep the innermost scope seeded at `y` (as [`Var::grad_in_scope`]) and write the
/// adjoints of `xs` into `g`, in one visit to the tape.
pub(crate) fn grad_in_scope_into(y: Var, xs: &[Var], g: &mut [f64]) {
    debug_assert_eq!(xs.len(), g.len());
    with_tape(|t| {
        if y.is_constant() {
            t.grad_in_scope(None);
        } else {
            let i = t.lookup(y.key);
            t.grad_in_scope(Some(i));
        }
        for (gi, x) in g.iter_mut().zip(xs) {
            *gi = if x.is_constant() {
                0.0
            } else {
                t.adj(t.lookup(x.key))
            };
        }
    })
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

impl Default for Var {
    /// The constant zero.
    fn default() -> Var {
        Var::constant(0.0)
    }
}

impl From<f64> for Var {
    /// A constant (records nothing).
    #[inline]
    fn from(v: f64) -> Var {
        Var::constant(v)
    }
}

impl From<&f64> for Var {
    /// A constant (records nothing).
    #[inline]
    fn from(v: &f64) -> Var {
        Var::constant(*v)
    }
}

impl From<f32> for Var {
    /// A constant (records nothing).
    #[inline]
    fn from(v: f32) -> Var {
        Var::constant(v.into())
    }
}

impl From<i32> for Var {
    /// A constant (records nothing).
    #[inline]
    fn from(v: i32) -> Var {
        Var::constant(v.into())
    }
}

macro_rules! fmt_as_f64 {
    ($($tr:ident),*) => {$(
        impl fmt::$tr for Var {
            /// Formats the value exactly as `f64` would.
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::$tr::fmt(&self.val, f)
            }
        }
    )*};
}
fmt_as_f64!(Display, LowerExp, UpperExp, Debug);

/// The adjoints of the `out.len()` consecutive nodes starting at the node of `first` (a
/// recorded variable), in one visit to the tape.
pub(crate) fn read_run(first: Var, out: &mut [f64]) {
    with_tape(|t| {
        let i0 = t.lookup(first.key);
        for (o, i) in out.iter_mut().zip(i0..) {
            *o = t.adj(i);
        }
    })
}

/// The variable `k` nodes after the node of the recorded variable `first` (its value is
/// not known here and reads NaN: for node-indexed uses such as Jacobian columns).
pub(crate) fn nth_after(first: Var, k: u32) -> Var {
    with_tape(|t| {
        let i = t.lookup(first.key) + k;
        Var::recorded(f64::NAN, t.keys.key_at(i))
    })
}
