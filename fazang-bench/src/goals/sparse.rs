//! The sparse part of the `second` suite (issue 21): the extended Rosenbrock Hessian and
//! the Bratu residual's Jacobian, n = 1000, both tridiagonal. Hand-written sparse
//! derivatives (triplets, as DESIGN.md's `_hessian_sparse` / `_jacobian_sparse` return
//! them), echidna's sparse Hessian and Jacobian (sparsity detection on its bytecode tape,
//! colouring, compressed sweeps: `sparse_hessian`, `sparse_hessian_vec::<8>`,
//! `sparse_jacobian`, `sparse_jacobian_vec::<8>`), and fazang's dense `_hessian` /
//! `_jacobian` (what a user has today). With the `sparse` feature, fazang's
//! `_hessian_sparse` / `_jacobian_sparse` too.

use super::rows::*;
use super::{returned, returned_dense};
use crate::checked::{rows as dense_rows, triplets_dense, Checked};
use crate::data::Rng;
use crate::peers::{EchidnaBytecode, PeerNum};
use crate::workloads::rosenbrock::{rosenbrock_hand, rosenbrock_peer};
use crate::Workload;
use fazang_bench_models::user_second as m;
use std::hint::black_box;

/// Inputs of both sparse workloads.
pub const N: usize = 1000;

/// Sparse triplets `(row, column, value)`.
pub type Triplets = Vec<(usize, usize, f64)>;

/// A gradient and a sparse Hessian.
type SparseHess = (Vec<f64>, Triplets);

/// Gradient then the dense Hessian (the hand-written row's layout).
fn sparse_hess_dense(o: &SparseHess) -> Vec<f64> {
    let mut d = o.0.clone();
    d.extend(triplets_dense(N, N, &o.1));
    d
}

/// Hand-written value, gradient and tridiagonal Hessian of [`m::ext_rosenbrock`], the
/// Hessian as triplets sorted by (row, column), both triangles.
pub fn ext_rosenbrock_hand(x: &[f64], g: &mut [f64], h: &mut Triplets) -> f64 {
    let v = rosenbrock_hand(x, g);
    let n = x.len();
    h.clear();
    for i in 0..n {
        if i > 0 {
            h.push((i, i - 1, -400.0 * x[i - 1]));
        }
        let mut d = if i > 0 { 200.0 } else { 0.0 };
        if i + 1 < n {
            d += 1200.0 * x[i] * x[i] - 400.0 * x[i + 1] + 2.0;
        }
        h.push((i, i, d));
        if i + 1 < n {
            h.push((i, i + 1, -400.0 * x[i]));
        }
    }
    v
}

/// echidna's symmetric pattern (lower triangle) and values as triplets, both triangles.
fn echidna_triplets(p: &echidna::SparsityPattern, vals: &[f64], h: &mut Triplets) {
    h.clear();
    for ((&r, &c), &v) in p.rows.iter().zip(&p.cols).zip(vals) {
        h.push((r as usize, c as usize, v));
        if r != c {
            h.push((c as usize, r as usize, v));
        }
    }
}

/// The extended Rosenbrock function, n = 1000, as `x.windows(2).map(..).sum()`.
pub fn ext_rosenbrock() -> Workload {
    let x = Rng::new(9).vec(N, -1.5, 1.5);
    let sparse = || (vec![0.0; N], Triplets::new());
    let c = Checked::new("hessian_ext_rosenbrock", N, x, N, m::ext_rosenbrock)
        .hand(
            sparse(),
            |x, o| ext_rosenbrock_hand(x, &mut o.0, &mut o.1),
            sparse_hess_dense,
        )
        .variant_part(
            GRAD,
            0..N,
            None,
            returned(m::ext_rosenbrock_grad),
            returned_dense,
        )
        .variant(
            HESSIAN,
            (Vec::new(), Vec::new()),
            |x, o| {
                let (v, g, h) = m::ext_rosenbrock_hessian(x);
                *o = (g, h);
                v
            },
            |o: &(Vec<f64>, Vec<Vec<f64>>)| {
                let mut d = o.0.clone();
                d.extend(dense_rows(&o.1));
                d
            },
        )
        .variant(
            ECHIDNA_SPARSE,
            sparse(),
            |x, o| {
                let (v, g, p, vals) =
                    echidna::sparse_hessian(rosenbrock_peer::<EchidnaBytecode>, x);
                o.0 = g;
                echidna_triplets(&p, &vals, &mut o.1);
                v
            },
            sparse_hess_dense,
        )
        .variant(
            ECHIDNA_SPARSE_VEC,
            sparse(),
            |x, o| {
                let (v, g, p, vals) =
                    echidna::sparse_hessian_vec::<f64, 8>(rosenbrock_peer::<EchidnaBytecode>, x);
                o.0 = g;
                echidna_triplets(&p, &vals, &mut o.1);
                v
            },
            sparse_hess_dense,
        );
    #[cfg(feature = "sparse")]
    let c = c.variant(
        HESSIAN_SPARSE,
        sparse(),
        |x, o| {
            let (v, g, h) = m::ext_rosenbrock_hessian_sparse(x);
            *o = (g, h);
            v
        },
        sparse_hess_dense,
    );
    c.build()
}

