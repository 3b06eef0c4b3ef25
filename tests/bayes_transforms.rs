//! The constraining transforms against independent truths: round trips through
//! `*_free`, the log-Jacobian each adds to `lp` against the log-determinant of a
//! finite-difference Jacobian, gradients (tape) and Hessians (forward-over-reverse)
//! against finite differences, accuracy at large |y|, and the `*_free` domain errors.

#[path = "support/close.rs"]
mod close;

use close::{assert_all_close, assert_close};
use fazang::prelude::*;
use fazang::{hessian, jvp};

/// A transform of the table, with its sizes and bounds.
#[derive(Clone, Copy, Debug)]
enum T {
    Lb(f64),
    Ub(f64),
    Lub(f64, f64),
    OffsetMultiplier(f64, f64),
    Simplex(usize),
    Ordered(usize),
    PositiveOrdered(usize),
    CholeskyCorr(usize),
    CholeskyCov(usize),
    Corr(usize),
    Cov(usize),
}

const ALL: [T; 15] = [
    T::Lb(0.0),
    T::Lb(-2.5),
    T::Ub(3.0),
    T::Lub(-1.0, 4.0),
    T::OffsetMultiplier(2.0, 0.5),
    T::Simplex(1),
    T::Simplex(4),
    T::Ordered(4),
    T::PositiveOrdered(3),
    T::CholeskyCorr(2),
    T::CholeskyCorr(4),
    T::CholeskyCov(3),
    T::Corr(3),
    T::Corr(4),
    T::Cov(3),
];

impl T {
    /// The number of unconstrained values.
    fn dim(self) -> usize {
        match self {
            T::Lb(_) | T::Ub(_) | T::Lub(..) | T::OffsetMultiplier(..) => 1,
            T::Simplex(n) | T::Ordered(n) | T::PositiveOrdered(n) => n,
            T::CholeskyCorr(k) | T::Corr(k) => k * (k - 1) / 2,
            T::CholeskyCov(k) | T::Cov(k) => k * (k + 1) / 2,
        }
    }

    /// The constrained value as rows (a vector is one row, a scalar 1 × 1).
    fn constrain<S: Real>(self, y: &[S], lp: &mut S) -> Vec<Vec<S>> {
        match self {
            T::Lb(lb) => vec![vec![lb_constrain(y[0], lb, lp)]],
            T::Ub(ub) => vec![vec![ub_constrain(y[0], ub, lp)]],
            T::Lub(lb, ub) => vec![vec![lub_constrain(y[0], lb, ub, lp)]],
            T::OffsetMultiplier(m, s) => vec![vec![offset_multiplier_constrain(y[0], m, s, lp)]],
            T::Simplex(_) => vec![simplex_constrain(y, lp)],
            T::Ordered(_) => vec![ordered_constrain(y, lp)],
            T::PositiveOrdered(_) => vec![positive_ordered_constrain(y, lp)],
            T::CholeskyCorr(k) => cholesky_corr_constrain(y, k, lp),
            T::CholeskyCov(k) => cholesky_cov_constrain(y, k, lp),
            T::Corr(k) => corr_matrix_constrain(y, k, lp),
            T::Cov(k) => cov_matrix_constrain(y, k, lp),
        }
    }

    /// The coordinates of the constrained set the Jacobian is taken in (DESIGN.md's
    /// table): all but the last of a simplex, the strictly lower entries of a correlation
    /// matrix or its factor, the lower entries of a covariance matrix or its factor.
    fn coords<S: Real>(self, x: &[Vec<S>]) -> Vec<S> {
        let lower = |strict: bool| {
            let mut c = Vec::new();
            for (i, row) in x.iter().enumerate() {
                let end = if strict { i } else { i + 1 };
                c.extend_from_slice(&row[..end]);
            }
            c
        };
        match self {
            T::Simplex(n) => x[0][..n].to_vec(),
            T::CholeskyCorr(_) | T::Corr(_) => lower(true),
            T::CholeskyCov(_) | T::Cov(_) => lower(false),
            _ => x[0].clone(),
        }
    }

    fn free(self, x: &[Vec<f64>]) -> Result<Vec<f64>, DomainError> {
        Ok(match self {
            T::Lb(lb) => vec![lb_free(x[0][0], lb)?],
            T::Ub(ub) => vec![ub_free(x[0][0], ub)?],
            T::Lub(lb, ub) => vec![lub_free(x[0][0], lb, ub)?],
            T::OffsetMultiplier(m, s) => vec![offset_multiplier_free(x[0][0], m, s)?],
            T::Simplex(_) => simplex_free(&x[0])?,
            T::Ordered(_) => ordered_free(&x[0])?,
            T::PositiveOrdered(_) => positive_ordered_free(&x[0])?,
            T::CholeskyCorr(_) => cholesky_corr_free(x)?,
            T::CholeskyCov(_) => cholesky_cov_free(x)?,
            T::Corr(_) => corr_matrix_free(x)?,
            T::Cov(_) => cov_matrix_free(x)?,
        })
    }

