//! Regression: a value scaled by a constant or a data value (`0.5 * v`, `k * v`, `v / 2.0`)
//! that is an operand of a product or a quotient must be read in reverse as it was in the
//! forward sweep, even when a later statement overwrites the variable (issue 18: the
//! reverse sweep once recomputed `0.5 * vy * vx` from the updated `vx` and `vy`).
//! Each gradient is checked against a closed form or finite differences and the tape.

mod body_support;
use body_support::{assert_close, fd_grad};
use fazang::prelude::*;

#[differentiate]
fn drift(s: f64) -> f64 {
    let mut vx = s;
    let mut vy = s;
    let ax = 0.5 * vy * vx;
    vx += ax;
    vy += vx;
    vx + vy
}

#[test]
fn scaled_operand_then_overwritten() {
    // f(s) = 3s + s^2, f'(s) = 3 + 2s.
    let s = 0.3;
    let (v, g) = drift_grad(s);
    assert_eq!(v, drift(s));
    assert!((g[0] - (3.0 + 2.0 * s)).abs() < 1e-14, "{g:?}");
    let (_, gt) = __drift_grad_tape(s);
    assert_close(&g, &gt, 1e-14);
}

#[differentiate]
fn damped(a: f64, b: f64) -> f64 {
    let mut v = a;
    v += 0.1 * v * b;
    v
}

#[test]
fn compound_reads_its_own_target() {
    // v = a + 0.1 a b: d/da = 1 + 0.1 b, d/db = 0.1 a.
    let (a, b) = (0.7, -0.4);
    let (_, g) = damped_grad(a, b);
    assert_close(&g, &[1.0 + 0.1 * b, 0.1 * a], 1e-15);
}

#[differentiate]
fn drag_integrator(v0: f64, k: f64, dt: f64) -> f64 {
    let mut x = 0.0;
    let mut v = v0;
    for _ in 0..20 {
        let drag = k * v * v.abs();
        let half = 0.5 * v * dt;
        x += half * (2.0 - k * dt);
        v -= drag * dt;
        v = 0.9 + 0.1 * v * v / (1.0 + v * v);
    }
    x + v
}

#[test]
fn integrator_loop_with_scaled_operands() {
    let p = [1.3, 0.2, 0.05];
    let f = |q: &[f64]| drag_integrator(q[0], q[1], q[2]);
    let (v, g) = drag_integrator_grad(p[0], p[1], p[2]);
    assert_eq!(v, f(&p));
    assert_close(&g, &fd_grad(f, &p), 1e-8);
    let (_, gt) = __drag_integrator_grad_tape(p[0], p[1], p[2]);
    assert_close(&g, &gt, 1e-13);
}

#[differentiate]
fn swap_through_temp(a: f64, b: f64, n: usize) -> f64 {
    let mut u = a;
    let mut w = b;
    for _ in 0..n {
        let t = u;
        u = n as f64 * w / 3.0 * u;
        w = t;
    }
    let mut xs = [a, b, 0.0];
    let y = 2.0 * xs[0] * xs[1];
    xs[0] = y;
    xs[1] += xs[0];
    u + w + xs[1] * y
}

#[test]
fn element_writes_and_swaps() {
    let p = [0.8, -1.1];
    let f = |q: &[f64]| swap_through_temp(q[0], q[1], 3);
    let (v, g) = swap_through_temp_grad(p[0], p[1], 3);
    assert_eq!(v, f(&p));
    assert_close(&g, &fd_grad(f, &p), 1e-8);
}

// A data local multiplying or dividing an active value, overwritten afterwards: the reverse
// sweep must read the value it had (found by fazang-fuzz's `integrate` family, seed 424242,
// as `x *= time` with the clock of a `while` loop).
#[differentiate]
fn scaled_by_data_then_changed(x: f64) -> f64 {
    let mut k = 2.0;
    let mut y = x;
    y *= k;
    k += 1.0;
    y + k
}

#[differentiate]
fn scaled_in_a_loop(x: f64) -> f64 {
    let mut y = x;
    let mut k = 1.0;
    for _ in 0..2 {
        y *= k;
        k += 1.0;
    }
    let mut q = [2.0, 1.0];
    y /= q[0];
    q[0] = 7.0;
    y * q[1] + q[0]
}

#[test]
fn data_factors_read_as_they_were() {
    assert_eq!(scaled_by_data_then_changed_grad(0.7).1, [2.0]);
    // y = x * 1 * 2 / 2: dy/dx = 1.
    let (_, g) = scaled_in_a_loop_grad(0.7);
    assert!((g[0] - 1.0).abs() < 1e-15, "{g:?}");
}

// `std::mem::swap` between an active and a data local makes both active (issue 20: it was
// E0308 "expected `&mut S`, found `&mut {float}`"); a tuple swap likewise.
#[differentiate]
fn swapped(a: f64) -> f64 {
    let mut u = a;
    let mut w = 1.5;
    std::mem::swap(&mut u, &mut w);
    let (mut p, mut c) = (1.0, a);
    (p, c) = (c, p * c);
    u * w + p * c
}

#[test]
fn swaps_make_data_active() {
    // u = 1.5, w = a, p = a, c = a: f = 1.5 a + a², f' = 1.5 + 2a.
    let a = 0.8;
    let (v, g) = swapped_grad(a);
    assert_eq!(v, swapped(a));
    assert!((g[0] - (1.5 + 2.0 * a)).abs() < 1e-15, "{g:?}");
    assert_close(&g, &__swapped_grad_tape(a).1, 1e-15);
}

// A data factor updated by an inner loop (found by the fuzzer, seed 3): the inner loop
// touched no active value, so it was printed as one data statement whose write to `rate`
// the analyses did not see; the reverse sweep read the last `rate` for every iteration.
#[differentiate]
fn cooled(x: f64, steps: usize) -> f64 {
    let mut energy = x * x;
    let mut rate = 0.5;
    for _ in 0..steps {
        energy *= rate;
        for _ in 0..2 {
            rate = 0.5 * rate + 0.1;
        }
    }
    let mut history = Vec::new();
    let mut level = 1.0;
    for _ in 0..steps {
        energy += level * x;
        history.push(level);
        level = history.iter().sum::<f64>() * 0.5;
    }
    energy
}

#[test]
fn data_written_inside_a_data_loop_is_read_as_it_was() {
    let _adjoint_code = __cooled_adjoint;
    for steps in 0..5 {
        let x = 0.7;
        // Closed form: energy = x² Π rates + x Σ levels.
        let (mut prod, mut rate) = (1.0, 0.5);
        for _ in 0..steps {
            prod *= rate;
            rate = 0.5 * (0.5 * rate + 0.1) + 0.1;
        }
        let (mut sum, mut level, mut hist) = (0.0, 1.0, 0.0);
        for _ in 0..steps {
            sum += level;
            hist += level;
            level = hist * 0.5;
        }
        let (v, g) = cooled_grad(x, steps);
        assert_eq!(v, cooled(x, steps));
        assert!(
            (g[0] - (2.0 * x * prod + sum)).abs() < 1e-14,
            "steps {steps}: {g:?}"
        );
        assert_close(&g, &__cooled_grad_tape(x, steps).1, 1e-15);
    }
}
