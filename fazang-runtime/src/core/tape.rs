//! The thread-local tape: flat arrays of (operand, partial) records, swept backwards.
//!
//! # Layout
//!
//! Every recorded result (a *node*) owns a run of operand records, each a `u32` operand
//! index and an `f64` partial derivative, stored in two parallel vectors (12 bytes per
//! operand). The first record of each run carries the `FIRST` flag in its index, so node
//! boundaries need no array of their own: a binary operation costs exactly 24 bytes while
//! recording. An independent variable (no operands) owns one record pointing at
//! `NO_OPERAND`. Adjoints live in a separate vector that is only sized at sweep time
//! (8 bytes per node), so the forward pass touches nothing but the operand arrays.
//!
//! The tape stores no values: a [`Var`](crate::Var) carries its own value.
//!
//! # Scopes
//!
//! A scope is a mark (node, operand and callback counts) plus a generation number taken
//! from a process-wide counter. Every `Var` records the generation of the innermost scope
//! it was created in; a `Var` whose generation is not on this thread's scope stack belongs
//! to an ended scope or to another thread's tape, and using it panics.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU32, Ordering};

/// Flag on the first operand record of each node.
pub(crate) const FIRST: u32 = 1 << 31;
/// Mask that extracts the operand index from a record.
pub(crate) const INDEX: u32 = !FIRST;
/// Operand index of the placeholder record an independent variable owns.
pub(crate) const NO_OPERAND: u32 = INDEX;
/// Largest number of nodes one tape holds (indices must stay below [`NO_OPERAND`]).
const MAX_NODES: u32 = NO_OPERAND - 1;

/// Process-wide source of scope generations, so generations of different threads differ.
static NEXT_GEN: AtomicU32 = AtomicU32::new(1);

fn fresh_gen() -> u32 {
    let g = NEXT_GEN.fetch_add(1, Ordering::Relaxed);
    if g == 0 {
        // 0 is never handed out: skip it when the counter wraps.
        NEXT_GEN.fetch_add(1, Ordering::Relaxed)
    } else {
        g
    }
}

/// A vector-Jacobian product run during the sweep, for operations recorded lazily.
pub(crate) type CallbackFn = Box<dyn Fn(&mut Adjoints<'_>)>;

struct Callback {
    /// Number of nodes when it was recorded: it runs once every node at or above runs.
    nodes: u32,
    /// Number of operand records when it was recorded.
    ops: u32,
    run: CallbackFn,
}

#[derive(Clone, Copy)]
struct Scope {
    gen: u32,
    nodes: u32,
    ops: u32,
    callbacks: u32,
}

/// Adjoints of the nodes being swept, as a callback sees them.
///
/// Indices are node indices. Nodes below the sweep's lower bound (variables of an outer
/// scope during [`gradient`](crate::gradient)) read as zero and ignore additions.
pub struct Adjoints<'a> {
    adj: &'a mut [f64],
    lo: usize,
}

impl Adjoints<'_> {
    /// The adjoint of node `i` (zero for nodes outside the sweep).
    #[inline]
    pub fn get(&self, i: u32) -> f64 {
        let k = (i as usize).wrapping_sub(self.lo);
        self.adj.get(k).copied().unwrap_or(0.0)
    }

    /// Add `v` to the adjoint of node `i` (ignored for nodes outside the sweep).
    #[inline]
    pub fn add(&mut self, i: u32, v: f64) {
        let k = (i as usize).wrapping_sub(self.lo);
        if let Some(a) = self.adj.get_mut(k) {
            *a += v;
        }
    }
}

pub(crate) struct Tape {
    /// Operand index per record; [`FIRST`] marks the first record of each node.
    idx: Vec<u32>,
    /// Partial derivative per record.
    partial: Vec<f64>,
    /// Number of nodes recorded.
    nodes: u32,
    /// Adjoints, one per node; sized lazily by the sweep.
    adj: Vec<f64>,
    callbacks: Vec<Callback>,
    /// Scope stack; `scopes[0]` is the root scope and is never popped.
    scopes: Vec<Scope>,
    /// Generation of the innermost scope (cached copy of `scopes.last().gen`).
    top_gen: u32,
    /// Reusable buffer for n-ary operations whose operands come from an iterator.
    pub(crate) scratch: Vec<(u32, f64)>,
}

thread_local! {
    static TAPE: RefCell<Tape> = RefCell::new(Tape::new());
}

/// Run `f` with this thread's tape.
///
/// Panics with an explanation if the tape is already borrowed, which only happens when a
/// callback run by the backward sweep tries to record.
#[inline]
pub(crate) fn with_tape<R>(f: impl FnOnce(&mut Tape) -> R) -> R {
    TAPE.with(|t| match t.try_borrow_mut() {
        Ok(mut tape) => f(&mut tape),
        Err(_) => panic!(
            "fazang: the tape is busy: code that fazang runs while it holds the tape (a \
             vector_op callback during the backward sweep, or the iterator given to \
             nary_op_iter) tried to record a Var operation; compute with plain f64 values \
             there"
        ),
    })
}

