//! nalgebra inside `#[differentiate]` bodies, written as with nalgebra on `f64`: a
//! multivariate normal log density with `DMatrix::from_fn`, `.cholesky()`,
//! `solve_lower_triangular` and `y - &mu` (a data vector minus an active one), the same
//! density with `fazang::linalg`'s fused operations, and the log-determinant.
//!
//! Checks: the primal against `multi_normal_lpdf`; `_grad` against the closed forms
//! (∂/∂μ = Σ⁻¹(y − μ), ∂/∂Σ = ½(Σ⁻¹ r rᵀ Σ⁻¹ − Σ⁻¹) read from the lower triangle, the
//! log-determinant's Σ⁻¹) and finite differences; `_hessian` against the closed form
//! −Σ⁻¹ of the μ block and finite differences of the gradient; `_jvp` and `_hvp` against
//! the gradient and the Hessian; and what the tape records.
//!
//! The GP and regression models are in `nalgebra_body_models.rs`.

use fazang::linalg::{cholesky, log_determinant_spd, solve_lower_triangular};
use fazang::prelude::*;
use nalgebra::{DMatrix, DVector};
use std::f64::consts::PI;

mod program_support;
use program_support::*;

/// ln N(y | μ, Σ), Σ given row-major, with nalgebra's own algorithms.
#[differentiate(wrt(mu, sigma))]
fn mvn_lpdf(y: &[f64], mu: &[f64], sigma: &[f64]) -> f64 {
    let n = y.len();
    let s = DMatrix::from_fn(n, n, |i, j| sigma[i * n + j]);
    let chol = s.cholesky().expect("positive definite");
    let y = DVector::from_column_slice(y);
    let mu = DVector::from_column_slice(mu);
    let z = chol
        .l()
        .solve_lower_triangular(&(y - &mu))
        .expect("nonsingular");
    let log_det: f64 = chol.l().diagonal().iter().map(|d| d.ln()).sum();
    -0.5 * z.norm_squared() - log_det - 0.5 * n as f64 * (2.0 * PI).ln()
}

/// The same density with `fazang::linalg`: one fused operation per factorisation and
/// solve on the tape.
#[differentiate(wrt(mu, sigma))]
fn mvn_lpdf_fused(y: &[f64], mu: &[f64], sigma: &[f64]) -> f64 {
    let n = y.len();
    let s = DMatrix::from_fn(n, n, |i, j| sigma[i * n + j]);
    let l = cholesky(&s).expect("positive definite");
    let r = DVector::from_column_slice(y) - DVector::from_column_slice(mu);
    let z = solve_lower_triangular(&l, &r).expect("nonsingular");
    let log_det: f64 = l.diagonal().iter().map(|d| d.ln()).sum();
    -0.5 * z.dot(&z) - log_det - 0.5 * n as f64 * (2.0 * PI).ln()
}

/// ln det Σ, through `fazang::linalg`.
#[differentiate]
fn log_det(sigma: &[f64]) -> f64 {
    let n = (sigma.len() as f64).sqrt() as usize;
    let s = DMatrix::from_row_slice(n, n, sigma);
    log_determinant_spd(&s).expect("positive definite")
}

/// ln |det A| through nalgebra's LU (the whole matrix is read).
#[differentiate]
fn log_abs_det_lu(a: &[f64]) -> f64 {
    let n = (a.len() as f64).sqrt() as usize;
    DMatrix::from_row_slice(n, n, a)
        .lu()
        .determinant()
        .abs()
        .ln()
}

const N: usize = 4;

fn data() -> (Vec<f64>, Vec<f64>, DMatrix<f64>) {
    let y = vec![0.3, -0.2, 1.1, 0.4];
    let mu = vec![0.1, 0.2, 0.5, -0.3];
    let b = DMatrix::from_fn(N, N, |i, j| ((i * 3 + j * 5) % 7) as f64 * 0.2 - 0.5);
    let sigma = &b * b.transpose() + DMatrix::identity(N, N);
    (y, mu, sigma)
}

/// Σ flattened row-major.
fn flat(m: &DMatrix<f64>) -> Vec<f64> {
    m.transpose().as_slice().to_vec()
}

