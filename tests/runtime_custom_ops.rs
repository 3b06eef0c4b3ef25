//! Custom operations for runtime users (Fazang's chapter 5, MESA's make_unop/make_binop):
//! `unary_op`, `binary_op`, `nary_op`, `nary_op_iter` and `vector_op`, checked against
//! closed forms and finite differences.

mod runtime_support;

use fazang::prelude::*;
use runtime_support::{assert_all_close, assert_close, fd, fd_grad, tape_d1, tape_d2};

/// A user-defined unary function: softplus(x) = ln(1 + eˣ), d/dx = σ(x).
fn softplus(x: Var) -> Var {
    let v = x.val();
    let value = if v > 0.0 {
        v + (-v).exp().ln_1p()
    } else {
        v.exp().ln_1p()
    };
    unary_op(value, x, inv_logit(v))
}

fn softplus_f64(x: f64) -> f64 {
    (1.0 + x.exp()).ln()
}

/// A user-defined binary function: f(a, b) = a² sin b, ∂a = 2a sin b, ∂b = a² cos b.
fn a2sinb(a: Var, b: Var) -> Var {
    let (av, bv) = (a.val(), b.val());
    binary_op(
        av * av * bv.sin(),
        a,
        2.0 * av * bv.sin(),
        b,
        av * av * bv.cos(),
    )
}

#[test]
fn unary_op_defines_a_function() {
    for x in [-3.0, -0.2, 0.0, 1.5, 30.0] {
        let (v, d) = tape_d1(softplus, x);
        assert_close(v, softplus_f64(x), 1e-15, "softplus value");
        // Independent truth: eˣ/(1+eˣ) and finite differences of the naive formula.
        assert_close(d, x.exp() / (1.0 + x.exp()), 1e-15, "softplus' closed form");
        assert_close(d, fd(softplus_f64, x), 1e-9, "softplus' finite differences");
    }
    // Composes with built-in operations.
    let (_, d) = tape_d1(|x| softplus(x * x) * 2.0, 0.7);
    assert_close(
        d,
        2.0 * 2.0 * 0.7 * inv_logit(0.49),
        1e-15,
        "chain rule through unary_op",
    );
    // A constant operand gives a constant and records nothing.
    let before = tape_stats();
    assert!(softplus(Var::from(1.0)).is_constant());
    assert_eq!(tape_stats(), before);
}

#[test]
fn binary_op_defines_a_function_of_two_arguments() {
    let (a, b) = (1.3, -0.4);
    let (v, da, db) = tape_d2(a2sinb, a, b);
    assert_close(v, a * a * b.sin(), 1e-15, "value");
    let g = fd_grad(|x| x[0] * x[0] * x[1].sin(), &[a, b]);
    assert_all_close(&[da, db], &g, 1e-9, "binary_op vs finite differences");
    // One constant operand: only the active partial is recorded.
    let before = tape_stats();
    let x = Var::new(a);
    let y = a2sinb(x, Var::from(b));
    assert_eq!(
        tape_stats().operands - before.operands,
        1 + 1,
        "x's placeholder + 1 partial"
    );
    y.grad();
    assert_close(x.adj(), 2.0 * a * b.sin(), 1e-15, "∂a with constant b");
}

#[test]
fn nary_op_and_nary_op_iter_record_one_node() {
    // f(x) = Π xᵢ recorded as one node with partials f/xᵢ.
    let xs_f = [1.5, -2.0, 0.5, 4.0];
    let prod: f64 = xs_f.iter().product();
    let (v, g) = nested(|| {
        let xs: Vec<Var> = xs_f.iter().map(|&v| Var::new(v)).collect();
        let partials: Vec<f64> = xs_f.iter().map(|x| prod / x).collect();
        let before = tape_stats();
        let y = nary_op(prod, &xs, &partials);
        assert_eq!(tape_stats().nodes - before.nodes, 1);
        assert_eq!(tape_stats().operands - before.operands, 4);
        y.grad();
        (y.val(), xs.iter().map(|x| x.adj()).collect::<Vec<_>>())
    });
    assert_eq!(v, -6.0);
    assert_all_close(&g, &fd_grad(|x| x.iter().product(), &xs_f), 1e-9, "nary_op");

    // The same through an iterator, with a constant among the operands.
    let (x, y) = (Var::new(2.0), Var::new(3.0));
    let c = Var::from(5.0);
    let before = tape_stats();
    let s = nary_op_iter(2.0 + 3.0 * 3.0 + 5.0, [(x, 1.0), (y, 6.0), (c, 1.0)]);
    assert_eq!(
        tape_stats().operands - before.operands,
        2,
        "the constant is skipped"
    );
    s.grad();
    assert_eq!((x.adj(), y.adj()), (1.0, 6.0));
    // No active operand at all: a constant.
    assert!(nary_op_iter(1.0, [(c, 2.0)]).is_constant());
}

#[test]
#[should_panic(expected = "one partial per operand")]
fn nary_op_with_mismatched_partials_panics() {
    let x = Var::new(1.0);
    let _ = nary_op(1.0, &[x, x], &[1.0]);
}

