//! The workloads of the performance goals of issues 18 (gradients of bodies written as
//! users write them) and 21 (second order and sparsity), each timed side by side with its
//! primal, a hand-written derivative, num-dual and echidna, and the goals those issues set,
//! evaluated on the measured ratios.
//!
//! Two suites: `gradients` (issue 18) and `second` (issue 21). The fazang rows are named
//! after the item they call: `_grad`, `_grad_into`, `tape` (the hidden
//! `__name_grad_tape` twin `#[differentiate]` generates beside every `_grad`: the tape,
//! operation by operation), `_hessian`, `_hvp`, `_jacobian`, and with the `sparse`
//! feature `_hessian_sparse` and `_jacobian_sparse`.

pub mod gradients;
pub mod mlp;
pub mod report;
pub mod second;
pub mod sparse;

use crate::checked::{flat, Checked};
use crate::peers::Echidna;
use crate::Workload;

/// Row names of the goal suites.
pub mod rows {
    pub use crate::names::{HAND, PRIMAL};
    /// `name_grad`.
    pub const GRAD: &str = "_grad";
    /// `name_grad_into` into a reused buffer.
    pub const GRAD_INTO: &str = "_grad_into";
    /// The hidden `__name_grad_tape` twin: the tape, operation by operation.
    pub const TAPE: &str = "tape";
    /// `name_hessian`.
    pub const HESSIAN: &str = "_hessian";
    /// `name_hvp`.
    pub const HVP: &str = "_hvp";
    /// `name_jacobian`.
    pub const JACOBIAN: &str = "_jacobian";
    /// `name_hessian_sparse` (feature `sparse`).
    pub const HESSIAN_SPARSE: &str = "_hessian_sparse";
    /// `name_jacobian_sparse` (feature `sparse`).
    pub const JACOBIAN_SPARSE: &str = "_jacobian_sparse";
    /// num-dual: forward-mode gradient, `hessian` (Dual2), or Jacobian.
    pub const NUM_DUAL: &str = "num_dual";
    /// num-dual forward-over-forward Hessian-vector product (hyper-dual numbers).
    pub const NUM_DUAL_FOF: &str = "num_dual_fof";
    /// echidna: reverse-mode `grad`, or forward-mode `jacobian`.
    pub const ECHIDNA: &str = "echidna";
    /// echidna's `hessian_vec::<8>` (bytecode tape, forward-over-reverse, 8 lanes).
    pub const ECHIDNA_HESSIAN: &str = "echidna_hessian_vec8";
    /// echidna's `hvp` (bytecode tape, forward-over-reverse).
    pub const ECHIDNA_HVP: &str = "echidna_hvp";
    /// echidna's `sparse_hessian` / `sparse_jacobian` (detection, colouring, sweeps).
    pub const ECHIDNA_SPARSE: &str = "echidna_sparse";
    /// echidna's `sparse_hessian_vec::<8>` / `sparse_jacobian_vec::<8>` (8 colours per
    /// sweep).
    pub const ECHIDNA_SPARSE_VEC: &str = "echidna_sparse_vec8";
}

/// The suites, in table order.
pub const SUITES: [&str; 2] = ["gradients", "second"];

/// The workloads of a suite, by name.
pub fn names(suite: &str) -> &'static [&'static str] {
    match suite {
        "gradients" => &gradients::NAMES,
        "second" => &second::NAMES,
        _ => &[],
    }
}

/// The goal workload called `name`, checked.
pub fn by_name(name: &str) -> Option<Workload> {
    gradients::by_name(name).or_else(|| second::by_name(name))
}

/// The suite a goal workload belongs to.
pub fn suite_of(name: &str) -> Option<&'static str> {
    SUITES.into_iter().find(|s| names(s).contains(&name))
}

/// The ways of computing one gradient workload at a point `p` (the active inputs, or one
/// of many points of a per-call workload), as the seven rows of the `gradients` suite.
pub(crate) struct GradFns<P, H, G, GI, T, D, E> {
    /// The function as written.
    pub primal: P,
    /// Hand-written gradient into the buffer; returns the value.
    pub hand: H,
    /// `name_grad`.
    pub grad: G,
    /// `name_grad_into` into the buffer; returns the value.
    pub grad_into: GI,
    /// `__name_grad_tape`.
    pub tape: T,
    /// num-dual's forward-mode gradient into the buffer; returns the value.
    pub num_dual: D,
    /// The body on echidna's reverse scalar (run by `echidna::grad`, which gives no
    /// value).
    pub echidna: E,
}

/// A gradient workload with the seven rows, each checked at every point.
pub(crate) fn gradient_workload<P, H, G, Gv, GI, T, Tv, D, E>(
    name: &'static str,
    pts: Vec<f64>,
    k: usize,
    f: GradFns<P, H, G, GI, T, D, E>,
) -> Workload
where
    P: FnMut(&[f64]) -> f64 + 'static,
    H: FnMut(&[f64], &mut [f64]) -> f64 + 'static,
    G: Fn(&[f64]) -> (f64, Gv) + 'static,
    Gv: AsRef<[f64]> + 'static,
    GI: FnMut(&[f64], &mut [f64]) -> f64 + 'static,
    T: Fn(&[f64]) -> (f64, Tv) + 'static,
    Tv: AsRef<[f64]> + 'static,
    D: FnMut(&[f64], &mut [f64]) -> f64 + 'static,
    E: Fn(&[Echidna]) -> Echidna + 'static,
{
    use rows::*;
    let GradFns {
        primal,
        mut hand,
        grad,
        mut grad_into,
        tape,
        mut num_dual,
        echidna,
    } = f;
    let buf = || vec![0.0; k];
    Checked::new(name, k, pts, k, primal)
        .hand(buf(), move |p, g| hand(p, g), flat)
        .variant(GRAD, None, returned(grad), returned_dense)
        .variant(GRAD_INTO, buf(), move |p, g| grad_into(p, g), flat)
        .variant(TAPE, None, returned(tape), returned_dense)
        .variant(NUM_DUAL, buf(), move |p, g| num_dual(p, g), flat)
        .variant_without_value(
            ECHIDNA,
            Vec::new(),
            move |p, g| {
                *g = echidna::grad(&echidna, p);
                g[0]
            },
            flat,
        )
        .build()
}

/// A variant around a function that returns `(value, derivative)`: the derivative is
/// moved into the variant's buffer (no copy).
pub(crate) fn returned<G>(
    f: impl Fn(&[f64]) -> (f64, G) + 'static,
) -> impl FnMut(&[f64], &mut Option<G>) -> f64 + 'static {
    move |p, o| {
        let (v, g) = f(p);
        *o = Some(g);
        v
    }
}

/// The derivative a [`returned`] variant holds, flat.
pub(crate) fn returned_dense<G: AsRef<[f64]>>(o: &Option<G>) -> Vec<f64> {
    o.as_ref().expect("computed").as_ref().to_vec()
}
