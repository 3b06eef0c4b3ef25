//! Right-hand sides with closed-form solutions, and those solutions' first and second
//! derivatives written out by hand (the logistic ones checked against mpmath's
//! differentiation of the closed form at 40 digits while writing them): the independent
//! truths of `tests/ode_second_order.rs`.
#![allow(dead_code)]

use fazang::prelude::*;

/// Exponential decay, y' = -k y: y(t) = y0 e^(-kt).
#[differentiate(wrt(y, k))]
pub fn decay(_t: f64, y: &[f64], k: &[f64]) -> Vec<f64> {
    vec![-k[0] * y[0]]
}
ode_system!(pub Decay = decay);

/// A damped rotation, y' = A y with A = [[-a, -w], [w, -a]], p = (a, w):
/// y(t) = e^(-at) R(wt) y0, R the rotation by wt.
#[differentiate(wrt(y, p))]
pub fn spiral(_t: f64, y: &[f64], p: &[f64]) -> [f64; 2] {
    let (a, w) = (p[0], p[1]);
    [-a * y[0] - w * y[1], w * y[0] - a * y[1]]
}
ode_system!(pub Spiral = spiral);

/// Logistic growth, y' = r y (1 - y / K), p = (r, K):
/// y(t) = K y0 e^(rt) / (K + y0 (e^(rt) - 1)).
#[differentiate(wrt(y, p))]
pub fn logistic(_t: f64, y: &[f64], p: &[f64]) -> Vec<f64> {
    let (r, k) = (p[0], p[1]);
    vec![r * y[0] * (1.0 - y[0] / k)]
}
ode_system!(pub Logistic = logistic);

/// A stiff linear system, y1' = -a y1 + y2, y2' = -b y2 with b ≫ a, p = (a, b): its
/// matrix exponential is [[e^(-at), g], [0, e^(-bt)]], g = (e^(-at) - e^(-bt)) / (b - a).
#[differentiate(wrt(y, p))]
pub fn stiff_linear(_t: f64, y: &[f64], p: &[f64]) -> [f64; 2] {
    [-p[0] * y[0] + y[1], -p[1] * y[1]]
}
ode_system!(pub StiffLinear = stiff_linear);

/// A value, its gradient and Hessian over the inputs of a closed form.
#[derive(Clone, Debug)]
pub struct Exact {
    pub value: f64,
    pub grad: Vec<f64>,
    pub hess: Vec<Vec<f64>>,
}

impl Exact {
    /// H v.
    pub fn hv(&self, v: &[f64]) -> Vec<f64> {
        self.hess
            .iter()
            .map(|row| row.iter().zip(v).map(|(h, x)| h * x).sum())
            .collect()
    }
}

/// y(t) of the decay over the inputs (y0, k, t).
pub fn decay_exact(y0: f64, k: f64, t: f64) -> Exact {
    let e = (-k * t).exp();
    let y = y0 * e;
    Exact {
        value: y,
        grad: vec![e, -t * y, -k * y],
        hess: vec![
            vec![0.0, -t * e, -k * e],
            vec![-t * e, t * t * y, y * (k * t - 1.0)],
            vec![-k * e, y * (k * t - 1.0), k * k * y],
        ],
    }
}

/// Both states of the spiral at `t` over the inputs (y0₁, y0₂, a, w). With M = e^(At)
/// and J = [[0, -1], [1, 0]] (A = -a I + w J, so M commutes with J):
/// ∂y/∂y0ⱼ = M eⱼ, ∂y/∂a = -t y, ∂y/∂w = t M J y0; ∂²y/∂y0ᵢ∂y0ⱼ = 0,
/// ∂²y/∂y0ⱼ∂a = -t M eⱼ, ∂²y/∂y0ⱼ∂w = t M J eⱼ, ∂²y/∂a² = t² y, ∂²y/∂w² = -t² y,
/// ∂²y/∂a∂w = -t² M J y0.
pub fn spiral_exact(y0: [f64; 2], a: f64, w: f64, t: f64) -> [Exact; 2] {
    let (s, c) = (w * t).sin_cos();
    let e = (-a * t).exp();
    let m = [[e * c, -e * s], [e * s, e * c]];
    let mj = [[m[0][1], -m[0][0]], [m[1][1], -m[1][0]]];
    let apply = |a: &[[f64; 2]; 2], x: [f64; 2], i: usize| a[i][0] * x[0] + a[i][1] * x[1];
    std::array::from_fn(|i| {
        let y = apply(&m, y0, i);
        let yw = t * apply(&mj, y0, i);
        let grad = vec![m[i][0], m[i][1], -t * y, yw];
        let mut hess = vec![vec![0.0; 4]; 4];
        for j in 0..2 {
            hess[j][2] = -t * m[i][j];
            hess[j][3] = t * mj[i][j];
        }
        hess[2][2] = t * t * y;
        hess[3][3] = -t * t * y;
        hess[2][3] = -t * yw;
        // The lower triangle from the upper one.
        let hess = (0..4)
            .map(|r| (0..4).map(|c| hess[r.min(c)][r.max(c)]).collect())
            .collect();
        Exact {
            value: y,
            grad,
            hess,
        }
    })
}

