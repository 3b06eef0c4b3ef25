//! `#[deriv_rule]` on structs: ReverseDiffSource's `Bar` and `norm`, data fields,
//! derives, array fields, tuple structs and the `Composite` interface.

use fazang::composite::{Composite, CompositeOf};
use fazang::prelude::*;
use fazang::{check_deriv_rule, tape_stats};

/// ReverseDiffSource's composite type.
#[deriv_rule]
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Bar {
    pub x: f64,
    pub y: f64,
}

/// `norm(z) = z.x² + z.y²`, its partial a `Bar`.
#[deriv_rule(z => Bar { x: 2.0 * z.x, y: 2.0 * z.y })]
fn norm(z: Bar) -> f64 {
    z.x * z.x + z.y * z.y
}

#[test]
fn bar_still_means_the_plain_struct() {
    let b: Bar = Bar { x: 3.0, y: 4.0 };
    let c = b.clone();
    assert_eq!(b, c);
    assert_eq!(Bar::default(), Bar { x: 0.0, y: 0.0 });
    assert_eq!(format!("{b:?}"), "Bar { x: 3.0, y: 4.0 }");
    assert_eq!(norm(b), 25.0);
}

#[test]
fn reverse_diff_source_example() {
    // ex = :(z = Bar(2^a, sin(a)); norm(z)); d/da = 2·2^a·2^a ln 2 + 2 sin a cos a
    for &a0 in &[-0.7, 0.0, 0.4, 1.5] {
        let (v, g) = gradient(
            |a| {
                let z = Bar {
                    x: Var::from(2.0).powf(a[0]),
                    y: a[0].sin(),
                };
                norm(z)
            },
            &[a0],
        );
        let two_a = 2.0_f64.powf(a0);
        assert!((v - (two_a * two_a + a0.sin().powi(2))).abs() < 1e-12);
        let d = 2.0 * two_a * two_a * std::f64::consts::LN_2 + 2.0 * a0.sin() * a0.cos();
        assert!((g[0] - d).abs() < 1e-12, "{} vs {d}", g[0]);
    }
}

#[test]
fn a_struct_rule_records_one_node() {
    let z = Bar {
        x: Var::new(1.0),
        y: Var::new(2.0),
    };
    let before = tape_stats();
    let n = norm(z.clone());
    assert_eq!(tape_stats().nodes - before.nodes, 1);
    n.grad();
    assert_eq!((z.x.adj(), z.y.adj()), (2.0, 4.0));
    clear_tape();
}

/// A struct with data fields, an array field and a reference parameter.
#[deriv_rule]
#[derive(Debug, Clone)]
struct Weighted {
    w: [f64; 3],
    bias: f64,
    label: String,
    scale: u32,
}

/// scale · (w₀ + 2w₁ + 3w₂) + bias², with a data multiplier `k`.
#[deriv_rule(p => Weighted { w: [1.0, 2.0, 3.0].map(|c| c * k * p.scale as f64), bias: 2.0 * p.bias, ..p.clone() }, data(k))]
fn score(p: &Weighted, k: f64) -> f64 {
    let s: f64 = p.w.iter().zip([1.0, 2.0, 3.0]).map(|(w, c)| w * c).sum();
    k * p.scale as f64 * s + p.bias * p.bias
}

fn weighted<S: Real>(w: [S; 3], bias: S) -> Weighted<S> {
    Weighted {
        w,
        bias,
        label: "test".into(),
        scale: 2,
    }
}

#[test]
fn data_fields_array_fields_and_references() {
    let p = weighted([1.0, 1.0, 1.0], 0.5);
    assert_eq!(score(&p, 1.0), 2.0 * 6.0 + 0.25);
    let (v, g) = gradient(
        |x| score(&weighted([x[0], x[1], x[2]], x[3]), 1.5),
        &[1.0, 1.0, 1.0, 0.5],
    );
    assert_eq!(v, 1.5 * 2.0 * 6.0 + 0.25);
    assert_eq!(g, vec![3.0, 6.0, 9.0, 1.0]);
}

#[test]
fn composite_interface_for_differentiate() {
    assert_eq!(Composite::count(&Bar { x: 1.0, y: 2.0 }), 2);
    let p = weighted([1.0, 2.0, 3.0], 4.0);
    assert_eq!(Composite::count(&p), 4);
    let mut vars = Vec::new();
    let active: Weighted<Var> = p.activate(&mut vars);
    assert_eq!(
        vars.iter().map(|v| v.val()).collect::<Vec<_>>(),
        [1.0, 2.0, 3.0, 4.0]
    );
    assert!(vars.iter().all(|v| !v.is_constant()));
    assert_eq!((active.label.as_str(), active.scale), ("test", 2));
    let adj = p.adjoint(&mut [0.1, 0.2, 0.3, 0.4].into_iter());
    assert_eq!((adj.w, adj.bias), ([0.1, 0.2, 0.3], 0.4));
    assert_eq!(adj.label, "test");
    // CompositeOf: the values of an active struct, its fields in order.
    let vals: Weighted = active.values();
    assert_eq!((vals.w, vals.bias), (p.w, p.bias));
    let mut fields = Vec::new();
    active.for_each_field(|v| fields.push(v.val()));
    assert_eq!(fields, [1.0, 2.0, 3.0, 4.0]);
    clear_tape();
}

/// Tuple structs work the same way.
#[deriv_rule]
#[derive(Debug, Clone, Copy, PartialEq)]
struct Point(f64, f64);

#[deriv_rule(a => Point(b.0 - a.0, b.1 - a.1).scaled(-1.0 / dist(a, b)), b => Point(b.0 - a.0, b.1 - a.1).scaled(1.0 / dist(a, b)))]
fn dist(a: Point, b: Point) -> f64 {
    (b.0 - a.0).hypot(b.1 - a.1)
}

impl Point {
    fn scaled(self, k: f64) -> Point {
        Point(self.0 * k, self.1 * k)
    }
}

#[test]
fn tuple_structs_and_two_struct_arguments() {
    assert_eq!(dist(Point(0.0, 0.0), Point(3.0, 4.0)), 5.0);
    let f = |p: &[Var]| dist(Point(p[0], p[1]), Point(p[2], p[3]));
    let (v, g) = gradient(f, &[0.0, 0.0, 3.0, 4.0]);
    assert_eq!(v, 5.0);
    for (gi, want) in g.iter().zip([-0.6, -0.8, 0.6, 0.8]) {
        assert!((gi - want).abs() < 1e-15);
    }
    check_deriv_rule(
        f,
        |p| dist(Point(p[0], p[1]), Point(p[2], p[3])),
        &[[0.5, -1.0, 2.0, 0.3]],
    )
    .assert_ok(1e-8);
}

/// Generic code builds and passes composite values.
fn norm_of_scaled<S: Real>(x: S) -> S {
    norm(Bar {
        x: x * 3.0,
        y: x.exp(),
    })
}

#[test]
fn generic_callers_build_structs() {
    let v: f64 = norm_of_scaled(0.5);
    assert!((v - (2.25 + 1.0_f64.exp())).abs() < 1e-12);
    check_deriv_rule(
        |x| norm_of_scaled(x[0]),
        |x| norm_of_scaled(x[0]),
        &[[0.5], [-1.0]],
    )
    .assert_ok(1e-8);
}
