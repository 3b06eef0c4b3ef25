//! Second-order and sparse workloads of issue 21, written as users write them. With the
//! `sparse` feature the functions whose Hessian or Jacobian is sparse carry
//! `#[differentiate(sparse)]` (DESIGN.md, "Sparse derivatives"), which adds
//! `name_hessian_sparse` / `name_jacobian_sparse`; without it, plain `#[differentiate]`.

use fazang::prelude::*;

/// Σ_{i<j} ln cosh(xᵢ - xⱼ) + ½ Σ xᵢ²: every input meets every other (a dense Hessian).
#[differentiate]
pub fn log_cosh_pairs(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for (i, xi) in x.iter().enumerate() {
        for xj in &x[i + 1..] {
            s += (xi - xj).cosh().ln();
        }
    }
    s + 0.5 * x.iter().map(|v| v * v).sum::<f64>()
}

/// A 6-input closed form: sin(a b + c) + d e^(e - f) + ln(1 + a² + f²).
#[differentiate]
pub fn six_closed(p: [f64; 6]) -> f64 {
    let [a, b, c, d, e, f] = p;
    (a * b + c).sin() + d * (e - f).exp() + (1.0 + a * a + f * f).ln()
}

/// The extended (chained) Rosenbrock function over consecutive pairs,
/// Σ 100 (xᵢ₊₁ - xᵢ²)² + (1 - xᵢ)²: a tridiagonal Hessian.
#[cfg_attr(feature = "sparse", differentiate(sparse))]
#[cfg_attr(not(feature = "sparse"), differentiate)]
pub fn ext_rosenbrock(x: &[f64]) -> f64 {
    x.windows(2)
        .map(|w| 100.0 * (w[1] - w[0] * w[0]).powi(2) + (1.0 - w[0]).powi(2))
        .sum()
}

/// The residual of the 1-D Bratu problem u'' + λ eᵘ = 0 on (0, 1), u(0) = u(1) = 0,
/// by central differences on `u.len()` interior points: a tridiagonal Jacobian.
#[cfg_attr(feature = "sparse", differentiate(sparse, wrt(u)))]
#[cfg_attr(not(feature = "sparse"), differentiate(wrt(u)))]
pub fn bratu(u: &[f64], lambda: f64) -> Vec<f64> {
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
