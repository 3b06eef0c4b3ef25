//! Ordinary `f64` code under `#[differentiate]`: each shape of code the activity analysis
//! exists for (data meeting active values, comparisons on data, constant receivers,
//! casts of data, local closures, references from iterators), written as users write it.
//! Every primal is checked against the same code without the attribute, every gradient
//! against finite differences.
#![allow(clippy::needless_range_loop, clippy::ptr_arg)]

mod body_support;
use body_support::{assert_close, fd_grad};
use fazang::prelude::*;

// Data that later meets an active value ------------------------------------------------

#[differentiate(wrt(x))]
fn forward_substitution(x: &[f64], y: &[f64], a: &[f64]) -> f64 {
    let mut out = 0.0;
    for i in 0..x.len() {
        let mut s = y[i];
        for p in 0..i {
            s -= a[p] * x[p];
        }
        out += s * s;
    }
    out
}

fn forward_substitution_plain(x: &[f64], y: &[f64], a: &[f64]) -> f64 {
    let mut out = 0.0;
    for i in 0..x.len() {
        let mut s = y[i];
        for p in 0..i {
            s -= a[p] * x[p];
        }
        out += s * s;
    }
    out
}

#[test]
fn a_data_accumulator_becomes_active() {
    let (x, y, a) = ([0.3, -1.2, 0.8], [1.0, 2.0, 3.0], [0.5, -0.25, 2.0]);
    let (v, g) = forward_substitution_grad(&x, &y, &a);
    assert_eq!(v, forward_substitution_plain(&x, &y, &a));
    assert_eq!(v, forward_substitution(&x, &y, &a));
    assert_close(
        &g,
        &fd_grad(|x| forward_substitution_plain(x, &y, &a), &x),
        1e-8,
    );
}

#[differentiate(wrt(x))]
fn euler_step(x: f64, u0: [f64; 2], h: f64, k: f64) -> f64 {
    let mut u = u0;
    u[0] += h * x;
    u[1] -= h * u[0] * k;
    let mut acc = k.tanh();
    acc += x;
    let mut total = 0f64;
    total += 1_f64 * acc + u[0] * u[1];
    total
}

#[test]
fn data_arrays_and_integer_spelled_literals_become_active() {
    let f = |x: f64| {
        let mut u = [1.0, 2.0];
        u[0] += 0.1 * x;
        u[1] -= 0.1 * u[0] * 0.7;
        let acc = 0.7f64.tanh() + x;
        acc + u[0] * u[1]
    };
    let (v, g) = euler_step_grad(0.4, [1.0, 2.0], 0.1, 0.7);
    assert_eq!(v, f(0.4));
    assert_close(&g, &fd_grad(|x| f(x[0]), &[0.4]), 1e-9);
}

// Comparisons on data and active values ------------------------------------------------

#[differentiate(wrt(x))]
fn branches_on_data(x: &[f64], y: &[f64], z: &[f64], k: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        if k > 0.0 && y[i] == z[i] {
            s += x[i] * k;
        } else if y[i] < -100.0 {
            s -= x[i];
        } else if x[i] > 0.5 {
            s += x[i].powi(2);
        } else {
            s += 0.5 * x[i];
        }
    }
    s
}

#[test]
fn comparisons_between_data_and_active_values() {
    let (x, y, z) = ([0.2, 0.9, -0.4], [1.0, -200.0, 3.0], [1.0, 2.0, 5.0]);
    let (v, g) = branches_on_data_grad(&x, &y, &z, 2.0);
    assert_eq!(v, branches_on_data(&x, &y, &z, 2.0));
    assert_close(&g, &[2.0, -1.0, 0.5], 0.0);
}

// f64's associated functions and constant receivers --------------------------------------

#[differentiate(wrt(x))]
fn constant_receivers(x: &[f64], k: f64) -> f64 {
    let biggest = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let relu = f64::max(0.0, x[0]);
    let angle = f64::atan2(0.5, x[1]);
    let grow = k.powf(x[2]);
    let fused = k.mul_add(x[0], k);
    let root = 2.0_f64.sqrt();
    biggest + relu + angle + grow + fused * root
}

#[test]
fn associated_functions_and_data_receivers() {
    let x = [0.7, -0.3, 1.1];
    let (v, g) = constant_receivers_grad(&x, 1.5);
    assert_eq!(v, constant_receivers(&x, 1.5));
    let plain = |x: &[f64]| {
        let biggest = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let relu = f64::max(0.0, x[0]);
        let angle = f64::atan2(0.5, x[1]);
        biggest + relu + angle + 1.5f64.powf(x[2]) + 1.5f64.mul_add(x[0], 1.5) * 2f64.sqrt()
    };
    assert_close(&g, &fd_grad(plain, &x), 1e-8);
}

// Casts of data, integer casts of active values ------------------------------------------

