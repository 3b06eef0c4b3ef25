//! What writing the MGH problems found in `#[differentiate]`, as the smallest bodies that
//! show it (reported to the lead with the problem each came from).
//!
//! Six silent wrong numbers, all from the adjoint code reading a body differently from
//! rustc: statements configured out by `#[cfg]` are run, and items declared in the body
//! (`const`, `static`, `fn`, `use`) are dropped, so a name they shadow resolves to the outer
//! item.
//! The tape twin, `_jvp` and `_hessian` are right in every case.
//!
//! The wrong numbers are ordinary tests (they failed before the macro was fixed); the
//! bodies that did not compile under the macro are in `compile_failures`, their gradients
//! checked in `once_compile_failures`.
use fazang::prelude::*;

/// A statement under `#[cfg(..)]` that is configured out. The primal skips it; the adjoint
/// code runs it anyway: `cfg_block_grad(2.0)` returns (204, [104]) instead of (4, [4]), a
/// silent wrong value and gradient (the tape twin is right). A user's
/// `#[cfg(feature = "..")]` or `#[cfg(debug_assertions)]` block in a model hits this; it is
/// why the MGH workarounds duplicate whole functions instead of single `let`s.
#[differentiate]
pub fn cfg_block(x: f64) -> f64 {
    let mut f = x * x;
    #[cfg(any())]
    {
        f += 100.0 * x;
    }
    f
}

/// The same with a `let` configured out.
#[differentiate]
pub fn cfg_let(x: &[f64]) -> f64 {
    let s = x[0];
    #[cfg(any())]
    let s = 10.0 * x[0];
    s * x[1]
}

#[test]
fn configured_out_statement_is_not_run() {
    assert_eq!(cfg_block(2.0), 4.0);
    assert_eq!(__cfg_block_grad_tape(2.0), (4.0, [4.0]));
    assert_eq!(cfg_block_grad(2.0), (4.0, [4.0]));
}

#[test]
fn configured_out_let_is_not_run() {
    let x = [2.0, 3.0];
    assert_eq!(cfg_let(&x), 6.0);
    assert_eq!(__cfg_let_grad_tape(&x), (6.0, vec![3.0, 2.0]));
    assert_eq!(cfg_let_grad(&x), (6.0, vec![3.0, 2.0]));
}

/// Items declared in a body (`const`, `static`, `fn`) are left out of the adjoint code, so
/// a name they shadow resolves to the outer item there: `shadowed_const_grad(2.0)` returns
/// (4, [4]) instead of (12, [12]) (the tape twin and `_hessian` are right). Found from
/// Penalty I's `a = 10⁻⁵`, which users write as a `const` in the body.
#[allow(dead_code)] // only a wrong expansion reads the shadowed outer item
pub const SCALE: f64 = 1.0;

#[differentiate]
pub fn shadowed_const(x: f64) -> f64 {
    const SCALE: f64 = 3.0;
    SCALE * x * x
}

/// An outer helper that a local one shadows.
#[allow(dead_code)] // only a wrong expansion reads the shadowed outer item
pub fn weight(v: f64) -> f64 {
    v
}

/// The same with a local `fn` shadowing `weight`: `_grad(2.0)` gives (4, [2]), not (20, [10]).
#[differentiate]
pub fn shadowed_fn(x: f64) -> f64 {
    fn weight(v: f64) -> f64 {
        5.0 * v
    }
    weight(2.0) * x
}

/// The same with a `static`: `_grad(2.0)` gives (2, [1]), not (14, [7]).
#[differentiate]
pub fn shadowed_static(x: f64) -> f64 {
    static SCALE: f64 = 7.0;
    SCALE * x
}

/// A module-level name that a `use` in a body shadows.
#[allow(dead_code)] // only a wrong expansion reads the shadowed outer item
pub const PI: f64 = 3.0;

/// The same with a `use` in the body (as Helical valley would write `use
/// std::f64::consts::PI;`): `_grad(2.0)` gives (12, [12]) from the outer `PI`, not (4π, [4π]).
/// Without an outer `PI` it does not compile instead.
#[differentiate]
pub fn shadowed_use(x: f64) -> f64 {
    use std::f64::consts::PI;
    PI * x * x
}

