//! The tape survives anything a user can catch: a panic half way through recording a
//! node (a stale `Var` among the operands of `sum`, `dot_product`, `nary_op_iter`, a
//! distribution, `from_partials`, `vector_op`; an iterator that panics) or half way
//! through a backward sweep (a panicking `vector_op` callback) leaves the tape exactly as
//! it was: same contents, same adjoints, and later gradients right. And a stale `Var`
//! stays detected however many scopes come after it.

mod runtime_support;

use fazang::prelude::*;
use runtime_support::panic_message;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A `Var` whose scope has ended.
fn stale() -> Var {
    nested(|| Var::new(4.0) * 2.0)
}

/// Runs `f`, which must panic, and checks that the tape is exactly as before: the same
/// statistics, and the same adjoints of `watch`.
#[track_caller]
fn panics_and_leaves_the_tape_alone(watch: &[Var], f: impl FnOnce()) -> String {
    let stats = tape_stats();
    let adj: Vec<f64> = watch.iter().map(|v| v.adj()).collect();
    let err = catch_unwind(AssertUnwindSafe(f)).expect_err("the operation panics");
    assert_eq!(tape_stats(), stats, "the tape is as before");
    let after: Vec<f64> = watch.iter().map(|v| v.adj()).collect();
    assert_eq!(after, adj, "adjoints are as before");
    panic_message(&*err)
}

/// A gradient recorded after the failed operations is exact: y = x0² x1 + sin x2.
#[track_caller]
fn later_gradient_is_right(x: &[Var]) {
    set_zero_all_adj();
    let y = x[0] * x[0] * x[1] + x[2].sin();
    y.grad();
    let (a, b, c) = (x[0].val(), x[1].val(), x[2].val());
    assert_eq!(x[0].adj(), 2.0 * a * b);
    assert_eq!(x[1].adj(), a * a);
    assert_eq!(x[2].adj(), c.cos());
}

#[test]
#[allow(clippy::type_complexity)]
fn a_stale_operand_half_way_through_an_n_ary_node() {
    let x = [Var::new(1.5), Var::new(-0.5), Var::new(0.3)];
    let e = x[2].exp();
    let s = stale();
    // The stale Var comes after live ones, so the node has begun recording.
    let cases: Vec<(&str, Box<dyn Fn()>)> = vec![
        (
            "sum",
            Box::new(move || {
                let _ = sum(&[x[0], x[1], s, x[2]]);
            }),
        ),
        (
            "iterator sum",
            Box::new(move || {
                let _ = [x[0], x[1], s].iter().sum::<Var>();
            }),
        ),
        (
            "dot_product",
            Box::new(move || {
                let _ = dot_product(&[x[0], x[1], s], &[1.0, 2.0, 3.0]);
            }),
        ),
        (
            "dot_product of two Var slices",
            Box::new(move || {
                let _ = dot_product(&[x[0], x[1], x[2]], &[x[1], s, x[0]]);
            }),
        ),
        (
            "log_sum_exp",
            Box::new(move || {
                let _ = log_sum_exp(&[x[0], x[1], s]);
            }),
        ),
        (
            "norm2",
            Box::new(move || {
                let _ = norm2(&[x[0], x[1], s]);
            }),
        ),
        (
            "nary_op",
            Box::new(move || {
                let _ = nary_op(1.0, &[x[0], x[1], s], &[1.0, 1.0, 1.0]);
            }),
        ),
        (
            "nary_op_iter",
            Box::new(move || {
                let _ = nary_op_iter(1.0, [(x[0], 1.0), (s, 2.0), (x[1], 3.0)]);
            }),
        ),
        (
            "from_partials",
            Box::new(move || {
                let _ = Var::from_partials(1.0, |p| {
                    p.push(x[0], 1.0);
                    p.push(x[2], 2.0);
                    p.push(s, 3.0);
                });
            }),
        ),
        (
            "normal_lpdf, stale in the sample",
            Box::new(move || {
                let _ = normal_lpdf(&[x[0], x[1], s], x[2], 1.0);
            }),
        ),
        (
            "normal_lpdf, stale scale",
            Box::new(move || {
                let _ = normal_lpdf(&[x[0], x[1]], x[2], s);
            }),
        ),
        (
            "student_t_lpdf, stale location",
            Box::new(move || {
                let _ = student_t_lpdf(&[x[0], x[1]], 3.0, s, e);
            }),
        ),
        (
            "gamma_lpdf",
            Box::new(move || {
                let _ = gamma_lpdf(&[x[0], x[2]], s, x[0]);
            }),
        ),
        (
            "poisson_lpmf",
            Box::new(move || {
                let _ = poisson_lpmf(&[1, 2, 3], &[x[0], x[0], s]);
            }),
        ),
        (
            "vector_op",
            Box::new(move || {
                let _ = vector_op(&[x[0], x[1], s], &[1.0], |_, _| {});
            }),
        ),
        (
            "unary",
            Box::new(move || {
                let _ = s.exp();
            }),
        ),
        (
            "binary",
            Box::new(move || {
                let _ = x[0] * s;
            }),
        ),
        (
            "adj",
            Box::new(move || {
                let _ = s.adj();
            }),
        ),
        ("grad", Box::new(move || s.grad())),
    ];
    for (name, f) in cases {
        let msg = panics_and_leaves_the_tape_alone(&x, f);
        assert!(msg.contains("no longer on the tape"), "{name}: {msg}");
        later_gradient_is_right(&x);
    }
}

