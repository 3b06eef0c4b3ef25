//! Kepler's equation E − e sin E = M solved by Newton's method, as orbit codes do:
//! a starting guess chosen by branch (Danby's M + 0.85 e·sign(sin M), written with
//! `copysign`, for high eccentricity), `while (e - ecc * e.sin() - m).abs() > 1e-12`, an
//! iteration cap with `break`; then the true anomaly and the position in the orbital plane.
//!
//! The derivative of what the code computes is the derivative of the last Newton iterate.
//! It is checked three ways: against the same tangent propagated by hand through the
//! iterations (exact), against the implicit-function derivatives of the converged solution
//! (dE/dM = 1/(1 − e cos E), dE/de = sin E/(1 − e cos E); equal up to the size of the last
//! Newton correction), and against finite differences.
use fazang::prelude::*;

mod program_support;
use program_support::*;

use std::f64::consts::PI;

#[differentiate]
fn eccentric_anomaly(m: f64, ecc: f64) -> f64 {
    let mut e = if ecc < 0.8 {
        m
    } else {
        m + (0.85 * ecc).copysign(m.sin())
    };
    let mut iterations = 0;
    while (e - ecc * e.sin() - m).abs() > 1e-12 {
        e -= (e - ecc * e.sin() - m) / (1.0 - ecc * e.cos());
        iterations += 1;
        if iterations == 50 {
            break;
        }
    }
    e
}

/// True anomaly ν from the mean anomaly.
#[differentiate]
fn true_anomaly(m: f64, ecc: f64) -> f64 {
    let e = eccentric_anomaly(m, ecc);
    2.0 * ((1.0 + ecc).sqrt() * (e / 2.0).sin()).atan2((1.0 - ecc).sqrt() * (e / 2.0).cos())
}

/// Position (x, y) in the orbital plane at time `t` for period `period` and semi-major
/// axis `a` (a Jacobian with respect to the elements).
#[differentiate(wrt(a, ecc, m0))]
fn position(a: f64, ecc: f64, m0: f64, t: f64, period: f64) -> [f64; 2] {
    let m = (m0 + 2.0 * PI * t / period).rem_euclid(2.0 * PI);
    let e = eccentric_anomaly(m, ecc);
    [a * (e.cos() - ecc), a * (1.0 - ecc * ecc).sqrt() * e.sin()]
}

/// The same code without the attributes.
mod plain {
    use std::f64::consts::PI;

    pub fn eccentric_anomaly(m: f64, ecc: f64) -> f64 {
        let mut e = if ecc < 0.8 {
            m
        } else {
            m + (0.85 * ecc).copysign(m.sin())
        };
        let mut iterations = 0;
        while (e - ecc * e.sin() - m).abs() > 1e-12 {
            e -= (e - ecc * e.sin() - m) / (1.0 - ecc * e.cos());
            iterations += 1;
            if iterations == 50 {
                break;
            }
        }
        e
    }

    pub fn true_anomaly(m: f64, ecc: f64) -> f64 {
        let e = eccentric_anomaly(m, ecc);
        2.0 * ((1.0 + ecc).sqrt() * (e / 2.0).sin()).atan2((1.0 - ecc).sqrt() * (e / 2.0).cos())
    }

    pub fn position(a: f64, ecc: f64, m0: f64, t: f64, period: f64) -> [f64; 2] {
        let m = (m0 + 2.0 * PI * t / period).rem_euclid(2.0 * PI);
        let e = eccentric_anomaly(m, ecc);
        [a * (e.cos() - ecc), a * (1.0 - ecc * ecc).sqrt() * e.sin()]
    }
}

/// The Newton iteration of `plain::eccentric_anomaly` with its tangents dE/dM and dE/de
/// carried along (forward mode by hand).
fn iterate_with_tangents(m: f64, ecc: f64) -> (f64, f64, f64) {
    let (mut e, mut de_dm, mut de_decc) = if ecc < 0.8 {
        (m, 1.0, 0.0)
    } else {
        let sign = m.sin().signum();
        (m + 0.85 * ecc * sign, 1.0, 0.85 * sign)
    };
    let mut iterations = 0;
    while (e - ecc * e.sin() - m).abs() > 1e-12 {
        let f = e - ecc * e.sin() - m;
        let fp = 1.0 - ecc * e.cos();
        // Partials of the update e − f/fp.
        let df_de = fp;
        let dfp_de = ecc * e.sin();
        let step_de = 1.0 - (df_de * fp - f * dfp_de) / (fp * fp);
        let step_dm = 1.0 / fp; // −(∂f/∂M = −1)/fp
        let step_decc = -((-e.sin()) * fp - f * (-e.cos())) / (fp * fp);
        de_dm = step_de * de_dm + step_dm;
        de_decc = step_de * de_decc + step_decc;
        e -= f / fp;
        iterations += 1;
        if iterations == 50 {
            break;
        }
    }
    (e, de_dm, de_decc)
}

