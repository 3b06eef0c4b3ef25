//! Finite differences for the body-language tests: the independent truth every gradient
//! is checked against.

#![allow(dead_code)]

/// Central differences with one Richardson step (error O(h⁴)) of `f` at `x`.
pub fn fd_grad(f: impl Fn(&[f64]) -> f64, x: &[f64]) -> Vec<f64> {
    (0..x.len())
        .map(|i| {
            let d = |h: f64| {
                let (mut a, mut b) = (x.to_vec(), x.to_vec());
                a[i] += h;
                b[i] -= h;
                (f(&a) - f(&b)) / (2.0 * h)
            };
            let h = 1e-3 * x[i].abs().max(1.0);
            (4.0 * d(h / 2.0) - d(h)) / 3.0
        })
        .collect()
}

/// Rows `d f_i / d x_j` by [`fd_grad`] of each output.
pub fn fd_jacobian(f: impl Fn(&[f64]) -> Vec<f64>, x: &[f64]) -> Vec<Vec<f64>> {
    let m = f(x).len();
    (0..m).map(|i| fd_grad(|v| f(v)[i], x)).collect()
}

/// `|a - b| <= tol * max(1, |b|)` elementwise, with a message naming the entry.
#[track_caller]
pub fn assert_close(a: &[f64], b: &[f64], tol: f64) {
    assert_eq!(a.len(), b.len(), "lengths differ: {a:?} vs {b:?}");
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        assert!(
            (x - y).abs() <= tol * y.abs().max(1.0),
            "entry {i}: {x} vs {y}\n  got  {a:?}\n  want {b:?}"
        );
    }
}