    /// The coordinates and the log-Jacobian at `y`, on `f64`.
    fn at(self, y: &[f64]) -> (Vec<f64>, f64) {
        let mut lp = 0.0;
        let x = self.constrain(y, &mut lp);
        (self.coords(&x), lp)
    }
}

/// Unconstrained points: a deterministic spread, `scale` wide.
fn points(n: usize, scale: f64) -> Vec<Vec<f64>> {
    (0..6)
        .map(|p| {
            (0..n)
                .map(|i| scale * ((i as f64 * 1.7 + p as f64 * 2.3).sin() + 0.1 * p as f64))
                .collect()
        })
        .collect()
}

/// ln |det a| by Gaussian elimination with partial pivoting.
fn log_abs_det(mut a: Vec<Vec<f64>>) -> f64 {
    let n = a.len();
    let mut s = 0.0;
    for c in 0..n {
        let p = (c..n)
            .max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))
            .unwrap();
        a.swap(c, p);
        let pivot = a[c].clone();
        s += pivot[c].abs().ln();
        for row in &mut a[c + 1..] {
            let f = row[c] / pivot[c];
            for (x, p) in row[c..].iter_mut().zip(&pivot[c..]) {
                *x -= f * p;
            }
        }
    }
    s
}

/// The Jacobian of the coordinates by central differences (five points).
fn fd_jacobian(t: T, y: &[f64]) -> Vec<Vec<f64>> {
    let n = y.len();
    let m = t.at(y).0.len();
    let mut jac = vec![vec![0.0; n]; m];
    for j in 0..n {
        let h = 1e-3 * y[j].abs().max(1.0);
        let at = |d: f64| {
            let mut z = y.to_vec();
            z[j] += d;
            t.at(&z).0
        };
        let (a, b, c, e) = (at(-2.0 * h), at(-h), at(h), at(2.0 * h));
        for i in 0..m {
            jac[i][j] = (a[i] - 8.0 * b[i] + 8.0 * c[i] - e[i]) / (12.0 * h);
        }
    }
    jac
}

#[test]
fn log_jacobians_are_log_determinants() {
    for t in ALL {
        for y in points(t.dim(), 1.0) {
            let (coords, lp) = t.at(&y);
            assert_eq!(coords.len(), y.len(), "{t:?}: a square Jacobian");
            let want = log_abs_det(fd_jacobian(t, &y));
            assert_close(lp, want, 1e-8, &format!("{t:?} at {y:?}: log-Jacobian"));
        }
    }
}

#[test]
fn round_trips() {
    for t in ALL {
        for y in points(t.dim(), 2.0) {
            let mut lp = 0.0;
            let x = t.constrain(&y, &mut lp);
            let back = t.free(&x).unwrap_or_else(|e| panic!("{t:?}: {e}"));
            assert_all_close(&back, &y, 1e-11, &format!("{t:?}: free(constrain(y))"));
            let again = t.constrain(&back, &mut lp);
            for (r, s) in again.iter().zip(&x) {
                assert_all_close(r, s, 1e-14, &format!("{t:?}: constrain(free(x))"));
            }
        }
    }
}

/// lp + Σ wᵢ xᵢ over the coordinates: every output and the log-Jacobian in one number.
fn scalarised<S: Real>(t: T, y: &[S]) -> S {
    let mut lp = S::from(0.0);
    let x = t.constrain(y, &mut lp);
    let c = t.coords(&x);
    c.iter()
        .enumerate()
        .fold(lp, |s, (i, v)| s + *v * (0.5 + 0.25 * i as f64))
}

fn fd_gradient(f: impl Fn(&[f64]) -> f64, x: &[f64]) -> Vec<f64> {
    (0..x.len())
        .map(|i| {
            let h = 1e-3 * x[i].abs().max(1.0);
            let at = |d: f64| {
                let mut z = x.to_vec();
                z[i] += d;
                f(&z)
            };
            (at(-2.0 * h) - 8.0 * at(-h) + 8.0 * at(h) - at(2.0 * h)) / (12.0 * h)
        })
        .collect()
}

