//! `name_jacobian` chooses by shape: rows by adjoint code (one reverse sweep per output)
//! when there are at least as many inputs as outputs, columns by tangent code (8 inputs
//! per pass on dual numbers) when there are fewer. Both against central differences and
//! the tape's Jacobian, with passes that end inside a lane block (10 inputs: 8 + 2).

mod body_support;
use body_support::assert_close;
use fazang::prelude::*;

/// Polar coordinates and the squared radius: 2 inputs, 3 outputs (columns).
#[differentiate]
fn polar(r: f64, theta: f64) -> [f64; 3] {
    [r * theta.cos(), r * theta.sin(), r * r]
}

/// A bank of sinusoidal features of `x`: `k` outputs.
#[differentiate]
fn features(x: &[f64], k: usize) -> Vec<f64> {
    (0..k)
        .map(|j| {
            x.iter()
                .enumerate()
                .map(|(i, v)| (v * (i + j) as f64 * 0.3).sin())
                .sum::<f64>()
        })
        .collect()
}

fn fd_jacobian(f: impl Fn(&[f64]) -> Vec<f64>, x: &[f64]) -> Vec<Vec<f64>> {
    let h = 1e-6;
    let cols: Vec<Vec<f64>> = (0..x.len())
        .map(|j| {
            let (mut a, mut b) = (x.to_vec(), x.to_vec());
            a[j] += h;
            b[j] -= h;
            f(&a)
                .iter()
                .zip(f(&b))
                .map(|(p, q)| (p - q) / (2.0 * h))
                .collect()
        })
        .collect();
    (0..cols[0].len())
        .map(|i| cols.iter().map(|c| c[i]).collect())
        .collect()
}

fn check(x: &[f64], k: usize) {
    let (v, jac) = features_jacobian(x, k);
    assert_eq!(v, features(x, k));
    assert_eq!(jac.len(), k);
    let fd = fd_jacobian(|x| features(x, k), x);
    let (_, tape) = jacobian(|x| features(x, k), x);
    for ((row, f), t) in jac.iter().zip(&fd).zip(&tape) {
        assert_close(row, f, 1e-7);
        assert_close(row, t, 1e-13);
    }
}

#[test]
fn columns_when_inputs_are_fewer() {
    let (v, jac) = polar_jacobian(2.0, 0.5);
    assert_eq!(v, polar(2.0, 0.5));
    let (c, s) = (0.5f64.cos(), 0.5f64.sin());
    let want = [[c, -2.0 * s], [s, 2.0 * c], [4.0, 0.0]];
    for (row, w) in jac.iter().zip(want) {
        assert_close(row, &w, 1e-15);
    }
    let x: Vec<f64> = (0..10).map(|i| 0.1 * i as f64 - 0.3).collect();
    check(&x, 12); // 10 inputs, 12 outputs: two column passes (8 + 2)
    check(&x[..3], 4);
}

#[test]
fn rows_when_outputs_are_fewer_or_equal() {
    let x: Vec<f64> = (0..10).map(|i| 0.1 * i as f64 - 0.3).collect();
    check(&x, 3);
    check(&x, 10);
    check(&x[..1], 1);
}