/// The Bratu parameter λ (below the fold at ≈ 3.51).
pub const LAMBDA: f64 = 1.0;

/// Hand-written residual and tridiagonal Jacobian of [`m::bratu`] (triplets sorted by
/// row, then column); returns the first residual.
pub fn bratu_hand(u: &[f64], f: &mut [f64], jac: &mut Triplets) -> f64 {
    let n = u.len();
    let ih2 = ((n + 1) as f64).powi(2);
    jac.clear();
    for i in 0..n {
        let e = LAMBDA * u[i].exp();
        let left = if i > 0 { u[i - 1] } else { 0.0 };
        let right = if i + 1 < n { u[i + 1] } else { 0.0 };
        f[i] = (left - 2.0 * u[i] + right) * ih2 + e;
        if i > 0 {
            jac.push((i, i - 1, ih2));
        }
        jac.push((i, i, -2.0 * ih2 + e));
        if i + 1 < n {
            jac.push((i, i + 1, ih2));
        }
    }
    f[0]
}

/// [`m::bratu`] on the peers' scalars.
pub fn bratu_peer<T: PeerNum>(u: &[T]) -> Vec<T> {
    let n = u.len();
    let h = 1.0 / (n + 1) as f64;
    (0..n)
        .map(|i| {
            let left = if i > 0 { u[i - 1] } else { T::cst(0.0) };
            let right = if i + 1 < n { u[i + 1] } else { T::cst(0.0) };
            (left - u[i].scale(2.0) + right).scale(1.0 / (h * h)) + u[i].exp().scale(LAMBDA)
        })
        .collect()
}

/// Residuals and a sparse Jacobian.
type SparseJac = (Vec<f64>, Triplets);

fn sparse_jac_dense(o: &SparseJac) -> Vec<f64> {
    triplets_dense(N, N, &o.1)
}

/// echidna's Jacobian pattern and values as triplets.
fn echidna_jac(p: &echidna::JacobianSparsityPattern, vals: &[f64], o: &mut SparseJac) {
    o.1.clear();
    o.1.extend(
        p.rows
            .iter()
            .zip(&p.cols)
            .zip(vals)
            .map(|((&r, &c), &v)| (r as usize, c as usize, v)),
    );
}

/// The Bratu residual, n = 1000 interior points, and its Jacobian.
pub fn bratu() -> Workload {
    let mut rng = Rng::new(10);
    let u: Vec<f64> = (0..N)
        .map(|i| {
            let t = (i + 1) as f64 / (N + 1) as f64;
            0.4 * (std::f64::consts::PI * t).sin() + 0.01 * rng.normal()
        })
        .collect();
    let sparse = || (vec![0.0; N], Triplets::new());
    // The whole residual escapes: else, with LTO, only its first entry is computed.
    let primal = |u: &[f64]| black_box(m::bratu(u, LAMBDA))[0];
    let c = Checked::new("jacobian_bratu", N, u, N, primal)
        .hand(
            sparse(),
            |u, o| bratu_hand(u, &mut o.0, &mut o.1),
            sparse_jac_dense,
        )
        .variant(
            JACOBIAN,
            Vec::new(),
            |u, j| {
                let (v, rows) = m::bratu_jacobian(u, LAMBDA);
                *j = rows;
                v[0]
            },
            dense_rows,
        )
        .variant(
            ECHIDNA_SPARSE,
            sparse(),
            |u, o| {
                let (v, p, vals) = echidna::sparse_jacobian(bratu_peer::<EchidnaBytecode>, u);
                echidna_jac(&p, &vals, o);
                o.0 = v;
                o.0[0]
            },
            sparse_jac_dense,
        )
        .variant(
            ECHIDNA_SPARSE_VEC,
            sparse(),
            |u, o| {
                let (mut tape, _) = echidna::record_multi(bratu_peer::<EchidnaBytecode>, u);
                let (v, p, vals) = tape.sparse_jacobian_vec::<8>(u);
                echidna_jac(&p, &vals, o);
                o.0 = v;
                o.0[0]
            },
            sparse_jac_dense,
        );
    #[cfg(feature = "sparse")]
    let c = c.variant(
        JACOBIAN_SPARSE,
        sparse(),
        |u, o| {
            let (v, jac) = m::bratu_jacobian_sparse(u, LAMBDA);
            *o = (v, jac);
            o.0[0]
        },
        sparse_jac_dense,
    );
    c.build()
}
