//! Lowering the model of a body into the core form.
//!
//! The lowering is an abstract interpreter over the model: each expression becomes a
//! [`Val`] (a float operand, a data variable, a sequence, a symbolic iterator, a closure,
//! a tuple) while the statements computing it are emitted into the current block. What
//! needs no derivative (data) is printed back as Rust ([`data`]); floats become
//! three-address statements ([`expr`]); iterator chains, sub-slices and closures are
//! resolved into indexed loops and places ([`iter`], [`seq`]); control flow into `if` on
//! data and loops with flags ([`control`]); calls are classified once ([`call`]).
//!
//! Anything it cannot lower is an [`Unsupported`] with the reason; the function then
//! takes the tape, and the reason is stated in its docs.

mod assign;
mod bind;
mod call;
mod call_args;
mod call_method;
mod call_opaque;
mod consume;
mod control;
mod data;
mod expr;
mod hints;
mod iter;
mod iter_adapt;
mod place;
mod reduce;
mod seq;
mod stmt;

/// Sequences, as the core form's calls name them.
pub mod seq_public {
    pub use super::seq::Seq;
}

use super::*;
use crate::activity::{Abs, Activity, Callees};
use crate::differentiate::ast::Model;
use crate::model::{self, BindId, ClosureId};
use quote::format_ident;

/// Why a body takes the tape instead of adjoint code.
#[derive(Debug)]
pub struct Unsupported {
    pub why: String,
}

impl Unsupported {
    pub fn new(why: impl Into<String>) -> Self {
        Unsupported { why: why.into() }
    }
}

pub type R<T> = Result<T, Unsupported>;

pub fn no<T>(why: impl Into<String>) -> R<T> {
    Err(Unsupported::new(why))
}

/// What an expression is, while lowering.
#[derive(Clone, Debug)]
pub enum Val {
    /// A float.
    F(Op),
    /// A data value in a variable.
    D(V),
    /// A data constant (an integer or boolean literal), printed where it is used.
    C(TokenStreamEq),
    /// A sequence of floats (an array, a parameter slice, a view into one).
    Seq(seq::Seq),
    /// An iterator not consumed yet.
    Iter(iter::Iter),
    Tuple(Vec<Val>),
    /// A local closure (its body is lowered where it is applied).
    Closure(ClosureId),
    /// `&mut x` to a float variable.
    MutRef(V),
    /// `&mut x[i]` (items of `iter_mut`).
    MutPlace(Place),
    /// An `Option` or `Result` value known to be `Some`/`Ok` when `present` is true.
    Opt(Box<Val>, V),
    /// No value (`()`).
    Unit,
    /// Control never gets here (after `return`, `break`, `continue`, `panic!`).
    Never,
}

/// A loop being lowered: the flags its `break` and `continue` set.
pub struct LoopCx {
    pub label: Option<String>,
    /// Set by `continue`, `break` and `return`: skip the rest of the iteration.
    pub skip: V,
    /// Set by `break` and `return`: no further iteration.
    pub exit: V,
    /// Where `break value` puts its value.
    pub value: Option<V>,
    /// Whether a `break` (or `return`) was lowered inside.
    pub breaks: bool,
}

