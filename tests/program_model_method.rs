//! A statistical model as a type with methods, the way a sampler expects it: the data live
//! in the struct, `log_density(&self, theta: &[f64]) -> f64` is a method, and
//! `#[differentiate]` goes on the whole `impl` block (which also holds the constructor and
//! a helper method called with active values). The model is Rubin's eight schools in the
//! non-centred parameterisation, θ = [μ, log τ, η₁..η₈].
//!
//! Checks: the primal against the same impl without the attribute; the gradient against
//! its closed form; a second method using fazang's distributions with `?` against the
//! first (same gradient, values differing by the normalising constants).
#![allow(clippy::needless_range_loop)]
use fazang::prelude::*;

mod program_support;
use program_support::*;

pub struct EightSchools {
    y: Vec<f64>,
    sigma: Vec<f64>,
}

#[differentiate]
impl EightSchools {
    pub fn new(y: &[f64], sigma: &[f64]) -> Self {
        assert_eq!(y.len(), sigma.len());
        EightSchools {
            y: y.to_vec(),
            sigma: sigma.to_vec(),
        }
    }

    /// Normal(0, 5) on μ and half-Cauchy(0, 5) on τ, without constants.
    fn log_prior(&self, mu: f64, tau: f64) -> f64 {
        -0.5 * (mu / 5.0).powi(2) - (1.0 + (tau / 5.0).powi(2)).ln()
    }

    pub fn log_density(&self, theta: &[f64]) -> f64 {
        let mu = theta[0];
        let log_tau = theta[1];
        let tau = log_tau.exp();
        if !tau.is_finite() {
            return f64::NEG_INFINITY;
        }
        let eta = &theta[2..];
        let mut lp = self.log_prior(mu, tau) + log_tau; // + log |dτ/dlog τ|
        for j in 0..self.y.len() {
            let school = mu + tau * eta[j];
            lp -= 0.5 * eta[j] * eta[j];
            lp -= 0.5 * ((self.y[j] - school) / self.sigma[j]).powi(2);
        }
        lp
    }

    pub fn log_density_checked(&self, theta: &[f64]) -> Result<f64, DomainError> {
        let (mu, tau) = (theta[0], theta[1].exp());
        let eta = &theta[2..];
        let school: Vec<f64> = eta.iter().map(|e| mu + tau * e).collect();
        Ok(normal_lpdf(mu, 0.0, 5.0)?
            + cauchy_lpdf(tau, 0.0, 5.0)?
            + theta[1]
            + normal_lpdf(eta, 0.0, 1.0)?
            + normal_lpdf(&self.y, &school, &self.sigma)?)
    }
}

/// The same type and methods without the attribute.
mod plain {
    use fazang::prelude::*;

    pub struct EightSchools {
        y: Vec<f64>,
        sigma: Vec<f64>,
    }

    impl EightSchools {
        pub fn new(y: &[f64], sigma: &[f64]) -> Self {
            assert_eq!(y.len(), sigma.len());
            EightSchools {
                y: y.to_vec(),
                sigma: sigma.to_vec(),
            }
        }

        fn log_prior(&self, mu: f64, tau: f64) -> f64 {
            -0.5 * (mu / 5.0).powi(2) - (1.0 + (tau / 5.0).powi(2)).ln()
        }

        pub fn log_density(&self, theta: &[f64]) -> f64 {
            let mu = theta[0];
            let log_tau = theta[1];
            let tau = log_tau.exp();
            if !tau.is_finite() {
                return f64::NEG_INFINITY;
            }
            let eta = &theta[2..];
            let mut lp = self.log_prior(mu, tau) + log_tau;
            for j in 0..self.y.len() {
                let school = mu + tau * eta[j];
                lp -= 0.5 * eta[j] * eta[j];
                lp -= 0.5 * ((self.y[j] - school) / self.sigma[j]).powi(2);
            }
            lp
        }

