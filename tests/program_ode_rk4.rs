//! Fixed-step fourth-order Runge-Kutta, written the way it is in a first numerical-methods
//! course: the state starts as data (`let mut u = u0;`) and is updated in place with
//! active increments (`u[0] += dt / 6.0 * (...)`). Two models:
//! - Lotka-Volterra predator-prey, the sum of squared errors against observations,
//!   differentiated with respect to the four rates passed as `&[f64; 4]` (gradient
//!   `[f64; 4]`), and the final state's Jacobian with respect to the rates;
//! - linear decay u' = −λu, whose RK4 solution is u₀ R(−λh)ⁿ with
//!   R(z) = 1 + z + z²/2 + z³/6 + z⁴/24, so its derivative has a closed form.
#![allow(clippy::needless_range_loop)]
use fazang::prelude::*;

mod program_support;
use program_support::*;

/// du/dt of the predator-prey model; `theta` = [α, β, γ, δ].
#[differentiate]
fn lotka_volterra(u: [f64; 2], theta: &[f64; 4]) -> [f64; 2] {
    let [alpha, beta, gamma, delta] = *theta;
    [
        alpha * u[0] - beta * u[0] * u[1],
        delta * u[0] * u[1] - gamma * u[1],
    ]
}

/// `steps` RK4 steps of size `dt` from `u`.
#[differentiate]
fn rk4(mut u: [f64; 2], theta: &[f64; 4], dt: f64, steps: usize) -> [f64; 2] {
    for _ in 0..steps {
        let k1 = lotka_volterra(u, theta);
        let mut mid = u;
        for i in 0..2 {
            mid[i] += 0.5 * dt * k1[i];
        }
        let k2 = lotka_volterra(mid, theta);
        let mut mid = u;
        for i in 0..2 {
            mid[i] += 0.5 * dt * k2[i];
        }
        let k3 = lotka_volterra(mid, theta);
        let end = [u[0] + dt * k3[0], u[1] + dt * k3[1]];
        let k4 = lotka_volterra(end, theta);
        u[0] += dt / 6.0 * (k1[0] + 2.0 * k2[0] + 2.0 * k3[0] + k4[0]);
        u[1] += dt / 6.0 * (k1[1] + 2.0 * k2[1] + 2.0 * k3[1] + k4[1]);
    }
    u
}

/// Sum of squared errors of the populations at the observation times (one every
/// `steps_per_obs` steps).
#[differentiate(wrt(theta))]
fn sse(theta: &[f64; 4], u0: [f64; 2], obs: &[[f64; 2]], dt: f64, steps_per_obs: usize) -> f64 {
    let mut u = u0;
    let mut total = 0.0;
    for target in obs {
        u = rk4(u, theta, dt, steps_per_obs);
        total += (u[0] - target[0]).powi(2) + (u[1] - target[1]).powi(2);
    }
    total
}

/// Populations after `t_end` (a Jacobian with respect to the rates only).
#[differentiate(wrt(theta))]
fn final_state(theta: &[f64; 4], u0: [f64; 2], t_end: f64, steps: usize) -> Vec<f64> {
    let dt = t_end / steps as f64;
    rk4(u0, theta, dt, steps).to_vec()
}

/// RK4 for u' = −λu, in the scalar form people write for one equation.
#[differentiate(wrt(lambda, u0))]
fn decay(lambda: f64, u0: f64, h: f64, n: usize) -> f64 {
    let f = |u: f64| -lambda * u;
    let mut u = u0;
    for _ in 0..n {
        let k1 = f(u);
        let k2 = f(u + 0.5 * h * k1);
        let k3 = f(u + 0.5 * h * k2);
        let k4 = f(u + h * k3);
        u += h * (k1 + 2.0 * k2 + 2.0 * k3 + k4) / 6.0;
    }
    u
}

/// The same code without the attributes.
mod plain {
    pub fn lotka_volterra(u: [f64; 2], theta: &[f64; 4]) -> [f64; 2] {
        let [alpha, beta, gamma, delta] = *theta;
        [
            alpha * u[0] - beta * u[0] * u[1],
            delta * u[0] * u[1] - gamma * u[1],
        ]
    }

    pub fn rk4(mut u: [f64; 2], theta: &[f64; 4], dt: f64, steps: usize) -> [f64; 2] {
        for _ in 0..steps {
            let k1 = lotka_volterra(u, theta);
            let mut mid = u;
            for i in 0..2 {
                mid[i] += 0.5 * dt * k1[i];
            }
            let k2 = lotka_volterra(mid, theta);
            let mut mid = u;
            for i in 0..2 {
                mid[i] += 0.5 * dt * k2[i];
            }
            let k3 = lotka_volterra(mid, theta);
            let end = [u[0] + dt * k3[0], u[1] + dt * k3[1]];
            let k4 = lotka_volterra(end, theta);
            u[0] += dt / 6.0 * (k1[0] + 2.0 * k2[0] + 2.0 * k3[0] + k4[0]);
            u[1] += dt / 6.0 * (k1[1] + 2.0 * k2[1] + 2.0 * k3[1] + k4[1]);
        }
        u
    }