/// The gradient of ln N(y | μ, Σ) in μ and in the row-major entries of Σ, as a function
/// reading Σ from its lower triangle gets it: the symmetric gradient G = ½(Σ⁻¹ r rᵀ Σ⁻¹ −
/// Σ⁻¹) on the diagonal, 2G below it, 0 above.
fn closed_form_gradient(y: &[f64], mu: &[f64], sigma: &DMatrix<f64>) -> (Vec<f64>, Vec<f64>) {
    let inv = sigma.clone().try_inverse().unwrap();
    let r = DVector::from_column_slice(y) - DVector::from_column_slice(mu);
    let a = &inv * &r;
    let g = (&a * a.transpose() - &inv) * 0.5;
    let lower = DMatrix::from_fn(N, N, |i, j| match i.cmp(&j) {
        std::cmp::Ordering::Equal => g[(i, j)],
        std::cmp::Ordering::Greater => 2.0 * g[(i, j)],
        std::cmp::Ordering::Less => 0.0,
    });
    (a.as_slice().to_vec(), flat(&lower))
}

fn inputs() -> Vec<f64> {
    let (_, mu, sigma) = data();
    let mut x = mu;
    x.extend(flat(&sigma));
    x
}

#[test]
fn mvn_primal_is_the_multi_normal_density() {
    let (y, mu, sigma) = data();
    let rows: Vec<Vec<f64>> = (0..N)
        .map(|i| sigma.row(i).iter().copied().collect())
        .collect();
    let want = multi_normal_lpdf(&y, &mu, &rows).unwrap();
    assert_close(mvn_lpdf(&y, &mu, &flat(&sigma)), want, 1e-13, "nalgebra");
    assert_close(mvn_lpdf_fused(&y, &mu, &flat(&sigma)), want, 1e-13, "fused");
}

#[test]
fn mvn_gradient_is_the_closed_form() {
    let (y, mu, sigma) = data();
    let (gmu, gsigma) = closed_form_gradient(&y, &mu, &sigma);
    for (what, (v, (dmu, dsigma))) in [
        ("nalgebra", mvn_lpdf_grad(&y, &mu, &flat(&sigma))),
        ("fused", mvn_lpdf_fused_grad(&y, &mu, &flat(&sigma))),
    ] {
        assert_close(v, mvn_lpdf(&y, &mu, &flat(&sigma)), 1e-14, what);
        assert_all_close(&dmu, &gmu, 1e-12, &format!("{what}: d/dmu"));
        assert_all_close(&dsigma, &gsigma, 1e-12, &format!("{what}: d/dsigma"));
    }
}

#[test]
fn mvn_gradient_matches_finite_differences() {
    let (y, _, _) = data();
    let x = inputs();
    let f = |x: &[f64]| mvn_lpdf(&y, &x[..N], &x[N..]);
    let (_, (dmu, dsigma)) = mvn_lpdf_fused_grad(&y, &x[..N], &x[N..]);
    let g: Vec<f64> = dmu.into_iter().chain(dsigma).collect();
    assert_all_close(&g, &fd_gradient(f, &x), 1e-7, "fused vs finite differences");
}

#[test]
fn log_determinant_gradient_is_the_inverse() {
    let (_, _, sigma) = data();
    let inv = sigma.clone().try_inverse().unwrap();
    // Read from the lower triangle: Σ⁻¹ on the diagonal, both halves below it.
    let want = flat(&DMatrix::from_fn(N, N, |i, j| match i.cmp(&j) {
        std::cmp::Ordering::Equal => inv[(i, j)],
        std::cmp::Ordering::Greater => 2.0 * inv[(i, j)],
        std::cmp::Ordering::Less => 0.0,
    }));
    let (v, g) = log_det_grad(&flat(&sigma));
    assert_close(v, sigma.determinant().ln(), 1e-13, "ln det");
    assert_all_close(&g, &want, 1e-12, "d ln det / dSigma");
    // Through LU every entry is read: the gradient is A⁻ᵀ, row-major.
    let (v, g) = log_abs_det_lu_grad(&flat(&sigma));
    assert_close(v, sigma.determinant().ln(), 1e-13, "ln |det| by LU");
    assert_all_close(&g, &flat(&inv.transpose()), 1e-12, "d ln|det| / dA");
}

#[test]
fn mvn_hessian_has_minus_the_precision_in_mu() {
    let (y, mu, sigma) = data();
    let inv = sigma.clone().try_inverse().unwrap();
    for (what, (v, (gmu, _), h)) in [
        ("nalgebra", mvn_lpdf_hessian(&y, &mu, &flat(&sigma))),
        ("fused", mvn_lpdf_fused_hessian(&y, &mu, &flat(&sigma))),
    ] {
        assert_close(v, mvn_lpdf(&y, &mu, &flat(&sigma)), 1e-14, what);
        let (want, _) = closed_form_gradient(&y, &mu, &sigma);
        assert_all_close(&gmu, &want, 1e-12, &format!("{what}: gradient"));
        for i in 0..N {
            let want: Vec<f64> = (0..N).map(|j| -inv[(i, j)]).collect();
            assert_all_close(&h[i][..N], &want, 1e-12, &format!("{what}: H[{i}]"));
        }
    }
}

