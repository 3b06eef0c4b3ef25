//! Stan's constraining transforms, for sampling and optimising on unconstrained space.
//!
//! Each `*_constrain` maps unconstrained values into a constrained set and adds the log
//! absolute determinant of the map's Jacobian to `lp` (Stan's `lp` accumulation, so a
//! density over the constrained values becomes a density over the unconstrained ones);
//! each `*_free` is its inverse on `f64`, with a [`DomainError`](crate::DomainError) for a value outside the
//! set (checked to 1e-8 where a sum or a symmetry is compared).
//!
//! | constrain | free | map; the Jacobian whose log-determinant goes into `lp` |
//! | --- | --- | --- |
//! | [`lb_constrain`]`(x, lb, lp)` | [`lb_free`]`(y, lb)` | `lb + eˣ` |
//! | [`ub_constrain`]`(x, ub, lp)` | [`ub_free`]`(y, ub)` | `ub − eˣ` |
//! | [`lub_constrain`]`(x, lb, ub, lp)` | [`lub_free`]`(y, lb, ub)` | `lb + (ub − lb) logit⁻¹(x)` |
//! | [`offset_multiplier_constrain`]`(x, mu, sigma, lp)` | [`offset_multiplier_free`]`(y, mu, sigma)` | `mu + sigma x` |
//! | [`simplex_constrain`]`(y, lp)` | [`simplex_free`]`(x)` | K − 1 values to a K-simplex (stick breaking); y ↦ the first K − 1 components |
//! | [`ordered_constrain`]`(y, lp)` | [`ordered_free`]`(x)` | `x₁ = y₁`, `xₖ = xₖ₋₁ + e^{yₖ}` |
//! | [`positive_ordered_constrain`]`(y, lp)` | [`positive_ordered_free`]`(x)` | `x₁ = e^{y₁}`, then as ordered |
//! | [`unit_vector_constrain`]`(y, lp)` | [`unit_vector_free`]`(x)` | `y / \|y\|`; adds `−½\|y\|²`, as Stan |
//! | [`cholesky_corr_constrain`]`(y, k, lp)` | [`cholesky_corr_free`]`(l)` | k(k−1)/2 values to the Cholesky factor of a correlation matrix; y ↦ the strictly lower entries of L |
//! | [`cholesky_cov_constrain`]`(y, k, lp)` | [`cholesky_cov_free`]`(l)` | k(k+1)/2 values to a lower triangular L with positive diagonal; y ↦ the lower entries |
//! | [`corr_matrix_constrain`]`(y, k, lp)` | [`corr_matrix_free`]`(m)` | k(k−1)/2 values to a correlation matrix; y ↦ its strictly lower entries |
//! | [`cov_matrix_constrain`]`(y, k, lp)` | [`cov_matrix_free`]`(m)` | k(k+1)/2 values to a covariance matrix; y ↦ its lower entries |
//!
//! The scalar `S` is any [`Real`](crate::Real): `f64`, [`Var`](crate::Var), a forward-mode
//! number, or the scalar of a `#[differentiate]` body, where Stan's pattern works as it
//! reads (`lp` starts as `0.0` and becomes active when a transform adds to it). The maps
//! are written with fazang's functions (`log1p_exp` rather than `(1 + x.exp()).ln()`, running
//! logarithms rather than differences close to 1), so they stay accurate at large
//! |y| (a scale at y = 40, a simplex with one component close to 1) and differentiate
//! exactly to every order. Matrices are `Vec<Vec<_>>` rows; the unconstrained vector of a
//! matrix transform is read row by row over the (strictly) lower triangle, and `*_free`
//! returns it in that order. Sizes are fixed by `k`: a `y` of the wrong length is a
//! programming error and panics.
//!
//! # Example
//!
//! Eight schools, non-centred: a scale through `lb_constrain`, in a `#[differentiate]`
//! log density.
//!
//! ```
//! use fazang::prelude::*;
//!
//! #[differentiate(wrt(theta))]
//! fn eight_schools(theta: &[f64], y: &[f64], sigma: &[f64]) -> Result<f64, DomainError> {
//!     let mut lp = 0.0;
//!     let mu = theta[0];
//!     let tau = lb_constrain(theta[1], 0.0, &mut lp);
//!     let eta = &theta[2..];
//!     let means: Vec<f64> = eta.iter().map(|e| mu + tau * e).collect();
//!     lp += normal_lpdf(mu, 0.0, 5.0)? + cauchy_lpdf(tau, 0.0, 5.0)?;
//!     lp += normal_lpdf(eta, 0.0, 1.0)? + normal_lpdf(y, &means, sigma)?;
//!     Ok(lp)
//! }
//!
//! let y = [28.0, 8.0, -3.0, 7.0, -1.0, 1.0, 18.0, 12.0];
//! let sigma = [15.0, 10.0, 16.0, 11.0, 9.0, 11.0, 10.0, 18.0];
//! let theta = [4.0, 1.0, 0.1, -0.2, 0.0, 0.3, 0.5, -0.1, 0.2, 0.0];
//! let (lp, g) = eight_schools_grad(&theta, &y, &sigma)?;
//! assert!(lp.is_finite() && g.len() == 10);
//! # Ok::<(), DomainError>(())
//! ```

mod matrix;
mod scalar;
mod vector;

pub use matrix::{
    cholesky_corr_constrain, cholesky_corr_free, cholesky_cov_constrain, cholesky_cov_free,
    corr_matrix_constrain, corr_matrix_free, cov_matrix_constrain, cov_matrix_free,
};
pub use scalar::{
    lb_constrain, lb_free, lub_constrain, lub_free, offset_multiplier_constrain,
    offset_multiplier_free, ub_constrain, ub_free,
};
pub use vector::{
    ordered_constrain, ordered_free, positive_ordered_constrain, positive_ordered_free,
    simplex_constrain, simplex_free, unit_vector_constrain, unit_vector_free,
};
