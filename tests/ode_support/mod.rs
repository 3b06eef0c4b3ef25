//! Right-hand sides shared by the `ode_*` integration tests, written as users write them,
//! their closed-form solutions, and central finite differences of tightly solved primals.
#![allow(dead_code)]

use fazang::prelude::*;

#[path = "../support/close.rs"]
mod close;

#[allow(unused_imports)]
pub use close::{assert_all_close, assert_close};

/// Fazang's first example: y1' = y2, y2' = t y1 (p1 + p2).
#[differentiate]
pub fn fazang1(t: f64, y: &[f64], p: &[f64]) -> Vec<f64> {
    vec![y[1], t * y[0] * (p[0] + p[1])]
}
ode_system!(pub Fazang1 = fazang1);

/// Fazang's second example: y1' = y2, y2' = sin(p1 p2 p3 t).
#[differentiate]
pub fn fazang2(t: f64, y: &[f64], p: &[f64]) -> Vec<f64> {
    vec![y[1], (p[0] * p[1] * p[2] * t).sin()]
}
ode_system!(pub Fazang2 = fazang2);

/// Robertson's chemical kinetics, rates k (autonomous: time is data).
#[differentiate(wrt(y, k))]
pub fn robertson(_t: f64, y: &[f64], k: &[f64]) -> Vec<f64> {
    let r1 = k[0] * y[0];
    let r2 = k[1] * y[1] * y[2];
    let r3 = k[2] * y[1] * y[1];
    vec![-r1 + r2, r1 - r2 - r3, r3]
}
ode_system!(pub Robertson = robertson);

/// Lotka-Volterra: prey and predators, θ = (α, β, γ, δ) (autonomous: time is data).
#[differentiate(wrt(y, theta))]
pub fn lotka_volterra(_t: f64, y: &[f64], theta: &[f64]) -> [f64; 2] {
    let (u, v) = (y[0], y[1]);
    [
        (theta[0] - theta[1] * v) * u,
        (-theta[2] + theta[3] * u) * v,
    ]
}
ode_system!(pub LotkaVolterra = lotka_volterra);

pub const FAZANG1_Y0: [f64; 2] = [1.2, 1.8];
pub const FAZANG1_P: [f64; 2] = [0.2, 0.1];
pub const FAZANG1_TS: [f64; 3] = [1.0, 2.0, 3.0];
pub const FAZANG2_Y0: [f64; 2] = [0.2, 0.8];
pub const FAZANG2_P: [f64; 3] = [0.5, 1.0, 1.0];
pub const FAZANG2_TS: [f64; 3] = [1.2, 2.4, 4.8];

/// Fazang's tolerances: cvodes_tol(CV_BDF, 1.d-10, 1.d-10, 1000).
pub fn fazang_tol() -> OdeTol {
    OdeTol::new(1e-10, 1e-10, 1000)
}

/// Fazang's first example in closed form, by its Taylor series: with c = p1 + p2,
/// y1'' = c t y1 has y1 = Σ aₖ tᵏ, a₀ = y1(0), a₁ = y2(0), a₂ = 0,
/// aₖ₊₃ = c aₖ / ((k+3)(k+2)) (an entire function; the series converges for every t).
/// Returns `[y1, y2]` at `t` and their derivatives with respect to `[y1(0), y2(0), c]`.
pub fn fazang1_exact(t: f64, y0: [f64; 2], c: f64) -> ([f64; 2], [[f64; 3]; 2]) {
    // a[k] and its derivatives along y1(0), y2(0), c.
    let mut a = vec![[0.0; 4]; 200];
    a[0] = [y0[0], 1.0, 0.0, 0.0];
    a[1] = [y0[1], 0.0, 1.0, 0.0];
    for k in 0..197 {
        let m = 1.0 / ((k + 3) as f64 * (k + 2) as f64);
        let prev = a[k];
        a[k + 3] = [
            c * prev[0] * m,
            c * prev[1] * m,
            c * prev[2] * m,
            (prev[0] + c * prev[3]) * m,
        ];
    }
    let (mut y, mut dy) = ([0.0; 2], [[0.0; 3]; 2]);
    for (k, ak) in a.iter().enumerate() {
        let tk = t.powi(k as i32);
        let tk1 = if k == 0 {
            0.0
        } else {
            k as f64 * t.powi(k as i32 - 1)
        };
        y[0] += ak[0] * tk;
        y[1] += ak[0] * tk1;
        for j in 0..3 {
            dy[0][j] += ak[j + 1] * tk;
            dy[1][j] += ak[j + 1] * tk1;
        }
    }
    (y, dy)
}

