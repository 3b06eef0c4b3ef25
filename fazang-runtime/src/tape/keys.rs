//! Keys: how a [`Var`](crate::Var) names its node so that a stale `Var` (one whose scope
//! has ended, recorded before `clear_tape`, or from another thread) is never mistaken for
//! a live one, however long the program runs.
//!
//! Every recorded node gets a *serial*, a `u64` never handed out twice in the process:
//! each tape takes blocks of serials from one global counter and hands them out in
//! increasing order. A `Var`'s key is its node's serial. The tape maps serials back to
//! node indices through *segments*: runs of nodes whose serials are consecutive. When a
//! nested scope ends, its nodes are discarded and the next node recorded at the same
//! index gets a fresh serial, in a new segment; the discarded serials belong to no live
//! segment any more, so a `Var` that still holds one is detected.
//!
//! Looking a key up is two subtractions and a comparison when the node is in the newest
//! segment (the common case) and a binary search over the segments otherwise. Segments
//! are created only when a scope that recorded something ends with the parent recording
//! after it, or when a block of serials runs out, so there are at most as many as nodes.
//!
//! With 2⁶⁴ serials, exhausting them takes centuries of recording; if it ever happened,
//! the tape would panic rather than reuse a serial.

use std::sync::atomic::{AtomicU64, Ordering};

/// Next serial not yet given to any tape.
static NEXT_SERIAL: AtomicU64 = AtomicU64::new(0);

/// Serials a tape takes first (a thread that records a little takes little), and the
/// largest block it takes later (blocks double in between).
const FIRST_BLOCK: u64 = 1 << 20;
const MAX_BLOCK: u64 = 1 << 32;

/// A run of nodes with consecutive serials, from node `start` up to the next segment's
/// start (the top segment: up to the tape's node count).
#[derive(Clone, Copy)]
struct Seg {
    serial: u64,
    start: u32,
}

pub(crate) struct Keys {
    /// Live segments, ordered by `start` and by `serial` (both strictly increasing).
    segs: Vec<Seg>,
    /// The top segment's `serial - start`: node `i` of it has key `bias + i`.
    bias: u64,
    /// The top segment's first serial and first node.
    top_serial: u64,
    top_start: u32,
    /// Nodes may be recorded up to this count before the cold path runs: the end of the
    /// block of serials, or, during a graph capture, the current node count (see
    /// `tape::capture`).
    limit: u32,
    /// Where the block of serials runs out.
    block_end: u32,
    /// Whether a graph capture holds `limit` at the node count.
    capturing: bool,
    /// Size of the last block taken.
    block: u64,
}

impl Keys {
    pub(crate) const fn new() -> Keys {
        Keys {
            segs: Vec::new(),
            bias: 0,
            top_serial: 0,
            top_start: 0,
            limit: 0,
            block_end: 0,
            capturing: false,
            block: 0,
        }
    }

    /// How many nodes the tape may hold before [`grow`](Keys::grow) must be called.
    #[inline(always)]
    pub(crate) fn limit(&self) -> u32 {
        self.limit
    }

    /// The key of node `i`, recorded now (it is in the top segment).
    #[inline(always)]
    pub(crate) fn key(&self, i: u32) -> u64 {
        self.bias.wrapping_add(u64::from(i))
    }

    /// The key of live node `i`, in whichever segment it is.
    pub(crate) fn key_at(&self, i: u32) -> u64 {
        if i >= self.top_start {
            return self.key(i);
        }
        let s = self.segs[self.segs.partition_point(|s| s.start <= i) - 1];
        s.serial + u64::from(i - s.start)
    }

    /// The node index of `key` if that node is alive on a tape holding `nodes` nodes;
    /// otherwise `dead()`.
    #[inline(always)]
    pub(crate) fn index(&self, key: u64, nodes: u32, dead: fn() -> !) -> u32 {
        let d = key.wrapping_sub(self.top_serial);
        if d < u64::from(nodes - self.top_start) {
            self.top_start + d as u32
        } else {
            self.index_or_dead(key, nodes, dead)
        }
    }

    #[cold]
    #[inline(never)]
    fn index_or_dead(&self, key: u64, nodes: u32, dead: fn() -> !) -> u32 {
        match self.index_slow(key, nodes) {
            Some(i) => i,
            None => dead(),
        }
    }