impl Tape {
    fn new() -> Self {
        let gen = fresh_gen();
        Tape {
            idx: Vec::new(),
            partial: Vec::new(),
            nodes: 0,
            adj: Vec::new(),
            callbacks: Vec::new(),
            scopes: vec![Scope {
                gen,
                nodes: 0,
                ops: 0,
                callbacks: 0,
            }],
            top_gen: gen,
            scratch: Vec::new(),
        }
    }

    /// Generation stamped on variables created now.
    #[inline]
    pub(crate) fn gen(&self) -> u32 {
        self.top_gen
    }

    /// Panic unless a variable of generation `gen` is alive on this tape.
    #[inline]
    pub(crate) fn check(&self, gen: u32) {
        if gen != self.top_gen {
            self.check_slow(gen);
        }
    }

    #[cold]
    #[inline(never)]
    fn check_slow(&self, gen: u32) {
        if !self.scopes.iter().rev().any(|s| s.gen == gen) {
            panic!(
                "fazang: this Var is no longer on the tape: it was created inside a nested \
                 scope that has ended (nested(), gradient(), jacobian() or a _grad \
                 function), before clear_tape(), or on another thread (each thread has \
                 its own tape). Return \
                 plain f64 values (x.val(), x.adj()) from the scope instead of Vars, and \
                 create Vars on the thread that uses them"
            );
        }
    }

    #[inline]
    fn new_node(&mut self) -> u32 {
        let n = self.nodes;
        assert!(
            n < MAX_NODES,
            "fazang: the tape is full ({MAX_NODES} results); use nested scopes or \
             clear_tape() to release what is no longer needed"
        );
        self.nodes = n + 1;
        n
    }

    /// Record an independent variable; returns its node index.
    #[inline]
    pub(crate) fn push_independent(&mut self) -> u32 {
        self.idx.push(NO_OPERAND | FIRST);
        self.partial.push(0.0);
        self.new_node()
    }

    /// Record a node with one operand.
    #[inline]
    pub(crate) fn push1(&mut self, a: u32, da: f64) -> u32 {
        self.idx.push(a | FIRST);
        self.partial.push(da);
        self.new_node()
    }

    /// Record a node with two operands.
    #[inline]
    pub(crate) fn push2(&mut self, a: u32, da: f64, b: u32, db: f64) -> u32 {
        self.idx.extend_from_slice(&[a | FIRST, b]);
        self.partial.extend_from_slice(&[da, db]);
        self.new_node()
    }

    /// Record a node whose operands are `ops` (must be non-empty).
    pub(crate) fn push_n(&mut self, ops: impl ExactSizeIterator<Item = (u32, f64)>) -> u32 {
        debug_assert!(ops.len() > 0);
        self.idx.reserve(ops.len());
        self.partial.reserve(ops.len());
        let mut first = FIRST;
        for (i, p) in ops {
            self.idx.push(i | first);
            self.partial.push(p);
            first = 0;
        }
        self.new_node()
    }

    /// Record a callback that runs, during the sweep, after every node recorded later.
    pub(crate) fn push_callback(&mut self, run: CallbackFn) {
        self.callbacks.push(Callback {
            nodes: self.nodes,
            ops: self.idx.len() as u32,
            run,
        });
    }

    /// Adjoint of node `i` (zero if no sweep has reached it).
    #[inline]
    pub(crate) fn adj(&self, i: u32) -> f64 {
        self.adj.get(i as usize).copied().unwrap_or(0.0)
    }

    /// Make the adjoint vector cover every node, keeping existing adjoints.
    fn size_adjoints(&mut self) {
        self.adj.resize(self.nodes as usize, 0.0);
    }

    /// Set the adjoint of `seed` to 1 and sweep every node of the tape.
    pub(crate) fn grad(&mut self, seed: u32) {
        self.size_adjoints();
        self.adj[seed as usize] = 1.0;
        self.sweep(0);
    }

    /// Zero the adjoints of every node.
    pub(crate) fn zero_all(&mut self) {
        self.adj.iter_mut().for_each(|a| *a = 0.0);
    }

    /// Zero the adjoints of the innermost scope, set `seed`'s to 1, and sweep that scope
    /// only: variables of outer scopes keep their adjoints. A seed that is not a node of
    /// the scope (`None` for a constant, or an outer variable) only zeroes them, so every
    /// adjoint of the scope reads 0 and the outer one is not touched.
    pub(crate) fn grad_in_scope(&mut self, seed: Option<u32>) {
        self.size_adjoints();
        let lo = self.scope().nodes as usize;
        self.adj[lo..].iter_mut().for_each(|a| *a = 0.0);
        if let Some(seed) = seed.filter(|&s| s as usize >= lo) {
            self.adj[seed as usize] = 1.0;
            self.sweep(lo);
        }
    }

    fn scope(&self) -> &Scope {
        self.scopes.last().expect("the root scope is never popped")
    }

