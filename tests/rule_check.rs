//! `check_deriv_rule`: the checker users run on their rules catches wrong ones and says
//! where.

use fazang::prelude::*;
use fazang::{check_deriv_rule, check_deriv_rule_vec, Quantity};

#[deriv_rule(x => x.cos() / (1.0 + x.sin()))]
fn foo(x: f64) -> f64 {
    (1.0 + x.sin()).ln()
}

/// The partial for `b` is wrong: it should be `2.0 * a * b`.
#[deriv_rule(a => b * b, b => a * b)]
fn ab2(a: f64, b: f64) -> f64 {
    a * b * b
}

#[test]
fn a_correct_rule_passes() {
    let check = check_deriv_rule(|x| foo(x[0]), |x| foo(x[0]), &[[0.3], [1.2], [-0.5]]);
    assert!(check.is_ok(1e-9), "{check}");
    assert_eq!(check.checked, 6, "a value and a derivative per point");
    check.assert_ok(1e-9);
}

#[test]
fn a_wrong_rule_is_caught_with_its_argument_and_point() {
    let pts = [[1.0, 1.0], [2.0, 3.0]];
    let check = check_deriv_rule(|x| ab2(x[0], x[1]), |x| ab2(x[0], x[1]), &pts);
    assert!(!check.is_ok(1e-6));
    let worst = check.worst.clone().unwrap();
    assert_eq!(worst.point_index, 1);
    assert_eq!(worst.point, vec![2.0, 3.0]);
    assert_eq!(worst.quantity, Quantity::Derivative { argument: 1 });
    assert_eq!(worst.recorded, 6.0);
    assert!((worst.reference - 12.0).abs() < 1e-8);
    assert!((worst.error - 0.5).abs() < 1e-8, "|6 - 12| / 12");
}

#[test]
#[should_panic(expected = "df/dx[1]: the rule gives 6, finite differences give 11.99999")]
fn assert_ok_panics_with_a_readable_message() {
    check_deriv_rule(|x| ab2(x[0], x[1]), |x| ab2(x[0], x[1]), &[[2.0, 3.0]]).assert_ok(1e-6);
}

#[test]
fn the_message_names_point_and_tolerance() {
    let check = check_deriv_rule(|x| ab2(x[0], x[1]), |x| ab2(x[0], x[1]), &[[2.0, 3.0]]);
    let err = std::panic::catch_unwind(|| check.assert_ok(1e-6)).unwrap_err();
    let msg = err.downcast_ref::<String>().unwrap();
    assert!(msg.contains("disagrees with finite differences"), "{msg}");
    assert!(msg.contains("at point #0 x = [2.0, 3.0]"), "{msg}");
    assert!(msg.contains("tolerance 1e-6"), "{msg}");
}

#[test]
fn a_var_version_with_another_value_is_caught() {
    let check = check_deriv_rule(|x| x[0] * 2.0 + 1.0, |x| x[0] * 2.0, &[[1.0]]);
    assert_eq!(check.worst.unwrap().quantity, Quantity::Value);
}

/// A wrong vector-Jacobian product: the transpose is missing.
#[deriv_rule(adjoint = wrong_adjoint)]
fn lower(x: [f64; 2]) -> [f64; 2] {
    [x[0], x[0] + 3.0 * x[1]]
}

fn wrong_adjoint(_x: &[f64; 2], _out: &[f64; 2], ds: &[f64; 2]) -> [f64; 2] {
    [ds[0] + 3.0 * ds[1], ds[1]] // should be [ds[0] + ds[1], 3.0 * ds[1]]
}

#[test]
fn a_wrong_adjoint_is_caught() {
    let f = |x: &[Var]| lower([x[0], x[1]]).to_vec();
    let check = check_deriv_rule_vec(f, |x| lower([x[0], x[1]]).to_vec(), &[[1.0, 2.0]]);
    let worst = check.worst.clone().unwrap();
    assert_eq!(worst.output, 1);
    assert!(matches!(worst.quantity, Quantity::Derivative { .. }));
    assert!(!check.is_ok(1e-6));
}

#[test]
fn nan_on_one_side_is_an_error() {
    let check = check_deriv_rule(|x| x[0].sqrt(), |x| x[0].sqrt(), &[[-1.0]]);
    assert!(check.is_ok(0.0), "NaN on both sides is no error: {check}");
    let check = check_deriv_rule(|x| x[0] * f64::NAN, |x| x[0], &[[1.0]]);
    assert_eq!(check.max_error(), f64::INFINITY);
}

#[test]
fn a_check_without_points_is_no_success() {
    // A forgotten point list compares nothing: that must not read as a passing check.
    let no_points: &[[f64; 1]] = &[];
    let check = check_deriv_rule(|x| foo(x[0]), |x| foo(x[0]), no_points);
    assert_eq!(check.checked, 0);
    assert!(!check.is_ok(1e-6), "{check}");
    let vec_check = check_deriv_rule_vec(|x| vec![foo(x[0])], |x| vec![foo(x[0])], no_points);
    assert!(!vec_check.is_ok(1e-6));
    let err = std::panic::catch_unwind(|| check.assert_ok(1e-6)).unwrap_err();
    let msg = err
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| err.downcast_ref::<String>().cloned())
        .unwrap();
    assert!(
        msg.contains("compared nothing") && msg.contains("no points"),
        "{msg}"
    );
}
