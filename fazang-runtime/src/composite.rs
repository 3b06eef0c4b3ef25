//! Composite types: structs whose `f64` fields are differentiable.
//!
//! `#[deriv_rule] struct Bar { x: f64, y: f64, label: String }` rewrites the struct to
//! `struct Bar<S = f64> { x: S, y: S, label: String }` (so `Bar` still means the plain
//! struct) and implements the two traits of this module for it:
//!
//! - [`Composite`] for `Bar<f64>`: what `#[differentiate]` needs to make a `Bar`
//!   parameter active (`activate`) and to return its gradient as a `Bar` (`adjoint`);
//! - [`CompositeOf<S>`] for every `Bar<S>`: what `#[deriv_rule]` functions taking a `Bar`
//!   need to read its values and record partials for its fields.
//!
//! Fields of type `f64`, arrays and vectors of it (nested too: `[f64; N]`, `Vec<f64>`,
//! `Vec<Vec<f64>>`) are differentiable, in declaration order, entries in element order;
//! every other field is data, cloned where a new struct is built.
//!
//! # Example
//!
//! ```
//! use fazang::prelude::*;
//! use fazang::composite::{Composite, CompositeOf};
//!
//! #[deriv_rule]
//! #[derive(Debug, Clone, PartialEq)]
//! struct Bar {
//!     x: f64,
//!     y: f64,
//! }
//!
//! let b = Bar { x: 1.0, y: 2.0 };
//! let mut vars = Vec::new();
//! let active: Bar<Var> = b.activate(&mut vars);
//! assert_eq!(vars.len(), Composite::count(&b));
//! assert_eq!(active.values(), b);
//! let adj = b.adjoint(&mut [0.5, 0.25].into_iter());
//! assert_eq!(adj, Bar { x: 0.5, y: 0.25 });
//! # fazang::clear_tape();
//! ```

use crate::math::real::{Partials, Real};
use crate::tape::var::Var;

/// A struct registered with `#[deriv_rule]`, seen from `#[differentiate]`: implemented
/// for the plain struct (`Bar<f64>`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a #[deriv_rule] struct, so #[differentiate] cannot take it as an active parameter",
    label = "#[differentiate] takes a by-value parameter of a single capitalised type name for a #[deriv_rule] struct",
    note = "if it is data, list the active parameters with #[differentiate(wrt(...))]; to \
            differentiate with respect to its f64 fields, put #[deriv_rule] on its definition",
    note = "a type alias taken as a parameter must name a shape of `f64`s \
            (`type State = [f64; 2];`, `type Weights = Vec<f64>;`)"
)]
///
/// ```
/// use fazang::prelude::*;
/// use fazang::composite::Composite;
/// #[deriv_rule]
/// #[derive(Debug, Clone, PartialEq)]
/// struct P { a: f64, b: f64 }
/// assert_eq!(P { a: 1.0, b: 2.0 }.count(), 2);
/// ```
pub trait Composite: Sized {
    /// The struct with [`Var`] fields (`Bar<Var>`).
    type Active;
    /// The struct with fields of scalar `S` (`Bar<S>`): the parameter type of
    /// `#[differentiate]` functions, so an unregistered type gets this trait's message.
    type Of<S: Real>;
    /// A new independent Var per f64 field (field order), pushed onto `vars` too; data
    /// fields cloned.
    ///
    /// ```
    /// use fazang::prelude::*;
    /// use fazang::composite::Composite;
    /// #[deriv_rule]
    /// #[derive(Debug, Clone)]
    /// struct P { a: f64, b: f64 }
    /// let mut vars = Vec::new();
    /// let p: P<Var> = P { a: 1.0, b: 2.0 }.activate(&mut vars);
    /// assert_eq!((vars.len(), p.b.val()), (2, 2.0));
    /// # fazang::clear_tape();
    /// ```
    fn activate(&self, vars: &mut Vec<Var>) -> Self::Active;
    /// A `Bar<f64>` whose f64 fields are taken in field order from `adj`; data fields
    /// cloned from self. Missing values (a too short iterator) read as 0.
    ///
    /// ```
    /// use fazang::prelude::*;
    /// use fazang::composite::Composite;
    /// #[deriv_rule]
    /// #[derive(Debug, Clone, PartialEq)]
    /// struct P { a: f64, b: f64 }
    /// let g = P { a: 1.0, b: 2.0 }.adjoint(&mut [0.5].into_iter());
    /// assert_eq!(g, P { a: 0.5, b: 0.0 });
    /// ```
    fn adjoint(&self, adj: &mut dyn Iterator<Item = f64>) -> Self;
    /// Number of `f64` values: one per `f64` field, the entries of array and vector
    /// fields (which may differ from one value of the struct to another).
    ///
    /// ```
    /// use fazang::prelude::*;
    /// use fazang::composite::Composite;
    /// #[deriv_rule]
    /// struct Layer { w: Vec<f64>, b: f64 }
    /// assert_eq!(Layer { w: vec![1.0, 2.0, 3.0], b: 0.5 }.count(), 4);
    /// ```
    fn count(&self) -> usize;
}

