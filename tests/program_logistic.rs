//! Logistic regression as it is usually written first: a flat row-major design matrix,
//! two nested index loops for the linear predictor, a numerically stable log(1 + e^η)
//! branching on the active predictor, and a normal prior through fazang's `normal_lpdf`
//! with `?`. The gradient with respect to the coefficients is checked against the closed
//! form Xᵀ(y − p) − β/σ² and against finite differences.
#![allow(clippy::needless_range_loop)]
use fazang::prelude::*;

mod program_support;
use program_support::*;

/// log(1 + e^η) without overflow.
#[differentiate]
fn log1p_exp(eta: f64) -> f64 {
    if eta > 0.0 {
        eta + (-eta).exp().ln_1p()
    } else {
        eta.exp().ln_1p()
    }
}

/// Bernoulli-logit log likelihood of `ys` (0 or 1) given rows `xs[r * d .. (r + 1) * d]`.
#[differentiate(wrt(beta))]
fn log_likelihood(beta: &[f64], xs: &[f64], ys: &[f64]) -> f64 {
    let d = beta.len();
    let n = ys.len();
    let mut ll = 0.0;
    for r in 0..n {
        let mut eta = 0.0;
        for j in 0..d {
            eta += xs[r * d + j] * beta[j];
        }
        ll += ys[r] * eta - log1p_exp(eta);
    }
    ll
}

/// Log posterior with a normal(0, `prior_scale`) prior on every coefficient.
#[differentiate(wrt(beta))]
fn log_posterior(
    beta: &[f64],
    xs: &[f64],
    ys: &[f64],
    prior_scale: f64,
) -> Result<f64, DomainError> {
    let prior = normal_lpdf(beta, 0.0, prior_scale)?;
    Ok(prior + log_likelihood(beta, xs, ys))
}

/// The same code without the attribute.
mod plain {
    use fazang::prelude::*;

    pub fn log1p_exp(eta: f64) -> f64 {
        if eta > 0.0 {
            eta + (-eta).exp().ln_1p()
        } else {
            eta.exp().ln_1p()
        }
    }

    pub fn log_likelihood(beta: &[f64], xs: &[f64], ys: &[f64]) -> f64 {
        let d = beta.len();
        let n = ys.len();
        let mut ll = 0.0;
        for r in 0..n {
            let mut eta = 0.0;
            for j in 0..d {
                eta += xs[r * d + j] * beta[j];
            }
            ll += ys[r] * eta - log1p_exp(eta);
        }
        ll
    }

    pub fn log_posterior(
        beta: &[f64],
        xs: &[f64],
        ys: &[f64],
        prior_scale: f64,
    ) -> Result<f64, DomainError> {
        let prior = normal_lpdf(beta, 0.0, prior_scale)?;
        Ok(prior + log_likelihood(beta, xs, ys))
    }
}

/// 60 rows, an intercept column and three standard-normal features; labels drawn from the
/// model at `truth`.
fn data() -> (Vec<f64>, Vec<f64>) {
    let truth = [-0.4, 1.2, -0.8, 0.3];
    let mut rng = Rng::new(7);
    let (mut xs, mut ys) = (Vec::new(), Vec::new());
    for _ in 0..60 {
        let row = [1.0, rng.normal(), rng.normal(), rng.normal()];
        let eta: f64 = row.iter().zip(&truth).map(|(x, b)| x * b).sum();
        let p = 1.0 / (1.0 + (-eta).exp());
        ys.push(if rng.uniform() < p { 1.0 } else { 0.0 });
        xs.extend_from_slice(&row);
    }
    (xs, ys)
}

const BETA: [f64; 4] = [-0.1, 0.9, -0.5, 0.2];

/// Xᵀ(y − p), written out.
fn score(beta: &[f64], xs: &[f64], ys: &[f64]) -> Vec<f64> {
    let d = beta.len();
    let mut g = vec![0.0; d];
    for (r, y) in ys.iter().enumerate() {
        let row = &xs[r * d..(r + 1) * d];
        let eta: f64 = row.iter().zip(beta).map(|(x, b)| x * b).sum();
        let p = 1.0 / (1.0 + (-eta).exp());
        for j in 0..d {
            g[j] += row[j] * (y - p);
        }
    }
    g
}

#[test]
fn primal_is_the_plain_code() {
    let (xs, ys) = data();
    assert_same_bits(
        log_likelihood(&BETA, &xs, &ys),
        plain::log_likelihood(&BETA, &xs, &ys),
        "log_likelihood",
    );
    assert_same_bits(
        log_posterior(&BETA, &xs, &ys, 2.5).unwrap(),
        plain::log_posterior(&BETA, &xs, &ys, 2.5).unwrap(),
        "log_posterior",
    );
    for eta in [-40.0, -1.5, 0.0, 0.7, 35.0] {
        assert_same_bits(log1p_exp(eta), plain::log1p_exp(eta), "log1p_exp");
    }
}

#[test]
fn likelihood_gradient_is_the_score() {
    let (xs, ys) = data();
    let (v, g) = log_likelihood_grad(&BETA, &xs, &ys);
    assert_close(v, plain::log_likelihood(&BETA, &xs, &ys), 1e-14, "value");
    assert_all_close(&g, &score(&BETA, &xs, &ys), 1e-12, "score");
}

#[test]
fn posterior_gradient_matches_closed_form_and_finite_differences() {
    let (xs, ys) = data();
    let (v, g) = log_posterior_grad(&BETA, &xs, &ys, 2.5).unwrap();
    assert_close(
        v,
        plain::log_posterior(&BETA, &xs, &ys, 2.5).unwrap(),
        1e-14,
        "value",
    );
    let want: Vec<f64> = score(&BETA, &xs, &ys)
        .iter()
        .zip(&BETA)
        .map(|(s, b)| s - b / (2.5 * 2.5))
        .collect();
    assert_all_close(&g, &want, 1e-12, "closed form");
    let fd = fd_gradient(|b| plain::log_posterior(b, &xs, &ys, 2.5).unwrap(), &BETA);
    assert_all_close(&g, &fd, 1e-6, "finite differences");
}

#[test]
fn bad_prior_scale_is_an_error() {
    let (xs, ys) = data();
    let err = log_posterior_grad(&BETA, &xs, &ys, -1.0).unwrap_err();
    assert_eq!(
        err.to_string(),
        "normal_lpdf: Scale parameter is -1, but must be positive!"
    );
}

#[test]
fn stable_branch_both_ways() {
    // d/dη log(1 + e^η) = 1 / (1 + e^-η), on both branches and far out.
    for eta in [-40.0, -1.5, 0.7, 35.0] {
        let (v, [d]) = log1p_exp_grad(eta);
        assert_close(v, plain::log1p_exp(eta), 1e-15, "value");
        assert_close(d, 1.0 / (1.0 + (-eta).exp()), 1e-14, "derivative");
    }
}
