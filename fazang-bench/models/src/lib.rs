//! The benchmark workloads as a fazang user writes them: plain `f64` functions with
//! `#[differentiate]`, which keeps them callable as before and adds `_grad` /
//! `_jacobian`; the generic body it makes also runs on `Var` for the runtime drivers
//! (`gradient_into(|x| rosenbrock::<Var>(x), ..)`).

#![forbid(unsafe_code)]

use fazang::prelude::*;

pub mod mvn;
pub mod user_grad;
pub mod user_second;

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

/// Rosenbrock's function as a plain loop (how most users write it): the same sum.
#[differentiate]
pub fn rosenbrock_loop(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        let t = x[i + 1] - x[i] * x[i];
        let u = 1.0 - x[i];
        s += 100.0 * t * t + u * u;
    }
    s
}

/// The logistic log-likelihood as two plain loops over a row-major design matrix.
#[differentiate(wrt(beta))]
pub fn log_lik_loop(beta: &[f64], x: &[f64], y: &[f64]) -> f64 {
    let d = beta.len();
    let mut ll = 0.0;
    for r in 0..y.len() {
        let mut eta = 0.0;
        for j in 0..d {
            eta += x[r * d + j] * beta[j];
        }
        ll += y[r] * eta - eta.exp().ln_1p();
    }
    ll
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

/// SIR in population fractions: S' = -β S I, I' = β S I - γ I, R' = γ I; θ = (β, γ)
/// (the model of `examples/ode_model.rs`).
#[differentiate(wrt(y, theta))]
pub fn sir(_t: f64, y: &[f64], theta: &[f64]) -> Vec<f64> {
    let (s, i) = (y[0], y[1]);
    let infection = theta[0] * s * i;
    let recovery = theta[1] * i;
    vec![-infection, infection - recovery, recovery]
}
ode_system!(pub Sir = sir);

/// The SIR model's initial state, observation days and noise scale.
pub const SIR_Y0: [f64; 3] = [0.99, 0.01, 0.0];
pub const SIR_DAYS: [f64; 20] = [
    2.0, 4.0, 6.0, 8.0, 10.0, 12.0, 14.0, 16.0, 18.0, 20.0, 22.0, 24.0, 26.0, 28.0, 30.0, 32.0,
    34.0, 36.0, 38.0, 40.0,
];
pub const SIR_SIGMA: f64 = 0.15;

/// The SIR log posterior of (ln β, ln γ) given the fraction infected observed on each
/// day (lognormal noise), solved with `ode_bdf` if `bdf`, else `ode_rk45`, at relative
/// tolerance `rtol` (absolute `rtol / 100`).
#[differentiate(wrt(log_theta))]
pub fn sir_log_posterior(
    log_theta: &[f64],
    observed: &[f64],
    rtol: f64,
    bdf: bool,
) -> Result<f64, DomainError> {
    let theta = vec![log_theta[0].exp(), log_theta[1].exp()];
    let tol = OdeTol::new(rtol, rtol / 100.0, 100_000);
    let ys = if bdf {
        ode_bdf(&Sir, &SIR_Y0, 0.0, &SIR_DAYS, &theta, tol)?
    } else {
        ode_rk45(&Sir, &SIR_Y0, 0.0, &SIR_DAYS, &theta, tol)?
    };
    let log_infected: Vec<f64> = ys.iter().map(|y| y[1].ln()).collect();
    let prior = normal_lpdf(log_theta, &[-1.0, -2.0], 1.0)?;
    Ok(prior + lognormal_lpdf(observed, &log_infected, SIR_SIGMA)?)
}

/// Robertson's stiff chemical kinetics, rates k.
#[differentiate(wrt(y, k))]
pub fn robertson(_t: f64, y: &[f64], k: &[f64]) -> Vec<f64> {
    let r1 = k[0] * y[0];
    let r2 = k[1] * y[1] * y[2];
    let r3 = k[2] * y[1] * y[1];
    vec![-r1 + r2, r1 - r2 - r3, r3]
}
ode_system!(pub Robertson = robertson);

/// Σ ln yᵢ(40) of Robertson's problem as a function of the log rates, by `ode_bdf` at
/// relative tolerance `rtol` (absolute 1e-14).
#[differentiate(wrt(log_k))]
pub fn robertson_log_y(log_k: &[f64], rtol: f64) -> Result<f64, DomainError> {
    let k: Vec<f64> = log_k.iter().map(|x| x.exp()).collect();
    let tol = OdeTol::new(rtol, 1e-14, 100_000);
    let ys = ode_bdf(&Robertson, &[1.0, 0.0, 0.0], 0.0, &[40.0], &k, tol)?;
    Ok(ys[0].iter().map(|y| y.ln()).sum())
}
