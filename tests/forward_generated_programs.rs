//! `name_jvp`, `name_hessian` and `name_hvp` of functions written as numeric Rust is
//! written: loops over slices, helpers, methods, `Result` and `?`, a `#[deriv_rule]`
//! function, a distribution, parameter names a generated item could clash with. Checked
//! against closed forms and against central differences of `name_grad`.

#[allow(dead_code)]
#[path = "support/close.rs"]
mod close;

use close::{assert_all_close, assert_close};
use fazang::prelude::*;

/// Rosenbrock as a loop over the slice.
#[differentiate]
fn rosenbrock(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        let a = 1.0 - x[i];
        let b = x[i + 1] - x[i] * x[i];
        s += a * a + 100.0 * b * b;
    }
    s
}

/// Its Hessian in closed form (tridiagonal).
fn rosenbrock_hessian_closed(x: &[f64]) -> Vec<Vec<f64>> {
    let n = x.len();
    let mut h = vec![vec![0.0; n]; n];
    for i in 0..n - 1 {
        h[i][i] += 2.0 - 400.0 * (x[i + 1] - x[i] * x[i]) + 800.0 * x[i] * x[i];
        h[i + 1][i + 1] += 200.0;
        h[i][i + 1] -= 400.0 * x[i];
        h[i + 1][i] -= 400.0 * x[i];
    }
    h
}

#[test]
fn rosenbrock_at_reverse_diff_sources_point() {
    // ReverseDiffSource's example: value 306.5, gradient [-351, 350], Hessian
    // [[-498, -200], [-200, 200]] at [0.5, 2.0].
    let (v, g, h) = rosenbrock_hessian(&[0.5, 2.0]);
    assert_close(v, 306.5, 1e-13, "value");
    assert_all_close(&g, &[-351.0, 350.0], 1e-13, "gradient");
    assert_eq!(h, vec![vec![-498.0, -200.0], vec![-200.0, 200.0]]);
}

#[test]
fn rosenbrock_hessian_in_both_modes_and_hvp() {
    // 3 inputs: forward-over-forward; 40: reverse-over-forward, 5 passes.
    for n in [3, 40] {
        let x: Vec<f64> = (0..n).map(|i| 0.9 + 0.05 * (i % 7) as f64).collect();
        let (v, g, h) = rosenbrock_hessian(&x);
        let (v0, g0) = rosenbrock_grad(&x);
        assert_close(v, v0, 1e-14, "value");
        assert_all_close(&g, &g0, 1e-12, "gradient");
        let want = rosenbrock_hessian_closed(&x);
        for (i, (row, w)) in h.iter().zip(&want).enumerate() {
            assert_all_close(row, w, 1e-12, &format!("row {i}"));
        }
        let dir: Vec<f64> = (0..n).map(|i| (i as f64 * 0.37).sin()).collect();
        let (v1, hv) = rosenbrock_hvp(&x, &dir);
        assert_close(v1, v0, 1e-14, "hvp value");
        let want_hv: Vec<f64> = want
            .iter()
            .map(|r| r.iter().zip(&dir).map(|(a, b)| a * b).sum())
            .collect();
        assert_all_close(&hv, &want_hv, 1e-11, "H v");
        let (v2, d) = rosenbrock_jvp(&x, &dir);
        assert_close(v2, v0, 1e-14, "jvp value");
        let gv: f64 = g0.iter().zip(&dir).map(|(a, b)| a * b).sum();
        assert_close(d, gv, 1e-12, "grad . v");
    }
}

/// A first-order rule whose partial is an expression: differentiable again.
#[deriv_rule(x => 1.0 / (1.0 + x * x))]
fn my_atan(x: f64) -> f64 {
    x.atan()
}

/// Parameters named as a generated item's locals might be; a helper, a rule, a
/// distribution and `?`.
fn weight(out: f64) -> f64 {
    out * out
}

#[differentiate]
fn clashing(v: f64, out: f64, inputs: &[f64], n: usize) -> Result<f64, DomainError> {
    let mut total = 0.0;
    for (i, x) in inputs.iter().enumerate().take(n) {
        total += my_atan(*x * v) * (i as f64 + 1.0);
    }
    let lp = normal_lpdf(out, v, 2.0)?;
    Ok(total + lp + weight_active(out))
}

#[differentiate]
fn weight_active(out: f64) -> f64 {
    weight(1.0) * out * out * out
}

/// Flattened inputs of `clashing`: v, out, inputs[..].
fn clashing_flat(z: &[f64]) -> f64 {
    clashing(z[0], z[1], &z[2..], 3).unwrap()
}

fn clashing_grad_flat(z: &[f64]) -> Vec<f64> {
    let (_, (dv, dout, dinputs)) = clashing_grad(z[0], z[1], &z[2..], 3).unwrap();
    let mut g = vec![dv, dout];
    g.extend(dinputs);
    g
}