/// (M, e) pairs: low and high eccentricity, both starting guesses.
const POINTS: [(f64, f64); 6] = [
    (0.3, 0.1),
    (1.7, 0.2),
    (4.0, 0.5),
    (5.9, 0.7),
    (0.8, 0.85),
    (2.5, 0.95),
];

#[test]
fn primal_is_the_plain_code() {
    for (m, ecc) in POINTS {
        assert_same_bits(
            eccentric_anomaly(m, ecc),
            plain::eccentric_anomaly(m, ecc),
            "E",
        );
        assert_same_bits(true_anomaly(m, ecc), plain::true_anomaly(m, ecc), "nu");
        let e = eccentric_anomaly(m, ecc);
        assert!(
            (e - ecc * e.sin() - m).abs() <= 1e-12,
            "solves Kepler's equation"
        );
    }
    assert_all_same_bits(
        &position(1.5, 0.3, 0.2, 7.3, 2.0),
        &plain::position(1.5, 0.3, 0.2, 7.3, 2.0),
        "position",
    );
}

#[test]
fn gradient_is_the_tangent_of_the_iterates() {
    for (m, ecc) in POINTS {
        let (e, [dm, decc]) = eccentric_anomaly_grad(m, ecc);
        let (e_hand, dm_hand, decc_hand) = iterate_with_tangents(m, ecc);
        assert_close(e, e_hand, 1e-15, "E");
        assert_close(dm, dm_hand, 1e-12, "dE/dM");
        assert_close(decc, decc_hand, 1e-12, "dE/de");
    }
}

#[test]
fn gradient_matches_implicit_derivatives_and_finite_differences() {
    for (m, ecc) in POINTS {
        let (e, [dm, decc]) = eccentric_anomaly_grad(m, ecc);
        let denom = 1.0 - ecc * e.cos();
        assert_close(dm, 1.0 / denom, 1e-6, "implicit dE/dM");
        assert_close(decc, e.sin() / denom, 1e-6, "implicit dE/de");
        let fd = fd_gradient(|v| plain::eccentric_anomaly(v[0], v[1]), &[m, ecc]);
        assert_all_close(&[dm, decc], &fd, 1e-6, "finite differences");
    }
}

#[test]
fn true_anomaly_gradient_matches_textbook_formulas() {
    // dν/dM = (1 + e cos ν)² / (1 − e²)^(3/2), dν/de = sin ν (2 + e cos ν) / (1 − e²).
    for (m, ecc) in POINTS {
        let (nu, [dm, decc]) = true_anomaly_grad(m, ecc);
        assert_close(nu, plain::true_anomaly(m, ecc), 1e-14, "nu");
        let one_e2 = 1.0 - ecc * ecc;
        let want_dm = (1.0 + ecc * nu.cos()).powi(2) / one_e2.powf(1.5);
        let want_decc = nu.sin() * (2.0 + ecc * nu.cos()) / one_e2;
        assert_close(dm, want_dm, 1e-6, "dnu/dM");
        assert_close(decc, want_decc, 1e-6, "dnu/de");
        let fd = fd_gradient(|v| plain::true_anomaly(v[0], v[1]), &[m, ecc]);
        assert_all_close(&[dm, decc], &fd, 1e-6, "finite differences");
    }
}

#[test]
fn position_jacobian_matches_finite_differences() {
    // t = 7.3 periods of 2: the mean anomaly wraps several times before the solve.
    let (a, ecc, m0, t, period) = (1.5, 0.3, 0.2, 7.3, 2.0);
    let (xy, jac) = position_jacobian(a, ecc, m0, t, period);
    assert_all_close(
        &xy,
        &plain::position(a, ecc, m0, t, period),
        1e-14,
        "position",
    );
    assert_eq!((jac.len(), jac[0].len()), (2, 3));
    // x and y are proportional to a.
    assert_close(jac[0][0], xy[0] / a, 1e-10, "dx/da");
    assert_close(jac[1][0], xy[1] / a, 1e-10, "dy/da");
    let fd = fd_jacobian(
        |v| plain::position(v[0], v[1], v[2], t, period).to_vec(),
        &[a, ecc, m0],
    );
    assert_rows_close(&jac, &fd, 1e-6, "jacobian");
}
