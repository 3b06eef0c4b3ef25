//! # fazang
//!
//! Reverse-mode automatic differentiation for Rust, after the Fortran library
//! [Fazang](https://github.com/yizhang-yiz/fazang) and Stan Math: a fast thread-local
//! tape, an `f64`-compatible active scalar [`Var`], Fazang's runtime API and its function
//! library.
//!
//! Most programs need only the attributes: [`#[differentiate]`](differentiate) turns an
//! ordinary `fn(f64, ..) -> f64` into the same function plus `_grad` and `_jacobian`
//! variants, and [`#[deriv_rule]`](deriv_rule) supplies derivatives for functions that
//! should not be traced; see their own documentation. This page describes the runtime
//! underneath, which can also be used directly.
//!
//! # Example
//!
//! Fazang's first example: the log of a normal density of `y = 1.3` and its gradient.
//!
//! ```
//! use fazang::prelude::*;
//! let mu = Var::new(0.5);
//! let sigma = Var::new(1.2);
//! let f = -0.5 * (2.0 * std::f64::consts::PI).ln() - sigma.ln()
//!     - 0.5 * ((1.3 - mu) / sigma).powi(2);
//! f.grad();
//! assert!((mu.adj() - 0.8 / 1.44).abs() < 1e-15); // (y - mu) / sigma²
//! assert!((sigma.adj() - (-1.0 / 1.2 + 0.64 / 1.728)).abs() < 1e-15);
//! # fazang::clear_tape();
//! ```
//!
//! The same without managing the tape, through [`gradient`]:
//!
//! ```
//! use fazang::prelude::*;
//! let (f, g) = gradient(
//!     |x| {
//!         let (mu, sigma) = (x[0], x[1]);
//!         -0.5 * (2.0 * std::f64::consts::PI).ln() - sigma.ln()
//!             - 0.5 * ((1.3 - mu) / sigma).powi(2)
//!     },
//!     &[0.5, 1.2],
//! );
//! assert!((g[0] - 0.8 / 1.44).abs() < 1e-15);
//! # let _ = f;
//! ```
//!
//! # Runtime API
//!
//! | item | meaning |
//! | --- | --- |
//! | [`Var::new(v)`](Var::new) | a new independent variable, recorded on this thread's tape |
//! | [`x.val()`](Var::val), [`x.adj()`](Var::adj) | value; adjoint (derivative of the last [`grad`](Var::grad) seed with respect to `x`) |
//! | [`y.grad()`](Var::grad) | backward sweep seeded at `y`; adjoints accumulate |
//! | [`set_zero_all_adj()`](set_zero_all_adj) | zero every adjoint (before a second `grad`) |
//! | [`nested(\|\| ..)`](nested), [`NestedScope`] | run code on a nested scope whose recordings are discarded at its end |
//! | [`gradient(f, &x)`](gradient), [`gradient_into`] | value and gradient of `f: Fn(&[Var]) -> Var`, on a nested scope |
//! | [`jacobian(f, &x)`](jacobian) | values and Jacobian rows `jac[i][j] = ∂out_i/∂x_j` of `f: Fn(&[Var]) -> Vec<Var>` |
//! | [`Real`] | the scalar trait of `f64` and `Var`: write a body once, run it on either |
//! | [`tape_stats()`](tape_stats), [`clear_tape()`](clear_tape) | what the tape holds; discard all of it |
//! | [`release_tape_memory()`](release_tape_memory), [`tape_reserved_bytes()`](tape_reserved_bytes) | give back the memory a large tape reserved; how much it holds |
//!
//! `Var` is a 16-byte `Copy` handle. Arithmetic `+ - * / %`, unary `-` and `+= -= *= /=
//! %=` work between `Var`s, `f64`s and references to either, as on `f64`; comparisons
//! (`<`, `==`, ...) between `Var`/`Var`, `Var`/`f64` and `f64`/`Var` compare values.
//! `Var` implements `Sum`, `Product`, `Default`, `From<f64>` (a constant: records
//! nothing), and formats (`{}`, `{:.3}`, `{:e}`, `{:?}`) exactly as `f64` does. It also
//! implements `num_traits`' `Zero` and `One` and `approx`'s `AbsDiffEq`, `RelativeEq`
//! and `UlpsEq` (comparing values).
//!
//! # Functions
//!
//! Every method of [`Real`], on `f64` and `Var` alike: `f64`'s math methods with their
//! names and meanings (`sin`, `exp`, `ln_1p`, `powf`, `hypot`, `clamp`, ..., and the
//! piecewise constant `floor`, `round`, `signum`, ..., whose derivative is 0; `%` has
//! partials 1 and -trunc(a/b)), tests on the value (`is_nan`, `total_cmp`, ...), and
//! Fazang's and Stan's functions (`erf`, `log_gamma`, `inv_logit`, `log1p_exp`, the
//! two-argument `a.log_sum_exp(b)`, ...), the one-argument ones also as free functions
//! ([`erf`], [`log_gamma`], ..., see [`math::functions`]) for use on `f64` without a clash
//! with std's unstable methods of the same names. [`Real`]'s page lists every method with
//! its derivative.
//!
//! On `Var`, the binary methods (`atan2 powf hypot log min max mul_add clamp copysign
//! rem_euclid div_euclid midpoint log_sum_exp`) accept `f64` or `Var` arguments:
//! `x.powf(2.0)` and `x.powf(y)` both work. Non-differentiable points get the
//! conventional one-sided value (`abs` at 0 has derivative 0, `hypot` and `atan2` at the
//! origin have derivatives 0), never a NaN made by the derivative code itself. `clamp`
//! passes the derivative to whichever argument it returns and, like `f64::clamp`,
//! panics if `lo > hi` or a bound is NaN.
//!
//! Values and derivatives are accurate to a few ulp over the whole domain, relative to
//! the conditioning of each problem; the table per function is in [`math::accuracy`].
//!
//! Over slices of any `Real`: [`sum`], [`dot_product`], [`log_sum_exp`] (stable: shifted
//! by the maximum), [`norm2`] and [`matmul`]; the binary ones take any mix of `f64` and
//! `Var` slices. Each result is one node on the tape, with analytic partials.
//!
//! ```
//! use fazang::prelude::*;
//! let w = [0.5, -1.0];
//! let (v, g) = gradient(|x| log_sum_exp(x) + dot_product(&w, x) + x[0].erf(), &[1.0, 2.0]);
//! let s = 1.0_f64.exp() + 2.0_f64.exp();
//! assert!((g[1] - (2.0_f64.exp() / s - 1.0)).abs() < 1e-15);
//! # let _ = v;
//! ```
//!
//! # Nested scopes
//!
//! A nested scope is a mark on the tape: everything recorded after it is discarded when
//! it ends, and the space is reused. [`nested`] runs a closure on one; the
//! [`NestedScope`] guard ends its scope when dropped (also during a panic, so the tape
//! stays usable). [`gradient`] and [`jacobian`] run on nested scopes and leave the
//! values and adjoints of variables created outside them unchanged.
//!
//! ```
//! use fazang::prelude::*;
//! let x = Var::new(2.0);
//! let before = tape_stats();
//! let d = nested(|| {
//!     let y = x * x * x;
//!     y.grad();
//!     x.adj()
//! });
//! assert_eq!(d, 12.0);
//! assert_eq!(tape_stats(), before); // y is gone
//! # fazang::clear_tape();
//! ```
//!
//! A `Var` created inside a scope must not outlive it: using one afterwards (anything
//! but [`val`](Var::val)) panics with a message saying so, rather than reading another
//! variable's slot. Return `f64` values from scopes.
//!
//! # Custom operations
//!
//! As Fazang's chapter 5 and MESA's `make_unop`/`make_binop`: compute a value and its
//! partials on `f64` and record them with [`unary_op`], [`binary_op`], [`nary_op`] or
//! [`nary_op_iter`]; for vector functions whose adjoints are best computed lazily (a
//! vector-Jacobian product run during the sweep), use [`vector_op`]. Constant operands
//! are skipped. Generic code uses [`Real::from_partials`], which records only when the
//! scalar is active.
//!
//! ```
//! use fazang::prelude::*;
//! /// softplus(x) = ln(1 + eˣ), d/dx = σ(x)
//! fn softplus(x: Var) -> Var {
//!     let v = x.val();
//!     unary_op(v.exp().ln_1p(), x, inv_logit(v))
//! }
//! let (_, g) = gradient(|x| softplus(x[0]), &[0.0]);
//! assert_eq!(g, vec![0.5]);
//! ```
//!
//! # Threads
//!
//! Each thread has its own tape, so threads compute gradients independently and in
//! parallel without locks. A `Var` is only valid on the thread that created it: it is
//! `Send` (its value may travel), but using it on another thread's tape panics with a
//! message that says so. Send `f64` values between threads, and create `Var`s where they
//! are used.
//!
//! ```
//! use fazang::prelude::*;
//! let handles: Vec<_> = (1..=4)
//!     .map(|k| std::thread::spawn(move || gradient(|x| x[0] * f64::from(k), &[1.0]).1[0]))
//!     .collect();
//! let gs: Vec<f64> = handles.into_iter().map(|h| h.join().unwrap()).collect();
//! assert_eq!(gs, vec![1.0, 2.0, 3.0, 4.0]);
//! ```

