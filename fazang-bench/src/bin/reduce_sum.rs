//! `reduce_sum` on more than one core: the gradient of a logistic regression log
//! likelihood over 10⁶ rows × 10 features, on rayon pools of 1 and 2 threads.
//!
//! `cargo run --release -p fazang-bench --bin reduce_sum`
//!
//! The gradient is computed the way `#[differentiate]`'s adjoint code does for a body
//! calling `reduce_sum`: the hidden `reduce_sum_grad` runs a per-chunk forward and
//! reverse sweep (written by hand here) on each chunk, in parallel, into per-chunk
//! buffers combined in a fixed order. Rows printed: the serial loop without chunks (the
//! floor), then `reduce_sum` (value only) and `reduce_sum_grad` (value and gradient) on 1
//! and 2 threads, each as the median of interleaved samples and as the fastest single
//! call (on a machine shared with other jobs, the call least disturbed by them), and the
//! ratios 2 threads / 1 thread. The same likelihood written as a user writes it, one
//! `#[differentiate]` function calling `reduce_sum` ([`loglik`]), is timed through its
//! `loglik_grad_into` on both pools too, and compared with the hand-written sweep.
//! Results are checked to be the same bits on both pools and
//! the gradient against the tape's before anything is timed.

use fazang::__private::reduce_sum_grad;
use fazang::prelude::*;
use fazang_bench::data::Rng;
use fazang_bench::report::fmt_time;
use fazang_bench::timer::median_times;
use std::time::Duration;

const ROWS: usize = 1_000_000;
const FEATURES: usize = 10;

/// One observation: its features and its 0/1 outcome.
struct Row {
    x: [f64; FEATURES],
    y: f64,
}

fn data() -> Vec<Row> {
    let mut rng = Rng::new(7);
    let beta: Vec<f64> = rng.vec(FEATURES, -0.5, 0.5);
    (0..ROWS)
        .map(|_| {
            let mut x = [0.0; FEATURES];
            x[0] = 1.0;
            for v in &mut x[1..] {
                *v = rng.normal();
            }
            let eta: f64 = x.iter().zip(&beta).map(|(a, b)| a * b).sum();
            let y = if rng.uniform() < eta.inv_logit() {
                1.0
            } else {
                0.0
            };
            Row { x, y }
        })
        .collect()
}

fn eta(beta: &[f64], x: &[f64; FEATURES]) -> f64 {
    x.iter().zip(beta).map(|(a, b)| a * b).sum()
}

/// The log likelihood of a chunk.
fn chunk_value(beta: &[f64], rows: &[Row]) -> f64 {
    rows.iter()
        .map(|r| {
            let e = eta(beta, &r.x);
            r.y * e - e.log1p_exp()
        })
        .sum()
}

/// Value and gradient of a chunk, by hand: d/dβ = Σ (y − σ(η)) x, accumulated in a
/// local array (of the size the compiler knows) and added to `g` once.
fn chunk_grad(beta: &[f64], rows: &[Row], g: &mut [f64]) -> f64 {
    let mut v = 0.0;
    let mut acc = [0.0; FEATURES];
    for r in rows {
        let e = eta(beta, &r.x);
        v += r.y * e - e.log1p_exp();
        let w = r.y - e.inv_logit();
        for (a, xj) in acc.iter_mut().zip(&r.x) {
            *a += w * xj;
        }
    }
    for (gj, a) in g.iter_mut().zip(&acc) {
        *gj += a;
    }
    v
}

/// The log likelihood as a user writes it: the macro's adjoint code differentiates the
/// closure's chunks in parallel.
#[differentiate(wrt(beta))]
fn loglik(beta: &[f64], rows: &[Row]) -> f64 {
    reduce_sum(rows, 0, |chunk: &[Row], _start: usize| {
        let mut lp = 0.0;
        for r in chunk {
            let mut eta = 0.0;
            for (x, b) in r.x.iter().zip(beta) {
                eta += x * b;
            }
            lp += r.y * eta - eta.log1p_exp();
        }
        lp
    })
}

fn pool(n: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .unwrap()
}

