//! Gaussian-process regression with a hand-written Cholesky factorisation (nalgebra's does
//! not run on fazang's scalar): the log marginal likelihood of noisy observations under a
//! squared-exponential kernel, differentiated with respect to the three log
//! hyperparameters, and the posterior mean at new inputs, whose Jacobian with respect to
//! the hyperparameters is taken. The observations `ys` are data that meet active values in
//! the triangular solves (`let mut z = ys.to_vec(); z[i] -= l[i][p] * z[p];`).
//!
//! Checks: the primal against the same code without the attribute; the gradient against
//! the closed form ½ tr((ααᵀ − K⁻¹) ∂K/∂θ) and against finite differences; the Jacobian
//! against finite differences.
#![allow(clippy::needless_range_loop)]
use fazang::prelude::*;

mod program_support;
use program_support::*;

/// Lower-triangular L with K = L Lᵀ.
#[differentiate]
fn cholesky(k: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let n = k.len();
    let mut l = vec![vec![0.0; n]; n];
    for j in 0..n {
        for i in j..n {
            let mut s = k[i][j];
            for p in 0..j {
                s -= l[i][p] * l[j][p];
            }
            if i == j {
                l[i][j] = s.sqrt();
            } else {
                l[i][j] = s / l[j][j];
            }
        }
    }
    l
}

/// Solves L Lᵀ x = b.
#[differentiate]
fn cholesky_solve(l: &[Vec<f64>], b: &[f64]) -> Vec<f64> {
    let n = b.len();
    let mut z = b.to_vec();
    for i in 0..n {
        for p in 0..i {
            z[i] -= l[i][p] * z[p];
        }
        z[i] /= l[i][i];
    }
    for i in (0..n).rev() {
        for p in i + 1..n {
            z[i] -= l[p][i] * z[p];
        }
        z[i] /= l[i][i];
    }
    z
}

#[differentiate(wrt(log_ell, log_sf))]
fn kernel_matrix(log_ell: f64, log_sf: f64, xs: &[f64]) -> Vec<Vec<f64>> {
    let n = xs.len();
    let ell = log_ell.exp();
    let sf2 = (2.0 * log_sf).exp();
    let mut k = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..n {
            let d = xs[i] - xs[j];
            k[i][j] = sf2 * (-0.5 * d * d / (ell * ell)).exp();
        }
    }
    k
}

#[differentiate(wrt(log_ell, log_sf, log_sn))]
fn log_marginal_likelihood(log_ell: f64, log_sf: f64, log_sn: f64, xs: &[f64], ys: &[f64]) -> f64 {
    let n = xs.len();
    let mut k = kernel_matrix(log_ell, log_sf, xs);
    let sn2 = (2.0 * log_sn).exp();
    for i in 0..n {
        k[i][i] += sn2;
    }
    let l = cholesky(&k);

    // Forward substitution L z = y: z starts as data and becomes active.
    let mut z = ys.to_vec();
    for i in 0..n {
        for p in 0..i {
            z[i] -= l[i][p] * z[p];
        }
        z[i] /= l[i][i];
    }
    let quad: f64 = z.iter().map(|v| v * v).sum();
    let log_det = 2.0 * (0..n).map(|i| l[i][i].ln()).sum::<f64>();
    -0.5 * quad - 0.5 * log_det - 0.5 * n as f64 * (2.0 * std::f64::consts::PI).ln()
}

/// Posterior mean k(x*, X) (K + σₙ² I)⁻¹ y at each of `x_new`.
#[differentiate(wrt(log_ell, log_sf, log_sn))]
fn posterior_mean(
    log_ell: f64,
    log_sf: f64,
    log_sn: f64,
    xs: &[f64],
    ys: &[f64],
    x_new: &[f64],
) -> Vec<f64> {
    let mut k = kernel_matrix(log_ell, log_sf, xs);
    for (i, row) in k.iter_mut().enumerate() {
        row[i] += (2.0 * log_sn).exp();
    }
    let alpha = cholesky_solve(&cholesky(&k), ys);
    let ell = log_ell.exp();
    let sf2 = (2.0 * log_sf).exp();
    x_new
        .iter()
        .map(|&x| {
            xs.iter()
                .zip(&alpha)
                .map(|(&xi, &a)| sf2 * (-0.5 * (x - xi).powi(2) / (ell * ell)).exp() * a)
                .sum()
        })
        .collect()
}

