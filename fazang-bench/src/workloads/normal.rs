//! Normal log-likelihood of 100 000 observations, differentiated with respect to the
//! location μ and the scale σ:
//! ll(μ, σ) = -½ Σᵢ ((yᵢ - μ)/σ)² - n (ln σ + ln √(2π)).

use super::{gradient_variants, Gradients};
use crate::data::Rng;
use crate::names::FAZANG_LPDF;
use crate::peers::{ad_trait_gradient, num_dual_gradient, AdTrait, Echidna, PeerNum};
use crate::{assert_close, Variant, Workload};
use fazang::prelude::*;
use fazang_bench_models::{normal_ll, normal_ll_grad, normal_ll_lpdf_grad, LOG_SQRT_2PI};
use std::rc::Rc;

/// Observations.
pub const N: usize = 100_000;

/// The data, from N(1, 2²), and the point (μ, σ).
pub fn data() -> (Vec<f64>, [f64; 2]) {
    let mut rng = Rng::new(3);
    let y = (0..N).map(|_| 1.0 + 2.0 * rng.normal()).collect();
    (y, [0.8, 1.7])
}

/// Hand-written gradient `[dμ, dσ]`; returns the value.
pub fn normal_ll_hand(mu: f64, sigma: f64, y: &[f64], g: &mut [f64]) -> f64 {
    let (mut s1, mut s2) = (0.0, 0.0);
    for &yi in y {
        let d = yi - mu;
        s1 += d;
        s2 += d * d;
    }
    let n = y.len() as f64;
    let inv_var = 1.0 / (sigma * sigma);
    g[0] = s1 * inv_var;
    g[1] = -n / sigma + s2 * inv_var / sigma;
    -0.5 * s2 * inv_var - n * (sigma.ln() + LOG_SQRT_2PI)
}

/// The body for the peers.
pub fn normal_ll_peer<T: PeerNum>(mu: T, sigma: T, y: &[f64]) -> T {
    let mut ss = T::cst(0.0);
    for &yi in y {
        let z = mu.rsub(yi) / sigma;
        ss = ss + z * z;
    }
    ss.scale(-0.5) - (sigma.ln().shift(LOG_SQRT_2PI)).scale(y.len() as f64)
}

/// The workload, checked.
pub fn workload() -> Workload {
    let (y, p) = data();
    let y = Rc::new(y);
    let mut want = vec![0.0; 2];
    normal_ll_hand(p[0], p[1], &y, &mut want);

    let mut g = vec![0.0; 2];
    gradient_into(|p| normal_ll::<Var>(p[0], p[1], &y), &p, &mut g);
    assert_close("normal fazang", &g, &want);
    let (_, gm) = normal_ll_grad(p[0], p[1], &y);
    assert_close("normal _grad", &gm, &want);
    let (_, gm) = normal_ll_lpdf_grad(p[0], p[1], &y).expect("valid parameters");
    assert_close("normal normal_lpdf", &gm, &want);
    num_dual_gradient::<2>(|p| normal_ll_peer(p[0], p[1], &y), &p, &mut g);
    assert_close("normal num-dual", &g, &want);
    let ge = echidna::grad(|p: &[Echidna]| normal_ll_peer(p[0], p[1], &y), &p);
    assert_close("normal echidna", &ge, &want);
    ad_trait_gradient(|p: &[AdTrait]| normal_ll_peer(p[0], p[1], &y), &p, &mut g);
    assert_close("normal ad_trait", &g, &want);

    let (y0, y1, y2, y3, y4, y5, y6) = (
        y.clone(),
        y.clone(),
        y.clone(),
        y.clone(),
        y.clone(),
        y.clone(),
        y.clone(),
    );
    let mut variants = gradient_variants(Gradients {
        x: p.to_vec(),
        primal: move |p: &[f64]| normal_ll::<f64>(p[0], p[1], &y0),
        hand: move |p: &[f64], g: &mut [f64]| normal_ll_hand(p[0], p[1], &y1, g),
        grad_macro: Some(move |p: &[f64]| {
            let (v, g) = normal_ll_grad(p[0], p[1], &y6);
            v + g[0]
        }),
        fazang: move |p: &[Var]| normal_ll::<Var>(p[0], p[1], &y2),
        num_dual: move |p: &[f64], g: &mut [f64]| {
            num_dual_gradient::<2>(|p| normal_ll_peer(p[0], p[1], &y3), p, g)
        },
        echidna: move |p: &[Echidna]| normal_ll_peer(p[0], p[1], &y4),
        ad_trait: move |p: &[AdTrait]| normal_ll_peer(p[0], p[1], &y5),
    });
    variants.insert(
        4,
        Variant {
            name: FAZANG_LPDF,
            run: Box::new(move || {
                let (v, g) = normal_ll_lpdf_grad(p[0], p[1], &y).expect("valid parameters");
                v + g[0]
            }),
        },
    );
    Workload {
        name: "normal",
        inputs: 2,
        calls: 1,
        variants,
    }
}
