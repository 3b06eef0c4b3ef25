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
//! # Scopes and keys
//!
//! A scope is a mark (node, operand and callback counts); ending it truncates the arrays
//! to the mark. A `Var` names its node by a key that is never reused (see `tape::keys`), so a
//! `Var` of an ended scope, of an earlier `clear_tape`, or of another thread's tape is
//! detected when used, and using it panics.
//!
//! # Panics while recording
//!
//! Every operation checks its operands before it changes anything, or undoes what it
//! recorded if it fails half way (a stale `Var` among the operands of an n-ary node, a
//! panicking iterator), so a caught panic leaves the tape exactly as it was before the
//! operation. A backward sweep that panics in a callback restores the adjoints it had
//! changed (see `tape::sweep`).
//!
//! # Memory
//!
//! The arrays keep their capacity, so a gradient in steady state allocates nothing. When
//! the outermost scope ends or the tape is cleared after an unusually large recording
//! (more than 4 times the recent typical size, and at least 65536 records),
//! the spare capacity is given back down to twice the typical size;
//! [`release_tape_memory`](crate::release_tape_memory) gives back all of it.

use super::capture::{GraphLog, Label};
use super::keys::Keys;
use super::sweep::Saved;
use std::cell::RefCell;
use std::mem::ManuallyDrop;

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
pub(crate) struct Rec {
    pub(crate) idx: u32,
    pub(crate) partial: f64,
}

const _: () = assert!(std::mem::size_of::<Rec>() == 12);

impl Rec {
    #[inline]
    const fn new(idx: u32, partial: f64) -> Rec {
        Rec { idx, partial }
    }
}

/// Largest number of nodes one tape holds (indices must stay below [`NO_OPERAND`]).
const MAX_NODES: u32 = NO_OPERAND - 1;

/// Capacity (in operand records) the memory policy never gives back: small tapes are
/// not worth reallocating.
pub(crate) const KEEP_RECORDS: usize = 1 << 16;

/// Outputs a Jacobian differentiates in one sweep (lanes of the block adjoints).
pub(crate) const LANES: usize = 8;