#[test]
fn gradients_hessians_and_jvps() {
    for t in ALL {
        let y = &points(t.dim(), 0.8)[2];
        let (v, g) = gradient(|y| scalarised(t, y), y);
        assert_eq!(v, scalarised(t, y.as_slice()), "{t:?}: Var and f64 values");
        let fd = fd_gradient(|y| scalarised(t, y), y);
        assert_all_close(&g, &fd, 1e-8, &format!("{t:?}: gradient"));

        let (hv, hg, h) = hessian(|y| scalarised(t, y), y);
        assert_close(hv, v, 1e-15, &format!("{t:?}: Hessian's value"));
        assert_all_close(&hg, &g, 1e-14, &format!("{t:?}: Hessian's gradient"));
        for (i, hi) in h.iter().enumerate() {
            let row = fd_gradient(|z| gradient(|z| scalarised(t, z), z).1[i], y);
            assert_all_close(hi, &row, 1e-7, &format!("{t:?}: Hessian row {i}"));
        }

        let dir: Vec<f64> = (0..y.len()).map(|i| 1.0 - 0.3 * i as f64).collect();
        let (jv, dv) = jvp(|y| scalarised(t, y), y, &dir);
        let want: f64 = g.iter().zip(&dir).map(|(a, b)| a * b).sum();
        assert_close(jv, v, 1e-15, &format!("{t:?}: jvp value"));
        assert_close(dv, want, 1e-13, &format!("{t:?}: jvp"));
    }
}

#[test]
fn large_arguments_stay_accurate() {
    // A scale at y = 40: exactly e⁴⁰, and lp = 40.
    let mut lp = 0.0;
    assert_eq!(lb_constrain(40.0, 0.0, &mut lp), 40.0_f64.exp());
    assert_eq!(lp, 40.0);
    // A bounded value at y = ±40: the log-Jacobian ln σ(y) + ln σ(−y) = −|y| − 2 ln(1 + e^−|y|).
    for y in [40.0, -40.0, 800.0] {
        let mut lp = 0.0;
        let p = lub_constrain(y, 0.0, 1.0, &mut lp);
        let want = -f64::abs(y) - 2.0 * (-f64::abs(y)).exp().ln_1p();
        assert_close(lp, want, 1e-15, "lub log-Jacobian at large |y|");
        assert!(p.is_finite() && (0.0..=1.0).contains(&p));
    }
    // Close to the upper bound, the distance to it is kept: 1 − p = σ(−y).
    let mut lp = 0.0;
    let p = lub_constrain(30.0, -1.0, 1.0, &mut lp);
    assert_close(
        1.0 - p,
        2.0 / (1.0 + 30.0_f64.exp()),
        1e-6,
        "distance to the bound",
    );
    // Gradients at large |y| are finite (no inf - inf).
    let (_, g) = gradient(|y| scalarised(T::Lub(0.0, 1.0), y), &[700.0]);
    assert!(g[0].is_finite());
    // A simplex with one component close to 1 and others tiny: the tiny ones keep their
    // relative accuracy, so the round trip recovers y.
    let y = [40.0, -30.0, 5.0, -60.0];
    let mut lp = 0.0;
    let x = simplex_constrain(&y, &mut lp);
    assert!(x[0] > 1.0 - 1e-15 && x[1] > 0.0 && x[4] > 0.0);
    assert_close(x.iter().sum::<f64>(), 1.0, 1e-15, "simplex sum");
    assert_all_close(&simplex_free(&x).unwrap(), &y, 1e-12, "simplex round trip");
    let (_, g) = gradient(|y| scalarised(T::Simplex(4), y), &y);
    assert!(g.iter().all(|d| d.is_finite()));
    // Correlations close to ±1.
    let y = [12.0, -9.0, 15.0];
    let mut lp = 0.0;
    let l = cholesky_corr_constrain(&y, 3, &mut lp);
    assert!(lp.is_finite() && l.iter().flatten().all(|v| v.is_finite()));
    let (_, g) = gradient(|y| scalarised(T::CholeskyCorr(3), y), &y);
    assert!(g.iter().all(|d| d.is_finite()));
}

