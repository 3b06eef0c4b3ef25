//! The `name_jvp`, `name_hessian` and `name_hvp` that `#[differentiate]` generates, for
//! scalar and slice parameters, vector results and `#[deriv_rule]` struct parameters,
//! checked against closed forms (both Hessian modes: few inputs forward-over-forward,
//! many reverse-over-forward) and against the runtime's `hessian` driver.

#[allow(dead_code)]
#[path = "support/close.rs"]
mod close;

use close::{assert_all_close, assert_close};
use fazang::prelude::*;

/// f(x, y) = x² Σ sin yᵢ + x y₀ y₁.
#[differentiate]
fn f(x: f64, y: &[f64]) -> f64 {
    let s: f64 = y.iter().map(|v| v.sin()).sum();
    x * x * s + x * y[0] * y[1]
}

/// A vector result, for `_jvp` of vector functions: (x y₀, sin y₁).
#[differentiate]
fn g(x: f64, y: &[f64]) -> Vec<f64> {
    vec![x * y[0], y[1].sin()]
}

// ---- Closed forms ----

fn closed(x: f64, y: &[f64]) -> (f64, Vec<f64>, Vec<Vec<f64>>) {
    let n = 1 + y.len();
    let s: f64 = y.iter().map(|v| v.sin()).sum();
    let v = x * x * s + x * y[0] * y[1];
    let mut g = vec![2.0 * x * s + y[0] * y[1]];
    let mut h = vec![vec![0.0; n]; n];
    h[0][0] = 2.0 * s;
    for (i, yi) in y.iter().enumerate() {
        let other = match i {
            0 => y[1],
            1 => y[0],
            _ => 0.0,
        };
        g.push(x * x * yi.cos() + x * other);
        h[0][i + 1] = 2.0 * x * yi.cos() + other;
        h[i + 1][0] = h[0][i + 1];
        h[i + 1][i + 1] = -x * x * yi.sin();
    }
    h[1][2] += x;
    h[2][1] += x;
    (v, g, h)
}

fn mat_vec(h: &[Vec<f64>], v: &[f64]) -> Vec<f64> {
    h.iter()
        .map(|row| row.iter().zip(v).map(|(a, b)| a * b).sum())
        .collect()
}

#[test]
fn jvp_expansion_gives_the_directional_derivative() {
    let (x, y) = (0.7, [0.3, -1.2, 2.0]);
    let v = [0.5, -1.0, 2.0, 0.25];
    let (want_v, want_g, _) = closed(x, &y);
    let (val, d) = f_jvp(x, &y, &v);
    assert_close(val, want_v, 1e-15, "value");
    let dir: f64 = want_g.iter().zip(&v).map(|(a, b)| a * b).sum();
    assert_close(d, dir, 1e-14, "directional derivative");

    let (vals, jv) = g_jvp(x, &y, &v);
    assert_eq!(vals, vec![x * y[0], y[1].sin()]);
    assert_all_close(
        &jv,
        &[v[0] * y[0] + x * v[1], y[1].cos() * v[2]],
        1e-15,
        "J v",
    );
}

#[test]
fn hvp_expansion_gives_h_times_v() {
    let (x, y) = (0.7, [0.3, -1.2, 2.0]);
    let v = [0.5, -1.0, 2.0, 0.25];
    let (want_v, _, h) = closed(x, &y);
    let (val, hv) = f_hvp(x, &y, &v);
    assert_close(val, want_v, 1e-15, "value");
    assert_all_close(&hv, &mat_vec(&h, &v), 1e-14, "H v");
}

#[test]
fn hessian_expansion_in_both_modes() {
    // 3 inputs: forward-over-forward; 12 inputs: reverse-over-forward in two passes.
    for y in [
        vec![0.3, -1.2],
        (0..11).map(|i| 0.3 * i as f64 - 1.0).collect(),
    ] {
        let x = 0.7;
        let (want_v, want_g, want_h) = closed(x, &y);
        let (v, (gx, gy), h) = f_hessian(x, &y);
        assert_close(v, want_v, 1e-15, "value");
        assert_close(gx, want_g[0], 1e-14, "df/dx");
        assert_all_close(&gy, &want_g[1..], 1e-14, "df/dy");
        for (i, (row, want)) in h.iter().zip(&want_h).enumerate() {
            assert_all_close(row, want, 1e-14, &format!("H row {i}"));
        }
        // The runtime driver agrees.
        let flat: Vec<f64> = std::iter::once(x).chain(y.iter().copied()).collect();
        let (_, _, h2) = fazang::hessian(|z| f(z[0], &z[1..]), &flat);
        for (row, row2) in h.iter().zip(&h2) {
            assert_all_close(row, row2, 1e-14, "the runtime driver");
        }
    }
}

#[test]
#[should_panic(expected = "the direction v has 2 entries, but the function has 4 active inputs")]
fn a_direction_of_the_wrong_length_is_refused() {
    f_jvp(0.7, &[0.3, -1.2, 2.0], &[1.0, 2.0]);
}

/// A differentiable struct parameter, seeded like any other shape.
#[deriv_rule]
#[derive(Clone, Debug)]
struct Point {
    x: f64,
    y: f64,
    label: String,
}

/// p(z, s) = z.x² z.y + s z.x.
#[differentiate]
fn p(z: Point, s: f64) -> f64 {
    z.x * z.x * z.y + s * z.x
}

#[test]
fn struct_parameters_are_seeded_field_by_field() {
    let z = Point {
        x: 1.5,
        y: -0.5,
        label: "a".into(),
    };
    let (v, (gz, gs), h) = p_hessian(z.clone(), 2.0);
    assert_close(v, 1.5 * 1.5 * -0.5 + 2.0 * 1.5, 1e-15, "value");
    assert_all_close(
        &[gz.x, gz.y, gs],
        &[2.0 * 1.5 * -0.5 + 2.0, 2.25, 1.5],
        1e-15,
        "gradient",
    );
    assert_eq!(gz.label, "a");
    assert_eq!(
        h,
        vec![
            vec![-1.0, 3.0, 1.0],
            vec![3.0, 0.0, 0.0],
            vec![1.0, 0.0, 0.0]
        ]
    );
    let mut dir = ::fazang::__private::Direction::new(&[1.0, 0.0, 0.0], 3);
    let (zd, sd) = (dir.seed(&z), dir.seed(&2.0));
    assert_eq!(p(zd, sd).eps, gz.x);
}

/// An empty sum is -0.0 on every scalar, as std's `Sum for f64` (found by fazang-fuzz: the
/// forward scalars started at +0.0, so `_jvp` and `_hessian` took the other branch).
#[differentiate]
fn branch_on_an_empty_sum(x: &[f64]) -> f64 {
    let s = x
        .iter()
        .filter(|v| **v > 10.0)
        .map(|v| v * 2.0)
        .sum::<f64>();
    if s.is_sign_negative() {
        x[0]
    } else {
        2.0 * x[0]
    }
}

#[test]
fn empty_sums_are_negative_zero_on_every_path() {
    let x = [0.5, 0.25];
    assert_eq!(branch_on_an_empty_sum(&x), 0.5);
    assert_eq!(branch_on_an_empty_sum_grad(&x).1, vec![1.0, 0.0]);
    assert_eq!(branch_on_an_empty_sum_jvp(&x, &[1.0, 0.0]), (0.5, 1.0));
    let (_, g, _) = branch_on_an_empty_sum_hessian(&x);
    assert_eq!(g, vec![1.0, 0.0]);
}