        pub fn log_density_checked(&self, theta: &[f64]) -> Result<f64, DomainError> {
            let (mu, tau) = (theta[0], theta[1].exp());
            let eta = &theta[2..];
            let school: Vec<f64> = eta.iter().map(|e| mu + tau * e).collect();
            Ok(normal_lpdf(mu, 0.0, 5.0)?
                + cauchy_lpdf(tau, 0.0, 5.0)?
                + theta[1]
                + normal_lpdf(eta, 0.0, 1.0)?
                + normal_lpdf(&self.y, &school, &self.sigma)?)
        }
    }
}

const Y: [f64; 8] = [28.0, 8.0, -3.0, 7.0, -1.0, 1.0, 18.0, 12.0];
const SIGMA: [f64; 8] = [15.0, 10.0, 16.0, 11.0, 9.0, 11.0, 10.0, 18.0];

/// A few points of the posterior's bulk.
fn thetas() -> Vec<Vec<f64>> {
    let mut rng = Rng::new(8);
    (0..4)
        .map(|_| {
            let mut t = vec![4.0 + 3.0 * rng.normal(), 1.2 + 0.5 * rng.normal()];
            t.extend((0..8).map(|_| rng.normal()));
            t
        })
        .collect()
}

/// The gradient worked out by hand.
fn closed_form(theta: &[f64]) -> Vec<f64> {
    let (mu, tau) = (theta[0], theta[1].exp());
    let eta = &theta[2..];
    let mut g = vec![0.0; 10];
    g[0] = -mu / 25.0;
    let mut d_tau = -2.0 * tau / 25.0 / (1.0 + tau * tau / 25.0);
    for j in 0..8 {
        let w = (Y[j] - mu - tau * eta[j]) / (SIGMA[j] * SIGMA[j]);
        g[0] += w;
        d_tau += w * eta[j];
        g[2 + j] = -eta[j] + w * tau;
    }
    g[1] = tau * d_tau + 1.0;
    g
}

#[test]
fn primal_is_the_plain_code() {
    let model = EightSchools::new(&Y, &SIGMA);
    let plain_model = plain::EightSchools::new(&Y, &SIGMA);
    for theta in thetas() {
        assert_same_bits(
            model.log_density(&theta),
            plain_model.log_density(&theta),
            "lp",
        );
        assert_same_bits(
            model.log_density_checked(&theta).unwrap(),
            plain_model.log_density_checked(&theta).unwrap(),
            "checked lp",
        );
    }
    let mut huge = thetas()[0].clone();
    huge[1] = 800.0; // τ = e^800 overflows
    assert_eq!(model.log_density(&huge), f64::NEG_INFINITY);
}

#[test]
fn gradient_matches_closed_form_and_finite_differences() {
    let model = EightSchools::new(&Y, &SIGMA);
    let plain_model = plain::EightSchools::new(&Y, &SIGMA);
    for theta in thetas() {
        let (lp, g) = model.log_density_grad(&theta);
        assert_close(lp, plain_model.log_density(&theta), 1e-14, "value");
        assert_all_close(&g, &closed_form(&theta), 1e-9, "closed form");
        let fd = fd_gradient(|t| plain_model.log_density(t), &theta);
        assert_all_close(&g, &fd, 1e-6, "finite differences");
    }
}

#[test]
fn distribution_version_differs_by_constants_only() {
    let model = EightSchools::new(&Y, &SIGMA);
    let ln_2pi = (2.0 * std::f64::consts::PI).ln();
    let constant = -0.5 * ln_2pi * 17.0
        - 5f64.ln()
        - (5.0 * std::f64::consts::PI).ln()
        - SIGMA.iter().map(|s| s.ln()).sum::<f64>();
    for theta in thetas() {
        let (lp, g) = model.log_density_checked_grad(&theta).unwrap();
        assert_close(lp, model.log_density(&theta) + constant, 1e-12, "value");
        assert_all_close(&g, &closed_form(&theta), 1e-9, "gradient");
    }
}

#[test]
fn infinite_location_is_an_error() {
    let model = EightSchools::new(&Y, &SIGMA);
    let mut theta = thetas()[0].clone();
    theta[0] = f64::INFINITY;
    let err = model.log_density_checked_grad(&theta).unwrap_err();
    assert!(err.to_string().starts_with("normal_lpdf:"), "{err}");
}
