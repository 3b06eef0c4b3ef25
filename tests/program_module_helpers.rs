//! A model kept in a module of its own with small private helpers, and `#[differentiate]`
//! once on the module rather than on each function. Enzyme kinetics: Michaelis-Menten
//! rates fitted to an assay. The helper `sq` is called with active values and with data;
//! the data travel in a struct defined in the same module; `log_posterior` uses fazang's
//! `lognormal_lpdf` with `?` and leaves the noise scale active (gradient a tuple).
//!
//! Closed forms: ∂SSE/∂V = −2 Σ rᵢ sᵢ/(K + sᵢ), ∂SSE/∂K = 2 Σ rᵢ V sᵢ/(K + sᵢ)² (rᵢ the
//! residuals); ∂/∂σ of −SSE/(2σ²) is SSE/σ³.
use fazang::prelude::*;

mod program_support;
use program_support::*;

#[differentiate]
mod kinetics {
    use fazang::prelude::*;

    /// Initial rates measured at substrate concentrations.
    pub struct Assay {
        pub conc: Vec<f64>,
        pub rate: Vec<f64>,
    }

    fn sq(v: f64) -> f64 {
        v * v
    }

    fn michaelis_menten(s: f64, vmax: f64, km: f64) -> f64 {
        vmax * s / (km + s)
    }

    /// Sum of squared residuals; `params` = [V_max, K_m].
    pub fn sse(params: &[f64], data: &Assay) -> f64 {
        let mut total = 0.0;
        for (s, r) in data.conc.iter().zip(&data.rate) {
            total += sq(r - michaelis_menten(*s, params[0], params[1]));
        }
        total
    }

    pub fn r_squared(params: &[f64], data: &Assay) -> f64 {
        let n = data.rate.len() as f64;
        let mean = data.rate.iter().sum::<f64>() / n;
        let total: f64 = data.rate.iter().map(|&r| sq(r - mean)).sum();
        1.0 - sse(params, data) / total
    }

    /// Log-normal(0, 2) priors on both parameters, normal noise of scale `noise_sd`.
    pub fn log_posterior(params: &[f64], data: &Assay, noise_sd: f64) -> Result<f64, DomainError> {
        let prior = lognormal_lpdf(params, 0.0, 2.0)?;
        let n = data.rate.len() as f64;
        Ok(prior - n * noise_sd.ln() - sse(params, data) / (2.0 * sq(noise_sd)))
    }
}

/// The same module without the attribute.
mod plain {
    use fazang::prelude::*;

    pub struct Assay {
        pub conc: Vec<f64>,
        pub rate: Vec<f64>,
    }

    fn sq(v: f64) -> f64 {
        v * v
    }

    fn michaelis_menten(s: f64, vmax: f64, km: f64) -> f64 {
        vmax * s / (km + s)
    }

    pub fn sse(params: &[f64], data: &Assay) -> f64 {
        let mut total = 0.0;
        for (s, r) in data.conc.iter().zip(&data.rate) {
            total += sq(r - michaelis_menten(*s, params[0], params[1]));
        }
        total
    }

    pub fn r_squared(params: &[f64], data: &Assay) -> f64 {
        let n = data.rate.len() as f64;
        let mean = data.rate.iter().sum::<f64>() / n;
        let total: f64 = data.rate.iter().map(|&r| sq(r - mean)).sum();
        1.0 - sse(params, data) / total
    }

    pub fn log_posterior(params: &[f64], data: &Assay, noise_sd: f64) -> Result<f64, DomainError> {
        let prior = lognormal_lpdf(params, 0.0, 2.0)?;
        let n = data.rate.len() as f64;
        Ok(prior - n * noise_sd.ln() - sse(params, data) / (2.0 * sq(noise_sd)))
    }
}

