//! Model settings the way simulation codes carry them: a struct passed by reference
//! (`cfg: &Settings`) and an enum choosing the initial orbit passed by value
//! (`kind: Orbit`, one variant carrying an `f64` eccentricity). Both are data; only the
//! `f64` parameters are active, and no `wrt` is needed to say so.
//! - A satellite orbit integrated with leapfrog (`(ax, ay) = accel(x, y)` destructuring
//!   assignment, a closure over `cfg`), differentiated with respect to the initial radius
//!   and the speed factor; checked against finite differences for every `Orbit`.
//! - The Hohmann transfer Δv, checked against its derivatives worked out by hand.
use fazang::prelude::*;

mod program_support;
use program_support::*;

pub struct Settings {
    pub mu: f64,
    pub dt: f64,
    pub steps: usize,
    pub softening: f64,
}

#[derive(Clone, Copy, Debug)]
pub enum Orbit {
    Circular,
    Elliptic { ecc: f64 },
    Escape,
}

/// Distance from the centre after `cfg.steps` leapfrog steps, starting at periapsis `r0`
/// with the speed of the chosen orbit times `boost`.
#[differentiate]
fn final_radius(r0: f64, boost: f64, cfg: &Settings, kind: Orbit) -> f64 {
    let v_circ = (cfg.mu / r0).sqrt();
    let v0 = match kind {
        Orbit::Circular => v_circ,
        Orbit::Elliptic { ecc } => v_circ * (1.0 + ecc).sqrt(),
        Orbit::Escape => v_circ * 2f64.sqrt(),
    } * boost;
    let accel = |x: f64, y: f64| {
        let r2 = x * x + y * y + cfg.softening;
        let r3 = r2 * r2.sqrt();
        (-cfg.mu * x / r3, -cfg.mu * y / r3)
    };
    let (mut x, mut y) = (r0, 0.0);
    let (mut vx, mut vy) = (0.0, v0);
    let (mut ax, mut ay) = accel(x, y);
    for _ in 0..cfg.steps {
        vx += 0.5 * cfg.dt * ax;
        vy += 0.5 * cfg.dt * ay;
        x += cfg.dt * vx;
        y += cfg.dt * vy;
        (ax, ay) = accel(x, y);
        vx += 0.5 * cfg.dt * ax;
        vy += 0.5 * cfg.dt * ay;
    }
    (x * x + y * y).sqrt()
}

/// Total Δv of a Hohmann transfer between circular orbits of radii r1 and r2.
#[differentiate]
fn hohmann_delta_v(r1: f64, r2: f64, cfg: &Settings) -> f64 {
    let a = 0.5 * (r1 + r2);
    let dv1 = (cfg.mu / r1).sqrt() * ((r2 / a).sqrt() - 1.0);
    let dv2 = (cfg.mu / r2).sqrt() * (1.0 - (r1 / a).sqrt());
    dv1.abs() + dv2.abs()
}

/// The same code without the attributes.
mod plain {
    use super::{Orbit, Settings};

    pub fn final_radius(r0: f64, boost: f64, cfg: &Settings, kind: Orbit) -> f64 {
        let v_circ = (cfg.mu / r0).sqrt();
        let v0 = match kind {
            Orbit::Circular => v_circ,
            Orbit::Elliptic { ecc } => v_circ * (1.0 + ecc).sqrt(),
            Orbit::Escape => v_circ * 2f64.sqrt(),
        } * boost;
        let accel = |x: f64, y: f64| {
            let r2 = x * x + y * y + cfg.softening;
            let r3 = r2 * r2.sqrt();
            (-cfg.mu * x / r3, -cfg.mu * y / r3)
        };
        let (mut x, mut y) = (r0, 0.0);
        let (mut vx, mut vy) = (0.0, v0);
        let (mut ax, mut ay) = accel(x, y);
        for _ in 0..cfg.steps {
            vx += 0.5 * cfg.dt * ax;
            vy += 0.5 * cfg.dt * ay;
            x += cfg.dt * vx;
            y += cfg.dt * vy;
            (ax, ay) = accel(x, y);
            vx += 0.5 * cfg.dt * ax;
            vy += 0.5 * cfg.dt * ay;
        }
        (x * x + y * y).sqrt()
    }

