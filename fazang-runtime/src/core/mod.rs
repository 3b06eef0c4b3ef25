//! The tape, `Var`, nested scopes and the backward sweep. No math lives here.

pub(crate) mod capture;
mod ops;
pub mod scope;
pub mod tape;
pub mod var;

#[cfg(test)]
mod tests;