#[test]
fn hessian_of_a_result_function_with_a_rule_and_a_distribution() {
    let z = [0.7, -0.4, 0.3, 1.1, -0.8];
    let (v, (dv, dout, dinputs), h) = clashing_hessian(z[0], z[1], &z[2..], 3).unwrap();
    assert_close(v, clashing_flat(&z), 1e-14, "value");
    let g = clashing_grad_flat(&z);
    assert_all_close(&[dv, dout], &g[..2], 1e-13, "gradient (scalars)");
    assert_all_close(&dinputs, &g[2..], 1e-13, "gradient (slice)");
    // Rows against central differences of the gradient.
    let eps = 1e-6;
    for (j, row) in h.iter().enumerate() {
        let (mut zp, mut zm) = (z, z);
        zp[j] += eps;
        zm[j] -= eps;
        let (gp, gm) = (clashing_grad_flat(&zp), clashing_grad_flat(&zm));
        let fd: Vec<f64> = gp
            .iter()
            .zip(&gm)
            .map(|(a, b)| (a - b) / (2.0 * eps))
            .collect();
        assert_all_close(row, &fd, 1e-7, &format!("row {j}"));
    }
    // The directional derivative and H v agree with the gradient and the rows.
    let dir = [0.2, -1.0, 0.5, 0.0, 3.0];
    let (_, d) = clashing_jvp(z[0], z[1], &z[2..], 3, &dir).unwrap();
    let gv: f64 = g.iter().zip(&dir).map(|(a, b)| a * b).sum();
    assert_close(d, gv, 1e-13, "jvp");
    let (_, hv) = clashing_hvp(z[0], z[1], &z[2..], 3, &dir).unwrap();
    let want: Vec<f64> = h
        .iter()
        .map(|r| r.iter().zip(&dir).map(|(a, b)| a * b).sum())
        .collect();
    assert_all_close(&hv, &want, 1e-12, "H v");
    // The direction parameter is `v_` here: `v` is taken.
    assert!(clashing_jvp(z[0], -1.0, &z[2..], 3, &dir).is_ok());
}

#[test]
fn errors_come_back_from_every_mode() {
    // normal_lpdf's sigma is fine; an infinite `out` is fine too, so break `v` instead:
    // a NaN location is a domain error in every mode.
    let e = clashing_hessian(f64::NAN, 0.0, &[0.1], 1).unwrap_err();
    assert!(e.to_string().contains("normal_lpdf"), "{e}");
    assert!(clashing_hvp(f64::NAN, 0.0, &[0.1], 1, &[1.0, 0.0, 0.0]).is_err());
    assert!(clashing_jvp(f64::NAN, 0.0, &[0.1], 1, &[1.0, 0.0, 0.0]).is_err());
}

/// A model with data, its log density a method.
struct Regression {
    xs: Vec<f64>,
    ys: Vec<f64>,
}

#[differentiate]
impl Regression {
    fn log_density(&self, alpha: f64, beta: f64, log_sigma: f64) -> f64 {
        let sigma = log_sigma.exp();
        let mut lp = 0.0;
        for (x, y) in self.xs.iter().zip(&self.ys) {
            let r = (y - alpha - beta * x) / sigma;
            lp -= 0.5 * r * r + log_sigma;
        }
        lp
    }
}

#[test]
fn hessian_of_a_method() {
    let m = Regression {
        xs: vec![0.0, 1.0, 2.0, 3.0],
        ys: vec![0.1, 1.2, 1.9, 3.2],
    };
    let (a, b, ls) = (0.05, 0.95, -0.5);
    let (_, g, h) = m.log_density_hessian(a, b, ls);
    let (_, g0) = m.log_density_grad(a, b, ls);
    assert_all_close(&g, &g0, 1e-13, "gradient");
    // Closed form: with w = exp(-2 ls), d2/dalpha2 = -n w, d2/dalpha dbeta = -w sum x,
    // d2/dbeta2 = -w sum x^2, d2/dls2 = -2 w sum r^2 (r the raw residuals).
    let w = (-2.0 * ls).exp();
    let n = m.xs.len() as f64;
    let sx: f64 = m.xs.iter().sum();
    let sxx: f64 = m.xs.iter().map(|x| x * x).sum();
    let res: Vec<f64> = m.xs.iter().zip(&m.ys).map(|(x, y)| y - a - b * x).collect();
    let srr: f64 = res.iter().map(|r| r * r).sum();
    let sr: f64 = res.iter().sum();
    let sxr: f64 = m.xs.iter().zip(&res).map(|(x, r)| x * r).sum();
    let want = [
        [-n * w, -w * sx, -2.0 * w * sr],
        [-w * sx, -w * sxx, -2.0 * w * sxr],
        [-2.0 * w * sr, -2.0 * w * sxr, -2.0 * w * srr],
    ];
    for (row, w) in h.iter().zip(&want) {
        assert_all_close(row, w, 1e-12, "Hessian row");
    }
}

/// A vector result: `_jvp` gives J v, checked against the Jacobian.
#[differentiate]
fn polar(r: f64, theta: f64) -> [f64; 2] {
    [r * theta.cos(), r * theta.sin()]
}

#[test]
fn jvp_of_a_vector_function() {
    let (vals, jv) = polar_jvp(2.0, 0.3, &[0.5, -1.0]);
    let (vals0, jac) = polar_jacobian(2.0, 0.3);
    assert_eq!(vals, vals0);
    let want: Vec<f64> = jac.iter().map(|r| r[0] * 0.5 - r[1]).collect();
    assert_all_close(&jv, &want, 1e-15, "J v");
}
