//! Threads: each has its own tape. Gradients on several threads at once are independent,
//! and a `Var` (which is `Send`) used on a thread other than its own panics there.

mod runtime_support;

use fazang::prelude::*;
use runtime_support::{assert_all_close, panic_message};
use std::sync::{Arc, Barrier};
use std::thread;

#[test]
fn var_is_send_and_16_bytes() {
    fn is_send<T: Send>() {}
    is_send::<Var>();
    assert_eq!(std::mem::size_of::<Var>(), 16);
}

#[test]
fn a_var_used_on_another_thread_panics_there() {
    let x = Var::new(1.5);
    let y = x * 2.0;
    let handle = thread::spawn(move || {
        // The value travels with the handle ...
        assert_eq!(y.val(), 3.0);
        // ... but the tape it points into does not.
        let err = std::panic::catch_unwind(|| y * y).expect_err("foreign Var in arithmetic");
        let msg = panic_message(&*err);
        let err = std::panic::catch_unwind(|| x.adj()).expect_err("foreign Var adjoint");
        (msg, panic_message(&*err))
    });
    let (m1, m2) = handle.join().expect("the spawned thread caught its panics");
    for m in [m1, m2] {
        assert!(m.contains("on another thread"), "{m}");
        assert!(m.contains("each thread has its own tape"), "{m}");
    }
    // The Vars still work on their own thread.
    y.grad();
    assert_eq!(x.adj(), 2.0);
}

#[test]
fn a_thread_does_not_see_another_threads_recordings() {
    let here = tape_stats();
    let there = thread::spawn(|| {
        let before = tape_stats();
        let x = Var::new(1.0);
        let _y = x.sin() + x;
        (before, tape_stats())
    })
    .join()
    .unwrap();
    assert_eq!(there.0.nodes, 0, "a new thread starts with an empty tape");
    assert_eq!(there.1.nodes, 3);
    assert_eq!(tape_stats(), here);
}

/// f(x) = Σ_i sin(k x_i) x_{i+1} + k ln(1 + x_i²), with a closed-form gradient.
fn f(x: &[Var], k: f64) -> Var {
    let mut acc = Var::from(0.0);
    for i in 0..x.len() {
        let next = x[(i + 1) % x.len()];
        acc += (x[i] * k).sin() * next + k * (1.0 + x[i] * x[i]).ln();
    }
    acc
}

fn f_grad(x: &[f64], k: f64) -> Vec<f64> {
    let n = x.len();
    (0..n)
        .map(|j| {
            let prev = (j + n - 1) % n;
            k * (k * x[j]).cos() * x[(j + 1) % n]
                + (k * x[prev]).sin()
                + k * 2.0 * x[j] / (1.0 + x[j] * x[j])
        })
        .collect()
}

#[test]
fn four_threads_computing_gradients_at_once() {
    let barrier = Arc::new(Barrier::new(4));
    let handles: Vec<_> = (0..4)
        .map(|t| {
            let barrier = Arc::clone(&barrier);
            thread::spawn(move || {
                let k = 1.0 + f64::from(t);
                barrier.wait(); // start together so the recordings overlap in time
                let mut worst = 0.0_f64;
                for round in 0..200 {
                    let x: Vec<f64> = (0..5).map(|i| 0.1 * f64::from(i + round + t)).collect();
                    let (_, g) = gradient(|v| f(v, k), &x);
                    let want = f_grad(&x, k);
                    assert_all_close(&g, &want, 1e-12, &format!("thread {t} round {round}"));
                    worst = worst.max(
                        g.iter()
                            .zip(&want)
                            .map(|(a, b)| (a - b).abs())
                            .fold(0.0, f64::max),
                    );
                    // Top-level recording on this thread's tape, too.
                    let v = Var::new(x[0]);
                    (v * k).grad();
                    assert_eq!(v.adj(), k);
                }
                (t, worst, tape_stats().depth)
            })
        })
        .collect();
    for h in handles {
        let (t, worst, depth) = h.join().expect("thread finished without panicking");
        assert!(worst < 1e-12, "thread {t}: worst error {worst:e}");
        assert_eq!(depth, 0, "thread {t}: every scope was closed");
    }
}
