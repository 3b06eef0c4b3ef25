//! The `gradients` suite (issue 18): the bodies of `fazang_bench_models::user_grad` and
//! the two Rosenbrock forms, each with a hand-written gradient and the same body on the
//! peers' scalars.

use super::{gradient_workload, GradFns};
use crate::data::Rng;
use crate::peers::{num_dual_gradient, Echidna, PeerNum};
use crate::workloads::{logistic, rosenbrock as rosen};
use crate::Workload;
use fazang_bench_models::user_grad::{self as m, Ar1};
use fazang_bench_models::{self as models, LOG_SQRT_2PI};
use std::rc::Rc;

/// The workloads, in table order.
pub const NAMES: [&str; 7] = [
    "logistic_chain",
    "hier_normal",
    "mlp",
    "ar1",
    "skew_gumbel",
    "rosenbrock_sum",
    "rosenbrock_for",
];

/// The workload called `name`, checked.
pub fn by_name(name: &str) -> Option<Workload> {
    Some(match name {
        "logistic_chain" => logistic_chain(),
        "hier_normal" => hier_normal(),
        "mlp" => super::mlp::workload(),
        "ar1" => ar1(),
        "skew_gumbel" => skew_gumbel(),
        "rosenbrock_sum" => rosenbrock(false),
        "rosenbrock_for" => rosenbrock(true),
        _ => return None,
    })
}

/// Logistic regression, 5000 rows × 10 features, as `chunks_exact(d).zip(y).map(..).sum()`.
fn logistic_chain() -> Workload {
    let (d, beta) = logistic::data();
    let d = Rc::new(d);
    let c = |d: &Rc<logistic::Data>| d.clone();
    let (d0, d1, d2, d3, d4, d5, d6) = (c(&d), c(&d), c(&d), c(&d), c(&d), c(&d), d);
    gradient_workload(
        "logistic_chain",
        beta,
        logistic::K,
        GradFns {
            primal: move |b: &[f64]| m::logistic_chain(b, &d0.x, &d0.y),
            hand: move |b: &[f64], g: &mut [f64]| logistic::log_lik_hand(b, &d1.x, &d1.y, g),
            grad: move |b: &[f64]| m::logistic_chain_grad(b, &d2.x, &d2.y),
            grad_into: move |b: &[f64], g: &mut [f64]| {
                m::logistic_chain_grad_into(b, &d3.x, &d3.y, g)
            },
            tape: move |b: &[f64]| m::__logistic_chain_grad_tape(b, &d4.x, &d4.y),
            num_dual: move |b: &[f64], g: &mut [f64]| {
                num_dual_gradient::<{ logistic::K }>(
                    |b| logistic::log_lik_peer(b, &d5.x, &d5.y),
                    b,
                    g,
                )
            },
            echidna: move |b: &[Echidna]| logistic::log_lik_peer(b, &d6.x, &d6.y),
        },
    )
}

/// Groups of the hierarchical model.
pub const GROUPS: usize = 100;
/// Observations per group.
pub const PER_GROUP: usize = 20;
const HIER_INPUTS: usize = GROUPS + 2;
/// Observation noise of the hierarchical model.
pub const SIGMA_Y: f64 = 1.5;

/// Simulated data and the point θ = [μ, ln τ, η₁..η_J].
fn hier_data() -> (Vec<f64>, Vec<f64>) {
    let mut rng = Rng::new(18);
    let (mu, tau) = (1.0, 0.8);
    let eta: Vec<f64> = (0..GROUPS).map(|_| rng.normal()).collect();
    let y = eta
        .iter()
        .flat_map(|e| vec![mu + tau * e; PER_GROUP])
        .map(|m| m + SIGMA_Y * rng.normal())
        .collect();
    let mut theta = vec![0.9, (0.7f64).ln()];
    theta.extend(eta.iter().map(|e| 0.9 * e + 0.1 * rng.normal()));
    (y, theta)
}

/// Hand-written gradient of [`m::hier_normal`]; returns the value.
pub fn hier_hand(theta: &[f64], y: &[f64], g: &mut [f64]) -> f64 {
    let (mu, log_tau) = (theta[0], theta[1]);
    let tau = log_tau.exp();
    let eta = &theta[2..];
    let per = y.len() / eta.len();
    let (inv_var, ln_s) = (1.0 / (SIGMA_Y * SIGMA_Y), SIGMA_Y.ln());
    let mut lp = -0.5 * (mu / 5.0).powi(2) - 5f64.ln() - 0.5 * (tau / 2.0).powi(2) - 2f64.ln()
        + log_tau
        - 2.0 * LOG_SQRT_2PI;
    let (mut g_mu, mut g_tau) = (-mu / 25.0, -tau / 4.0);
    for (j, (e, group)) in eta.iter().zip(y.chunks_exact(per)).enumerate() {
        let m = mu + tau * e;
        let (mut s, mut ss) = (0.0, 0.0);
        for yi in group {
            s += yi - m;
            ss += (yi - m) * (yi - m);
        }
        lp += -0.5 * e * e - LOG_SQRT_2PI - 0.5 * ss * inv_var - per as f64 * (ln_s + LOG_SQRT_2PI);
        let dm = s * inv_var;
        g_mu += dm;
        g_tau += dm * e;
        g[2 + j] = -e + dm * tau;
    }
    g[0] = g_mu;
    g[1] = g_tau * tau + 1.0;
    lp
}

