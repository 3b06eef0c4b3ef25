//! `fazang::linalg`: each fused operation against the same computation taped scalar by
//! scalar through nalgebra, and against finite differences; mixed `f64`/`Var` arguments,
//! static sizes, errors, and the size of what is recorded.

mod runtime_support;

use fazang::linalg::{
    cholesky, log_determinant, log_determinant_spd, multiply, quad_form, quad_form_vec,
    solve_lower_triangular, LinalgError,
};
use fazang::prelude::*;
use nalgebra::{DMatrix, DVector, Matrix2, Matrix3, SMatrix, Vector3};
use runtime_support::{assert_all_close, assert_close, fd_grad};

/// A well-conditioned symmetric positive definite n×n matrix.
fn spd(n: usize) -> DMatrix<f64> {
    let b = DMatrix::from_fn(n, n, |i, j| ((i * 7 + j * 3) % 5) as f64 * 0.3 - 0.4);
    &b * b.transpose() + DMatrix::identity(n, n) * n as f64
}

/// A general n×m matrix of moderate entries.
fn general(n: usize, m: usize, seed: usize) -> DMatrix<f64> {
    DMatrix::from_fn(n, m, |i, j| {
        (((i + 1) * (j + 2) * (seed + 3)) % 11) as f64 * 0.2 - 1.0
    })
}

/// Fixed weights to turn a matrix result into a scalar.
fn weights(n: usize, m: usize) -> DMatrix<f64> {
    DMatrix::from_fn(n, m, |i, j| 0.3 + 0.1 * i as f64 - 0.05 * j as f64)
}

fn weighted<T: fazang::linalg::Entry<Var>>(m: &DMatrix<T>) -> Var {
    let w = weights(m.nrows(), m.ncols());
    m.iter()
        .zip(w.iter())
        .map(|(x, w)| x.to_scalar() * *w)
        .sum()
}

/// Gradient of `fused` and of `taped` at `x`, which must agree, and against finite
/// differences of `plain`.
fn check(
    what: &str,
    x: &[f64],
    fused: impl Fn(&[Var]) -> Var,
    taped: impl Fn(&[Var]) -> Var,
    plain: impl Fn(&[f64]) -> f64,
) {
    let (vf, gf) = gradient(fused, x);
    let (vt, gt) = gradient(taped, x);
    assert_close(vf, vt, 1e-12, &format!("{what}: value"));
    assert_close(vf, plain(x), 1e-12, &format!("{what}: value vs f64"));
    assert_all_close(&gf, &gt, 1e-10, &format!("{what}: fused vs taped"));
    assert_all_close(
        &gf,
        &fd_grad(plain, x),
        1e-7,
        &format!("{what}: fused vs finite differences"),
    );
}

#[test]
fn multiply_of_two_active_matrices() {
    let (m, k, n) = (3, 4, 2);
    let mut x = general(m, k, 1).as_slice().to_vec();
    x.extend_from_slice(general(k, n, 2).as_slice());
    let split = |x: &[Var]| {
        (
            DMatrix::from_column_slice(m, k, &x[..m * k]),
            DMatrix::from_column_slice(k, n, &x[m * k..]),
        )
    };
    check(
        "multiply",
        &x,
        |x| {
            let (a, b) = split(x);
            weighted(&multiply(&a, &b))
        },
        |x| {
            let (a, b) = split(x);
            weighted(&(a * b))
        },
        |x| {
            let a = DMatrix::from_column_slice(m, k, &x[..m * k]);
            let b = DMatrix::from_column_slice(k, n, &x[m * k..]);
            weighted(&(a * b)).val()
        },
    );
}