    pub fn sse(
        theta: &[f64; 4],
        u0: [f64; 2],
        obs: &[[f64; 2]],
        dt: f64,
        steps_per_obs: usize,
    ) -> f64 {
        let mut u = u0;
        let mut total = 0.0;
        for target in obs {
            u = rk4(u, theta, dt, steps_per_obs);
            total += (u[0] - target[0]).powi(2) + (u[1] - target[1]).powi(2);
        }
        total
    }

    pub fn final_state(theta: &[f64; 4], u0: [f64; 2], t_end: f64, steps: usize) -> Vec<f64> {
        let dt = t_end / steps as f64;
        rk4(u0, theta, dt, steps).to_vec()
    }

    pub fn decay(lambda: f64, u0: f64, h: f64, n: usize) -> f64 {
        let f = |u: f64| -lambda * u;
        let mut u = u0;
        for _ in 0..n {
            let k1 = f(u);
            let k2 = f(u + 0.5 * h * k1);
            let k3 = f(u + 0.5 * h * k2);
            let k4 = f(u + h * k3);
            u += h * (k1 + 2.0 * k2 + 2.0 * k3 + k4) / 6.0;
        }
        u
    }
}

const THETA: [f64; 4] = [1.1, 0.4, 0.4, 0.1];
const U0: [f64; 2] = [10.0, 5.0];
const DT: f64 = 0.05;
const STEPS_PER_OBS: usize = 10;

/// Twelve observations of the model at slightly different rates, with 3 % noise.
fn observations() -> Vec<[f64; 2]> {
    let truth = [1.0, 0.45, 0.38, 0.11];
    let mut rng = Rng::new(11);
    let mut u = U0;
    (0..12)
        .map(|_| {
            u = plain::rk4(u, &truth, DT, STEPS_PER_OBS);
            [
                u[0] * (1.0 + 0.03 * rng.normal()),
                u[1] * (1.0 + 0.03 * rng.normal()),
            ]
        })
        .collect()
}

#[test]
fn primal_is_the_plain_code() {
    let obs = observations();
    assert_same_bits(
        sse(&THETA, U0, &obs, DT, STEPS_PER_OBS),
        plain::sse(&THETA, U0, &obs, DT, STEPS_PER_OBS),
        "sse",
    );
    assert_all_same_bits(
        &final_state(&THETA, U0, 6.0, 120),
        &plain::final_state(&THETA, U0, 6.0, 120),
        "final state",
    );
    assert_same_bits(
        decay(0.7, 2.0, 0.1, 30),
        plain::decay(0.7, 2.0, 0.1, 30),
        "decay",
    );
}

#[test]
fn sse_gradient_matches_finite_differences() {
    let obs = observations();
    let (v, g) = sse_grad(&THETA, U0, &obs, DT, STEPS_PER_OBS);
    let g: [f64; 4] = g; // the rates' own shape
    assert_close(
        v,
        plain::sse(&THETA, U0, &obs, DT, STEPS_PER_OBS),
        1e-13,
        "value",
    );
    let fd = fd_gradient(
        |t| plain::sse(&[t[0], t[1], t[2], t[3]], U0, &obs, DT, STEPS_PER_OBS),
        &THETA,
    );
    assert_all_close(&g, &fd, 1e-6, "finite differences");
}

#[test]
fn final_state_jacobian_matches_finite_differences() {
    let (values, jac) = final_state_jacobian(&THETA, U0, 6.0, 120);
    assert_all_close(
        &values,
        &plain::final_state(&THETA, U0, 6.0, 120),
        1e-13,
        "values",
    );
    assert_eq!((jac.len(), jac[0].len()), (2, 4));
    let fd = fd_jacobian(
        |t| plain::final_state(&[t[0], t[1], t[2], t[3]], U0, 6.0, 120),
        &THETA,
    );
    assert_rows_close(&jac, &fd, 1e-6, "jacobian");
}

#[test]
fn decay_gradient_matches_closed_form() {
    // u_n = u0 R(z)^n with z = −λh; du_n/dλ = u0 n R^(n−1) R'(z) (−h), du_n/du0 = R^n.
    let (lambda, u0, h, n) = (0.7, 2.0, 0.1, 30);
    let z = -lambda * h;
    let r = 1.0 + z + z * z / 2.0 + z * z * z / 6.0 + z * z * z * z / 24.0;
    let dr = 1.0 + z + z * z / 2.0 + z * z * z / 6.0;
    let (v, [d_lambda, d_u0]) = decay_grad(lambda, u0, h, n);
    assert_close(v, u0 * r.powi(n as i32), 1e-13, "value");
    assert_close(
        d_lambda,
        u0 * n as f64 * r.powi(n as i32 - 1) * dr * -h,
        1e-12,
        "d/dlambda",
    );
    assert_close(d_u0, r.powi(n as i32), 1e-13, "d/du0");
    let fd = fd_gradient(|t| plain::decay(t[0], t[1], h, n), &[lambda, u0]);
    assert_all_close(&[d_lambda, d_u0], &fd, 1e-6, "finite differences");
}
