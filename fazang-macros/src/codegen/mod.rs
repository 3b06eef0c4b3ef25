//! Code generators over the [model](crate::model) and its [activity](crate::activity):
//! each prints the body back as Rust for one purpose.
//!
//! - [`generic`]: the body generic over the scalar `S` (the primal with `S = f64`, the
//!   tape with `S = Var`, other scalar types later): passive code stays plain `f64`,
//!   active code gets `S`, and a passive value flowing into an active place is converted
//!   there, explicitly.

pub mod generic;
pub mod pat;
mod ty;