#[test]
fn multiply_mixes_data_and_active_and_keeps_static_shapes() {
    let w = general(3, 3, 4);
    let x0 = [0.5, -1.0, 2.0];
    // data × active vector
    let (v1, g1) = gradient(|x| multiply(&w, &DVector::from_column_slice(x)).sum(), &x0);
    // active row × data
    let (v2, g2) = gradient(
        |x| multiply(&DMatrix::from_row_slice(1, 3, x), &w).sum(),
        &x0,
    );
    let xv = DVector::from_column_slice(&x0);
    assert_close(v1, (&w * &xv).sum(), 1e-14, "W x");
    assert_close(v2, (xv.transpose() * &w).sum(), 1e-14, "xᵀ W");
    let col_sums: Vec<f64> = (0..3).map(|j| w.column(j).sum()).collect();
    let row_sums: Vec<f64> = (0..3).map(|i| w.row(i).sum()).collect();
    assert_all_close(&g1, &col_sums, 1e-14, "d/dx Σ W x");
    assert_all_close(&g2, &row_sums, 1e-14, "d/dx Σ xᵀ W");
    // Static sizes come back static.
    let (_, g3) = gradient(
        |x| {
            let a: Matrix3<Var> = Matrix3::from_column_slice(&[
                x[0],
                x[1],
                x[2],
                1.0.into(),
                0.0.into(),
                2.0.into(),
                x[0],
                x[0],
                x[1],
            ]);
            let y: Vector3<Var> = multiply(&a, &Vector3::new(1.0, 2.0, 3.0));
            y.sum()
        },
        &x0,
    );
    // Σ A v with A's columns (x0, x1, x2), (1, 0, 2), (x0, x0, x1) and v = (1, 2, 3)
    assert_all_close(&g3, &[1.0 + 3.0 + 3.0, 1.0 + 3.0, 1.0], 1e-15, "static");
    // Data only: data (`f64`) comes back, nothing recorded.
    let before = tape_stats();
    let c: DMatrix<f64> = multiply(&w, &w);
    assert_eq!(c, &w * &w);
    assert_eq!(tape_stats(), before);
}

#[test]
fn cholesky_factor_matches_nalgebra_taped() {
    let n = 6;
    let x = spd(n).as_slice().to_vec();
    check(
        "cholesky",
        &x,
        |x| weighted(&cholesky(&DMatrix::from_column_slice(n, n, x)).unwrap()),
        |x| {
            weighted(
                &DMatrix::from_column_slice(n, n, x)
                    .cholesky()
                    .unwrap()
                    .unpack(),
            )
        },
        |x| {
            weighted(
                &DMatrix::from_column_slice(n, n, x)
                    .cholesky()
                    .unwrap()
                    .unpack(),
            )
            .val()
        },
    );
    // The factor itself is nalgebra's, and its upper triangle constant zeros.
    let l = cholesky(&spd(n)).unwrap();
    let want = spd(n).cholesky().unwrap().unpack();
    assert_all_close(l.map(|v| v.val()).as_slice(), want.as_slice(), 1e-15, "L");
}

#[test]
fn solve_lower_triangular_with_active_factor_and_right_hand_side() {
    let n = 5;
    let l = spd(n).cholesky().unwrap().unpack();
    let b = general(n, 3, 5);
    let mut x = l.as_slice().to_vec();
    x.extend_from_slice(b.as_slice());
    let split = |x: &[Var]| {
        (
            DMatrix::from_column_slice(n, n, &x[..n * n]),
            DMatrix::from_column_slice(n, 3, &x[n * n..]),
        )
    };
    check(
        "solve_lower_triangular",
        &x,
        |x| {
            let (l, b) = split(x);
            weighted(&solve_lower_triangular(&l, &b).unwrap())
        },
        |x| {
            let (l, b) = split(x);
            weighted(&l.solve_lower_triangular(&b).unwrap())
        },
        |x| {
            let l = DMatrix::from_column_slice(n, n, &x[..n * n]);
            let b = DMatrix::from_column_slice(n, 3, &x[n * n..]);
            weighted(&l.solve_lower_triangular(&b).unwrap()).val()
        },
    );
}

#[test]
fn log_determinants_have_inverse_partials() {
    let n = 5;
    let a = general(n, n, 7) + DMatrix::identity(n, n) * 3.0;
    check(
        "log_determinant",
        a.as_slice(),
        |x| log_determinant(&DMatrix::from_column_slice(n, n, x)).unwrap(),
        |x| DMatrix::from_column_slice(n, n, x).determinant().abs().ln(),
        |x| DMatrix::from_column_slice(n, n, x).determinant().abs().ln(),
    );
    let s = spd(n);
    check(
        "log_determinant_spd",
        s.as_slice(),
        |x| log_determinant_spd(&DMatrix::from_column_slice(n, n, x)).unwrap(),
        |x| {
            DMatrix::from_column_slice(n, n, x)
                .cholesky()
                .unwrap()
                .determinant()
                .ln()
        },
        |x| {
            DMatrix::from_column_slice(n, n, x)
                .cholesky()
                .unwrap()
                .determinant()
                .ln()
        },
    );
}

