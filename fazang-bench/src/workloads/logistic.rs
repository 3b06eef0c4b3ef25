//! Logistic-regression log-likelihood, 5000 rows × 10 features, differentiated with
//! respect to the 10 coefficients:
//! ll(β) = Σᵢ yᵢ ηᵢ - ln(1 + e^ηᵢ), ηᵢ = xᵢ·β.

use super::{gradient_variants, Gradients};
use crate::data::Rng;
use crate::peers::{ad_trait_gradient, num_dual_gradient, AdTrait, Echidna, PeerNum};
use crate::{assert_close, Workload};
use fazang::prelude::*;
use fazang_bench_models::{log_lik, log_lik_grad, log_lik_loop, log_lik_loop_grad};
use std::rc::Rc;

/// Rows (observations).
pub const ROWS: usize = 5000;
/// Features = coefficients.
pub const K: usize = 10;

/// The data: row-major features and 0/1 outcomes.
pub struct Data {
    /// `ROWS × K`, row-major.
    pub x: Vec<f64>,
    /// Outcomes, 0 or 1.
    pub y: Vec<f64>,
}

/// Simulated data from a known coefficient vector.
pub fn data() -> (Data, Vec<f64>) {
    let mut rng = Rng::new(2);
    let beta: Vec<f64> = (0..K).map(|_| rng.range(-0.5, 0.5)).collect();
    let x: Vec<f64> = (0..ROWS * K).map(|_| rng.normal()).collect();
    let y = x
        .chunks(K)
        .map(|row| {
            let p = 1.0 / (1.0 + (-dot_product(row, &beta)).exp());
            f64::from(rng.uniform() < p)
        })
        .collect();
    (Data { x, y }, beta)
}

/// Hand-written gradient Σᵢ (yᵢ - σ(ηᵢ)) xᵢ; returns the value.
pub fn log_lik_hand(beta: &[f64], x: &[f64], y: &[f64], g: &mut [f64]) -> f64 {
    g.iter_mut().for_each(|gi| *gi = 0.0);
    let mut ll = 0.0;
    for (row, &yi) in x.chunks(beta.len()).zip(y) {
        let eta = dot_product(row, beta);
        let e = eta.exp();
        ll += yi * eta - e.ln_1p();
        let r = yi - e / (1.0 + e);
        for (gj, xj) in g.iter_mut().zip(row) {
            *gj += r * xj;
        }
    }
    ll
}

/// The body for the peers (their dot product is a sum of products).
pub fn log_lik_peer<T: PeerNum>(beta: &[T], x: &[f64], y: &[f64]) -> T {
    let mut ll = T::cst(0.0);
    for (row, &yi) in x.chunks(beta.len()).zip(y) {
        let mut eta = beta[0].scale(row[0]);
        for (b, &xj) in beta.iter().zip(row).skip(1) {
            eta = eta + b.scale(xj);
        }
        ll = ll + eta.scale(yi) - eta.exp().ln_1p();
    }
    ll
}

/// The workload, checked.
pub fn workload() -> Workload {
    let (d, beta) = data();
    let d = Rc::new(d);
    let mut want = vec![0.0; K];
    log_lik_hand(&beta, &d.x, &d.y, &mut want);

    let mut g = vec![0.0; K];
    gradient_into(|b| log_lik::<Var>(b, &d.x, &d.y), &beta, &mut g);
    assert_close("logistic fazang", &g, &want);
    let (_, gm) = log_lik_grad(&beta, &d.x, &d.y);
    assert_close("logistic _grad", &gm, &want);
    num_dual_gradient::<K>(|b| log_lik_peer(b, &d.x, &d.y), &beta, &mut g);
    assert_close("logistic num-dual", &g, &want);
    let ge = echidna::grad(|b: &[Echidna]| log_lik_peer(b, &d.x, &d.y), &beta);
    assert_close("logistic echidna", &ge, &want);
    ad_trait_gradient(|b: &[AdTrait]| log_lik_peer(b, &d.x, &d.y), &beta, &mut g);
    assert_close("logistic ad_trait", &g, &want);

    let (d0, d1, d2, d3, d4, d5, d6) = (
        d.clone(),
        d.clone(),
        d.clone(),
        d.clone(),
        d.clone(),
        d.clone(),
        d,
    );
    Workload {
        name: "logistic",
        inputs: K,
        calls: 1,
        variants: gradient_variants(Gradients {
            x: beta,
            primal: move |b: &[f64]| log_lik::<f64>(b, &d0.x, &d0.y),
            hand: move |b: &[f64], g: &mut [f64]| log_lik_hand(b, &d1.x, &d1.y, g),
            grad_macro: Some(move |b: &[f64]| {
                let (v, g) = log_lik_grad(b, &d6.x, &d6.y);
                v + g[0]
            }),
            fazang: move |b: &[Var]| log_lik::<Var>(b, &d2.x, &d2.y),
            num_dual: move |b: &[f64], g: &mut [f64]| {
                num_dual_gradient::<K>(|b| log_lik_peer(b, &d3.x, &d3.y), b, g)
            },
            echidna: move |b: &[Echidna]| log_lik_peer(b, &d4.x, &d4.y),
            ad_trait: move |b: &[AdTrait]| log_lik_peer(b, &d5.x, &d5.y),
        }),
    }
}

/// The same likelihood as two plain loops: `_grad` is adjoint code, `fazang` the tape.
pub fn workload_loop() -> Workload {
    let (d, beta) = data();
    let d = Rc::new(d);
    let mut want = vec![0.0; K];
    log_lik_hand(&beta, &d.x, &d.y, &mut want);
    let (_, gm) = log_lik_loop_grad(&beta, &d.x, &d.y);
    assert_close("logistic_loop _grad", &gm, &want);
    let mut g = vec![0.0; K];
    gradient_into(|b| log_lik_loop::<Var>(b, &d.x, &d.y), &beta, &mut g);
    assert_close("logistic_loop fazang", &g, &want);
    let (d0, d1, d2, d3, d4, d5, d6) = (
        d.clone(),
        d.clone(),
        d.clone(),
        d.clone(),
        d.clone(),
        d.clone(),
        d,
    );
    Workload {
        name: "logistic_loop",
        inputs: K,
        calls: 1,
        variants: gradient_variants(Gradients {
            x: beta,
            primal: move |b: &[f64]| log_lik_loop::<f64>(b, &d0.x, &d0.y),
            hand: move |b: &[f64], g: &mut [f64]| log_lik_hand(b, &d1.x, &d1.y, g),
            grad_macro: Some(move |b: &[f64]| {
                let (v, g) = log_lik_loop_grad(b, &d6.x, &d6.y);
                v + g[0]
            }),
            // The tape, operation by operation (unfused: see `no_fusion`).
            fazang: move |b: &[Var]| {
                let _tape = fazang::__private::no_fusion();
                log_lik_loop::<Var>(b, &d2.x, &d2.y)
            },
            num_dual: move |b: &[f64], g: &mut [f64]| {
                num_dual_gradient::<K>(|b| log_lik_peer(b, &d3.x, &d3.y), b, g)
            },
            echidna: move |b: &[Echidna]| log_lik_peer(b, &d4.x, &d4.y),
            ad_trait: move |b: &[AdTrait]| log_lik_peer(b, &d5.x, &d5.y),
        }),
    }
}
