//! Probability distributions: log densities and log mass functions with Stan's names,
//! parameterisations and argument checks, and fast analytic gradients.
//!
//! Each function returns the full log density (normalising constants included: Stan's
//! `_lpdf` with `propto = false`), summed over the elements of its arguments, or a
//! [`DomainError`] with Stan's message when an argument is outside its domain.
//!
//! # Arguments
//!
//! Every real argument may be
//!
//! - a scalar: `f64` (data), [`Var`](crate::Var) (active), or, in generic code, `S: Real`;
//! - a sequence of them: `&[_]`, `&Vec<_>` or `&[_; N]`.
//!
//! Integer arguments (counts, trials, outcomes) are `i64` or `i32`, scalars or sequences.
//! Sequences must all have the same length (else a [`DomainError`], as Stan's
//! `check_consistent_sizes`); scalars are broadcast against them; empty sequences give 0.
//! The result is `f64` if every argument is data and active otherwise; in a generic body
//! (`fn f<S: Real>(..) where f64: ScalarOps<S>`, what `#[differentiate]` writes) it is `S`
//! (see [`args`]).
//!
//! ```
//! use fazang::prelude::*;
//! let y = [1.3, 0.2, -0.4];
//! let (mu, sigma) = (Var::new(0.5), Var::new(1.2));
//! let lp = normal_lpdf(&y, mu, sigma)? + normal_lpdf(mu, 0.0, 10.0)?
//!     + lognormal_lpdf(sigma, 0.0, 1.0)?;
//! lp.grad();
//! println!("{lp}: d/dmu = {}, d/dsigma = {}", mu.adj(), sigma.adj());
//! # fazang::clear_tape();
//! # Ok::<(), DomainError>(())
//! ```
//!
//! # Gradients
//!
//! Values and partials are computed in forms that keep their accuracy at extreme
//! arguments: huge shapes, degrees of freedom and counts (Stirling differences instead of
//! differences of ln Γ and ψ, which cancel), far tails (in 1/z), tiny shapes. The worst
//! error per function, relative to the conditioning of the problem, is in
//! [`math::accuracy`](crate::math::accuracy); an infinite `y` where the density is 0 gives
//! the constant −∞.
//!
//! Each call records *one* node on the tape, whatever the number of observations, with
//! analytic partials for the active arguments (Stan's operands-and-partials): a scalar
//! parameter gets one partial summed over the observations, a sequence one per element.
//! Terms of scalar parameters (ln σ, 1/σ, ln Γ(α)) are computed once per call; data
//! arguments get no partials, and on `f64` none is computed at all.
//!
//! # Families
//!
//! | function | density of `y` | parameters | support checked |
//! | --- | --- | --- | --- |
//! | [`normal_lpdf`]`(y, mu, sigma)` | N(μ, σ²) | μ finite, σ > 0 | y not NaN |
//! | [`lognormal_lpdf`]`(y, mu, sigma)` | ln y ~ N(μ, σ²) | μ finite, σ > 0 finite | y > 0 |
//! | [`cauchy_lpdf`]`(y, mu, sigma)` | Cauchy, location μ, scale σ | μ finite, σ > 0 finite | y not NaN |
//! | [`student_t_lpdf`]`(y, nu, mu, sigma)` | Student's t, ν degrees of freedom | ν > 0 finite, μ finite, σ > 0 finite | y not NaN |
//! | [`logistic_lpdf`]`(y, mu, sigma)` | logistic, location μ, scale σ | μ finite, σ > 0 finite | y finite |
//! | [`double_exponential_lpdf`]`(y, mu, sigma)` | Laplace, location μ, scale σ | μ finite, σ > 0 finite | y finite |
//! | [`exponential_lpdf`]`(y, beta)` | β e^(−βy), rate β | β > 0 finite | y ≥ 0 |
//! | [`gamma_lpdf`]`(y, alpha, beta)` | shape α, rate β | α, β > 0 finite | y > 0 finite |
//! | [`inv_gamma_lpdf`]`(y, alpha, beta)` | 1/y ~ Gamma(α, β) | α, β > 0 finite | y > 0 finite |
//! | [`weibull_lpdf`]`(y, alpha, sigma)` | shape α, scale σ | α, σ > 0 finite | y ≥ 0 finite |
//! | [`chi_square_lpdf`]`(y, nu)` | χ² with ν degrees of freedom | ν > 0 finite | y ≥ 0 |
//! | [`beta_lpdf`]`(y, alpha, beta)` | shapes α, β | α, β > 0 finite | y ∈ [0, 1] |
//! | [`uniform_lpdf`]`(y, alpha, beta)` | uniform on [α, β] | α, β finite, β > α | y not NaN; outside [α, β]: −∞ |
//! | [`poisson_lpmf`]`(n, lambda)` | Poisson, rate λ | λ ≥ 0 | n ≥ 0 |
//! | [`poisson_log_lpmf`]`(n, alpha)` | Poisson, rate e^α | α not NaN | n ≥ 0 |
//! | [`neg_binomial_2_lpmf`]`(n, mu, phi)` | negative binomial, mean μ, variance μ + μ²/φ | μ, φ > 0 finite | n ≥ 0 |
//! | [`binomial_lpmf`]`(n, N, theta)` | binomial, N trials, probability θ | N ≥ 0, θ ∈ [0, 1] | 0 ≤ n ≤ N |
//! | [`bernoulli_lpmf`]`(n, theta)` | Bernoulli, probability θ | θ ∈ [0, 1] | n ∈ {0, 1} |
//! | [`bernoulli_logit_lpmf`]`(n, alpha)` | Bernoulli, probability logit⁻¹(α) | α not NaN | n ∈ {0, 1} |
//!
//! The argument names in error messages are Stan's ("Random variable", "Location
//! parameter", "Scale parameter", "Shape parameter", "Inverse scale parameter", ...), and
//! so are the checks, with one deliberate difference: data outside a support that does
//! not depend on the parameters (y ≤ 0 for the log-normal and inverse gamma, y < 0 for the
//! Weibull) is an error here where Stan returns −∞. The uniform's support depends on its
//! parameters, so there, as in Stan, such data gives −∞.
//!
//! # Errors and `?`
//!
//! [`DomainError`] implements [`std::error::Error`]; its message is Stan's
//! (`normal_lpdf: Scale parameter is -1, but must be positive!`) and its accessors give
//! the function, argument, element index and value. Argument checks are in [`check`], for
//! writing further distributions the same way.

