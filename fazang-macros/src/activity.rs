//! Activity analysis: which values of a body depend on an active parameter, and what
//! shape they have.
//!
//! Each binding and expression of the [model](crate::model) gets an abstract value
//! ([`Abs`]): a float that is active or not, an integer, a sequence of something, a
//! reference, a tuple, a local closure, or unknown. Values flow from expressions into
//! bindings (`let`, assignment, compound assignment, pattern matching, closure and loop
//! parameters, writes into elements); a binding's value is the join of everything that
//! flows into it, so one that is ever given an active value is active everywhere (its
//! Rust type holds the active scalar). The walk over the body repeats until no binding
//! changes: a dataflow fixed point, which also covers loops (a later iteration sees what
//! an earlier one wrote). This is the "varied" half of Tapenade's and Enzyme's activity
//! analyses; type inference decides the rest.

mod walk;

pub use walk::abs_of_type;

/// Questions about calls shared with the code generators.
pub mod walk_support {
    pub use super::walk::known_callee;
    pub use super::walk::methods::is_self;
    pub use super::walk::root_local;
}

#[cfg(test)]
mod tests;

use crate::model::{BindId, Body, ClosureId, ExprId};

/// The abstract value of an expression or binding.
#[derive(Clone, Debug, PartialEq)]
pub enum Abs {
    /// No value yet, or none at all (a `return`, `None`, `Vec::new()`'s elements).
    Never,
    /// A float; `true` if active.
    Float(bool),
    Int,
    Bool,
    /// An array, vector, slice, range or iterator, with its element (item) value.
    Seq(Box<Abs>),
    /// A reference to a value.
    Ref(Box<Abs>),
    Tuple(Vec<Abs>),
    /// A local closure.
    Closure(ClosureId),
    /// Something the analysis cannot see into; `true` if it depends on an active value.
    Unknown(bool),
}

impl Abs {
    /// Whether any float in it is active.
    pub fn active(&self) -> bool {
        match self {
            Abs::Float(a) | Abs::Unknown(a) => *a,
            Abs::Seq(x) | Abs::Ref(x) => x.active(),
            Abs::Tuple(xs) => xs.iter().any(Abs::active),
            Abs::Never | Abs::Int | Abs::Bool | Abs::Closure(_) => false,
        }
    }

    /// The least value above both.
    pub fn join(&self, other: &Abs) -> Abs {
        use Abs::*;
        match (self, other) {
            (Never, x) | (x, Never) => x.clone(),
            (Float(a), Float(b)) => Float(*a || *b),
            (Int, Int) => Int,
            (Bool, Bool) => Bool,
            (Seq(a), Seq(b)) => Seq(Box::new(a.join(b))),
            (Ref(a), Ref(b)) => Ref(Box::new(a.join(b))),
            (Ref(a), b) | (b, Ref(a)) if !matches!(b, Unknown(_)) => Ref(Box::new(a.join(b))),
            (Tuple(a), Tuple(b)) if a.len() == b.len() => {
                Tuple(a.iter().zip(b).map(|(x, y)| x.join(y)).collect())
            }
            (Closure(a), Closure(b)) if a == b => Closure(*a),
            (Unknown(a), Unknown(b)) => Unknown(*a || *b),
            (Unknown(u), x) | (x, Unknown(u)) => {
                if *u {
                    x.activated()
                } else {
                    x.clone()
                }
            }
            (a, b) => Unknown(a.active() || b.active()),
        }
    }

    /// The same shape with every float active (what a write of an active value into an
    /// unknown part makes of it).
    pub fn activated(&self) -> Abs {
        match self {
            Abs::Float(_) => Abs::Float(true),
            Abs::Unknown(_) => Abs::Unknown(true),
            Abs::Seq(x) => Abs::Seq(Box::new(x.activated())),
            Abs::Ref(x) => Abs::Ref(Box::new(x.activated())),
            Abs::Tuple(xs) => Abs::Tuple(xs.iter().map(Abs::activated).collect()),
            Abs::Never => Abs::Never,
            x => x.clone(),
        }
    }

    /// Without references.
    pub fn deref(&self) -> &Abs {
        match self {
            Abs::Ref(x) => x.deref(),
            x => x,
        }
    }

    /// The element of a sequence (what indexing gives).
    pub fn elem(&self) -> Abs {
        match self.deref() {
            Abs::Seq(e) => (**e).clone(),
            Abs::Never => Abs::Never,
            x => Abs::Unknown(x.active()),
        }
    }

    /// The item of `for _ in self` (`IntoIterator`): elements by reference for a
    /// reference to a sequence, by value otherwise.
    pub fn item(&self) -> Abs {
        match self {
            Abs::Ref(x) => match x.deref() {
                Abs::Seq(e) => Abs::Ref(e.clone()),
                y => Abs::Unknown(y.active()),
            },
            Abs::Seq(e) => (**e).clone(),
            Abs::Never => Abs::Never,
            x => Abs::Unknown(x.active()),
        }
    }
}

/// The result of the analysis: an abstract value per binding, expression and closure.
pub struct Activity {
    /// Whether the fixed point settled (it always does: values only grow; if it did not,
    /// the function is refused with an error rather than printed from a partial result).
    pub converged: bool,
    pub bind: Vec<Abs>,
    pub expr: Vec<Abs>,
    /// What each local closure returns.
    pub closure_ret: Vec<Abs>,
    /// What the function returns (its declared result, floats active).
    pub ret: Abs,
}

impl Activity {
    /// Each binding and what the analysis found for it, one per line (for debugging
    /// and tests).
    pub fn describe(&self, body: &Body) -> String {
        body.bindings
            .iter()
            .zip(&self.bind)
            .map(|(b, a)| format!("{}: {:?}\n", b.name, a))
            .collect()
    }

    pub fn of_expr(&self, id: ExprId) -> &Abs {
        &self.expr[id]
    }
    pub fn of_bind(&self, id: BindId) -> &Abs {
        &self.bind[id]
    }
}

/// A function the body may call whose signature the macro knows: one of the same
/// `#[differentiate]` module or impl block.
#[derive(Clone)]
pub struct Callee {
    /// Per parameter (after the receiver): its value when the call is active (floats of
    /// active parameters active), or `None` for a parameter that stays data.
    pub params: Vec<Option<Abs>>,
    /// The result when the call is active.
    pub ret: Abs,
    /// Called with a receiver (`self.name(..)`).
    pub method: bool,
}

/// The known functions by name.
pub type Callees = std::collections::HashMap<String, Callee>;

/// Run the analysis. `params` gives the abstract value of each parameter (bindings
/// `0..params.len()`), `ret` the function's result, `callees` the functions whose
/// signatures are known.
pub fn analyse(body: &Body, params: Vec<Abs>, ret: Abs, callees: &Callees) -> Activity {
    walk::run(body, params, ret, callees)
}
