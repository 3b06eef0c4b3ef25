//! The drivers: derivatives of closures, each run on a nested scope.

pub(crate) mod hessian;
pub(crate) mod reverse;
pub(crate) mod rule_check;
