//! The subset of the body language the adjoint code covers. Everything the printers
//! assume is checked here first; the first construct outside the subset is the reason
//! the function takes the tape.

use super::Unsupported;
use crate::activity::{Abs, Activity};
use crate::differentiate::ast::Model;
use crate::model::known::*;
use crate::model::*;
use crate::types::ParamKind;
use std::collections::HashSet;
use syn::{BinOp, UnOp};

/// Active parameters must be scalars or `f64` arrays, slices and vectors.
pub fn params(m: &Model) -> Result<(), Unsupported> {
    for p in m.active() {
        if !matches!(p.kind, ParamKind::Scalar | ParamKind::Nested { .. }) {
            return Err(Unsupported::new(format!(
                "parameter `{}` is a struct",
                p.ident
            )));
        }
    }
    Ok(())
}

/// Check the body; the bindings it assigns after their declaration.
pub fn body(b: &Body, act: &Activity) -> Result<HashSet<BindId>, Unsupported> {
    let mut c = Check {
        act,
        assigned: HashSet::new(),
        loop_depth: 0,
    };
    c.block(&b.block, true)?;
    Ok(c.assigned)
}

struct Check<'a> {
    act: &'a Activity,
    assigned: HashSet<BindId>,
    loop_depth: usize,
}

fn no(why: impl Into<String>) -> Result<(), Unsupported> {
    Err(Unsupported::new(why))
}

