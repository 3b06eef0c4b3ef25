//! Newton's method on a sparse problem: the 1-D Bratu equation u'' + λ eᵘ = 0 on (0, 1),
//! u(0) = u(1) = 0, by central differences on n interior points.
//!
//! The residual F(u) is written once, as plain `f64` code. `#[differentiate(sparse)]`
//! gives `bratu_jacobian_sparse`: F and its Jacobian as `(row, column, value)` triplets.
//! The Jacobian is tridiagonal, so its pattern takes three colours and every Jacobian
//! costs a few evaluations on three dual-number lanes, whatever n (the dense
//! `bratu_jacobian` would cost n/8 sweeps and n² numbers). Each Newton step solves the
//! tridiagonal system J δ = -F by Thomas' algorithm.
//!
//! The discrete solution is compared with the exact one,
//! u(x) = -2 ln(cosh((x - ½) θ/2) / cosh(θ/4)) with θ = √(2λ) cosh(θ/4).
//!
//! Run with `cargo run --release --example newton_sparse`.

use fazang::prelude::*;

/// The residual of the discretised Bratu equation at the interior values `u`.
#[differentiate(sparse, wrt(u))]
fn bratu(u: &[f64], lambda: f64) -> Vec<f64> {
    let n = u.len();
    let h = 1.0 / (n + 1) as f64;
    (0..n)
        .map(|i| {
            let left = if i > 0 { u[i - 1] } else { 0.0 };
            let right = if i + 1 < n { u[i + 1] } else { 0.0 };
            (left - 2.0 * u[i] + right) / (h * h) + lambda * u[i].exp()
        })
        .collect()
}

/// Solves `J x = b` for a tridiagonal `J` given as triplets (Thomas' algorithm: Gaussian
/// elimination without pivoting, fine for this diagonally dominant Jacobian).
fn solve_tridiagonal(jac: &[(usize, usize, f64)], b: &[f64]) -> Vec<f64> {
    let n = b.len();
    let (mut sub, mut diag, mut sup) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    for &(i, j, v) in jac {
        match j as isize - i as isize {
            -1 => sub[i] = v,
            0 => diag[i] = v,
            1 => sup[i] = v,
            _ => panic!("entry ({i}, {j}) is outside the three diagonals"),
        }
    }
    let mut rhs = b.to_vec();
    for i in 1..n {
        let m = sub[i] / diag[i - 1];
        diag[i] -= m * sup[i - 1];
        rhs[i] -= m * rhs[i - 1];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let next = if i + 1 < n { sup[i] * x[i + 1] } else { 0.0 };
        x[i] = (rhs[i] - next) / diag[i];
    }
    x
}

/// The exact solution at `x` (the lower branch, for λ below the fold at ≈ 3.51).
fn exact(x: f64, lambda: f64) -> f64 {
    let mut theta = 1.0;
    for _ in 0..200 {
        theta = (2.0 * lambda).sqrt() * (theta / 4.0).cosh();
    }
    -2.0 * ((((x - 0.5) * theta / 2.0).cosh()) / (theta / 4.0).cosh()).ln()
}

fn main() {
    let (n, lambda) = (1000, 1.0);
    let mut u = vec![0.0; n];
    for iteration in 0..20 {
        let (f, jac) = bratu_jacobian_sparse(&u, lambda);
        let norm = f.iter().map(|r| r * r).sum::<f64>().sqrt();
        println!(
            "iteration {iteration}: |F(u)| = {norm:.3e} ({} Jacobian entries of {})",
            jac.len(),
            n * n
        );
        if norm < 1e-8 {
            break;
        }
        let minus_f: Vec<f64> = f.iter().map(|r| -r).collect();
        let step = solve_tridiagonal(&jac, &minus_f);
        u.iter_mut().zip(&step).for_each(|(ui, d)| *ui += d);
    }
    let h = 1.0 / (n + 1) as f64;
    let error = u
        .iter()
        .enumerate()
        .map(|(i, ui)| (ui - exact((i + 1) as f64 * h, lambda)).abs())
        .fold(0.0, f64::max);
    println!(
        "u(1/2) = {:.8}; largest error against the exact solution: {error:.2e} (O(h²) = {:.1e})",
        u[n / 2],
        h * h
    );
    assert!(error < 1e-5, "Newton did not reach the discrete solution");
}