#[test]
fn free_rejects_values_outside_the_set() {
    let msg = |r: Result<Vec<f64>, DomainError>| r.unwrap_err().to_string();
    assert_eq!(
        lb_free(-1.0, 0.0).unwrap_err().to_string(),
        "lb_free: Lower bounded variable is -1, but must be greater than or equal to 0.000000"
    );
    assert_eq!(
        ub_free(4.0, 3.0).unwrap_err().to_string(),
        "ub_free: Upper bounded variable is 4, but must be less than or equal to 3.000000"
    );
    assert!(lub_free(f64::NAN, 0.0, 1.0).is_err());
    assert_eq!(
        msg(simplex_free(&[0.5, 0.5, -0.0001])),
        "simplex_free: Simplex variable is not a valid simplex. sum(Simplex variable) = \
         0.9999, but should be 1"
    );
    assert_eq!(
        msg(simplex_free(&[0.6, 0.5, -0.1])),
        "simplex_free: Simplex variable is not a valid simplex. Simplex variable[3] = -0.1, \
         but should be greater than or equal to 0"
    );
    // Within the tolerance (1e-8): accepted.
    assert!(simplex_free(&[0.5, 0.5 + 5e-9]).is_ok());
    assert!(simplex_free(&[0.5, 0.5 + 2e-8]).is_err());
    assert_eq!(
        msg(ordered_free(&[0.0, 1.0, 1.0])),
        "ordered_free: Ordered variable is not a valid ordered vector. The element at 3 is 1, \
         but should be greater than the previous element, 1"
    );
    assert_eq!(
        msg(positive_ordered_free(&[-0.5, 1.0])),
        "positive_ordered_free: Positive ordered variable is not a valid positive_ordered \
         vector. The element at 1 is -0.5, but should be positive."
    );
    assert!(unit_vector_free(&[]).is_err());
    // Not a Cholesky factor of a correlation matrix: a row off the unit sphere by 1e-6,
    // an entry above the diagonal, a negative diagonal, not square.
    let l = vec![vec![1.0, 0.0], vec![0.6, 0.8 + 1e-6]];
    assert!(msg(cholesky_corr_free(&l)).contains("is not a valid unit vector"));
    let l = vec![vec![1.0, 1e-3], vec![0.6, 0.8]];
    assert_eq!(
        msg(cholesky_corr_free(&l)),
        "cholesky_corr_free: Cholesky factor of correlation matrix is not lower triangular; \
         Cholesky factor of correlation matrix[1,2]=0.001"
    );
    let l = vec![vec![1.0, 0.0], vec![0.6, -0.8]];
    assert!(msg(cholesky_corr_free(&l)).contains("[2] is -0.8, but must be positive!"));
    assert_eq!(
        msg(cholesky_cov_free(&[vec![1.0, 0.0]])),
        "cholesky_cov_free: Expecting a square matrix; rows of Cholesky factor (1) and \
         columns of Cholesky factor (2) must match in size"
    );
    assert_eq!(
        msg(cov_matrix_free(&[vec![1.0, 0.2], vec![0.3, 1.0]])),
        "cov_matrix_free: Covariance matrix is not symmetric. Covariance matrix[1,2] = 0.2, \
         but Covariance matrix[2,1] = 0.3"
    );
    assert_eq!(
        msg(corr_matrix_free(&[vec![1.0, 0.2], vec![0.2, 1.1]])),
        "corr_matrix_free: Correlation matrix is not a valid correlation matrix. \
         Correlation matrix(2,2) is 1.1, but should be near 1.0"
    );
    assert_eq!(
        msg(corr_matrix_free(&[vec![1.0, 1.2], vec![1.2, 1.0]])),
        "corr_matrix_free: Correlation matrix is not positive definite."
    );
    assert!(msg(cov_matrix_free(&[vec![1.0, 0.0], vec![0.0]])).contains("rows of different sizes"));
}

#[test]
#[should_panic(
    expected = "cholesky_corr_constrain of a 3x3 matrix reads 3 unconstrained values, got 2"
)]
fn a_matrix_transform_of_the_wrong_length_panics() {
    let mut lp = 0.0;
    let _ = cholesky_corr_constrain(&[0.1, 0.2], 3, &mut lp);
}

#[test]
fn unit_vector_adds_half_the_squared_norm() {
    let y = [1.0, -2.0, 0.5];
    let mut lp = 0.0;
    let x = unit_vector_constrain(&y, &mut lp);
    assert_close(lp, -0.5 * 5.25, 1e-15, "lp");
    let norm = 5.25_f64.sqrt();
    assert_all_close(
        &x,
        &[1.0 / norm, -2.0 / norm, 0.5 / norm],
        1e-15,
        "direction",
    );
    let mut lp2 = 0.0;
    let again = unit_vector_constrain(&unit_vector_free(&x).unwrap(), &mut lp2);
    assert_all_close(&again, &x, 1e-15, "round trip");
    let f = |y: &[f64]| {
        let mut lp = 0.0;
        let x = unit_vector_constrain(y, &mut lp);
        lp + x[0] - 2.0 * x[2]
    };
    let (_, g) = gradient(
        |y| {
            let mut lp = Var::from(0.0);
            let x = unit_vector_constrain(y, &mut lp);
            lp + x[0] - 2.0 * x[2]
        },
        &y,
    );
    assert_all_close(&g, &fd_gradient(f, &y), 1e-9, "gradient");
}