impl Check<'_> {
    fn block(&mut self, b: &Block, top: bool) -> Result<(), Unsupported> {
        for (i, s) in b.stmts.iter().enumerate() {
            let last = top && i + 1 == b.stmts.len();
            match s {
                Stmt::Let(l) => self.let_stmt(l)?,
                Stmt::Item(_) => {}
                Stmt::Expr(e, semi) => {
                    if last && !semi {
                        self.value(e)?;
                    } else {
                        self.stmt(e)?;
                    }
                }
            }
        }
        Ok(())
    }

    fn binding_ok(&self, id: BindId) -> Result<(), Unsupported> {
        match self.act.of_bind(id) {
            Abs::Float(_) | Abs::Int | Abs::Bool | Abs::Never => Ok(()),
            // Items of loops over slices are references in Rust, values here.
            Abs::Ref(x) if matches!(**x, Abs::Float(_) | Abs::Int) => Ok(()),
            Abs::Seq(e) if matches!(**e, Abs::Float(_)) && self.loop_depth == 0 => Ok(()),
            Abs::Seq(_) => no("a local array or vector declared inside a loop"),
            _ => no("a local that is not a number or an array of numbers"),
        }
    }

    fn let_stmt(&mut self, l: &Let) -> Result<(), Unsupported> {
        if l.diverge.is_some() {
            return no("`let .. else`");
        }
        let ids = simple_pat(&l.pat).ok_or_else(|| Unsupported::new("a destructuring pattern"))?;
        for id in &ids {
            self.binding_ok(*id)?;
        }
        if let Some(init) = &l.init {
            if let Abs::Seq(_) = self.act.of_bind(ids[0]) {
                return self.seq_init(init);
            }
            if ids.len() > 1 {
                return match &init.peel().kind {
                    Kind::Tuple(xs) => xs.iter().try_for_each(|x| self.value(x)),
                    _ if !self.act.of_expr(init.id).active() => self.value(init),
                    _ => no("a tuple computed from active values"),
                };
            }
            self.value(init)?;
        }
        Ok(())
    }

    /// What a local array or vector may start as.
    fn seq_init(&mut self, e: &Expr) -> Result<(), Unsupported> {
        match &e.peel().kind {
            Kind::Macro(Macro::VecRepeat(_, x, n)) if !self.act.of_expr(x.id).active() => {
                self.value(n)
            }
            Kind::Repeat(x, _) if !self.act.of_expr(x.id).active() => Ok(()),
            Kind::Macro(Macro::VecList(_, xs)) | Kind::Array(xs) => {
                xs.iter().try_for_each(|x| self.value(x))
            }
            Kind::Local(..) if !self.act.of_expr(e.id).active() => Ok(()),
            Kind::Local(..) => Ok(()),
            Kind::MethodCall(m)
                if matches!(m.method.to_string().as_str(), "to_vec" | "clone")
                    && matches!(m.receiver.peel().kind, Kind::Local(..)) =>
            {
                Ok(())
            }
            _ => no("a local array or vector built other than by `vec![..]`, a literal or a copy"),
        }
    }

    /// An expression statement.
    fn stmt(&mut self, e: &Expr) -> Result<(), Unsupported> {
        match &e.kind {
            Kind::Assign(place, v) => {
                self.place(place)?;
                self.value(v)
            }
            Kind::Binary(op, place, v) if is_compound(op) => {
                if matches!(op, BinOp::RemAssign(_)) && self.act.of_expr(place.id).active() {
                    return no("`%=` on an active value");
                }
                self.place(place)?;
                self.value(v)
            }
            Kind::If(c, then, els) => {
                self.cond(c)?;
                self.block(then, false)?;
                match els {
                    Some(x) => match &x.kind {
                        Kind::Block(BlockKind::Plain, None, b) => self.block(b, false),
                        Kind::If(..) => self.stmt(x),
                        _ => no("an `else` that is not a block"),
                    },
                    None => Ok(()),
                }
            }
            Kind::For(label, p, it, body) => {
                if label.is_some() {
                    return no("a labelled loop");
                }
                self.iter(p, it)?;
                self.in_loop(|c| c.block(body, false))
            }
            Kind::While(label, c, body) => {
                if label.is_some() {
                    return no("a labelled loop");
                }
                self.cond(c)?;
                self.in_loop(|c| c.block(body, false))
            }
            Kind::Block(BlockKind::Plain, None, b) => self.block(b, false),
            Kind::Return(Some(v)) if is_err(v) => self.value(v),
            Kind::Return(Some(v)) if self.loop_depth == 0 => self.value(v),
            Kind::Paren(x) => self.stmt(x),
            Kind::Macro(Macro::Args(m, xs))
                if !crate::codegen::generic::has_inline_capture(xs) && is_format(m) =>
            {
                xs.iter().try_for_each(|x| self.value(x))
            }
            Kind::Loop(..) => no("`loop`"),
            Kind::Break(..) | Kind::Continue(..) => no("`break` or `continue`"),
            Kind::Return(_) => no("a `return` inside a loop"),
            Kind::Match(..) => {
                no("a `match` on an active or computed value, or whose patterns bind variables")
            }
            _ if !self.act.of_expr(e.id).active() && pure(e) => Ok(()),
            _ => no("an expression statement that is not an assignment or control flow"),
        }
    }

    fn in_loop(
        &mut self,
        f: impl FnOnce(&mut Self) -> Result<(), Unsupported>,
    ) -> Result<(), Unsupported> {
        self.loop_depth += 1;
        let r = f(self);
        self.loop_depth -= 1;
        r
    }

    fn cond(&mut self, c: &Expr) -> Result<(), Unsupported> {
        if matches!(c.peel().kind, Kind::Let(..)) {
            return no("`if let`/`while let`");
        }
        self.value(c)
    }

    /// `for` over a range, or over slices (`x`, `x.iter()`, `.enumerate()`, `.zip(..)`).
    fn iter(&mut self, p: &Pat, it: &Expr) -> Result<(), Unsupported> {
        let bound = loop_bindings(p).ok_or_else(|| Unsupported::new("a loop pattern"))?;
        for id in bound {
            self.binding_ok(id)?;
        }
        match forward::loop_source(it) {
            Some(_) => Ok(()),
            None => no("a loop over something other than a range or slices"),
        }
    }

    fn place(&mut self, p: &Expr) -> Result<(), Unsupported> {
        match &p.peel().kind {
            Kind::Local(id, _) => {
                self.assigned.insert(*id);
                Ok(())
            }
            Kind::Index(b, i) => {
                if matches!(i.peel().kind, Kind::Range(..)) {
                    return no("an assignment to a sub-slice");
                }
                self.value(i)?;
                self.place(b)
            }
            Kind::Unary(UnOp::Deref(_), x) => self.place(x),
            _ => no("an assignment to something other than a local or an element"),
        }
    }

    /// An expression whose value is computed.
    fn value(&mut self, e: &Expr) -> Result<(), Unsupported> {
        let active = self.act.of_expr(e.id).active();
        match &e.kind {
            Kind::Lit(_) | Kind::Local(..) => Ok(()),
            Kind::Path(_) => Ok(()),
            Kind::Paren(x) | Kind::Try(x) => self.value(x),
            Kind::Unary(_, x) => self.value(x),
            Kind::Binary(op, l, r) if !is_compound(op) => {
                self.value(l)?;
                self.value(r)
            }
            Kind::Index(b, i) => {
                self.value(b)?;
                self.value(i)
            }
            Kind::Cast(x, _) if !self.act.of_expr(x.id).active() => self.value(x),
            Kind::Cast(..) => Ok(()), // an integer cast of an active value: its `val()`
            Kind::Field(b, _) if !active => self.value(b),
            Kind::Range(a, _, b) => a.iter().chain(b.iter()).try_for_each(|x| self.value(x)),
            Kind::Reference {
                mutable: false,
                expr,
            } => self.value(expr),
            Kind::MethodCall(m) => self.method(e, m, active),
            Kind::Call(f, args) => self.call(f, args),
            Kind::If(c, t, Some(x)) if !active => {
                self.cond(c)?;
                self.block(t, false)?;
                self.value(x)
            }
            Kind::Block(BlockKind::Plain, None, b) if !active => self.block(b, false),
            // The tests of a `match` made an `if` chain (`branches`).
            Kind::Match(s, arms)
                if !active && arms.iter().all(|a| super::branches::binds_nothing(&a.pat)) =>
            {
                self.value(s)?;
                for a in arms {
                    if let Some(g) = &a.guard {
                        self.value(g)?;
                    }
                    self.value(&a.body)?;
                }
                Ok(())
            }
            Kind::Tuple(xs) | Kind::Array(xs) if !active => {
                xs.iter().try_for_each(|x| self.value(x))
            }
            // `format!`, `assert!`-like macros, evaluated in the forward sweep only
            // (their results are data).
            Kind::Macro(Macro::Args(m, xs))
                if !active && !crate::codegen::generic::has_inline_capture(xs) && is_format(m) =>
            {
                xs.iter().try_for_each(|x| self.value(x))
            }
            _ if active => no(format!("an active {}", describe(e))),
            _ => no(format!("{} in the body", describe(e))),
        }
    }

    fn method(&mut self, e: &Expr, m: &MethodCall, active: bool) -> Result<(), Unsupported> {
        let name = m.method.to_string();
        if !active {
            return if pure(e) {
                self.value(&m.receiver)?;
                m.args.iter().try_for_each(|a| self.value(a))
            } else {
                no(format!("the method `{name}`"))
            };
        }
        if !deriv::supported_method(&name) {
            return no(format!("the method `{name}` on an active value"));
        }
        self.value(&m.receiver)?;
        m.args.iter().try_for_each(|a| self.value(a))
    }

    fn call(&mut self, f: &Expr, args: &[Expr]) -> Result<(), Unsupported> {
        let Kind::Path(p) = &f.peel().kind else {
            return no("a call of a local closure");
        };
        let segs: Vec<String> = p
            .path
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect();
        if segs.len() == 2
            && segs[0] == "f64"
            && !deriv::supported_method(&segs[1])
            && args.iter().any(|a| self.act.of_expr(a.id).active())
        {
            return no(format!("`f64::{}` on active values", segs[1]));
        }
        for a in args {
            let aa = self.act.of_expr(a.id);
            match aa {
                Abs::Seq(_) | Abs::Ref(_) if aa.active() => {
                    if !matches!(a.peel().kind, Kind::Local(..))
                        && !matches!(&a.peel().kind, Kind::Reference { expr, .. } if matches!(expr.peel().kind, Kind::Local(..)))
                    {
                        return no("an active slice argument that is not a variable");
                    }
                }
                // The reverse sweep passes an active argument as a number or as a slice
                // variable; anything else (an untyped result of another call) takes the
                // tape.
                _ if aa.active() && !matches!(aa.deref(), Abs::Float(_)) => {
                    return no("an active argument whose type the macro cannot see");
                }
                _ => self.value(a)?,
            }
        }
        Ok(())
    }
}

