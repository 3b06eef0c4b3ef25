//! The core form: a function body normalised into a few statement kinds, the one form every
//! generated derivative is printed from (after JAX's jaxpr and Tapenade's
//! three-address code).
//!
//! ```text
//! syn body -> model (crate::model) -> activity (crate::activity) -> core form (lower)
//!          -> analyses (activity, to-be-recorded, recomputation) -> printers (adjoint, ..)
//! ```
//!
//! In the core form:
//! - every intermediate float is a named variable ([`V`]), assigned by a [`Stmt::Set`]
//!   whose right-hand side is one operation on operands ([`Rhs`], [`Op`]); a variable is
//!   never an operand of its own assignment, so every overwrite is a copy;
//! - data (integers, booleans, data floats, anything without a derivative) is a Rust
//!   expression over variables ([`Stmt::Data`]), printed as written;
//! - arrays are read and written element by element through [`Place`]s (a root variable
//!   and a path of indices and fields); sub-slices, `windows`, `chunks` are offsets into
//!   their root, resolved while lowering;
//! - control flow is `if` on a data variable, counted loops and general loops with an
//!   exit flag ([`Stmt::For`], [`Stmt::Loop`]); `break`, `continue` and `return` are
//!   flags guarding the rest of the iteration; iterator chains, closures and `?` are gone;
//! - calls the catalogue does not know are one [`Stmt::Call`] each, classified once.
//!
//! The reverse sweep of such a body is mechanical (one rule per statement kind), which is
//! what makes it right by construction: see `crate::ir::adjoint`.

pub mod analysis;
pub mod lower;
pub mod print;
pub mod visit;

use crate::catalogue::Fun;
use proc_macro2::TokenStream;
use syn::Ident;

/// A variable of the core form (index into [`Func::vars`]).
pub type V = usize;

/// A function in core form.
pub struct Func {
    pub vars: Vec<Var>,
    pub body: Block,
    /// The result: a scalar operand (functions returning `f64` or `Result<f64, E>`).
    pub ret: V,
    /// For functions returning a vector of floats: the local array holding it (`ret` is
    /// then unused).
    pub ret_array: Option<V>,
    /// The parameters, in order.
    pub params: Vec<Param>,
    /// Items declared in the body (`const`, `fn`, `use`, ..), printed first.
    pub items: Vec<TokenStream>,
    /// Functions emitted next to the user's (the bodies of `reduce_sum` closures).
    pub hidden: Vec<TokenStream>,
}

/// A block of statements.
pub type Block = Vec<Stmt>;

/// A variable.
pub struct Var {
    /// Its name in generated code.
    pub ident: Ident,
    pub kind: Kind,
    /// The user's expression whose value it first holds (the call site for variables the
    /// lowering makes up): statements defining it are printed at this span, so that an
    /// error rustc finds in generated code points at the user's token.
    pub span: proc_macro2::Span,
}

/// What a variable holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An `f64` (active or data: the activity analysis decides).
    F64,
    /// A data value of a type rustc infers.
    Data(DataKind),
    /// A local array of `f64`s (a `Vec`, a fixed-size array, or nested), owned by the body.
    Array,
    /// A parameter holding `f64`s (a slice, array, vector, nested, or a registered
    /// struct): read through places, never written.
    ParamSeq,
}

/// The kind of a data value, for saving it on the stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataKind {
    /// An integer (saved as a 64-bit pattern).
    Int,
    Bool,
    /// Anything else: cannot be saved; only read where it is still the same value.
    Other,
}

/// A parameter of the function.
pub struct Param {
    /// The parameter's own name (as the caller passes it).
    pub ident: Ident,
    /// Its variable: for scalars the value, for sequences the root of places.
    pub var: V,
    pub active: bool,
    pub shape: ParamShape,
    /// Assigned by the body (a `mut` parameter): copied into its variable first.
    pub copied: bool,
}

/// How a parameter holds its floats.
#[derive(Clone, Debug)]
pub enum ParamShape {
    /// `f64`.
    Scalar,
    /// Arrays, slices, vectors of `f64`, nested to `depth` levels of indexing.
    Seq { depth: usize },
    /// A registered `#[deriv_rule]` struct.
    Struct,
    /// Anything else: data.
    Data,
}

/// An operand: a variable, or a constant float expression (literal, `PI`, `f64::EPSILON`).
#[derive(Clone, Debug)]
pub enum Op {
    Var(V),
    Const(TokenStreamEq),
}

/// A token stream compared by its text (constants in operands).
#[derive(Clone)]
pub struct TokenStreamEq(pub TokenStream);

