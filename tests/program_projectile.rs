//! Small physical simulations in the units people enter them in:
//! - a projectile with quadratic drag, launch angle in degrees (`to_radians`), the drag
//!   coefficient clamped to a physical range (`clamp`), stepped with semi-implicit Euler
//!   `while y >= 0.0`, the landing point found by linear interpolation of the last step;
//!   the range is differentiated with respect to speed, angle and drag;
//! - a damped pendulum integrated with velocity Verlet, the angle wrapped to [−π, π) with
//!   `rem_euclid`, a compass heading wrapped with `%`, and `to_degrees` for the report.
//!
//! Without drag the range has the closed form v² sin(2θ)/g up to the step error, and its
//! derivatives are checked against that on a fine step; everything against finite
//! differences (with a small step: the number of Euler steps changes with the inputs).
use fazang::prelude::*;

mod program_support;
use program_support::*;

use std::f64::consts::PI;

const G: f64 = 9.81;

#[differentiate(wrt(speed, angle_deg, drag))]
fn range(speed: f64, angle_deg: f64, drag: f64, dt: f64) -> f64 {
    let theta = angle_deg.to_radians();
    let k = drag.clamp(0.0, 0.05); // per metre, for a unit mass
    let (mut x, mut y) = (0.0, 0.0);
    let (mut vx, mut vy) = (speed * theta.cos(), speed * theta.sin());
    let (mut x_prev, mut y_prev) = (x, y);
    while y >= 0.0 {
        x_prev = x;
        y_prev = y;
        let v = (vx * vx + vy * vy).sqrt();
        vx -= k * v * vx * dt;
        vy -= (G + k * v * vy) * dt;
        x += vx * dt;
        y += vy * dt;
    }
    // Linear interpolation to y = 0 between the last two points.
    x_prev + (x - x_prev) * y_prev / (y_prev - y)
}

/// Final angle (wrapped to [−π, π), in degrees) and heading of a pendulum released at
/// `theta0_deg` with angular velocity `omega0`; the heading turns by the swing angle.
#[differentiate(wrt(theta0_deg, omega0, length))]
fn pendulum(theta0_deg: f64, omega0: f64, length: f64, damping: f64, steps: usize) -> Vec<f64> {
    let dt = 0.01;
    let mut theta = theta0_deg.to_radians();
    let mut omega = omega0;
    let accel = |th: f64, om: f64| -G / length * th.sin() - damping * om;
    let mut heading_deg = 350.0;
    for _ in 0..steps {
        let a0 = accel(theta, omega);
        theta += omega * dt + 0.5 * a0 * dt * dt;
        let a1 = accel(theta, omega + a0 * dt);
        omega += 0.5 * (a0 + a1) * dt;
        theta = (theta + PI).rem_euclid(2.0 * PI) - PI;
        heading_deg = (heading_deg + theta.to_degrees() * dt) % 360.0;
    }
    vec![theta.to_degrees(), omega, heading_deg]
}

/// The same code without the attributes.
mod plain {
    use super::G;
    use std::f64::consts::PI;

    pub fn range(speed: f64, angle_deg: f64, drag: f64, dt: f64) -> f64 {
        let theta = angle_deg.to_radians();
        let k = drag.clamp(0.0, 0.05);
        let (mut x, mut y) = (0.0, 0.0);
        let (mut vx, mut vy) = (speed * theta.cos(), speed * theta.sin());
        let (mut x_prev, mut y_prev) = (x, y);
        while y >= 0.0 {
            x_prev = x;
            y_prev = y;
            let v = (vx * vx + vy * vy).sqrt();
            vx -= k * v * vx * dt;
            vy -= (G + k * v * vy) * dt;
            x += vx * dt;
            y += vy * dt;
        }
        x_prev + (x - x_prev) * y_prev / (y_prev - y)
    }