/// A struct registered with `#[deriv_rule]`, seen from `#[deriv_rule]` functions:
/// implemented for `Bar<S>` for every scalar `S`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a differentiable struct",
    note = "put #[deriv_rule] on the struct's definition to make its f64 fields \
            differentiable, or do not name this parameter in the rule"
)]
///
/// ```
/// use fazang::prelude::*;
/// use fazang::composite::CompositeOf;
/// #[deriv_rule]
/// #[derive(Debug, Clone, PartialEq)]
/// struct P { a: f64, b: f64 }
/// assert_eq!(P { a: Var::new(1.0), b: Var::new(2.0) }.count(), 2);
/// # fazang::clear_tape();
/// ```
pub trait CompositeOf<S: Real>: Sized {
    /// The plain struct (`Bar<f64>`): the values, and the shape of partials and adjoints.
    type Values: CompositeOf<f64, Values = Self::Values>;
    /// Number of `f64` values (as [`Composite::count`]).
    fn count(&self) -> usize;
    /// The struct of values (`.val()` of each field; data fields cloned).
    ///
    /// ```
    /// use fazang::prelude::*;
    /// use fazang::composite::CompositeOf;
    /// #[deriv_rule]
    /// #[derive(Debug, Clone, PartialEq)]
    /// struct P { a: f64, b: f64 }
    /// let p = P { a: Var::new(1.0), b: Var::constant(2.0) };
    /// assert_eq!(p.values(), P { a: 1.0, b: 2.0 });
    /// # fazang::clear_tape();
    /// ```
    fn values(&self) -> Self::Values;
    /// Call `f` on each differentiable field, in field order.
    ///
    /// ```
    /// use fazang::prelude::*;
    /// use fazang::composite::CompositeOf;
    /// #[deriv_rule]
    /// #[derive(Debug, Clone, PartialEq)]
    /// struct P { a: f64, b: f64 }
    /// let mut seen = Vec::new();
    /// P { a: 1.0, b: 2.0 }.for_each_field(|x: f64| seen.push(x));
    /// assert_eq!(seen, [1.0, 2.0]);
    /// ```
    fn for_each_field(&self, f: impl FnMut(S));
    /// Record `d` as the partials with respect to this struct's fields.
    ///
    /// ```
    /// use fazang::prelude::*;
    /// use fazang::composite::CompositeOf;
    /// #[deriv_rule]
    /// #[derive(Debug, Clone, PartialEq)]
    /// struct P { a: f64, b: f64 }
    /// // a node with value a + 2b and partials (1, 2)
    /// let p = P { a: Var::new(1.0), b: Var::new(2.0) };
    /// let y = Var::from_partials(5.0, |ops| p.push_partials(&P { a: 1.0, b: 2.0 }, ops));
    /// y.grad();
    /// assert_eq!((p.a.adj(), p.b.adj()), (1.0, 2.0));
    /// # fazang::clear_tape();
    /// ```
    fn push_partials(&self, d: &Self::Values, p: &mut Partials<S>);
    /// Whether `f64` partials give every derivative the fields carry (a rule's check).
    #[doc(hidden)]
    fn __first_order(&self) -> bool {
        let mut ok = true;
        self.for_each_field(|f| ok &= f.__f64_partials_suffice());
        ok
    }
}
