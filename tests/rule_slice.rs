//! `#[deriv_rule]` with slice, vector and array parameters: the rule gives a gradient.

use fazang::prelude::*;
use fazang::{check_deriv_rule, tape_stats};

/// Σ xᵢ², gradient 2x.
#[deriv_rule(x => x.iter().map(|v| 2.0 * v).collect::<Vec<f64>>())]
fn sum_sq(x: &[f64]) -> f64 {
    x.iter().map(|v| v * v).sum()
}

/// w · x + c with a data weight vector (`data(w)`: it stays `&[f64]`), an owned vector and
/// a scalar.
#[deriv_rule(x => w, c => 1.0, data(w))]
fn affine(w: &[f64], x: Vec<f64>, c: f64) -> f64 {
    w.iter().zip(&x).map(|(a, b)| a * b).sum::<f64>() + c
}

/// A `&Vec<f64>` parameter is seen as `&[f64]` by the body and the rule.
#[deriv_rule(x => vec![1.0; x.len()])]
#[allow(clippy::ptr_arg)]
fn total(x: &Vec<f64>) -> f64 {
    x.iter().sum()
}

/// An array parameter; its partial may be an array too.
#[deriv_rule(p => [p[1], p[0], 1.0])]
fn xy_plus_z(p: [f64; 3]) -> f64 {
    p[0] * p[1] + p[2]
}

/// A scalar and a slice: log Σ exp(a xᵢ), partials Σ xᵢ softmaxᵢ and a softmax.
#[deriv_rule(a => soft(a, x).iter().zip(x).map(|(s, v)| s * v).sum(), x => soft(a, x).iter().map(|s| s * a).collect::<Vec<_>>())]
fn lse_scaled(a: f64, x: &[f64]) -> f64 {
    x.iter().map(|v| (a * v).exp()).sum::<f64>().ln()
}

fn soft(a: f64, x: &[f64]) -> Vec<f64> {
    let z: f64 = x.iter().map(|v| (a * v).exp()).sum();
    x.iter().map(|v| (a * v).exp() / z).collect()
}

#[test]
fn slice_rule_gives_the_gradient() {
    assert_eq!(sum_sq(&[1.0, 2.0, 3.0]), 14.0);
    let (v, g) = gradient(sum_sq, &[1.0, 2.0, 3.0]);
    assert_eq!((v, g), (14.0, vec![2.0, 4.0, 6.0]));
}

#[test]
fn slice_rule_records_one_node_with_one_operand_per_element() {
    let xs = [Var::new(1.0), Var::new(2.0), Var::new(3.0)];
    let before = tape_stats();
    let y = sum_sq(&xs);
    let after = tape_stats();
    assert_eq!(after.nodes - before.nodes, 1);
    assert_eq!(after.operands - before.operands, 3);
    y.grad();
    assert_eq!(xs.map(|x| x.adj()), [2.0, 4.0, 6.0]);
    clear_tape();
}

#[test]
fn owned_vectors_data_slices_and_scalars() {
    let w = [0.5, -1.0];
    assert_eq!(affine(&w, vec![2.0, 3.0], 1.0), -1.0);
    let (v, g) = gradient(|p| affine(&w, vec![p[0], p[1]], p[2]), &[2.0, 3.0, 1.0]);
    assert_eq!((v, g), (-1.0, vec![0.5, -1.0, 1.0]));
}

#[test]
fn vec_ref_and_array_parameters() {
    assert_eq!(total(&vec![1.0, 2.0]), 3.0);
    let (_, g) = gradient(|x| total(&x.to_vec()), &[1.0, 2.0]);
    assert_eq!(g, vec![1.0, 1.0]);

    assert_eq!(xy_plus_z([2.0, 3.0, 4.0]), 10.0);
    let (_, g) = gradient(|x| xy_plus_z([x[0], x[1], x[2]]), &[2.0, 3.0, 4.0]);
    assert_eq!(g, vec![3.0, 2.0, 1.0]);
}

#[test]
fn scalar_and_slice_together() {
    let pts = [[0.5, 1.0, -2.0, 0.3], [-1.2, 0.0, 0.5, 2.0]];
    check_deriv_rule(
        |p| lse_scaled(p[0], &p[1..]),
        |p| lse_scaled(p[0], &p[1..]),
        &pts,
    )
    .assert_ok(1e-8);
}

#[test]
#[should_panic(expected = "the #[deriv_rule] partial for `x` has 2 elements, but `x` has 3")]
fn a_gradient_of_the_wrong_length_is_reported() {
    #[deriv_rule(x => vec![1.0, 1.0])]
    fn bad_sum(x: &[f64]) -> f64 {
        x.iter().sum()
    }
    let _ = gradient(bad_sum, &[1.0, 2.0, 3.0]);
}
