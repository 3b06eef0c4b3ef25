//! Binary functions of `Real` (`atan2 powf hypot log min max mul_add`, and `powi`) with
//! every argument combination, against closed forms and finite differences; identity
//! shortcuts must not change gradients.

mod runtime_support;

use fazang::prelude::*;
use runtime_support::{assert_close, fd, tape_d1, tape_d2};

/// A binary function: `Var` version (second argument as a `Var`), `f64` version, and its
/// partials (d/da, d/db) in closed form.
struct Case {
    name: &'static str,
    var: fn(Var, Var) -> Var,
    var_f: fn(Var, f64) -> Var,
    f: fn(f64, f64) -> f64,
    d: fn(f64, f64) -> (f64, f64),
    points: &'static [(f64, f64)],
}

#[rustfmt::skip]
fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "atan2", var: |a, b| a.atan2(b), var_f: |a, b| a.atan2(b), f: f64::atan2,
            d: |y, x| (x / (x * x + y * y), -y / (x * x + y * y)),
            points: &[(1.0, 2.0), (-1.0, -2.0), (0.5, -3.0), (-2.0, 1e-3)],
        },
        Case {
            name: "powf", var: |a, b| a.powf(b), var_f: |a, b| a.powf(b), f: f64::powf,
            d: |x, y| (y * x.powf(y - 1.0), x.powf(y) * x.ln()),
            points: &[(2.0, 3.0), (0.5, 2.5), (3.0, -1.5), (1.7, 0.0)],
        },
        Case {
            name: "hypot", var: |a, b| a.hypot(b), var_f: |a, b| a.hypot(b), f: f64::hypot,
            d: |a, b| (a / (a * a + b * b).sqrt(), b / (a * a + b * b).sqrt()),
            points: &[(3.0, 4.0), (-3.0, 4.0), (1e-3, -2.0)],
        },
        Case {
            name: "log", var: |a, b| a.log(b), var_f: |a, b| a.log(b), f: f64::log,
            d: |x, b| (1.0 / (x * b.ln()), -x.ln() / (b * b.ln() * b.ln())),
            points: &[(8.0, 2.0), (5.0, 10.0), (0.3, 0.5)],
        },
    ]
}

#[test]
fn binary_functions_with_both_arguments_active() {
    for c in cases() {
        for &(a, b) in c.points {
            let (v, da, db) = tape_d2(c.var, a, b);
            let (wa, wb) = (c.d)(a, b);
            assert_eq!(v.to_bits(), (c.f)(a, b).to_bits(), "{}({a}, {b})", c.name);
            assert_close(da, wa, 1e-13, &format!("d{}/da at ({a}, {b})", c.name));
            assert_close(db, wb, 1e-13, &format!("d{}/db at ({a}, {b})", c.name));
            // Independent check of the closed form itself.
            assert_close(
                da,
                fd(|t| (c.f)(t, b), a),
                1e-7,
                &format!("{} fd a", c.name),
            );
            assert_close(
                db,
                fd(|t| (c.f)(a, t), b),
                1e-7,
                &format!("{} fd b", c.name),
            );
        }
    }
}

#[test]
fn binary_functions_with_one_argument_active() {
    for c in cases() {
        for &(a, b) in c.points {
            let (wa, wb) = (c.d)(a, b);
            // Var, f64 (through impl Into<Var>).
            let (v, da) = tape_d1(|x| (c.var_f)(x, b), a);
            assert_eq!(v.to_bits(), (c.f)(a, b).to_bits());
            assert_close(da, wa, 1e-13, &format!("{}(Var, f64) d/da", c.name));
            // A constant first argument, active second.
            let (v, db) = tape_d1(|y| (c.var)(Var::from(a), y), b);
            assert_eq!(v.to_bits(), (c.f)(a, b).to_bits());
            assert_close(db, wb, 1e-13, &format!("{}(f64, Var) d/db", c.name));
        }
    }
}