#![forbid(unsafe_code)]

// The public surface, listed: what a program uses, by name. Everything else of the runtime
// (the tape's internals, the support of generated code) is out of reach, except through
// the hidden `__private`, which only generated code names.

pub use fazang_macros::{deriv_rule, differentiate};

// The scalars, the tape and custom operations.
pub use fazang_runtime::{
    binary_op, clear_tape, nary_op, nary_op_iter, nested, release_tape_memory, set_zero_all_adj,
    tape_reserved_bytes, tape_stats, unary_op, vector_op, Adjoints, NestedScope, Partials, Real,
    TapeStats, Var,
};

// Functions: slices, fazang's own scalar functions, distributions.
pub use fazang_runtime::dist::functions::*;
pub use fazang_runtime::math::functions::*;
pub use fazang_runtime::{
    dot_product, log_sum_exp, matmul, norm2, sum, DomainError, Mix, SliceOps,
};

// Drivers.
pub use fazang_runtime::{
    check_deriv_rule, check_deriv_rule_vec, derivative, derivatives, gradient, gradient_into,
    hessian, hessian_forward, hessian_vector_product, jacobian, jvp, value_and_derivative,
    JvpOutput, Mismatch, Quantity, RuleCheck,
};

// Forward-mode numbers and the scalars of the Hessian drivers.
pub use fazang_runtime::{
    clear_forward, forward_scope, jet_len, Dual, Fwd, HessianFwdScalar, HessianScalar, HvpScalar,
    Jet, JetDyn, Lanes, Tangent, Taylor, HESSIAN_LANES,
};

