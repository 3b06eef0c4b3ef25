//! Storage for forward-mode numbers whose size is known only at run time (nested
//! [`Fwd`](super::Fwd) numbers, [`Lanes`](super::Lanes) tangents, [`JetDyn`](super::JetDyn)
//! series), which must still be `Copy` to be a [`Real`](crate::Real).
//!
//! Such a number is a [`Block`]: an offset into this thread's arena of `f64`s and the
//! generation of the scope it was made in. Scopes nest like the tape's: everything made
//! inside one is freed when it ends (a bump allocator, no allocation per operation in
//! steady state), and a block whose scope has ended, or that belongs to another thread,
//! panics when used, as a `Var` does. The drivers (`derivative`, `jvp`, ...) open a
//! scope per call; numbers made outside any scope live until [`clear_forward`].

use std::cell::RefCell;
use std::sync::atomic::{AtomicU32, Ordering};

/// Coefficients of one number in the arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Block {
    off: u32,
    len: u32,
    gen: u32,
}

impl Block {
    /// The empty block (valid everywhere; all coefficients read as zero).
    pub(crate) const EMPTY: Block = Block {
        off: 0,
        len: 0,
        gen: 0,
    };

    /// The number of coefficients.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len as usize
    }
}

/// Generations of arena scopes, process-wide so that blocks of different threads differ.
static NEXT_GEN: AtomicU32 = AtomicU32::new(1);

struct Arena {
    data: Vec<f64>,
    /// (length at the scope's start, generation), innermost last; the root is implicit.
    scopes: Vec<(usize, u32)>,
    /// Generation of the root scope (0 until first used).
    root: u32,
}

thread_local! {
    static ARENA: RefCell<Arena> = const {
        RefCell::new(Arena { data: Vec::new(), scopes: Vec::new(), root: 0 })
    };
}

impl Arena {
    fn gen(&mut self) -> u32 {
        match self.scopes.last() {
            Some(&(_, g)) => g,
            None => {
                if self.root == 0 {
                    self.root = NEXT_GEN.fetch_add(1, Ordering::Relaxed);
                }
                self.root
            }
        }
    }

    fn check(&self, b: Block) {
        if b.len == 0 {
            return;
        }
        let live = self.scopes.iter().rev().any(|&(_, g)| g == b.gen) || b.gen == self.root;
        if !live {
            stale();
        }
    }
}

#[cold]
#[inline(never)]
fn stale() -> ! {
    panic!(
        "fazang: a forward-mode number (Fwd, Lanes, JetDyn) was used after the scope it was \
         made in ended (a `derivative` or `forward_scope` call returned), or on another thread; \
         return plain values (`.val()`, `.partial(..)`) from those calls"
    )
}

/// Run `f` with this thread's arena (`try_with`, which inlines, rather than `with`, which
/// does not: as the tape does).
#[inline(always)]
fn with<R>(f: impl FnOnce(&mut Arena) -> R) -> R {
    let r = ARENA.try_with(|a| match a.try_borrow_mut() {
        Ok(mut a) => f(&mut a),
        Err(_) => busy(),
    });
    match r {
        Ok(r) => r,
        Err(_) => gone(),
    }
}

#[cold]
#[inline(never)]
fn busy() -> ! {
    panic!("fazang: the forward-mode arena is busy (re-entrant use)")
}

#[cold]
#[inline(never)]
fn gone() -> ! {
    panic!("fazang: the forward-mode arena was used while its thread was exiting")
}

/// A new block holding `values`.
#[inline]
pub(crate) fn alloc(values: &[f64]) -> Block {
    if values.is_empty() {
        return Block::EMPTY;
    }
    with(|a| {
        let gen = a.gen();
        let off = a.data.len();
        a.data.extend_from_slice(values);
        block(off, values.len(), gen)
    })
}

/// A new block of `len` coefficients written by `f`, which also reads the blocks `ins`
/// (their coefficients are passed to `f` in order).
#[inline]
pub(crate) fn compute<const K: usize>(
    len: usize,
    ins: [Block; K],
    f: impl FnOnce(&mut [f64], [&[f64]; K]),
) -> Block {
    if len == 0 {
        return Block::EMPTY;
    }
    with(|a| {
        for b in &ins {
            a.check(*b);
        }
        let gen = a.gen();
        let off = a.data.len();
        a.data.resize(off + len, 0.0);
        let (old, new) = a.data.split_at_mut(off);
        let slices = ins.map(|b| &old[b.off as usize..(b.off + b.len) as usize]);
        f(new, slices);
        block(off, len, gen)
    })
}