#[test]
fn binary_functions_of_constants_record_nothing() {
    let before = tape_stats();
    let (a, b) = (Var::from(2.0), Var::from(3.0));
    let ys = [
        a.atan2(b),
        a.powf(b),
        a.hypot(b),
        a.log(b),
        a.min(b),
        a.max(b),
        a.mul_add(b, a),
    ];
    assert_eq!(tape_stats(), before);
    assert!(ys.iter().all(Var::is_constant));
    assert_eq!(ys[1].val(), 8.0);
}

#[test]
fn atan2_and_hypot_at_the_origin_have_zero_derivatives() {
    assert_eq!(tape_d2(|y, x| y.atan2(x), 0.0, 0.0), (0.0, 0.0, 0.0));
    assert_eq!(tape_d2(|a, b| a.hypot(b), 0.0, 0.0), (0.0, 0.0, 0.0));
}

#[test]
fn powf_with_base_zero() {
    // d/dx x^y = y x^(y-1): at x = 0 that is 0 for y = 2 and 1 for y = 1;
    // d/dy x^y = x^y ln x, taken as 0 where x^y = 0.
    assert_eq!(tape_d2(|x, y| x.powf(y), 0.0, 2.0), (0.0, 0.0, 0.0));
    assert_eq!(tape_d2(|x, y| x.powf(y), 0.0, 1.0), (0.0, 1.0, 0.0));
    assert_eq!(tape_d1(|x| x.powf(2.0), 0.0), (0.0, 0.0));
    assert_eq!(tape_d1(|x| x.powf(1.0), 0.0), (0.0, 1.0));
    // y = 0.5: the one-sided derivative is +∞, as for sqrt.
    assert_eq!(tape_d1(|x| x.powf(0.5), 0.0), (0.0, f64::INFINITY));
    // y = 0: x^0 = 1 everywhere, derivative 0 (no 0·∞ from 0 · 0^-1).
    assert_eq!(tape_d1(|x| x.powf(0.0), 0.0), (1.0, 0.0));
}

#[test]
fn powi_matches_its_closed_form() {
    for (x, n) in [
        (1.5, 0),
        (1.5, 1),
        (1.5, 2),
        (-1.5, 3),
        (2.0, -2),
        (0.0, 2),
        (0.0, 1),
    ] {
        let (v, d) = tape_d1(|v| v.powi(n), x);
        let want = if n == 0 {
            0.0
        } else {
            f64::from(n) * x.powf(f64::from(n - 1))
        };
        assert_eq!(v, x.powi(n), "{x}^{n}");
        assert_close(d, want, 1e-15, &format!("d/dx {x}^{n}"));
    }
}

#[test]
fn powi_with_extreme_exponents_does_not_overflow_the_exponent() {
    // n - 1 must not be computed in i32 for n = i32::MIN.
    let (v, d) = tape_d1(|x| x.powi(i32::MIN), 1.0);
    assert_eq!(v, 1.0);
    assert_eq!(d, f64::from(i32::MIN));
    let (v, d) = tape_d1(|x| x.powi(i32::MAX), 1.0);
    assert_eq!((v, d), (1.0, f64::from(i32::MAX)));
}

#[test]
fn min_and_max_follow_the_chosen_operand() {
    let (v, da, db) = tape_d2(|a, b| a.min(b), 1.0, 2.0);
    assert_eq!((v, da, db), (1.0, 1.0, 0.0));
    let (v, da, db) = tape_d2(|a, b| a.min(b), 3.0, 2.0);
    assert_eq!((v, da, db), (2.0, 0.0, 1.0));
    let (v, da, db) = tape_d2(|a, b| a.max(b), 1.0, 2.0);
    assert_eq!((v, da, db), (2.0, 0.0, 1.0));
    let (v, da, db) = tape_d2(|a, b| a.max(b), 3.0, 2.0);
    assert_eq!((v, da, db), (3.0, 1.0, 0.0));
    // With an f64 argument.
    assert_eq!(tape_d1(|x| x.max(0.0), 2.0), (2.0, 1.0));
    assert_eq!(tape_d1(|x| x.max(0.0), -2.0), (0.0, 0.0));
    assert_eq!(tape_d1(|x| x.min(0.0), -2.0), (-2.0, 1.0));
    // NaN is ignored, as by f64::min/max.
    assert_eq!(tape_d2(|a, b| a.max(b), f64::NAN, 2.0), (2.0, 0.0, 1.0));
    assert_eq!(tape_d1(|x| x.min(f64::NAN), 2.0), (2.0, 1.0));
}