    pub fn hohmann_delta_v(r1: f64, r2: f64, cfg: &Settings) -> f64 {
        let a = 0.5 * (r1 + r2);
        let dv1 = (cfg.mu / r1).sqrt() * ((r2 / a).sqrt() - 1.0);
        let dv2 = (cfg.mu / r2).sqrt() * (1.0 - (r1 / a).sqrt());
        dv1.abs() + dv2.abs()
    }
}

/// Earth's μ in km³/s², 60 s steps for a little under two hours.
const EARTH: Settings = Settings {
    mu: 398_600.441_8,
    dt: 60.0,
    steps: 100,
    softening: 0.0,
};

const KINDS: [Orbit; 4] = [
    Orbit::Circular,
    Orbit::Elliptic { ecc: 0.1 },
    Orbit::Elliptic { ecc: 0.6 },
    Orbit::Escape,
];

#[test]
fn primal_is_the_plain_code() {
    for kind in KINDS {
        assert_same_bits(
            final_radius(7000.0, 1.01, &EARTH, kind),
            plain::final_radius(7000.0, 1.01, &EARTH, kind),
            &format!("{kind:?}"),
        );
    }
    assert_same_bits(
        hohmann_delta_v(6678.0, 42_164.0, &EARTH),
        plain::hohmann_delta_v(6678.0, 42_164.0, &EARTH),
        "hohmann",
    );
    // LEO to GEO: about 3.9 km/s.
    assert!((hohmann_delta_v(6678.0, 42_164.0, &EARTH) - 3.89).abs() < 0.01);
}

#[test]
fn orbit_gradient_matches_finite_differences_for_every_kind() {
    for kind in KINDS {
        let (r, g) = final_radius_grad(7000.0, 1.01, &EARTH, kind);
        assert_close(
            r,
            plain::final_radius(7000.0, 1.01, &EARTH, kind),
            1e-14,
            "value",
        );
        // The radius is strongly curved in the speed factor: a small step.
        let fd = fd_gradient_step(
            |p| plain::final_radius(p[0], p[1], &EARTH, kind),
            &[7000.0, 1.01],
            1e-5,
        );
        assert_all_close(&g, &fd, 1e-6, &format!("{kind:?}"));
    }
}

#[test]
fn hohmann_gradient_matches_hand_derivatives() {
    let mu = EARTH.mu;
    for (r1, r2) in [(6678.0, 42_164.0), (7000.0, 9000.0), (6800.0, 384_400.0)] {
        let (dv, [d1, d2]) = hohmann_delta_v_grad(r1, r2, &EARTH);
        assert_close(dv, plain::hohmann_delta_v(r1, r2, &EARTH), 1e-15, "value");
        let sum2 = (r1 + r2) * (r1 + r2);
        let s = (2.0 * r2 / (r1 + r2)).sqrt();
        let t = (2.0 * r1 / (r1 + r2)).sqrt();
        let (ds_dr1, ds_dr2) = (-r2 / (s * sum2), r1 / (s * sum2));
        let (dt_dr1, dt_dr2) = (r2 / (t * sum2), -r1 / (t * sum2));
        let want1 = -0.5 * mu.sqrt() * r1.powf(-1.5) * (s - 1.0) + (mu / r1).sqrt() * ds_dr1
            - (mu / r2).sqrt() * dt_dr1;
        let want2 = (mu / r1).sqrt() * ds_dr2
            - 0.5 * mu.sqrt() * r2.powf(-1.5) * (1.0 - t)
            - (mu / r2).sqrt() * dt_dr2;
        assert_close(d1, want1, 1e-9, "d/dr1");
        assert_close(d2, want2, 1e-9, "d/dr2");
        let fd = fd_gradient(|r| plain::hohmann_delta_v(r[0], r[1], &EARTH), &[r1, r2]);
        assert_all_close(&[d1, d2], &fd, 1e-6, "finite differences");
    }
}
