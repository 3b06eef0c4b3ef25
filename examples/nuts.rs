//! Eight schools (Rubin 1981; BDA3 §5.5), non-centred, sampled by NUTS.
//!
//! The model is one `#[differentiate]` log density written as in Stan: the scale `tau`
//! is constrained to be positive by `lb_constrain`, which adds its log-Jacobian to `lp`,
//! and the school effects are `mu + tau * theta_tilde`. The sampler is nuts-rs, the
//! NUTS implementation of the PyMC project (nutpie's core), which asks for the log
//! density and its gradient at an unconstrained position: `eight_schools_grad_into`
//! writes the gradient into the sampler's buffer without allocating.
//!
//! `cargo run --release --example nuts` runs 4 chains (1000 warm-up and 1000 draws each,
//! one thread per chain) and prints, for mu, tau and the school effects, the posterior
//! mean, sd, 5/50/95 % quantiles, split R-hat and bulk effective sample size; the
//! divergences after warm-up; and gradient evaluations per second.
//!
//! # Reference
//!
//! posteriordb's reference posterior `eight_schools-eight_schools_noncentered` (rstan
//! 2.19.2, 10 chains × 10 000 draws thinned to 1000 each, adapt_delta 0.95;
//! github.com/stan-dev/posteriordb, `posterior_database/reference_posteriors/
//! summary_statistics/mean/mean/eight_schools-eight_schools_noncentered.json`): mean of
//! mu 4.411 (MCSE 0.033), of tau 3.602 (MCSE 0.032). Their sds, 3.31 and 3.20, follow
//! from the mean squared values of the same posterior, `summary_statistics/
//! mean_squared_value/mean_squared_value/eight_schools-eight_schools_centered.json`
//! (30.403 and 23.204; the centred and non-centred programs share one posterior). The
//! example compares its means with these, in units of the combined Monte Carlo error.

use fazang::prelude::*;
use nuts_rs::rand::{rngs::ChaCha8Rng, SeedableRng};
use nuts_rs::{
    Chain, CpuLogpFunc, CpuMath, CpuMathError, DiagNutsSettings, HasDims, LogpError, Settings,
};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

const Y: [f64; 8] = [28.0, 8.0, -3.0, 7.0, -1.0, 1.0, 18.0, 12.0];
const SIGMA: [f64; 8] = [15.0, 10.0, 16.0, 11.0, 9.0, 11.0, 10.0, 18.0];
const CHAINS: usize = 4;
const WARMUP: u64 = 1000;
const DRAWS: u64 = 1000;

/// The log posterior density on unconstrained space: `theta = [mu, log tau,
/// theta_tilde₁..₈]`.
#[differentiate(wrt(theta))]
fn eight_schools(theta: &[f64], y: &[f64], sigma: &[f64]) -> Result<f64, DomainError> {
    let mut lp = 0.0;
    let mu = theta[0];
    let tau = lb_constrain(theta[1], 0.0, &mut lp);
    let theta_tilde = &theta[2..];
    let effects: Vec<f64> = theta_tilde.iter().map(|t| mu + tau * t).collect();
    lp += normal_lpdf(mu, 0.0, 5.0)?;
    lp += cauchy_lpdf(tau, 0.0, 5.0)?;
    lp += normal_lpdf(theta_tilde, 0.0, 1.0)?;
    lp += normal_lpdf(y, &effects, sigma)?;
    Ok(lp)
}

/// A log density nuts-rs can sample: any `#[differentiate]` function's `_grad_into`.
struct Posterior {
    evaluations: Arc<AtomicU64>,
}

/// A parameter outside the support (a NaN, an overflow): the sampler rejects the point.
#[derive(Debug)]
struct Rejected(DomainError);

impl std::fmt::Display for Rejected {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for Rejected {}

impl LogpError for Rejected {
    fn is_recoverable(&self) -> bool {
        true
    }
}

impl HasDims for Posterior {
    fn dim_sizes(&self) -> HashMap<String, u64> {
        HashMap::from([("unconstrained_parameter".to_string(), 10)])
    }
}

impl CpuLogpFunc for Posterior {
    type LogpError = Rejected;
    type FlowParameters = ();
    type ExpandedVector = Vec<f64>;

    fn dim(&self) -> usize {
        10
    }

    fn logp(&mut self, position: &[f64], grad: &mut [f64]) -> Result<f64, Rejected> {
        self.evaluations.fetch_add(1, Ordering::Relaxed);
        eight_schools_grad_into(position, &Y, &SIGMA, grad).map_err(Rejected)
    }