/// A vector-Jacobian product run during the sweep, for operations recorded lazily.
pub(crate) type CallbackFn = Box<dyn Fn(&mut super::sweep::Adjoints<'_>)>;

pub(crate) struct Callback {
    /// Number of nodes when it was recorded: it runs once every node at or above runs.
    pub(crate) nodes: u32,
    /// Number of operand records when it was recorded.
    pub(crate) ops: u32,
    pub(crate) run: CallbackFn,
}

#[derive(Clone, Copy)]
pub(crate) struct Scope {
    /// Identifies the scope for its guard (never reused on this tape).
    id: u64,
    pub(crate) nodes: u32,
    pub(crate) ops: u32,
    pub(crate) callbacks: u32,
}

pub(crate) struct Tape {
    /// The (operand, partial) records; [`FIRST`] marks the first of each node.
    pub(crate) rec: Vec<Rec>,
    /// Number of nodes recorded.
    pub(crate) nodes: u32,
    /// The keys of the live nodes.
    pub(crate) keys: Keys,
    /// Adjoints, one per node; sized lazily by the sweep.
    pub(crate) adj: Vec<f64>,
    /// Every adjoint at or above this index is zero (sweeps raise it, zeroing lowers it),
    /// so a sweep zeroes only what an earlier one may have written.
    pub(crate) dirty: usize,
    pub(crate) callbacks: Vec<Callback>,
    /// Adjoints of the nodes of the innermost scope for [`LANES`] outputs at once (the
    /// block sweeps of a Jacobian); reused, so it allocates only while growing.
    pub(crate) block: Vec<[f64; LANES]>,
    /// Adjoints saved before a sweep that runs callbacks, to undo it if one panics.
    pub(crate) saved: Saved,
    /// Nested scopes, innermost last (the root scope is implicit: all marks zero).
    scopes: Vec<Scope>,
    /// Id of the next scope opened.
    next_scope: u64,
    /// Decaying maximum of the records in use when the outermost scope ended or the
    /// tape was cleared: what the memory policy keeps.
    typical: usize,
    /// Whether the thread-exit hook that frees the tape is registered.
    registered: bool,
    /// The names and values of the nodes recorded during a graph capture.
    pub(crate) log: Option<Box<GraphLog>>,
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

#[cold]
#[inline(never)]
fn tape_busy() -> ! {
    panic!(
        "fazang: the tape is busy: code that runs while fazang holds the tape (the \
         adjoint function of a #[deriv_rule(adjoint = ..)] rule or a vector_op callback, \
         which run during the backward sweep, or the iterator given to nary_op_iter) used \
         the tape: through a `Var` operation, or through a function that takes and returns \
         plain f64 values but records on the tape inside (`gradient`, `jacobian`, `nested`, \
         or a `_grad`/`_jacobian`/`_hessian` function whose body runs on the tape). Compute \
         what it needs without the tape (a derivative written in plain f64 arithmetic, or \
         a #[differentiate] function whose `_grad` runs adjoint code: `FAZANG_MACRO_DEBUG=1` \
         prints which), or put #[differentiate] on the rule's function instead of giving it \
         an adjoint"
    )
}

#[cold]
#[inline(never)]
fn stale() -> ! {
    panic!(
        "fazang: this Var is no longer on the tape: it was created inside a nested \
         scope that has ended (nested(), gradient(), jacobian() or a _grad \
         function), before clear_tape(), or on another thread (each thread has \
         its own tape). Return plain f64 values (x.val(), x.adj()) from the scope \
         instead of Vars, and create Vars on the thread that uses them"
    );
}

#[cold]
#[inline(never)]
fn tape_full() -> ! {
    panic!(
        "fazang: the tape is full ({MAX_NODES} results); use nested scopes or \
         clear_tape() to release what is no longer needed"
    )
}

impl Tape {
    const fn new() -> Self {
        Tape {
            rec: Vec::new(),
            nodes: 0,
            keys: Keys::new(),
            adj: Vec::new(),
            dirty: 0,
            callbacks: Vec::new(),
            block: Vec::new(),
            saved: Saved::new(),
            scopes: Vec::new(),
            next_scope: 1,
            typical: 0,
            registered: false,
            log: None,
        }
    }

    /// Make sure the tape's memory is freed when this thread exits (after the thread's
    /// thread-locals are being destroyed this does nothing; what the tape allocates then
    /// is left to the process).
    #[inline]
    fn register_release(&mut self) {
        if !self.registered {
            self.registered = true;
            let _ = RELEASE.try_with(|_| ());
        }
    }

    /// The key of node `i`, just recorded.
    #[inline(always)]
    pub(crate) fn key(&self, i: u32) -> u64 {
        self.keys.key(i)
    }

    /// The node of `key`; panics unless that node is alive on this tape.
    #[inline(always)]
    pub(crate) fn lookup(&self, key: u64) -> u32 {
        self.keys.index(key, self.nodes, stale)
    }

    /// Count `k` new nodes; returns the index of the first. Changes nothing if it
    /// panics (tape full). `label` says what a graph capture shows for them: it is read
    /// only on the cold path, which runs while a capture does (see `tape::capture`).
    #[inline(always)]
    fn new_nodes_labelled(&mut self, k: u32, label: Label<'_>) -> u32 {
        let n = self.nodes;
        if k > self.keys.limit() - n {
            self.grow(k, label);
        }
        self.nodes = n + k;
        n
    }

    #[cold]
    #[inline(never)]
    fn grow(&mut self, k: u32, label: Label<'_>) {
        self.register_release();
        let n = self.nodes;
        if let Some(log) = self.log.as_deref_mut() {
            log.record(n, k, label);
            if self.keys.fits(n, k) {
                self.keys.capture(Some(n + k));
                return;
            }
        }
        if !self.keys.grow(n, k, MAX_NODES) {
            tape_full();
        }
        if self.log.is_some() {
            self.keys.capture(Some(n + k));
        }
    }

    /// Record an independent variable; returns its node index.
    #[inline]
    pub(crate) fn push_independent(&mut self, name: &'static str, value: f64) -> u32 {
        let i = self.new_nodes_labelled(1, Label::Op(name, value));
        self.rec.push(Rec::new(NO_OPERAND | FIRST, 0.0));
        i
    }

    /// Record `k` independent variables; returns the node index of the first (the others
    /// follow it).
    pub(crate) fn push_independents(&mut self, name: &'static str, values: &[f64]) -> u32 {
        let k = values.len();
        let k32 = u32::try_from(k).unwrap_or_else(|_| tape_full());
        let first = self.new_nodes_labelled(k32, Label::Many(name, values));
        self.rec
            .extend(std::iter::repeat_n(Rec::new(NO_OPERAND | FIRST, 0.0), k));
        first
    }

    /// Record a node with one operand.
    #[inline]
    pub(crate) fn push1(&mut self, a: u32, da: f64, name: &'static str, value: f64) -> u32 {
        let i = self.new_nodes_labelled(1, Label::Op(name, value));
        self.rec.push(Rec::new(a | FIRST, da));
        i
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
        let i = self.new_nodes_labelled(1, Label::Op(name, value));
        self.rec
            .extend_from_slice(&[Rec::new(a | FIRST, da), Rec::new(b, db)]);
        i
    }

    /// Record a node with the operands `(key, partial)` from `ops`; its index, or `None`
    /// if it got no operand (then nothing was recorded). If a key is stale or `ops`
    /// panics, the records pushed so far are removed before the panic goes on, so the
    /// tape is left as it was.
    #[inline]
    pub(crate) fn push_node(
        &mut self,
        ops: impl Iterator<Item = (u64, f64)>,
        name: &'static str,
        value: f64,
    ) -> Option<u32> {
        let start = self.rec.len();
        self.rec.reserve(ops.size_hint().0);
        let mut guard = Undo { tape: self, start };
        for (key, p) in ops {
            let i = guard.tape.lookup(key);
            guard.tape.rec.push(Rec::new(i, p));
        }
        let tape = &mut *guard.tape;
        let node = if tape.rec.len() == start {
            None
        } else {
            let i = tape.new_nodes_labelled(1, Label::Op(name, value));
            let first = &mut tape.rec[start];
            *first = Rec::new(first.idx | FIRST, first.partial);
            Some(i)
        };
        guard.start = usize::MAX;
        node
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

    pub(crate) fn scope(&self) -> Scope {
        self.scopes.last().copied().unwrap_or(Scope {
            id: 0,
            nodes: 0,
            ops: 0,
            callbacks: 0,
        })
    }

    /// Open a nested scope; returns its id.
    pub(crate) fn begin_nested(&mut self) -> u64 {
        self.register_release();
        let id = self.next_scope;
        self.next_scope += 1;
        self.scopes.push(Scope {
            id,
            nodes: self.nodes,
            ops: self.rec.len() as u32,
            callbacks: self.callbacks.len() as u32,
        });
        id
    }

    /// End the nested scope `id` and every scope opened inside it, discarding all they
    /// recorded. Does nothing if that scope already ended.
    pub(crate) fn end_nested(&mut self, id: u64) {
        let Some(pos) = self.scopes.iter().rposition(|s| s.id == id) else {
            return;
        };
        let mark = self.scopes[pos];
        self.scopes.truncate(pos);
        let used = self.rec.len();
        self.truncate_to(mark);
        if self.scopes.is_empty() {
            self.memory_policy(used);
        }
    }

    fn truncate_to(&mut self, mark: Scope) {
        self.keys.truncate(self.nodes, mark.nodes);
        if self.log.is_some() {
            self.keys.capture(Some(mark.nodes));
        }
        self.nodes = mark.nodes;
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
        let used = self.rec.len();
        self.truncate_to(self.scope());
        self.memory_policy(used);
    }

    /// After `used` records were in use at top level: if the arrays hold much more than
    /// recent recordings needed, give the excess back.
    #[inline]
    fn memory_policy(&mut self, used: usize) {
        let keep = self.typical.max(KEEP_RECORDS);
        // A node owns at least one record, and the adjoints and the block of a Jacobian
        // (one entry per node) only grow with the records and shrink with them, so
        // testing the records suffices.
        if self.rec.capacity() > 4 * keep {
            self.shrink_to(2 * keep);
        }
        self.typical = (self.typical - self.typical / 16).max(used);
    }

    #[cold]
    #[inline(never)]
    fn shrink_to(&mut self, keep: usize) {
        self.rec.shrink_to(keep);
        self.adj.shrink_to(keep);
        if self.block.capacity() * LANES > keep {
            self.block = Vec::new();
        }
        self.saved = Saved::new();
    }

    /// Give back all spare capacity: the arrays keep only what the tape holds now.
    pub(crate) fn release(&mut self) {
        self.rec.shrink_to_fit();
        self.adj.shrink_to_fit();
        self.block = Vec::new();
        self.saved = Saved::new();
        self.callbacks.shrink_to_fit();
        self.scopes.shrink_to_fit();
        self.keys.shrink();
        self.typical = 0;
    }

    /// Bytes the tape's arrays have reserved.
    pub(crate) fn reserved_bytes(&self) -> usize {
        self.rec.capacity() * std::mem::size_of::<Rec>()
            + self.adj.capacity() * 8
            + self.block.capacity() * std::mem::size_of::<[f64; LANES]>()
            + self.saved.capacity() * 8
            + self.callbacks.capacity() * std::mem::size_of::<Callback>()
            + self.scopes.capacity() * std::mem::size_of::<Scope>()
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

    /// Number of key segments (for tests).
    #[cfg(test)]
    pub(crate) fn key_segments(&self) -> usize {
        self.keys.segments()
    }
}

/// Removes the records of a node being recorded from `start` on, unless disarmed
/// (`start = usize::MAX`): runs when recording the node panics.
struct Undo<'a> {
    tape: &'a mut Tape,
    start: usize,
}

impl Drop for Undo<'_> {
    fn drop(&mut self) {
        if self.start != usize::MAX {
            self.tape.rec.truncate(self.start);
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
    ///
    /// ```
    /// let s = fazang::TapeStats { nodes: 3, operands: 4, callbacks: 0, depth: 0 };
    /// assert_eq!(s.bytes(), 4 * 12 + 3 * 8);
    /// ```
    pub fn bytes(&self) -> usize {
        self.operands * 12 + self.nodes * 8
    }
}