/// The same code without the attributes.
mod plain {
    pub fn cholesky(k: &[Vec<f64>]) -> Vec<Vec<f64>> {
        let n = k.len();
        let mut l = vec![vec![0.0; n]; n];
        for j in 0..n {
            for i in j..n {
                let mut s = k[i][j];
                for p in 0..j {
                    s -= l[i][p] * l[j][p];
                }
                if i == j {
                    l[i][j] = s.sqrt();
                } else {
                    l[i][j] = s / l[j][j];
                }
            }
        }
        l
    }

    pub fn cholesky_solve(l: &[Vec<f64>], b: &[f64]) -> Vec<f64> {
        let n = b.len();
        let mut z = b.to_vec();
        for i in 0..n {
            for p in 0..i {
                z[i] -= l[i][p] * z[p];
            }
            z[i] /= l[i][i];
        }
        for i in (0..n).rev() {
            for p in i + 1..n {
                z[i] -= l[p][i] * z[p];
            }
            z[i] /= l[i][i];
        }
        z
    }

    pub fn kernel_matrix(log_ell: f64, log_sf: f64, xs: &[f64]) -> Vec<Vec<f64>> {
        let n = xs.len();
        let ell = log_ell.exp();
        let sf2 = (2.0 * log_sf).exp();
        let mut k = vec![vec![0.0; n]; n];
        for i in 0..n {
            for j in 0..n {
                let d = xs[i] - xs[j];
                k[i][j] = sf2 * (-0.5 * d * d / (ell * ell)).exp();
            }
        }
        k
    }

    pub fn log_marginal_likelihood(
        log_ell: f64,
        log_sf: f64,
        log_sn: f64,
        xs: &[f64],
        ys: &[f64],
    ) -> f64 {
        let n = xs.len();
        let mut k = kernel_matrix(log_ell, log_sf, xs);
        let sn2 = (2.0 * log_sn).exp();
        for i in 0..n {
            k[i][i] += sn2;
        }
        let l = cholesky(&k);
        let mut z = ys.to_vec();
        for i in 0..n {
            for p in 0..i {
                z[i] -= l[i][p] * z[p];
            }
            z[i] /= l[i][i];
        }
        let quad: f64 = z.iter().map(|v| v * v).sum();
        let log_det = 2.0 * (0..n).map(|i| l[i][i].ln()).sum::<f64>();
        -0.5 * quad - 0.5 * log_det - 0.5 * n as f64 * (2.0 * std::f64::consts::PI).ln()
    }

    pub fn posterior_mean(
        log_ell: f64,
        log_sf: f64,
        log_sn: f64,
        xs: &[f64],
        ys: &[f64],
        x_new: &[f64],
    ) -> Vec<f64> {
        let mut k = kernel_matrix(log_ell, log_sf, xs);
        for (i, row) in k.iter_mut().enumerate() {
            row[i] += (2.0 * log_sn).exp();
        }
        let alpha = cholesky_solve(&cholesky(&k), ys);
        let ell = log_ell.exp();
        let sf2 = (2.0 * log_sf).exp();
        x_new
            .iter()
            .map(|&x| {
                xs.iter()
                    .zip(&alpha)
                    .map(|(&xi, &a)| sf2 * (-0.5 * (x - xi).powi(2) / (ell * ell)).exp() * a)
                    .sum()
            })
            .collect()
    }
}

/// 14 noisy samples of sin on [0, 5].
fn data() -> (Vec<f64>, Vec<f64>) {
    let mut rng = Rng::new(2024);
    let xs: Vec<f64> = (0..14).map(|_| rng.range(0.0, 5.0)).collect();
    let ys = xs.iter().map(|x| x.sin() + 0.1 * rng.normal()).collect();
    (xs, ys)
}