    fn expand_vector<R: nuts_rs::rand::Rng + ?Sized>(
        &mut self,
        _: &mut R,
        position: &[f64],
    ) -> Result<Vec<f64>, CpuMathError> {
        Ok(position.to_vec())
    }
}

/// One chain: its draws after warm-up (unconstrained) and its divergences.
fn run_chain(chain: usize, evaluations: Arc<AtomicU64>) -> (Vec<Vec<f64>>, usize) {
    let settings = DiagNutsSettings {
        num_tune: WARMUP,
        num_draws: DRAWS,
        ..Default::default()
    };
    let mut rng = ChaCha8Rng::seed_from_u64(2024 + chain as u64);
    let math = CpuMath::new(Posterior { evaluations });
    let mut sampler = settings
        .new_chain(chain as u64, math, &mut rng)
        .expect("valid settings");
    // Stan's initialisation: uniform on (-2, 2) on unconstrained space.
    let init: Vec<f64> = (0..10)
        .map(|i| 4.0 * (((chain * 10 + i) as f64 * 0.618_034).fract()) - 2.0)
        .collect();
    sampler
        .set_position(&init)
        .expect("a finite log density at the start");
    let (mut draws, mut divergences) = (Vec::new(), 0);
    for _ in 0..WARMUP + DRAWS {
        let (draw, progress) = sampler.draw().expect("no unrecoverable error");
        if !progress.tuning {
            divergences += usize::from(progress.diverging);
            draws.push(draw.to_vec());
        }
    }
    (draws, divergences)
}

/// The quantities reported, from an unconstrained draw: mu, tau, theta₁..₈.
fn constrained(u: &[f64]) -> Vec<f64> {
    let mut lp = 0.0;
    let (mu, tau) = (u[0], lb_constrain(u[1], 0.0, &mut lp));
    [mu, tau]
        .into_iter()
        .chain(u[2..].iter().map(|t| mu + tau * t))
        .collect()
}

fn mean(x: &[f64]) -> f64 {
    x.iter().sum::<f64>() / x.len() as f64
}

fn variance(x: &[f64]) -> f64 {
    let m = mean(x);
    x.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / (x.len() - 1) as f64
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    let h = (sorted.len() - 1) as f64 * q;
    let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

/// Split R-hat (BDA3 §11.4) and effective sample size (Geyer's initial positive sequence
/// on the split chains, as Stan) of one quantity's chains.
fn rhat_and_ess(chains: &[Vec<f64>]) -> (f64, f64) {
    let half = chains[0].len() / 2;
    let split: Vec<&[f64]> = chains
        .iter()
        .flat_map(|c| [&c[..half], &c[half..2 * half]])
        .collect();
    let (m, n) = (split.len() as f64, half as f64);
    let means: Vec<f64> = split.iter().map(|c| mean(c)).collect();
    let b = n * variance(&means);
    let w = mean(&split.iter().map(|c| variance(c)).collect::<Vec<_>>());
    let var_plus = (n - 1.0) / n * w + b / n;
    let rhat = (var_plus / w).sqrt();
    // ρₜ = 1 − (W − mean autocovariance at lag t) / var⁺, summed in pairs while positive.
    let acov = |t: usize| {
        let per_chain = split.iter().zip(&means).map(|(c, mu)| {
            (0..half - t)
                .map(|i| (c[i] - mu) * (c[i + t] - mu))
                .sum::<f64>()
                / n
        });
        per_chain.sum::<f64>() / m
    };
    let rho = |t: usize| 1.0 - (w - acov(t)) / var_plus;
    let mut sum = 0.0;
    let mut t = 0;
    while t + 1 < half {
        let pair = if t == 0 {
            1.0 + rho(1)
        } else {
            rho(t) + rho(t + 1)
        };
        if pair < 0.0 {
            break;
        }
        sum += pair;
        t += 2;
    }
    (rhat, m * n / (2.0 * sum - 1.0))
}

fn main() {
    let evaluations = Arc::new(AtomicU64::new(0));
    let start = Instant::now();
    let runs: Vec<(Vec<Vec<f64>>, usize)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..CHAINS)
            .map(|c| {
                let e = Arc::clone(&evaluations);
                s.spawn(move || run_chain(c, e))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let seconds = start.elapsed().as_secs_f64();
    let names: Vec<String> = ["mu", "tau"]
        .into_iter()
        .map(String::from)
        .chain((1..=8).map(|j| format!("theta[{j}]")))
        .collect();
    // quantity -> chain -> draws
    let values: Vec<Vec<Vec<f64>>> = (0..names.len())
        .map(|q| {
            let per_draw = |d: &Vec<f64>| constrained(d)[q];
            runs.iter()
                .map(|(draws, _)| draws.iter().map(per_draw).collect())
                .collect()
        })
        .collect();
    println!(
        "{:<9} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7}",
        "", "mean", "sd", "5%", "50%", "95%", "R-hat", "ESS"
    );
    let mut summary = Vec::new();
    for (name, chains) in names.iter().zip(&values) {
        let mut all: Vec<f64> = chains.concat();
        all.sort_by(f64::total_cmp);
        let (m, sd) = (mean(&all), variance(&all).sqrt());
        let (rhat, ess) = rhat_and_ess(chains);
        println!(
            "{name:<9} {m:>7.2} {sd:>7.2} {:>7.2} {:>7.2} {:>7.2} {rhat:>7.3} {ess:>7.0}",
            quantile(&all, 0.05),
            quantile(&all, 0.5),
            quantile(&all, 0.95)
        );
        summary.push((m, sd, ess));
    }
    let divergences: usize = runs.iter().map(|(_, d)| d).sum();
    let total = CHAINS as u64 * DRAWS;
    println!(
        "divergences: {divergences} of {total} draws ({:.2} %)",
        100.0 * divergences as f64 / total as f64
    );
    let evals = evaluations.load(Ordering::Relaxed);
    println!(
        "gradient evaluations: {evals} in {seconds:.2} s on {CHAINS} threads \
         ({:.0} per second, {:.0} per second per chain)",
        evals as f64 / seconds,
        evals as f64 / seconds / CHAINS as f64
    );
    println!("posteriordb reference (eight_schools-eight_schools_noncentered):");
    for (i, (name, ref_mean, ref_mcse, ref_sd)) in
        [("mu", 4.411, 0.033, 3.31), ("tau", 3.602, 0.032, 3.20)]
            .into_iter()
            .enumerate()
    {
        let (m, sd, ess) = summary[i];
        let error = (ref_mcse * ref_mcse + sd * sd / ess).sqrt();
        println!(
            "  {name}: mean {m:.3} vs {ref_mean} ({:+.1} Monte Carlo errors), sd {sd:.2} vs {ref_sd}",
            (m - ref_mean) / error
        );
    }
}