/// The bindings of `x`, `mut x`, `x: T` or a tuple of those.
pub fn simple_pat(p: &Pat) -> Option<Vec<BindId>> {
    match p {
        Pat::Ident {
            id,
            by_ref: false,
            sub: None,
            ..
        } => Some(vec![*id]),
        Pat::Type(p, _) | Pat::Paren(p) => simple_pat(p),
        Pat::Tuple(ps) => {
            let mut v = Vec::new();
            for p in ps {
                v.extend(simple_pat(p)?);
            }
            Some(v)
        }
        _ => None,
    }
}

/// The bindings of a loop pattern: `x`, `&x`, `_`, and tuples of those.
pub fn loop_bindings(p: &Pat) -> Option<Vec<BindId>> {
    match p {
        Pat::Ref(_, inner) => loop_bindings(inner),
        Pat::Other(syn::Pat::Wild(_)) => Some(Vec::new()),
        Pat::Tuple(ps) => {
            let mut v = Vec::new();
            for p in ps {
                v.extend(loop_bindings(p)?);
            }
            Some(v)
        }
        p => simple_pat(p),
    }
}

pub fn is_compound(op: &BinOp) -> bool {
    matches!(
        op,
        BinOp::AddAssign(_)
            | BinOp::SubAssign(_)
            | BinOp::MulAssign(_)
            | BinOp::DivAssign(_)
            | BinOp::RemAssign(_)
    )
}

