//! The benchmark workloads as a fazang user writes them: plain `f64` functions with
//! `#[differentiate]`, which keeps them callable as before and adds `_grad` /
//! `_jacobian`; the generic body it makes also runs on `Var` for the runtime drivers
//! (`gradient_into(|x| rosenbrock::<Var>(x), ..)`).

#![forbid(unsafe_code)]

use fazang::prelude::*;

/// Rosenbrock's function: Σ_{i<n-1} 100 (x_{i+1} - x_i²)² + (1 - x_i)².
#[differentiate]
pub fn rosenbrock(x: &[f64]) -> f64 {
    (0..x.len() - 1)
        .map(|i| {
            let t = x[i + 1] - x[i] * x[i];
            let u = 1.0 - x[i];
            100.0 * t * t + u * u
        })
        .sum()
}

/// Logistic-regression log-likelihood Σᵢ yᵢ ηᵢ - ln(1 + e^ηᵢ), ηᵢ = xᵢ·β (`x` row-major,
/// one row per outcome).
#[differentiate(wrt(beta))]
pub fn log_lik(beta: &[f64], x: &[f64], y: &[f64]) -> f64 {
    x.chunks(beta.len())
        .zip(y)
        .map(|(row, &yi)| {
            let eta = dot_product(row, beta);
            yi * eta - eta.exp().ln_1p()
        })
        .sum()
}

/// ln √(2π).
pub const LOG_SQRT_2PI: f64 = 0.918_938_533_204_672_8;

/// Normal log-likelihood of `y`, element by element:
/// -½ Σᵢ ((yᵢ - μ)/σ)² - n (ln σ + ln √(2π)).
#[differentiate(wrt(mu, sigma))]
pub fn normal_ll(mu: f64, sigma: f64, y: &[f64]) -> f64 {
    let n = y.len() as f64;
    let ss: f64 = y.iter().map(|&yi| ((yi - mu) / sigma).powi(2)).sum();
    -0.5 * ss - n * (sigma.ln() + LOG_SQRT_2PI)
}

/// The same likelihood with fazang's `normal_lpdf` (one node, analytic partials).
#[differentiate(wrt(mu, sigma))]
pub fn normal_ll_lpdf(mu: f64, sigma: f64, y: &[f64]) -> Result<f64, fazang::DomainError> {
    fazang::normal_lpdf(y, mu, sigma)
}

/// DESIGN.md's 2-parameter example: the normal log density of one observation.
#[differentiate]
pub fn normal_lp(mu: f64, sigma: f64) -> f64 {
    let y = 1.3;
    -0.5 * (2.0 * std::f64::consts::PI).ln() - sigma.ln() - 0.5 * ((y - mu) / sigma).powi(2)
}

/// One dense layer, tanh(W x + b) (`w` holds the rows of W).
#[differentiate(wrt(x))]
pub fn layer(x: &[f64], w: &[Vec<f64>], b: &[f64]) -> Vec<f64> {
    w.iter()
        .zip(b)
        .map(|(row, &bi)| (dot_product(row, x) + bi).tanh())
        .collect()
}

/// The same functions without `#[differentiate]`, to measure that the attribute leaves the
/// primal as fast as it was (`cargo run --release -p fazang-bench --bin primal`).
pub mod plain {
    use super::LOG_SQRT_2PI;

    /// [`super::rosenbrock`] as written, not annotated.
    pub fn rosenbrock(x: &[f64]) -> f64 {
        (0..x.len() - 1)
            .map(|i| {
                let t = x[i + 1] - x[i] * x[i];
                let u = 1.0 - x[i];
                100.0 * t * t + u * u
            })
            .sum()
    }

    /// [`super::log_lik`] as written, not annotated (`dot_product` spelled out, since
    /// fazang's is the generic one).
    pub fn log_lik(beta: &[f64], x: &[f64], y: &[f64]) -> f64 {
        x.chunks(beta.len())
            .zip(y)
            .map(|(row, &yi)| {
                let eta: f64 = row.iter().zip(beta).map(|(a, b)| a * b).sum();
                yi * eta - eta.exp().ln_1p()
            })
            .sum()
    }

    /// [`super::normal_ll`] as written, not annotated.
    pub fn normal_ll(mu: f64, sigma: f64, y: &[f64]) -> f64 {
        let n = y.len() as f64;
        let ss: f64 = y.iter().map(|&yi| ((yi - mu) / sigma).powi(2)).sum();
        -0.5 * ss - n * (sigma.ln() + LOG_SQRT_2PI)
    }

    /// [`super::normal_lp`] as written, not annotated.
    pub fn normal_lp(mu: f64, sigma: f64) -> f64 {
        let y = 1.3;
        -0.5 * (2.0 * std::f64::consts::PI).ln() - sigma.ln() - 0.5 * ((y - mu) / sigma).powi(2)
    }
}
