//! Hessians from the same body: ReverseDiffSource's Rosenbrock example, a Bayesian
//! model's Hessian at its mode (the Laplace approximation's covariance), and a
//! Hessian-vector product, through the items `#[differentiate]` generates
//! (`name_hessian`, `name_hvp`, `name_jvp`) and the runtime drivers that take closures.
//!
//! `cargo run --example hessian`
use fazang::prelude::*;
use fazang::{hessian, hessian_forward, hessian_vector_product, jvp};

/// Rosenbrock's function of two variables, as ReverseDiffSource's documentation writes it.
#[differentiate]
fn rosenbrock(x: &[f64]) -> f64 {
    (1.0 - x[0]).powi(2) + 100.0 * (x[1] - x[0].powi(2)).powi(2)
}

/// Log posterior of a normal model: y ~ N(mu, sigma), mu ~ N(0, 10), log sigma ~ N(0, 1).
#[differentiate(wrt(theta))]
fn log_posterior(theta: &[f64], y: &[f64]) -> Result<f64, DomainError> {
    let (mu, log_sigma) = (theta[0], theta[1]);
    Ok(normal_lpdf(y, mu, log_sigma.exp())?
        + normal_lpdf(mu, 0.0, 10.0)?
        + normal_lpdf(log_sigma, 0.0, 1.0)?)
}

fn main() -> Result<(), DomainError> {
    // rdiff(ex, x = Vector{Float64}, order = 2) at [0.5, 2.0] gives
    // (306.5, [-351.0, 350.0], [-498.0 -200.0; -200.0 200.0]).
    let (v, g, h) = rosenbrock_hessian(&[0.5, 2.0]);
    println!("Rosenbrock at (0.5, 2): value {v}, gradient {g:?}");
    println!("  Hessian {h:?}");
    // The runtime drivers, on closures, agree: reverse-over-forward for any number of
    // inputs, forward-over-forward (what the generated item picks for up to 4 inputs).
    let (_, _, h1) = hessian(rosenbrock, &[0.5, 2.0]);
    let (_, _, h2) = hessian_forward::<2, _>(rosenbrock, &[0.5, 2.0]);
    assert_eq!((&h, &h), (&h1, &h2));

    // A model: find the mode by Newton's method on the gradient and Hessian (from the
    // sample mean and log standard deviation), then the Laplace approximation's
    // covariance, the inverse of the negative Hessian there.
    let y = [1.3, 0.2, -0.4, 2.1, 0.9];
    let mean = y.iter().sum::<f64>() / 5.0;
    let var = y.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / 5.0;
    let mut theta = [mean, 0.5 * var.ln()];
    for _ in 0..8 {
        let (_, g, h) = log_posterior_hessian(&theta, &y)?;
        let det = h[0][0] * h[1][1] - h[0][1] * h[1][0];
        theta[0] -= (h[1][1] * g[0] - h[0][1] * g[1]) / det;
        theta[1] -= (h[0][0] * g[1] - h[1][0] * g[0]) / det;
    }
    let (lp, g, h) = log_posterior_hessian(&theta, &y)?;
    let det = h[0][0] * h[1][1] - h[0][1] * h[1][0];
    let cov = [
        [-h[1][1] / det, h[0][1] / det],
        [h[1][0] / det, -h[0][0] / det],
    ];
    println!(
        "posterior mode mu = {:.4}, log sigma = {:.4} (log density {lp:.4}, gradient {:.1e})",
        theta[0],
        theta[1],
        g[0].abs().max(g[1].abs())
    );
    println!(
        "  Laplace sd: mu {:.4}, log sigma {:.4}",
        cov[0][0].sqrt(),
        cov[1][1].sqrt()
    );

    // A Hessian-vector product (reverse-over-forward) and a directional derivative
    // (forward mode), without forming the Hessian.
    let (_, hv) = rosenbrock_hvp(&[0.5, 2.0], &[1.0, 1.0]);
    let (_, d) = rosenbrock_jvp(&[0.5, 2.0], &[1.0, 1.0]);
    println!("H v along (1, 1): {hv:?}; directional derivative {d}");
    // The same through the drivers.
    assert_eq!(
        hessian_vector_product(rosenbrock, &[0.5, 2.0], &[1.0, 1.0]).1,
        hv
    );
    assert_eq!(jvp(rosenbrock, &[0.5, 2.0], &[1.0, 1.0]).1, d);
    Ok(())
}
