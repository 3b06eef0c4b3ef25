//! Forward mode and higher derivatives from the same generic body: number types that
//! implement [`Real`](crate::Real), so every `#[differentiate]` body, math function,
//! distribution and `#[deriv_rule]` function runs on them.
//!
//! - [`Dual`]: value and directional derivatives (one lane, `[S; N]` lanes, or
//!   [`Lanes`] chosen at run time), over any inner `Real`: `Dual<Var>` is
//!   reverse-over-forward, `Dual<Dual<f64>>` forward-over-forward.
//! - [`Taylor`]: a truncated Taylor series in one variable, for derivatives of any order.
//! - [`Jet`]: MESA's numbers, every mixed partial to total order `M` in `N` variables;
//!   [`JetDyn`] with `N` and `M` chosen at run time.
//! - [`Fwd`] with [`derivative`]: nested forward mode without perturbation confusion.
//!
//! Every derivative comes from the one table of `math::elementary`, evaluated on the
//! scalar one order below, so no derivative is written twice.
//!
//! # Example
//!
//! ```
//! use fazang::prelude::*;
//! use fazang::{derivative, derivatives, hessian, Fwd, Jet};
//!
//! #[differentiate]
//! fn rosenbrock(x: &[f64]) -> f64 {
//!     (1.0 - x[0]).powi(2) + 100.0 * (x[1] - x[0].powi(2)).powi(2)
//! }
//!
//! // ReverseDiffSource's example.
//! let (v, g, h) = hessian(rosenbrock, &[0.5, 2.0]);
//! assert_eq!((v, g, h), (306.5, vec![-351.0, 350.0], vec![vec![-498.0, -200.0], vec![-200.0, 200.0]]));
//!
//! // sin and its derivatives to order 10.
//! let d = derivatives::<10>(|x| x.sin(), 2.0);
//! assert_eq!(d[1], 2.0_f64.cos());
//!
//! // MESA's auto_diff_real_2var_order3: every partial of total order <= 3.
//! type J = Jet<2, 3, 10>;
//! let f = rosenbrock(&[J::variable(0.5, 0), J::variable(2.0, 1)]);
//! assert_eq!(f.partial([1, 1]), -200.0);
//! let fx = f.differentiate(0); // ∂f/∂x as a number of one order less
//! assert_eq!(fx.partial([0, 1]), -200.0);
//!
//! // Nested derivatives through closures: 1, not 2 (no perturbation confusion).
//! let d = derivative(|x: Fwd| x * derivative(|y| x + y, 1.0), 1.0);
//! assert_eq!(d.val(), 1.0);
//! ```

mod arena;
mod derivative;
mod dual;
pub(crate) mod graded;
mod jet;
mod jet_dyn;
mod lanes;
mod monomials;
mod nested;
pub(crate) mod ops;
mod tangent;
mod taylor;

pub use arena::{clear_forward, forward_scope};
pub use derivative::{derivative, derivatives, jvp, value_and_derivative, JvpOutput};
pub use dual::Dual;
pub use jet::{jet_len, Jet};
pub use jet_dyn::JetDyn;
pub use lanes::Lanes;
pub use nested::Fwd;
pub use tangent::Tangent;
pub use taylor::Taylor;
