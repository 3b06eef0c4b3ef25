//! nalgebra's own algorithms on `Var` matrices (simba's `RealField` for `Var`): Cholesky,
//! LU, QR, solves and determinants compile on `DMatrix<Var>` and `SMatrix<Var, ..>`, and
//! their gradients, recorded scalar by scalar, match closed forms and finite differences.

mod runtime_support;

use fazang::prelude::*;
use nalgebra::{DMatrix, DVector, Matrix3, SMatrix, Vector3};
use runtime_support::{assert_all_close, assert_close, fd_grad};

/// A symmetric positive definite n×n matrix (column-major), well conditioned.
fn spd(n: usize) -> Vec<f64> {
    let b = DMatrix::from_fn(n, n, |i, j| ((i * 7 + j * 3) % 5) as f64 * 0.3 - 0.4);
    let a = &b * b.transpose() + DMatrix::identity(n, n) * n as f64;
    a.as_slice().to_vec()
}

#[test]
fn log_determinant_through_lu_has_gradient_inverse_transpose() {
    let n = 4;
    let a: Vec<f64> = (0..n * n)
        .map(|k| ((k * 5 + 1) % 7) as f64 - 2.5 + if k % (n + 1) == 0 { 6.0 } else { 0.0 })
        .collect();
    let (v, g) = gradient(
        |x| DMatrix::from_column_slice(n, n, x).determinant().abs().ln(),
        &a,
    );
    let am = DMatrix::from_column_slice(n, n, &a);
    assert_close(v, am.determinant().abs().ln(), 1e-13, "value");
    let want = am.try_inverse().unwrap().transpose();
    assert_all_close(&g, want.as_slice(), 1e-12, "d ln|det A| / dA = A^-T");
}

#[test]
fn cholesky_gradient_matches_finite_differences() {
    let n = 5;
    let a = spd(n);
    // f(A) = Σ w_ij L_ij + ln det via the factor: reads the lower triangle only.
    let f = |x: &[Var]| {
        let l = DMatrix::from_column_slice(n, n, x)
            .cholesky()
            .expect("SPD")
            .unpack();
        let mut s = Var::constant(0.0);
        for j in 0..n {
            for i in j..n {
                s += l[(i, j)] * ((i + 2 * j) as f64 * 0.1 + 0.3);
            }
        }
        s
    };
    let f64f = |x: &[f64]| {
        let l = DMatrix::from_column_slice(n, n, x)
            .cholesky()
            .expect("SPD")
            .unpack();
        let mut s = 0.0;
        for j in 0..n {
            for i in j..n {
                s += l[(i, j)] * ((i + 2 * j) as f64 * 0.1 + 0.3);
            }
        }
        s
    };
    let (v, g) = gradient(f, &a);
    assert_close(v, f64f(&a), 1e-14, "value");
    assert_all_close(&g, &fd_grad(f64f, &a), 1e-8, "gradient");
    // nalgebra reads the lower triangle: the strict upper one gets no gradient.
    for j in 1..n {
        for i in 0..j {
            assert_eq!(g[i + j * n], 0.0, "upper ({i}, {j})");
        }
    }
}

#[test]
fn solves_have_the_adjoint_of_a_linear_system() {
    // f = cᵀ A⁻¹ b: df/db = A⁻ᵀ c, df/dA = -(A⁻ᵀ c) xᵀ with x = A⁻¹ b.
    let n = 4;
    let a = spd(n);
    let b = [1.0, -2.0, 0.5, 3.0];
    let c = [0.3, 0.1, -0.7, 2.0];
    let mut x0 = a.clone();
    x0.extend_from_slice(&b);
    for method in ["lu", "qr", "cholesky"] {
        let (v, g) = gradient(
            |p| {
                let am = DMatrix::from_column_slice(n, n, &p[..n * n]);
                let bv = DVector::from_column_slice(&p[n * n..]);
                let x = match method {
                    "lu" => am.lu().solve(&bv).unwrap(),
                    "qr" => am.qr().solve(&bv).unwrap(),
                    _ => am.cholesky().unwrap().solve(&bv),
                };
                x.iter().zip(c).map(|(xi, ci)| *xi * ci).sum()
            },
            &x0,
        );
        let am = DMatrix::from_column_slice(n, n, &a);
        let x = am
            .clone()
            .lu()
            .solve(&DVector::from_column_slice(&b))
            .unwrap();
        let lam = am
            .transpose()
            .lu()
            .solve(&DVector::from_column_slice(&c))
            .unwrap();
        assert_close(v, x.dot(&DVector::from_column_slice(&c)), 1e-13, method);
        assert_all_close(
            &g[n * n..],
            lam.as_slice(),
            1e-12,
            &format!("{method}: d/db"),
        );
        let da = -(&lam * x.transpose());
        if method == "cholesky" {
            // Only the lower triangle is read: off-diagonal entries collect both halves.
            for j in 0..n {
                for i in 0..n {
                    let want = match i.cmp(&j) {
                        std::cmp::Ordering::Less => 0.0,
                        std::cmp::Ordering::Equal => da[(i, j)],
                        std::cmp::Ordering::Greater => da[(i, j)] + da[(j, i)],
                    };
                    assert_close(
                        g[i + j * n],
                        want,
                        1e-12,
                        &format!("cholesky: d/dA({i},{j})"),
                    );
                }
            }
        } else {
            assert_all_close(
                &g[..n * n],
                da.as_slice(),
                1e-12,
                &format!("{method}: d/dA"),
            );
        }
    }
}

#[test]
fn qr_and_inverse_gradients_match_finite_differences() {
    let n = 3;
    let a = [2.0, 0.5, -1.0, 1.0, 3.0, 0.2, -0.3, 0.7, 1.5];
    let f = |x: &[f64]| {
        let m = DMatrix::from_column_slice(n, n, x);
        m.clone()
            .qr()
            .r()
            .diagonal()
            .iter()
            .map(|d| d.abs().ln())
            .sum::<f64>()
            + m.try_inverse().unwrap().sum()
    };
    let (v, g) = gradient(
        |x| {
            let m = DMatrix::from_column_slice(n, n, x);
            m.clone()
                .qr()
                .r()
                .diagonal()
                .iter()
                .map(|d| d.abs().ln())
                .sum::<Var>()
                + m.try_inverse().unwrap().sum()
        },
        &a,
    );
    assert_close(v, f(&a), 1e-13, "value");
    assert_all_close(&g, &fd_grad(f, &a), 1e-8, "gradient");
}

#[test]
fn static_matrices_work_too() {
    // SMatrix<Var, 3, 3>: quadratic form xᵀ A x with A symmetric, gradient 2 A x.
    let a = Matrix3::new(4.0, 1.0, 0.5, 1.0, 3.0, 0.2, 0.5, 0.2, 2.0);
    let x0 = [0.3, -1.2, 2.0];
    let (v, g) = gradient(
        |x| {
            let am: SMatrix<Var, 3, 3> = a.map(Var::constant);
            let xv = Vector3::new(x[0], x[1], x[2]);
            let chol = am.cholesky().unwrap();
            (xv.transpose() * am * xv)[(0, 0)] + chol.determinant().ln()
        },
        &x0,
    );
    let xv = Vector3::from_column_slice(&x0);
    assert_close(
        v,
        (xv.transpose() * a * xv)[(0, 0)] + a.determinant().ln(),
        1e-13,
        "value",
    );
    assert_all_close(&g, (2.0 * a * xv).as_slice(), 1e-13, "gradient");
}