/// [`m::hier_normal`] on the peers' scalars.
pub fn hier_peer<T: PeerNum>(theta: &[T], y: &[f64]) -> T {
    let (mu, log_tau) = (theta[0], theta[1]);
    let tau = log_tau.exp();
    let eta = &theta[2..];
    let per = y.len() / eta.len();
    let consts = -5f64.ln() - 2f64.ln() - 2.0 * LOG_SQRT_2PI;
    let mut lp = (mu * mu).scale(-0.02) - (tau * tau).scale(0.125) + log_tau.shift(consts);
    let group_const = -(per as f64) * (SIGMA_Y.ln() + LOG_SQRT_2PI) - LOG_SQRT_2PI;
    for (&e, group) in eta.iter().zip(y.chunks_exact(per)) {
        let m = mu + tau * e;
        let mut ss = T::cst(0.0);
        for &yi in group {
            let r = m.rsub(yi);
            ss = ss + r * r;
        }
        lp = lp - (e * e).scale(0.5) - ss.scale(0.5 / (SIGMA_Y * SIGMA_Y)) + T::cst(group_const);
    }
    lp
}

/// A hierarchical normal model, J = 100 groups of 20, parameters split by `&theta[2..]`.
fn hier_normal() -> Workload {
    let (y, theta) = hier_data();
    let y = Rc::new(y);
    let c = |y: &Rc<Vec<f64>>| y.clone();
    let (y0, y1, y2, y3, y4, y5, y6) = (c(&y), c(&y), c(&y), c(&y), c(&y), c(&y), y);
    let ok = "valid parameters";
    gradient_workload(
        "hier_normal",
        theta,
        HIER_INPUTS,
        GradFns {
            primal: move |t: &[f64]| m::hier_normal(t, &y0, SIGMA_Y).expect(ok),
            hand: move |t: &[f64], g: &mut [f64]| hier_hand(t, &y1, g),
            grad: move |t: &[f64]| m::hier_normal_grad(t, &y2, SIGMA_Y).expect(ok),
            grad_into: move |t: &[f64], g: &mut [f64]| {
                m::hier_normal_grad_into(t, &y3, SIGMA_Y, g).expect(ok)
            },
            tape: move |t: &[f64]| m::__hier_normal_grad_tape(t, &y4, SIGMA_Y).expect(ok),
            num_dual: move |t: &[f64], g: &mut [f64]| {
                num_dual_gradient::<HIER_INPUTS>(|t| hier_peer(t, &y5), t, g)
            },
            echidna: move |t: &[Echidna]| hier_peer(t, &y6),
        },
    )
}

/// Length of the AR(1) series.
pub const AR1_T: usize = 2000;

/// Hand-written gradient of [`Ar1::log_density`] in (α, ρ, ln σ); returns the value.
pub fn ar1_hand(y: &[f64], p: &[f64], g: &mut [f64]) -> f64 {
    let (alpha, rho, ls) = (p[0], p[1], p[2]);
    let inv = (-ls).exp();
    let (mut lp, mut ga, mut gr, mut gs) = (0.0, 0.0, 0.0, 0.0);
    for w in y.windows(2) {
        let z = (w[1] - alpha - rho * w[0]) * inv;
        lp += -0.5 * z * z - ls;
        ga += z * inv;
        gr += z * inv * w[0];
        gs += z * z - 1.0;
    }
    lp += -0.5 * ((alpha / 10.0).powi(2) + (rho / 0.5).powi(2) + ls * ls);
    g[0] = ga - alpha / 100.0;
    g[1] = gr - 4.0 * rho;
    g[2] = gs - ls;
    lp
}

/// [`Ar1::log_density`] on the peers' scalars.
pub fn ar1_peer<T: PeerNum>(y: &[f64], p: &[T]) -> T {
    let (alpha, rho, ls) = (p[0], p[1], p[2]);
    let inv = (-ls).exp();
    let mut lp = T::cst(0.0);
    for w in y.windows(2) {
        let z = (alpha + rho.scale(w[0])).rsub(w[1]) * inv;
        lp = lp - (z * z).scale(0.5) - ls;
    }
    lp - ((alpha * alpha).scale(0.01) + (rho * rho).scale(4.0) + ls * ls).scale(0.5)
}

