//! A one-dimensional Gaussian mixture: mixing weights as a softmax of logits, component
//! densities through fazang's `normal_lpdf` with `?`, and the log-sum-exp over components
//! written by hand with `fold(f64::NEG_INFINITY, f64::max)`. Parameters come in three
//! shapes, as they tend to: logits `&[f64]`, means `Vec<f64>` by value, log scales
//! `[f64; 3]`. A second version writes the normal density out and returns `f64`.
//!
//! The gradient is checked against the EM identities (with responsibilities r_ij):
//! ∂/∂μ_j = Σᵢ r_ij (xᵢ − μ_j)/σ_j², ∂/∂log σ_j = Σᵢ r_ij ((xᵢ − μ_j)²/σ_j² − 1),
//! ∂/∂logit_j = Σᵢ (r_ij − w_j), and against finite differences.
#![allow(clippy::needless_range_loop)]
use fazang::prelude::*;

mod program_support;
use program_support::*;

#[differentiate(wrt(logits, means, log_sigmas))]
fn log_likelihood(
    logits: &[f64],
    means: Vec<f64>,
    log_sigmas: [f64; 3],
    xs: &[f64],
) -> Result<f64, DomainError> {
    let k = means.len();
    let max_logit = logits.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let log_norm = max_logit
        + logits
            .iter()
            .map(|l| (l - max_logit).exp())
            .sum::<f64>()
            .ln();
    let mut total = 0.0;
    for &x in xs {
        let mut terms = Vec::with_capacity(k);
        for j in 0..k {
            terms.push(logits[j] - log_norm + normal_lpdf(x, means[j], log_sigmas[j].exp())?);
        }
        let m = terms.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        total += m + terms.iter().map(|t| (t - m).exp()).sum::<f64>().ln();
    }
    Ok(total)
}

/// The same model with the density written out and weights given directly (they must
/// sum to one; the caller's business).
#[differentiate(wrt(weights, means, sigmas))]
fn log_likelihood_by_hand(weights: &[f64], means: &[f64], sigmas: &[f64], xs: &[f64]) -> f64 {
    let half_ln_2pi = 0.5 * (2.0 * std::f64::consts::PI).ln();
    xs.iter()
        .map(|x| {
            let terms: Vec<f64> = (0..weights.len())
                .map(|j| {
                    let z = (x - means[j]) / sigmas[j];
                    weights[j].ln() - half_ln_2pi - sigmas[j].ln() - 0.5 * z * z
                })
                .collect();
            let m = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            m + terms.iter().map(|t| (t - m).exp()).sum::<f64>().ln()
        })
        .sum()
}

/// The same code without the attributes.
mod plain {
    use fazang::prelude::*;

    pub fn log_likelihood(
        logits: &[f64],
        means: Vec<f64>,
        log_sigmas: [f64; 3],
        xs: &[f64],
    ) -> Result<f64, DomainError> {
        let k = means.len();
        let max_logit = logits.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let log_norm = max_logit
            + logits
                .iter()
                .map(|l| (l - max_logit).exp())
                .sum::<f64>()
                .ln();
        let mut total = 0.0;
        for &x in xs {
            let mut terms = Vec::with_capacity(k);
            for j in 0..k {
                terms.push(logits[j] - log_norm + normal_lpdf(x, means[j], log_sigmas[j].exp())?);
            }
            let m = terms.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            total += m + terms.iter().map(|t| (t - m).exp()).sum::<f64>().ln();
        }
        Ok(total)
    }

    pub fn log_likelihood_by_hand(
        weights: &[f64],
        means: &[f64],
        sigmas: &[f64],
        xs: &[f64],
    ) -> f64 {
        let half_ln_2pi = 0.5 * (2.0 * std::f64::consts::PI).ln();
        xs.iter()
            .map(|x| {
                let terms: Vec<f64> = (0..weights.len())
                    .map(|j| {
                        let z = (x - means[j]) / sigmas[j];
                        weights[j].ln() - half_ln_2pi - sigmas[j].ln() - 0.5 * z * z
                    })
                    .collect();
                let m = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                m + terms.iter().map(|t| (t - m).exp()).sum::<f64>().ln()
            })
            .sum()
    }
}

/// 80 draws from 0.5 N(−2, 0.7) + 0.3 N(1, 0.5) + 0.2 N(3.5, 1).
fn data() -> Vec<f64> {
    let mut rng = Rng::new(99);
    (0..80)
        .map(|_| {
            let u = rng.uniform();
            let z = rng.normal();
            if u < 0.5 {
                -2.0 + 0.7 * z
            } else if u < 0.8 {
                1.0 + 0.5 * z
            } else {
                3.5 + z
            }
        })
        .collect()
}

const LOGITS: [f64; 3] = [0.4, -0.1, -0.6];
const MEANS: [f64; 3] = [-1.8, 0.9, 3.2];
const LOG_SIGMAS: [f64; 3] = [-0.3, -0.6, 0.1];

