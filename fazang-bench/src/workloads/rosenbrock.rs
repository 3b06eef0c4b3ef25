//! Rosenbrock's function in n = 1000 dimensions:
//! f(x) = Σ_{i<n-1} 100 (x_{i+1} - x_i²)² + (1 - x_i)².

use super::{gradient_variants, Gradients};
use crate::data::Rng;
use crate::peers::{ad_trait_gradient, num_dual_gradient, AdTrait, Echidna, PeerNum};
use crate::{assert_close, Workload};
use fazang::prelude::*;
use fazang_bench_models::{rosenbrock, rosenbrock_grad, rosenbrock_loop, rosenbrock_loop_grad};

/// Number of inputs.
pub const N: usize = 1000;

/// Hand-written gradient; returns the value.
pub fn rosenbrock_hand(x: &[f64], g: &mut [f64]) -> f64 {
    g.iter_mut().for_each(|gi| *gi = 0.0);
    let mut f = 0.0;
    for i in 0..x.len() - 1 {
        let t = x[i + 1] - x[i] * x[i];
        let u = 1.0 - x[i];
        f += 100.0 * t * t + u * u;
        g[i] += -400.0 * t * x[i] - 2.0 * u;
        g[i + 1] += 200.0 * t;
    }
    f
}

/// The body for the peers.
pub fn rosenbrock_peer<T: PeerNum>(x: &[T]) -> T {
    let mut acc = T::cst(0.0);
    for i in 0..x.len() - 1 {
        let t = x[i + 1] - x[i] * x[i];
        let u = x[i].rsub(1.0);
        acc = acc + t.scale(100.0) * t + u * u;
    }
    acc
}

/// The workload, checked.
pub fn workload() -> Workload {
    let mut rng = Rng::new(1);
    let x = rng.vec(N, -1.5, 1.5);
    let mut want = vec![0.0; N];
    rosenbrock_hand(&x, &mut want);

    let mut g = vec![0.0; N];
    gradient_into(rosenbrock::<Var>, &x, &mut g);
    assert_close("rosenbrock fazang", &g, &want);
    let (_, g) = rosenbrock_grad(&x);
    assert_close("rosenbrock _grad", &g, &want);
    let mut g = g;
    assert_close("rosenbrock fazang", &g, &want);
    num_dual_gradient::<N>(rosenbrock_peer, &x, &mut g);
    assert_close("rosenbrock num-dual", &g, &want);
    let ge = echidna::grad(|x: &[Echidna]| rosenbrock_peer(x), &x);
    assert_close("rosenbrock echidna", &ge, &want);
    ad_trait_gradient(rosenbrock_peer::<AdTrait>, &x, &mut g);
    assert_close("rosenbrock ad_trait", &g, &want);

    Workload {
        name: "rosenbrock",
        inputs: N,
        calls: 1,
        variants: gradient_variants(Gradients {
            x,
            primal: rosenbrock::<f64>,
            hand: rosenbrock_hand,
            grad_macro: Some(|x: &[f64]| {
                let (v, g) = rosenbrock_grad(x);
                v + g[0]
            }),
            fazang: |x: &[Var]| rosenbrock::<Var>(x),
            num_dual: |x: &[f64], g: &mut [f64]| num_dual_gradient::<N>(rosenbrock_peer, x, g),
            echidna: rosenbrock_peer::<Echidna>,
            ad_trait: rosenbrock_peer::<AdTrait>,
        }),
    }
}

/// The same function written as a plain loop: `_grad` is adjoint code, `fazang` the tape.
pub fn workload_loop() -> Workload {
    let mut rng = Rng::new(1);
    let x = rng.vec(N, -1.5, 1.5);
    let mut want = vec![0.0; N];
    rosenbrock_hand(&x, &mut want);
    let (_, g) = rosenbrock_loop_grad(&x);
    assert_close("rosenbrock_loop _grad", &g, &want);
    let mut g = vec![0.0; N];
    gradient_into(rosenbrock_loop::<Var>, &x, &mut g);
    assert_close("rosenbrock_loop fazang", &g, &want);
    Workload {
        name: "rosenbrock_loop",
        inputs: N,
        calls: 1,
        variants: gradient_variants(Gradients {
            x,
            primal: rosenbrock_loop::<f64>,
            hand: rosenbrock_hand,
            grad_macro: Some(|x: &[f64]| {
                let (v, g) = rosenbrock_loop_grad(x);
                v + g[0]
            }),
            // The tape, operation by operation (unfused: see `no_fusion`).
            fazang: |x: &[Var]| {
                let _tape = fazang::__private::no_fusion();
                rosenbrock_loop::<Var>(x)
            },
            num_dual: |x: &[f64], g: &mut [f64]| num_dual_gradient::<N>(rosenbrock_peer, x, g),
            echidna: rosenbrock_peer::<Echidna>,
            ad_trait: rosenbrock_peer::<AdTrait>,
        }),
    }
}