/// The lowering state.
pub struct Lower<'a> {
    pub m: &'a Model<'a>,
    pub body: &'a model::Body,
    pub act: &'a Activity,
    pub callees: &'a Callees,
    pub vars: Vec<Var>,
    /// Each binding's value once its `let` (or pattern) is lowered.
    pub env: Vec<Option<Val>>,
    /// Variables a binding names (not temporaries): assigning a new value copies.
    pub owned: Vec<bool>,
    /// Blocks being built, innermost last.
    pub blocks: Vec<Block>,
    pub loops: Vec<LoopCx>,
    /// The result variable and the flag `return` sets.
    pub ret: V,
    /// The result array of a function returning a vector.
    pub ret_array: Option<V>,
    pub done: V,
    /// Whether a `return` was lowered at all.
    pub returns: bool,
    /// Bindings assigned after their declaration (or borrowed `&mut`).
    pub assigned: std::collections::HashSet<BindId>,
    /// Bindings whose elements are written after their `let`.
    pub elem_written: std::collections::HashSet<BindId>,
    /// Closures by id.
    pub closures: Vec<Option<&'a model::ClosureExpr>>,
    /// Closures being applied (no recursion).
    pub applying: Vec<ClosureId>,
    /// Expressions known to be floats by their use.
    pub hints: hints::Hints,
    /// Variables whose names some tokens already hold.
    pub named: std::cell::RefCell<Vec<bool>>,
    /// The body's items, printed at the top of the generated function.
    pub items: Vec<TokenStream>,
    /// Functions emitted next to the user's (`reduce_sum` closures' bodies).
    pub hidden: Vec<TokenStream>,
    /// In a function returning `Result`, the expressions whose value it returns.
    pub result_positions: std::collections::HashSet<crate::model::ExprId>,
    /// Lengths of windows with constant bounds (`&p[0..3]`), by their length variable.
    pub const_len: std::collections::HashMap<V, usize>,
    /// The user's expression being lowered: new variables take its span.
    pub span: proc_macro2::Span,
    /// Elements of a parameter of unknown depth (an alias, a struct's field), bound to a
    /// pattern: numbers only if the binding is used as one.
    pub uncertain: std::collections::HashSet<V>,
    /// Calls whose value an expression statement discards (`log(x);`, `check(x)?;`).
    pub discarded: std::collections::HashSet<crate::model::ExprId>,
}

/// Lower a function with its body model and activity.
pub fn lower(m: &Model, body: &model::Body, act: &Activity, callees: &Callees) -> R<Func> {
    let (assigned, elem_written) = stmt::assigned(body);
    let mut lw = Lower {
        m,
        body,
        act,
        callees,
        vars: Vec::new(),
        env: vec![None; body.bindings.len()],
        owned: Vec::new(),
        blocks: vec![Vec::new()],
        loops: Vec::new(),
        ret: 0,
        ret_array: None,
        done: 0,
        returns: false,
        assigned,
        elem_written,
        closures: vec![None; body.closures.len()],
        applying: Vec::new(),
        hints: hints::hints(body, act, true),
        named: std::cell::RefCell::new(Vec::new()),
        items: Vec::new(),
        hidden: Vec::new(),
        result_positions: if matches!(m.ret, Some(crate::types::ResultKind::ResultScalar)) {
            hints::result_positions(body)
        } else {
            Default::default()
        },
        const_len: Default::default(),
        discarded: Default::default(),
        span: proc_macro2::Span::call_site(),
        uncertain: Default::default(),
    };
    lw.ret = lw.new_var("ret", Kind::F64);
    if matches!(m.ret, Some(crate::types::ResultKind::Vector)) {
        lw.ret_array = Some(lw.new_var("ret_array", Kind::Array));
    }
    lw.done = lw.new_var("done", Kind::Data(DataKind::Bool));
    lw.emit(Stmt::Data {
        dst: lw.done,
        expr: toks(quote::quote!(false)),
        reads: vec![],
        pure: false,
    });
    Lower::check_cfg(body)?;
    let params = lw.params()?;
    let v = lw.block_value(&body.block)?;
    lw.finish(v)?;
    Ok(Func {
        body: lw.blocks.pop().expect("the function's block"),
        vars: lw.vars,
        ret: lw.ret,
        ret_array: lw.ret_array,
        params,
        items: lw.items,
        hidden: lw.hidden,
    })
}

/// A token stream for the core form.
pub fn toks(t: TokenStream) -> TokenStreamEq {
    TokenStreamEq(t)
}

impl<'a> Lower<'a> {
    /// A new variable named after `hint`.
    pub fn new_var(&mut self, hint: &str, kind: Kind) -> V {
        let id = self.vars.len();
        let ident = format_ident!("__fz_{}{}", hint, id);
        let span = self.span;
        self.vars.push(Var { ident, kind, span });
        self.owned.push(false);
        self.named.borrow_mut().push(false);
        id
    }

    /// A variable for binding `id` (user-named).
    pub fn binding_var(&mut self, id: BindId, kind: Kind) -> V {
        let name = self.body.bindings[id].name.to_string();
        let name = name.trim_start_matches("r#").to_string();
        let v = self.new_var(&format!("{name}_"), kind);
        self.owned[v] = true;
        v
    }

    pub fn emit(&mut self, s: Stmt) {
        self.blocks.last_mut().expect("a block is open").push(s);
    }

