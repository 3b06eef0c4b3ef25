//! The cost of a gradient through `multi_normal_cholesky_lpdf` against its value, for a
//! 50-dimensional model: `cargo run --release -p fazang-bench --bin multi_normal`.
//!
//! Rows: the value (`f64`, what a primal call costs), then gradients on the tape with
//! respect to the mean (50 parameters), the mean and the Cholesky factor (50 + 1275), and
//! the mean with 10 observations; each as a ratio to its own value. The gradients are
//! checked against central differences of the value before anything is timed.

use fazang::prelude::*;
use fazang_bench::data::Rng;
use fazang_bench::report::fmt_time;
use fazang_bench::timer::median_times;
use std::hint::black_box;
use std::time::Duration;

const K: usize = 50;

/// A well-conditioned Cholesky factor: diagonal in [1, 2], small entries below.
fn factor(rng: &mut Rng) -> Vec<Vec<f64>> {
    (0..K)
        .map(|i| {
            (0..K)
                .map(|j| match j.cmp(&i) {
                    std::cmp::Ordering::Less => rng.range(-0.1, 0.1),
                    std::cmp::Ordering::Equal => rng.range(1.0, 2.0),
                    std::cmp::Ordering::Greater => 0.0,
                })
                .collect()
        })
        .collect()
}

fn central(f: impl Fn(&[f64]) -> f64, x: &[f64], idx: &[usize]) -> Vec<f64> {
    idx.iter()
        .map(|&j| {
            let h = 1e-5 * x[j].abs().max(1.0);
            let (mut lo, mut hi) = (x.to_vec(), x.to_vec());
            lo[j] -= h;
            hi[j] += h;
            (f(&hi) - f(&lo)) / (2.0 * h)
        })
        .collect()
}

/// The factor's lower triangle (row by row) as rows of a matrix.
fn unpack<S: Real>(p: &[S]) -> Vec<Vec<S>> {
    let mut next = p.iter();
    (0..K)
        .map(|i| {
            (0..K)
                .map(|j| {
                    if j <= i {
                        *next.next().unwrap()
                    } else {
                        S::from(0.0)
                    }
                })
                .collect()
        })
        .collect()
}

fn main() {
    let mut rng = Rng::new(11);
    let l = factor(&mut rng);
    let y = rng.vec(K, -2.0, 2.0);
    let ys: Vec<Vec<f64>> = (0..10).map(|_| rng.vec(K, -2.0, 2.0)).collect();
    let mu = rng.vec(K, -0.5, 0.5);
    let lower: Vec<f64> = (0..K).flat_map(|i| l[i][..=i].to_vec()).collect();
    let both: Vec<f64> = mu.iter().chain(&lower).copied().collect();

    let value = |mu: &[f64]| multi_normal_cholesky_lpdf(&y, mu, &l).unwrap();
    let value_both = |p: &[f64]| multi_normal_cholesky_lpdf(&y, &p[..K], &unpack(&p[K..])).unwrap();
    let value_rows = |mu: &[f64]| multi_normal_cholesky_lpdf(&ys, mu, &l).unwrap();
    let grad = |mu: &[f64]| gradient(|m| multi_normal_cholesky_lpdf(&y, m, &l).unwrap(), mu);
    let grad_both = |p: &[f64]| {
        gradient(
            |p| multi_normal_cholesky_lpdf(&y, &p[..K], &unpack(&p[K..])).unwrap(),
            p,
        )
    };
    let grad_rows = |mu: &[f64]| gradient(|m| multi_normal_cholesky_lpdf(&ys, m, &l).unwrap(), mu);

    // Checked before timed.
    let idx: Vec<usize> = vec![0, 7, 49];
    let (_, g) = grad(&mu);
    for (a, b) in idx.iter().map(|&j| g[j]).zip(central(value, &mu, &idx)) {
        assert!((a - b).abs() < 1e-6 * b.abs().max(1.0), "{a} vs {b}");
    }
    let idx2: Vec<usize> = vec![3, K, K + 5, both.len() - 1];
    let (_, g) = grad_both(&both);
    for (a, b) in idx2
        .iter()
        .map(|&j| g[j])
        .zip(central(value_both, &both, &idx2))
    {
        assert!((a - b).abs() < 1e-6 * b.abs().max(1.0), "{a} vs {b}");
    }

    let mut v1 = || value(black_box(&mu));
    let mut g1 = || grad(black_box(&mu)).0;
    let mut v2 = || value_both(black_box(&both));
    let mut g2 = || grad_both(black_box(&both)).0;
    let mut v3 = || value_rows(black_box(&mu));
    let mut g3 = || grad_rows(black_box(&mu)).0;
    let t = median_times(
        &mut [&mut v1, &mut g1, &mut v2, &mut g2, &mut v3, &mut g3],
        21,
        Duration::from_millis(50),
    );
    println!("multi_normal_cholesky_lpdf, K = {K}");
    println!(
        "{:<36} {:>10} {:>10} {:>8}",
        "active", "value", "gradient", "ratio"
    );
    let rows = [
        "mu (50)",
        "mu and L (50 + 1275)",
        "mu, 10 observations (50)",
    ];
    for (i, name) in rows.iter().enumerate() {
        let (v, g) = (t[2 * i], t[2 * i + 1]);
        println!(
            "{name:<36} {:>10} {:>10} {:>8.2}",
            fmt_time(v),
            fmt_time(g),
            g / v
        );
    }
}
