//! The runtime of [fazang](https://docs.rs/fazang): reverse-mode automatic
//! differentiation on a fast thread-local tape, after Fazang (Fortran) and Stan Math.
//!
//! Most users depend on the `fazang` facade and write `use fazang::prelude::*;`.
//!
//! # Example
//!
//! ```
//! use fazang_runtime::*;
//! let x = Var::new(1.5);
//! let y = x.sin() * x;
//! y.grad();
//! assert_eq!(x.adj(), 1.5_f64.cos() * 1.5 + 1.5_f64.sin());
//! # clear_tape();
//! ```
//!
//! # Layout
//!
//! From the bottom up; each module uses only those before it (the support of generated
//! code, last, uses all of them; [`OdeSystem`] names its bounds):
//!
//! - `tape` (private): the tape, [`Var`], nested scopes and the backward sweep; it knows
//!   no math. What a program needs of it is at the root ([`nested`], [`tape_stats`],
//!   [`unary_op`], ...).
//! - [`math`]: [`Real`], every elementary function once (one table of values and
//!   derivatives), `Var`'s operators, special and slice functions, and the numeric
//!   ecosystem's traits (`num_traits`, simba) for every scalar.
//! - [`dist`]: probability distributions (`normal_lpdf`, ...) with Stan's checks.
//! - [`forward`]: forward-mode and higher-order numbers ([`Dual`], [`Taylor`], [`Jet`],
//!   [`Fwd`]) from the same table.
//! - [`linalg`] (feature `nalgebra`): fused matrix operations; [`ode`]: ODE solutions with
//!   sensitivities ([`ode_bdf`], [`ode_rk45`]); [`transform`]: Stan's constraining
//!   transforms (`lb_constrain`, `simplex_free`, ...); [`reduce_sum`]: parallel sums with
//!   thread-count-independent results.
//! - The drivers, at the root: [`gradient`], [`jacobian`], [`hessian`], [`derivative`],
//!   [`jvp`], [`check_deriv_rule`], [`release_tape_memory`], ...
//! - [`composite`] and [`param`]: structs registered with `#[deriv_rule]`, parameters of
//!   every shape.
//! - [`graph`]: what a gradient recorded, as a graph.
//! - [`sparse`]: sparse Jacobians and Hessians (`#[differentiate(sparse)]`).
//! - `support` (hidden, `fazang::__private`): what only generated code uses.

#![cfg_attr(not(feature = "nalgebra"), forbid(unsafe_code))]
// simba's `SimdValue` declares two methods `unsafe`; their impls for `Var` are the only
// `unsafe` tokens (no unsafe operation), allowed where they are.
#![cfg_attr(feature = "nalgebra", deny(unsafe_code))]

pub mod composite;
pub mod dist;
mod drivers;
pub mod forward;
pub mod graph;
#[cfg(feature = "nalgebra")]
pub mod linalg;
pub mod math;
pub mod ode;
mod parallel;
pub mod param;
pub mod sparse;
#[doc(hidden)]
pub mod support;
mod tape;
pub mod transform;

/// The nalgebra whose matrices fazang takes and returns (feature `nalgebra`).
#[cfg(feature = "nalgebra")]
pub use nalgebra;
/// The nalgebra-sparse whose matrices [`sparse::coo_matrix`] makes (feature
/// `nalgebra-sparse`).
#[cfg(feature = "nalgebra-sparse")]
pub use nalgebra_sparse;
/// The ndarray whose arrays fazang takes and returns (feature `ndarray`).
#[cfg(feature = "ndarray")]
pub use ndarray;

pub use crate::dist::functions::*;
pub use crate::dist::DomainError;
pub use crate::drivers::hessian::{
    hessian, hessian_forward, hessian_vector_product, HessianFwdScalar, HessianScalar, HvpScalar,
    HESSIAN_LANES,
};
pub use crate::drivers::release_tape_memory;
pub use crate::drivers::reverse::{gradient, gradient_into, jacobian};
pub use crate::drivers::rule_check::{
    check_deriv_rule, check_deriv_rule_vec, Mismatch, Quantity, RuleCheck,
};
pub use crate::forward::{
    clear_forward, derivative, derivatives, forward_scope, jet_len, jvp, value_and_derivative,
    Dual, Fwd, Jet, JetDyn, JvpOutput, Lanes, Tangent, Taylor,
};
pub use crate::math::functions::*;
pub use crate::math::real::{Partials, Real};
pub use crate::math::slice::{dot_product, log_sum_exp, matmul, norm2, sum, Mix, SliceOps};
pub use crate::ode::{ode_bdf, ode_rk45, OdeSystem, OdeTol};
pub use crate::parallel::reduce_sum;
pub use crate::tape::scope::{nested, NestedScope};
pub use crate::tape::stack::TapeStats;
pub use crate::tape::var::{
    binary_op, clear_tape, nary_op, nary_op_iter, set_zero_all_adj, tape_reserved_bytes,
    tape_stats, unary_op, vector_op, Var,
};
pub use crate::tape::Adjoints;
pub use crate::transform::{
    cholesky_corr_constrain, cholesky_corr_free, cholesky_cov_constrain, cholesky_cov_free,
    corr_matrix_constrain, corr_matrix_free, cov_matrix_constrain, cov_matrix_free, lb_constrain,
    lb_free, lub_constrain, lub_free, offset_multiplier_constrain, offset_multiplier_free,
    ordered_constrain, ordered_free, positive_ordered_constrain, positive_ordered_free,
    simplex_constrain, simplex_free, ub_constrain, ub_free, unit_vector_constrain,
    unit_vector_free,
};
