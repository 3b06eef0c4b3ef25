//! Interpolation of tabulated values, as in a yield-curve or lookup-table code:
//! - piecewise-linear interpolation with flat extrapolation, choosing the segment with
//!   `partition_point` and a `match` on the index; every argument active (knot abscissae,
//!   knot values, the query point), gradient a tuple `(Vec<f64>, Vec<f64>, f64)`;
//! - a natural cubic spline (tridiagonal system solved with the Thomas algorithm: the
//!   diagonal depends only on the abscissae and stays data, the right-hand side and the
//!   second derivatives become active) evaluated at many points, a Jacobian with respect
//!   to the knot values.
//!
//! Independent truth: the spline is linear in the knot values, so Jacobian column j is the
//! plain spline through the j-th unit vector; the linear interpolant's partials are the hat
//! weights, the slope, and (y_i − y_{i−1})(x − x_i)/Δ², −(y_i − y_{i−1})(x − x_{i−1})/Δ².
#![allow(clippy::needless_range_loop)]
use fazang::prelude::*;

mod program_support;
use program_support::*;

#[differentiate]
fn interp_linear(knots_x: &[f64], knots_y: &[f64], x: f64) -> f64 {
    let n = knots_x.len();
    match knots_x.partition_point(|&k| k <= x) {
        0 => knots_y[0],
        i if i == n => knots_y[n - 1],
        i => {
            let t = (x - knots_x[i - 1]) / (knots_x[i] - knots_x[i - 1]);
            knots_y[i - 1] + t * (knots_y[i] - knots_y[i - 1])
        }
    }
}

#[differentiate(wrt(ys))]
fn spline_eval(xs: &[f64], ys: &[f64], queries: &[f64]) -> Vec<f64> {
    let n = xs.len();
    let h: Vec<f64> = xs.windows(2).map(|w| w[1] - w[0]).collect();
    // Second derivatives m, natural ends m[0] = m[n - 1] = 0.
    let mut diag = vec![0.0; n];
    let mut rhs = vec![0.0; n];
    for i in 1..n - 1 {
        diag[i] = 2.0 * (h[i - 1] + h[i]);
        rhs[i] = 6.0 * ((ys[i + 1] - ys[i]) / h[i] - (ys[i] - ys[i - 1]) / h[i - 1]);
    }
    for i in 2..n - 1 {
        let w = h[i - 1] / diag[i - 1];
        diag[i] -= w * h[i - 1];
        rhs[i] -= w * rhs[i - 1];
    }
    let mut m = vec![0.0; n];
    for i in (1..n - 1).rev() {
        m[i] = (rhs[i] - h[i] * m[i + 1]) / diag[i];
    }
    queries
        .iter()
        .map(|&x| {
            let i = match xs.iter().position(|&k| k > x) {
                Some(0) => 0,
                Some(j) => j - 1,
                None => n - 2,
            };
            let t = x - xs[i];
            let slope = (ys[i + 1] - ys[i]) / h[i] - h[i] * (2.0 * m[i] + m[i + 1]) / 6.0;
            ys[i] + slope * t + m[i] / 2.0 * t * t + (m[i + 1] - m[i]) / (6.0 * h[i]) * t * t * t
        })
        .collect()
}

/// The same code without the attributes.
mod plain {
    pub fn interp_linear(knots_x: &[f64], knots_y: &[f64], x: f64) -> f64 {
        let n = knots_x.len();
        match knots_x.partition_point(|&k| k <= x) {
            0 => knots_y[0],
            i if i == n => knots_y[n - 1],
            i => {
                let t = (x - knots_x[i - 1]) / (knots_x[i] - knots_x[i - 1]);
                knots_y[i - 1] + t * (knots_y[i] - knots_y[i - 1])
            }
        }
    }

    pub fn spline_eval(xs: &[f64], ys: &[f64], queries: &[f64]) -> Vec<f64> {
        let n = xs.len();
        let h: Vec<f64> = xs.windows(2).map(|w| w[1] - w[0]).collect();
        let mut diag = vec![0.0; n];
        let mut rhs = vec![0.0; n];
        for i in 1..n - 1 {
            diag[i] = 2.0 * (h[i - 1] + h[i]);
            rhs[i] = 6.0 * ((ys[i + 1] - ys[i]) / h[i] - (ys[i] - ys[i - 1]) / h[i - 1]);
        }
        for i in 2..n - 1 {
            let w = h[i - 1] / diag[i - 1];
            diag[i] -= w * h[i - 1];
            rhs[i] -= w * rhs[i - 1];
        }
        let mut m = vec![0.0; n];
        for i in (1..n - 1).rev() {
            m[i] = (rhs[i] - h[i] * m[i + 1]) / diag[i];
        }
        queries
            .iter()
            .map(|&x| {
                let i = match xs.iter().position(|&k| k > x) {
                    Some(0) => 0,
                    Some(j) => j - 1,
                    None => n - 2,
                };
                let t = x - xs[i];
                let slope = (ys[i + 1] - ys[i]) / h[i] - h[i] * (2.0 * m[i] + m[i + 1]) / 6.0;
                ys[i]
                    + slope * t
                    + m[i] / 2.0 * t * t
                    + (m[i + 1] - m[i]) / (6.0 * h[i]) * t * t * t
            })
            .collect()
    }
}

