//! Robust regression: a straight line fitted under Huber's loss, whose two branches test
//! the active residual (`if r.abs() <= delta`), and a clipped squared loss using `clamp`
//! with active bounds. The helper `huber` is called with an active residual and a data
//! threshold.
//!
//! Closed forms, with ψ(r) = clamp(r, −δ, δ): ∂/∂a = −Σ ψ(rᵢ), ∂/∂b = −Σ ψ(rᵢ) xᵢ;
//! ∂huber/∂δ = 0 inside, |r| − δ outside; for the clipped loss ∂/∂c = Σ over clipped
//! residuals of 2c.
use fazang::prelude::*;

mod program_support;
use program_support::*;

#[differentiate]
fn huber(r: f64, delta: f64) -> f64 {
    if r.abs() <= delta {
        0.5 * r * r
    } else {
        delta * (r.abs() - 0.5 * delta)
    }
}

/// Total Huber loss of the residuals y − (a + b x), `coef` = [a, b].
#[differentiate(wrt(coef))]
fn robust_loss(coef: [f64; 2], xs: &[f64], ys: &[f64], delta: f64) -> f64 {
    let mut total = 0f64;
    for (x, y) in xs.iter().zip(ys) {
        let r = y - (coef[0] + coef[1] * x);
        total += huber(r, delta);
    }
    total
}

/// Squared residuals clipped at ±clip (the clip level is fitted too).
#[differentiate(wrt(coef, clip))]
fn clipped_loss(coef: &[f64], clip: f64, xs: &[f64], ys: &[f64]) -> f64 {
    xs.iter()
        .zip(ys)
        .map(|(x, y)| {
            let r = (y - coef[0] - coef[1] * x).clamp(-clip, clip);
            r * r
        })
        .sum::<f64>()
        + 0.1 * clip * clip
}

/// The same code without the attributes.
mod plain {
    pub fn huber(r: f64, delta: f64) -> f64 {
        if r.abs() <= delta {
            0.5 * r * r
        } else {
            delta * (r.abs() - 0.5 * delta)
        }
    }

    pub fn robust_loss(coef: [f64; 2], xs: &[f64], ys: &[f64], delta: f64) -> f64 {
        let mut total = 0f64;
        for (x, y) in xs.iter().zip(ys) {
            let r = y - (coef[0] + coef[1] * x);
            total += huber(r, delta);
        }
        total
    }

    pub fn clipped_loss(coef: &[f64], clip: f64, xs: &[f64], ys: &[f64]) -> f64 {
        xs.iter()
            .zip(ys)
            .map(|(x, y)| {
                let r = (y - coef[0] - coef[1] * x).clamp(-clip, clip);
                r * r
            })
            .sum::<f64>()
            + 0.1 * clip * clip
    }
}

/// y = 1 + 2x + noise on [0, 4], every seventh point an outlier.
fn data() -> (Vec<f64>, Vec<f64>) {
    let mut rng = Rng::new(41);
    (0..50)
        .map(|i| {
            let x = rng.range(0.0, 4.0);
            let outlier = if i % 7 == 3 { 6.0 * rng.normal() } else { 0.0 };
            (x, 1.0 + 2.0 * x + 0.3 * rng.normal() + outlier)
        })
        .unzip()
}

const COEF: [f64; 2] = [0.8, 2.1];
const DELTA: f64 = 0.5;

fn residuals(coef: &[f64], xs: &[f64], ys: &[f64]) -> Vec<f64> {
    xs.iter()
        .zip(ys)
        .map(|(x, y)| y - coef[0] - coef[1] * x)
        .collect()
}

#[test]
fn primal_is_the_plain_code() {
    let (xs, ys) = data();
    assert_same_bits(
        robust_loss(COEF, &xs, &ys, DELTA),
        plain::robust_loss(COEF, &xs, &ys, DELTA),
        "huber",
    );
    assert_same_bits(
        clipped_loss(&COEF, 1.0, &xs, &ys),
        plain::clipped_loss(&COEF, 1.0, &xs, &ys),
        "clipped",
    );
}

#[test]
fn huber_gradient_is_minus_sum_of_psi() {
    let (xs, ys) = data();
    let r = residuals(&COEF, &xs, &ys);
    let inside = r.iter().filter(|r| r.abs() <= DELTA).count();
    assert!(
        inside > 10 && inside < 45,
        "both branches are taken ({inside} inside)"
    );
    let (v, g) = robust_loss_grad(COEF, &xs, &ys, DELTA);
    assert_close(v, plain::robust_loss(COEF, &xs, &ys, DELTA), 1e-15, "value");
    let psi: Vec<f64> = r.iter().map(|r| r.clamp(-DELTA, DELTA)).collect();
    let want = [
        -psi.iter().sum::<f64>(),
        -psi.iter().zip(&xs).map(|(p, x)| p * x).sum::<f64>(),
    ];
    assert_all_close(&g, &want, 1e-9, "closed form");
    let fd = fd_gradient_step(
        |c| plain::robust_loss([c[0], c[1]], &xs, &ys, DELTA),
        &COEF,
        1e-5,
    );
    assert_all_close(&g, &fd, 1e-6, "finite differences");
}

#[test]
fn huber_helper_partials_on_both_branches() {
    for (r, delta) in [(0.3, 0.5), (-0.45, 0.5), (1.7, 0.5), (-2.0, 1.5)] {
        let (v, [dr, ddelta]) = huber_grad(r, delta);
        assert_close(v, plain::huber(r, delta), 1e-15, "value");
        let (want_dr, want_ddelta) = if f64::abs(r) <= delta {
            (r, 0.0)
        } else {
            (delta * r.signum(), f64::abs(r) - delta)
        };
        assert_close(dr, want_dr, 1e-15, "d/dr");
        assert_close(ddelta, want_ddelta, 1e-15, "d/ddelta");
    }
}

#[test]
fn clipped_gradient_matches_closed_form_and_finite_differences() {
    let (xs, ys) = data();
    let clip = 1.0;
    let (v, (g_coef, g_clip)) = clipped_loss_grad(&COEF, clip, &xs, &ys);
    let g_clip: f64 = g_clip;
    assert_close(
        v,
        plain::clipped_loss(&COEF, clip, &xs, &ys),
        1e-15,
        "value",
    );
    let r = residuals(&COEF, &xs, &ys);
    let mut want = [0.0, 0.0, 0.2 * clip];
    for (r, x) in r.iter().zip(&xs) {
        if r.abs() < clip {
            want[0] -= 2.0 * r;
            want[1] -= 2.0 * r * x;
        } else {
            want[2] += 2.0 * clip;
        }
    }
    let g: Vec<f64> = [g_coef, vec![g_clip]].concat();
    assert_all_close(&g, &want, 1e-9, "closed form");
    let fd = fd_gradient_step(
        |p| plain::clipped_loss(&p[0..2], p[2], &xs, &ys),
        &[COEF[0], COEF[1], clip],
        1e-5,
    );
    assert_all_close(&g, &fd, 1e-6, "finite differences");
}
