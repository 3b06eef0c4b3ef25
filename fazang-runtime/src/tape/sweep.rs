//! The backward sweep: propagating adjoints over the tape's records, scalar (one seed)
//! or in blocks of [`LANES`] seeds (the rows of a Jacobian), and running the callbacks of
//! lazily recorded operations at their positions.
//!
//! Only callbacks run user code during a sweep. If one panics during `Var::grad`
//! the adjoints it and the sweep had changed are restored from a
//! copy taken before the sweep (taken only when the swept range holds callbacks), so the
//! tape is exactly as before the call. The drivers' sweeps need no copy: their nested
//! scope is discarded when the panic leaves them, and they never write outside it.

use super::stack::{Rec, Tape, FIRST, INDEX, LANES};
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};

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

/// Adjoints saved before a sweep that runs callbacks: `adj[lo..]` and the dirty mark.
pub(crate) struct Saved {
    adj: Vec<f64>,
    len: usize,
    dirty: usize,
}

impl Saved {
    pub(crate) const fn new() -> Saved {
        Saved {
            adj: Vec::new(),
            len: 0,
            dirty: 0,
        }
    }

    pub(crate) fn capacity(&self) -> usize {
        self.adj.capacity()
    }
}

impl Tape {
    /// Make the adjoint vector cover every node, keeping existing adjoints (new ones 0).
    fn size_adjoints(&mut self) {
        self.adj.resize(self.nodes as usize, 0.0);
    }

    /// Set the adjoint of `seed` to 1 and sweep every node of the tape.
    pub(crate) fn grad(&mut self, seed: u32) {
        let save = !self.callbacks.is_empty();
        if save {
            self.saved.adj.clear();
            self.saved.adj.extend_from_slice(&self.adj);
            self.saved.len = self.adj.len();
            self.saved.dirty = self.dirty;
        }
        self.size_adjoints();
        self.adj[seed as usize] = 1.0;
        self.dirty = self.adj.len();
        self.sweep(0, save);
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
            self.sweep(lo, false);
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

    /// Backward sweep over nodes `lo..`, running callbacks at their positions. With
    /// `saved`, a panicking callback first restores the adjoints saved in `self.saved`.
    fn sweep(&mut self, lo: usize, saved: bool) {
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
            let run = &self.callbacks[cb].run;
            if saved {
                if let Err(e) = catch_unwind(AssertUnwindSafe(|| run(&mut view))) {
                    self.restore();
                    resume_unwind(e);
                }
            } else {
                run(&mut view);
            }
            hi_ops = cb_ops;
        }
        sweep_ops(
            &self.rec[lo_ops..hi_ops],
            &mut self.adj[lo..],
            node - lo,
            lo,
        );
    }

    /// Put back the adjoints saved before a full sweep.
    #[cold]
    fn restore(&mut self) {
        let saved = &self.saved;
        self.adj.truncate(saved.len);
        self.adj.copy_from_slice(&saved.adj);
        self.dirty = saved.dirty;
    }
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