/// Panic unless `b` is still alive (for operations that copy a block without reading it).
#[inline]
pub(crate) fn check(b: Block) {
    read(b, |_| ());
}

/// Read the coefficients of `b`.
#[inline]
pub(crate) fn read<R>(b: Block, f: impl FnOnce(&[f64]) -> R) -> R {
    if b.len == 0 {
        return f(&[]);
    }
    with(|a| {
        a.check(b);
        f(&a.data[b.off as usize..(b.off + b.len) as usize])
    })
}

fn block(off: usize, len: usize, gen: u32) -> Block {
    let off = u32::try_from(off).unwrap_or_else(|_| full());
    let len = u32::try_from(len).unwrap_or_else(|_| full());
    if off.checked_add(len).is_none() {
        full();
    }
    Block { off, len, gen }
}

#[cold]
fn full() -> ! {
    panic!(
        "fazang: the forward-mode arena is full (2³² coefficients); numbers made outside \
         any `forward_scope` are only freed by `clear_forward`"
    )
}

/// Run `f` in a new arena scope and return its result, whose blocks (reported by `keep`)
/// are copied into the enclosing scope before the scope's memory is freed.
pub(crate) fn scope<R>(
    f: impl FnOnce() -> R,
    keep: impl Fn(R, &mut dyn FnMut(Block) -> Block) -> R,
) -> R {
    let gen = NEXT_GEN.fetch_add(1, Ordering::Relaxed);
    let mark = with(|a| {
        let mark = a.data.len();
        a.scopes.push((mark, gen));
        mark
    });
    // Ends the scope even if `f` panics, so the arena stays usable.
    struct End(usize, u32);
    impl Drop for End {
        fn drop(&mut self) {
            let _ = ARENA.try_with(|a| {
                if let Ok(mut a) = a.try_borrow_mut() {
                    if let Some(pos) = a.scopes.iter().rposition(|&(_, g)| g == self.1) {
                        a.scopes.truncate(pos);
                        a.data.truncate(self.0);
                    }
                }
            });
        }
    }
    let end = End(mark, gen);
    let r = f();
    // Copy out the blocks the result keeps, end the scope, store them again outside.
    let mut saved: Vec<Vec<f64>> = Vec::new();
    let r = keep(r, &mut |b| {
        saved.push(read(b, <[f64]>::to_vec));
        b
    });
    drop(end);
    let mut it = saved.into_iter();
    keep(r, &mut |_| alloc(&it.next().expect("the same blocks")))
}

/// Run `f` in an arena scope: every forward-mode number with run-time size it makes
/// ([`Fwd`](crate::Fwd) with perturbations, [`Lanes`](crate::Lanes),
/// [`JetDyn`](crate::JetDyn)) is freed when it returns; return plain values from it.
///
/// ```
/// use fazang::prelude::*;
/// use fazang::{forward_scope, JetDyn};
/// let d = forward_scope(|| {
///     let x = JetDyn::variable(2, 2, 1.5, 0);
///     (x * x).partial(&[2, 0])
/// });
/// assert_eq!(d, 2.0);
/// ```
pub fn forward_scope<R>(f: impl FnOnce() -> R) -> R {
    scope(f, |r, _| r)
}

/// Free every forward-mode number made outside any [`forward_scope`] on this thread (they
/// must not be used afterwards: doing so panics).
///
/// Panics if called inside a scope.
///
/// ```
/// use fazang::{clear_forward, JetDyn};
/// let x = JetDyn::variable(1, 1, 2.0, 0);
/// let y = x * x;
/// clear_forward();
/// assert!(std::panic::catch_unwind(|| y.partial(&[1])).is_err());
/// ```
pub fn clear_forward() {
    with(|a| {
        assert!(
            a.scopes.is_empty(),
            "fazang: clear_forward inside a forward_scope"
        );
        a.data.clear();
        a.root = NEXT_GEN.fetch_add(1, Ordering::Relaxed);
    })
}
