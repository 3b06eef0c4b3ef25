//! Kalman-filter log likelihoods, written as filters are: the state mean and variance start
//! as data (`let mut m = m0; let mut p = p0;`) and are updated in place with active
//! values.
//! - The local-level model (random walk observed with noise), differentiated with respect
//!   to the log variances. Independent truth: the filter's likelihood is the joint normal
//!   density of the observations with covariance Σᵢⱼ = p0 + q·min(i, j) + r·[i = j], so
//!   its gradient is ½ tr((ααᵀ − Σ⁻¹) ∂Σ/∂θ) (computed here with a plain Cholesky).
//! - A constant-velocity tracker with a 2×2 covariance in `[[f64; 2]; 2]` arrays (a literal
//!   mixing constants and active values), `normal_lpdf` with `?` for each innovation;
//!   checked against finite differences.
#![allow(clippy::needless_range_loop)]
use fazang::prelude::*;

mod program_support;
use program_support::*;

use std::f64::consts::PI;

#[differentiate(wrt(log_q, log_r))]
fn local_level(log_q: f64, log_r: f64, ys: &[f64], m0: f64, p0: f64) -> f64 {
    let q = log_q.exp();
    let r = log_r.exp();
    let mut m = m0;
    let mut p = p0;
    let mut ll = 0.0;
    for &y in ys {
        p += q; // predict
        let s = p + r; // innovation variance
        let v = y - m; // innovation
        ll -= 0.5 * ((2.0 * PI).ln() + s.ln() + v * v / s);
        let k = p / s;
        m += k * v;
        p *= 1.0 - k;
    }
    ll
}

#[differentiate(wrt(log_q, log_r))]
fn tracker(log_q: f64, log_r: f64, zs: &[f64], dt: f64) -> Result<f64, DomainError> {
    let q = log_q.exp();
    let r = log_r.exp();
    let mut x = [zs[0], 0.0];
    let mut p = [[r, 0.0], [0.0, 1.0]];
    let mut ll = 0.0;
    for &z in &zs[1..] {
        // Predict with F = [[1, dt], [0, 1]] and white-noise acceleration of intensity q.
        x = [x[0] + dt * x[1], x[1]];
        let p00 = p[0][0] + dt * (p[1][0] + p[0][1]) + dt * dt * p[1][1] + q * dt.powi(3) / 3.0;
        let p01 = p[0][1] + dt * p[1][1] + q * dt * dt / 2.0;
        let p11 = p[1][1] + q * dt;
        p = [[p00, p01], [p01, p11]];
        // Update with H = [1, 0].
        let s = p[0][0] + r;
        ll += normal_lpdf(z, x[0], s.sqrt())?;
        let k = [p[0][0] / s, p[1][0] / s];
        let v = z - x[0];
        x = [x[0] + k[0] * v, x[1] + k[1] * v];
        p = [
            [(1.0 - k[0]) * p[0][0], (1.0 - k[0]) * p[0][1]],
            [p[1][0] - k[1] * p[0][0], p[1][1] - k[1] * p[0][1]],
        ];
    }
    Ok(ll)
}

/// The same code without the attributes.
mod plain {
    use fazang::prelude::*;
    use std::f64::consts::PI;

    pub fn local_level(log_q: f64, log_r: f64, ys: &[f64], m0: f64, p0: f64) -> f64 {
        let q = log_q.exp();
        let r = log_r.exp();
        let mut m = m0;
        let mut p = p0;
        let mut ll = 0.0;
        for &y in ys {
            p += q; // predict
            let s = p + r; // innovation variance
            let v = y - m; // innovation
            ll -= 0.5 * ((2.0 * PI).ln() + s.ln() + v * v / s);
            let k = p / s;
            m += k * v;
            p *= 1.0 - k;
        }
        ll
    }

    pub fn tracker(log_q: f64, log_r: f64, zs: &[f64], dt: f64) -> Result<f64, DomainError> {
        let q = log_q.exp();
        let r = log_r.exp();
        let mut x = [zs[0], 0.0];
        let mut p = [[r, 0.0], [0.0, 1.0]];
        let mut ll = 0.0;
        for &z in &zs[1..] {
            x = [x[0] + dt * x[1], x[1]];
            let p00 = p[0][0] + dt * (p[1][0] + p[0][1]) + dt * dt * p[1][1] + q * dt.powi(3) / 3.0;
            let p01 = p[0][1] + dt * p[1][1] + q * dt * dt / 2.0;
            let p11 = p[1][1] + q * dt;
            p = [[p00, p01], [p01, p11]];
            let s = p[0][0] + r;
            ll += normal_lpdf(z, x[0], s.sqrt())?;
            let k = [p[0][0] / s, p[1][0] / s];
            let v = z - x[0];
            x = [x[0] + k[0] * v, x[1] + k[1] * v];
            p = [
                [(1.0 - k[0]) * p[0][0], (1.0 - k[0]) * p[0][1]],
                [p[1][0] - k[1] * p[0][0], p[1][1] - k[1] * p[0][1]],
            ];
        }
        Ok(ll)
    }
}

