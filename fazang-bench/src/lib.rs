//! Benchmarks of fazang side by side with the primal, hand-written gradients and other
//! Rust AD crates (num-dual, echidna, ad_trait).
//!
//! Every workload is a [`Workload`]: a list of [`Variant`]s that compute the same thing
//! (value and gradient or Jacobian) in different ways. Building a workload checks every
//! AD variant against the hand-written derivative once (a benchmark never times a wrong
//! answer). The `ratios` binary times them all and prints one table; the criterion
//! bench `gradients` times the same variants for the details.

#![forbid(unsafe_code)]

pub mod checked;
pub mod data;
pub mod goals;
pub mod peers;
pub mod report;
pub mod tape;
pub mod timer;
pub mod workloads;

/// One way of computing a workload's result. `run` returns a number derived from the
/// result so that the optimizer cannot drop the work.
pub struct Variant {
    /// Short name, also the criterion benchmark id.
    pub name: &'static str,
    /// One evaluation (value and derivatives, or the primal alone).
    pub run: Box<dyn FnMut() -> f64>,
}

/// A function and every way of computing it, checked against each other.
pub struct Workload {
    /// Short name, also the criterion group.
    pub name: &'static str,
    /// Number of active inputs.
    pub inputs: usize,
    /// How many evaluations one `run` performs (10 000 for the per-call workload).
    pub calls: usize,
    /// The ways of computing it; the first is the primal, the second the hand-written
    /// derivative.
    pub variants: Vec<Variant>,
}

/// Variant names, in table order.
pub mod names {
    /// The plain `f64` function.
    pub const PRIMAL: &str = "primal";
    /// A hand-written derivative.
    pub const HAND: &str = "hand";
    /// fazang's `#[differentiate]` `_grad` (added once the macro lands).
    pub const GRAD_MACRO: &str = "fazang_grad";
    /// fazang's runtime `gradient_into(closure)` / `jacobian(closure)`.
    pub const FAZANG: &str = "fazang";
    /// fazang's `normal_lpdf` (added once the distribution lands).
    pub const FAZANG_LPDF: &str = "fazang_normal_lpdf";
    /// num-dual's forward-mode gradient.
    pub const NUM_DUAL: &str = "num_dual";
    /// echidna's reverse tape.
    pub const ECHIDNA: &str = "echidna";
    /// ad_trait's reverse mode.
    pub const AD_TRAIT: &str = "ad_trait";
    /// fazang with `fazang::linalg`'s fused matrix operations.
    pub const FAZANG_FUSED: &str = "fazang_fused";
    /// fazang with nalgebra's algorithms on `Var` matrices (taped scalar by scalar).
    pub const FAZANG_TAPED: &str = "fazang_taped";
    /// fazang's `multi_normal_lpdf` / `multi_normal_cholesky_lpdf` (one node).
    pub const FAZANG_MULTI_NORMAL: &str = "fazang_multi_normal";
    /// fazang's gradient, beside the Hessians (for the Hessian / gradient ratio).
    pub const GRADIENT: &str = "gradient";
    /// fazang's `hessian` (reverse-over-forward, 8 directions per pass).
    pub const HESSIAN: &str = "fazang_hessian";
    /// fazang's `hessian_forward` (forward-over-forward).
    pub const HESSIAN_FWD: &str = "fazang_hessian_forward";
    /// The `name_hessian` `#[differentiate]` generates (forward-over-forward up to 4
    /// inputs, reverse-over-forward above).
    pub const HESSIAN_GENERATED: &str = "fazang_generated_hessian";
    /// One `hessian_vector_product` per column (reverse-over-forward, 1 direction).
    pub const HESSIAN_COLUMNS: &str = "fazang_hvp_columns";
}

impl Workload {
    /// The variant called `name`, if this workload has it.
    pub fn variant_mut(&mut self, name: &str) -> Option<&mut Variant> {
        self.variants.iter_mut().find(|v| v.name == name)
    }
}

/// Every workload, each checked against its hand-written derivative.
pub fn all() -> Vec<Workload> {
    vec![
        workloads::rosenbrock::workload(),
        workloads::rosenbrock::workload_loop(),
        workloads::logistic::workload(),
        workloads::logistic::workload_loop(),
        workloads::normal::workload(),
        workloads::two_param::workload(),
        workloads::jacobian::workload(),
        workloads::gp::workload(),
    ]
    .into_iter()
    .chain(workloads::linalg::NAMES.map(workloads::linalg::workload))
    .collect()
}

/// The `nalgebra` suite: nalgebra inside `#[differentiate]` bodies (multivariate normal
/// log densities, [`workloads::mvn`]), with peers that need one tangent per input.
pub const NALGEBRA: [&str; 2] = ["mvn", "mvn_cholesky"];

/// The Hessian workloads, each checked against its hand-written Hessian.
pub fn hessians() -> Vec<Workload> {
    vec![
        workloads::hessian::rosenbrock_workload(),
        workloads::hessian::two_param_workload(),
    ]
}

/// The workload called `name` (of any suite), checked (without building the others).
pub fn by_name(name: &str) -> Option<Workload> {
    if let Some(w) = goals::by_name(name) {
        return Some(w);
    }
    Some(match name {
        "rosenbrock" => workloads::rosenbrock::workload(),
        "rosenbrock_loop" => workloads::rosenbrock::workload_loop(),
        "logistic" => workloads::logistic::workload(),
        "logistic_loop" => workloads::logistic::workload_loop(),
        "normal" => workloads::normal::workload(),
        "two_param" => workloads::two_param::workload(),
        "jacobian" => workloads::jacobian::workload(),
        "hessian_rosenbrock" => workloads::hessian::rosenbrock_workload(),
        "hessian_two_param" => workloads::hessian::two_param_workload(),
        "gp" => workloads::gp::workload(),
        "mvn" => workloads::mvn::workload(),
        "mvn_cholesky" => workloads::mvn::workload_cholesky(),
        n => workloads::linalg::workload(workloads::linalg::NAMES.into_iter().find(|&m| m == n)?),
    })
}

/// Assert that `got` matches `want` to a relative tolerance (scaled by the largest entry).
pub fn assert_close(what: &str, got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    let scale = want.iter().fold(1.0_f64, |m, w| m.max(w.abs()));
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= 1e-9 * scale,
            "{what}: entry {i} is {g}, the hand-written derivative says {w}"
        );
    }
}
