//! Portfolio risk: the variance wᵀΣw of a portfolio, and its expected shortfall (the mean
//! of the worst 10 % of scenario losses), which sorts the active losses and counts the
//! tail with `let n = losses.len() as f64; let k = (alpha_tail * n).ceil() as usize;`.
//! The Rockafellar-Uryasev form of the ES uses `f64::max(0.0, loss - t)`. A mean-risk
//! objective with a budget penalty combines the pieces. Only weights (and t) are active.
//!
//! Closed forms: ∇ variance = 2Σw; ∇ ES = −(mean of the tail scenarios' return vectors),
//! valid away from ties in the sort order (the test data have none near the points used).
#![allow(clippy::needless_range_loop)]
use fazang::prelude::*;

mod program_support;
use program_support::*;

#[differentiate(wrt(w))]
fn variance(w: &[f64], cov: &[Vec<f64>]) -> f64 {
    let mut v = 0.0;
    for i in 0..w.len() {
        for j in 0..w.len() {
            v += w[i] * cov[i][j] * w[j];
        }
    }
    v
}

#[differentiate(wrt(w))]
fn expected_shortfall(w: &[f64], scenarios: &[Vec<f64>], alpha_tail: f64) -> f64 {
    let mut losses: Vec<f64> = scenarios
        .iter()
        .map(|r| -r.iter().zip(w).map(|(ri, wi)| ri * wi).sum::<f64>())
        .collect();
    losses.sort_by(|a, b| b.total_cmp(a));
    let n = losses.len() as f64;
    let k = (alpha_tail * n).ceil() as usize;
    losses[..k].iter().sum::<f64>() / k as f64
}

/// Rockafellar-Uryasev form of the expected shortfall: t + Σ max(0, Lᵢ − t)/(α n), whose
/// minimum over the threshold t is the ES.
#[differentiate(wrt(w, t))]
fn cvar_objective(w: &[f64], t: f64, scenarios: &[Vec<f64>], alpha_tail: f64) -> f64 {
    let n = scenarios.len() as f64;
    let mut excess = 0.0;
    for r in scenarios {
        let loss: f64 = -r.iter().zip(w).map(|(ri, wi)| ri * wi).sum::<f64>();
        excess += f64::max(0.0, loss - t);
    }
    t + excess / (alpha_tail * n)
}

/// Expected return minus risk aversion times ES, with a quadratic penalty keeping the
/// weights summing to one.
#[differentiate(wrt(w))]
fn objective(w: &[f64], scenarios: &[Vec<f64>], risk_aversion: f64) -> f64 {
    let n = scenarios.len() as f64;
    let mut mean_return = 0.0;
    for r in scenarios {
        for (ri, wi) in r.iter().zip(w) {
            mean_return += ri * wi / n;
        }
    }
    let budget: f64 = w.iter().sum::<f64>() - 1.0;
    mean_return - risk_aversion * expected_shortfall(w, scenarios, 0.1) - 100.0 * budget * budget
}

/// The same code without the attributes.
mod plain {
    pub fn variance(w: &[f64], cov: &[Vec<f64>]) -> f64 {
        let mut v = 0.0;
        for i in 0..w.len() {
            for j in 0..w.len() {
                v += w[i] * cov[i][j] * w[j];
            }
        }
        v
    }

    pub fn expected_shortfall(w: &[f64], scenarios: &[Vec<f64>], alpha_tail: f64) -> f64 {
        let mut losses: Vec<f64> = scenarios
            .iter()
            .map(|r| -r.iter().zip(w).map(|(ri, wi)| ri * wi).sum::<f64>())
            .collect();
        losses.sort_by(|a, b| b.total_cmp(a));
        let n = losses.len() as f64;
        let k = (alpha_tail * n).ceil() as usize;
        losses[..k].iter().sum::<f64>() / k as f64
    }

    pub fn cvar_objective(w: &[f64], t: f64, scenarios: &[Vec<f64>], alpha_tail: f64) -> f64 {
        let n = scenarios.len() as f64;
        let mut excess = 0.0;
        for r in scenarios {
            let loss: f64 = -r.iter().zip(w).map(|(ri, wi)| ri * wi).sum::<f64>();
            excess += f64::max(0.0, loss - t);
        }
        t + excess / (alpha_tail * n)
    }

    pub fn objective(w: &[f64], scenarios: &[Vec<f64>], risk_aversion: f64) -> f64 {
        let n = scenarios.len() as f64;
        let mut mean_return = 0.0;
        for r in scenarios {
            for (ri, wi) in r.iter().zip(w) {
                mean_return += ri * wi / n;
            }
        }
        let budget: f64 = w.iter().sum::<f64>() - 1.0;
        mean_return
            - risk_aversion * expected_shortfall(w, scenarios, 0.1)
            - 100.0 * budget * budget
    }
}

const WEIGHTS: [f64; 4] = [0.4, 0.3, 0.2, 0.1];

/// 250 daily return scenarios of four assets from a one-factor model with fat-ish tails.
fn scenarios() -> Vec<Vec<f64>> {
    let beta = [1.2, 0.8, 0.5, 0.1];
    let mut rng = Rng::new(31);
    (0..250)
        .map(|_| {
            let market = 0.01 * rng.normal() * if rng.uniform() < 0.1 { 2.5 } else { 1.0 };
            beta.iter()
                .map(|b| 0.0004 + b * market + 0.006 * rng.normal())
                .collect()
        })
        .collect()
}