#[test]
fn min_and_max_ties_send_the_whole_derivative_to_one_operand() {
    // On a tie the first operand (self) is chosen: the derivative is 1 for it, 0 for the
    // other, never split or doubled.
    for f in [|a: Var, b: Var| a.min(b), |a: Var, b: Var| a.max(b)] {
        let (v, da, db) = tape_d2(f, 2.0, 2.0);
        assert_eq!((v, da, db), (2.0, 1.0, 0.0));
    }
    // The same variable on both sides: derivative 1.
    assert_eq!(tape_d1(|x| x.max(x), 2.0), (2.0, 1.0));
}

#[test]
fn mul_add_with_every_argument_combination() {
    let (x, a, b) = (1.5, -2.0, 0.25);
    let value = x.mul_add(a, b);
    let (v, dx, da, db) = nested(|| {
        let (vx, va, vb) = (Var::new(x), Var::new(a), Var::new(b));
        let y = vx.mul_add(va, vb);
        y.grad();
        (y.val(), vx.adj(), va.adj(), vb.adj())
    });
    assert_eq!((v, dx, da, db), (value, a, x, 1.0));
    assert_eq!(tape_d1(|v| v.mul_add(a, b), x), (value, a));
    assert_eq!(tape_d1(|v| Var::from(x).mul_add(v, b), a), (value, x));
    assert_eq!(tape_d1(|v| Var::from(x).mul_add(a, v), b), (value, 1.0));
    assert_eq!(tape_d1(|v| v.mul_add(v, b), x), (x.mul_add(x, b), 2.0 * x));
    assert_eq!(tape_d1(|v| v.mul_add(a, v), x), (x.mul_add(a, x), a + 1.0));
}

#[test]
fn identity_shortcuts_do_not_change_gradients() {
    let x0 = -1.75;
    // f(x) = x³: every variant below must have derivative 3x².
    let want = 3.0 * x0 * x0;
    let variants: [fn(Var) -> Var; 8] = [
        |x| x * x * x,
        |x| (x * 1.0) * x * x,
        |x| (1.0 * x) * x * x,
        |x| (x + 0.0) * x * x,
        |x| (0.0 + x) * x * x,
        |x| (x - 0.0) * x * x,
        |x| (x / 1.0) * x * x,
        |x| x.powf(1.0) * x * x,
    ];
    for (i, f) in variants.iter().enumerate() {
        let (v, d) = tape_d1(f, x0);
        assert_eq!(v, x0 * x0 * x0, "variant {i}");
        assert_eq!(d, want, "variant {i}");
    }
    // hypot with a zero: |x|, derivative sign(x), from either side.
    assert_eq!(tape_d1(|x| Var::from(0.0).hypot(x), x0), (1.75, -1.0));
    assert_eq!(tape_d1(|x| x.hypot(0.0), x0), (1.75, -1.0));
    assert_eq!(tape_d1(|x| x.hypot(0.0), 2.0), (2.0, 1.0));
    // Adding a zero constant to an expression of two variables keeps both partials.
    let (_, da, db) = tape_d2(|a, b| a * b + 0.0 * a, 3.0, 5.0);
    assert_eq!((da, db), (5.0, 3.0));
}
