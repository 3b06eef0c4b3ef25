//! `#[deriv_rule]` as users write it with scalars: partials that read an imported
//! constant (`PI` after `use std::f64::consts::PI`) are evaluated on the scalar itself
//! (so Hessians through them are exact), and the `adjoint = ..` form on a scalar function.

use fazang::prelude::*;
use std::f64::consts::PI;

/// The standard normal density, with its derivative written as a rule.
#[deriv_rule(x => -x * (-0.5 * x * x).exp() / (2.0 * PI).sqrt())]
fn std_normal_pdf(x: f64) -> f64 {
    (-0.5 * x * x).exp() / (2.0 * PI).sqrt()
}

/// x φ(x): f' = φ (1 - x²), f'' = φ (x³ - 3x).
#[differentiate]
fn x_phi(x: f64) -> f64 {
    std_normal_pdf(x) * x
}

fn phi(x: f64) -> f64 {
    (-0.5 * x * x).exp() / (2.0 * PI).sqrt()
}

#[test]
fn a_rule_with_an_imported_constant_gives_hessians() {
    for x in [-1.3, 0.0, 0.7, 2.1] {
        let (v, g, h) = x_phi_hessian(x);
        assert_eq!(v, x * phi(x));
        assert!(
            (g[0] - phi(x) * (1.0 - x * x)).abs() < 1e-15,
            "gradient at {x}"
        );
        let want = phi(x) * (x * x * x - 3.0 * x);
        assert!(
            (h[0][0] - want).abs() < 1e-14,
            "hessian at {x}: {} vs {want}",
            h[0][0]
        );
        let (_, d) = x_phi_jvp(x, &[1.0]);
        assert!((d - g[0]).abs() < 1e-15);
    }
}

/// A constant of the user's own, by name.
const SCALE: f64 = 2.5;

#[deriv_rule(x => SCALE * x.cos())]
fn scaled_sin(x: f64) -> f64 {
    SCALE * x.sin()
}

#[differentiate]
fn uses_scaled_sin(x: f64, y: f64) -> f64 {
    scaled_sin(x * y)
}

#[test]
fn a_rule_with_a_const_of_the_crate_gives_hessians() {
    let (x, y) = (0.4, 1.7);
    let (_, _, h) = uses_scaled_sin_hessian(x, y);
    let t = x * y;
    // f = 2.5 sin(xy): f_xx = -2.5 y² sin, f_xy = 2.5 (cos - xy sin), f_yy = -2.5 x² sin.
    let want = [
        [-SCALE * y * y * t.sin(), SCALE * (t.cos() - t * t.sin())],
        [SCALE * (t.cos() - t * t.sin()), -SCALE * x * x * t.sin()],
    ];
    for i in 0..2 {
        for j in 0..2 {
            assert!((h[i][j] - want[i][j]).abs() < 1e-14, "h[{i}][{j}]");
        }
    }
}

/// A scalar function with the vector-Jacobian product form: `g(x, out, ds)` returns
/// `ds · d out / dx`.
#[deriv_rule(adjoint = exp_adjoint)]
fn my_exp(x: f64) -> f64 {
    x.exp()
}

fn exp_adjoint(_x: f64, out: f64, ds: f64) -> f64 {
    ds * out
}

#[differentiate]
fn exp_sum(a: f64, b: f64) -> f64 {
    my_exp(a * b) + my_exp(a)
}

#[test]
fn the_adjoint_form_on_a_scalar_function() {
    let (a, b) = (0.3, -1.2);
    let (v, g) = exp_sum_grad(a, b);
    assert_eq!(v, (a * b).exp() + a.exp());
    let want = [b * (a * b).exp() + a.exp(), a * (a * b).exp()];
    for i in 0..2 {
        assert!(
            (g[i] - want[i]).abs() < 1e-15,
            "g[{i}]: {} vs {}",
            g[i],
            want[i]
        );
    }
    let (_, gt) = gradient(|x| my_exp(x[0]) * x[1], &[0.5, 2.0]);
    assert_eq!(gt, vec![2.0 * 0.5_f64.exp(), 0.5_f64.exp()]);
}

#[test]
#[should_panic(expected = "first-order only")]
fn the_adjoint_form_is_first_order() {
    let _ = exp_sum_hessian(0.3, -1.2);
}
