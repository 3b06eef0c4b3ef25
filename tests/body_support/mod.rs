//! Finite differences for the body-language tests: the independent truth every gradient
//! is checked against.

#![allow(dead_code)]

/// Central differences with one Richardson step (error O(h⁴)) of `f` at `x`.
pub fn fd_grad(f: impl Fn(&[f64]) -> f64, x: &[f64]) -> Vec<f64> {
    (0..x.len())
        .map(|i| {
            let d = |h: f64| {
                let (mut a, mut b) = (x.to_vec(), x.to_vec());
                a[i] += h;
                b[i] -= h;
                (f(&a) - f(&b)) / (2.0 * h)
            };
            let h = 1e-3 * x[i].abs().max(1.0);
            (4.0 * d(h / 2.0) - d(h)) / 3.0
        })
        .collect()
}

/// Rows `d f_i / d x_j` by [`fd_grad`] of each output.
pub fn fd_jacobian(f: impl Fn(&[f64]) -> Vec<f64>, x: &[f64]) -> Vec<Vec<f64>> {
    let m = f(x).len();
    (0..m).map(|i| fd_grad(|v| f(v)[i], x)).collect()
}

/// `|a - b| <= tol * max(1, |b|)` elementwise, with a message naming the entry.
#[track_caller]
pub fn assert_close(a: &[f64], b: &[f64], tol: f64) {
    assert_eq!(a.len(), b.len(), "lengths differ: {a:?} vs {b:?}");
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        assert!(
            (x - y).abs() <= tol * y.abs().max(1.0),
            "entry {i}: {x} vs {y}\n  got  {a:?}\n  want {b:?}"
        );
    }
}

/// Checks a `#[differentiate]` function of one slice: it has adjoint code (naming the
/// hidden `__name_adjoint` fails to compile otherwise), its value is the primal's, its
/// gradient agrees with finite differences and the tape twin, and its Hessian with
/// finite differences of the gradient.
#[allow(unused_macros)]
macro_rules! check_grad_hessian {
    ($f:ident, $grad:ident, $tape:ident, $adj:ident, $hess:ident, $x:expr) => {{
        use $crate::body_support::{assert_close, fd_grad};
        let _adjoint_code = $adj;
        let x: Vec<f64> = $x;
        let (v, g) = $grad(&x);
        assert_eq!(v, $f(&x), "value");
        assert_close(&g, &fd_grad(|x| $f(x), &x), 1e-7);
        let (vt, gt) = $tape(&x);
        assert_eq!(v, vt);
        assert_close(&g, &gt, 1e-12);
        let (_, hg, h) = $hess(&x);
        assert_close(&hg, &g, 1e-12);
        for (i, row) in h.iter().enumerate() {
            assert_close(row, &fd_grad(|x| $grad(x).1[i], &x), 1e-6);
        }
    }};
}
#[allow(unused_imports)]
pub(crate) use check_grad_hessian;
