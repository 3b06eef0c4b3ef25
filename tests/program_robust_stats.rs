//! Robust summary statistics of a sample, every sample value active: sorting active values
//! (`partial_cmp`, `total_cmp`, and `f64::total_cmp` passed as a function), counting the
//! trimmed part with `let n = xs.len() as f64; let k = (0.1 * n).ceil() as usize;`,
//! `match` on `n % 2`, `clamp` with active bounds (the order statistics).
//!
//! Closed forms (no ties in the data): the trimmed mean has weight 1/(n − 2k) on each kept
//! value; the median picks its element(s); the winsorized variance sends each value's
//! 2(wᵢ − w̄)/(n − 1) to the element it was clamped to.
#![allow(clippy::needless_range_loop)]
use fazang::prelude::*;

mod program_support;
use program_support::*;

/// Mean after dropping the lowest and highest 10 %.
#[differentiate]
fn trimmed_mean(xs: &[f64]) -> f64 {
    let mut sorted = xs.to_vec();
    sorted.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = xs.len() as f64;
    let k = (0.1 * n).ceil() as usize;
    let kept = &sorted[k..xs.len() - k];
    kept.iter().sum::<f64>() / kept.len() as f64
}

#[differentiate]
fn median(xs: &[f64]) -> f64 {
    let mut s = xs.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len();
    match n % 2 {
        1 => s[n / 2],
        _ => 0.5 * (s[n / 2 - 1] + s[n / 2]),
    }
}

/// Sample variance after clamping to the 10 % and 90 % order statistics.
#[differentiate]
fn winsorized_variance(xs: &[f64]) -> f64 {
    let mut s = xs.to_vec();
    s.sort_by(|a, b| a.total_cmp(b));
    let n = xs.len();
    let k = (0.1 * n as f64).ceil() as usize;
    let (lo, hi) = (s[k], s[n - 1 - k]);
    let w: Vec<f64> = xs.iter().map(|x| x.clamp(lo, hi)).collect();
    let mean = w.iter().sum::<f64>() / n as f64;
    w.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64
}

/// Median absolute deviation, scaled to estimate a normal standard deviation.
#[differentiate]
fn mad(xs: &[f64]) -> f64 {
    let m = median(xs);
    let dev: Vec<f64> = xs.iter().map(|x| (x - m).abs()).collect();
    1.4826 * median(&dev)
}

/// The same code without the attributes.
mod plain {
    pub fn trimmed_mean(xs: &[f64]) -> f64 {
        let mut sorted = xs.to_vec();
        sorted.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let n = xs.len() as f64;
        let k = (0.1 * n).ceil() as usize;
        let kept = &sorted[k..xs.len() - k];
        kept.iter().sum::<f64>() / kept.len() as f64
    }

    pub fn median(xs: &[f64]) -> f64 {
        let mut s = xs.to_vec();
        s.sort_by(f64::total_cmp);
        let n = s.len();
        match n % 2 {
            1 => s[n / 2],
            _ => 0.5 * (s[n / 2 - 1] + s[n / 2]),
        }
    }

    pub fn winsorized_variance(xs: &[f64]) -> f64 {
        let mut s = xs.to_vec();
        s.sort_by(|a, b| a.total_cmp(b));
        let n = xs.len();
        let k = (0.1 * n as f64).ceil() as usize;
        let (lo, hi) = (s[k], s[n - 1 - k]);
        let w: Vec<f64> = xs.iter().map(|x| x.clamp(lo, hi)).collect();
        let mean = w.iter().sum::<f64>() / n as f64;
        w.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64
    }

    pub fn mad(xs: &[f64]) -> f64 {
        let m = median(xs);
        let dev: Vec<f64> = xs.iter().map(|x| (x - m).abs()).collect();
        1.4826 * median(&dev)
    }
}

