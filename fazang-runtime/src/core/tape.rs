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

use super::capture::{GraphLog, Label};
use std::cell::RefCell;
use std::mem::ManuallyDrop;
use std::sync::atomic::{AtomicU32, Ordering};

/// Flag on the first operand record of each node.
pub(crate) const FIRST: u32 = 1 << 31;
/// Mask that extracts the operand index from a record.
pub(crate) const INDEX: u32 = !FIRST;
/// Operand index of the placeholder record an independent variable owns.
pub(crate) const NO_OPERAND: u32 = INDEX;
/// One operand record: the operand's node index (with [`FIRST`] on the first record of
/// each node) and the partial derivative, packed in 12 bytes. One array of them rather
/// than two parallel arrays: one length and one capacity check per push, and the sweep
/// reads both halves from the same cache line. Fields are only ever copied (packed
/// fields cannot be borrowed), which is all the tape needs.
#[derive(Clone, Copy)]
#[repr(C, packed(4))]
pub(super) struct Rec {
    pub(super) idx: u32,
    pub(super) partial: f64,
}

const _: () = assert!(std::mem::size_of::<Rec>() == 12);

impl Rec {
    #[inline]
    const fn new(idx: u32, partial: f64) -> Rec {
        Rec { idx, partial }
    }
}

/// Largest number of nodes one tape holds (indices must stay below [`NO_OPERAND`]).
pub(super) const MAX_NODES: u32 = NO_OPERAND - 1;

/// Process-wide source of blocks of scope generations, so generations of different
/// threads differ. A tape takes [`GEN_BLOCK`] generations at a time, so opening a scope
/// touches no shared atomic (it is 20-odd cycles on the per-call path otherwise).
static NEXT_GEN_BLOCK: AtomicU32 = AtomicU32::new(1);
/// Generations per block.
const GEN_BLOCK: u32 = 1 << 10;

/// Outputs a Jacobian differentiates in one sweep (lanes of the block adjoints).
pub(crate) const LANES: usize = 8;

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
pub(super) struct Scope {
    gen: u32,
    pub(super) nodes: u32,
    pub(super) ops: u32,
    callbacks: u32,
}

/// Adjoints of the nodes being swept, as a callback sees them.
///
/// Indices are node indices. Nodes below the sweep's lower bound (variables of an outer
/// scope during [`gradient`](crate::gradient)) read as zero and ignore additions.
///
/// ```
/// // What a custom sweep step sees (fazang passes it to callbacks it records itself;
/// // `vector_op` closures see plain slices instead).
/// fn double(adj: &mut fazang::Adjoints<'_>, i: u32) {
///     let a = adj.get(i);
///     adj.add(i, a);
/// }
/// # let _ = double;
/// ```
pub struct Adjoints<'a> {
    adj: &'a mut [f64],
    lo: usize,
}

impl Adjoints<'_> {
    /// The adjoint of node `i` (zero for nodes outside the sweep).
    ///
    /// ```
    /// fn read(adj: &fazang::Adjoints<'_>, i: u32) -> f64 {
    ///     adj.get(i)
    /// }
    /// # let _ = read;
    /// ```
    #[inline]
    pub fn get(&self, i: u32) -> f64 {
        let k = (i as usize).wrapping_sub(self.lo);
        self.adj.get(k).copied().unwrap_or(0.0)
    }

    /// Add `v` to the adjoint of node `i` (ignored for nodes outside the sweep).
    ///
    /// ```
    /// fn bump(adj: &mut fazang::Adjoints<'_>, i: u32) {
    ///     adj.add(i, 1.0);
    /// }
    /// # let _ = bump;
    /// ```
    #[inline]
    pub fn add(&mut self, i: u32, v: f64) {
        let k = (i as usize).wrapping_sub(self.lo);
        if let Some(a) = self.adj.get_mut(k) {
            *a += v;
        }
    }
}