    pub fn pendulum(
        theta0_deg: f64,
        omega0: f64,
        length: f64,
        damping: f64,
        steps: usize,
    ) -> Vec<f64> {
        let dt = 0.01;
        let mut theta = theta0_deg.to_radians();
        let mut omega = omega0;
        let accel = |th: f64, om: f64| -G / length * th.sin() - damping * om;
        let mut heading_deg = 350.0;
        for _ in 0..steps {
            let a0 = accel(theta, omega);
            theta += omega * dt + 0.5 * a0 * dt * dt;
            let a1 = accel(theta, omega + a0 * dt);
            omega += 0.5 * (a0 + a1) * dt;
            theta = (theta + PI).rem_euclid(2.0 * PI) - PI;
            heading_deg = (heading_deg + theta.to_degrees() * dt) % 360.0;
        }
        vec![theta.to_degrees(), omega, heading_deg]
    }
}

#[test]
fn primal_is_the_plain_code() {
    for (v, a, k) in [(30.0, 40.0, 0.01), (55.0, 62.5, 0.003), (20.0, 15.0, 0.2)] {
        assert_same_bits(range(v, a, k, 1e-3), plain::range(v, a, k, 1e-3), "range");
    }
    assert_all_same_bits(
        &pendulum(170.0, 2.0, 1.2, 0.05, 800),
        &plain::pendulum(170.0, 2.0, 1.2, 0.05, 800),
        "pendulum",
    );
}

#[test]
fn drag_free_range_derivatives_match_closed_form() {
    // R = v² sin 2θ / g: dR/dv = 2 v sin 2θ / g, dR/dθ° = (π/180) 2 v² cos 2θ / g.
    let (v, a) = (30.0, 40.0);
    // The Euler path is O(dt) off the parabola: 1e-4 s steps agree to 1e-3 relative.
    let (r, [dv, da, _]) = range_grad(v, a, 0.0, 1e-4);
    let t = a * PI / 180.0;
    let rel = |got: f64, want: f64| (got - want).abs() / want.abs();
    assert!(rel(r, v * v * (2.0 * t).sin() / G) < 1e-3, "range {r}");
    assert!(rel(dv, 2.0 * v * (2.0 * t).sin() / G) < 1e-3, "dR/dv {dv}");
    assert!(
        rel(da, PI / 180.0 * 2.0 * v * v * (2.0 * t).cos() / G) < 1e-3,
        "dR/dangle {da}"
    );
}

#[test]
fn range_gradient_matches_finite_differences() {
    for (v, a, k) in [(30.0, 40.0, 0.01), (55.0, 62.5, 0.003)] {
        let (r, g) = range_grad(v, a, k, 1e-3);
        assert_close(r, plain::range(v, a, k, 1e-3), 1e-14, "value");
        let fd = fd_gradient_step(|p| plain::range(p[0], p[1], p[2], 1e-3), &[v, a, k], 1e-7);
        assert_all_close(&g, &fd, 1e-6, "finite differences");
    }
}

#[test]
fn clamped_drag_has_zero_derivative() {
    // Above the clamp's upper bound the drag no longer matters.
    let (_, [_, _, dk]) = range_grad(20.0, 15.0, 0.2, 1e-3);
    assert_eq!(dk, 0.0);
}

#[test]
fn pendulum_jacobian_matches_finite_differences() {
    // Released near the top with a push: it goes over the top, so the angle wraps.
    let x = [170.0, 2.0, 1.2];
    let (values, jac) = pendulum_jacobian(x[0], x[1], x[2], 0.05, 800);
    assert_all_close(
        &values,
        &plain::pendulum(x[0], x[1], x[2], 0.05, 800),
        1e-14,
        "values",
    );
    assert_eq!((jac.len(), jac[0].len()), (3, 3));
    let fd = fd_jacobian_step(|p| plain::pendulum(p[0], p[1], p[2], 0.05, 800), &x, 1e-6);
    assert_rows_close(&jac, &fd, 1e-6, "jacobian");
}
