//! Gaussian-process log marginal likelihood, n = 200 points, differentiated with respect
//! to the three kernel parameters (α, ρ, σ) of a squared-exponential kernel with noise:
//!
//! K = α² exp(-(xᵢ - xⱼ)² / (2ρ²)) + σ² I,  lml = -½ yᵀK⁻¹y - ½ ln det K - n/2 ln 2π.
//!
//! The kernel matrix is built entry by entry in every variant; they differ in the O(n³)
//! part: `fazang_fused` runs `fazang::linalg::cholesky` and `solve_lower_triangular` (one
//! lazy node each), `fazang_taped` runs nalgebra's Cholesky on `DMatrix<Var>` (one tape
//! node per scalar operation), `num_dual` runs nalgebra's Cholesky on num-dual's
//! `DualSVec64<3>`.

use crate::data::Rng;
use crate::names::{FAZANG_FUSED, FAZANG_TAPED, HAND, NUM_DUAL, PRIMAL};
use crate::peers::{num_dual_gradient, NumDual};
use crate::{assert_close, Variant, Workload};
use fazang::linalg::{cholesky, solve_lower_triangular};
use fazang::prelude::*;
use nalgebra::{DMatrix, DVector, RealField};
use std::rc::Rc;

/// Points.
pub const N: usize = 200;

/// Inputs and outputs of the regression, and the parameters (α, ρ, σ).
pub fn data() -> (Vec<f64>, Vec<f64>, [f64; 3]) {
    let mut rng = Rng::new(7);
    let x = rng.vec(N, 0.0, 10.0);
    let y = x.iter().map(|xi| xi.sin() + 0.3 * rng.normal()).collect();
    (x, y, [1.1, 1.3, 0.35])
}

const HALF_LN_2PI: f64 = 0.918_938_533_204_672_8;

/// The kernel matrix, for any nalgebra scalar.
pub fn kernel<T: RealField + Copy>(x: &[f64], p: &[T]) -> DMatrix<T> {
    let (a2, rho, s2) = (p[0] * p[0], p[1], p[2] * p[2]);
    let c = -T::one() / (rho * rho * nalgebra::convert(2.0));
    DMatrix::from_fn(x.len(), x.len(), |i, j| {
        let d: T = nalgebra::convert(x[i] - x[j]);
        let k = a2 * (c * d * d).exp();
        if i == j {
            k + s2
        } else {
            k
        }
    })
}

/// The log marginal likelihood through nalgebra's Cholesky, for any nalgebra scalar
/// (`f64`, fazang's `Var` taped scalar by scalar, num-dual).
pub fn lml_nalgebra<T: RealField + Copy>(x: &[f64], y: &[f64], p: &[T]) -> T {
    let l = kernel(x, p).cholesky().expect("positive definite").unpack();
    let yv = DVector::from_iterator(y.len(), y.iter().map(|&v| nalgebra::convert::<f64, T>(v)));
    let a = l.solve_lower_triangular(&yv).expect("nonsingular");
    let log_det = l.diagonal().iter().fold(T::zero(), |s, d| s + d.ln());
    let n: T = nalgebra::convert(y.len() as f64);
    -a.dot(&a) * nalgebra::convert(0.5) - log_det - n * nalgebra::convert(HALF_LN_2PI)
}

/// The same with fazang's fused Cholesky and triangular solve.
pub fn lml_fused(x: &[f64], y: &[f64], p: &[Var]) -> Var {
    let l = cholesky(&kernel(x, p)).expect("positive definite");
    let a = solve_lower_triangular(&l, &DVector::from_column_slice(y)).expect("nonsingular");
    let log_det: Var = l.diagonal().iter().map(|d| d.ln()).sum();
    -0.5 * dot_product(a.as_slice(), a.as_slice()) - log_det - y.len() as f64 * HALF_LN_2PI
}

/// Hand-written gradient: d lml / dθ = ½ tr((a aᵀ - K⁻¹) ∂K/∂θ) with a = K⁻¹ y.
pub fn lml_hand(x: &[f64], y: &[f64], p: &[f64], g: &mut [f64]) -> f64 {
    let k = kernel(x, p);
    let chol = k.clone().cholesky().expect("positive definite");
    let a = chol.solve(&DVector::from_column_slice(y));
    let kinv = chol.inverse();
    let (alpha, rho, sigma) = (p[0], p[1], p[2]);
    let n = y.len();
    let (mut ga, mut gr, mut gs) = (0.0, 0.0, 0.0);
    for j in 0..n {
        for i in 0..n {
            let w = a[i] * a[j] - kinv[(i, j)];
            let d = x[i] - x[j];
            let se = alpha * alpha * (-0.5 * d * d / (rho * rho)).exp();
            ga += w * 2.0 * se / alpha;
            gr += w * se * d * d / (rho * rho * rho);
            if i == j {
                gs += w * 2.0 * sigma;
            }
        }
    }
    g.copy_from_slice(&[0.5 * ga, 0.5 * gr, 0.5 * gs]);
    let log_det: f64 = chol.l_dirty().diagonal().iter().map(|d| d.ln()).sum();
    -0.5 * a.dot(&DVector::from_column_slice(y)) - log_det - n as f64 * HALF_LN_2PI
}

/// The workload, checked.
pub fn workload() -> Workload {
    let (x, y, p) = data();
    let d = Rc::new((x, y));
    let mut want = vec![0.0; 3];
    let v = lml_hand(&d.0, &d.1, &p, &mut want);
    let mut g = vec![0.0; 3];
    let vf = gradient_into(|p| lml_fused(&d.0, &d.1, p), &p, &mut g);
    assert_close("gp fused", &g, &want);
    assert_close("gp fused value", &[vf], &[v]);
    let vt = gradient_into(|p| lml_nalgebra(&d.0, &d.1, p), &p, &mut g);
    assert_close("gp taped", &g, &want);
    assert_close("gp taped value", &[vt], &[v]);
    num_dual_gradient::<3>(|p| lml_nalgebra(&d.0, &d.1, p), &p, &mut g);
    assert_close("gp num-dual", &g, &want);

    let v = |name, run: Box<dyn FnMut() -> f64>| Variant { name, run };
    let (d0, d1, d2, d3, d4) = (d.clone(), d.clone(), d.clone(), d.clone(), d);
    let (mut g1, mut g2, mut g3, mut g4) = ([0.0; 3], [0.0; 3], [0.0; 3], [0.0; 3]);
    Workload {
        name: "gp",
        inputs: 3,
        calls: 1,
        variants: vec![
            v(PRIMAL, Box::new(move || lml_nalgebra(&d0.0, &d0.1, &p))),
            v(
                HAND,
                Box::new(move || lml_hand(&d1.0, &d1.1, &p, &mut g1) + g1[0]),
            ),
            v(
                FAZANG_FUSED,
                Box::new(move || {
                    gradient_into(|p| lml_fused(&d2.0, &d2.1, p), &p, &mut g2) + g2[0]
                }),
            ),
            v(
                FAZANG_TAPED,
                Box::new(move || {
                    gradient_into(|p| lml_nalgebra(&d3.0, &d3.1, p), &p, &mut g3) + g3[0]
                }),
            ),
            v(
                NUM_DUAL,
                Box::new(move || {
                    num_dual_gradient::<3>(
                        |p: &[NumDual<3>]| lml_nalgebra(&d4.0, &d4.1, p),
                        &p,
                        &mut g4,
                    ) + g4[0]
                }),
            ),
        ],
    }
}