/// out = A x for a fixed 2×3 matrix A, with the vector-Jacobian product Aᵀ ob.
fn mat_vec(x: &[Var]) -> Vec<Var> {
    const A: [[f64; 3]; 2] = [[1.0, 2.0, -1.0], [0.5, 0.0, 3.0]];
    let xv: Vec<f64> = x.iter().map(|v| v.val()).collect();
    let values: Vec<f64> = A
        .iter()
        .map(|r| r.iter().zip(&xv).map(|(a, b)| a * b).sum())
        .collect();
    vector_op(x, &values, |ob, ib| {
        for (i, row) in A.iter().enumerate() {
            for (j, a) in row.iter().enumerate() {
                ib[j] += a * ob[i];
            }
        }
    })
}

#[test]
fn vector_op_gives_the_jacobian() {
    let (v, jac) = jacobian(mat_vec, &[1.0, -2.0, 0.5]);
    assert_eq!(v, vec![-3.5, 2.0]);
    assert_eq!(jac, vec![vec![1.0, 2.0, -1.0], vec![0.5, 0.0, 3.0]]);
}

#[test]
fn vector_op_used_twice_in_one_expression() {
    // g(x) = out1 · out2 + out1[0] with out1 = A x and out2 = A (2x): two callbacks on
    // the tape, each must run once and in the right order.
    let x0 = [1.0, -2.0, 0.5];
    let g = |x: &[Var]| {
        let o1 = mat_vec(x);
        let doubled: Vec<Var> = x.iter().map(|v| *v * 2.0).collect();
        let o2 = mat_vec(&doubled);
        o1[0] * o2[0] + o1[1] * o2[1] + o1[0]
    };
    let (v, grad) = gradient(g, &x0);
    let plain = |x: &[f64]| {
        let a = [[1.0, 2.0, -1.0], [0.5, 0.0, 3.0]];
        let o: Vec<f64> = a
            .iter()
            .map(|r| r.iter().zip(x).map(|(a, b)| a * b).sum())
            .collect();
        2.0 * (o[0] * o[0] + o[1] * o[1]) + o[0]
    };
    assert_eq!(v, plain(&x0));
    assert_all_close(&grad, &fd_grad(plain, &x0), 1e-9, "two vector_ops");
    // Closed form: 4 Aᵀ A x + A[0].
    let (o0, o1) = (-3.5, 2.0);
    let want = [
        4.0 * (o0 + 0.5 * o1) + 1.0,
        4.0 * (2.0 * o0) + 2.0,
        4.0 * (-o0 + 3.0 * o1) - 1.0,
    ];
    assert_all_close(&grad, &want, 1e-15, "two vector_ops, closed form");
}

#[test]
fn vector_op_inside_gradient_with_an_outer_input() {
    let outer = Var::new(0.5);
    (outer * 7.0).grad();
    let stats = tape_stats();
    // The outer variable is an input of the vector op inside gradient's scope.
    let (v, g) = gradient(
        |x| {
            let out = mat_vec(&[x[0], outer, x[1]]);
            out[0] + out[1] * x[0]
        },
        &[1.0, 2.0],
    );
    // out0 = x0 + 2·0.5 - x1, out1 = 0.5 x0 + 3 x1: v = out0 + out1 x0.
    assert_eq!(v, (1.0 + 1.0 - 2.0) + (0.5 + 6.0) * 1.0);
    // ∂/∂x0 = 1 + out1 + 0.5 x0, ∂/∂x1 = -1 + 3 x0.
    assert_eq!(g, vec![1.0 + 6.5 + 0.5, -1.0 + 3.0]);
    assert_eq!(outer.adj(), 7.0, "the outer adjoint is untouched");
    assert_eq!(tape_stats(), stats);
}

#[test]
fn vector_op_with_only_constant_inputs_records_nothing() {
    let before = tape_stats();
    let out = mat_vec(&[Var::from(1.0), Var::from(2.0), Var::from(3.0)]);
    assert_eq!(tape_stats(), before);
    assert!(out.iter().all(Var::is_constant));
    assert_eq!(
        out.iter().map(|v| v.val()).collect::<Vec<_>>(),
        vec![2.0, 9.5]
    );
}

#[test]
fn a_vector_op_callback_that_records_panics_and_leaves_the_tape_usable() {
    let before = tape_stats();
    let err = std::panic::catch_unwind(|| {
        gradient(
            |x| {
                let out = vector_op(&[x[0]], &[x[0].val()], |ob, ib| {
                    // Wrong: the callback runs inside the sweep and may not record.
                    ib[0] += (Var::new(ob[0]) * 2.0).val();
                });
                out[0]
            },
            &[1.0],
        )
    })
    .expect_err("recording inside the sweep");
    let msg = runtime_support::panic_message(&*err);
    assert!(msg.contains("tape is busy"), "{msg}");
    assert_eq!(tape_stats(), before);
    let (_, g) = gradient(|x| x[0].sin(), &[0.0]);
    assert_eq!(g, vec![1.0]);
}