#[differentiate]
fn trimmed_mean(x: &[f64]) -> f64 {
    let mut sorted = x.to_vec();
    sorted.sort_by(|a, b| a.total_cmp(b));
    let n = sorted.len() as f64;
    let cut = (0.1 * n).ceil() as usize;
    let kept = &sorted[cut..sorted.len() - cut];
    let bucket = (x[0] * 2.0).floor() as usize;
    kept.iter().sum::<f64>() / kept.len() as f64 + bucket as f64
}

#[test]
fn casts_of_data_stay_plain() {
    let x: Vec<f64> = (0..10).map(|i| ((i * 7) % 10) as f64 * 0.3 + 0.1).collect();
    let (v, g) = trimmed_mean_grad(&x);
    assert_eq!(v, trimmed_mean(&x));
    assert_close(&g, &fd_grad(trimmed_mean, &x), 1e-8);
}

// Local closures ---------------------------------------------------------------------

#[differentiate(wrt(ell))]
fn kernel_sum(ell: f64, r: &[f64], k: f64) -> f64 {
    let kernel = |d: f64| (-d * d / (2.0 * ell * ell)).exp();
    let scale = |t: f64| t * t + 1.0;
    let mut s = scale(k);
    for &d in r {
        s += kernel(d);
    }
    s + scale(ell)
}

#[test]
fn closures_called_with_data_and_active_values() {
    let r = [0.1, 0.5, 1.3];
    let f = |ell: f64| {
        let mut s = 2.0 * 2.0 + 1.0;
        for &d in &r {
            s += (-d * d / (2.0 * ell * ell)).exp();
        }
        s + ell * ell + 1.0
    };
    let (v, g) = kernel_sum_grad(0.8, &r, 2.0);
    assert_eq!(v, f(0.8));
    assert_close(&g, &fd_grad(|x| f(x[0]), &[0.8]), 1e-9);
}

// References from iterators ------------------------------------------------------------

#[differentiate]
fn sum_of_refs(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for v in x {
        s += v;
    }
    let neg: f64 = x.iter().map(|v| -v).sum();
    let mut m = 0.0;
    for (i, v) in x.iter().enumerate() {
        m += v * i as f64;
    }
    s + neg + m
}

#[test]
fn references_to_active_values() {
    let x = [0.5, 1.5, -2.0];
    let (v, g) = sum_of_refs_grad(&x);
    assert_eq!(v, sum_of_refs(&x));
    assert_eq!(g, vec![0.0, 1.0, 2.0]);
}

// Data of other types passed by value ----------------------------------------------------

#[derive(Clone, Copy)]
enum Orbit {
    Circular,
    Elliptic(f64),
}

#[differentiate(wrt(a))]
fn period(a: f64, kind: Orbit, mu: f64) -> f64 {
    match kind {
        Orbit::Circular => 2.0 * std::f64::consts::PI * (a.powi(3) / mu).sqrt(),
        Orbit::Elliptic(e) => 2.0 * std::f64::consts::PI * (a.powi(3) / mu).sqrt() * (1.0 + e),
    }
}

#[test]
fn enum_parameters_are_data() {
    for kind in [Orbit::Circular, Orbit::Elliptic(0.1)] {
        let (v, g) = period_grad(2.0, kind, 3.0);
        assert_eq!(v, period(2.0, kind, 3.0));
        // d/da 2π √(a³/μ) (1 + e) = 3π a² (1 + e) / (μ √(a³/μ))
        let e = if let Orbit::Elliptic(e) = kind {
            e
        } else {
            0.0
        };
        let want = 3.0 * std::f64::consts::PI * 4.0 * (1.0 + e) / (3.0 * (8.0f64 / 3.0).sqrt());
        assert_close(&g, &[want], 1e-14);
    }
}

/// Without `wrt`: the body names `Orbit`'s variants, so `kind` is data; `a` and `mu` are
/// differentiated.
#[differentiate]
fn period_and_mass(a: f64, kind: Orbit, mu: f64) -> f64 {
    let e = match kind {
        Orbit::Circular => 0.0,
        Orbit::Elliptic(e) => e,
    };
    2.0 * std::f64::consts::PI * (a.powi(3) / mu).sqrt() * (1.0 + e)
}

#[test]
fn enum_parameters_are_data_without_wrt() {
    let kind = Orbit::Elliptic(0.1);
    let (v, g) = period_and_mass_grad(2.0, kind, 3.0);
    assert_eq!(v, period(2.0, kind, 3.0));
    let plain = |p: &[f64]| 2.0 * std::f64::consts::PI * (p[0].powi(3) / p[1]).sqrt() * 1.1;
    assert_close(&g, &fd_grad(plain, &[2.0, 3.0]), 1e-9);
}

// f64's methods on active values --------------------------------------------------------