pub(crate) struct Tape {
    /// The (operand, partial) records; [`FIRST`] marks the first of each node.
    pub(super) rec: Vec<Rec>,
    /// Number of nodes recorded.
    pub(super) nodes: u32,
    /// Adjoints, one per node; sized lazily by the sweep.
    pub(super) adj: Vec<f64>,
    /// Every adjoint at or above this index is zero (sweeps raise it, zeroing lowers it),
    /// so a sweep zeroes only what an earlier one may have written.
    dirty: usize,
    callbacks: Vec<Callback>,
    /// Adjoints of the nodes of the innermost scope for [`LANES`] outputs at once (the
    /// block sweeps of a Jacobian); reused, so it allocates only while growing.
    block: Vec<[f64; LANES]>,
    /// Nested scopes, innermost last (the root scope is implicit: all marks zero).
    scopes: Vec<Scope>,
    /// Generation of the root scope; 0 until the tape is first used.
    root_gen: u32,
    /// Generation of the innermost scope (cached copy of the top of the stack).
    top_gen: u32,
    /// Node count past which recording takes the cold path: [`MAX_NODES`], or the node
    /// count itself while a graph capture logs every node.
    pub(super) limit: u32,
    /// The names and values of the nodes recorded during a graph capture.
    pub(super) log: Option<Box<GraphLog>>,
    /// Next generation of this tape's current block, and the end of that block.
    gen_next: u32,
    gen_end: u32,
}

thread_local! {
    // `const` and without a destructor of its own (`ManuallyDrop`): an access is a plain
    // `%fs`-relative address, with no lazy-initialisation or destructor-state check.
    static TAPE: RefCell<ManuallyDrop<Tape>> =
        const { RefCell::new(ManuallyDrop::new(Tape::new())) };
    // Frees the tape's memory when the thread exits; registered by the tape's first use
    // (everything the tape allocates comes after it).
    static RELEASE: Release = const { Release };
}

/// Thread-exit hook of the tape (see `RELEASE`).
struct Release;

impl Drop for Release {
    fn drop(&mut self) {
        let _ = TAPE.try_with(|t| {
            if let Ok(mut t) = t.try_borrow_mut() {
                // Dropping the old tape in place frees its vectors.
                **t = Tape::new();
            }
        });
    }
}

/// Run `f` with this thread's tape.
///
/// Panics with an explanation if the tape is already borrowed, which only happens when a
/// callback run by the backward sweep tries to record.
#[inline(always)]
pub(crate) fn with_tape<R>(f: impl FnOnce(&mut Tape) -> R) -> R {
    // `try_with` rather than `with`: `with` is not marked `#[inline]`, so it stays an
    // out-of-line call per operation with the thread-local reached through a function
    // pointer; `try_with` inlines (measured: half the instructions per operation).
    let r = TAPE.try_with(|t| match t.try_borrow_mut() {
        Ok(mut tape) => f(&mut tape),
        Err(_) => tape_busy(),
    });
    match r {
        Ok(r) => r,
        Err(_) => tape_gone(),
    }
}

#[cold]
#[inline(never)]
fn tape_gone() -> ! {
    panic!("fazang: the tape of this thread was used while the thread was exiting")
}

/// Make sure the tape's memory is freed when this thread exits (after the thread's
/// thread-locals are being destroyed this does nothing; what the tape allocates then is
/// left to the process).
#[cold]
fn register_release() {
    let _ = RELEASE.try_with(|_| ());
}

#[cold]
#[inline(never)]
fn tape_busy() -> ! {
    panic!(
        "fazang: the tape is busy: code that fazang runs while it holds the tape (a \
         vector_op callback during the backward sweep, or the iterator given to \
         nary_op_iter) tried to record a Var operation; compute with plain f64 values \
         there"
    )
}

impl Tape {
    const fn new() -> Self {
        Tape {
            rec: Vec::new(),
            nodes: 0,
            adj: Vec::new(),
            dirty: 0,
            callbacks: Vec::new(),
            block: Vec::new(),
            scopes: Vec::new(),
            root_gen: 0,
            top_gen: 0,
            limit: MAX_NODES,
            log: None,
            gen_next: 0,
            gen_end: 0,
        }
    }

