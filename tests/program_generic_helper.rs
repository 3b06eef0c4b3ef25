//! Generic helpers written against `num_traits::Float`, the usual way to make a numeric
//! function work on any float type, called from differentiated bodies with active values
//! (this needs fazang's scalars to implement `Float`: issue 13). The model is a
//! heteroscedastic regression, y ~ Normal(a + b x, softplus(c + d x)), through
//! `normal_lpdf` with `?`.
//!
//! Closed forms, with rᵢ = yᵢ − μᵢ and σ' = logistic: ∂/∂a = Σ r/σ², ∂/∂b = Σ r x/σ²,
//! ∂/∂c = Σ (r²/σ³ − 1/σ) σ', ∂/∂d = Σ (r²/σ³ − 1/σ) σ' x.
use fazang::prelude::*;
use num_traits::Float;

mod program_support;
use program_support::*;

/// log(1 + eˣ) without overflow.
fn softplus<T: Float>(x: T) -> T {
    let twenty = T::from(20.0).unwrap();
    if x > twenty {
        x
    } else {
        x.exp().ln_1p()
    }
}

fn logistic<T: Float>(x: T) -> T {
    T::one() / (T::one() + (-x).exp())
}

#[differentiate(wrt(theta))]
fn log_likelihood(theta: &[f64], xs: &[f64], ys: &[f64]) -> Result<f64, DomainError> {
    let mut lp = 0.0;
    for (x, y) in xs.iter().zip(ys) {
        let mu = theta[0] + theta[1] * x;
        let sigma = softplus(theta[2] + theta[3] * x);
        lp += normal_lpdf(*y, mu, sigma)?;
    }
    Ok(lp)
}

#[differentiate]
fn gate(z: f64) -> f64 {
    logistic(z) * softplus(z)
}

/// The same code without the attributes.
mod plain {
    use super::{logistic, softplus};
    use fazang::prelude::*;

    pub fn log_likelihood(theta: &[f64], xs: &[f64], ys: &[f64]) -> Result<f64, DomainError> {
        let mut lp = 0.0;
        for (x, y) in xs.iter().zip(ys) {
            let mu = theta[0] + theta[1] * x;
            let sigma = softplus(theta[2] + theta[3] * x);
            lp += normal_lpdf(*y, mu, sigma)?;
        }
        Ok(lp)
    }

    pub fn gate(z: f64) -> f64 {
        logistic(z) * softplus(z)
    }
}

/// Noise growing with x: 60 points on [0, 3].
fn data() -> (Vec<f64>, Vec<f64>) {
    let mut rng = Rng::new(60);
    (0..60)
        .map(|_| {
            let x = rng.range(0.0, 3.0);
            let sd = (0.2f64 + 0.5 * x).exp().ln_1p();
            (x, 0.5 + 1.5 * x + sd * rng.normal())
        })
        .unzip()
}

const THETA: [f64; 4] = [0.4, 1.6, -0.1, 0.6];

#[test]
fn primal_is_the_plain_code() {
    let (xs, ys) = data();
    assert_same_bits(
        log_likelihood(&THETA, &xs, &ys).unwrap(),
        plain::log_likelihood(&THETA, &xs, &ys).unwrap(),
        "log likelihood",
    );
    for z in [-30.0, -1.0, 0.5, 25.0] {
        assert_same_bits(gate(z), plain::gate(z), "gate");
    }
}

#[test]
fn gradient_matches_closed_form_and_finite_differences() {
    let (xs, ys) = data();
    let (v, g) = log_likelihood_grad(&THETA, &xs, &ys).unwrap();
    assert_close(
        v,
        plain::log_likelihood(&THETA, &xs, &ys).unwrap(),
        1e-13,
        "value",
    );
    let mut want = [0.0; 4];
    for (x, y) in xs.iter().zip(&ys) {
        let r = y - THETA[0] - THETA[1] * x;
        let eta = THETA[2] + THETA[3] * x;
        let sigma = softplus(eta);
        let d_sigma = r * r / sigma.powi(3) - 1.0 / sigma;
        want[0] += r / (sigma * sigma);
        want[1] += r * x / (sigma * sigma);
        want[2] += d_sigma * logistic(eta);
        want[3] += d_sigma * logistic(eta) * x;
    }
    assert_all_close(&g, &want, 1e-9, "closed form");
    let fd = fd_gradient(|t| plain::log_likelihood(t, &xs, &ys).unwrap(), &THETA);
    assert_all_close(&g, &fd, 1e-6, "finite differences");
}

#[test]
fn gate_derivative_on_both_branches_of_softplus() {
    for z in [-30.0, -1.0, 0.5, 25.0] {
        let (v, [d]) = gate_grad(z);
        assert_close(v, plain::gate(z), 1e-15, "value");
        let p = logistic(z);
        // softplus' = logistic on the smooth branch, 1 on the x > 20 branch.
        let d_soft = if z > 20.0 { 1.0 } else { p };
        assert_close(
            d,
            p * (1.0 - p) * softplus(z) + p * d_soft,
            1e-9,
            "derivative",
        );
    }
}