pub mod args;
mod binary;
mod bounded;
pub mod check;
mod count;
mod error;
mod kernel;
mod location_scale;
pub mod multi;
mod normal;
mod positive;
mod special;

pub use args::{Arg, Args, Elements, IntArg, Ret};
pub use error::{Constraint, DomainError};
pub use functions::*;

/// Every distribution function, listed once: the crate root and `fazang::prelude` bring
/// in all of them.
pub mod functions {
    pub use super::binary::{bernoulli_logit_lpmf, bernoulli_lpmf, binomial_lpmf};
    pub use super::bounded::{beta_lpdf, uniform_lpdf};
    pub use super::count::{neg_binomial_2_lpmf, poisson_log_lpmf, poisson_lpmf};
    pub use super::location_scale::{
        cauchy_lpdf, double_exponential_lpdf, logistic_lpdf, student_t_lpdf,
    };
    pub use super::multi::{
        categorical_logit_lpmf, categorical_lpmf, dirichlet_lpdf, inv_wishart_lpdf,
        lkj_corr_cholesky_lpdf, lkj_corr_lpdf, multi_normal_cholesky_lpdf, multi_normal_lpdf,
        multi_normal_prec_lpdf, multi_student_t_lpdf, multinomial_lpmf, wishart_lpdf,
    };
    pub use super::normal::{lognormal_lpdf, normal_lpdf};
    pub use super::positive::{
        chi_square_lpdf, exponential_lpdf, gamma_lpdf, inv_gamma_lpdf, weibull_lpdf,
    };
}