/// A random walk (step sd 0.3) observed with noise sd 0.5, 40 steps.
fn level_data() -> Vec<f64> {
    let mut rng = Rng::new(17);
    let mut level = 1.0;
    (0..40)
        .map(|_| {
            level += 0.3 * rng.normal();
            level + 0.5 * rng.normal()
        })
        .collect()
}

/// A target moving with slowly varying velocity, positions observed every 0.5 s.
fn track_data() -> Vec<f64> {
    let mut rng = Rng::new(23);
    let (mut pos, mut vel) = (0.0, 1.0);
    (0..30)
        .map(|_| {
            vel += 0.2 * rng.normal();
            pos += 0.5 * vel;
            pos + 0.4 * rng.normal()
        })
        .collect()
}

/// Lower Cholesky factor and solves, plain.
fn cholesky(a: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let n = a.len();
    let mut l = vec![vec![0.0; n]; n];
    for j in 0..n {
        let d = a[j][j] - (0..j).map(|p| l[j][p] * l[j][p]).sum::<f64>();
        l[j][j] = d.sqrt();
        for i in j + 1..n {
            l[i][j] = (a[i][j] - (0..j).map(|p| l[i][p] * l[j][p]).sum::<f64>()) / l[j][j];
        }
    }
    l
}

fn solve(l: &[Vec<f64>], b: &[f64]) -> Vec<f64> {
    let n = b.len();
    let mut z = b.to_vec();
    for i in 0..n {
        z[i] = (z[i] - (0..i).map(|p| l[i][p] * z[p]).sum::<f64>()) / l[i][i];
    }
    for i in (0..n).rev() {
        z[i] = (z[i] - (i + 1..n).map(|p| l[p][i] * z[p]).sum::<f64>()) / l[i][i];
    }
    z
}

/// The joint normal log density of `ys` under the local-level model, and its gradient
/// with respect to (log q, log r).
fn joint_density(log_q: f64, log_r: f64, ys: &[f64], m0: f64, p0: f64) -> (f64, [f64; 2]) {
    let n = ys.len();
    let (q, r) = (log_q.exp(), log_r.exp());
    let sigma: Vec<Vec<f64>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| p0 + q * ((i.min(j) + 1) as f64) + if i == j { r } else { 0.0 })
                .collect()
        })
        .collect();
    let l = cholesky(&sigma);
    let resid: Vec<f64> = ys.iter().map(|y| y - m0).collect();
    let alpha = solve(&l, &resid);
    let quad: f64 = resid.iter().zip(&alpha).map(|(a, b)| a * b).sum();
    let log_det: f64 = 2.0 * (0..n).map(|i| l[i][i].ln()).sum::<f64>();
    let value = -0.5 * (n as f64 * (2.0 * PI).ln() + log_det + quad);
    let mut g = [0.0; 2];
    for j in 0..n {
        let mut e = vec![0.0; n];
        e[j] = 1.0;
        let inv_col = solve(&l, &e);
        for i in 0..n {
            let w = alpha[i] * alpha[j] - inv_col[i];
            g[0] += 0.5 * w * q * ((i.min(j) + 1) as f64);
            if i == j {
                g[1] += 0.5 * w * r;
            }
        }
    }
    (value, g)
}

#[test]
fn primal_is_the_plain_code_and_the_joint_density() {
    let ys = level_data();
    let (a, b) = (2.0 * 0.3f64.ln(), 2.0 * 0.5f64.ln());
    let v = local_level(a, b, &ys, 0.0, 4.0);
    assert_same_bits(v, plain::local_level(a, b, &ys, 0.0, 4.0), "local level");
    assert_close(
        v,
        joint_density(a, b, &ys, 0.0, 4.0).0,
        1e-10,
        "joint density",
    );
    let zs = track_data();
    assert_same_bits(
        tracker(-1.0, -1.5, &zs, 0.5).unwrap(),
        plain::tracker(-1.0, -1.5, &zs, 0.5).unwrap(),
        "tracker",
    );
}

#[test]
fn local_level_gradient_matches_joint_density_gradient() {
    let ys = level_data();
    for (a, b) in [(-2.4, -1.4), (-1.0, -2.0), (0.5, 0.0)] {
        let (v, g) = local_level_grad(a, b, &ys, 0.0, 4.0);
        let (want_v, want_g) = joint_density(a, b, &ys, 0.0, 4.0);
        assert_close(v, want_v, 1e-10, "value");
        assert_all_close(&g, &want_g, 1e-9, "closed form");
        let fd = fd_gradient(|t| plain::local_level(t[0], t[1], &ys, 0.0, 4.0), &[a, b]);
        assert_all_close(&g, &fd, 1e-6, "finite differences");
    }
}

#[test]
fn tracker_gradient_matches_finite_differences() {
    let zs = track_data();
    for (a, b) in [(-1.0, -1.5), (-3.0, -1.8), (0.2, -0.5)] {
        let (v, g) = tracker_grad(a, b, &zs, 0.5).unwrap();
        assert_close(v, plain::tracker(a, b, &zs, 0.5).unwrap(), 1e-13, "value");
        let fd = fd_gradient(|t| plain::tracker(t[0], t[1], &zs, 0.5).unwrap(), &[a, b]);
        assert_all_close(&g, &fd, 1e-6, "finite differences");
    }
}
