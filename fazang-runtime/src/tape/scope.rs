//! Nested tape scopes: everything recorded inside one is discarded when it ends.

use super::stack::with_tape;
use std::marker::PhantomData;

/// RAII guard of a nested tape scope: created by [`NestedScope::begin`], the scope ends
/// (and everything recorded in it is discarded) when the guard is dropped, including
/// during a panic, so the tape stays usable.
///
/// Dropping a guard also ends any scope opened inside it that is still open. The guard
/// is neither `Send` nor `Sync`: a scope belongs to its thread's tape.
///
/// ```
/// # use fazang::prelude::*;
/// let x = Var::new(2.0);
/// let g = {
///     let _scope = NestedScope::begin();
///     let y = x * x;
///     y.grad();
///     x.adj()
/// }; // y is gone here
/// assert_eq!(g, 4.0);
/// # fazang::clear_tape();
/// ```
#[must_use = "the scope ends as soon as the guard is dropped; bind it with `let _scope = ...`"]
pub struct NestedScope {
    id: u64,
    _not_send: PhantomData<*const ()>,
}

impl NestedScope {
    /// Open a nested scope on this thread's tape.
    ///
    /// ```
    /// # use fazang::prelude::*;
    /// let depth = tape_stats().depth;
    /// let scope = NestedScope::begin();
    /// assert_eq!(tape_stats().depth, depth + 1);
    /// drop(scope);
    /// assert_eq!(tape_stats().depth, depth);
    /// ```
    pub fn begin() -> NestedScope {
        NestedScope {
            id: with_tape(|t| t.begin_nested()),
            _not_send: PhantomData,
        }
    }
}

impl Drop for NestedScope {
    fn drop(&mut self) {
        with_tape(|t| t.end_nested(self.id));
    }
}

/// Run `f` in a nested scope (Fazang's `begin_nested`/`end_nested`): everything it
/// records is discarded when it returns or panics. Variables created before stay valid;
/// variables created inside must not escape (using one afterwards panics).
///
/// ```
/// # use fazang::prelude::*;
/// let before = tape_stats().nodes;
/// let v = nested(|| {
///     let x = Var::new(3.0);
///     let y = x.powi(3);
///     y.grad();
///     x.adj()
/// });
/// assert_eq!(v, 27.0);
/// assert_eq!(tape_stats().nodes, before);
/// ```
pub fn nested<R>(f: impl FnOnce() -> R) -> R {
    let _scope = NestedScope::begin();
    f()
}
