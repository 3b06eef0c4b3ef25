//! Multivariate normal log density, K = 50, differentiated with respect to the mean and
//! the covariance (`mvn`: μ and Σ, 50 + 2500 inputs, Σ read from its lower triangle) or
//! the mean and the Cholesky factor (`mvn_cholesky`: μ and the lower triangle of L,
//! 50 + 1275 inputs), with the bodies written with nalgebra under `#[differentiate]`
//! (`fazang-bench-models`'s `mvn` module), each through its `_grad_into`:
//!
//! - `fazang_taped`: nalgebra's `.cholesky()` and `solve_lower_triangular` in the body
//!   (taped scalar by scalar);
//! - `fazang_fused`: `fazang::linalg`'s `cholesky` and `solve_lower_triangular` in the
//!   body (one lazy node each);
//! - `fazang_multi_normal`: the body calls `multi_normal_lpdf` /
//!   `multi_normal_cholesky_lpdf` (one node, analytic partials);
//!
//! beside the body on `f64` (`primal`), the gradient by hand (`hand`) and the peers,
//! which run the same nalgebra code generic over `RealField` (how their users write it):
//! num-dual's forward mode (`num_dual`, one tangent per input, all carried together) and
//! echidna's reverse tape (`echidna`, taped scalar by scalar like `fazang_taped`).

use crate::data::Rng;
use crate::names::PRIMAL;
use crate::names::{ECHIDNA, FAZANG_FUSED, FAZANG_MULTI_NORMAL, FAZANG_TAPED, HAND, NUM_DUAL};
use crate::peers::{num_dual_gradient, Echidna, NumDual};
use crate::{assert_close, Variant, Workload};
use fazang_bench_models::mvn::*;
use nalgebra::{DMatrix, DVector, RealField};
use std::rc::Rc;

/// Dimension.
pub const K: usize = 50;

const HALF_LN_2PI: f64 = 0.918_938_533_204_672_8;

/// y, μ, and a well-conditioned covariance Σ (row-major).
pub fn data() -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let mut rng = Rng::new(13);
    let b = DMatrix::from_fn(K, K, |_, _| rng.range(-0.3, 0.3));
    let sigma = &b * b.transpose() + DMatrix::identity(K, K);
    let y = rng.vec(K, -2.0, 2.0);
    let mu = rng.vec(K, -0.5, 0.5);
    (y, mu, sigma.transpose().as_slice().to_vec())
}

/// Value and gradient by hand: ∂/∂μ = Σ⁻¹r, ∂/∂Σ = ½(Σ⁻¹rrᵀΣ⁻¹ − Σ⁻¹) on the diagonal,
/// twice that below it, 0 above (Σ read from its lower triangle); `g` is μ then Σ.
pub fn mvn_hand(y: &[f64], mu: &[f64], sigma: &[f64], g: &mut [f64]) -> f64 {
    let chol = DMatrix::from_row_slice(K, K, sigma)
        .cholesky()
        .expect("SPD");
    let r = DVector::from_column_slice(y) - DVector::from_column_slice(mu);
    let a = chol.solve(&r);
    let inv = chol.inverse();
    g[..K].copy_from_slice(a.as_slice());
    for i in 0..K {
        for j in 0..K {
            let gij = 0.5 * (a[i] * a[j] - inv[(i, j)]);
            g[K + i * K + j] = match j.cmp(&i) {
                std::cmp::Ordering::Less => 2.0 * gij,
                std::cmp::Ordering::Equal => gij,
                std::cmp::Ordering::Greater => 0.0,
            };
        }
    }
    let log_det: f64 = chol.l_dirty().diagonal().iter().map(|d| d.ln()).sum();
    -0.5 * r.dot(&a) - log_det - K as f64 * HALF_LN_2PI
}

