//! # fazang
//!
//! Reverse-mode automatic differentiation for Rust, after the Fortran library
//! [Fazang](https://github.com/yizhang-yiz/fazang) and Stan Math.
//!
//! ```
//! use fazang::prelude::*;
//! let mu = Var::new(0.5);
//! let sigma = Var::new(1.2);
//! let f = -0.5 * (2.0 * std::f64::consts::PI).ln() - sigma.ln()
//!     - 0.5 * ((1.3 - mu) / sigma).powi(2);
//! f.grad();
//! assert!((mu.adj() - 0.5555555555555556).abs() < 1e-15);
//! # fazang::clear_tape();
//! ```

pub use fazang_macros::{deriv_rule, differentiate};
pub use fazang_runtime::*;

#[doc(hidden)]
pub use fazang_runtime::private as __private;

/// Everything a user needs: `use fazang::prelude::*;`.
pub mod prelude {
    pub use fazang_macros::{deriv_rule, differentiate};
    pub use fazang_runtime::{
        binary_op, clear_tape, dot_product, erf, erfc, gradient, gradient_into, inv, inv_logit,
        inv_sqrt, inv_square, jacobian, log_gamma, log_sum_exp, logit, matmul, nary_op,
        nary_op_iter, nested, norm2, set_zero_all_adj, square, sum, tape_stats, unary_op,
        vector_op, NestedScope, Real, Var,
    };
}
