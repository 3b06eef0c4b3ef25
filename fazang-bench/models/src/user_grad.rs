//! Gradient workloads of issue 18, written the way people write numeric Rust: iterator
//! chains, sub-slices, `split_at`, `windows`, methods of an `impl` block, fazang's
//! distributions with `?`. Nothing here is bent to what `#[differentiate]` accepts today:
//! a body that does not compile under the attribute is kept behind the `pending` feature
//! (see the crate's Cargo.toml) and reported, never rewritten.

use fazang::prelude::*;

/// Logistic-regression log-likelihood in iterator chains: `x` row-major with one row per
/// outcome, Σᵢ yᵢ ηᵢ - ln(1 + e^ηᵢ), ηᵢ = xᵢ·β.
#[differentiate(wrt(beta))]
pub fn logistic_chain(beta: &[f64], x: &[f64], y: &[f64]) -> f64 {
    x.chunks_exact(beta.len())
        .zip(y)
        .map(|(row, &yi)| {
            let eta: f64 = row.iter().zip(beta).map(|(a, b)| a * b).sum();
            yi * eta - eta.exp().ln_1p()
        })
        .sum()
}

/// A hierarchical normal model, non-centred: θ = [μ, ln τ, η₁..η_J]; group j's `per`
/// observations (consecutive in `y`) are normal(μ + τ ηⱼ, σ_y). Priors μ ~ normal(0, 5),
/// τ ~ half-normal(0, 2) (with the log-Jacobian ln τ), ηⱼ ~ normal(0, 1).
#[differentiate(wrt(theta))]
pub fn hier_normal(theta: &[f64], y: &[f64], sigma_y: f64) -> Result<f64, DomainError> {
    let mu = theta[0];
    let tau = theta[1].exp();
    let eta = &theta[2..];
    let per = y.len() / eta.len();
    let mut lp = normal_lpdf(mu, 0.0, 5.0)? + normal_lpdf(tau, 0.0, 2.0)? + theta[1];
    lp += normal_lpdf(eta, 0.0, 1.0)?;
    for (e, group) in eta.iter().zip(y.chunks_exact(per)) {
        lp += normal_lpdf(group, mu + tau * e, sigma_y)?;
    }
    Ok(lp)
}

/// Mean squared error of a 2-layer perceptron (tanh hidden layer of `h` units, linear
/// output) on `d`-feature rows, its weights in one flat vector: W₁ (h × d, row-major),
/// b₁ (h), w₂ (h), b₂ (1).
#[differentiate(wrt(params))]
pub fn mlp_loss(params: &[f64], x: &[f64], y: &[f64], d: usize, h: usize) -> f64 {
    let (w1, rest) = params.split_at(h * d);
    let (b1, rest) = rest.split_at(h);
    let (w2, b2) = rest.split_at(h);
    let mut loss = 0.0;
    for (xi, &yi) in x.chunks_exact(d).zip(y) {
        let out: f64 = w1
            .chunks_exact(d)
            .zip(b1)
            .zip(w2)
            .map(|((row, b), v)| {
                let z: f64 = row.iter().zip(xi).map(|(w, xv)| w * xv).sum();
                v * (z + b).tanh()
            })
            .sum();
        let r = out + b2[0] - yi;
        loss += 0.5 * r * r;
    }
    loss / y.len() as f64
}

/// An AR(1) time series, yₜ = α + ρ yₜ₋₁ + σ εₜ, the data in the struct.
pub struct Ar1 {
    /// The observed series.
    pub y: Vec<f64>,
}

#[differentiate]
impl Ar1 {
    /// Weakly informative priors: α ~ normal(0, 10), ρ ~ normal(0, 0.5), ln σ ~ normal(0, 1)
    /// (without constants).
    pub fn log_prior(&self, alpha: f64, rho: f64, log_sigma: f64) -> f64 {
        -0.5 * ((alpha / 10.0).powi(2) + (rho / 0.5).powi(2) + log_sigma * log_sigma)
    }

    /// The log posterior of (α, ρ, ln σ), conditional on the first observation (without
    /// constants).
    pub fn log_density(&self, alpha: f64, rho: f64, log_sigma: f64) -> f64 {
        let sigma = log_sigma.exp();
        let lik: f64 = self
            .y
            .windows(2)
            .map(|w| {
                let z = (w[1] - alpha - rho * w[0]) / sigma;
                -0.5 * z * z - log_sigma
            })
            .sum();
        lik + self.log_prior(alpha, rho, log_sigma)
    }
}

/// The observation of [`skew_gumbel_lp`].
pub const SKEW_Y: f64 = 1.3;

/// Log density (up to a constant) of one observation under a skewed Gumbel distribution:
/// location μ, scale e^(ln β), skewness α; z = (y - μ)/β,
/// ln p = -ln β - z - e^(-z) + ln Φ_logistic(α z).
#[differentiate]
pub fn skew_gumbel_lp(mu: f64, log_beta: f64, alpha: f64) -> f64 {
    let z = (SKEW_Y - mu) / log_beta.exp();
    -log_beta - z - (-z).exp() - (-alpha * z).exp().ln_1p()
}