/// The EM identities above, in the order (logits, means, log sigmas).
fn em_gradient(xs: &[f64]) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let sum_e: f64 = LOGITS.iter().map(|l| l.exp()).sum();
    let w: Vec<f64> = LOGITS.iter().map(|l| l.exp() / sum_e).collect();
    let s: Vec<f64> = LOG_SIGMAS.iter().map(|l| l.exp()).collect();
    let (mut g_l, mut g_m, mut g_s) = (vec![0.0; 3], vec![0.0; 3], vec![0.0; 3]);
    for &x in xs {
        let dens: Vec<f64> = (0..3)
            .map(|j| {
                let z = (x - MEANS[j]) / s[j];
                w[j] * (-0.5 * z * z).exp() / (s[j] * (2.0 * std::f64::consts::PI).sqrt())
            })
            .collect();
        let total: f64 = dens.iter().sum();
        for j in 0..3 {
            let r = dens[j] / total;
            let z = (x - MEANS[j]) / s[j];
            g_l[j] += r - w[j];
            g_m[j] += r * z / s[j];
            g_s[j] += r * (z * z - 1.0);
        }
    }
    (g_l, g_m, g_s)
}

#[test]
fn primal_is_the_plain_code() {
    let xs = data();
    assert_same_bits(
        log_likelihood(&LOGITS, MEANS.to_vec(), LOG_SIGMAS, &xs).unwrap(),
        plain::log_likelihood(&LOGITS, MEANS.to_vec(), LOG_SIGMAS, &xs).unwrap(),
        "log likelihood",
    );
    let w = [0.5, 0.3, 0.2];
    let s = [0.7, 0.5, 1.0];
    assert_same_bits(
        log_likelihood_by_hand(&w, &MEANS, &s, &xs),
        plain::log_likelihood_by_hand(&w, &MEANS, &s, &xs),
        "by hand",
    );
}

#[test]
fn gradient_matches_em_identities() {
    let xs = data();
    let (v, (g_logits, g_means, g_log_sigmas)) =
        log_likelihood_grad(&LOGITS, MEANS.to_vec(), LOG_SIGMAS, &xs).unwrap();
    let g_log_sigmas: [f64; 3] = g_log_sigmas;
    assert_close(
        v,
        plain::log_likelihood(&LOGITS, MEANS.to_vec(), LOG_SIGMAS, &xs).unwrap(),
        1e-13,
        "value",
    );
    let (l, m, s) = em_gradient(&xs);
    assert_all_close(&g_logits, &l, 1e-9, "logits");
    assert_all_close(&g_means, &m, 1e-9, "means");
    assert_all_close(&g_log_sigmas, &s, 1e-9, "log sigmas");
}

#[test]
fn gradient_matches_finite_differences() {
    let xs = data();
    let (_, (g_logits, g_means, g_log_sigmas)) =
        log_likelihood_grad(&LOGITS, MEANS.to_vec(), LOG_SIGMAS, &xs).unwrap();
    let g: Vec<f64> = [g_logits, g_means, g_log_sigmas.to_vec()].concat();
    let theta: Vec<f64> = [LOGITS, MEANS, LOG_SIGMAS].concat();
    let fd = fd_gradient(
        |t| {
            let sigmas = [t[6], t[7], t[8]];
            plain::log_likelihood(&t[0..3], t[3..6].to_vec(), sigmas, &xs).unwrap()
        },
        &theta,
    );
    assert_all_close(&g, &fd, 1e-6, "finite differences");
}

#[test]
fn hand_written_density_gradient_matches_finite_differences() {
    let xs = data();
    let (w, s) = ([0.45, 0.35, 0.2], [0.8, 0.55, 1.1]);
    let (v, (g_w, g_m, g_s)) = log_likelihood_by_hand_grad(&w, &MEANS, &s, &xs);
    assert_close(
        v,
        plain::log_likelihood_by_hand(&w, &MEANS, &s, &xs),
        1e-13,
        "value",
    );
    let g: Vec<f64> = [g_w, g_m, g_s].concat();
    let theta: Vec<f64> = [w, MEANS, s].concat();
    let fd = fd_gradient(
        |t| plain::log_likelihood_by_hand(&t[0..3], &t[3..6], &t[6..9], &xs),
        &theta,
    );
    assert_all_close(&g, &fd, 1e-6, "finite differences");
}

#[test]
fn invalid_mean_is_reported() {
    let xs = data();
    let means = vec![-1.8, f64::INFINITY, 3.2];
    let err = log_likelihood_grad(&LOGITS, means, LOG_SIGMAS, &xs).unwrap_err();
    assert_eq!(
        err.to_string(),
        "normal_lpdf: Location parameter is inf, but must be finite!"
    );
}