#[test]
fn an_iterator_that_panics_while_a_node_records() {
    let x = [Var::new(0.5), Var::new(2.0), Var::new(-1.0)];
    let msg = panics_and_leaves_the_tape_alone(&x, || {
        let ops = (0..3).map(|i| {
            assert!(i < 2, "user code fails at element {i}");
            (x[i], 1.0)
        });
        {
            let _ = nary_op_iter(0.0, ops);
        };
    });
    assert!(msg.contains("element 2"), "{msg}");
    later_gradient_is_right(&x);

    // An iterator that tries to record is refused the same way.
    let msg = panics_and_leaves_the_tape_alone(&x, || {
        let ops = x.iter().map(|&v| (v, (v * 2.0).val()));
        {
            let _ = nary_op_iter(0.0, ops);
        };
    });
    assert!(msg.contains("busy"), "{msg}");
    later_gradient_is_right(&x);
}

/// A tape with a callback whose vector-Jacobian product refuses large seeds; sweeps
/// seeded at `y` (which makes it fail, if `fail`) and then at `z`. Returns the adjoints
/// of the inputs after each sweep.
fn callback_scenario(fail: bool) -> (Vec<f64>, Vec<f64>) {
    let x = [Var::new(1.2), Var::new(0.7), Var::new(2.0)];
    // Adjoints from an earlier sweep, which a failed sweep must not disturb.
    (x[0] * x[1] + x[2]).grad();
    let (a, b) = (x[0].val(), x[1].val());
    let out = vector_op(&[x[0], x[1]], &[a * b], move |ob, ib| {
        assert!(ob[0] < 100.0, "vjp refuses a large seed");
        ib[0] += ob[0] * b;
        ib[1] += ob[0] * a;
    });
    // y reaches the callback through a node above it: when the callback runs, the sweep
    // has already written adjoints.
    let y = out[0] * 1000.0 + x[2] * x[0];
    let z = out[0] * 2.0 + x[1];
    let adj = |x: &[Var]| x.iter().map(|v| v.adj()).collect::<Vec<f64>>();
    if fail {
        let msg = panics_and_leaves_the_tape_alone(&x, || y.grad());
        assert!(msg.contains("large seed"), "{msg}");
    }
    let first = adj(&x);
    // The tape still sweeps, callback included, and accumulates as if nothing failed.
    z.grad();
    let second = adj(&x);
    clear_tape();
    (first, second)
}

#[test]
fn a_panicking_callback_during_the_sweep_restores_the_adjoints() {
    let (first, second) = callback_scenario(true);
    assert_eq!((first, second), callback_scenario(false));
}

#[test]
fn a_panicking_callback_inside_a_driver_leaves_outer_adjoints_alone() {
    let w = Var::new(3.0);
    (w * w).grad();
    let stats = tape_stats();
    let r = catch_unwind(|| {
        gradient(
            |x| {
                let out = vector_op(&[x[0]], &[x[0].val()], |_, _| panic!("vjp fails"));
                out[0] * w
            },
            &[1.0],
        )
    });
    assert!(r.is_err());
    assert_eq!(tape_stats(), stats);
    assert_eq!(w.adj(), 6.0);
    clear_tape();
}

#[test]
fn a_stale_var_stays_detected_after_a_million_scopes() {
    // The old check compared 32-bit scope generations and could be outrun; keys are
    // never reused, so however many scopes (each recording something) follow, the stale
    // Var is refused, and a Var of an enclosing scope stays valid.
    let outer = Var::new(2.0);
    let s = stale();
    for i in 0..1_000_000 {
        let _scope = NestedScope::begin();
        let v = Var::new(f64::from(i)) * outer;
        std::hint::black_box(v);
    }
    let msg = panics_and_leaves_the_tape_alone(&[outer], move || {
        let _ = s * 2.0;
    });
    assert!(msg.contains("no longer on the tape"), "{msg}");
    let y = outer * 3.0;
    y.grad();
    assert_eq!(outer.adj(), 3.0);
    clear_tape();
}

#[test]
fn stale_vars_of_many_generations_at_the_same_index() {
    // Each scope records its node at the same index; every earlier one must be refused.
    let base = Var::new(1.0);
    let olds: Vec<Var> = (0..100).map(|_| nested(|| base * 2.0)).collect();
    for (k, &old) in olds.iter().enumerate() {
        let r = catch_unwind(move || old.adj());
        assert!(r.is_err(), "stale Var {k} was accepted");
    }
    clear_tape();
}