    /// Lower `f` into a new block, returned.
    pub fn in_block<T>(&mut self, f: impl FnOnce(&mut Self) -> R<T>) -> R<(Block, T)> {
        self.blocks.push(Vec::new());
        let r = f(self);
        let b = self.blocks.pop().expect("pushed");
        r.map(|t| (b, t))
    }

    /// `dst = rhs` into a new temporary.
    pub fn set(&mut self, rhs: Rhs) -> Op {
        let t = self.new_var("t", Kind::F64);
        self.emit(Stmt::Set { dst: t, rhs });
        Op::Var(t)
    }

    /// A data value computed by `expr` (reading `reads`) into a new variable: arithmetic
    /// the lowering writes itself (pure: the reverse sweep may compute it again).
    pub fn data(&mut self, hint: &str, kind: Kind, expr: TokenStream, reads: Vec<V>) -> V {
        self.data_with(hint, kind, expr, reads, true)
    }

    /// A data value computed by `expr`, `pure` or not (code the user wrote).
    pub fn data_with(
        &mut self,
        hint: &str,
        kind: Kind,
        expr: TokenStream,
        reads: Vec<V>,
        pure: bool,
    ) -> V {
        let t = self.new_var(hint, kind);
        self.emit(Stmt::Data {
            dst: t,
            expr: toks(expr),
            reads,
            pure,
        });
        t
    }

    /// A boolean data variable set to `value`.
    pub fn flag(&mut self, hint: &str, value: bool) -> V {
        let f = self.new_var(hint, Kind::Data(DataKind::Bool));
        self.set_flag(f, value);
        f
    }