impl std::fmt::Debug for TokenStreamEq {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl Op {
    pub fn var(&self) -> Option<V> {
        match self {
            Op::Var(v) => Some(*v),
            Op::Const(_) => None,
        }
    }
}

/// One operation.
#[derive(Clone, Debug)]
pub enum Rhs {
    Copy(Op),
    Neg(Op),
    Add(Op, Op),
    Sub(Op, Op),
    Mul(Op, Op),
    Div(Op, Op),
    Rem(Op, Op),
    /// A catalogue function; the receiver first. `powi`'s exponent is a data operand.
    Fun(&'static Fun, Vec<Op>),
}

impl Rhs {
    /// The operands, in order.
    pub fn operands(&self) -> Vec<&Op> {
        match self {
            Rhs::Copy(a) | Rhs::Neg(a) => vec![a],
            Rhs::Add(a, b) | Rhs::Sub(a, b) | Rhs::Mul(a, b) | Rhs::Div(a, b) | Rhs::Rem(a, b) => {
                vec![a, b]
            }
            Rhs::Fun(_, xs) => xs.iter().collect(),
        }
    }
}

/// An element of an array: a root variable ([`Kind::Array`] or [`Kind::ParamSeq`]) and a
/// path into it.
#[derive(Clone, Debug)]
pub struct Place {
    pub root: V,
    pub path: Vec<Proj>,
}

/// One step into an array or struct.
#[derive(Clone, Debug)]
pub enum Proj {
    /// `[i]`, the index a data variable or an integer constant.
    Index(Op),
    /// `.field`.
    Field(syn::Member),
}

/// How a new local array starts.
#[derive(Clone, Debug)]
pub enum Init {
    /// `n` copies of an operand (`vec![x; n]`, `[x; N]`), `n` a data expression.
    Repeat(Op, Op, ArrayForm),
    /// The listed elements (`vec![a, b]`, `[a, b]`).
    List(Vec<Op>, ArrayForm),
    /// A copy of another array's floats (`x.to_vec()`, `x.clone()`, `let y = x;`).
    CopyOf(Place, Option<(Op, Op)>),
    /// An empty vector to be pushed to (`Vec::new()`, `Vec::with_capacity(n)`).
    Empty,
}

/// Whether a local array is a `Vec` or a fixed-size array (the primal's type).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrayForm {
    Vec,
    Fixed,
}

/// A statement.
#[derive(Clone, Debug)]
pub enum Stmt {
    /// `dst = rhs` on floats.
    Set { dst: V, rhs: Rhs },
    /// `dst = expr`: data computed by a Rust expression over the variables `reads`;
    /// `pure` if it calls nothing that could have an effect or cost (index arithmetic):
    /// then the reverse sweep may compute it again instead of saving it.
    Data {
        dst: V,
        expr: TokenStreamEq,
        reads: Vec<V>,
        pure: bool,
    },
    /// A Rust statement evaluated for its effect (`println!`, `assert!`), reading `reads`.
    Effect {
        tokens: TokenStreamEq,
        reads: Vec<V>,
    },
    /// `dst = place`.
    Load { dst: V, place: Place },
    /// `place = src`.
    Store { place: Place, src: Op },
    /// A new local array (or a whole new value of one).
    Alloc { dst: V, init: Init },
    /// `dst.push(src)`.
    Push { dst: V, src: Op },
    /// `dst.push(src.clone())`: a copy of the local array `src` as a new row of the nested
    /// local `dst` (`collect` of rows).
    PushRow { dst: V, src: V },
    /// `if cond { then } else { els }`, `cond` a boolean data variable.
    If { cond: V, then: Block, els: Block },
    /// `for idx in 0..count { body }`; with `exit`, the loop stops after an iteration that
    /// sets that flag (and `trips` counts the iterations run).
    For {
        idx: V,
        count: V,
        body: Block,
        exit: Option<Exit>,
    },
    /// `loop { body }` until the iteration that sets `exit.flag`.
    Loop { body: Block, exit: Exit },
    /// A call of a function the catalogue does not know.
    Call(Call),
}

/// How a loop with `break` ends, and how many iterations it ran.
#[derive(Clone, Copy, Debug)]
pub struct Exit {
    /// Set to stop after this iteration.
    pub flag: V,
    /// Iterations run (a data variable the reverse sweep reads).
    pub trips: V,
}

/// A call of a function the catalogue does not know, differentiated as one operation.
#[derive(Clone, Debug)]
pub struct Call {
    /// How its partial derivatives are obtained.
    pub how: CallHow,
    /// What comes before the argument list: `normal_lpdf`, `self.helper`, `recv.method`.
    pub callee: TokenStreamEq,
    /// Variables `callee` reads (a data receiver).
    pub callee_reads: Vec<V>,
    pub args: Vec<CallArg>,
    /// The result if it is a float (differentiated), else `None`.
    pub out: Option<V>,
    /// The result if it is data (not differentiated).
    pub data_out: Option<V>,
    /// The result if it is a vector of floats: `(values, jacobian)`, two local arrays, the
    /// Jacobian row-major over the active inputs flattened (scalars, then each array's
    /// elements, in argument order).
    pub out_array: Option<(V, V)>,
    /// A taped call with `&mut` floats: `out_array` then holds every output (the result's
    /// entries, then each `&mut` float's new value); a vector result is copied into this
    /// array (a scalar one into `out`).
    pub result_array: Option<V>,
    /// `result_array` holds rows (`Vec<Vec<f64>>`), shaped by the result's row lengths.
    pub result_rows: bool,
    /// With [`CallHow::Tape`] and a vector result: if not 0, the values and the Jacobian
    /// come from one call on this many forward lanes (one per active input, in the
    /// Jacobian's column order), not from a recording swept once per output.
    pub jac_lanes: usize,
    /// The call in the user's code: what rustc points at when an argument does not fit
    /// the callee (a plain `fn(f64)` given active values).
    pub span: proc_macro2::Span,
    /// With [`CallHow::Lanes`]: per output (the result, then each `&mut` float in order),
    /// per input (the active scalar arguments in order), the partial derivative, held in a
    /// data variable.
    pub partials: Vec<Vec<V>>,
    pub fallible: Fallible,
    /// Whether data arguments take the callee's scalar type (`lit`, `adapt_ref`): for any
    /// callee but fazang's own functions, which take data as it is.
    pub convert: bool,
    /// `reduce_sum(data, grainsize, |chunk, start| body)` with [`CallHow::Tape`]: the
    /// `_grad_into` of the closure's body made a function of its own. `args` are then the
    /// data, the grainsize, and the closure's captures in the chunk function's order;
    /// the forward sweep runs `reduce_sum_grad` (chunks in parallel) instead of the tape.
    pub reduce: Option<TokenStreamEq>,
}

/// How a call's partials are computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallHow {
    /// Forward mode with one lane per active scalar input, in the forward sweep.
    Lanes,
    /// The tape, once, in the forward sweep (a differentiated callee records one node);
    /// the gradient kept for the reverse sweep.
    Tape,
}

