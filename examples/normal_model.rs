//! A small Bayesian model: its log density and gradient.
//!
//! ```text
//! y[i]  ~ normal(mu, sigma),   i = 1..8
//! mu    ~ normal(0, 10)
//! sigma ~ lognormal(0, 1)
//! ```
//!
//! The log posterior density (up to the evidence) and its gradient with respect to
//! `(mu, sigma)`, first with `gradient` and a closure over `Var`s, then with
//! `#[differentiate]` and `?`, which also reports invalid parameters as Stan does.
//! Finally a few hundred steps of gradient ascent find the posterior mode.
//!
//! Run with `cargo run --example normal_model`.

use fazang::prelude::*;

/// Observations.
const Y: [f64; 8] = [2.1, 1.4, 3.3, 2.8, 1.9, 2.5, 3.9, 2.2];

/// log p(mu, sigma | y) + const: the likelihood and the priors, each one tape node
/// when the parameters are active.
#[differentiate(wrt(mu, sigma))]
fn log_posterior(mu: f64, sigma: f64, y: &[f64]) -> Result<f64, DomainError> {
    let likelihood = normal_lpdf(y, mu, sigma)?;
    Ok(likelihood + normal_lpdf(mu, 0.0, 10.0)? + lognormal_lpdf(sigma, 0.0, 1.0)?)
}

fn main() -> Result<(), DomainError> {
    let (mu, sigma) = (1.0, 2.0);

    // 1. A closure over active parameters, differentiated by `gradient`.
    let (lp, g) = gradient(
        |x| {
            let (mu, sigma) = (x[0], x[1]);
            let prior =
                normal_lpdf(mu, 0.0, 10.0).unwrap() + lognormal_lpdf(sigma, 0.0, 1.0).unwrap();
            prior + normal_lpdf(&Y, mu, sigma).unwrap()
        },
        &[mu, sigma],
    );
    println!(
        "gradient():        log p = {lp:.6}, d/dmu = {:.6}, d/dsigma = {:.6}",
        g[0], g[1]
    );

    // 2. The same through #[differentiate]: the primal, and the gradient with `?`.
    let lp = log_posterior(mu, sigma, &Y)?;
    let (_, [dmu, dsigma]) = log_posterior_grad(mu, sigma, &Y)?;
    println!("#[differentiate]:  log p = {lp:.6}, d/dmu = {dmu:.6}, d/dsigma = {dsigma:.6}");

    // Invalid parameters are errors, with Stan's message.
    if let Err(e) = log_posterior_grad(mu, -0.5, &Y) {
        println!("sigma = -0.5:      {e}");
    }

    // 3. The posterior mode, by gradient ascent on (mu, ln sigma) (so sigma stays > 0;
    //    the chain rule gives d/d(ln sigma) = sigma d/dsigma).
    let (mut mu, mut log_sigma) = (0.0_f64, 0.0_f64);
    for _ in 0..500 {
        let (_, [dmu, dsigma]) = log_posterior_grad(mu, log_sigma.exp(), &Y)?;
        mu += 0.05 * dmu;
        log_sigma += 0.05 * dsigma * log_sigma.exp();
    }
    let mean = Y.iter().sum::<f64>() / Y.len() as f64;
    println!(
        "posterior mode:    mu = {mu:.4} (sample mean {mean:.4}), sigma = {:.4}",
        log_sigma.exp()
    );
    Ok(())
}
