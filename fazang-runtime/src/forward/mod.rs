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

mod arena;
mod drivers;
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
pub use drivers::{derivatives, jvp, JvpOutput};
pub use dual::Dual;
pub use jet::{jet_len, Jet};
pub use jet_dyn::JetDyn;
pub use lanes::Lanes;
pub use nested::{derivative, value_and_derivative, Fwd};
pub use tangent::Tangent;
pub use taylor::Taylor;