/// `Err(..)`: a `return` of an error leaves `_grad` with it.
pub fn is_err(e: &Expr) -> bool {
    matches!(&e.peel().kind, Kind::Call(f, _) if matches!(&f.kind, Kind::Path(p) if p.path.is_ident("Err")))
}

/// `format!`, `assert!` and printing macros: their arguments are expressions, their
/// result (if any) is data.
fn is_format(m: &syn::Macro) -> bool {
    let name = m
        .path
        .segments
        .last()
        .map(|s| s.ident.to_string())
        .unwrap_or_default();
    matches!(
        name.as_str(),
        "format"
            | "assert"
            | "assert_eq"
            | "assert_ne"
            | "debug_assert"
            | "debug_assert_eq"
            | "debug_assert_ne"
            | "println"
            | "print"
            | "eprintln"
            | "eprint"
            | "panic"
    )
}

/// An expression the reverse sweep may evaluate again with the same result: no calls
/// but of known pure methods and functions.
pub fn pure(e: &Expr) -> bool {
    match &e.kind {
        Kind::Lit(_) | Kind::Local(..) | Kind::Path(_) => true,
        Kind::Paren(x) | Kind::Unary(_, x) | Kind::Cast(x, _) | Kind::Field(x, _) => pure(x),
        Kind::Reference {
            mutable: false,
            expr,
        } => pure(expr),
        Kind::Binary(op, l, r) => !is_compound(op) && pure(l) && pure(r),
        Kind::Index(b, i) => pure(b) && pure(i),
        Kind::Range(a, _, b) => a.iter().chain(b.iter()).all(|x| pure(x)),
        Kind::MethodCall(m) => {
            let n = m.method.to_string();
            let known = is_real_method(&n)
                || FLOAT_PREDICATES.contains(&n.as_str())
                || matches!(
                    n.as_str(),
                    "len" | "is_empty" | "abs" | "min" | "max" | "pow" | "sqrt"
                );
            known && pure(&m.receiver) && m.args.iter().all(pure)
        }
        _ => false,
    }
}

fn describe(e: &Expr) -> &'static str {
    match &e.kind {
        Kind::Closure(_) => "closure",
        Kind::Match(..) => "`match`",
        Kind::If(..) => "`if` expression",
        Kind::Block(..) => "block expression",
        Kind::Loop(..) | Kind::While(..) | Kind::For(..) => "loop expression",
        Kind::Struct(_) => "struct literal",
        Kind::Macro(_) => "macro",
        Kind::Tuple(_) => "tuple",
        Kind::Array(_) | Kind::Repeat(..) => "array",
        Kind::MethodCall(_) => "method call",
        Kind::Call(..) => "call",
        Kind::Field(..) => "field",
        Kind::Cast(..) => "cast",
        _ => "expression",
    }
}

use super::{deriv, forward};
