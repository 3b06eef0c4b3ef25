//! Operators of `Var` in every owned/borrowed/`f64` combination, compound assignment,
//! comparisons, `Sum`/`Product`, `Default`, `From<f64>` and formatting.
#![allow(clippy::op_ref)]

mod runtime_support;

use fazang::prelude::*;
use runtime_support::{tape_d1, tape_d2};

/// Check `a op b` for every combination of `Var`, `&Var`, `f64` and `&f64` operands,
/// and `op=` with each right-hand side, against the value of `a0 op b0` on `f64` and
/// the closed-form partials `da`, `db`.
macro_rules! check_op {
    ($op:tt, $op_assign:tt, $a0:expr, $b0:expr, $da:expr, $db:expr) => {{
        let (a0, b0): (f64, f64) = ($a0, $b0);
        let (da, db): (f64, f64) = ($da, $db);
        let want = a0 $op b0;
        let what = format!("{} {} {}", a0, stringify!($op), b0);
        let both = (want, da, db);
        assert_eq!(tape_d2(|a, b| a $op b, a0, b0), both, "Var op Var: {what}");
        assert_eq!(tape_d2(|a, b| &a $op &b, a0, b0), both, "&Var op &Var: {what}");
        assert_eq!(tape_d2(|a, b| &a $op b, a0, b0), both, "&Var op Var: {what}");
        assert_eq!(tape_d2(|a, b| a $op &b, a0, b0), both, "Var op &Var: {what}");
        let left = (want, da);
        assert_eq!(tape_d1(|a| a $op b0, a0), left, "Var op f64: {what}");
        assert_eq!(tape_d1(|a| &a $op b0, a0), left, "&Var op f64: {what}");
        assert_eq!(tape_d1(|a| a $op &b0, a0), left, "Var op &f64: {what}");
        assert_eq!(tape_d1(|a| &a $op &b0, a0), left, "&Var op &f64: {what}");
        let right = (want, db);
        assert_eq!(tape_d1(|b| a0 $op b, b0), right, "f64 op Var: {what}");
        assert_eq!(tape_d1(|b| a0 $op &b, b0), right, "f64 op &Var: {what}");
        assert_eq!(tape_d1(|b| &a0 $op b, b0), right, "&f64 op Var: {what}");
        assert_eq!(tape_d1(|b| &a0 $op &b, b0), right, "&f64 op &Var: {what}");
        // Compound assignment with each right-hand side.
        let assign_vv = |a: Var, b: Var| {
            let mut y = a;
            y $op_assign b;
            y
        };
        assert_eq!(tape_d2(assign_vv, a0, b0), both, "Var op= Var: {what}");
        let assign_vr = |a: Var, b: Var| {
            let mut y = a;
            y $op_assign &b;
            y
        };
        assert_eq!(tape_d2(assign_vr, a0, b0), both, "Var op= &Var: {what}");
        let assign_vf = |a: Var| {
            let mut y = a;
            y $op_assign b0;
            y
        };
        assert_eq!(tape_d1(assign_vf, a0), left, "Var op= f64: {what}");
        let assign_vfr = |a: Var| {
            let mut y = a;
            y $op_assign &b0;
            y
        };
        assert_eq!(tape_d1(assign_vfr, a0), left, "Var op= &f64: {what}");
    }};
}

#[test]
fn addition_in_every_combination() {
    check_op!(+, +=, 1.25, -3.5, 1.0, 1.0);
    check_op!(+, +=, 0.0, 0.0, 1.0, 1.0);
}

#[test]
fn subtraction_in_every_combination() {
    check_op!(-, -=, 1.25, -3.5, 1.0, -1.0);
    check_op!(-, -=, 2.0, 2.0, 1.0, -1.0);
}

#[test]
fn multiplication_in_every_combination() {
    check_op!(*, *=, 1.25, -3.5, -3.5, 1.25);
    check_op!(*, *=, 0.0, 7.0, 7.0, 0.0);
}

#[test]
fn division_in_every_combination() {
    // d(a/b)/da = 1/b, d(a/b)/db = -a/b²; all exact in binary for these numbers.
    check_op!(/, /=, 3.0, -2.0, -0.5, -0.75);
    check_op!(/, /=, 1.0, 4.0, 0.25, -0.0625);
    check_op!(/, /=, 0.0, 4.0, 0.25, -0.0);
}

#[test]
fn negation_of_var_and_reference() {
    assert_eq!(tape_d1(|x| -x, 2.5), (-2.5, -1.0));
    assert_eq!(tape_d1(|x| -&x, 2.5), (-2.5, -1.0));
    assert_eq!(tape_d1(|x| -(-x), 2.5), (2.5, 1.0));
    assert!((-Var::from(1.0)).is_constant());
}

#[test]
fn same_variable_on_both_sides() {
    assert_eq!(tape_d1(|x| x * x, 3.0), (9.0, 6.0));
    assert_eq!(tape_d1(|x| x - x, 3.0), (0.0, 0.0));
    assert_eq!(tape_d1(|x| x / x, 3.0), (1.0, 0.0));
    let (_, d) = tape_d1(
        |x| {
            let mut y = x;
            y *= x;
            y += x;
            y
        },
        3.0,
    );
    assert_eq!(d, 7.0, "d/dx (x² + x) at 3");
}

