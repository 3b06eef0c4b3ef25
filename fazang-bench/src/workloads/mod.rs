//! The workloads. Each of the first five files holds the primal as a user writes it (a
//! plain `f64` function, ready for `#[differentiate]`), its hand-written derivative, the
//! same body on fazang's `Var` for the runtime drivers, and the body once for every peer.
//! `gp`, `linalg` and `mvn` compare fazang's fused linear algebra with scalar taping (`mvn`
//! with nalgebra inside `#[differentiate]` bodies); `hessian` times Hessians.

pub mod gp;
pub mod hessian;
pub mod jacobian;
pub mod linalg;
pub mod logistic;
pub mod mvn;
pub mod normal;
pub mod rosenbrock;
pub mod two_param;

use crate::names::*;
use crate::peers::{ad_trait_gradient, AdTrait, Echidna};
use crate::Variant;
use fazang::prelude::*;
use std::rc::Rc;

/// The pieces of a gradient workload over one input vector `x`.
pub(crate) struct Gradients<P, H, M, F, D, E, A> {
    pub x: Vec<f64>,
    pub primal: P,
    pub hand: H,
    /// The `#[differentiate]` `_grad` function (returns value + first entry), if the
    /// workload has one.
    pub grad_macro: Option<M>,
    pub fazang: F,
    pub num_dual: D,
    pub echidna: E,
    pub ad_trait: A,
}

/// The variants of a gradient workload, each writing into its own buffer.
pub(crate) fn gradient_variants<P, H, M, F, D, E, A>(
    w: Gradients<P, H, M, F, D, E, A>,
) -> Vec<Variant>
where
    M: Fn(&[f64]) -> f64 + 'static,
    P: Fn(&[f64]) -> f64 + 'static,
    H: Fn(&[f64], &mut [f64]) -> f64 + 'static,
    F: Fn(&[Var]) -> Var + 'static,
    D: Fn(&[f64], &mut [f64]) -> f64 + 'static,
    E: Fn(&[Echidna]) -> Echidna + 'static,
    A: Fn(&[AdTrait]) -> AdTrait + 'static,
{
    let n = w.x.len();
    let x = Rc::new(w.x);
    let v = |name, run: Box<dyn FnMut() -> f64>| Variant { name, run };
    let (x0, x1, x2, x3, x4, x5, x6) = (
        x.clone(),
        x.clone(),
        x.clone(),
        x.clone(),
        x.clone(),
        x.clone(),
        x,
    );
    let (mut g1, mut g2, mut g3, mut g5) = (vec![0.0; n], vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    let (primal, hand, grad_macro, fazang) = (w.primal, w.hand, w.grad_macro, w.fazang);
    let (num_dual, echidna, ad_trait) = (w.num_dual, w.echidna, w.ad_trait);
    let mut out = vec![
        v(PRIMAL, Box::new(move || primal(&x0))),
        v(HAND, Box::new(move || hand(&x1, &mut g1) + g1[0])),
        v(
            FAZANG,
            Box::new(move || gradient_into(&fazang, &x2, &mut g2) + g2[0]),
        ),
        v(NUM_DUAL, Box::new(move || num_dual(&x3, &mut g3) + g3[0])),
        v(ECHIDNA, Box::new(move || echidna::grad(&echidna, &x4)[0])),
        v(
            AD_TRAIT,
            Box::new(move || ad_trait_gradient(&ad_trait, &x5, &mut g5) + g5[0]),
        ),
    ];
    if let Some(m) = grad_macro {
        out.insert(2, v(GRAD_MACRO, Box::new(move || m(&x6))));
    }
    out
}