/// Sample covariance of the scenarios.
fn covariance(s: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let (n, d) = (s.len() as f64, s[0].len());
    let mean: Vec<f64> = (0..d)
        .map(|j| s.iter().map(|r| r[j]).sum::<f64>() / n)
        .collect();
    (0..d)
        .map(|i| {
            (0..d)
                .map(|j| {
                    s.iter()
                        .map(|r| (r[i] - mean[i]) * (r[j] - mean[j]))
                        .sum::<f64>()
                        / (n - 1.0)
                })
                .collect()
        })
        .collect()
}

/// −(mean return vector of the k worst scenarios for `w`), and the gap between the k-th and
/// (k+1)-th losses (the sort order must not change within a finite-difference step).
fn es_closed_form(w: &[f64], s: &[Vec<f64>], alpha_tail: f64) -> (Vec<f64>, f64) {
    let mut order: Vec<(f64, usize)> = s
        .iter()
        .enumerate()
        .map(|(i, r)| (-r.iter().zip(w).map(|(a, b)| a * b).sum::<f64>(), i))
        .collect();
    order.sort_by(|a, b| b.0.total_cmp(&a.0));
    let k = (alpha_tail * s.len() as f64).ceil() as usize;
    let g = (0..w.len())
        .map(|j| -order[..k].iter().map(|&(_, i)| s[i][j]).sum::<f64>() / k as f64)
        .collect();
    (g, order[k - 1].0 - order[k].0)
}

#[test]
fn primal_is_the_plain_code() {
    let s = scenarios();
    let cov = covariance(&s);
    assert_same_bits(
        variance(&WEIGHTS, &cov),
        plain::variance(&WEIGHTS, &cov),
        "variance",
    );
    assert_same_bits(
        expected_shortfall(&WEIGHTS, &s, 0.1),
        plain::expected_shortfall(&WEIGHTS, &s, 0.1),
        "ES",
    );
    assert_same_bits(
        objective(&WEIGHTS, &s, 2.0),
        plain::objective(&WEIGHTS, &s, 2.0),
        "objective",
    );
    assert_same_bits(
        cvar_objective(&WEIGHTS, 0.01, &s, 0.1),
        plain::cvar_objective(&WEIGHTS, 0.01, &s, 0.1),
        "cvar",
    );
}

#[test]
fn variance_gradient_is_two_sigma_w() {
    let cov = covariance(&scenarios());
    let (v, g) = variance_grad(&WEIGHTS, &cov);
    assert_close(v, plain::variance(&WEIGHTS, &cov), 1e-15, "value");
    let want: Vec<f64> = (0..4)
        .map(|i| 2.0 * (0..4).map(|j| cov[i][j] * WEIGHTS[j]).sum::<f64>())
        .collect();
    assert_all_close(&g, &want, 1e-12, "2 Sigma w");
}

#[test]
fn expected_shortfall_gradient_is_minus_tail_mean() {
    let s = scenarios();
    for alpha_tail in [0.05, 0.1, 0.25] {
        let (v, g) = expected_shortfall_grad(&WEIGHTS, &s, alpha_tail);
        assert_close(
            v,
            plain::expected_shortfall(&WEIGHTS, &s, alpha_tail),
            1e-15,
            "value",
        );
        let (want, gap) = es_closed_form(&WEIGHTS, &s, alpha_tail);
        assert!(
            gap > 1e-6,
            "test data: a near tie at the tail boundary ({gap:e})"
        );
        assert_all_close(&g, &want, 1e-9, "tail mean");
    }
}

#[test]
fn objective_gradient_matches_finite_differences() {
    let s = scenarios();
    let (v, g) = objective_grad(&WEIGHTS, &s, 2.0);
    assert_close(v, plain::objective(&WEIGHTS, &s, 2.0), 1e-15, "value");
    // The loss order must not change within the step: the tail boundary gap is ~1e-4 per
    // unit weight, so a step of 1e-6 stays inside one ordering.
    let fd = fd_gradient_step(|w| plain::objective(w, &s, 2.0), &WEIGHTS, 1e-6);
    assert_all_close(&g, &fd, 1e-6, "finite differences");
}

#[test]
fn cvar_objective_gradient_counts_the_exceedances() {
    // ∂/∂t = 1 − #{Lᵢ > t}/(αn), ∂/∂w = −Σ_{Lᵢ > t} rᵢ/(αn).
    let s = scenarios();
    let n = s.len() as f64;
    for t in [0.005, 0.012, 0.02] {
        let (v, (g_w, g_t)) = cvar_objective_grad(&WEIGHTS, t, &s, 0.1);
        let g_t: f64 = g_t;
        assert_close(
            v,
            plain::cvar_objective(&WEIGHTS, t, &s, 0.1),
            1e-15,
            "value",
        );
        let (mut want_w, mut want_t) = (vec![0.0; 4], 1.0);
        for r in &s {
            let loss: f64 = -r.iter().zip(&WEIGHTS).map(|(a, b)| a * b).sum::<f64>();
            assert!(
                (loss - t).abs() > 1e-7,
                "test data: a loss at the threshold"
            );
            if loss > t {
                want_t -= 1.0 / (0.1 * n);
                for j in 0..4 {
                    want_w[j] -= r[j] / (0.1 * n);
                }
            }
        }
        assert_all_close(&g_w, &want_w, 1e-9, "d/dw");
        assert_close(g_t, want_t, 1e-9, "d/dt");
    }
}
