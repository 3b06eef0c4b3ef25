//! [`Var`], the active scalar, and the recording helpers every operation goes through.

mod batch;
mod record;

pub(crate) use batch::{grad_in_scope_into, jacobian_into, new_vars, nth_after, read_run};
pub(crate) use record::{binary_named, nary_named, unary_named, vector_named};
pub use record::{binary_op, nary_op, nary_op_iter, unary_op, vector_op};

use super::stack::{with_tape, TapeStats};
use record::record0;
use std::fmt;

/// Key of constants: they are never recorded (no node has this key).
const CONSTANT: u64 = u64::MAX;

/// A `Copy` handle to a value on the current thread's tape (16 bytes: the value and the
/// key of its node, a number never reused, so a `Var` whose node is gone is detected).
///
/// Arithmetic between `Var`s, `f64`s and references records onto the tape; a backward
/// sweep started by [`grad`](Var::grad) fills in adjoints.
///
/// # Example
///
/// Fazang's log-normal-density example, with `y = 1.3`:
///
/// ```
/// use fazang::prelude::*;
/// let mu = Var::new(0.5);
/// let sigma = Var::new(1.2);
/// let f = -0.5 * (2.0 * std::f64::consts::PI).ln() - sigma.ln()
///     - 0.5 * ((1.3 - mu) / sigma).powi(2);
/// f.grad();
/// assert!((mu.adj() - 0.8 / 1.44).abs() < 1e-15);
/// assert!((sigma.adj() - (-1.0 / 1.2 + 0.64 / 1.728)).abs() < 1e-15);
/// # fazang::clear_tape();
/// ```
#[derive(Clone, Copy)]
pub struct Var {
    val: f64,
    /// The key of the node (see `tape::keys`): one integer, so that a `Var` is a pair of
    /// scalars and passes and returns in two registers.
    key: u64,
}

const _: () = assert!(std::mem::size_of::<Var>() == 16);

impl Var {
    /// A new independent variable with value `v`, recorded on this thread's tape.
    ///
    /// ```
    /// # use fazang::prelude::*;
    /// let x = Var::new(2.0);
    /// assert_eq!(x.val(), 2.0);
    /// ```
    #[inline]
    pub fn new(v: f64) -> Var {
        Var::recorded(v, record0(v))
    }

    /// A constant: it records nothing and its adjoint is always zero.
    ///
    /// ```
    /// # use fazang::prelude::*;
    /// let c = Var::constant(3.0);
    /// assert!(c.is_constant());
    /// ```
    #[inline]
    pub const fn constant(v: f64) -> Var {
        Var {
            val: v,
            key: CONSTANT,
        }
    }

    /// The value. Reading it never touches the tape, so it works on any thread and after
    /// the variable's scope has ended.
    ///
    /// ```
    /// # use fazang::prelude::*;
    /// let y = Var::new(2.0) * 3.0;
    /// assert_eq!(y.val(), 6.0);
    /// # fazang::clear_tape();
    /// ```
    #[inline]
    pub fn val(&self) -> f64 {
        self.val
    }

    /// Whether this is a constant (records nothing, adjoint zero).
    ///
    /// ```
    /// # use fazang::prelude::*;
    /// assert!(Var::constant(1.0).is_constant() && Var::from(2.0).is_constant());
    /// assert!(!Var::new(1.0).is_constant());
    /// # fazang::clear_tape();
    /// ```
    #[inline]
    pub fn is_constant(&self) -> bool {
        self.key == CONSTANT
    }

    /// The node index on the tape, or `None` for constants (for custom operations).
    ///
    /// Panics if the variable's scope has ended or it belongs to another thread.
    ///
    /// ```
    /// # use fazang::prelude::*;
    /// assert_eq!(Var::from(1.0).index(), None);
    /// assert!(Var::new(1.0).index().is_some());
    /// # fazang::clear_tape();
    /// ```
    #[inline]
    pub fn index(&self) -> Option<u32> {
        (!self.is_constant()).then(|| with_tape(|t| t.lookup(self.key)))
    }

    /// The adjoint: the derivative of the last [`grad`](Var::grad) seed with respect to
    /// this variable (zero for constants and before any sweep).
    ///
    /// Panics if the variable's scope has ended or it belongs to another thread.
    ///
    /// ```
    /// # use fazang::prelude::*;
    /// let x = Var::new(3.0);
    /// let y = x * x;
    /// y.grad();
    /// assert_eq!(x.adj(), 6.0);
    /// # fazang::clear_tape();
    /// ```
    #[inline]
    pub fn adj(&self) -> f64 {
        if self.is_constant() {
            return 0.0;
        }
        with_tape(|t| t.adj(t.lookup(self.key)))
    }

