//! Fit an SIR epidemic model to noisy case data: the log posterior solves the ODE and
//! scores the observations with `lognormal_lpdf`; `#[differentiate]` gives its gradient
//! (the solver's sensitivities flow through the tape), and a few dozen BFGS steps find
//! the posterior mode.
//!
//! `cargo run --example ode_model`

use fazang::prelude::*;

/// SIR in population fractions: S' = -β S I, I' = β S I - γ I, R' = γ I; θ = (β, γ).
#[differentiate(wrt(y, theta))]
fn sir(_t: f64, y: &[f64], theta: &[f64]) -> Vec<f64> {
    let (s, i) = (y[0], y[1]);
    let infection = theta[0] * s * i;
    let recovery = theta[1] * i;
    vec![-infection, infection - recovery, recovery]
}
ode_system!(Sir = sir);

const Y0: [f64; 3] = [0.99, 0.01, 0.0];
const DAYS: [f64; 20] = [
    2.0, 4.0, 6.0, 8.0, 10.0, 12.0, 14.0, 16.0, 18.0, 20.0, 22.0, 24.0, 26.0, 28.0, 30.0, 32.0,
    34.0, 36.0, 38.0, 40.0,
];
const SIGMA: f64 = 0.15;

/// Log posterior of (ln β, ln γ): normal priors on the logs, and the fraction infected
/// observed on each day with multiplicative (lognormal) noise.
#[differentiate(wrt(log_theta))]
fn log_posterior(log_theta: &[f64], observed: &[f64]) -> Result<f64, DomainError> {
    let theta = vec![log_theta[0].exp(), log_theta[1].exp()];
    let tol = OdeTol::new(1e-8, 1e-10, 10_000);
    let ys = ode_rk45(&Sir, &Y0, 0.0, &DAYS, &theta, tol)?;
    let log_infected: Vec<f64> = ys.iter().map(|y| y[1].ln()).collect();
    let prior = normal_lpdf(log_theta, &[-1.0, -2.0], 1.0)?;
    Ok(prior + lognormal_lpdf(observed, &log_infected, SIGMA)?)
}

/// Standard normal draws from a fixed seed (xorshift64* and Box-Muller): the same data
/// on every run and machine.
fn normal_draws(n: usize, mut seed: u64) -> Vec<f64> {
    let mut uniform = || {
        seed ^= seed >> 12;
        seed ^= seed << 25;
        seed ^= seed >> 27;
        (seed.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
    };
    (0..n)
        .map(|_| {
            let (u, v) = (uniform().max(1e-300), uniform());
            (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
        })
        .collect()
}

/// Maximise `f` from `x` by BFGS with a backtracking line search (a trial point where
/// `f` fails, e.g. the solver gives up, counts as a step too far); returns the maximiser
/// and the number of gradient evaluations.
fn maximise<E: std::fmt::Debug>(
    f: impl Fn(&[f64]) -> Result<(f64, Vec<f64>), E>,
    mut x: Vec<f64>,
) -> (Vec<f64>, usize) {
    let n = x.len();
    let (mut fx, mut g) = f(&x).expect("the starting point has a finite log posterior");
    let mut evals = 1;
    // First steps of length about one: the inverse Hessian starts as I / |g|.
    let g_norm = g.iter().map(|v| v * v).sum::<f64>().sqrt();
    let mut h: Vec<Vec<f64>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| if i == j { 1.0 / g_norm } else { 0.0 })
                .collect()
        })
        .collect();
    for _ in 0..100 {
        if g.iter().map(|v| v * v).sum::<f64>().sqrt() < 1e-6 {
            break;
        }
        // Ascent direction d = H g; halve the step until the value rises enough.
        let d: Vec<f64> = h
            .iter()
            .map(|row| row.iter().zip(&g).map(|(a, b)| a * b).sum())
            .collect();
        let slope: f64 = d.iter().zip(&g).map(|(a, b)| a * b).sum();
        let mut step = 1.0;
        let (x_new, f_new, g_new) = loop {
            let xt: Vec<f64> = x.iter().zip(&d).map(|(a, b)| a + step * b).collect();
            evals += 1;
            match f(&xt) {
                Ok((ft, gt)) if ft >= fx + 1e-4 * step * slope || step < 1e-10 => {
                    break (xt, ft, gt)
                }
                _ => step *= 0.5,
            }
        };
        let s: Vec<f64> = x_new.iter().zip(&x).map(|(a, b)| a - b).collect();
        let y: Vec<f64> = g.iter().zip(&g_new).map(|(a, b)| a - b).collect(); // -(Δ gradient)
        let sy: f64 = s.iter().zip(&y).map(|(a, b)| a * b).sum();
        if sy > 1e-12 {
            // BFGS update of the inverse Hessian of -f.
            let hy: Vec<f64> = h
                .iter()
                .map(|row| row.iter().zip(&y).map(|(a, b)| a * b).sum())
                .collect();
            let yhy: f64 = y.iter().zip(&hy).map(|(a, b)| a * b).sum();
            for i in 0..n {
                for j in 0..n {
                    h[i][j] +=
                        (sy + yhy) * s[i] * s[j] / (sy * sy) - (hy[i] * s[j] + s[i] * hy[j]) / sy;
                }
            }
        }
        (x, fx, g) = (x_new, f_new, g_new);
    }
    (x, evals)
}

fn main() -> Result<(), DomainError> {
    let truth = [0.6_f64, 0.2];
    let tol = OdeTol::new(1e-10, 1e-12, 10_000);
    let clean = ode_rk45(&Sir, &Y0, 0.0, &DAYS, &truth, tol)?;
    let noise = normal_draws(DAYS.len(), 20_240_611);
    let observed: Vec<f64> = clean
        .iter()
        .zip(&noise)
        .map(|(y, z)| y[1] * (SIGMA * z).exp())
        .collect();

    let start = vec![0.3_f64.ln(), 0.1_f64.ln()];
    let timer = std::time::Instant::now();
    let (mode, evals) = maximise(|x| log_posterior_grad(x, &observed), start);
    let elapsed = timer.elapsed();
    let (lp, g) = log_posterior_grad(&mode, &observed)?;

    println!(
        "SIR model, {} noisy observations of the fraction infected",
        DAYS.len()
    );
    println!("posterior mode after {evals} gradient evaluations ({elapsed:.2?}):");
    println!("  parameter   true   estimate");
    for (name, (t, m)) in ["beta", "gamma"].iter().zip(truth.iter().zip(&mode)) {
        println!("  {name:<9} {t:6.3}   {:8.4}", m.exp());
    }
    println!(
        "  R0        {:6.3}   {:8.4}",
        truth[0] / truth[1],
        (mode[0] - mode[1]).exp()
    );
    println!(
        "log posterior {lp:.4}, gradient norm {:.1e}",
        g.iter().map(|v| v * v).sum::<f64>().sqrt()
    );
    Ok(())
}
