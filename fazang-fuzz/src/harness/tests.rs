//! Tests of the harness: finite differences against closed forms, kinks skipped, and
//! every comparison reporting what it should.

use super::*;
use std::cell::RefCell;

thread_local! {
    /// The failure kinds reported on this thread, for the tests.
    pub static KINDS: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

fn smooth(p: &[f64]) -> Result<f64, String> {
    Ok((p[0] * p[1]).sin() + p[1].exp() * 3.0)
}

#[test]
fn reference_matches_closed_form() {
    let p = [0.7_f64, -1.2];
    let want = [
        p[1] * (p[0] * p[1]).cos(),
        p[0] * (p[0] * p[1]).cos() + 3.0 * p[1].exp(),
    ];
    for (j, w) in want.iter().enumerate() {
        let Reference::Smooth(r, err) = reference(&smooth, &p, j) else {
            panic!("smooth function reported as not smooth");
        };
        assert!((r - w).abs() < 1e-9, "{r} vs {w}");
        assert!(err < 1e-7, "error bound {err}");
        assert!(agrees(*w, r, err));
        assert!(!agrees(w * (1.0 + 1e-4), r, err));
    }
}

#[test]
fn kinks_and_jumps_are_skipped() {
    let kink = |p: &[f64]| Ok((p[0] - 0.0002).abs());
    assert_eq!(reference(&kink, &[0.0], 0), Reference::NotSmooth);
    let jump = |p: &[f64]| Ok(if p[0] > 0.0005 { 1.0 } else { 0.0 } + p[0]);
    assert_eq!(reference(&jump, &[0.0], 0), Reference::NotSmooth);
    let away = |p: &[f64]| Ok(if p[0] > 0.5 { 1.0 } else { 0.0 } + p[0]);
    assert!(matches!(reference(&away, &[0.0], 0), Reference::Smooth(..)));
}

#[test]
fn flatten_keeps_parameter_order() {
    let g = (1.0, vec![2.0, 3.0], [4.0, 5.0]);
    assert_eq!(vec_of(g), vec![1.0, 2.0, 3.0, 4.0, 5.0]);
    let r: Result<(f64, [f64; 2]), String> = Ok((0.5, [1.0, 2.0]));
    assert_eq!(r.grad_outcome(), Ok((0.5, vec![1.0, 2.0])));
}

/// The exact gradient of `smooth`, and `smooth`'s derivative along `v`.
fn smooth_grad(p: &[f64]) -> Result<(f64, Vec<f64>), String> {
    let c = (p[0] * p[1]).cos();
    Ok((smooth(p)?, vec![p[1] * c, p[0] * c + 3.0 * p[1].exp()]))
}

fn smooth_jvp(p: &[f64], v: &[f64]) -> Result<(f64, f64), String> {
    let (f, g) = smooth_grad(p)?;
    Ok((f, g[0] * v[0] + g[1] * v[1]))
}

/// The failure kinds a point with these versions reports.
fn kinds(grad: &GradFn<'_>, tape: Option<&GradFn<'_>>, jvp: &JvpFn<'_>) -> Vec<String> {
    let mut h = Harness::new("t", 1);
    let f = Fns {
        plain: &smooth,
        ad: &smooth,
        grad,
        tape,
        jvp,
        second: None,
    };
    let out = catch_kinds(|| h.point(&[0.3, 0.4], &f));
    assert_eq!(h.failed, !out.is_empty());
    out
}

/// The failure kinds `f` reports, in order.
fn catch_kinds(f: impl FnOnce()) -> Vec<String> {
    let mut out = Vec::new();
    KINDS.with(|k| k.borrow_mut().clear());
    f();
    KINDS.with(|k| out.extend(k.borrow().iter().cloned()));
    out
}

#[test]
fn a_wrong_gradient_is_reported() {
    let wrong = |p: &[f64]| Ok((smooth(p)?, vec![0.0, 0.0]));
    let k = kinds(&wrong, Some(&smooth_grad), &smooth_jvp);
    assert!(k.contains(&"gradient".to_string()), "{k:?}");
    assert!(k.contains(&"paths".to_string()), "{k:?}");
    assert!(kinds(&smooth_grad, Some(&smooth_grad), &smooth_jvp).is_empty());
    let mut h = Harness::new("t", 1);
    let f = Fns {
        plain: &smooth,
        ad: &smooth,
        grad: &smooth_grad,
        tape: Some(&smooth_grad),
        jvp: &smooth_jvp,
        second: None,
    };
    h.point(&[0.3, 0.4], &f);
    assert_eq!((h.checked, h.paths, h.jvps), (2, 1, 2));
}

#[test]
fn adjoint_and_tape_disagreeing_is_reported_where_fd_is_silent() {
    // A disagreement far below the finite differences' tolerance: only `paths` sees it
    // (forward mode agrees with the tape, so `_jvp` is not blamed).
    let off = |p: &[f64]| {
        let (v, mut g) = smooth_grad(p)?;
        g[1] *= 1.0 + 1e-7;
        Ok((v, g))
    };
    assert_eq!(kinds(&off, Some(&smooth_grad), &smooth_jvp), ["paths"]);
    // Without the twin, forward mode disagreeing with `_grad` is reported.
    assert_eq!(kinds(&off, None, &smooth_jvp), ["jvp"]);
    let panics = |_: &[f64]| -> Result<(f64, Vec<f64>), String> { panic!("tape") };
    assert_eq!(
        kinds(&smooth_grad, Some(&panics), &smooth_jvp),
        ["tape-panic"]
    );
}

#[test]
fn forward_mode_is_compared_with_reverse_mode() {
    let wrong = |p: &[f64], v: &[f64]| Ok((smooth(p)?, 2.0 * v[0]));
    assert_eq!(
        kinds(&smooth_grad, Some(&smooth_grad), &wrong),
        ["jvp", "jvp"]
    );
    let value = |p: &[f64], _: &[f64]| Ok((smooth(p)? + 1.0, 0.0));
    assert_eq!(kinds(&smooth_grad, None, &value), ["jvp-value"]);
    // With no twin, forward mode is compared with `_grad` alone.
    assert!(kinds(&smooth_grad, None, &smooth_jvp).is_empty());
}

/// The exact Hessian of `smooth`.
fn smooth_hessian(p: &[f64]) -> Result<Hess, String> {
    let (v, g) = smooth_grad(p)?;
    let (c, s) = ((p[0] * p[1]).cos(), (p[0] * p[1]).sin());
    let h01 = c - p[0] * p[1] * s;
    let h = vec![
        vec![-p[1] * p[1] * s, h01],
        vec![h01, -p[0] * p[0] * s + 3.0 * p[1].exp()],
    ];
    Ok((v, g, h))
}

fn smooth_hvp(p: &[f64], d: &[f64]) -> Result<(f64, Vec<f64>), String> {
    let (v, _, h) = smooth_hessian(p)?;
    Ok((v, h.iter().map(|r| r[0] * d[0] + r[1] * d[1]).collect()))
}

fn second_kinds(hessian: &HessFn<'_>, hvp: &HvpFn<'_>, twin: &HessFn<'_>) -> (Vec<String>, usize) {
    let mut h = Harness::new("t", 1);
    let f = Fns {
        plain: &smooth,
        ad: &smooth,
        grad: &smooth_grad,
        tape: Some(&smooth_grad),
        jvp: &smooth_jvp,
        second: Some(Second { hessian, hvp, twin }),
    };
    let out = catch_kinds(|| h.point(&[0.3, 0.4], &f));
    (out, h.hessians)
}

#[test]
fn second_order_items_are_compared_with_finite_differences_and_each_other() {
    let (k, n) = second_kinds(&smooth_hessian, &smooth_hvp, &smooth_hessian);
    assert!(k.is_empty(), "{k:?}");
    assert_eq!(n, 4, "both triangles");
    // One entry off by 1e-4: finite differences of the gradient and the other path see
    // it; `_hvp` (right) disagrees with the wrong column.
    let off = |p: &[f64]| {
        let (v, g, mut h) = smooth_hessian(p)?;
        h[1][0] *= 1.0 + 1e-4;
        Ok((v, g, h))
    };
    let (k, _) = second_kinds(&off, &smooth_hvp, &smooth_hessian);
    for want in ["hessian-paths", "hvp", "hessian"] {
        assert!(k.contains(&want.to_string()), "{want}: {k:?}");
    }
    // A disagreement below the finite differences' reach: the other path sees it.
    let tiny = |p: &[f64]| {
        let (v, g, mut h) = smooth_hessian(p)?;
        h[1][1] *= 1.0 + 1e-7;
        Ok((v, g, h))
    };
    let (k, _) = second_kinds(&smooth_hessian, &smooth_hvp, &tiny);
    assert_eq!(k, ["hessian-paths"]);
}