/// The logistic solution at `t` over the inputs (y0, r, K), through ln y: with
/// E = e^(rt) and D = K + y0 (E - 1), ∂ln y = (1/y0 - (E-1)/D, t - y0 t E/D, 1/K - 1/D),
/// and ∂²y/∂a∂b = y (∂ₐln y ∂_b ln y + ∂²ₐ_b ln y).
pub fn logistic_exact(y0: f64, r: f64, k: f64, t: f64) -> Exact {
    let e = (r * t).exp();
    let d = k + y0 * (e - 1.0);
    let y = k * y0 * e / d;
    let g = [
        1.0 / y0 - (e - 1.0) / d,
        t - y0 * t * e / d,
        1.0 / k - 1.0 / d,
    ];
    let d2 = d * d;
    let h = [
        [
            -1.0 / (y0 * y0) + (e - 1.0) * (e - 1.0) / d2,
            -t * e * k / d2,
            (e - 1.0) / d2,
        ],
        [
            -t * e * k / d2,
            -y0 * t * t * e * (k - y0) / d2,
            y0 * t * e / d2,
        ],
        [(e - 1.0) / d2, y0 * t * e / d2, -1.0 / (k * k) + 1.0 / d2],
    ];
    Exact {
        value: y,
        grad: g.iter().map(|gi| y * gi).collect(),
        hess: (0..3)
            .map(|i| (0..3).map(|j| y * (g[i] * g[j] + h[i][j])).collect())
            .collect(),
    }
}

/// Both states of [`StiffLinear`] at `t` over the inputs (y0₁, y0₂, a, b), from the
/// derivatives of g: g_a = (g - t e^(-at)) / (b - a), g_b = (t e^(-bt) - g) / (b - a),
/// g_aa = (t² e^(-at) + 2 g_a) / (b - a), g_bb = -(t² e^(-bt) + 2 g_b) / (b - a),
/// g_ab = (g_b - g_a) / (b - a).
pub fn stiff_linear_exact(y0: [f64; 2], a: f64, b: f64, t: f64) -> [Exact; 2] {
    let (ea, eb, d) = ((-a * t).exp(), (-b * t).exp(), b - a);
    let g = (ea - eb) / d;
    let (ga, gb) = ((g - t * ea) / d, (t * eb - g) / d);
    let (gaa, gbb, gab) = (
        (t * t * ea + 2.0 * ga) / d,
        -(t * t * eb + 2.0 * gb) / d,
        (gb - ga) / d,
    );
    let sym = |entries: &[(usize, usize, f64)]| {
        let mut h = vec![vec![0.0; 4]; 4];
        for &(i, j, v) in entries {
            h[i][j] = v;
            h[j][i] = v;
        }
        h
    };
    let y1 = Exact {
        value: ea * y0[0] + g * y0[1],
        grad: vec![ea, g, -t * ea * y0[0] + y0[1] * ga, y0[1] * gb],
        hess: sym(&[
            (0, 2, -t * ea),
            (1, 2, ga),
            (1, 3, gb),
            (2, 2, t * t * ea * y0[0] + y0[1] * gaa),
            (2, 3, y0[1] * gab),
            (3, 3, y0[1] * gbb),
        ]),
    };
    let y2 = Exact {
        value: eb * y0[1],
        grad: vec![0.0, eb, 0.0, -t * eb * y0[1]],
        hess: sym(&[(1, 3, -t * eb), (3, 3, t * t * eb * y0[1])]),
    };
    [y1, y2]
}

/// |got - want| ≤ rel |want| + abs for each entry: every entry at its own scale.
#[track_caller]
pub fn assert_entries(got: &[f64], want: &[f64], rel: f64, abs: f64, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: lengths differ");
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        let err = (g - w).abs();
        assert!(
            err <= rel * w.abs() + abs,
            "{what}[{i}]: got {g:e}, want {w:e} (error {err:e}, allowed {:e})",
            rel * w.abs() + abs
        );
    }
}

/// [`assert_entries`] row by row.
#[track_caller]
pub fn assert_rows(got: &[Vec<f64>], want: &[Vec<f64>], rel: f64, abs: f64, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: row counts differ");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_entries(g, w, rel, abs, &format!("{what}[{i}]"));
    }
}
