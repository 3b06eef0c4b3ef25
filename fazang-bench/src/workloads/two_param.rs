//! Per-call overhead: a 2-parameter function (the normal log density of one observation,
//! DESIGN.md's example) and its gradient at 10 000 points, one call each.

use crate::data::Rng;
use crate::names::*;
use crate::peers::{ad_trait_gradient, num_dual_gradient, AdTrait, Echidna, PeerNum};
use crate::{assert_close, Variant, Workload};
use fazang::prelude::*;
use fazang_bench_models::{normal_lp, normal_lp_grad};
use std::rc::Rc;

/// Calls per run.
pub const CALLS: usize = 10_000;
const Y: f64 = 1.3;

/// Hand-written gradient `[dμ, dσ]`; returns the value.
pub fn normal_lp_hand(mu: f64, sigma: f64, g: &mut [f64; 2]) -> f64 {
    let inv = 1.0 / sigma;
    let z = (Y - mu) * inv;
    g[0] = z * inv;
    g[1] = (z * z - 1.0) * inv;
    -0.5 * (2.0 * std::f64::consts::PI).ln() - sigma.ln() - 0.5 * z * z
}

/// The body for the peers.
pub fn normal_lp_peer<T: PeerNum>(mu: T, sigma: T) -> T {
    let z = mu.rsub(Y) / sigma;
    -sigma.ln() - (z * z).scale(0.5) + T::cst(-0.5 * (2.0 * std::f64::consts::PI).ln())
}

/// One call at one point.
type OneCall = Box<dyn FnMut(&[f64; 2]) -> f64>;

/// The workload, checked at every point.
pub fn workload() -> Workload {
    let mut rng = Rng::new(4);
    let pts: Rc<Vec<[f64; 2]>> = Rc::new(
        (0..CALLS)
            .map(|_| [rng.range(-1.0, 3.0), rng.range(0.5, 2.0)])
            .collect(),
    );
    let mut g = [0.0; 2];
    for p in pts.iter() {
        let mut want = [0.0; 2];
        normal_lp_hand(p[0], p[1], &mut want);
        gradient_into(|x| normal_lp::<Var>(x[0], x[1]), p, &mut g);
        assert_close("two_param fazang", &g, &want);
        let (_, gm) = normal_lp_grad(p[0], p[1]);
        assert_close("two_param _grad", &gm, &want);
        num_dual_gradient::<2>(|x| normal_lp_peer(x[0], x[1]), p, &mut g);
        assert_close("two_param num-dual", &g, &want);
        let ge = echidna::grad(|x: &[Echidna]| normal_lp_peer(x[0], x[1]), p);
        assert_close("two_param echidna", &ge, &want);
        ad_trait_gradient(|x: &[AdTrait]| normal_lp_peer(x[0], x[1]), p, &mut g);
        assert_close("two_param ad_trait", &g, &want);
    }

    let each = |pts: &Rc<Vec<[f64; 2]>>, mut one: OneCall| {
        let pts = pts.clone();
        Box::new(move || pts.iter().map(&mut one).sum::<f64>()) as Box<dyn FnMut() -> f64>
    };
    let v = |name, run| Variant { name, run };
    Workload {
        name: "two_param",
        inputs: 2,
        calls: CALLS,
        variants: vec![
            v(
                PRIMAL,
                each(&pts, Box::new(|p| normal_lp::<f64>(p[0], p[1]))),
            ),
            v(
                HAND,
                each(
                    &pts,
                    Box::new(|p| {
                        let mut g = [0.0; 2];
                        normal_lp_hand(p[0], p[1], &mut g) + g[1]
                    }),
                ),
            ),
            v(
                GRAD_MACRO,
                each(
                    &pts,
                    Box::new(|p| {
                        let (v, g) = normal_lp_grad(p[0], p[1]);
                        v + g[1]
                    }),
                ),
            ),
            v(
                FAZANG,
                each(
                    &pts,
                    Box::new(|p| {
                        let mut g = [0.0; 2];
                        gradient_into(|x| normal_lp::<Var>(x[0], x[1]), p, &mut g) + g[1]
                    }),
                ),
            ),
            v(
                NUM_DUAL,
                each(
                    &pts,
                    Box::new(|p| {
                        let mut g = [0.0; 2];
                        num_dual_gradient::<2>(|x| normal_lp_peer(x[0], x[1]), p, &mut g) + g[1]
                    }),
                ),
            ),
            v(
                ECHIDNA,
                each(
                    &pts,
                    Box::new(|p| echidna::grad(|x: &[Echidna]| normal_lp_peer(x[0], x[1]), p)[1]),
                ),
            ),
            v(
                AD_TRAIT,
                each(
                    &pts,
                    Box::new(|p| {
                        let mut g = [0.0; 2];
                        ad_trait_gradient(|x: &[AdTrait]| normal_lp_peer(x[0], x[1]), p, &mut g)
                            + g[1]
                    }),
                ),
            ),
        ],
    }
}