#[test]
fn quadratic_forms() {
    let n = 4;
    let mut x = general(n, n, 8).as_slice().to_vec();
    x.extend_from_slice(general(n, 2, 9).as_slice());
    let split = |x: &[Var]| {
        (
            DMatrix::from_column_slice(n, n, &x[..n * n]),
            DMatrix::from_column_slice(n, 2, &x[n * n..]),
        )
    };
    check(
        "quad_form",
        &x,
        |x| {
            let (a, b) = split(x);
            weighted(&quad_form(&a, &b))
        },
        |x| {
            let (a, b) = split(x);
            weighted(&(b.transpose() * a * b))
        },
        |x| {
            let a = DMatrix::from_column_slice(n, n, &x[..n * n]);
            let b = DMatrix::from_column_slice(n, 2, &x[n * n..]);
            weighted(&(b.transpose() * a * b)).val()
        },
    );
    let x = &x[..n * n + n];
    let split = |x: &[Var]| {
        (
            DMatrix::from_column_slice(n, n, &x[..n * n]),
            DVector::from_column_slice(&x[n * n..]),
        )
    };
    check(
        "quad_form_vec",
        x,
        |x| {
            let (a, v) = split(x);
            quad_form_vec(&a, &v)
        },
        |x| {
            let (a, v) = split(x);
            (v.transpose() * a * v)[(0, 0)]
        },
        |x| {
            let a = DMatrix::from_column_slice(n, n, &x[..n * n]);
            let v = DVector::from_column_slice(&x[n * n..]);
            (v.transpose() * a * v)[(0, 0)]
        },
    );
    // Static 2×2 with a data matrix.
    let a = Matrix2::new(2.0, 1.0, 1.0, 3.0);
    let (v, g) = gradient(
        |x| quad_form(&a, &SMatrix::<Var, 2, 1>::new(x[0], x[1]))[(0, 0)],
        &[1.0, 2.0],
    );
    assert_eq!((v, g), (18.0, vec![8.0, 14.0]));
}

#[test]
fn fused_operations_record_one_node_or_one_callback() {
    let n = 20;
    let a = spd(n);
    let (fused, taped) = nested(|| {
        let av = a.map(Var::new);
        let before = tape_stats();
        let l = cholesky(&av).unwrap();
        let _ = log_determinant_spd(&av).unwrap();
        let _ = multiply(&l, &av);
        let fused = tape_stats();
        let _ = av.clone().cholesky().unwrap();
        let taped = tape_stats();
        (
            (
                fused.nodes - before.nodes,
                fused.callbacks - before.callbacks,
            ),
            taped.nodes - fused.nodes,
        )
    });
    // cholesky: one output node per lower entry and a callback; log_determinant_spd: one
    // node; multiply: one output node per entry and a callback.
    assert_eq!(fused, (n * (n + 1) / 2 + 1 + n * n, 2));
    assert!(
        taped > 2000,
        "nalgebra taped records a node per operation ({taped})"
    );
}

#[test]
fn bad_matrices_are_errors_and_bad_shapes_panic() {
    let not_pd = DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 2.0, 1.0]);
    assert_eq!(
        cholesky(&not_pd).unwrap_err(),
        LinalgError::NotPositiveDefinite {
            function: "cholesky"
        }
    );
    assert_eq!(
        log_determinant_spd(&not_pd).unwrap_err().to_string(),
        "log_determinant_spd: Matrix is not positive definite"
    );
    let singular = DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 2.0, 4.0]);
    assert_eq!(
        log_determinant(&singular).unwrap_err(),
        LinalgError::Singular {
            function: "log_determinant"
        }
    );
    let zero_diag = DMatrix::from_row_slice(2, 2, &[1.0, 0.0, 2.0, 0.0]);
    assert_eq!(
        solve_lower_triangular(&zero_diag, &DVector::from_element(2, 1.0))
            .unwrap_err()
            .to_string(),
        "solve_lower_triangular: Matrix is singular"
    );
    let r = std::panic::catch_unwind(|| {
        multiply(&DMatrix::<f64>::zeros(2, 3), &DMatrix::<f64>::zeros(2, 3))
    });
    let msg = runtime_support::panic_message(&*r.unwrap_err());
    assert!(
        msg.contains("linalg::multiply of a 2x3 and a 2x3 matrix"),
        "{msg}"
    );
    let r = std::panic::catch_unwind(|| cholesky(&DMatrix::<f64>::zeros(2, 3)));
    assert!(
        runtime_support::panic_message(&*r.unwrap_err()).contains("needs a square matrix, got 2x3")
    );
}
