//! Steady state allocates nothing: a counting global allocator proves that a gradient,
//! once the thread's tape has grown to the size it needs, touches the heap only for what
//! the caller asked for (the `Vec` that `gradient` returns by contract, the rows of a
//! Jacobian), and not at all through `gradient_into`, `nested` or a scalar `_grad`.

use fazang::prelude::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Delegates to the system allocator and counts, per thread, every allocation and
/// reallocation (tests run on parallel threads; each counts its own).
struct Counting;

thread_local! {
    // `const` and without destructor: reading it never allocates.
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
}

fn count() {
    // During thread teardown the counter may be gone; nothing to count then.
    let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
}

// SAFETY: every method forwards its arguments unchanged to `System`, which upholds the
// `GlobalAlloc` contract; counting touches only a thread-local `Cell` and never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller's guarantees for `layout` are passed on as they are.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: `ptr` was allocated by `System` (through this allocator) with `layout`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` (through this allocator) with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Allocations made by `f` on this thread.
fn allocations(f: impl FnOnce()) -> usize {
    let before = ALLOCS.with(Cell::get);
    f();
    ALLOCS.with(Cell::get) - before
}

/// Runs `f` a few times to let the tape reach its size, then counts over 100 calls.
fn steady(mut f: impl FnMut()) -> usize {
    for _ in 0..3 {
        f();
    }
    allocations(|| {
        for _ in 0..100 {
            f();
        }
    })
}

fn rosenbrock(x: &[Var]) -> Var {
    (0..x.len() - 1)
        .map(|i| {
            let t = x[i + 1] - x[i] * x[i];
            let u = 1.0 - x[i];
            100.0 * t * t + u * u
        })
        .sum()
}

fn log_lik(beta: &[Var], x: &[f64], y: &[f64]) -> Var {
    x.chunks(beta.len())
        .zip(y)
        .map(|(row, &yi)| {
            let eta = dot_product(row, beta);
            yi * eta - eta.exp().ln_1p()
        })
        .sum()
}

#[differentiate]
fn normal_lp(mu: f64, sigma: f64) -> f64 {
    let y = 1.3;
    -0.5 * (2.0 * std::f64::consts::PI).ln() - sigma.ln() - 0.5 * ((y - mu) / sigma).powi(2)
}

#[test]
fn gradient_into_allocates_nothing_in_steady_state() {
    // Many inputs (the driver's reusable input buffer) and a long Sum (its gather buffer).
    let x: Vec<f64> = (0..1000).map(|i| (i as f64 * 0.37).sin()).collect();
    let mut g = vec![0.0; x.len()];
    assert_eq!(steady(|| _ = gradient_into(rosenbrock, &x, &mut g)), 0);
    // Few inputs (kept on the stack), dot products, elementary functions.
    let (rows, k) = (200, 10);
    let data: Vec<f64> = (0..rows * k).map(|i| (i as f64 * 0.11).cos()).collect();
    let y: Vec<f64> = (0..rows).map(|i| (i % 2) as f64).collect();
    let beta = vec![0.1; k];
    let mut gb = vec![0.0; k];
    let f = |b: &[Var]| log_lik(b, &data, &y);
    assert_eq!(steady(|| _ = gradient_into(f, &beta, &mut gb)), 0);
}

#[test]
fn scalar_grad_and_nested_allocate_nothing() {
    assert_eq!(steady(|| _ = normal_lp_grad(0.4, 1.3)), 0);
    let n = steady(|| {
        nested(|| {
            let x = Var::new(0.5);
            let y = x.sin() * x + x.exp();
            y.grad();
            x.adj()
        });
    });
    assert_eq!(n, 0);
}

#[test]
fn gradient_allocates_only_the_vec_it_returns() {
    let x = [0.5, -1.5, 2.0];
    assert_eq!(steady(|| _ = gradient(rosenbrock, &x)), 100);
}

#[test]
fn jacobian_allocates_only_its_result() {
    // The closure's Vec of outputs, the values, the Vec of rows and one Vec per row.
    let x = [0.5, -1.5, 2.0];
    let f = |x: &[Var]| vec![x[0] * x[1], x[1].sin() + x[2], x[2].exp()];
    assert_eq!(steady(|| _ = jacobian(f, &x)), 100 * (3 + 3));
}

#[test]
fn a_gradient_leaves_the_tape_as_it_found_it() {
    let x = [0.5, -1.5, 2.0];
    let mut g = [0.0; 3];
    gradient_into(rosenbrock, &x, &mut g);
    let before = fazang::tape_stats();
    gradient_into(rosenbrock, &x, &mut g);
    assert_eq!(fazang::tape_stats(), before);
}

/// A `_grad_into` as `#[differentiate]` can expand it for slice parameters (see
/// tests/param_expansion.rs): pooled active slices, the gradient into the caller's buffer.
fn rosenbrock_grad_into(x: &[f64], g: &mut [f64]) -> f64 {
    let _scope = fazang::__private::scope();
    let mut inputs = fazang::param::Inputs::new();
    inputs.with_slice(x, |inputs, xv| {
        let out = rosenbrock(xv);
        fazang::__private::grad_in_scope(out);
        inputs.adjoints_into(g);
        out.val()
    })
}

#[test]
fn grad_into_through_param_allocates_nothing() {
    for n in [3, 1000] {
        let x: Vec<f64> = (0..n).map(|i| (i as f64 * 0.37).sin()).collect();
        let mut g = vec![0.0; n];
        let mut want = vec![0.0; n];
        gradient_into(rosenbrock, &x, &mut want);
        assert_eq!(
            steady(|| _ = rosenbrock_grad_into(&x, &mut g)),
            0,
            "n = {n}"
        );
        assert_eq!(g, want);
    }
}

/// A loop whose `_grad` is adjoint code (issue 10): its stacks come from the thread's
/// pool, its scalar adjoints live on the stack.
#[differentiate]
fn looped(x: f64, y: f64) -> f64 {
    let mut acc = 0.0;
    let mut t = x;
    for i in 0..20 {
        t = (t * y + i as f64).sin();
        acc += t * t;
    }
    acc
}

#[differentiate]
fn looped_slice(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        let d = x[i + 1] - x[i] * x[i];
        s += d * d;
    }
    s
}

#[test]
fn adjoint_code_allocates_only_the_gradient_it_returns() {
    // Scalars only: nothing at all (the saved values go to the pooled stacks).
    assert_eq!(
        steady(|| {
            std::hint::black_box(looped_grad(0.3, 0.7));
        }),
        0
    );
    // A slice: its gradient, by contract a `Vec`.
    let x = [0.1, 0.5, -0.3, 0.8];
    assert_eq!(steady(|| drop(looped_slice_grad(&x))), 100);
    // Into the caller's buffer: nothing.
    let mut g = [0.0; 4];
    assert_eq!(
        steady(|| {
            std::hint::black_box(looped_slice_grad_into(&x, &mut g));
        }),
        0
    );
}
