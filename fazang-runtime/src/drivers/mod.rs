//! The drivers: derivatives of closures, each run on a nested scope
//! ([`gradient`](crate::gradient), [`jacobian`](crate::jacobian),
//! [`hessian`](crate::hessian), [`check_deriv_rule`](crate::check_deriv_rule), ...), and
//! [`release_tape_memory`](crate::release_tape_memory), which frees what this thread's
//! tape and the layers above it hold.

pub(crate) mod hessian;
pub(crate) mod reverse;
pub(crate) mod rule_check;

/// Give back to the allocator all memory this thread's tape holds beyond what it records
/// now (after an unusually large gradient, say). What is recorded stays valid; the next
/// recordings grow the tape again as needed.
///
/// The tape gives back memory by itself too: when the outermost nested scope ends or
/// [`clear_tape`](crate::clear_tape) is called after a recording more than 4 times larger than the recent
/// ones (and above about 1 MB), the excess is released down to twice the recent size.
///
/// ```
/// # use fazang::prelude::*;
/// let (v, g) = gradient(|x| (0..1_000_000).map(|i| x[0] * (i as f64)).sum(), &[1.0]);
/// release_tape_memory();
/// assert!(tape_reserved_bytes() < 1000);
/// # let _ = (v, g);
/// ```
pub fn release_tape_memory() {
    crate::tape::var::release_tape();
    crate::math::release_buffers();
    reverse::release_buffers();
}