fn main() {
    let rows = data();
    let beta: Vec<f64> = (0..FEATURES)
        .map(|j| 0.1 * (j as f64 - 4.5) / 4.5)
        .collect();
    let (p1, p2) = (pool(1), pool(2));
    let grad_on = |p: &rayon::ThreadPool| {
        let mut g = vec![0.0; FEATURES];
        let v =
            p.install(|| reduce_sum_grad(&rows, 0, &mut g, |c, _, buf| chunk_grad(&beta, c, buf)));
        (v, g)
    };
    let macro_on = |p: &rayon::ThreadPool| {
        let mut g = vec![0.0; FEATURES];
        let v = p.install(|| loglik_grad_into(&beta, &rows, &mut g));
        (v, g)
    };
    let value_on = |p: &rayon::ThreadPool| {
        p.install(|| reduce_sum(&rows, 0, |c: &[Row], _| chunk_value(&beta, c)))
    };

    // Never time a wrong answer: the same bits on both pools, the tape's gradient.
    let (v1, g1) = grad_on(&p1);
    let (v2, g2) = grad_on(&p2);
    assert_eq!(v1.to_bits(), v2.to_bits());
    assert!(g1.iter().zip(&g2).all(|(a, b)| a.to_bits() == b.to_bits()));
    assert_eq!(value_on(&p1).to_bits(), v1.to_bits());
    assert_eq!(value_on(&p2).to_bits(), v1.to_bits());
    let (m1, mg1) = macro_on(&p1);
    let (m2, mg2) = macro_on(&p2);
    assert_eq!(m1.to_bits(), m2.to_bits());
    assert!(mg1
        .iter()
        .zip(&mg2)
        .all(|(a, b)| a.to_bits() == b.to_bits()));
    assert!((m1 - v1).abs() <= 1e-12 * v1.abs());
    for (a, b) in mg1.iter().zip(&g1) {
        assert!(
            (a - b).abs() <= 1e-10 * b.abs().max(1.0),
            "macro {a} vs hand {b}"
        );
    }
    let sample = &rows[..20_000];
    let (_, tape) = gradient(
        |b| {
            sample
                .iter()
                .map(|r| {
                    let e: Var = r.x.iter().zip(b).map(|(x, b)| *b * *x).sum();
                    e * r.y - e.log1p_exp()
                })
                .sum::<Var>()
        },
        &beta,
    );
    let mut g = vec![0.0; FEATURES];
    reduce_sum_grad(sample, 0, &mut g, |c, _, buf| chunk_grad(&beta, c, buf));
    for (a, b) in g.iter().zip(&tape) {
        assert!(
            (a - b).abs() <= 1e-10 * b.abs().max(1.0),
            "gradient {a} vs tape {b}"
        );
    }

    let mut serial = || chunk_value(&beta, &rows);
    let mut serial_grad = || {
        let mut g = vec![0.0; FEATURES];
        chunk_grad(&beta, &rows, &mut g) + g[0]
    };
    let mut val1 = || value_on(&p1);
    let mut val2 = || value_on(&p2);
    let mut grad1 = || grad_on(&p1).0;
    let mut grad2 = || grad_on(&p2).0;
    let mut macro1 = || macro_on(&p1).0;
    let mut macro2 = || macro_on(&p2).0;
    let mut runs: [&mut dyn FnMut() -> f64; 8] = [
        &mut serial,
        &mut serial_grad,
        &mut val1,
        &mut val2,
        &mut grad1,
        &mut grad2,
        &mut macro1,
        &mut macro2,
    ];
    let median = median_times(&mut runs, 15, Duration::from_millis(300));
    let fastest = fastest_times(&mut runs, 30);
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let load = load.split_whitespace().next().unwrap_or("?");
    println!(
        "logistic regression, {ROWS} rows x {FEATURES} features; machine: {cores} cores, \
         load average {load}"
    );
    println!("{:<44} {:>10} {:>10}", "", "median", "fastest");
    let names = [
        "serial loop, value (no chunks)",
        "serial loop, value + gradient (no chunks)",
        "reduce_sum value, 1 thread",
        "reduce_sum value, 2 threads",
        "reduce_sum_grad value + gradient, 1 thread",
        "reduce_sum_grad value + gradient, 2 threads",
        "#[differentiate] loglik_grad_into, 1 thread",
        "#[differentiate] loglik_grad_into, 2 threads",
    ];
    for ((n, m), f) in names.iter().zip(&median).zip(&fastest) {
        println!("{n:<44} {:>10} {:>10}", fmt_time(*m), fmt_time(*f));
    }
    let ratio = |t: &[f64], a: usize, b: usize| t[a] / t[b];
    for (what, a, b) in [
        ("value:    2 threads / 1 thread", 3, 2),
        ("gradient: 2 threads / 1 thread", 5, 4),
        ("gradient, 1 thread / serial loop", 4, 1),
        ("macro gradient: 2 threads / 1 thread", 7, 6),
        ("macro / hand-written, 1 thread", 6, 4),
        ("macro / hand-written, 2 threads", 7, 5),
    ] {
        println!(
            "{what:<34} {:>6.2} (medians) {:>6.2} (fastest)",
            ratio(&median, a, b),
            ratio(&fastest, a, b)
        );
    }
}

/// The fastest of `samples` calls of each variant, interleaved: on a machine shared with
/// other jobs, the run least disturbed by them (what two free cores give).
fn fastest_times(runs: &mut [&mut dyn FnMut() -> f64], samples: usize) -> Vec<f64> {
    let mut best = vec![f64::INFINITY; runs.len()];
    for _ in 0..samples {
        for (run, b) in runs.iter_mut().zip(&mut best) {
            let start = std::time::Instant::now();
            std::hint::black_box(run());
            *b = b.min(start.elapsed().as_secs_f64());
        }
    }
    best
}