// ODEs.
pub use fazang_runtime::{ode_bdf, ode_rk45, ode_system, OdeSystem, OdeTol};

// Constraining transforms and parallel sums.
pub use fazang_runtime::reduce_sum;
pub use fazang_runtime::transform::{
    cholesky_corr_constrain, cholesky_corr_free, cholesky_cov_constrain, cholesky_cov_free,
    corr_matrix_constrain, corr_matrix_free, cov_matrix_constrain, cov_matrix_free, lb_constrain,
    lb_free, lub_constrain, lub_free, offset_multiplier_constrain, offset_multiplier_free,
    ordered_constrain, ordered_free, positive_ordered_constrain, positive_ordered_free,
    simplex_constrain, simplex_free, ub_constrain, ub_free, unit_vector_constrain,
    unit_vector_free,
};

// The modules, each with its own documentation (`fazang::transform`, Stan's constraining
// transforms, belongs here too).
#[cfg(feature = "nalgebra")]
pub use fazang_runtime::linalg;
pub use fazang_runtime::{composite, dist, forward, graph, math, ode, param, sparse, transform};

// The matrix crates fazang implements its traits for, so that a program's versions
// cannot drift from fazang's: `use fazang::nalgebra::DMatrix;`.
/// nalgebra, at the version fazang's `Var` is a scalar of (feature `nalgebra`).
#[cfg(feature = "nalgebra")]
pub use fazang_runtime::nalgebra;
#[cfg(feature = "nalgebra-sparse")]
pub use fazang_runtime::nalgebra_sparse;
/// ndarray, at the version whose arrays `#[differentiate]` takes (feature `ndarray`).
#[cfg(feature = "ndarray")]
pub use fazang_runtime::ndarray;

#[doc(hidden)]
pub use fazang_runtime::support as __private;

pub mod body {
    //! The names compiler messages about a `#[differentiate]` body may use: the bounds its
    //! generated code puts on the body's scalar (`ActiveF64`, the `f64` of the function as
    //! written, which is a tape variable or a dual number when a derivative runs) and the
    //! conversions it makes of the body's values. Nothing here is called by hand; this
    //! module says what each name means when rustc prints it.
    //!
    //! - [`BodyScalar`] (with num-traits' [`Float`]), [`ScalarOps`], [`RefOps`],
    //!   [`RefScalarOps`]: what the scalar does, and what `f64` values do next to it
    //!   (`2.0 * x`, `&a + &b`). An `i32` or `f32` where the function takes `f64` fails
    //!   these: pass an `f64`.
    //! - [`IntoScalar`], [`lit`], [`Promote`], [`promote`], [`Pass`], [`pass`],
    //!   [`adapt_ref`], [`DataRef`], [`DataArg`]: data (plain `f64` values and arrays) meeting
    //!   active values; a value of another type (an integer literal `0` where `0.0` is meant,
    //!   `f32`, `Option<f64>`) fails them.
    //! - [`ToF64`], [`to_f64`], [`ToIndex`], [`to_index`]: a value the function reads as an
    //!   `f64` or uses as an index; the message says which type it found instead.
    //! - [`FromVars`], [`from_vars`], [`taped_call_vec`]: a function the macro cannot see into,
    //!   called with active values, gets them as tape variables: it must be generic over
    //!   [`Real`] or carry `#[differentiate]` itself (a plain `fn(f64)` cannot take them).
    //! - [`AsScalar`], [`real`]: the math methods of a body (`x.sin()`, `y.ln()`) take its
    //!   scalar or `f64`; a vector or an `f32` fails them.
    //! - [`ScaleOther`]: data scaling nalgebra matrices of the scalar.
    //! - [`FwdRev`], [`Probe`]: the scalars of `_hessian_sparse` and the sparsity probe, which
    //!   std's operator impls of `f64` list next to `Var` and `Dual`.
    //! - [`LaneResult`], [`lane_re`], [`lane_eps`]: what a function the macro cannot see
    //!   into returns when called with active values: a number (a `Result` needs `?`).
    //! - [`Seed`]: an active parameter of a struct type must be a `#[deriv_rule]` struct.
    //! - [`Outputs`]: a function with a Jacobian returns `Vec<f64>`, `[f64; M]` or a nesting
    //!   of them (not a `Result` of them where a `?` is missing).

