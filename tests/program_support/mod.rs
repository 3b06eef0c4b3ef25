//! Test support for the realistic programs (`tests/program_*.rs`, and those waiting in
//! `tests/programs/`): independent derivatives by finite differences, tolerant
//! comparisons, and small deterministic pseudo-random data.
//!
//! The finite differences are Richardson-extrapolated central differences (steps h, h/2,
//! h/4; error O(h⁶)). Each estimate checks itself: if the O(h⁴) and O(h⁶) estimates
//! disagree, the function is not smooth within the stencil (a branch, a sort order or a
//! loop count changes there) and the helper panics saying so, instead of handing a wrong
//! reference to the test. A failure of a comparison against these references is therefore
//! a wrong derivative, not a bad step.
#![allow(dead_code)]

#[path = "../support/close.rs"]
mod close;
#[allow(unused_imports)]
pub use close::{assert_all_close, assert_close};

/// Relative step used by [`fd_gradient`] and [`fd_jacobian`]: h = 1e-3·max(1, |x|).
pub const FD_STEP: f64 = 1e-3;

/// How far the O(h⁴) and O(h⁶) estimates may differ, relative to max(1, |estimate|),
/// before the function counts as not smooth at the point.
const FD_SELF_CHECK: f64 = 1e-7;

/// d/dt of a vector-valued `f` at `t`, by Richardson extrapolation of central differences
/// with steps h, h/2, h/4. Panics if the extrapolation does not settle (see the module doc).
pub fn fd_derivative_vec(f: impl Fn(f64) -> Vec<f64>, t: f64, h: f64) -> Vec<f64> {
    // Central difference over the representable step actually taken.
    let central = |h: f64| -> Vec<f64> {
        let (hi, lo) = (t + h, t - h);
        let (fp, fm) = (f(hi), f(lo));
        assert_eq!(
            fp.len(),
            fm.len(),
            "finite differences: output length changed"
        );
        fp.iter()
            .zip(&fm)
            .map(|(p, m)| (p - m) / (hi - lo))
            .collect()
    };
    let (d1, d2, d3) = (central(h), central(h / 2.0), central(h / 4.0));
    (0..d1.len())
        .map(|i| {
            let r1 = (4.0 * d2[i] - d1[i]) / 3.0; // O(h⁴)
            let r2 = (4.0 * d3[i] - d2[i]) / 3.0; // O(h⁴), smaller step
            let r = (16.0 * r2 - r1) / 15.0; // O(h⁶)
            let spread = (r - r2).abs();
            assert!(
                r.is_finite() && spread <= FD_SELF_CHECK * r.abs().max(1.0),
                "finite differences unreliable at t = {t} (step {h}), output {i}: \
                 estimates {:e}, {r2:e}, {r:e} disagree; a branch, sort order or loop \
                 count changes within the step, so choose a point away from it or a \
                 smaller step (fd_gradient_step)",
                d3[i]
            );
            r
        })
        .collect()
}

/// d/dt of a scalar `f` at `t` (see [`fd_derivative_vec`]).
pub fn fd_derivative(f: impl Fn(f64) -> f64, t: f64, h: f64) -> f64 {
    fd_derivative_vec(|t| vec![f(t)], t, h)[0]
}

/// Gradient of `f` at `x`, coordinate by coordinate, relative step `rel`:
/// h = rel·max(1, |xᵢ|).
pub fn fd_gradient_step(f: impl Fn(&[f64]) -> f64, x: &[f64], rel: f64) -> Vec<f64> {
    fd_jacobian_step(|v| vec![f(v)], x, rel)
        .into_iter()
        .next()
        .expect("one output")
}

/// Gradient of `f` at `x` with the default step [`FD_STEP`].
pub fn fd_gradient(f: impl Fn(&[f64]) -> f64, x: &[f64]) -> Vec<f64> {
    fd_gradient_step(f, x, FD_STEP)
}

/// Jacobian rows `jac[i][j] = d f_i / d x_j` of `f` at `x`, relative step `rel`.
pub fn fd_jacobian_step(f: impl Fn(&[f64]) -> Vec<f64>, x: &[f64], rel: f64) -> Vec<Vec<f64>> {
    let columns: Vec<Vec<f64>> = (0..x.len())
        .map(|j| {
            let h = rel * x[j].abs().max(1.0);
            fd_derivative_vec(
                |t| {
                    let mut y = x.to_vec();
                    y[j] = t;
                    f(&y)
                },
                x[j],
                h,
            )
        })
        .collect();
    let m = f(x).len();
    (0..m)
        .map(|i| columns.iter().map(|c| c[i]).collect())
        .collect()
}

/// Jacobian of `f` at `x` with the default step [`FD_STEP`].
pub fn fd_jacobian(f: impl Fn(&[f64]) -> Vec<f64>, x: &[f64]) -> Vec<Vec<f64>> {
    fd_jacobian_step(f, x, FD_STEP)
}

/// Elementwise [`assert_close`] of Jacobian rows.
#[track_caller]
pub fn assert_rows_close(actual: &[Vec<f64>], expected: &[Vec<f64>], tol: f64, what: &str) {
    assert_eq!(
        actual.len(),
        expected.len(),
        "{what}: number of rows differs"
    );
    for (i, (a, e)) in actual.iter().zip(expected).enumerate() {
        assert_all_close(a, e, tol, &format!("{what} row {i}"));
    }
}

/// Bitwise equality of two results (the primal under `#[differentiate]` against the same
/// code without it).
#[track_caller]
pub fn assert_same_bits(actual: f64, expected: f64, what: &str) {
    assert!(
        actual.to_bits() == expected.to_bits(),
        "{what}: {actual:e} is not bit-identical to {expected:e}"
    );
}

/// [`assert_same_bits`] elementwise.
#[track_caller]
pub fn assert_all_same_bits(actual: &[f64], expected: &[f64], what: &str) {
    assert_eq!(actual.len(), expected.len(), "{what}: lengths differ");
    for (i, (&a, &e)) in actual.iter().zip(expected).enumerate() {
        assert_same_bits(a, e, &format!("{what}[{i}]"));
    }
}

/// A small deterministic generator (SplitMix64) for test data.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform on [0, 1).
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform on [lo, hi).
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.uniform()
    }

    /// Standard normal (Box-Muller).
    pub fn normal(&mut self) -> f64 {
        let u1 = 1.0 - self.uniform(); // in (0, 1]
        let u2 = self.uniform();
        (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
    }

    /// Uniform on 0..n.
    pub fn below(&mut self, n: usize) -> usize {
        (self.uniform() * n as f64) as usize
    }
}