/// Fazang's second example in closed form, with w = p1 p2 p3:
/// y2 = y2(0) + (1 - cos wt)/w, y1 = y1(0) + y2(0) t + t/w - sin(wt)/w².
/// Returns `[y1, y2]` at `t` and their derivatives with respect to w.
pub fn fazang2_exact(t: f64, y0: [f64; 2], w: f64) -> ([f64; 2], [f64; 2]) {
    let (s, c) = (w * t).sin_cos();
    let y1 = y0[0] + y0[1] * t + t / w - s / (w * w);
    let y2 = y0[1] + (1.0 - c) / w;
    let dy1 = -t / (w * w) - t * c / (w * w) + 2.0 * s / (w * w * w);
    let dy2 = t * s / w - (1.0 - c) / (w * w);
    ([y1, y2], [dy1, dy2])
}

/// Which solver a test runs.
#[derive(Clone, Copy, Debug)]
pub enum Solver {
    Bdf,
    Rk45,
}

pub const SOLVERS: [Solver; 2] = [Solver::Bdf, Solver::Rk45];

/// Solve on `f64` with the chosen method.
pub fn solve_f64<F: OdeSystem>(
    solver: Solver,
    f: &F,
    y0: &[f64],
    ts: &[f64],
    theta: &[f64],
    tol: OdeTol,
) -> Vec<Vec<f64>> {
    let r = match solver {
        Solver::Bdf => ode_bdf(f, y0, 0.0, ts, theta, tol),
        Solver::Rk45 => ode_rk45(f, y0, 0.0, ts, theta, tol),
    };
    r.unwrap_or_else(|e| panic!("{solver:?}: {e}"))
}

/// Solve with active `y0` and `theta` and return the values and the Jacobian of every
/// output (time-major, then state) with respect to `[y0, theta]`, read off the tape.
pub fn solve_jacobian<F: OdeSystem>(
    solver: Solver,
    f: &F,
    y0: &[f64],
    ts: &[f64],
    theta: &[f64],
    tol: OdeTol,
) -> (Vec<f64>, Vec<Vec<f64>>) {
    let x: Vec<f64> = y0.iter().chain(theta).copied().collect();
    let n = y0.len();
    jacobian(
        |x| {
            let r = match solver {
                Solver::Bdf => ode_bdf(f, &x[..n], 0.0, ts, &x[n..], tol),
                Solver::Rk45 => ode_rk45(f, &x[..n], 0.0, ts, &x[n..], tol),
            };
            r.unwrap_or_else(|e| panic!("{solver:?}: {e}")).concat()
        },
        &x,
    )
}

/// The same Jacobian by central differences of the primal solved at `tight` tolerances,
/// step `h` relative to each input.
pub fn fd_jacobian<F: OdeSystem>(
    solver: Solver,
    f: &F,
    y0: &[f64],
    ts: &[f64],
    theta: &[f64],
    tight: OdeTol,
    h: f64,
) -> Vec<Vec<f64>> {
    let x: Vec<f64> = y0.iter().chain(theta).copied().collect();
    let n = y0.len();
    let eval = |x: &[f64]| solve_f64(solver, f, &x[..n], ts, &x[n..], tight).concat();
    let m = n * ts.len();
    let mut jac = vec![vec![0.0; x.len()]; m];
    for j in 0..x.len() {
        let step = h * x[j].abs().max(1e-3);
        let (mut lo, mut hi) = (x.clone(), x.clone());
        lo[j] -= step;
        hi[j] += step;
        let (a, b) = (eval(&hi), eval(&lo));
        for i in 0..m {
            jac[i][j] = (a[i] - b[i]) / (2.0 * step);
        }
    }
    jac
}