/// Value and gradient by hand in μ and L: z = L⁻¹r, ∂/∂μ = L⁻ᵀz, ∂/∂Lᵢⱼ = (L⁻ᵀz)ᵢ zⱼ −
/// δᵢⱼ/Lᵢᵢ on the lower triangle (row by row).
pub fn mvn_chol_hand(y: &[f64], mu: &[f64], lower: &[f64], g: &mut [f64]) -> f64 {
    let l = DMatrix::from_fn(K, K, |i, j| {
        if j <= i {
            lower[i * (i + 1) / 2 + j]
        } else {
            0.0
        }
    });
    let r = DVector::from_column_slice(y) - DVector::from_column_slice(mu);
    let z = l.solve_lower_triangular(&r).expect("nonsingular");
    let w = l.tr_solve_lower_triangular(&z).expect("nonsingular");
    g[..K].copy_from_slice(w.as_slice());
    for i in 0..K {
        for j in 0..=i {
            let d = if i == j { 1.0 / l[(i, i)] } else { 0.0 };
            g[K + i * (i + 1) / 2 + j] = w[i] * z[j] - d;
        }
    }
    let log_det: f64 = l.diagonal().iter().map(|d| d.ln()).sum();
    -0.5 * z.norm_squared() - log_det - K as f64 * HALF_LN_2PI
}

/// The peers' body: `mvn_nalgebra` generic over nalgebra's scalar.
pub fn mvn_peer<T: RealField + Copy>(y: &[f64], mu: &[T], sigma: &[T]) -> T {
    let n = y.len();
    let s = DMatrix::from_fn(n, n, |i, j| sigma[i * n + j]);
    let chol = s.cholesky().expect("positive definite");
    let y = DVector::from_iterator(n, y.iter().map(|&v| nalgebra::convert::<f64, T>(v)));
    let z = chol
        .l()
        .solve_lower_triangular(&(y - DVector::from_column_slice(mu)))
        .expect("nonsingular");
    let log_det = chol
        .l()
        .diagonal()
        .iter()
        .fold(T::zero(), |s, d| s + d.ln());
    let c: T = nalgebra::convert(n as f64 * HALF_LN_2PI);
    -z.norm_squared() * nalgebra::convert(0.5) - log_det - c
}

/// The peers' body: `mvn_chol_nalgebra` generic over nalgebra's scalar.
pub fn mvn_chol_peer<T: RealField + Copy>(y: &[f64], mu: &[T], lower: &[T]) -> T {
    let n = y.len();
    let l = DMatrix::from_fn(n, n, |i, j| {
        if j <= i {
            lower[i * (i + 1) / 2 + j]
        } else {
            T::zero()
        }
    });
    let y = DVector::from_iterator(n, y.iter().map(|&v| nalgebra::convert::<f64, T>(v)));
    let r = y - DVector::from_column_slice(mu);
    let z = l.solve_lower_triangular(&r).expect("nonsingular");
    let log_det = l.diagonal().iter().fold(T::zero(), |s, d| s + d.ln());
    let c: T = nalgebra::convert(n as f64 * HALF_LN_2PI);
    -z.norm_squared() * nalgebra::convert(0.5) - log_det - c
}

/// Inputs of `mvn`: μ and Σ.
const N_MVN: usize = K + K * K;
/// Inputs of `mvn_cholesky`: μ and the lower triangle of L.
const N_CHOL: usize = K + K * (K + 1) / 2;

/// μ and θ, one slice (the peers' drivers take one).
fn joined(mu: &[f64], theta: &[f64]) -> Vec<f64> {
    [mu, theta].concat()
}

fn mvn_num_dual(y: &[f64], mu: &[f64], sigma: &[f64], g: &mut [f64]) -> f64 {
    let x = joined(mu, sigma);
    num_dual_gradient::<N_MVN>(|x: &[NumDual<N_MVN>]| mvn_peer(y, &x[..K], &x[K..]), &x, g)
}

fn mvn_echidna(y: &[f64], mu: &[f64], sigma: &[f64], g: &mut [f64]) -> f64 {
    let x = joined(mu, sigma);
    let ge = echidna::grad(|x: &[Echidna]| mvn_peer(y, &x[..K], &x[K..]), &x);
    g.copy_from_slice(&ge);
    ge[0]
}

