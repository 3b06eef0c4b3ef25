//! `#[deriv_rule]` functions and structs used from `#[differentiate]` bodies.

use fazang::prelude::*;

#[deriv_rule(x => x.cos() / (1.0 + x.sin()))]
fn foo(x: f64) -> f64 {
    (1.0 + x.sin()).ln()
}

/// ReverseDiffSource's `2^foo(x)`.
#[differentiate]
fn two_to_the_foo(x: f64) -> f64 {
    (foo(x) * std::f64::consts::LN_2).exp()
}

#[test]
fn a_rule_inside_a_differentiated_body() {
    for &x in &[-0.5, 0.3, 1.2] {
        let (v, g) = two_to_the_foo_grad(x);
        let f = 2.0_f64.powf((1.0 + x.sin()).ln());
        assert!((v - f).abs() < 1e-14);
        assert_eq!(v, two_to_the_foo(x));
        let d = f * std::f64::consts::LN_2 * x.cos() / (1.0 + x.sin());
        assert!((g[0] - d).abs() < 1e-14, "{} vs {d}", g[0]);
    }
}

#[deriv_rule(x => 42.0)]
fn sin_with_wrong_rule(x: f64) -> f64 {
    x.sin()
}

#[differentiate]
fn uses_wrong_rule(x: f64) -> f64 {
    3.0 * sin_with_wrong_rule(x)
}

#[test]
fn the_differentiated_body_uses_the_rule() {
    assert_eq!(uses_wrong_rule_grad(0.2).1, [126.0]);
}

/// ReverseDiffSource's composite type and `norm`.
#[deriv_rule]
#[derive(Debug, Clone, PartialEq)]
struct Bar {
    x: f64,
    y: f64,
}

#[deriv_rule(z => Bar { x: 2.0 * z.x, y: 2.0 * z.y })]
fn norm(z: Bar) -> f64 {
    z.x * z.x + z.y * z.y
}

/// `z = Bar(2^a, sin(a)); norm(z)`, built inside the body.
#[differentiate]
fn bar_of(a: f64) -> f64 {
    let z = Bar {
        x: (a * std::f64::consts::LN_2).exp(),
        y: a.sin(),
    };
    norm(z)
}

#[test]
fn structs_built_in_a_differentiated_body() {
    let a: f64 = 0.4;
    let (v, g) = bar_of_grad(a);
    let two_a = 2.0_f64.powf(a);
    assert!((v - (two_a * two_a + a.sin().powi(2))).abs() < 1e-14);
    let d = 2.0 * two_a * two_a * std::f64::consts::LN_2 + 2.0 * a.sin() * a.cos();
    assert!((g[0] - d).abs() < 1e-13);
}

/// A struct parameter of a differentiated function: its gradient is a `Bar`.
#[differentiate]
fn scaled_norm(z: Bar, k: f64) -> f64 {
    k * norm(z)
}

#[test]
fn struct_parameters_get_struct_gradients() {
    let (v, (gz, gk)) = scaled_norm_grad(Bar { x: 1.0, y: 2.0 }, 3.0);
    assert_eq!(v, 15.0);
    assert_eq!(gz, Bar { x: 6.0, y: 12.0 });
    assert_eq!(gk, 5.0);
}

#[deriv_rule(adjoint = softmax_adjoint)]
fn softmax(x: &[f64]) -> Vec<f64> {
    let z: f64 = x.iter().map(|v| v.exp()).sum();
    x.iter().map(|v| v.exp() / z).collect()
}

fn softmax_adjoint(_x: &[f64], s: &[f64], ds: &[f64]) -> Vec<f64> {
    let dot: f64 = s.iter().zip(ds).map(|(a, b)| a * b).sum();
    s.iter().zip(ds).map(|(a, b)| a * (b - dot)).collect()
}

/// Σ wᵢ softmax(x)ᵢ with a vector-Jacobian rule inside.
#[differentiate]
fn expected_value(x: &[f64], w: &[f64]) -> f64 {
    let p = softmax(x);
    let mut acc = 0.0;
    for i in 0..p.len() {
        acc += w[i] * p[i];
    }
    acc
}

#[test]
fn an_adjoint_rule_inside_a_differentiated_body() {
    let (x, w) = ([0.1, 0.5, -0.3], [1.0, 2.0, 3.0]);
    let (v, (gx, gw)) = expected_value_grad(&x, &w);
    let s = softmax(&x);
    let e: f64 = s.iter().zip(&w).map(|(a, b)| a * b).sum();
    assert!((v - e).abs() < 1e-15);
    for i in 0..3 {
        assert!((gx[i] - s[i] * (w[i] - e)).abs() < 1e-15);
        assert!((gw[i] - s[i]).abs() < 1e-15);
    }
}

mod struct_literals {
    use fazang::prelude::*;

    #[deriv_rule]
    #[derive(Clone, Debug)]
    struct Pt {
        x: f64,
        y: f64,
    }

    /// A data struct with an f64 field: stays f64.
    struct Opts {
        scale: f64,
        n: usize,
    }

    #[differentiate]
    fn build(x: f64) -> f64 {
        let p = Pt { x: 1.5, y: x };
        let o = Opts { scale: 2.0, n: 3 };
        p.x * p.y * o.scale * o.n as f64
    }

    #[test]
    fn constant_fields_in_struct_literals() {
        assert_eq!(build(2.0), 18.0);
        assert_eq!(build_grad(2.0), (18.0, [9.0]));
    }
}