    pub use fazang_runtime::support::real::AsScalar;
    pub use fazang_runtime::support::{
        adapt_ref, from_vars, lit, pass, promote, real, taped_call_vec, to_f64, to_index,
        BodyScalar, DataArg, DataRef, FromVars, FwdRev, IntoScalar, Pass, Probe, Promote, RefOps,
        RefScalarOps, ScalarOps, ScaleOther, ToF64, ToIndex,
    };
    pub use fazang_runtime::support::{lane_eps, lane_re, Float, LaneResult, Outputs, Seed};
    pub use fazang_runtime::Real;
}

/// Everything a user needs: `use fazang::prelude::*;`.
pub mod prelude {
    pub use fazang_macros::{deriv_rule, differentiate};
    pub use fazang_runtime::dist::functions::*;
    pub use fazang_runtime::math::functions::*;
    pub use fazang_runtime::transform::{
        cholesky_corr_constrain, cholesky_corr_free, cholesky_cov_constrain, cholesky_cov_free,
        corr_matrix_constrain, corr_matrix_free, cov_matrix_constrain, cov_matrix_free,
        lb_constrain, lb_free, lub_constrain, lub_free, offset_multiplier_constrain,
        offset_multiplier_free, ordered_constrain, ordered_free, positive_ordered_constrain,
        positive_ordered_free, simplex_constrain, simplex_free, ub_constrain, ub_free,
        unit_vector_constrain, unit_vector_free,
    };
    pub use fazang_runtime::{
        binary_op, check_deriv_rule, clear_tape, dot_product, gradient, gradient_into, jacobian,
        log_sum_exp, matmul, nary_op, nary_op_iter, nested, norm2, release_tape_memory,
        set_zero_all_adj, sum, tape_reserved_bytes, tape_stats, unary_op, vector_op, DomainError,
        NestedScope, Real, Var,
    };
    pub use fazang_runtime::{
        categorical_logit_lpmf, categorical_lpmf, dirichlet_lpdf, inv_wishart_lpdf,
        lkj_corr_cholesky_lpdf, lkj_corr_lpdf, multi_normal_cholesky_lpdf, multi_normal_lpdf,
        multi_normal_prec_lpdf, multi_student_t_lpdf, multinomial_lpmf, reduce_sum, wishart_lpdf,
    };
    pub use fazang_runtime::{ode_bdf, ode_rk45, ode_system, OdeSystem, OdeTol};
}

/// The runtime's plumbing is out of a program's reach: each of these paths must fail to
/// resolve (what generated code needs is under the hidden `__private`).
///
/// ```compile_fail
/// use fazang::private::Outputs;
/// ```
///
/// ```compile_fail
/// use fazang::real_calls::sin;
/// ```
///
/// ```compile_fail
/// use fazang::core::var::Var;
/// ```
///
/// ```compile_fail
/// use fazang::tape::scope::nested;
/// ```
///
/// ```compile_fail
/// use fazang::support::lit;
/// ```
///
/// The same names through the public surface compile:
///
/// ```
/// use fazang::{nested, Var};
/// use fazang::__private::{lit, Outputs};
/// let _ = (nested(|| Var::new(1.0).val()), lit::<f64>(1.0));
/// fn _o<T: Outputs>() {}
/// ```
#[cfg(doctest)]
pub struct PlumbingIsPrivate;

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// docs/ecosystem.md's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../docs/ecosystem.md")]
pub struct EcosystemDoctests;