const THETA: [f64; 3] = [0.1, 0.2, -1.8]; // log ℓ, log σ_f, log σ_n

/// ½ tr((ααᵀ − K⁻¹) ∂K/∂θ) for the three log hyperparameters, with
/// ∂K/∂log ℓ = K_f ⊙ d²/ℓ², ∂K/∂log σ_f = 2 K_f, ∂K/∂log σ_n = 2σₙ² I.
fn closed_form_gradient(theta: &[f64; 3], xs: &[f64], ys: &[f64]) -> [f64; 3] {
    let n = xs.len();
    let kf = plain::kernel_matrix(theta[0], theta[1], xs);
    let sn2 = (2.0 * theta[2]).exp();
    let mut k = kf.clone();
    for i in 0..n {
        k[i][i] += sn2;
    }
    let l = plain::cholesky(&k);
    let alpha = plain::cholesky_solve(&l, ys);
    let k_inv: Vec<Vec<f64>> = (0..n)
        .map(|j| {
            let e: Vec<f64> = (0..n).map(|i| if i == j { 1.0 } else { 0.0 }).collect();
            plain::cholesky_solve(&l, &e)
        })
        .collect(); // columns of K⁻¹ (symmetric, so also rows)
    let ell2 = (2.0 * theta[0]).exp();
    let mut g = [0.0; 3];
    for i in 0..n {
        for j in 0..n {
            let w = alpha[i] * alpha[j] - k_inv[i][j];
            let d = xs[i] - xs[j];
            g[0] += 0.5 * w * kf[i][j] * d * d / ell2;
            g[1] += 0.5 * w * 2.0 * kf[i][j];
            if i == j {
                g[2] += 0.5 * w * 2.0 * sn2;
            }
        }
    }
    g
}

#[test]
fn primal_is_the_plain_code() {
    let (xs, ys) = data();
    let [a, b, c] = THETA;
    assert_same_bits(
        log_marginal_likelihood(a, b, c, &xs, &ys),
        plain::log_marginal_likelihood(a, b, c, &xs, &ys),
        "log marginal likelihood",
    );
    let x_new = [0.5, 2.25, 4.75];
    assert_all_same_bits(
        &posterior_mean(a, b, c, &xs, &ys, &x_new),
        &plain::posterior_mean(a, b, c, &xs, &ys, &x_new),
        "posterior mean",
    );
}

#[test]
fn gradient_matches_closed_form() {
    let (xs, ys) = data();
    let [a, b, c] = THETA;
    let (v, g) = log_marginal_likelihood_grad(a, b, c, &xs, &ys);
    assert_close(
        v,
        plain::log_marginal_likelihood(a, b, c, &xs, &ys),
        1e-13,
        "value",
    );
    assert_all_close(
        &g,
        &closed_form_gradient(&THETA, &xs, &ys),
        1e-9,
        "closed form",
    );
}

#[test]
fn gradient_matches_finite_differences() {
    let (xs, ys) = data();
    for theta in [THETA, [-0.5, 0.0, -1.0], [0.8, -0.3, -2.5]] {
        let [a, b, c] = theta;
        let (_, g) = log_marginal_likelihood_grad(a, b, c, &xs, &ys);
        let fd = fd_gradient(
            |t| plain::log_marginal_likelihood(t[0], t[1], t[2], &xs, &ys),
            &theta,
        );
        assert_all_close(&g, &fd, 1e-6, "finite differences");
    }
}

#[test]
fn posterior_mean_jacobian_matches_finite_differences() {
    let (xs, ys) = data();
    let x_new = [0.5, 2.25, 4.75, 6.0];
    let [a, b, c] = THETA;
    let (values, jac) = posterior_mean_jacobian(a, b, c, &xs, &ys, &x_new);
    assert_all_close(
        &values,
        &plain::posterior_mean(a, b, c, &xs, &ys, &x_new),
        1e-13,
        "values",
    );
    let fd = fd_jacobian(
        |t| plain::posterior_mean(t[0], t[1], t[2], &xs, &ys, &x_new),
        &THETA,
    );
    assert_rows_close(&jac, &fd, 1e-6, "jacobian");
}