#[test]
fn mvn_hessian_matches_differences_of_the_gradient() {
    let (y, _, _) = data();
    let x = inputs();
    let grad = |x: &[f64]| {
        let (_, (a, b)) = mvn_lpdf_grad(&y, &x[..N], &x[N..]);
        a.into_iter().chain(b).collect::<Vec<f64>>()
    };
    let fd = fd_jacobian(grad, &x);
    let (_, _, h) = mvn_lpdf_hessian(&y, &x[..N], &x[N..]);
    assert_rows_close(&h, &fd, 1e-6, "nalgebra Hessian");
    let (_, _, hf) = mvn_lpdf_fused_hessian(&y, &x[..N], &x[N..]);
    assert_rows_close(&hf, &h, 1e-11, "fused Hessian vs nalgebra's");
}

#[test]
fn mvn_jvp_and_hvp_agree_with_gradient_and_hessian() {
    let (y, _, _) = data();
    let x = inputs();
    let v: Vec<f64> = (0..x.len()).map(|i| 0.3 - 0.07 * i as f64).collect();
    let (_, (a, b)) = mvn_lpdf_grad(&y, &x[..N], &x[N..]);
    let g: Vec<f64> = a.into_iter().chain(b).collect();
    let gv: f64 = g.iter().zip(&v).map(|(g, v)| g * v).sum();
    let (_, _, h) = mvn_lpdf_hessian(&y, &x[..N], &x[N..]);
    let hv: Vec<f64> = h
        .iter()
        .map(|row| row.iter().zip(&v).map(|(h, v)| h * v).sum())
        .collect();
    for (what, (val, d)) in [
        ("nalgebra", mvn_lpdf_jvp(&y, &x[..N], &x[N..], &v)),
        ("fused", mvn_lpdf_fused_jvp(&y, &x[..N], &x[N..], &v)),
    ] {
        assert_close(val, mvn_lpdf(&y, &x[..N], &x[N..]), 1e-13, what);
        assert_close(d, gv, 1e-12, &format!("{what}: jvp"));
    }
    let (_, hvp) = mvn_lpdf_fused_hvp(&y, &x[..N], &x[N..], &v);
    assert_all_close(&hvp, &hv, 1e-11, "fused hvp");
}

#[test]
fn fused_body_records_one_operation_per_factorisation_and_solve() {
    let (y, mu, sigma) = data();
    let sigma = flat(&sigma);
    // The generic functions, called on `Var` as `_grad` calls them.
    let count = |f: &dyn Fn(&[Var], &[Var]) -> Var| {
        nested(|| {
            let mu: Vec<Var> = mu.iter().map(|&m| Var::new(m)).collect();
            let s: Vec<Var> = sigma.iter().map(|&s| Var::new(s)).collect();
            let before = tape_stats();
            let _ = f(&mu, &s);
            let after = tape_stats();
            (
                after.nodes - before.nodes,
                after.callbacks - before.callbacks,
            )
        })
    };
    let (fused_nodes, fused_callbacks) = count(&|m, s| mvn_lpdf_fused(&y, m, s));
    let (taped_nodes, taped_callbacks) = count(&|m, s| mvn_lpdf(&y, m, s));
    // cholesky and the solve: one lazy operation each.
    assert_eq!((fused_callbacks, taped_callbacks), (2, 0));
    assert!(
        fused_nodes < taped_nodes / 2,
        "fused {fused_nodes} nodes, nalgebra taped {taped_nodes}"
    );
}

#[test]
fn not_positive_definite_is_reported_on_every_path() {
    let (y, mu, _) = data();
    let mut bad = vec![0.0; N * N];
    bad[0] = -1.0;
    let r = std::panic::catch_unwind(|| mvn_lpdf_fused_grad(&y, &mu, &bad));
    let msg = panic_message(r.unwrap_err());
    assert!(msg.contains("positive definite"), "{msg}");
}

fn panic_message(e: Box<dyn std::any::Any + Send>) -> String {
    e.downcast_ref::<String>()
        .cloned()
        .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}