/// What to do with a call's `Result`.
#[derive(Clone, Debug)]
pub enum Fallible {
    No,
    /// `?`: return the error.
    Question,
    /// `.unwrap()`.
    Unwrap,
    /// `.expect(msg)`.
    Expect(TokenStreamEq),
    /// `.unwrap_or(c)` with a constant `c` (an `f64` expression).
    UnwrapOr(TokenStreamEq),
}

/// An argument of a [`Call`].
#[derive(Clone, Debug)]
pub enum CallArg {
    /// An active scalar input.
    Scalar(Op),
    /// A `&mut` float the callee reads and writes.
    InOut(V),
    /// An active sequence of floats (with [`CallHow::Tape`]).
    Slice(lower::seq_public::Seq),
    /// A data argument, printed as written, and how it converts.
    Data(TokenStreamEq, Vec<V>, DataArg),
}

/// A data argument's shape, for converting it to the callee's scalar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataArg {
    Float,
    FloatSlice,
    /// A call's result of a type the macro cannot see: `pass` (a float converts).
    Pass,
    /// A local of a type the macro cannot see, passed (`by_ref`: borrowed) to a function it
    /// cannot see either: `DataArg` / `DataRefArg` convert `f64` data to the parameter's
    /// scalar and pass anything else as it is, as the generic body does.
    Unseen {
        by_ref: bool,
    },
    Other,
}

/// The adjoint of a function: the body of its hidden `__name_adjoint`, or why it takes the
/// tape.
pub fn adjoint(
    m: &crate::differentiate::ast::Model,
    body: &crate::model::Body,
    act: &crate::activity::Activity,
    callees: &crate::activity::Callees,
) -> Result<Adjoint, lower::Unsupported> {
    let f = lower::lower(m, body, act, callees)?;
    let facts = analysis::analyse(&f).map_err(|e| {
        lower::Unsupported::new(format!("{e} (a bug of #[differentiate], please report it)"))
    })?;
    let body = print::adjoint_body(&f, &facts).map_err(lower::Unsupported::new)?;
    // The same core form over dual numbers, where every parameter is a float or an array.
    let plain = f.params.iter().all(|p| {
        matches!(
            p.shape,
            ParamShape::Scalar | ParamShape::Seq { .. } | ParamShape::Data
        )
    });
    let (generic, tangent) = if plain {
        (
            print::generic_adjoint_body(&f, &facts),
            print::tangent_body(&f, &facts),
        )
    } else {
        let why = || Err("a registered struct parameter".to_string());
        (why(), why())
    };
    Ok(Adjoint {
        body,
        generic,
        tangent,
        hidden: f.hidden,
    })
}

/// A function's adjoint code.
pub struct Adjoint {
    /// The body of `__name_adjoint(params.., seed, grads..)`.
    pub body: TokenStream,
    /// The body of `__name_adjoint_t::<T>(params.., seed, grads..)`, both sweeps over a
    /// scalar `T` (`_hvp`, `_hessian`), or why there is none.
    pub generic: Result<TokenStream, String>,
    /// The body of `__name_tangent::<T>(params..)`, the forward sweep over `T` (`_jvp`),
    /// or why there is none.
    pub tangent: Result<TokenStream, String>,
    /// Functions the adjoint code calls, emitted next to the user's function (each
    /// `reduce_sum` closure's body, differentiated on its own).
    pub hidden: Vec<TokenStream>,
}
