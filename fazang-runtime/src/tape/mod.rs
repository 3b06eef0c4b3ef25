//! The tape, `Var`, nested scopes and the backward sweep. No math lives here.

pub(crate) mod capture;
mod keys;
pub(crate) mod pool;
pub mod scope;
pub mod stack;
mod sweep;
pub mod var;

pub use sweep::Adjoints;

#[cfg(test)]
mod tests;