fn mvn_chol_num_dual(y: &[f64], mu: &[f64], lower: &[f64], g: &mut [f64]) -> f64 {
    let x = joined(mu, lower);
    num_dual_gradient::<N_CHOL>(
        |x: &[NumDual<N_CHOL>]| mvn_chol_peer(y, &x[..K], &x[K..]),
        &x,
        g,
    )
}

fn mvn_chol_echidna(y: &[f64], mu: &[f64], lower: &[f64], g: &mut [f64]) -> f64 {
    let x = joined(mu, lower);
    let ge = echidna::grad(|x: &[Echidna]| mvn_chol_peer(y, &x[..K], &x[K..]), &x);
    g.copy_from_slice(&ge);
    ge[0]
}

type Grad = fn(&[f64], &[f64], &[f64], &mut [f64]) -> f64;

/// A workload over (y, μ, θ): the primal, the hand-written gradient, the three bodies'
/// `_grad_into` and the peers, each gradient checked against the hand-written one (and
/// the value too where the driver returns it: `echidna::grad` does not).
fn workload_of(
    name: &'static str,
    (y, mu, theta): (Vec<f64>, Vec<f64>, Vec<f64>),
    primal: fn(&[f64], &[f64], &[f64]) -> f64,
    hand: Grad,
    bodies: [(&'static str, Grad); 5],
) -> Workload {
    let n = K + theta.len();
    let mut want = vec![0.0; n];
    let v = hand(&y, &mu, &theta, &mut want);
    let mut g = vec![0.0; n];
    for (what, f) in bodies {
        let vf = f(&y, &mu, &theta, &mut g);
        assert_close(&format!("{name} {what}"), &g, &want);
        if what != ECHIDNA {
            assert_close(&format!("{name} {what} value"), &[vf], &[v]);
        }
    }
    let d = Rc::new((y, mu, theta));
    let run = |f: Grad| -> Box<dyn FnMut() -> f64> {
        let (d, mut g) = (d.clone(), vec![0.0; n]);
        Box::new(move || f(&d.0, &d.1, &d.2, &mut g) + g[0])
    };
    let dp = d.clone();
    let mut variants = vec![
        Variant {
            name: PRIMAL,
            run: Box::new(move || primal(&dp.0, &dp.1, &dp.2)),
        },
        Variant {
            name: HAND,
            run: run(hand),
        },
    ];
    variants.extend(bodies.map(|(what, f)| Variant {
        name: what,
        run: run(f),
    }));
    Workload {
        name,
        inputs: n,
        calls: 1,
        variants,
    }
}

/// μ and Σ.
pub fn workload() -> Workload {
    workload_of(
        "mvn",
        data(),
        mvn_nalgebra,
        mvn_hand,
        [
            (FAZANG_TAPED, mvn_nalgebra_grad_into),
            (FAZANG_FUSED, mvn_fused_grad_into),
            (FAZANG_MULTI_NORMAL, mvn_lpdf_grad_into),
            (NUM_DUAL, mvn_num_dual),
            (ECHIDNA, mvn_echidna),
        ],
    )
}

/// μ and the lower triangle of L.
pub fn workload_cholesky() -> Workload {
    let (y, mu, sigma) = data();
    let l = DMatrix::from_row_slice(K, K, &sigma)
        .cholesky()
        .expect("SPD")
        .unpack();
    let lower: Vec<f64> = (0..K)
        .flat_map(|i| (0..=i).map(move |j| (i, j)))
        .map(|ij| l[ij])
        .collect();
    workload_of(
        "mvn_cholesky",
        (y, mu, lower),
        mvn_chol_nalgebra,
        mvn_chol_hand,
        [
            (FAZANG_TAPED, mvn_chol_nalgebra_grad_into),
            (FAZANG_FUSED, mvn_chol_fused_grad_into),
            (FAZANG_MULTI_NORMAL, mvn_chol_lpdf_grad_into),
            (NUM_DUAL, mvn_chol_num_dual),
            (ECHIDNA, mvn_chol_echidna),
        ],
    )
}
