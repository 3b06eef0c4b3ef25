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
//! - [`tape`]: the tape, [`Var`], nested scopes and the backward sweep; it knows no math.
//! - [`math`]: every elementary function once (value and derivative), slice functions.
//! - [`dist`]: probability distributions (`normal_lpdf`, ...) with Stan's checks.
//! - [`ode`]: ODE solutions with forward sensitivities ([`ode_bdf`], [`ode_rk45`]).
//! - [`drivers`](gradient): [`gradient`] and [`jacobian`] on nested scopes.

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
pub mod param;
#[doc(hidden)]
pub mod support;
mod tape;

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
pub use crate::tape::scope::{nested, NestedScope};
pub use crate::tape::stack::TapeStats;
pub use crate::tape::var::{
    binary_op, clear_tape, nary_op, nary_op_iter, set_zero_all_adj, tape_reserved_bytes,
    tape_stats, unary_op, vector_op, Var,
};
pub use crate::tape::Adjoints;