    /// Backward sweep seeded at this variable: its adjoint is set to 1 and every node of
    /// the tape propagates its adjoint to its operands. Adjoints accumulate across calls;
    /// call [`set_zero_all_adj`] between two sweeps.
    ///
    /// ```
    /// # use fazang::prelude::*;
    /// let x = Var::new(0.5);
    /// let y = x.sin();
    /// y.grad();
    /// assert_eq!(x.adj(), 0.5_f64.cos());
    /// # fazang::clear_tape();
    /// ```
    pub fn grad(&self) {
        if self.is_constant() {
            return;
        }
        with_tape(|t| {
            let i = t.lookup(self.key);
            t.grad(i);
        })
    }

    /// Sweep only the innermost nested scope, seeded here (drivers use this). Its
    /// adjoints are zeroed first even when this is a constant, so that each row of a
    /// Jacobian starts from zero.
    pub(crate) fn grad_in_scope(&self) {
        with_tape(|t| {
            if self.is_constant() {
                return t.grad_in_scope(None);
            }
            let i = t.lookup(self.key);
            t.grad_in_scope(Some(i));
        })
    }

    #[inline(always)]
    fn recorded(val: f64, key: u64) -> Var {
        Var { val, key }
    }
}

/// Zero the adjoint of every variable on this thread's tape (before a second
/// [`Var::grad`]).
///
/// ```
/// # use fazang::prelude::*;
/// let x = Var::new(2.0);
/// let y = x * x;
/// y.grad();
/// set_zero_all_adj();
/// assert_eq!(x.adj(), 0.0);
/// (x * 3.0).grad();
/// assert_eq!(x.adj(), 3.0);
/// # fazang::clear_tape();
/// ```
pub fn set_zero_all_adj() {
    with_tape(|t| t.zero_all());
}

/// Discard everything recorded at top level on this thread's tape, making the space
/// reusable. Every `Var` created so far becomes invalid. Memory is kept for the next
/// recording, unless this recording was much larger than the recent ones (then the
/// excess is given back; [`release_tape_memory`](crate::release_tape_memory) gives back all
/// of it).
///
/// Panics if called inside a nested scope.
///
/// ```
/// # use fazang::prelude::*;
/// let x = Var::new(1.0);
/// let _y = x.exp();
/// clear_tape();
/// assert_eq!(tape_stats().nodes, 0);
/// ```
pub fn clear_tape() {
    with_tape(|t| t.clear());
}

/// What this thread's tape holds now (node and operand counts, scope depth).
///
/// ```
/// # use fazang::prelude::*;
/// let before = tape_stats();
/// let (a, b) = (Var::new(1.0), Var::new(2.0));
/// let _c = a * b;
/// let after = tape_stats();
/// assert_eq!(after.nodes - before.nodes, 3);
/// # fazang::clear_tape();
/// ```
pub fn tape_stats() -> TapeStats {
    with_tape(|t| t.stats())
}

/// Give back the memory of this thread's tape beyond what it records now (part of
/// [`release_tape_memory`](crate::release_tape_memory), which also frees the pools of the
/// layers above the tape).
pub(crate) fn release_tape() {
    with_tape(|t| t.release());
}

/// Bytes this thread's tape has reserved: the capacity of its arrays, which may exceed
/// what it holds now ([`TapeStats::bytes`]).
///
/// ```
/// # use fazang::prelude::*;
/// release_tape_memory();
/// let before = tape_reserved_bytes();
/// let x = Var::new(1.0);
/// let _y = x * x;
/// assert!(tape_reserved_bytes() > before);
/// # fazang::clear_tape();
/// ```
pub fn tape_reserved_bytes() -> usize {
    with_tape(|t| t.reserved_bytes())
}

impl Default for Var {
    /// The constant zero.
    fn default() -> Var {
        Var::constant(0.0)
    }
}

impl From<f64> for Var {
    /// A constant (records nothing).
    #[inline]
    fn from(v: f64) -> Var {
        Var::constant(v)
    }
}

impl From<&f64> for Var {
    /// A constant (records nothing).
    #[inline]
    fn from(v: &f64) -> Var {
        Var::constant(*v)
    }
}

impl From<f32> for Var {
    /// A constant (records nothing).
    #[inline]
    fn from(v: f32) -> Var {
        Var::constant(v.into())
    }
}

impl From<i32> for Var {
    /// A constant (records nothing).
    #[inline]
    fn from(v: i32) -> Var {
        Var::constant(v.into())
    }
}

macro_rules! fmt_as_f64 {
    ($($tr:ident),*) => {$(
        impl fmt::$tr for Var {
            /// Formats the value exactly as `f64` would.
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::$tr::fmt(&self.val, f)
            }
        }
    )*};
}
fmt_as_f64!(Display, LowerExp, UpperExp, Debug);