#[differentiate(wrt(theta, lo))]
fn pendulum_energy(theta: &[f64], lo: f64, limit: f64) -> f64 {
    let mut e = 0.0;
    for &t in theta {
        let wrapped =
            (t.to_radians() + std::f64::consts::PI).rem_euclid(2.0 * std::f64::consts::PI);
        let (s, c) = wrapped.sin_cos();
        let clipped = (s * 3.0).clamp(lo, limit);
        let sign = 1.0_f64.copysign(c);
        let turn = (t % 90.0).to_degrees() / 100.0;
        if c.is_nan() || !clipped.is_finite() {
            return f64::NAN;
        }
        e += clipped * sign + turn * c.signum() + s.mul_add(c, 0.5);
    }
    e
}

#[test]
fn f64_methods_on_active_values() {
    let theta = [30.0, 200.0, -75.0];
    let (v, (dtheta, dlo)) = pendulum_energy_grad(&theta, -1.0, 2.5);
    assert_eq!(v, pendulum_energy(&theta, -1.0, 2.5));
    let fd = fd_grad(
        |p| pendulum_energy(&p[..3], p[3], 2.5),
        &[30.0, 200.0, -75.0, -1.0],
    );
    assert_close(&dtheta, &fd[..3], 1e-7);
    assert_close(&[dlo], &fd[3..], 1e-7);
}

#[differentiate]
fn ranked_weights(x: &[f64]) -> f64 {
    let mut v: Vec<f64> = x.to_vec();
    v.sort_by(|a, b| b.total_cmp(a));
    v.iter()
        .enumerate()
        .map(|(i, w)| w / (i as f64 + 1.0))
        .sum()
}

#[test]
fn sorting_active_values_by_total_cmp() {
    let x = [0.3, 2.0, -1.0, 0.7];
    let (v, g) = ranked_weights_grad(&x);
    assert_eq!(v, ranked_weights(&x));
    // ranks: 2.0 first, 0.7, 0.3, -1.0
    assert_close(&g, &[1.0 / 3.0, 1.0, 1.0 / 4.0, 1.0 / 2.0], 1e-15);
}

// Results of calls on data, passed next to active arguments (found by the fuzzer) ------

#[differentiate]
fn scaled_first(t: &[f64], k: f64) -> f64 {
    t[0] * k
}

#[differentiate]
fn double(k: f64) -> f64 {
    k * 2.0
}

#[differentiate]
fn times_count(t: &[f64], n: usize) -> f64 {
    t[0] * n as f64
}

#[differentiate(wrt(theta))]
fn data_call_results(theta: [f64; 2], a: f64, v: &[f64]) -> f64 {
    let pick = match v.len() {
        0 => scaled_first(&theta, double(a)),
        1 => 10.0,
        _ => a * a,
    };
    pick + scaled_first(&theta, double(a)) + times_count(&theta, v.len())
}

#[test]
fn data_results_of_calls_take_the_parameter_type() {
    let (v, g) = data_call_results_grad([1.0, 2.0], 3.0, &[1.0]);
    assert_eq!(v, data_call_results([1.0, 2.0], 3.0, &[1.0]));
    assert_eq!(g, [7.0, 0.0]);
}

/// `0^y` at `y = 0` where `y` is constant near the point: the derivative is finite (the
/// one-sided 0 in `y`, not `ln 0 · 0 = NaN`).
#[differentiate]
fn zero_to_a_constant_power(x: f64) -> f64 {
    let (a, b) = (x, x);
    let flat = f64::atan2(0.0, 2.0 / (1.0 + x * x)).tanh();
    x + 0.1 * ((a - b) * (a - b)).ln_1p().powf(flat)
}

#[test]
fn no_nan_from_a_jump_the_value_does_not_see() {
    let (v, g) = zero_to_a_constant_power_grad(0.127);
    assert_eq!(v, 0.127 + 0.1);
    assert_eq!(g, [1.0]);
    assert_eq!(__zero_to_a_constant_power_grad_tape(0.127).1, [1.0]);
}

/// Found by the fuzzer: `filter` hands closures `&&S`; `f64::sin_cos` on an active value.
#[differentiate]
fn filtered(theta: &[f64], x: f64) -> f64 {
    let s: f64 = theta.iter().filter(|f| f.abs() < 1.0).map(|v| v * x).sum();
    let (a, b) = f64::sin_cos(x);
    s + a * b
}

#[test]
fn double_references_and_sin_cos_paths() {
    let theta = [0.5, 2.0, -0.25];
    let (v, g) = filtered_grad(&theta, 0.3);
    assert_eq!(v, filtered(&theta, 0.3));
    let plain = |p: &[f64]| {
        let s: f64 = p[..3]
            .iter()
            .filter(|f| f.abs() < 1.0)
            .map(|v| v * p[3])
            .sum();
        s + p[3].sin() * p[3].cos()
    };
    let fd = fd_grad(plain, &[0.5, 2.0, -0.25, 0.3]);
    assert_close(&g.0, &fd[..3], 1e-9);
    assert_close(&[g.1], &fd[3..], 1e-9);
}