    pub fn set_flag(&mut self, f: V, value: bool) {
        self.emit(Stmt::Data {
            dst: f,
            expr: toks(quote::quote!(#value)),
            reads: vec![],
            pure: false,
        });
    }

    /// A variable's name, for tokens: from now on it cannot be renamed.
    pub fn ident(&self, v: V) -> &Ident {
        self.named.borrow_mut()[v] = true;
        &self.vars[v].ident
    }

    /// The abstract value the model's activity analysis found for an expression.
    pub fn abs(&self, e: &model::Expr) -> &'a Abs {
        self.act.of_expr(e.id)
    }

    /// The parameters: each bound to its variable.
    fn params(&mut self) -> R<Vec<Param>> {
        let mut out = Vec::new();
        for (id, p) in self.m.params.iter().enumerate() {
            let copied = self.assigned.contains(&id);
            let shape = param_shape(p)?;
            let kind = match (&shape, p.active) {
                (ParamShape::Scalar, _) => Kind::F64,
                (ParamShape::Seq { .. } | ParamShape::Struct, _) if copied => {
                    if matches!(shape, ParamShape::Struct) {
                        return no(format!("a `mut` struct parameter `{}`", p.ident));
                    }
                    Kind::Array
                }
                (ParamShape::Seq { .. } | ParamShape::Struct, _) => Kind::ParamSeq,
                (ParamShape::Data, _) => Kind::Data(data_kind_of_type(p.ty)),
            };
            let v = self.new_var(&format!("{}_", p.ident), kind);
            if !copied {
                self.vars[v].ident = p.ident.clone();
            }
            self.owned[v] = true;
            self.env[id] = Some(match (&shape, kind) {
                (ParamShape::Scalar, _) => Val::F(Op::Var(v)),
                (ParamShape::Seq { depth }, _) => Val::Seq(seq::Seq::whole(v, *depth)),
                (ParamShape::Struct, _) => Val::Seq(seq::Seq::whole(v, 0)),
                (ParamShape::Data, _) => Val::D(v),
            });
            out.push(Param {
                ident: p.ident.clone(),
                var: v,
                active: p.active,
                shape,
                copied,
            });
        }
        Ok(out)
    }

    /// The function's result: the block's value, or the value `return`s left.
    fn finish(&mut self, v: Val) -> R<()> {
        if let Val::Never = v {
            return Ok(());
        }
        let ret = self.ret;
        if self.returns {
            let c = self.data(
                "c",
                Kind::Data(DataKind::Bool),
                {
                    let d = self.ident(self.done).clone();
                    quote::quote!(!#d)
                },
                vec![self.done],
            );
            let (b, ()) = self.in_block(|lw| lw.set_result(v))?;
            self.emit(Stmt::If {
                cond: c,
                then: b,
                els: vec![],
            });
        } else {
            self.set_result(v)?;
        }
        let _ = ret;
        Ok(())
    }

    /// The function's result becomes `v` (a float, or a vector copied into the result
    /// array).
    pub fn set_result(&mut self, v: Val) -> R<()> {
        let v = match v {
            Val::Opt(inner, _) => *inner,
            v => v,
        };
        if let Some(arr) = self.ret_array {
            let Val::Seq(s) = v else {
                return no(format!("a vector result that is {}", v.describe()));
            };
            if s.depth != 0 {
                return no("a result of nested vectors");
            }
            let place = Place {
                root: s.root,
                path: s.prefix.clone(),
            };
            let window = s.window.clone().map(|(o, n)| (o, Op::Var(n)));
            self.emit(Stmt::Alloc {
                dst: arr,
                init: Init::CopyOf(place, window),
            });
            return Ok(());
        }
        let op = self.float(v, "the function's result")?;
        let ret = self.ret;
        self.emit(Stmt::Set {
            dst: ret,
            rhs: Rhs::Copy(op),
        });
        Ok(())
    }

    /// A value that must be a float operand.
    pub fn float(&mut self, v: Val, what: &str) -> R<Op> {
        match v {
            Val::F(op) => Ok(op),
            Val::D(d) if self.vars[d].kind == Kind::F64 => Ok(Op::Var(d)),
            Val::D(d) => {
                // Data of a type the macro cannot see used as a float: an `f64` or a
                // reference to one.
                let x = self.ident(d).clone();
                let t = self.data(
                    "f",
                    Kind::F64,
                    quote::quote!(::fazang::__private::to_f64(#x)),
                    vec![d],
                );
                Ok(Op::Var(t))
            }
            Val::Opt(inner, _) => self.float(*inner, what),
            Val::C(t) => Ok(Op::Const(t)),
            other => no(format!(
                "{what} that is not a number ({})",
                other.describe()
            )),
        }
    }
}

impl Val {
    /// What it is, for messages.
    pub fn describe(&self) -> &'static str {
        match self {
            Val::F(_) => "a number",
            Val::D(_) | Val::C(_) => "data",
            Val::Seq(_) => "an array",
            Val::Iter(_) => "an iterator",
            Val::Tuple(_) => "a tuple",
            Val::Closure(_) => "a closure",
            Val::MutRef(_) | Val::MutPlace(_) => "a `&mut` reference",
            Val::Opt(..) => "an `Option`",
            Val::Unit => "`()`",
            Val::Never => "nothing",
        }
    }
}

/// How a parameter holds its floats.
fn param_shape(p: &crate::differentiate::ast::Param) -> R<ParamShape> {
    use crate::types::{Nested, ParamKind};
    fn depth(n: &Nested) -> Option<usize> {
        match n {
            Nested::F64 => Some(0),
            Nested::Array(e, _) | Nested::Slice(e) | Nested::Vec(e) => depth(e).map(|d| d + 1),
        }
    }
    Ok(match (&p.kind, p.active) {
        (ParamKind::Scalar, true) => ParamShape::Scalar,
        (ParamKind::Nested { shape, .. }, _) => ParamShape::Seq {
            depth: depth(shape).unwrap_or(1),
        },
        (ParamKind::Struct, true) => ParamShape::Struct,
        (ParamKind::Container { .. }, true) => {
            return no(format!(
                "the nalgebra/ndarray parameter `{}` (adjoint code takes slices, arrays and \
                 vectors)",
                p.ident
            ))
        }
        (ParamKind::Scalar, false) => ParamShape::Scalar,
        _ => ParamShape::Data,
    })
}

/// The kind of a data parameter from its type.
fn data_kind_of_type(ty: &syn::Type) -> DataKind {
    let t = crate::types::strip(ty);
    match t {
        syn::Type::Path(p) if p.qself.is_none() => {
            let name = p
                .path
                .get_ident()
                .map(|i| i.to_string())
                .unwrap_or_default();
            if crate::model::known::INT_TYPES.contains(&name.as_str()) {
                DataKind::Int
            } else if name == "bool" {
                DataKind::Bool
            } else {
                DataKind::Other
            }
        }
        _ => DataKind::Other,
    }
}