/// Normal data with a few gross outliers; `n` values.
fn sample(n: usize, seed: u64) -> Vec<f64> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|i| 10.0 + 2.0 * rng.normal() + if i % 9 == 4 { 25.0 } else { 0.0 })
        .collect()
}

/// Positions of the values in ascending order.
fn ranks(xs: &[f64]) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..xs.len()).collect();
    idx.sort_by(|&a, &b| xs[a].total_cmp(&xs[b]));
    idx
}

#[test]
fn primal_is_the_plain_code() {
    for (n, seed) in [(25, 1), (30, 2)] {
        let xs = sample(n, seed);
        assert_same_bits(trimmed_mean(&xs), plain::trimmed_mean(&xs), "trimmed mean");
        assert_same_bits(median(&xs), plain::median(&xs), "median");
        assert_same_bits(
            winsorized_variance(&xs),
            plain::winsorized_variance(&xs),
            "winsorized",
        );
        assert_same_bits(mad(&xs), plain::mad(&xs), "mad");
    }
}

#[test]
fn trimmed_mean_gradient_weights_the_kept_values() {
    let xs = sample(25, 1);
    let (v, g) = trimmed_mean_grad(&xs);
    assert_close(v, plain::trimmed_mean(&xs), 1e-15, "value");
    let order = ranks(&xs);
    let k = 3; // ceil(2.5)
    let mut want = vec![0.0; 25];
    for &i in &order[k..25 - k] {
        want[i] = 1.0 / 19.0;
    }
    assert_all_close(&g, &want, 1e-8, "closed form");
}

#[test]
fn median_gradient_picks_the_middle() {
    for (n, seed) in [(25, 1), (30, 2)] {
        let xs = sample(n, seed);
        let (v, g) = median_grad(&xs);
        assert_close(v, plain::median(&xs), 1e-15, "value");
        let order = ranks(&xs);
        let mut want = vec![0.0; n];
        if n % 2 == 1 {
            want[order[n / 2]] = 1.0;
        } else {
            want[order[n / 2 - 1]] = 0.5;
            want[order[n / 2]] = 0.5;
        }
        assert_all_close(&g, &want, 1e-8, "closed form");
    }
}

#[test]
fn winsorized_variance_gradient_matches_closed_form() {
    let xs = sample(30, 2);
    let n = xs.len();
    let (v, g) = winsorized_variance_grad(&xs);
    assert_close(v, plain::winsorized_variance(&xs), 1e-14, "value");
    let order = ranks(&xs);
    let k = 3;
    let (i_lo, i_hi) = (order[k], order[n - 1 - k]);
    let (lo, hi) = (xs[i_lo], xs[i_hi]);
    let w: Vec<f64> = xs.iter().map(|x| x.clamp(lo, hi)).collect();
    let mean = w.iter().sum::<f64>() / n as f64;
    let mut want = vec![0.0; n];
    for i in 0..n {
        let target = if xs[i] < lo {
            i_lo
        } else if xs[i] > hi {
            i_hi
        } else {
            i
        };
        want[target] += 2.0 * (w[i] - mean) / (n - 1) as f64;
    }
    assert_all_close(&g, &want, 1e-8, "closed form");
}

#[test]
fn gradients_match_finite_differences() {
    // Steps far below the smallest gap between sample values keep the sort order.
    let xs = sample(25, 1);
    let fd = |f: fn(&[f64]) -> f64| fd_gradient_step(f, &xs, 1e-7);
    let cases = [
        (
            "trimmed mean",
            trimmed_mean_grad(&xs).1,
            fd(plain::trimmed_mean),
        ),
        ("median", median_grad(&xs).1, fd(plain::median)),
        (
            "winsorized variance",
            winsorized_variance_grad(&xs).1,
            fd(plain::winsorized_variance),
        ),
        ("mad", mad_grad(&xs).1, fd(plain::mad)),
    ];
    for (what, g, want) in &cases {
        assert_all_close(g, want, 1e-6, what);
    }
}