    /// Backward sweep over nodes `lo..`, running callbacks at their positions.
    fn sweep(&mut self, lo: usize) {
        let lo_ops = if lo == 0 {
            0
        } else {
            self.scope().ops as usize
        };
        let lo_cb = if lo == 0 {
            0
        } else {
            self.scope().callbacks as usize
        };
        let mut node = self.nodes as usize;
        let mut hi_ops = self.idx.len();
        for cb in (lo_cb..self.callbacks.len()).rev() {
            let (cb_nodes, cb_ops) = (
                self.callbacks[cb].nodes as usize,
                self.callbacks[cb].ops as usize,
            );
            node = self.sweep_ops(cb_ops, hi_ops, node, lo);
            debug_assert_eq!(node, cb_nodes);
            let mut view = Adjoints {
                adj: &mut self.adj[lo..],
                lo,
            };
            (self.callbacks[cb].run)(&mut view);
            hi_ops = cb_ops;
        }
        self.sweep_ops(lo_ops, hi_ops, node, lo);
    }

    /// The hot loop: propagate adjoints of the nodes whose records are `from..to`; `node`
    /// is one past the last of them. Returns the index of the first node swept.
    #[inline]
    fn sweep_ops(&mut self, from: usize, to: usize, mut node: usize, lo: usize) -> usize {
        let idx = &self.idx[from..to];
        let partial = &self.partial[from..to];
        let adj = &mut self.adj[lo..];
        let mut a = 0.0;
        let mut need_load = true;
        for (&raw, &p) in idx.iter().zip(partial).rev() {
            if need_load {
                node -= 1;
                a = adj[node - lo];
            }
            if a != 0.0 {
                let k = ((raw & INDEX) as usize).wrapping_sub(lo);
                if let Some(t) = adj.get_mut(k) {
                    *t += a * p;
                }
            }
            need_load = raw & FIRST != 0;
        }
        node
    }

    /// Open a nested scope; returns its generation.
    pub(crate) fn begin_nested(&mut self) -> u32 {
        let gen = fresh_gen();
        self.scopes.push(Scope {
            gen,
            nodes: self.nodes,
            ops: self.idx.len() as u32,
            callbacks: self.callbacks.len() as u32,
        });
        self.top_gen = gen;
        gen
    }

    /// End the nested scope of generation `gen` and every scope opened inside it,
    /// discarding all they recorded. Does nothing if that scope already ended.
    pub(crate) fn end_nested(&mut self, gen: u32) {
        let Some(pos) = self.scopes.iter().rposition(|s| s.gen == gen) else {
            return;
        };
        if pos == 0 {
            return;
        }
        let mark = self.scopes[pos];
        self.scopes.truncate(pos);
        self.truncate_to(mark);
        self.top_gen = self.scope().gen;
    }

    fn truncate_to(&mut self, mark: Scope) {
        self.nodes = mark.nodes;
        self.idx.truncate(mark.ops as usize);
        self.partial.truncate(mark.ops as usize);
        self.callbacks.truncate(mark.callbacks as usize);
        self.adj.truncate(mark.nodes as usize);
    }

    /// Discard everything on the tape; only valid outside nested scopes.
    pub(crate) fn clear(&mut self) {
        assert!(
            self.scopes.len() == 1,
            "fazang: clear_tape() called inside a nested scope; call it at top level, \
             after every nested(), gradient() or jacobian() call has returned"
        );
        let gen = fresh_gen();
        self.scopes[0] = Scope {
            gen,
            nodes: 0,
            ops: 0,
            callbacks: 0,
        };
        self.top_gen = gen;
        self.truncate_to(self.scopes[0]);
    }

    /// Statistics for tests and benchmarks.
    pub(crate) fn stats(&self) -> TapeStats {
        TapeStats {
            nodes: self.nodes as usize,
            operands: self.idx.len(),
            callbacks: self.callbacks.len(),
            depth: self.scopes.len() - 1,
        }
    }
}

/// What this thread's tape currently holds; see [`tape_stats`](crate::tape_stats).
///
/// ```
/// # use fazang::prelude::*;
/// let (a, b) = (Var::new(1.0), Var::new(2.0));
/// let before = tape_stats();
/// let _c = a * b; // one node, two (operand, partial) records
/// let after = tape_stats();
/// assert_eq!((after.nodes - before.nodes, after.operands - before.operands), (1, 2));
/// assert_eq!(after.bytes() - before.bytes(), 32);
/// # fazang::clear_tape();
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TapeStats {
    /// Recorded results, independent variables included.
    pub nodes: usize,
    /// (operand, partial) records; independent variables own one placeholder each.
    pub operands: usize,
    /// Callback entries (lazy vector-Jacobian products).
    pub callbacks: usize,
    /// Number of nested scopes currently open.
    pub depth: usize,
}

impl TapeStats {
    /// Bytes the recording arrays hold for this content: 12 per operand record (a `u32`
    /// index and an `f64` partial) plus 8 per node for its adjoint slot.
    pub fn bytes(&self) -> usize {
        self.operands * 12 + self.nodes * 8
    }
}
