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
//! - [`core`]: the tape, [`Var`], nested scopes and the backward sweep; it knows no math.
//! - [`math`]: every elementary function once (value and derivative), slice functions.
//! - [`dist`]: probability distributions (`normal_lpdf`, ...) with Stan's checks.
//! - [`transform`]: Stan's constraining transforms (`lb_constrain`, `simplex_free`, ...).
//! - [`reduce_sum`]: parallel sums with thread-count-independent results.
//! - [`ode`]: ODE solutions with forward sensitivities ([`ode_bdf`], [`ode_rk45`]).
//! - [`drivers`](gradient): [`gradient`] and [`jacobian`] on nested scopes.

#![cfg_attr(not(feature = "nalgebra"), forbid(unsafe_code))]
// simba's `SimdValue` declares two methods `unsafe`; their impls for `Var` are the only
// `unsafe` tokens (no unsafe operation), allowed where they are.
#![cfg_attr(feature = "nalgebra", deny(unsafe_code))]

mod activate;
mod adjoint;
pub mod composite;
pub mod core;
pub mod dist;
mod drivers;
pub mod forward;
pub mod graph;
mod hessian;
mod interop;
#[cfg(feature = "nalgebra")]
pub mod linalg;
pub mod math;
pub mod ode;
mod parallel;
pub mod param;
#[doc(hidden)]
pub mod private;
mod real;
#[doc(hidden)]
pub mod real_calls;
mod rule;
mod rule_check;
mod seed;
pub mod transform;

pub use crate::core::scope::{nested, NestedScope};
pub use crate::core::tape::TapeStats;
pub use crate::core::var::{
    binary_op, clear_tape, nary_op, nary_op_iter, release_tape_memory, set_zero_all_adj,
    tape_reserved_bytes, tape_stats, unary_op, vector_op, Var,
};
pub use crate::core::Adjoints;
pub use crate::dist::{
    bernoulli_logit_lpmf, bernoulli_lpmf, beta_lpdf, binomial_lpmf, cauchy_lpdf, chi_square_lpdf,
    double_exponential_lpdf, exponential_lpdf, gamma_lpdf, inv_gamma_lpdf, logistic_lpdf,
    lognormal_lpdf, neg_binomial_2_lpmf, normal_lpdf, poisson_log_lpmf, poisson_lpmf,
    student_t_lpdf, uniform_lpdf, weibull_lpdf, DomainError,
};
pub use crate::dist::{
    categorical_logit_lpmf, categorical_lpmf, dirichlet_lpdf, inv_wishart_lpdf,
    lkj_corr_cholesky_lpdf, lkj_corr_lpdf, multi_normal_cholesky_lpdf, multi_normal_lpdf,
    multi_normal_prec_lpdf, multi_student_t_lpdf, multinomial_lpmf, wishart_lpdf,
};
pub use crate::drivers::{gradient, gradient_into, jacobian};
pub use crate::forward::{
    clear_forward, derivative, derivatives, forward_scope, jet_len, jvp, value_and_derivative,
    Dual, Fwd, Jet, JetDyn, JvpOutput, Lanes, Tangent, Taylor,
};
pub use crate::hessian::{
    hessian, hessian_forward, hessian_vector_product, HessianFwdScalar, HessianScalar, HvpScalar,
    HESSIAN_LANES,
};
pub use crate::math::slice::{dot_product, log_sum_exp, matmul, norm2, sum, Mix, SliceOps};
pub use crate::math::{
    erf, erfc, inv, inv_logit, inv_sqrt, inv_square, log1p_exp, log_gamma, logit, square,
};
pub use crate::ode::{ode_bdf, ode_rk45, OdeSystem, OdeTol};
pub use crate::parallel::reduce_sum;
pub use crate::real::{Partials, Real};
pub use crate::rule_check::{
    check_deriv_rule, check_deriv_rule_vec, Mismatch, Quantity, RuleCheck,
};
pub use crate::transform::{
    cholesky_corr_constrain, cholesky_corr_free, cholesky_cov_constrain, cholesky_cov_free,
    corr_matrix_constrain, corr_matrix_free, cov_matrix_constrain, cov_matrix_free, lb_constrain,
    lb_free, lub_constrain, lub_free, offset_multiplier_constrain, offset_multiplier_free,
    ordered_constrain, ordered_free, positive_ordered_constrain, positive_ordered_free,
    simplex_constrain, simplex_free, ub_constrain, ub_free, unit_vector_constrain,
    unit_vector_free,
};