#[test]
fn comparisons_compare_values() {
    let pairs = [
        (1.0, 2.0),
        (2.0, 2.0),
        (3.0, 2.0),
        (-0.0, 0.0),
        (f64::NAN, 1.0),
    ];
    for (a, b) in pairs {
        let (va, vb) = (Var::new(a), Var::new(b));
        let expect = [a < b, a <= b, a > b, a >= b, a == b, a != b];
        assert_eq!(
            [va < vb, va <= vb, va > vb, va >= vb, va == vb, va != vb],
            expect,
            "Var/Var {a} {b}"
        );
        assert_eq!(
            [va < b, va <= b, va > b, va >= b, va == b, va != b],
            expect,
            "Var/f64 {a} {b}"
        );
        assert_eq!(
            [a < vb, a <= vb, a > vb, a >= vb, a == vb, a != vb],
            expect,
            "f64/Var {a} {b}"
        );
        assert_eq!(va.partial_cmp(&vb), a.partial_cmp(&b));
    }
}

#[test]
fn f64_on_the_left_of_a_comparison() {
    let x = Var::new(3.0);
    assert!(2.0 < x);
    assert_eq!([2.0 < x, 4.0 < x, 3.0 < x], [true, false, false]);
    assert_eq!(
        (3.0 <= x, 3.0 >= x, 3.0 == x, 3.0 < x),
        (true, true, true, false)
    );
    assert!(4.0 > x);
    // A constant compares the same way.
    assert!(2.0 < Var::from(3.0));
}

#[test]
fn sum_of_owned_and_borrowed_iterators() {
    let before = tape_stats();
    let xs = [Var::new(1.0), Var::new(2.0), Var::from(10.0), Var::new(4.0)];
    let s: Var = xs.iter().sum();
    let t: Var = xs.iter().map(|&x| x * 2.0).sum();
    assert_eq!((s.val(), t.val()), (17.0, 34.0));
    (s + t).grad();
    assert_eq!(xs.map(|x| x.adj()), [3.0, 3.0, 0.0, 3.0]);
    // `iter().sum()` records one node for the sum, whatever the length: 3 variables,
    // the sum s, 3 products (the constant records none), the sum t, and s + t.
    let after = tape_stats();
    assert_eq!(after.nodes - before.nodes, 3 + 1 + 3 + 1 + 1);
    let empty: Var = std::iter::empty::<Var>().sum();
    assert_eq!(empty.val(), 0.0);
    assert!(empty.is_constant());
}

#[test]
fn product_of_owned_and_borrowed_iterators() {
    let xs = [Var::new(2.0), Var::new(-3.0), Var::new(5.0)];
    let p: Var = xs.iter().product();
    let q: Var = xs.iter().copied().product();
    assert_eq!((p.val(), q.val()), (-30.0, -30.0));
    p.grad();
    assert_eq!(xs.map(|x| x.adj()), [-15.0, 10.0, -6.0]);
    let empty: Var = std::iter::empty::<Var>().product();
    assert_eq!(empty.val(), 1.0);
}

#[test]
fn product_with_a_zero_factor_has_exact_partials() {
    // d/dx_i Π x = Π_{j≠i} x_j: only the zero factor gets a nonzero partial.
    let xs = [Var::new(2.0), Var::new(0.0), Var::new(3.0)];
    let p: Var = xs.iter().product();
    p.grad();
    assert_eq!(p.val(), 0.0);
    assert_eq!(xs.map(|x| x.adj()), [0.0, 6.0, 0.0]);
}

#[test]
fn default_and_from_record_nothing() {
    let before = tape_stats();
    let d = Var::default();
    let a = Var::from(2.5);
    let b: Var = 1.5.into();
    let c = Var::from(&4.0);
    let e = Var::from(0.5_f32);
    let f = Var::from(3_i32);
    assert_eq!(tape_stats(), before, "constants must not touch the tape");
    assert_eq!(
        [d, a, b, c, e, f].map(|v| v.val()),
        [0.0, 2.5, 1.5, 4.0, 0.5, 3.0]
    );
    assert!([d, a, b, c, e, f].iter().all(Var::is_constant));
    assert_eq!(a.adj(), 0.0);
    // Arithmetic between constants records nothing either.
    let g = a * b + c.sin();
    assert_eq!(tape_stats(), before);
    assert_eq!(g.val(), 2.5 * 1.5 + 4.0_f64.sin());
    // Var::new records exactly one node.
    let _x = Var::new(1.0);
    assert_eq!(tape_stats().nodes, before.nodes + 1);
}

#[test]
fn formatting_is_exactly_that_of_f64() {
    let values = [
        1.0,
        0.1,
        -2.5,
        1e-7,
        1e21,
        1234.5678,
        -0.0,
        f64::NAN,
        f64::INFINITY,
        1.0 / 3.0,
    ];
    for v in values {
        let x = Var::new(v);
        assert_eq!(format!("{x}"), format!("{v}"));
        assert_eq!(format!("{x:.3}"), format!("{v:.3}"));
        assert_eq!(format!("{x:e}"), format!("{v:e}"));
        assert_eq!(format!("{x:.2e}"), format!("{v:.2e}"));
        assert_eq!(format!("{x:E}"), format!("{v:E}"));
        assert_eq!(format!("{x:?}"), format!("{v:?}"));
        assert_eq!(format!("{x:>12.4}|{x:<+9}"), format!("{v:>12.4}|{v:<+9}"));
    }
    assert_eq!(format!("{:.3}", Var::new(std::f64::consts::PI)), "3.142");
    assert_eq!(format!("{:e}", Var::new(1500.0)), "1.5e3");
    assert_eq!(format!("{}", Var::new(0.1 + 0.2)), "0.30000000000000004");
}
