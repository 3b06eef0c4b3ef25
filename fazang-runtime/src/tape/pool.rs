//! Reusable buffers (the operands of `from_partials` and `Sum`, the inputs of the
//! drivers), one pool per thread and purpose, with the tape's memory policy: a buffer is
//! kept for the next call, so steady state allocates nothing, unless it is much larger
//! than recent calls needed.

use std::cell::{Cell, RefCell};

/// Buffers of `T`, one per nesting level in use (a buffer is taken out while in use, so
/// a call nested inside another finds another one).
pub(crate) struct Pool<T> {
    bufs: RefCell<Vec<Vec<T>>>,
    /// Decaying maximum of the lengths recently given back.
    typical: Cell<usize>,
}

/// Lengths the policy never gives back (small buffers are not worth reallocating).
const FLOOR: usize = 1 << 12;

impl<T> Pool<T> {
    pub(crate) const fn new() -> Pool<T> {
        Pool {
            bufs: RefCell::new(Vec::new()),
            typical: Cell::new(0),
        }
    }

    /// A buffer, empty, with whatever capacity it kept.
    #[inline]
    pub(crate) fn take(&self) -> Vec<T> {
        let mut b = self.bufs.borrow_mut().pop().unwrap_or_default();
        b.clear();
        b
    }

    /// Give back `buf`, which held `used` elements: kept, or shrunk to twice the recent
    /// typical length if its capacity is more than 4 times that.
    #[inline]
    pub(crate) fn give(&self, mut buf: Vec<T>, used: usize) {
        let typical = self.typical.get();
        self.typical.set((typical - typical / 16).max(used));
        let keep = typical.max(FLOOR);
        if buf.capacity() > 4 * keep {
            buf.clear();
            buf.shrink_to(2 * keep);
        }
        self.bufs.borrow_mut().push(buf);
    }

    /// Free every buffer not in use.
    pub(crate) fn release(&self) {
        self.bufs.borrow_mut().clear();
        self.typical.set(0);
    }
}
