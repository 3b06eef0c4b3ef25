//! Multivariate distributions, with Stan's names, parameterisations and checks: the
//! multivariate normal (by covariance, Cholesky factor or precision), the multivariate
//! Student's t, the LKJ distributions of correlation matrices, the Dirichlet, Wishart and
//! inverse Wishart, and the multinomial and categorical.
//!
//! | function | density of | parameters |
//! | --- | --- | --- |
//! | [`multi_normal_lpdf`]`(y, mu, sigma)` | `y` ~ N(μ, Σ), rows independent | Σ symmetric positive definite |
//! | [`multi_normal_cholesky_lpdf`]`(y, mu, l)` | `y` ~ N(μ, LLᵀ) | L lower triangular, positive diagonal |
//! | [`multi_normal_prec_lpdf`]`(y, mu, omega)` | `y` ~ N(μ, Ω⁻¹) | Ω symmetric positive definite |
//! | [`multi_student_t_lpdf`]`(y, nu, mu, sigma)` | `y` ~ t_ν(μ, Σ) | ν > 0, Σ symmetric positive definite |
//! | [`lkj_corr_lpdf`]`(omega, eta)` | a correlation matrix Ω | η > 0 |
//! | [`lkj_corr_cholesky_lpdf`]`(l, eta)` | the Cholesky factor L of a correlation matrix | η > 0 |
//! | [`dirichlet_lpdf`]`(theta, alpha)` | a simplex θ | α > 0 |
//! | [`wishart_lpdf`]`(w, nu, sigma)` | a symmetric positive definite W | ν > K − 1, Σ s.p.d. |
//! | [`inv_wishart_lpdf`]`(w, nu, sigma)` | a symmetric positive definite W | ν > K − 1, Σ s.p.d. |
//! | [`multinomial_lpmf`]`(ns, theta)` | counts `ns: &[i64]` | θ a simplex |
//! | [`categorical_lpmf`]`(n, theta)` | outcomes in `1..=K` (`i64` or a slice) | θ a simplex |
//! | [`categorical_logit_lpmf`]`(n, beta)` | outcomes in `1..=K` | log odds β finite |
//!
//! # Arguments
//!
//! Vectors are `&[S]`, `&Vec<S>`, `&[S; N]` or `&DVector<S>`; matrices are rows
//! (`&[Vec<S>]`, `&Vec<Vec<S>>`, arrays of arrays) or `&DMatrix<S>` (nalgebra, feature
//! `nalgebra`); see [`MultiArg`]. Every argument may be data (`S = f64`) or active (`Var`,
//! a forward-mode scalar, the `S` of a `#[differentiate]` body), in any mix; scalar
//! parameters (ν, η) are as for the univariate families. `y` and `mu` of the normal family
//! and of the Student's t may hold several observations as rows (the result is the sum;
//! a single vector is broadcast against rows), as may both arguments of the Dirichlet.
//! Symmetric matrices are read as (A + Aᵀ)/2 after the symmetry check, so each of two
//! mirrored entries gets the same partial.
//!
//! Sizes that do not fit, ragged rows, a matrix that is not symmetric, not positive
//! definite, not a correlation matrix or not lower triangular, a vector that is not a
//! simplex: each is a [`DomainError`](crate::DomainError) with Stan's message, never a panic.
//!
//! # Gradients
//!
//! Each call records one node, with analytic partials of every active entry (Stan's
//! operands-and-partials), computed one derivative order below the result: on `f64` for
//! `Var` results, so a gradient costs the factorisation (on values, not on the tape) and
//! a few triangular solves; on the inner scalar for dual numbers, so Hessians and
//! Hessian-vector products through these densities are exact.
//!
//! ```
//! use fazang::prelude::*;
//! // A hierarchical model with an LKJ prior: correlation through its Cholesky factor,
//! // scales, and a multivariate normal likelihood of rows of data.
//! fn model(p: &[Var], y: &[Vec<f64>]) -> Result<Var, DomainError> {
//!     let mut lp = Var::from(0.0);
//!     let l_corr = cholesky_corr_constrain(&p[0..3], 3, &mut lp);
//!     let tau: Vec<Var> = p[3..6].iter().map(|&t| lb_constrain(t, 0.0, &mut lp)).collect();
//!     // L = diag(τ) L_corr
//!     let l: Vec<Vec<Var>> = (0..3).map(|i| l_corr[i].iter().map(|&v| tau[i] * v).collect()).collect();
//!     lp += lkj_corr_cholesky_lpdf(&l_corr, 2.0)? + cauchy_lpdf(&tau, 0.0, 2.5)?;
//!     lp += multi_normal_cholesky_lpdf(y, &p[6..9], &l)?;
//!     Ok(lp)
//! }
//! let y = vec![vec![0.1, 0.5, -0.2], vec![1.0, 0.3, 0.2]];
//! let (v, g) = gradient(|p| model(p, &y).unwrap(), &[0.1; 9]);
//! assert!(v.is_finite() && g.iter().all(|d| d.is_finite()));
//! ```

// The result types name the tuple of arguments, `Ret<(Flat<Y>, Flat<M>, Flat<L>)>`, as the
// univariate families' `Ret<(Y, M, Sg)>` do: an alias would only hide what they are.
#![allow(clippy::type_complexity)]

mod args;
pub mod check;
mod dense;
mod lkj;
mod normal;
mod obs;
mod record;
mod simplex;
mod structure;
mod student;
mod wishart;

pub use args::{Flat, MultiArg};
pub use check::Structure;
pub use lkj::{lkj_corr_cholesky_lpdf, lkj_corr_lpdf};
pub use normal::{multi_normal_cholesky_lpdf, multi_normal_lpdf, multi_normal_prec_lpdf};
pub use simplex::{categorical_logit_lpmf, categorical_lpmf, dirichlet_lpdf, multinomial_lpmf};
pub use student::multi_student_t_lpdf;
pub use wishart::{inv_wishart_lpdf, wishart_lpdf};

pub(crate) use dense::cholesky as dense_cholesky;