/// An AR(1) model as a method of a struct over `y.windows(2)`, T = 2000.
fn ar1() -> Workload {
    let mut rng = Rng::new(21);
    let mut y = vec![0.0];
    for _ in 1..AR1_T {
        let prev = y[y.len() - 1];
        y.push(0.5 + 0.7 * prev + 0.8 * rng.normal());
    }
    let model = Rc::new(Ar1 { y });
    let c = |m: &Rc<Ar1>| m.clone();
    let (m0, m1, m2, m3, m4, m5, m6) = (
        c(&model),
        c(&model),
        c(&model),
        c(&model),
        c(&model),
        c(&model),
        model,
    );
    gradient_workload(
        "ar1",
        vec![0.4, 0.65, (0.9f64).ln()],
        3,
        GradFns {
            primal: move |p: &[f64]| m0.log_density(p[0], p[1], p[2]),
            hand: move |p: &[f64], g: &mut [f64]| ar1_hand(&m1.y, p, g),
            grad: move |p: &[f64]| m2.log_density_grad(p[0], p[1], p[2]),
            grad_into: move |p: &[f64], g: &mut [f64]| {
                m3.log_density_grad_into(p[0], p[1], p[2], g)
            },
            tape: move |p: &[f64]| m4.__log_density_grad_tape(p[0], p[1], p[2]),
            num_dual: move |p: &[f64], g: &mut [f64]| {
                num_dual_gradient::<3>(|p| ar1_peer(&m5.y, p), p, g)
            },
            echidna: move |p: &[Echidna]| ar1_peer(&m6.y, p),
        },
    )
}

/// Points of the per-call workload.
pub const CALLS: usize = 10_000;

/// Hand-written gradient of [`m::skew_gumbel_lp`]; returns the value.
pub fn skew_gumbel_hand(p: &[f64], g: &mut [f64]) -> f64 {
    let (mu, log_beta, alpha) = (p[0], p[1], p[2]);
    let beta = log_beta.exp();
    let z = (m::SKEW_Y - mu) / beta;
    let e = (-z).exp();
    let u = (-alpha * z).exp();
    let s = u / (1.0 + u);
    let dz = -1.0 + e + alpha * s;
    g[0] = -dz / beta;
    g[1] = -1.0 - dz * z;
    g[2] = s * z;
    -log_beta - z - e - u.ln_1p()
}

/// [`m::skew_gumbel_lp`] on the peers' scalars.
pub fn skew_gumbel_peer<T: PeerNum>(p: &[T]) -> T {
    let (mu, log_beta, alpha) = (p[0], p[1], p[2]);
    let z = mu.rsub(m::SKEW_Y) / log_beta.exp();
    -log_beta - z - (-z).exp() - (-alpha * z).exp().ln_1p()
}

/// A 3-parameter closed form at 10 000 points, one call each.
fn skew_gumbel() -> Workload {
    let mut rng = Rng::new(33);
    let pts = (0..CALLS)
        .flat_map(|_| {
            [
                rng.range(-1.0, 2.0),
                rng.range(-0.5, 0.5),
                rng.range(-2.0, 2.0),
            ]
        })
        .collect();
    gradient_workload(
        "skew_gumbel",
        pts,
        3,
        GradFns {
            primal: |p: &[f64]| m::skew_gumbel_lp(p[0], p[1], p[2]),
            hand: skew_gumbel_hand,
            grad: |p: &[f64]| m::skew_gumbel_lp_grad(p[0], p[1], p[2]),
            grad_into: |p: &[f64], g: &mut [f64]| m::skew_gumbel_lp_grad_into(p[0], p[1], p[2], g),
            tape: |p: &[f64]| m::__skew_gumbel_lp_grad_tape(p[0], p[1], p[2]),
            num_dual: |p: &[f64], g: &mut [f64]| num_dual_gradient::<3>(skew_gumbel_peer, p, g),
            echidna: skew_gumbel_peer::<Echidna>,
        },
    )
}

/// Rosenbrock, n = 1000: `(0..n - 1).map(..).sum()` or, with `for_loop`, a plain loop.
fn rosenbrock(for_loop: bool) -> Workload {
    let mut rng = Rng::new(1);
    let x = rng.vec(rosen::N, -1.5, 1.5);
    let peer =
        |x: &[f64], g: &mut [f64]| num_dual_gradient::<{ rosen::N }>(rosen::rosenbrock_peer, x, g);
    let echidna = rosen::rosenbrock_peer::<Echidna>;
    if for_loop {
        gradient_workload(
            "rosenbrock_for",
            x,
            rosen::N,
            GradFns {
                primal: |x: &[f64]| models::rosenbrock_loop(x),
                hand: rosen::rosenbrock_hand,
                grad: |x: &[f64]| models::rosenbrock_loop_grad(x),
                grad_into: |x: &[f64], g: &mut [f64]| models::rosenbrock_loop_grad_into(x, g),
                tape: |x: &[f64]| models::__rosenbrock_loop_grad_tape(x),
                num_dual: peer,
                echidna,
            },
        )
    } else {
        gradient_workload(
            "rosenbrock_sum",
            x,
            rosen::N,
            GradFns {
                primal: |x: &[f64]| models::rosenbrock(x),
                hand: rosen::rosenbrock_hand,
                grad: |x: &[f64]| models::rosenbrock_grad(x),
                grad_into: |x: &[f64], g: &mut [f64]| models::rosenbrock_grad_into(x, g),
                tape: |x: &[f64]| models::__rosenbrock_grad_tape(x),
                num_dual: peer,
                echidna,
            },
        )
    }
}