    /// [`index`](Keys::index) as an `Option` (for tests).
    #[cfg(test)]
    pub(crate) fn find(&self, key: u64, nodes: u32) -> Option<u32> {
        let d = key.wrapping_sub(self.top_serial);
        if d < u64::from(nodes - self.top_start) {
            Some(self.top_start + d as u32)
        } else {
            self.index_slow(key, nodes)
        }
    }

    #[inline]
    fn index_slow(&self, key: u64, nodes: u32) -> Option<u32> {
        // The segment below the top first: it holds the variables of the enclosing scope
        // (parameters captured by a gradient's closure).
        if let [.., below, top] = self.segs[..] {
            let d = key.wrapping_sub(below.serial);
            if d < u64::from(top.start - below.start) {
                return Some(below.start + d as u32);
            }
        }
        let j = self
            .segs
            .partition_point(|s| s.serial <= key)
            .checked_sub(1)?;
        let s = self.segs[j];
        let end = self.segs.get(j + 1).map_or(nodes, |n| n.start);
        let d = key - s.serial;
        (d < u64::from(end - s.start)).then(|| s.start + d as u32)
    }

    /// Make room for the tape to grow from `nodes` to `nodes + k` nodes (`k` more than
    /// [`limit`](Keys::limit) allows): take a new block of serials, starting a segment
    /// at `nodes`. `max` is the most nodes a tape may hold; false if `nodes + k` exceeds
    /// it.
    #[cold]
    #[inline(never)]
    pub(crate) fn grow(&mut self, nodes: u32, k: u32, max: u32) -> bool {
        if k > max - nodes {
            return false;
        }
        let want = u64::from(k).max(if self.block == 0 {
            FIRST_BLOCK
        } else {
            (2 * self.block).min(MAX_BLOCK)
        });
        let first = NEXT_SERIAL.fetch_add(want, Ordering::Relaxed);
        assert!(
            first < u64::MAX / 2,
            "fazang: the process has used up 2^63 tape serials; a tape cannot record more \
             without risking that a stale Var goes undetected"
        );
        self.block = want;
        self.start_segment(nodes, first);
        self.block_end = max.min(nodes.saturating_add(u32::try_from(want).unwrap_or(u32::MAX)));
        self.limit = self.block_end;
        true
    }

    /// Start the top segment at node `start` with serial `serial`, replacing every
    /// segment that starts at or after `start` (they have no live node left).
    fn start_segment(&mut self, start: u32, serial: u64) {
        while self.segs.len() > 1 && self.segs[self.segs.len() - 2].start >= start {
            self.segs.pop();
        }
        let seg = Seg { serial, start };
        match self.segs.last_mut() {
            Some(top) if top.start >= start => *top = seg,
            _ => self.segs.push(seg),
        }
        self.bias = serial.wrapping_sub(u64::from(start));
        self.top_serial = serial;
        self.top_start = start;
    }

    /// The tape went from `nodes` down to `to` nodes: the keys of the nodes discarded die,
    /// and nodes recorded from `to` on get serials never used before.
    pub(crate) fn truncate(&mut self, nodes: u32, to: u32) {
        if nodes == to {
            // Nothing discarded: the top segment just continues.
            return;
        }
        // The first serial of the current block not yet handed out.
        let next = self.key(nodes);
        self.start_segment(to, next);
        // The serials left in the block are now counted from `to`.
        self.block_end -= nodes - to;
        self.limit = if self.capturing { to } else { self.block_end };
    }

    /// Whether `k` more nodes fit in the block of serials from `nodes` (the cold path of
    /// a capture asks before it counts them without growing).
    pub(crate) fn fits(&self, nodes: u32, k: u32) -> bool {
        k <= self.block_end - nodes
    }

    /// Start (`Some(nodes)`: the limit follows the node count, so that every node takes
    /// the cold path) or end (`None`) a graph capture; also moves the capture's limit on.
    pub(crate) fn capture(&mut self, at: Option<u32>) {
        self.capturing = at.is_some();
        self.limit = at.map_or(self.block_end, |n| n.min(self.block_end));
    }

    /// Give back spare capacity (after a large tape was released).
    pub(crate) fn shrink(&mut self) {
        self.segs.shrink_to_fit();
    }

    /// Move the process-wide serial counter on by `n` (tests of large serials).
    #[cfg(test)]
    pub(crate) fn skip_serials(n: u64) {
        NEXT_SERIAL.fetch_add(n, Ordering::Relaxed);
    }

    /// Number of live segments (for tests).
    #[cfg(test)]
    pub(crate) fn segments(&self) -> usize {
        self.segs.len()
    }
}