/// Twelve concentrations (mM) and rates from V = 2.4, K = 0.6 with 4 % noise.
fn measurements() -> (Vec<f64>, Vec<f64>) {
    let mut rng = Rng::new(12);
    let conc: Vec<f64> = (0..12).map(|i| 0.05 * 1.5f64.powi(i)).collect();
    let rate = conc
        .iter()
        .map(|s| 2.4 * s / (0.6 + s) * (1.0 + 0.04 * rng.normal()))
        .collect();
    (conc, rate)
}

fn assay() -> kinetics::Assay {
    let (conc, rate) = measurements();
    kinetics::Assay { conc, rate }
}

fn plain_assay() -> plain::Assay {
    let (conc, rate) = measurements();
    plain::Assay { conc, rate }
}

const PARAMS: [f64; 2] = [2.2, 0.5];

#[test]
fn primal_is_the_plain_code() {
    let (a, p) = (assay(), plain_assay());
    assert_same_bits(kinetics::sse(&PARAMS, &a), plain::sse(&PARAMS, &p), "sse");
    assert_same_bits(
        kinetics::r_squared(&PARAMS, &a),
        plain::r_squared(&PARAMS, &p),
        "r2",
    );
    assert_same_bits(
        kinetics::log_posterior(&PARAMS, &a, 0.1).unwrap(),
        plain::log_posterior(&PARAMS, &p, 0.1).unwrap(),
        "log posterior",
    );
}

#[test]
fn sse_gradient_matches_closed_form_and_finite_differences() {
    let (a, p) = (assay(), plain_assay());
    let (v, g) = kinetics::sse_grad(&PARAMS, &a);
    assert_close(v, plain::sse(&PARAMS, &p), 1e-15, "value");
    let [vmax, km] = PARAMS;
    let mut want = [0.0, 0.0];
    for (s, r) in p.conc.iter().zip(&p.rate) {
        let res = r - vmax * s / (km + s);
        want[0] -= 2.0 * res * s / (km + s);
        want[1] += 2.0 * res * vmax * s / ((km + s) * (km + s));
    }
    assert_all_close(&g, &want, 1e-9, "closed form");
    let fd = fd_gradient(|t| plain::sse(t, &p), &PARAMS);
    assert_all_close(&g, &fd, 1e-6, "finite differences");
}

#[test]
fn r_squared_gradient_matches_finite_differences() {
    let (a, p) = (assay(), plain_assay());
    let (v, g) = kinetics::r_squared_grad(&PARAMS, &a);
    assert_close(v, plain::r_squared(&PARAMS, &p), 1e-15, "value");
    let fd = fd_gradient(|t| plain::r_squared(t, &p), &PARAMS);
    assert_all_close(&g, &fd, 1e-6, "finite differences");
}

#[test]
fn log_posterior_gradient_includes_the_noise_scale() {
    let (a, p) = (assay(), plain_assay());
    let sd = 0.1;
    let (v, (g_params, g_sd)) = kinetics::log_posterior_grad(&PARAMS, &a, sd).unwrap();
    let g_sd: f64 = g_sd;
    assert_close(
        v,
        plain::log_posterior(&PARAMS, &p, sd).unwrap(),
        1e-14,
        "value",
    );
    let n = p.rate.len() as f64;
    assert_close(
        g_sd,
        -n / sd + plain::sse(&PARAMS, &p) / (sd * sd * sd),
        1e-9,
        "d/dsd",
    );
    let fd = fd_gradient(
        |t| plain::log_posterior(&t[0..2], &p, t[2]).unwrap(),
        &[2.2, 0.5, sd],
    );
    assert_all_close(
        &[g_params[0], g_params[1], g_sd],
        &fd,
        1e-6,
        "finite differences",
    );
    let err = kinetics::log_posterior_grad(&[2.2, -0.5], &a, sd).unwrap_err();
    assert_eq!(
        err.to_string(),
        "lognormal_lpdf: Random variable[2] is -0.5, but must be positive!"
    );
}