#[test]
fn body_const_shadows_outer_const() {
    assert_eq!(shadowed_const(2.0), 12.0);
    assert_eq!(__shadowed_const_grad_tape(2.0), (12.0, [12.0]));
    assert_eq!(shadowed_const_grad(2.0), (12.0, [12.0]));
}

#[test]
fn body_fn_shadows_outer_fn() {
    assert_eq!(shadowed_fn(2.0), 20.0);
    assert_eq!(__shadowed_fn_grad_tape(2.0), (20.0, [10.0]));
    assert_eq!(shadowed_fn_grad(2.0), (20.0, [10.0]));
}

#[test]
fn body_static_shadows_outer_const() {
    assert_eq!(shadowed_static(2.0), 14.0);
    assert_eq!(__shadowed_static_grad_tape(2.0), (14.0, [7.0]));
    assert_eq!(shadowed_static_grad(2.0), (14.0, [7.0]));
}

#[test]
fn body_use_shadows_outer_const() {
    let pi = std::f64::consts::PI;
    assert_eq!(shadowed_use(2.0), 4.0 * pi);
    assert_eq!(__shadowed_use_grad_tape(2.0), (4.0 * pi, [4.0 * pi]));
    assert_eq!(shadowed_use_grad(2.0), (4.0 * pi, [4.0 * pi]));
}

/// Compiled without `#[differentiate]`, not with it, before the macro was fixed (MGH 4, 28,
/// 29, 30, and variants of MGH 23 and 35 as users also write them); each gradient is checked
/// against the tape twin and finite differences below.
pub mod compile_failures {
    use fazang::prelude::*;

    /// E0308 "expected `[Var; 2]`, found `&[Var]`": an active `[f64; N]` parameter passed
    /// on to a differentiated function taking `[f64; N]` (MGH 4, Brown badly scaled).
    #[differentiate]
    pub fn inner(x: [f64; 2]) -> f64 {
        x[0] * x[1]
    }
    #[differentiate]
    pub fn outer(x: [f64; 2]) -> f64 {
        inner(x)
    }

    /// E0308 "expected type parameter `S`, found floating-point number": the literal default
    /// of `unwrap_or` on an active `Option` (MGH 28, discrete boundary value).
    #[differentiate]
    pub fn get_or_zero(x: &[f64]) -> f64 {
        x.get(5).copied().unwrap_or(0.0) * x[0]
    }

    /// E0271 "expected `Iter<'_, S>` to be an iterator that yields `&{float}`": a literal in
    /// `once(0.0)` chained with the active slice (MGH 30, Broyden tridiagonal).
    #[differentiate]
    pub fn once_chain(x: &[f64]) -> f64 {
        let p: Vec<f64> = std::iter::once(0.0).chain(x.iter().copied()).collect();
        p[1] * p[1]
    }

    /// E0308 on `copy_from_slice`: a `vec![0.0; n]` that becomes active by
    /// `copy_from_slice(x)` stays `Vec<f64>` (found while looking for a workaround for MGH 30).
    #[differentiate]
    pub fn padded_copy(x: &[f64]) -> f64 {
        let n = x.len();
        let mut padded = vec![0.0; n + 2];
        padded[1..=n].copy_from_slice(x);
        padded
            .windows(3)
            .map(|w| (w[0] - 2.0 * w[1] + w[2]).powi(2))
            .sum()
    }

    /// E0282 "type annotations needed" at `collect()`: the adjoint code drops the `Vec<f64>`
    /// annotation of a data `let` (MGH 29, discrete integral equation).
    #[differentiate]
    pub fn annotated_collect(x: &[f64]) -> f64 {
        let t: Vec<f64> = (0..3).map(|j| j as f64 * 0.5).collect();
        x[0] * t[2]
    }

    /// E0425 "cannot find value `A`": a `const` declared in the body is left out of the
    /// adjoint code (Penalty I with `const A: f64 = 1e-5;`; with an outer item of the same
    /// name it is a wrong number instead, see `shadowed_const`).
    #[differentiate]
    pub fn body_const(x: &[f64]) -> f64 {
        const A: f64 = 1e-5;
        A * x.iter().map(|v| (v - 1.0).powi(2)).sum::<f64>() + x[0] * x[1]
    }

