//! The model of a function body: what `#[differentiate]` knows about the code it rewrites.
//!
//! A body is lowered once from syn ([`lower`]) into this representation: statements and
//! expressions as in Rust, but with every use of a local variable resolved to its
//! [`Binding`] (parameters, `let`s, patterns, closure parameters; shadowing gives a new
//! binding), local closures numbered, and every expression numbered ([`ExprId`]) so the
//! passes can attach facts to it. Each node keeps its span for error messages. What the
//! model does not look into (items, unknown macros, `async` blocks) is kept as syn.
//!
//! Passes read the model: [`crate::activity`] decides which bindings and expressions are
//! active (depend on an active parameter) and their shapes; code generators
//! ([`crate::codegen`]) print it back as Rust.

pub mod known;
pub mod lower;
pub mod visit;

use proc_macro2::Span;
use syn::{Attribute, BinOp, Ident, Label, Lifetime, Lit, Member, RangeLimits, Type, UnOp};

/// Index of a binding in [`Body::bindings`].
pub type BindId = usize;
/// Index of an expression (dense, from 0): the key of per-expression facts.
pub type ExprId = usize;
/// Index of a local closure in [`Body::closures`].
pub type ClosureId = usize;

/// A lowered function body.
pub struct Body {
    pub block: Block,
    pub bindings: Vec<Binding>,
    pub closures: Vec<Closure>,
    /// Number of expressions (ids are `0..n_exprs`).
    pub n_exprs: usize,
}

/// A local variable.
pub struct Binding {
    pub name: Ident,
}

/// A closure expression.
pub struct Closure {
    /// Per parameter, its binding if the pattern is a plain name (`|t|`, `|t: f64|`).
    pub params: Vec<Option<BindId>>,
}

#[derive(Clone)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

// A body's statements are built once per expansion and never copied: their size does
// not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
pub enum Stmt {
    Let(Let),
    /// An expression, with or without its semicolon.
    Expr(Expr, bool),
    /// A nested item (fn, struct, use, ...): left as it is.
    Item(Box<syn::Item>),
}

#[derive(Clone)]
pub struct Let {
    pub attrs: Vec<Attribute>,
    pub pat: Pat,
    pub ty: Option<Type>,
    pub init: Option<Expr>,
    /// `let .. else { .. }`.
    pub diverge: Option<Expr>,
    pub span: Span,
}

#[derive(Clone)]
pub struct Expr {
    pub id: ExprId,
    pub span: Span,
    pub attrs: Vec<Attribute>,
    pub kind: Kind,
}

#[derive(Clone)]
pub enum Kind {
    Lit(Lit),
    /// A local variable.
    Local(BindId, Ident),
    /// Any other path: constants, functions, unit structs, enum variants.
    Path(syn::ExprPath),
    Unary(UnOp, Box<Expr>),
    /// Also compound assignments (`+=`), as in syn.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Assign(Box<Expr>, Box<Expr>),
    Call(Box<Expr>, Vec<Expr>),
    MethodCall(MethodCall),
    Field(Box<Expr>, Member),
    Index(Box<Expr>, Box<Expr>),
    Paren(Box<Expr>),
    Reference {
        mutable: bool,
        expr: Box<Expr>,
    },
    Cast(Box<Expr>, Type),
    Block(BlockKind, Option<Label>, Block),
    If(Box<Expr>, Block, Option<Box<Expr>>),
    /// `let PAT = EXPR` in an `if`/`while` condition.
    Let(Pat, Box<Expr>),
    Match(Box<Expr>, Vec<Arm>),
    While(Option<Label>, Box<Expr>, Block),
    For(Option<Label>, Pat, Box<Expr>, Block),
    Loop(Option<Label>, Block),
    Break(Option<Lifetime>, Option<Box<Expr>>),
    Continue(Option<Lifetime>),
    Return(Option<Box<Expr>>),
    Closure(ClosureExpr),
    Tuple(Vec<Expr>),
    Array(Vec<Expr>),
    /// `[e; n]`; the length is a constant expression, kept as syn.
    Repeat(Box<Expr>, Box<syn::Expr>),
    Range(Option<Box<Expr>>, RangeLimits, Option<Box<Expr>>),
    Struct(StructLit),
    Try(Box<Expr>),
    Macro(Macro),
    /// Anything the model does not look into.
    Opaque(syn::Expr),
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum BlockKind {
    Plain,
    Unsafe,
    Const,
}

#[derive(Clone)]
pub struct MethodCall {
    pub receiver: Box<Expr>,
    pub method: Ident,
    pub turbofish: Option<syn::AngleBracketedGenericArguments>,
    pub args: Vec<Expr>,
}

#[derive(Clone)]
pub struct Arm {
    pub attrs: Vec<Attribute>,
    pub pat: Pat,
    pub guard: Option<Expr>,
    pub body: Expr,
}

#[derive(Clone)]
pub struct ClosureExpr {
    pub id: ClosureId,
    pub attrs: Vec<Attribute>,
    pub is_move: bool,
    /// Parameter patterns and their written types.
    pub params: Vec<(Pat, Option<Type>)>,
    pub ret: Option<Type>,
    pub body: Box<Expr>,
    /// The closure as written (its body becomes a function of its own for
    /// `reduce_sum`'s parallel adjoint).
    pub source: Box<syn::ExprClosure>,
}

#[derive(Clone)]
pub struct StructLit {
    pub path: syn::Path,
    pub qself: Option<syn::QSelf>,
    pub fields: Vec<(Member, Expr, bool)>,
    pub rest: Option<Box<Expr>>,
    /// `..` without a base (only in patterns, kept for completeness).
    pub dot2: bool,
}

/// A macro call in expression position.
#[derive(Clone)]
pub enum Macro {
    /// `vec![a, b, c]`.
    VecList(syn::Macro, Vec<Expr>),
    /// `vec![e; n]`.
    VecRepeat(syn::Macro, Box<Expr>, Box<Expr>),
    /// A macro whose arguments are expressions separated by commas (`format!`,
    /// `assert!`, `println!`, user macros that parse so): the arguments are lowered to
    /// follow what they read, and printed back as they are.
    Args(syn::Macro, Vec<Expr>),
    /// Anything else, unparsed.
    Opaque(syn::Macro),
}

/// A pattern, with its bindings resolved.
#[derive(Clone)]
pub enum Pat {
    Ident {
        id: BindId,
        by_ref: bool,
        mutable: bool,
        ident: Ident,
        sub: Option<Box<Pat>>,
    },
    Tuple(Vec<Pat>),
    TupleStruct(syn::Path, Vec<Pat>),
    Struct(syn::Path, Vec<(Member, Pat, bool)>, bool),
    Ref(bool, Box<Pat>),
    Slice(Vec<Pat>),
    Or(Vec<Pat>),
    Paren(Box<Pat>),
    /// `x: T` (closure and `let` patterns keep their types separately; this is for
    /// nested typed patterns).
    Type(Box<Pat>, Type),
    /// Wildcards, literals, ranges, paths, `..`: no bindings.
    Other(syn::Pat),
}

impl Expr {
    /// Without parentheses.
    pub fn peel(&self) -> &Expr {
        match &self.kind {
            Kind::Paren(e) => e.peel(),
            _ => self,
        }
    }
}
