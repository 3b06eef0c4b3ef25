//! A simple robust timer: the median over many samples, variants interleaved so that a
//! change of load on a shared machine hits every variant alike. Each sample starts with
//! one untimed call, so that every variant is timed with its own data in cache (not
//! after another variant's tens of megabytes have evicted them).

use std::hint::black_box;
use std::time::{Duration, Instant};

/// Seconds per `run` of each variant: the median of `samples` samples, each timing a
/// batch of calls sized to last about `batch` (at least one call).
pub fn median_times(
    runs: &mut [&mut dyn FnMut() -> f64],
    samples: usize,
    batch: Duration,
) -> Vec<f64> {
    sample_times(runs, samples, batch)
        .into_iter()
        .map(median)
        .collect()
}

/// Seconds per `run` of each variant, every sample: `times[variant][sample]`. Sample `i`
/// of every variant is taken in the same round, one variant after the other, so that
/// `times[a][i] / times[b][i]` pairs measurements taken close in time.
pub fn sample_times(
    runs: &mut [&mut dyn FnMut() -> f64],
    samples: usize,
    batch: Duration,
) -> Vec<Vec<f64>> {
    let reps: Vec<u32> = runs
        .iter_mut()
        .map(|r| calibrate(&mut **r, batch))
        .collect();
    let mut times = vec![Vec::with_capacity(samples); runs.len()];
    for _ in 0..samples {
        for ((run, &n), t) in runs.iter_mut().zip(&reps).zip(&mut times) {
            black_box(run());
            let start = Instant::now();
            for _ in 0..n {
                black_box(run());
            }
            t.push(start.elapsed().as_secs_f64() / f64::from(n));
        }
    }
    times
}

/// Calls per batch so that one batch lasts about `batch` (after a warm-up).
fn calibrate(run: &mut dyn FnMut() -> f64, batch: Duration) -> u32 {
    let start = Instant::now();
    let mut n = 0u32;
    while start.elapsed() < batch || n < 2 {
        black_box(run());
        n += 1;
    }
    let per = start.elapsed().as_secs_f64() / f64::from(n);
    ((batch.as_secs_f64() / per).round() as u32).max(1)
}

/// The median.
pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        0.5 * (v[n / 2 - 1] + v[n / 2])
    }
}
