//! `#[deriv_rule]` on scalar functions: ReverseDiffSource's `foo`, several arguments,
//! proof that the rule (not the body) is what the tape records, generic callers.

use fazang::prelude::*;
use fazang::{check_deriv_rule, tape_stats};

const TOL: f64 = 1e-12;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= TOL * b.abs().max(1.0)
}

/// ReverseDiffSource's example: `foo(x) = log(1 + sin(x))`.
#[deriv_rule(x => x.cos() / (1.0 + x.sin()))]
fn foo(x: f64) -> f64 {
    (1.0 + x.sin()).ln()
}

#[test]
fn foo_is_callable_with_f64() {
    let x: f64 = 0.7;
    assert_eq!(foo(x), (1.0 + x.sin()).ln());
}

#[test]
fn two_to_the_foo_has_the_closed_form_derivative() {
    // d/dx 2^foo(x) = 2^foo(x) ln 2 cos(x) / (1 + sin(x))
    for &x0 in &[-0.5, 0.3, 1.2, 2.0] {
        let (v, g) = gradient(|x| Var::from(2.0).powf(foo(x[0])), &[x0]);
        let f = 2.0_f64.powf((1.0 + x0.sin()).ln());
        assert!(close(v, f));
        assert!(close(
            g[0],
            f * std::f64::consts::LN_2 * x0.cos() / (1.0 + x0.sin())
        ));
    }
}

// ... a function whose rule is deliberately not its derivative.
#[deriv_rule(x => 42.0)]
fn sin_with_wrong_rule(x: f64) -> f64 {
    x.sin()
}

#[test]
fn the_tape_records_the_rule_not_the_body() {
    let x = Var::new(0.4);
    let before = tape_stats();
    let y = sin_with_wrong_rule(x);
    let after = tape_stats();
    assert_eq!(after.nodes - before.nodes, 1, "exactly one node per call");
    assert_eq!(after.operands - before.operands, 1, "one operand: x");
    assert_eq!(y.val(), 0.4_f64.sin());
    y.grad();
    assert_eq!(x.adj(), 42.0);
    clear_tape();
}

#[deriv_rule(a => b, b => a)]
fn mul2(a: f64, b: f64) -> f64 {
    a * b
}

/// f(x, y, z) = x y² e^z, three partials.
#[deriv_rule(x => y * y * z.exp(), y => 2.0 * x * y * z.exp(), z => x * y * y * z.exp())]
fn three(x: f64, y: f64, z: f64) -> f64 {
    x * y * y * z.exp()
}

#[test]
fn several_arguments() {
    let (v, g) = gradient(|x| mul2(x[0], x[1]), &[3.0, 4.0]);
    assert_eq!((v, g), (12.0, vec![4.0, 3.0]));

    let (x, y, z) = (1.5, -0.5, 0.25);
    let (v, g) = gradient(|p| three(p[0], p[1], p[2]), &[x, y, z]);
    let e = z.exp();
    assert!(close(v, x * y * y * e));
    assert!(close(g[0], y * y * e));
    assert!(close(g[1], 2.0 * x * y * e));
    assert!(close(g[2], x * y * y * e));
}

#[test]
fn several_arguments_record_one_node_with_constants_skipped() {
    let a = Var::new(2.0);
    let before = tape_stats();
    let c = mul2(a, Var::from(5.0));
    let after = tape_stats();
    assert_eq!(after.nodes - before.nodes, 1);
    assert_eq!(after.operands - before.operands, 1);
    c.grad();
    assert_eq!(a.adj(), 5.0);
    clear_tape();
}

/// Data parameters pass through unchanged; `mut` parameters work in the body.
#[deriv_rule(x => k as f64 * x.powi(k as i32 - 1))]
fn power(mut x: f64, k: usize) -> f64 {
    let mut acc = 1.0;
    for _ in 0..k {
        acc *= x;
    }
    x = acc;
    x
}

#[test]
fn data_parameters_and_mut() {
    assert_eq!(power(2.0, 3), 8.0);
    let (_, g) = gradient(|x| power(x[0], 3), &[2.0]);
    assert_eq!(g, vec![12.0]);
}

/// Early `return` in the body returns the value, as in the original function.
#[deriv_rule(x => if x < 0.0 { 0.0 } else { 1.0 })]
fn relu(x: f64) -> f64 {
    if x < 0.0 {
        return 0.0;
    }
    x
}

#[test]
fn early_return_in_body() {
    assert_eq!(relu(-1.0), 0.0);
    assert_eq!(relu(2.0), 2.0);
    assert_eq!(gradient(|x| relu(x[0]), &[2.0]).1, vec![1.0]);
}

fn h<S: Real>(x: S) -> S
where
    f64: std::ops::Mul<S, Output = S>,
{
    foo(x) * 2.0 + 1.0 * mul2(x, x)
}

#[test]
fn generic_callers_work_with_f64_and_var() {
    let x0: f64 = 0.9;
    let v: f64 = h(x0);
    assert!(close(v, 2.0 * foo(x0) + x0 * x0));
    let (vv, g) = gradient(|x| h(x[0]), &[x0]);
    assert_eq!(vv, v);
    assert!(close(g[0], 2.0 * x0.cos() / (1.0 + x0.sin()) + 2.0 * x0));
}

#[test]
fn constants_record_nothing() {
    let before = tape_stats();
    let y = foo(Var::from(0.5));
    assert!(y.is_constant());
    assert_eq!(tape_stats().nodes, before.nodes);
}

#[test]
fn rules_agree_with_finite_differences() {
    let pts = [[0.3], [1.2], [-0.5]];
    check_deriv_rule(|x| foo(x[0]), |x| foo(x[0]), &pts).assert_ok(1e-8);
    check_deriv_rule(
        |x| three(x[0], x[1], x[2]),
        |x| three(x[0], x[1], x[2]),
        &[[1.5, -0.5, 0.25], [0.1, 2.0, -1.0]],
    )
    .assert_ok(1e-8);
}

/// Associated functions (no `self`) may carry rules; `Self` works in body and rule.
struct Model;

impl Model {
    const K: f64 = 2.5;

    #[deriv_rule(x => Self::K * 2.0 * x)]
    fn energy(x: f64) -> f64 {
        Self::K * x * x
    }
}

mod visibility {
    use fazang::prelude::*;

    /// Documented, public, inlined: attributes are kept.
    #[inline]
    #[deriv_rule(r#in => 3.0)]
    pub fn triple(r#in: f64) -> f64 {
        3.0 * r#in
    }
}

#[test]
fn associated_fns_visibility_and_raw_identifiers() {
    assert_eq!(Model::energy(2.0), 10.0);
    assert_eq!(gradient(|x| Model::energy(x[0]), &[2.0]).1, vec![10.0]);
    assert_eq!(visibility::triple(2.0), 6.0);
    assert_eq!(gradient(|x| visibility::triple(x[0]), &[2.0]).1, vec![3.0]);
    // The f64 version coerces to a plain fn pointer, as before.
    let p: fn(f64) -> f64 = foo;
    assert_eq!(p(0.0), 0.0);
}