    /// E0425 "cannot find value `TAU`": likewise a `use` in the body.
    #[differentiate]
    pub fn body_use(x: f64) -> f64 {
        use std::f64::consts::TAU;
        (TAU * x).sin()
    }

    /// E0425 "cannot find function `sq`": likewise a local `fn`.
    #[differentiate]
    pub fn body_fn(x: &[f64]) -> f64 {
        fn sq(v: f64) -> f64 {
            v * v
        }
        sq(2.0) * x[0] * x[1]
    }

    /// E0308 "expected `f64`, found type parameter `S`": a destructuring assignment that
    /// makes a literal-initialised local active (Chebyquad's recurrence written
    /// `(p, c) = (c, 2.0 * y * c - p)`).
    #[differentiate]
    pub fn tuple_assign(x: f64) -> f64 {
        let mut p = 1.0;
        let mut c = x;
        (p, c) = (c, p * c);
        p + c
    }

    /// E0425: no `name_grad_into` for a `[f64; N]` (or `Vec<f64>`, `&Vec<f64>`) parameter,
    /// although DESIGN.md promises it for "slices/vectors/arrays of `f64`" (MGH 4, 6, 14).
    #[differentiate]
    pub fn array_param(x: [f64; 2]) -> f64 {
        x[0] * x[1]
    }
    pub fn call_array_grad_into() -> f64 {
        let mut g = [0.0; 2];
        array_param_grad_into([1.0, 2.0], &mut g)
    }
}

/// The former compile failures: each gradient against the tape twin and finite differences.
#[test]
fn once_compile_failures() {
    use compile_failures::*;
    let close = |a: &[f64], b: &[f64]| {
        a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|(x, y)| (x - y).abs() <= 1e-7 * y.abs().max(1.0))
    };
    let fd = |f: &dyn Fn(&[f64]) -> f64, x: &[f64]| -> Vec<f64> {
        (0..x.len())
            .map(|i| {
                let h = 1e-6 * x[i].abs().max(1.0);
                let (mut a, mut b) = (x.to_vec(), x.to_vec());
                a[i] += h;
                b[i] -= h;
                (f(&a) - f(&b)) / (2.0 * h)
            })
            .collect()
    };
    let x: Vec<f64> = (0..6).map(|i| 0.3 + 0.1 * i as f64).collect();
    for (name, g, t, f) in [
        (
            "get_or_zero",
            get_or_zero_grad(&x).1,
            __get_or_zero_grad_tape(&x).1,
            get_or_zero as fn(&[f64]) -> f64,
        ),
        (
            "once_chain",
            once_chain_grad(&x).1,
            __once_chain_grad_tape(&x).1,
            once_chain,
        ),
        (
            "padded_copy",
            padded_copy_grad(&x).1,
            __padded_copy_grad_tape(&x).1,
            padded_copy,
        ),
        (
            "annotated_collect",
            annotated_collect_grad(&x).1,
            __annotated_collect_grad_tape(&x).1,
            annotated_collect,
        ),
        (
            "body_const",
            body_const_grad(&x).1,
            __body_const_grad_tape(&x).1,
            body_const,
        ),
        (
            "body_fn",
            body_fn_grad(&x).1,
            __body_fn_grad_tape(&x).1,
            body_fn,
        ),
    ] {
        assert!(close(&g, &t), "{name}: {g:?} vs the tape {t:?}");
        assert!(
            close(&g, &fd(&f, &x)),
            "{name}: {g:?} vs finite differences"
        );
    }
    let (v, g) = outer_grad([0.4, 0.9]);
    assert_eq!(
        (v, g),
        (
            __outer_grad_tape([0.4, 0.9]).0,
            __outer_grad_tape([0.4, 0.9]).1
        )
    );
    let (_, g) = body_use_grad(0.3);
    assert!((g[0] - std::f64::consts::TAU * (std::f64::consts::TAU * 0.3).cos()).abs() < 1e-12);
    // (p, c) = (c, p c) from (1, x): p + c = x + x.
    assert_eq!(tuple_assign_grad(0.7).1, [2.0]);
    assert_eq!(call_array_grad_into(), 2.0);
}
