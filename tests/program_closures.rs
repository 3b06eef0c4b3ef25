//! Local closures inside differentiated code, as people write them to avoid repeating a
//! formula: a Gaussian kernel `let kernel = |r: f64| (-r * r / (2.0 * ell * ell)).exp();`
//! capturing the active bandwidth and called with data (`xs[i] - xs[j]`) and with active
//! values (`x - c`); an `FnMut` closure accumulating into an active sum; `for v in samples`
//! over `&f64`; an early `return f64::NAN` from a function with an active result.
//! - Bandwidth selection for Nadaraya-Watson regression by leave-one-out cross-validation,
//!   differentiated with respect to log ℓ (finite differences).
//! - A radial-basis-function prediction, differentiated with respect to the query point
//!   and log ℓ (closed form).
//! - Mean plus two standard deviations of a sample, with respect to every sample
//!   (closed form: 1/n + 2 (xᵢ − x̄)/((n − 1) s)).
#![allow(clippy::needless_range_loop)]
use fazang::prelude::*;

mod program_support;
use program_support::*;

#[differentiate(wrt(log_ell))]
fn loo_cv(log_ell: f64, xs: &[f64], ys: &[f64]) -> f64 {
    let ell = log_ell.exp();
    let kernel = |r: f64| (-r * r / (2.0 * ell * ell)).exp();
    let n = xs.len();
    let mut err = 0.0;
    for i in 0..n {
        let (mut num, mut den) = (0.0, 0.0);
        for j in 0..n {
            if i != j {
                let w = kernel(xs[i] - xs[j]);
                num += w * ys[j];
                den += w;
            }
        }
        err += (ys[i] - num / den).powi(2);
    }
    err / n as f64
}

#[differentiate(wrt(x, log_ell))]
fn rbf_predict(x: f64, log_ell: f64, centres: &[f64], weights: &[f64]) -> f64 {
    let ell = log_ell.exp();
    let kernel = |r: f64| (-r * r / (2.0 * ell * ell)).exp();
    centres
        .iter()
        .zip(weights)
        .map(|(&c, &w)| w * kernel(x - c))
        .sum()
}

#[differentiate]
fn upper_band(samples: &[f64]) -> f64 {
    if samples.len() < 2 {
        return f64::NAN;
    }
    let n = samples.len() as f64;
    let mut s = 0.0;
    for v in samples {
        s += v;
    }
    let mean = s / n;
    let mut acc = 0.0;
    let mut push = |d: f64| acc += d * d;
    for v in samples {
        push(v - mean);
    }
    mean + 2.0 * (acc / (n - 1.0)).sqrt()
}

/// The same code without the attributes.
mod plain {
    pub fn loo_cv(log_ell: f64, xs: &[f64], ys: &[f64]) -> f64 {
        let ell = log_ell.exp();
        let kernel = |r: f64| (-r * r / (2.0 * ell * ell)).exp();
        let n = xs.len();
        let mut err = 0.0;
        for i in 0..n {
            let (mut num, mut den) = (0.0, 0.0);
            for j in 0..n {
                if i != j {
                    let w = kernel(xs[i] - xs[j]);
                    num += w * ys[j];
                    den += w;
                }
            }
            err += (ys[i] - num / den).powi(2);
        }
        err / n as f64
    }

    pub fn rbf_predict(x: f64, log_ell: f64, centres: &[f64], weights: &[f64]) -> f64 {
        let ell = log_ell.exp();
        let kernel = |r: f64| (-r * r / (2.0 * ell * ell)).exp();
        centres
            .iter()
            .zip(weights)
            .map(|(&c, &w)| w * kernel(x - c))
            .sum()
    }

    pub fn upper_band(samples: &[f64]) -> f64 {
        if samples.len() < 2 {
            return f64::NAN;
        }
        let n = samples.len() as f64;
        let mut s = 0.0;
        for v in samples {
            s += v;
        }
        let mean = s / n;
        let mut acc = 0.0;
        let mut push = |d: f64| acc += d * d;
        for v in samples {
            push(v - mean);
        }
        mean + 2.0 * (acc / (n - 1.0)).sqrt()
    }
}

/// 40 noisy samples of a damped sine on [0, 6].
fn data() -> (Vec<f64>, Vec<f64>) {
    let mut rng = Rng::new(6);
    (0..40)
        .map(|_| {
            let x = rng.range(0.0, 6.0);
            (x, (-0.3 * x).exp() * (2.0 * x).sin() + 0.05 * rng.normal())
        })
        .unzip()
}

#[test]
fn primal_is_the_plain_code() {
    let (xs, ys) = data();
    for l in [-2.0, -1.0, 0.0] {
        assert_same_bits(loo_cv(l, &xs, &ys), plain::loo_cv(l, &xs, &ys), "loo");
        assert_same_bits(
            rbf_predict(1.3, l, &xs, &ys),
            plain::rbf_predict(1.3, l, &xs, &ys),
            "rbf",
        );
    }
    assert_same_bits(upper_band(&ys), plain::upper_band(&ys), "band");
    assert!(upper_band(&[1.0]).is_nan());
}

#[test]
fn loo_cv_gradient_matches_finite_differences() {
    let (xs, ys) = data();
    for l in [-2.5, -1.6, -0.5, 0.3] {
        let (v, [g]) = loo_cv_grad(l, &xs, &ys);
        assert_close(v, plain::loo_cv(l, &xs, &ys), 1e-14, "value");
        let fd = fd_gradient(|t| plain::loo_cv(t[0], &xs, &ys), &[l]);
        assert_close(g, fd[0], 1e-6, "finite differences");
    }
}

#[test]
fn rbf_gradient_matches_closed_form() {
    // f = Σ w k(x − c), k(r) = exp(−r²/(2ℓ²)): ∂f/∂x = Σ w k (−r/ℓ²), ∂f/∂log ℓ = Σ w k r²/ℓ².
    let (xs, ys) = data();
    for (x, l) in [(1.3, -1.0), (4.2, -0.2), (-0.5, 0.4)] {
        let (v, [dx, dl]) = rbf_predict_grad(x, l, &xs, &ys);
        assert_close(v, plain::rbf_predict(x, l, &xs, &ys), 1e-14, "value");
        let ell2 = (2.0 * l).exp();
        let (mut want_x, mut want_l) = (0.0, 0.0);
        for (c, w) in xs.iter().zip(&ys) {
            let r = x - c;
            let k = (-r * r / (2.0 * ell2)).exp();
            want_x += w * k * -r / ell2;
            want_l += w * k * r * r / ell2;
        }
        assert_close(dx, want_x, 1e-9, "d/dx");
        assert_close(dl, want_l, 1e-9, "d/dlog ell");
    }
}

#[test]
fn upper_band_gradient_matches_closed_form() {
    let (_, ys) = data();
    let (v, g) = upper_band_grad(&ys);
    assert_close(v, plain::upper_band(&ys), 1e-14, "value");
    let n = ys.len() as f64;
    let mean = ys.iter().sum::<f64>() / n;
    let sd = (ys.iter().map(|y| (y - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
    let want: Vec<f64> = ys
        .iter()
        .map(|y| 1.0 / n + 2.0 * (y - mean) / ((n - 1.0) * sd))
        .collect();
    assert_all_close(&g, &want, 1e-9, "closed form");
}
