//! Jacobians with `#[differentiate]`: a function returning `Vec<f64>` or `[f64; M]` gets
//! `name_jacobian`, returning the values and the rows d out_i / d input_j.
use fazang::prelude::*;

/// Softmax of a vector.
#[differentiate]
fn softmax(x: &[f64]) -> Vec<f64> {
    let m = x.iter().fold(f64::NEG_INFINITY, |a, &b| a.max(b));
    let e: Vec<f64> = x.iter().map(|v| (*v - m).exp()).collect();
    let z: f64 = e.iter().sum();
    e.iter().map(|v| *v / z).collect()
}

/// Polar to Cartesian coordinates.
#[differentiate]
fn polar(r: f64, theta: f64) -> [f64; 2] {
    [r * theta.cos(), r * theta.sin()]
}

fn main() {
    let x = [1.0, 2.0, 0.5];
    let (s, jac) = softmax_jacobian(&x);
    println!("softmax({x:?}) = {s:.4?}");
    for (i, row) in jac.iter().enumerate() {
        println!("  d s_{i} / dx = {row:.4?}");
    }

    let (p, jac) = polar_jacobian(2.0, std::f64::consts::FRAC_PI_6);
    println!("polar(2, pi/6) = {p:.4?}");
    println!(
        "  jacobian = {jac:.4?}   (det = r = {:.4})",
        jac[0][0] * jac[1][1] - jac[0][1] * jac[1][0]
    );

    // The runtime API gives the same through a closure over &[Var].
    let (_, jac2) = jacobian(
        |v| vec![v[0] * v[1].cos(), v[0] * v[1].sin()],
        &[2.0, std::f64::consts::FRAC_PI_6],
    );
    assert_eq!(jac, jac2);
}