    /// A generation never handed out before, on any thread (0 is never handed out).
    fn fresh_gen(&mut self) -> u32 {
        if self.gen_next == self.gen_end {
            let block = NEXT_GEN_BLOCK.fetch_add(1, Ordering::Relaxed);
            // Block 0 would hand out generation 0; skip it when the counter wraps.
            let block = if block.is_multiple_of(u32::MAX / GEN_BLOCK + 1) {
                NEXT_GEN_BLOCK.fetch_add(1, Ordering::Relaxed)
            } else {
                block
            };
            self.gen_next = block.wrapping_mul(GEN_BLOCK);
            self.gen_end = self.gen_next.wrapping_add(GEN_BLOCK);
            if self.gen_next == 0 {
                self.gen_next = 1;
            }
        }
        let g = self.gen_next;
        self.gen_next = g.wrapping_add(1);
        g
    }

    /// Give the root scope its generation on first use.
    #[inline]
    fn ensure_root(&mut self) {
        if self.root_gen == 0 {
            self.init_root();
        }
    }

    #[cold]
    fn init_root(&mut self) {
        self.root_gen = self.fresh_gen();
        self.top_gen = self.root_gen;
        register_release();
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
        let alive = (gen == self.root_gen && gen != 0) || self.scopes.iter().any(|s| s.gen == gen);
        if !alive {
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

    /// Whether `k` more nodes with `r` more records take the fast path: no record array
    /// growth, and the node count stays within `limit`, which is the tape's capacity
    /// normally and the current node count while a graph capture runs (see
    /// `core::capture`). One test covers both, so the recording path has a single cold
    /// call (which it had before, for growth), however the nodes are described.
    #[inline(always)]
    fn fits(&self, k: u32, r: usize) -> bool {
        self.rec.capacity() - self.rec.len() >= r && k <= self.limit - self.nodes
    }

    /// The slow path of every push: append `recs`, then count `k` nodes (refusing them if
    /// the tape is full, logging them for a capture, whose limit then follows the node
    /// count so that every node comes here). Returns the index of the first node.
    #[cold]
    #[inline(never)]
    fn push_slow(&mut self, recs: &[Rec], k: u32, label: Label<'_>) -> u32 {
        let n = self.nodes;
        if k > MAX_NODES - n {
            tape_full();
        }
        self.rec.extend_from_slice(recs);
        if let Some(log) = self.log.as_deref_mut() {
            log.record(n, k, label);
            self.limit = n + k;
        }
        self.nodes = n + k;
        n
    }

    /// Count one node whose records are already pushed (fast: within `limit`).
    #[inline(always)]
    fn count_node(&mut self) -> u32 {
        let n = self.nodes;
        self.nodes = n + 1;
        n
    }

    /// Record an independent variable; returns its node index. `name` and `value` are
    /// only read on the slow path, during a graph capture.
    #[inline]
    pub(crate) fn push_independent(&mut self, name: &'static str, value: f64) -> u32 {
        self.ensure_root();
        let r = Rec::new(NO_OPERAND | FIRST, 0.0);
        if !self.fits(1, 1) {
            return self.push_slow(&[r], 1, Label::Op(name, value));
        }
        self.rec.push(r);
        self.count_node()
    }

    /// Record one independent variable per value; returns the node index of the first
    /// (the others follow it).
    pub(crate) fn push_independents(&mut self, values: &[f64]) -> u32 {
        self.ensure_root();
        let k = values.len();
        let k32 = u32::try_from(k).unwrap_or_else(|_| tape_full());
        if !self.fits(k32, 0) {
            return self.push_slow(
                &vec![Rec::new(NO_OPERAND | FIRST, 0.0); k],
                k32,
                Label::Inputs(values),
            );
        }
        self.rec
            .extend(std::iter::repeat_n(Rec::new(NO_OPERAND | FIRST, 0.0), k));
        let first = self.nodes;
        self.nodes = first + k32;
        first
    }

    /// Record a node with one operand.
    #[inline]
    pub(crate) fn push1(&mut self, a: u32, da: f64, name: &'static str, value: f64) -> u32 {
        let r = Rec::new(a | FIRST, da);
        if !self.fits(1, 1) {
            return self.push_slow(&[r], 1, Label::Op(name, value));
        }
        self.rec.push(r);
        self.count_node()
    }

    /// Record a node with two operands.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn push2(
        &mut self,
        a: u32,
        da: f64,
        b: u32,
        db: f64,
        name: &'static str,
        value: f64,
    ) -> u32 {
        let r = [Rec::new(a | FIRST, da), Rec::new(b, db)];
        if !self.fits(1, 2) {
            return self.push_slow(&r, 1, Label::Op(name, value));
        }
        self.rec.extend_from_slice(&r);
        self.count_node()
    }

    /// Start a node whose operands follow with [`push_operand`](Tape::push_operand);
    /// returns the record count to pass to [`end_node`](Tape::end_node).
    #[inline]
    pub(crate) fn begin_node(&self) -> usize {
        self.rec.len()
    }

    /// Make room for `k` more operand records.
    #[inline]
    pub(crate) fn reserve_operands(&mut self, k: usize) {
        self.rec.reserve(k);
    }

    /// Add an operand to the node being recorded.
    #[inline]
    pub(crate) fn push_operand(&mut self, i: u32, p: f64) {
        self.rec.push(Rec::new(i, p));
    }

    /// Finish the node begun at `start`: its index, or `None` if it got no operand (then
    /// nothing was recorded).
    #[inline]
    pub(crate) fn end_node(&mut self, start: usize, name: &'static str, value: f64) -> Option<u32> {
        let first = self.rec.get_mut(start)?;
        *first = Rec::new(first.idx | FIRST, first.partial);
        if !self.fits(1, 0) {
            return Some(self.push_slow(&[], 1, Label::Op(name, value)));
        }
        Some(self.count_node())
    }

    /// Record a callback that runs, during the sweep, after every node recorded later.
    pub(crate) fn push_callback(&mut self, run: CallbackFn) {
        self.callbacks.push(Callback {
            nodes: self.nodes,
            ops: self.rec.len() as u32,
            run,
        });
    }

    /// Adjoint of node `i` (zero if no sweep has reached it).
    #[inline]
    pub(crate) fn adj(&self, i: u32) -> f64 {
        self.adj.get(i as usize).copied().unwrap_or(0.0)
    }

    /// Make the adjoint vector cover every node, keeping existing adjoints (new ones 0).
    fn size_adjoints(&mut self) {
        self.adj.resize(self.nodes as usize, 0.0);
    }

    /// Set the adjoint of `seed` to 1 and sweep every node of the tape.
    pub(crate) fn grad(&mut self, seed: u32) {
        self.size_adjoints();
        self.adj[seed as usize] = 1.0;
        self.dirty = self.adj.len();
        self.sweep(0);
    }

    /// Zero the adjoints of every node.
    pub(crate) fn zero_all(&mut self) {
        self.adj.fill(0.0);
        self.dirty = 0;
    }

    /// Zero the adjoints of the innermost scope, set `seed`'s to 1, and sweep that scope
    /// only: variables of outer scopes keep their adjoints. A seed that is not a node of
    /// the scope (`None` for a constant, or an outer variable) only zeroes them, so every
    /// adjoint of the scope reads 0 and the outer one is not touched.
    pub(crate) fn grad_in_scope(&mut self, seed: Option<u32>) {
        self.size_adjoints();
        let lo = self.scope().nodes as usize;
        if self.dirty > lo {
            self.adj[lo..self.dirty].fill(0.0);
            self.dirty = lo;
        }
        if let Some(seed) = seed.filter(|&s| s as usize >= lo) {
            self.adj[seed as usize] = 1.0;
            self.dirty = self.adj.len();
            self.sweep(lo);
        }
    }

    /// Block sweep of the innermost scope for up to [`LANES`] outputs: lane `l` is seeded
    /// at `seeds[l]` (`None`, or a node outside the scope, seeds nothing). Returns the
    /// `false` (and nothing swept) if the scope recorded callbacks, which only know
    /// scalar adjoints: sweep row by row then. Read the result with
    /// [`lane_adj`](Tape::lane_adj). Every lane gets exactly the adjoints a sweep seeded
    /// at its output alone gives.
    pub(crate) fn sweep_lanes(&mut self, seeds: &[Option<u32>]) -> bool {
        debug_assert!(seeds.len() <= LANES);
        let s = self.scope();
        if self.callbacks.len() > s.callbacks as usize {
            return false;
        }
        let lo = s.nodes as usize;
        self.block.clear();
        self.block.resize(self.nodes as usize - lo, [0.0; LANES]);
        for (l, seed) in seeds.iter().enumerate() {
            if let Some(k) = seed.and_then(|i| (i as usize).checked_sub(lo)) {
                self.block[k][l] = 1.0;
            }
        }
        let ops = s.ops as usize;
        let top = self.block.len();
        sweep_block(&self.rec[ops..], &mut self.block, top, lo);
        true
    }

    /// Lane `l` of the adjoint of node `i` after [`sweep_lanes`](Tape::sweep_lanes) (a
    /// node of an outer scope reads its scalar adjoint, which the sweep leaves alone).
    #[inline]
    pub(crate) fn lane_adj(&self, i: u32, l: usize) -> f64 {
        match (i as usize).checked_sub(self.scope().nodes as usize) {
            Some(k) => self.block.get(k).map_or(0.0, |b| b[l]),
            None => self.adj(i),
        }
    }

    pub(super) fn scope(&self) -> Scope {
        self.scopes.last().copied().unwrap_or(Scope {
            gen: self.root_gen,
            nodes: 0,
            ops: 0,
            callbacks: 0,
        })
    }

    /// Backward sweep over nodes `lo..`, running callbacks at their positions.
    fn sweep(&mut self, lo: usize) {
        let (lo_ops, lo_cb) = if lo == 0 {
            (0, 0)
        } else {
            let s = self.scope();
            (s.ops as usize, s.callbacks as usize)
        };
        let mut node = self.nodes as usize;
        let mut hi_ops = self.rec.len();
        for cb in (lo_cb..self.callbacks.len()).rev() {
            let (cb_nodes, cb_ops) = (
                self.callbacks[cb].nodes as usize,
                self.callbacks[cb].ops as usize,
            );
            node = sweep_ops(
                &self.rec[cb_ops..hi_ops],
                &mut self.adj[lo..],
                node - lo,
                lo,
            ) + lo;
            debug_assert_eq!(node, cb_nodes);
            let mut view = Adjoints {
                adj: &mut self.adj[lo..],
                lo,
            };
            (self.callbacks[cb].run)(&mut view);
            hi_ops = cb_ops;
        }
        sweep_ops(
            &self.rec[lo_ops..hi_ops],
            &mut self.adj[lo..],
            node - lo,
            lo,
        );
    }

    /// Open a nested scope; returns its generation.
    pub(crate) fn begin_nested(&mut self) -> u32 {
        self.ensure_root();
        let gen = self.fresh_gen();
        self.scopes.push(Scope {
            gen,
            nodes: self.nodes,
            ops: self.rec.len() as u32,
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
        let mark = self.scopes[pos];
        self.scopes.truncate(pos);
        self.truncate_to(mark);
        self.top_gen = self.scope().gen;
    }

    fn truncate_to(&mut self, mark: Scope) {
        self.nodes = mark.nodes;
        if self.log.is_some() {
            self.limit = self.nodes;
        }
        self.rec.truncate(mark.ops as usize);
        self.callbacks.truncate(mark.callbacks as usize);
        self.adj.truncate(mark.nodes as usize);
        self.dirty = self.dirty.min(self.adj.len());
    }

    /// Discard everything on the tape; only valid outside nested scopes.
    pub(crate) fn clear(&mut self) {
        assert!(
            self.scopes.is_empty(),
            "fazang: clear_tape() called inside a nested scope; call it at top level, \
             after every nested(), gradient() or jacobian() call has returned"
        );
        self.root_gen = self.fresh_gen();
        self.top_gen = self.root_gen;
        register_release();
        self.truncate_to(self.scope());
    }

    /// Statistics for tests and benchmarks.
    pub(crate) fn stats(&self) -> TapeStats {
        TapeStats {
            nodes: self.nodes as usize,
            operands: self.rec.len(),
            callbacks: self.callbacks.len(),
            depth: self.scopes.len(),
        }
    }
}

#[cold]
#[inline(never)]
fn tape_full() -> ! {
    panic!(
        "fazang: the tape is full ({MAX_NODES} results); use nested scopes or \
         clear_tape() to release what is no longer needed"
    )
}

/// The hot loop: propagate the adjoints of the nodes whose records are `rec`;
/// `node` is one past the last of them, counted from `lo` like `adj` (the adjoints of
/// nodes `lo..`). Returns the first node swept (counted from `lo`).
///
/// Record by record, from the top; a node's adjoint is loaded at its last record. A
/// node whose adjoint is zero adds nothing (no product is formed, so a zero adjoint
/// never meets an infinite or NaN partial). Operands below `lo` and the placeholder of
/// independent variables fall outside `adj` and are ignored.
#[inline]
fn sweep_ops(rec: &[Rec], adj: &mut [f64], mut node: usize, lo: usize) -> usize {
    let mut a = 0.0;
    let mut skip = true;
    for r in rec.iter().rev() {
        let raw = r.idx;
        if skip {
            // `r` is the last record of the next node down.
            node -= 1;
            a = adj[node];
        }
        if a != 0.0 {
            let k = ((raw & INDEX) as usize).wrapping_sub(lo);
            if let Some(t) = adj.get_mut(k) {
                *t += a * r.partial;
            }
        }
        skip = raw & FIRST != 0;
    }
    node
}

/// [`sweep_ops`] on [`LANES`] adjoints per node at once (the same arithmetic, lane by
/// lane). A zero adjoint skips its product in `sweep_ops`; here a whole node is skipped
/// when all its lanes are zero, and within a node a zero lane adds `0 · p`, which leaves
/// the target unchanged unless `p` is infinite or NaN, so such partials take the
/// lane-by-lane path with the same test as `sweep_ops`.
fn sweep_block(rec: &[Rec], block: &mut [[f64; LANES]], mut node: usize, lo: usize) {
    let mut a = [0.0; LANES];
    let mut active = false;
    let mut skip = true;
    for r in rec.iter().rev() {
        let raw = r.idx;
        if skip {
            node -= 1;
            a = block[node];
            active = a.iter().any(|&v| v != 0.0);
        }
        if active {
            let k = ((raw & INDEX) as usize).wrapping_sub(lo);
            if let Some(t) = block.get_mut(k) {
                let p = r.partial;
                if p.is_finite() {
                    for (t, a) in t.iter_mut().zip(&a) {
                        *t += a * p;
                    }
                } else {
                    for (t, a) in t.iter_mut().zip(&a) {
                        if *a != 0.0 {
                            *t += a * p;
                        }
                    }
                }
            }
        }
        skip = raw & FIRST != 0;
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
    ///
    /// ```
    /// let s = fazang::TapeStats { nodes: 3, operands: 4, callbacks: 0, depth: 0 };
    /// assert_eq!(s.bytes(), 4 * 12 + 3 * 8);
    /// ```
    pub fn bytes(&self) -> usize {
        self.operands * 12 + self.nodes * 8
    }
}