/// Maturities (years) and zero rates (%) of a yield curve.
const TENORS: [f64; 7] = [0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0];
const RATES: [f64; 7] = [4.1, 4.3, 4.2, 3.9, 3.7, 3.9, 4.2];

/// Query maturities: inside every segment, away from the knots, plus both flat ends.
fn queries() -> Vec<f64> {
    let mut rng = Rng::new(3);
    let mut q: Vec<f64> = TENORS
        .windows(2)
        .map(|w| w[0] + (0.1 + 0.8 * rng.uniform()) * (w[1] - w[0]))
        .collect();
    q.extend([0.1, 40.0]);
    q
}

#[test]
fn primal_is_the_plain_code() {
    for x in queries() {
        assert_same_bits(
            interp_linear(&TENORS, &RATES, x),
            plain::interp_linear(&TENORS, &RATES, x),
            "linear",
        );
    }
    let q = queries();
    assert_all_same_bits(
        &spline_eval(&TENORS, &RATES, &q),
        &plain::spline_eval(&TENORS, &RATES, &q),
        "spline",
    );
    // The spline passes through the knots.
    let at_knots = plain::spline_eval(&TENORS, &RATES, &TENORS[..6]);
    assert_all_close(&at_knots, &RATES[..6], 1e-14, "interpolates");
}

#[test]
fn linear_gradient_matches_closed_form_and_finite_differences() {
    for x in queries() {
        let (v, (g_x, g_y, g_q)) = interp_linear_grad(&TENORS, &RATES, x);
        let g_q: f64 = g_q;
        assert_close(v, plain::interp_linear(&TENORS, &RATES, x), 1e-15, "value");
        let (mut want_x, mut want_y, mut want_q) = (vec![0.0; 7], vec![0.0; 7], 0.0);
        match TENORS.iter().position(|&k| k > x) {
            Some(0) => want_y[0] = 1.0,
            None => want_y[6] = 1.0,
            Some(i) => {
                let (x0, x1, dy) = (TENORS[i - 1], TENORS[i], RATES[i] - RATES[i - 1]);
                let width = x1 - x0;
                want_y[i - 1] = (x1 - x) / width;
                want_y[i] = (x - x0) / width;
                want_q = dy / width;
                want_x[i - 1] = dy * (x - x1) / (width * width);
                want_x[i] = -dy * (x - x0) / (width * width);
            }
        }
        assert_all_close(&g_x, &want_x, 1e-9, "d/dknots_x");
        assert_all_close(&g_y, &want_y, 1e-9, "d/dknots_y");
        assert_close(g_q, want_q, 1e-9, "d/dx");
        let args: Vec<f64> = [&TENORS[..], &RATES[..], &[x]].concat();
        let fd = fd_gradient_step(
            |a| plain::interp_linear(&a[0..7], &a[7..14], a[14]),
            &args,
            1e-5,
        );
        let g: Vec<f64> = [g_x, g_y, vec![g_q]].concat();
        assert_all_close(&g, &fd, 1e-6, "finite differences");
    }
}

#[test]
fn spline_jacobian_is_the_spline_of_unit_vectors() {
    let q = queries();
    let (values, jac) = spline_eval_jacobian(&TENORS, &RATES, &q);
    assert_all_close(
        &values,
        &plain::spline_eval(&TENORS, &RATES, &q),
        1e-14,
        "values",
    );
    assert_eq!((jac.len(), jac[0].len()), (q.len(), TENORS.len()));
    for j in 0..TENORS.len() {
        let mut e = [0.0; 7];
        e[j] = 1.0;
        let column = plain::spline_eval(&TENORS, &e, &q);
        for i in 0..q.len() {
            assert_close(jac[i][j], column[i], 1e-9, &format!("jac[{i}][{j}]"));
        }
    }
    let fd = fd_jacobian(|y| plain::spline_eval(&TENORS, y, &q), &RATES);
    assert_rows_close(&jac, &fd, 1e-6, "finite differences");
}
