//! Nested scopes (`nested`, the `NestedScope` guard, three deep, outer variables inside),
//! what happens to a `Var` used after its scope ended, and a panic in the middle of a
//! recording.

mod runtime_support;

use fazang::prelude::*;
use runtime_support::panic_message;
use std::panic::{catch_unwind, AssertUnwindSafe};

#[test]
fn nested_discards_what_it_records() {
    let x = Var::new(2.0);
    let before = tape_stats();
    let (v, d) = nested(|| {
        let y = x.powi(3) + x;
        assert_eq!(tape_stats().depth, before.depth + 1);
        y.grad();
        (y.val(), x.adj())
    });
    // d/dx (x³ + x) = 3x² + 1; the outer x keeps the adjoint the inner sweep gave it.
    assert_eq!((v, d), (10.0, 13.0));
    assert_eq!(x.adj(), 13.0);
    assert_eq!(tape_stats(), before);
}

#[test]
fn nested_scope_guard_ends_at_drop() {
    let x = Var::new(1.5);
    let before = tape_stats();
    {
        let _scope = NestedScope::begin();
        let y = x.exp() * 2.0;
        y.grad();
        assert_eq!(x.adj(), 2.0 * 1.5_f64.exp());
        assert_eq!(tape_stats().nodes, before.nodes + 2);
        assert_eq!(tape_stats().depth, before.depth + 1);
    }
    assert_eq!(tape_stats(), before);
    // The outer variable still works and records at the outer level.
    set_zero_all_adj();
    let z = x * x;
    z.grad();
    assert_eq!(x.adj(), 3.0);
}

#[test]
fn three_levels_with_outer_variables_inside() {
    let a = Var::new(2.0);
    let s0 = tape_stats();
    let r = nested(|| {
        let b = Var::new(3.0);
        let s1 = tape_stats();
        let r = nested(|| {
            let c = Var::new(5.0);
            let s2 = tape_stats();
            let r = nested(|| {
                assert_eq!(tape_stats().depth, s0.depth + 3);
                let y = a * b * c + a; // ∂/∂a = bc + 1, ∂/∂b = ac, ∂/∂c = ab
                y.grad();
                (a.adj(), b.adj(), c.adj())
            });
            assert_eq!(tape_stats(), s2);
            r
        });
        assert_eq!(tape_stats(), s1);
        r
    });
    assert_eq!(r, (16.0, 10.0, 6.0));
    assert_eq!(tape_stats(), s0);
}

#[test]
fn dropping_an_outer_guard_ends_the_inner_scopes_too() {
    let before = tape_stats();
    let outer = NestedScope::begin();
    let inner = NestedScope::begin();
    let _x = Var::new(1.0);
    drop(outer);
    assert_eq!(tape_stats(), before);
    drop(inner); // already ended: nothing happens
    assert_eq!(tape_stats(), before);
}

#[test]
fn gradient_inside_nested_inside_gradient() {
    let (v, g) = gradient(
        |x| {
            let inner = nested(|| {
                let t = Var::new(x[0].val());
                (t * t).grad();
                t.adj()
            });
            x[0] * inner // inner = 2 x0, a constant here
        },
        &[3.0],
    );
    assert_eq!((v, g), (18.0, vec![6.0]));
}

#[test]
fn a_var_used_after_its_scope_ended_panics_with_an_explanation() {
    let escaped = nested(|| Var::new(1.0) * 2.0);
    // The value is still readable (it lives in the handle) ...
    assert_eq!(escaped.val(), 2.0);
    // ... but anything that needs the tape panics and says why.
    type Use = Box<dyn Fn()>;
    let uses: [(&str, Use); 4] = [
        ("adj", Box::new(move || _ = escaped.adj())),
        ("arithmetic", Box::new(move || _ = escaped * escaped)),
        ("function", Box::new(move || _ = escaped.sin())),
        ("grad", Box::new(move || escaped.grad())),
    ];
    for (what, f) in uses {
        let err = catch_unwind(AssertUnwindSafe(f)).expect_err(what);
        let msg = panic_message(&*err);
        assert!(msg.contains("nested scope that has ended"), "{what}: {msg}");
        assert!(msg.contains("no longer on the tape"), "{what}: {msg}");
    }
    // The tape is still usable afterwards.
    let (_, g) = gradient(|x| x[0] * x[0], &[4.0]);
    assert_eq!(g, vec![8.0]);
}

#[test]
fn a_var_from_a_gradient_closure_cannot_escape_silently() {
    let mut leaked = None;
    let _ = gradient(
        |x| {
            leaked = Some(x[0]);
            x[0] * 2.0
        },
        &[1.0],
    );
    let x = leaked.unwrap();
    let err = catch_unwind(move || x + 1.0).expect_err("use after gradient");
    assert!(panic_message(&*err).contains("gradient()"));
}

#[test]
fn a_var_after_clear_tape_panics() {
    let x = Var::new(1.0);
    clear_tape();
    let err = catch_unwind(move || x.adj()).expect_err("use after clear_tape");
    assert!(panic_message(&*err).contains("no longer on the tape"));
}

#[test]
fn a_panic_mid_recording_leaves_the_tape_usable() {
    let f = |x: &[Var]| x[0].sin() * x[1];
    let (v0, g0) = gradient(f, &[0.3, 2.0]);
    let before = tape_stats();

    let err = catch_unwind(|| {
        gradient(
            |x| {
                let y = x[0] * x[1] + x[0].exp();
                let z = y.ln();
                if z.val() > -100.0 {
                    panic!("user code failed after recording");
                }
                z
            },
            &[0.3, 2.0],
        )
    })
    .expect_err("the closure panics");
    assert_eq!(panic_message(&*err), "user code failed after recording");

    assert_eq!(
        tape_stats(),
        before,
        "the scope of the panicking gradient was discarded"
    );
    let (v, g) = gradient(f, &[0.3, 2.0]);
    assert_eq!((v, &g), (v0, &g0));
    assert_eq!(g, vec![0.3_f64.cos() * 2.0, 0.3_f64.sin()]);
    // Top-level recording works as well.
    let x = Var::new(0.5);
    (x * x).grad();
    assert_eq!(x.adj(), 1.0);
}

#[test]
fn a_panic_inside_nested_discards_the_scope() {
    let outer = Var::new(2.0);
    let before = tape_stats();
    let r = catch_unwind(AssertUnwindSafe(|| {
        nested(|| {
            let _y = outer * 3.0;
            let _z = Var::new(1.0);
            panic!("inside nested");
        })
    }));
    assert!(r.is_err());
    assert_eq!(tape_stats(), before);
    (outer * 3.0).grad();
    assert_eq!(outer.adj(), 3.0);
}
