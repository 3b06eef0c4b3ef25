//! A thread's tape gives its memory back when the thread exits. The tape lives in a
//! thread-local without a destructor of its own (so that reaching it costs no state
//! check); a companion thread-local registered on first use frees it. One test in this
//! file: it counts live bytes process-wide.

use fazang::prelude::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

/// The system allocator, counting live bytes.
struct Live;

static LIVE: AtomicIsize = AtomicIsize::new(0);

// SAFETY: every method forwards its arguments unchanged to `System`, which upholds the
// `GlobalAlloc` contract; the counter is an atomic and never allocates.
unsafe impl GlobalAlloc for Live {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: the caller's guarantees for `layout` are passed on as they are.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: `ptr` was allocated by `System` (through this allocator) with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(
            new_size as isize - layout.size() as isize,
            Ordering::Relaxed,
        );
        // SAFETY: `ptr` was allocated by `System` (through this allocator) with `layout`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Live = Live;

fn spawn_and_join(f: impl FnOnce() + Send + 'static) {
    std::thread::spawn(f).join().expect("the thread ran");
}

#[test]
fn a_threads_tape_is_freed_when_the_thread_exits() {
    // Whatever spawning a thread keeps (the runtime's own bookkeeping) is paid once here.
    spawn_and_join(|| ());
    let before = LIVE.load(Ordering::Relaxed);
    spawn_and_join(|| {
        // About 5 MB of tape: records, adjoints, inputs, the Jacobian's block.
        let x: Vec<f64> = (0..100_000).map(|i| i as f64 * 1e-5).collect();
        let (_, g) = gradient(|x| x.iter().map(|&v| v * v).sum(), &x);
        assert_eq!(g[1], 2e-5);
        let (_, j) = jacobian(|x| vec![x[0] * x[1], x[2].sin()], &x[..3]);
        assert_eq!(j[0][1], 0.0);
        let y = Var::new(2.0) * 3.0;
        y.grad();
    });
    let leaked = LIVE.load(Ordering::Relaxed) - before;
    assert!(
        leaked < 64 * 1024,
        "{leaked} bytes still live after the thread exited"
    );
}
