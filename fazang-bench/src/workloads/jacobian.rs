//! Jacobian of a 50 → 50 map, one dense layer: f(x) = tanh(W x + b).

use crate::data::Rng;
use crate::names::*;
use crate::peers::{ad_trait_jacobian, num_dual_jacobian, AdTrait, EchidnaDual, PeerNum};
use crate::{assert_close, Variant, Workload};
use fazang::prelude::*;
use fazang_bench_models::{layer, layer_jacobian};
use std::rc::Rc;

/// Inputs = outputs.
pub const N: usize = 50;

/// The layer's weights (rows) and biases.
pub struct Layer {
    /// `N` rows of `N` weights.
    pub w: Vec<Vec<f64>>,
    /// `N` biases.
    pub b: Vec<f64>,
}

/// Hand-written Jacobian `J[i][j] = (1 - tanh² zᵢ) W[i][j]`; returns `f(x)[0]`.
pub fn layer_hand(x: &[f64], l: &Layer, jac: &mut [Vec<f64>]) -> f64 {
    let mut first = 0.0;
    for (i, ((row, &bi), out)) in l.w.iter().zip(&l.b).zip(jac.iter_mut()).enumerate() {
        let t = (dot_product(row, x) + bi).tanh();
        let d = 1.0 - t * t;
        for (o, w) in out.iter_mut().zip(row) {
            *o = d * w;
        }
        if i == 0 {
            first = t;
        }
    }
    first
}

/// The body for the peers.
pub fn layer_peer<T: PeerNum>(x: &[T], l: &Layer) -> Vec<T> {
    l.w.iter()
        .zip(&l.b)
        .map(|(row, &bi)| {
            let mut z = x[0].scale(row[0]);
            for (xj, &w) in x.iter().zip(row).skip(1) {
                z = z + xj.scale(w);
            }
            z.shift(bi).tanh()
        })
        .collect()
}

fn check(what: &str, got: &[Vec<f64>], want: &[Vec<f64>]) {
    for (g, w) in got.iter().zip(want) {
        assert_close(what, g, w);
    }
}

/// The workload, checked.
pub fn workload() -> Workload {
    let mut rng = Rng::new(5);
    let scale = 1.0 / (N as f64).sqrt();
    let l = Rc::new(Layer {
        w: (0..N).map(|_| rng.vec(N, -scale, scale)).collect(),
        b: rng.vec(N, -0.5, 0.5),
    });
    let x = Rc::new(rng.vec(N, -1.0, 1.0));
    let mut want = vec![vec![0.0; N]; N];
    layer_hand(&x, &l, &mut want);

    let (_, jf) = jacobian(|x| layer::<Var>(x, &l.w, &l.b), &x);
    check("jacobian fazang", &jf, &want);
    let (_, jm) = layer_jacobian(&x, &l.w, &l.b);
    check("jacobian _jacobian", &jm, &want);
    let mut j = vec![vec![0.0; N]; N];
    num_dual_jacobian::<N>(|x| layer_peer(x, &l), &x, &mut j);
    check("jacobian num-dual", &j, &want);
    let (_, je) = echidna::jacobian(|x| layer_peer(x, &l), &x);
    check("jacobian echidna", &je, &want);
    ad_trait_jacobian(|x: &[AdTrait]| layer_peer(x, &l), &x, &mut j);
    check("jacobian ad_trait", &j, &want);

    let v = |name, run| Variant { name, run };
    let (l0, l1, l2, l3, l4, l5, l6) = (
        l.clone(),
        l.clone(),
        l.clone(),
        l.clone(),
        l.clone(),
        l.clone(),
        l,
    );
    let (x0, x1, x2, x3, x4, x5, x6) = (
        x.clone(),
        x.clone(),
        x.clone(),
        x.clone(),
        x.clone(),
        x.clone(),
        x,
    );
    let (mut j1, mut j3, mut j5) = (want.clone(), want.clone(), want);
    Workload {
        name: "jacobian",
        inputs: N,
        calls: 1,
        variants: vec![
            v(
                PRIMAL,
                // The whole output escapes: else, with LTO, only its first entry need be
                // computed.
                Box::new(move || std::hint::black_box(layer::<f64>(&x0, &l0.w, &l0.b))[0])
                    as Box<dyn FnMut() -> f64>,
            ),
            v(
                HAND,
                Box::new(move || layer_hand(&x1, &l1, &mut j1) + j1[1][1]),
            ),
            v(
                GRAD_MACRO,
                Box::new(move || {
                    let (v, j) = layer_jacobian(&x6, &l6.w, &l6.b);
                    v[0] + j[1][1]
                }),
            ),
            v(
                FAZANG,
                Box::new(move || {
                    let (v, j) = jacobian(|x| layer::<Var>(x, &l2.w, &l2.b), &x2);
                    v[0] + j[1][1]
                }),
            ),
            v(
                NUM_DUAL,
                Box::new(move || {
                    num_dual_jacobian::<N>(|x| layer_peer(x, &l3), &x3, &mut j3) + j3[1][1]
                }),
            ),
            v(
                ECHIDNA,
                Box::new(move || {
                    let (v, j) =
                        echidna::jacobian(|x: &[EchidnaDual]| layer_peer_dual(x, &l4), &x4);
                    v[0] + j[1][1]
                }),
            ),
            v(
                AD_TRAIT,
                Box::new(move || {
                    ad_trait_jacobian(|x: &[AdTrait]| layer_peer(x, &l5), &x5, &mut j5) + j5[1][1]
                }),
            ),
        ],
    }
}

/// echidna's `jacobian` runs forward mode on its `Dual`; the same body.
pub(crate) fn layer_peer_dual(x: &[EchidnaDual], l: &Layer) -> Vec<EchidnaDual> {
    layer_peer(x, l)
}
