//! Large tapes give their memory back: explicitly (`release_tape_memory`), and by the
//! tape's policy when the outermost scope ends or the tape is cleared after a recording
//! much larger than the recent ones; while same-size gradients keep their memory (no
//! allocation in steady state). A counting global allocator measures the bytes this
//! thread holds.

use fazang::prelude::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Delegates to the system allocator and keeps, per thread, the bytes allocated and not
/// yet freed, and the number of allocations (tests run on parallel threads; each counts
/// its own, and the tape is per thread too).
struct Counting;

thread_local! {
    // `const` and without destructor: using them never allocates.
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
}

fn add(bytes: isize, allocs: usize) {
    // During thread teardown the counters may be gone; nothing to count then.
    let _ = LIVE.try_with(|c| c.set(c.get() + bytes));
    let _ = ALLOCS.try_with(|c| c.set(c.get() + allocs));
}

// SAFETY: every method forwards its arguments unchanged to `System`, which upholds the
// `GlobalAlloc` contract; counting touches only thread-local `Cell`s and never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        add(layout.size() as isize, 1);
        // SAFETY: the caller's guarantees for `layout` are passed on as they are.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        add(layout.size() as isize, 1);
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        add(new_size as isize - layout.size() as isize, 1);
        // SAFETY: `ptr` was allocated by `System` (through this allocator) with `layout`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        add(-(layout.size() as isize), 0);
        // SAFETY: `ptr` was allocated by `System` (through this allocator) with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Bytes this thread holds now.
fn live() -> isize {
    LIVE.with(Cell::get)
}

/// Allocations made by `f` on this thread.
fn allocations(f: impl FnOnce()) -> usize {
    let before = ALLOCS.with(Cell::get);
    f();
    ALLOCS.with(Cell::get) - before
}

/// Inputs and gradient buffer for [`chain`], allocated once.
struct Buffers {
    x: Vec<f64>,
    g: Vec<f64>,
}

impl Buffers {
    fn new() -> Buffers {
        let n = LARGE / 2;
        Buffers {
            x: (0..n).map(|i| 1.0 + (i % 7) as f64).collect(),
            g: vec![0.0; n],
        }
    }
}

/// A gradient that records about `n` nodes: Σ xᵢ x_{i+1}, with `n / 2` inputs.
fn chain(n: usize, b: &mut Buffers) -> f64 {
    gradient_into(
        |x| (0..x.len() - 1).map(|i| x[i] * x[i + 1]).sum(),
        &b.x[..n / 2],
        &mut b.g[..n / 2],
    )
}

const MB: isize = 1 << 20;

/// Nodes of the large gradients: about 1e6 nodes, 1.5e6 records, 30 MB with their
/// adjoints and buffers (the policy's floor is 65536 records).
const LARGE: usize = 1_000_000;

#[test]
fn release_tape_memory_gives_back_a_large_tape() {
    std::thread::spawn(|| {
        let mut g = Buffers::new();
        chain(1000, &mut g);
        let base = live();
        chain(LARGE, &mut g);
        release_tape_memory();
        let x = Var::new(1.0);
        let y = x * x;
        release_tape_memory();
        // What stays: what is recorded (two nodes) and the small arrays.
        assert!(live() - base < MB / 16, "{} bytes kept", live() - base);
        assert!(tape_reserved_bytes() < 1000, "{}", tape_reserved_bytes());
        y.grad();
        assert_eq!(x.adj(), 2.0);
    })
    .join()
    .unwrap();
}

#[test]
fn the_policy_gives_back_memory_after_an_unusually_large_gradient() {
    std::thread::spawn(|| {
        let mut g = Buffers::new();
        for _ in 0..10 {
            chain(2000, &mut g);
        }
        let base = live();
        // The large gradient: its memory is given back when its scope ends, down to the
        // policy's floor (2 · 65536 records and adjoints: about 2.6 MB).
        chain(LARGE, &mut g);
        let kept = live() - base;
        assert!(kept < 3 * MB, "{kept} bytes kept after the large gradient");
        assert!(tape_reserved_bytes() < 3 * MB as usize);
        // Small gradients afterwards allocate nothing.
        assert_eq!(
            allocations(|| {
                chain(2000, &mut g);
            }),
            0
        );
        // Large gradients in a row keep their memory: the second one grows the tape
        // again, the third one allocates nothing.
        chain(LARGE, &mut g);
        assert_eq!(
            allocations(|| {
                chain(LARGE, &mut g);
            }),
            0
        );
        assert!(live() - base > 20 * MB);
    })
    .join()
    .unwrap();
}

#[test]
fn clear_tape_gives_back_a_large_top_level_recording() {
    std::thread::spawn(|| {
        let base = live();
        let x = Var::new(1.5);
        let mut acc = x;
        for _ in 0..1_000_000 {
            acc *= 1.0000001;
        }
        acc.grad();
        assert!(x.adj() > 1.0);
        // 1e6 nodes of one record: 12 MB of records, 8 MB of adjoints.
        assert!(live() - base > 15 * MB);
        clear_tape();
        let kept = live() - base;
        assert!(kept < 3 * MB, "{kept} bytes kept after clear_tape");
    })
    .join()
    .unwrap();
}
