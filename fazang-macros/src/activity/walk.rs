//! The walk of the activity analysis: one pass computes every expression's abstract
//! value and joins what flows into bindings; passes repeat until nothing changes.

mod calls;
pub mod methods;
mod values;

pub use calls::{known_callee, passive};
pub use values::abs_of_type;

use super::{Abs, Activity, Callees};
use crate::model::*;
use syn::{BinOp, UnOp};
use values::{arith, cast_value, field, lit, path_value};

/// Passes before giving up on a fixed point (values only grow, and every chain of joins
/// is short; this bound is never reached by real code).
const MAX_PASSES: usize = 64;

pub fn run(body: &Body, params: Vec<Abs>, ret: Abs, callees: &Callees) -> Activity {
    let mut w = Walk {
        callees,
        bind: vec![Abs::Never; body.bindings.len()],
        expr: vec![Abs::Never; body.n_exprs],
        closure_ret: vec![Abs::Never; body.closures.len()],
        closures: vec![None; body.closures.len()],
        aliases: Vec::new(),
        elem_aliases: Vec::new(),
        loops: Vec::new(),
        rets: Vec::new(),
        changed: false,
    };
    for (i, p) in params.into_iter().enumerate() {
        w.bind[i] = p;
    }
    let mut converged = false;
    for _ in 0..MAX_PASSES {
        w.changed = false;
        w.rets.clear();
        w.loops.clear();
        w.block(&body.block);
        if !w.changed {
            converged = true;
            break;
        }
    }
    Activity {
        converged,
        bind: w.bind,
        expr: w.expr,
        closure_ret: w.closure_ret,
        ret,
    }
}

struct Walk<'a> {
    callees: &'a Callees,
    bind: Vec<Abs>,
    expr: Vec<Abs>,
    closure_ret: Vec<Abs>,
    closures: Vec<Option<&'a ClosureExpr>>,
    /// `(r, x)`: binding `r` holds `&mut x`; what is written through `r` reaches `x`.
    aliases: Vec<(BindId, BindId)>,
    /// `(r, x)`: binding `r` is `&mut` an element of `x` (`for r in x.iter_mut()`).
    elem_aliases: Vec<(BindId, BindId)>,
    /// Loops being walked: label and the join of their `break` values.
    loops: Vec<(Option<String>, Abs)>,
    /// Closures being walked (their `return`s go to them).
    rets: Vec<ClosureId>,
    changed: bool,
}

impl<'a> Walk<'a> {
    fn flow(&mut self, id: BindId, v: &Abs) {
        let new = self.bind[id].join(v);
        if new != self.bind[id] {
            self.bind[id] = new;
            self.changed = true;
        }
        let targets: Vec<BindId> = self
            .aliases
            .iter()
            .filter(|(r, _)| *r == id)
            .map(|(_, x)| *x)
            .collect();
        for x in targets {
            if x != id {
                self.flow(x, v.deref());
            }
        }
        let elems: Vec<BindId> = self
            .elem_aliases
            .iter()
            .filter(|(r, _)| *r == id)
            .map(|(_, x)| *x)
            .collect();
        for x in elems {
            if x != id {
                self.flow(x, &Abs::Seq(Box::new(v.deref().clone())));
            }
        }
    }

    fn block(&mut self, b: &'a Block) -> Abs {
        let mut last = Abs::Unknown(false);
        let mut diverges = false;
        for (i, s) in b.stmts.iter().enumerate() {
            let v = self.stmt(s);
            if v == Abs::Never && !matches!(s, Stmt::Item(_)) {
                diverges = true;
            }
            if i + 1 == b.stmts.len() {
                last = match s {
                    Stmt::Expr(_, false) => v,
                    _ => Abs::Unknown(false),
                };
            }
        }
        if diverges && last == Abs::Unknown(false) {
            Abs::Never
        } else {
            last
        }
    }

    fn stmt(&mut self, s: &'a Stmt) -> Abs {
        match s {
            Stmt::Let(l) => {
                let mut v = match &l.init {
                    Some(e) => self.expr(e),
                    None => Abs::Never,
                };
                if let Some(d) = &l.diverge {
                    self.expr(d);
                }
                if let Some(ty) = &l.ty {
                    v = v.join(&abs_of_type(ty, false));
                }
                self.note_alias(&l.pat, l.init.as_ref());
                self.bind_pat(&l.pat, &v);
                Abs::Unknown(false)
            }
            Stmt::Expr(e, _) => self.expr(e),
            Stmt::Item(_) => Abs::Unknown(false),
        }
    }

    /// `let r = &mut x;`: writes through `r` reach `x`.
    fn note_alias(&mut self, pat: &Pat, init: Option<&Expr>) {
        let (Pat::Ident { id, .. }, Some(init)) = (pat, init) else {
            return;
        };
        if let Kind::Reference {
            mutable: true,
            expr,
        } = &init.peel().kind
        {
            if let Some(x) = root_local(expr) {
                if !self.aliases.contains(&(*id, x)) {
                    self.aliases.push((*id, x));
                }
            }
        }
    }

    fn bind_pat(&mut self, p: &Pat, v: &Abs) {
        match p {
            Pat::Ident {
                id, by_ref, sub, ..
            } => {
                let v2 = if *by_ref {
                    Abs::Ref(Box::new(v.clone()))
                } else {
                    v.clone()
                };
                self.flow(*id, &v2);
                if let Some(s) = sub {
                    self.bind_pat(s, v);
                }
            }
            Pat::Tuple(ps) => {
                let (inner, by_ref) = match v {
                    Abs::Ref(x) => (x.deref(), true),
                    x => (x, false),
                };
                for (i, p) in ps.iter().enumerate() {
                    let c = match inner {
                        Abs::Tuple(xs) if xs.len() == ps.len() => xs[i].clone(),
                        Abs::Never => Abs::Never,
                        x => Abs::Unknown(x.active()),
                    };
                    let c = if by_ref { Abs::Ref(Box::new(c)) } else { c };
                    self.bind_pat(p, &c);
                }
            }
            Pat::TupleStruct(path, ps) => {
                let transparent = path
                    .segments
                    .last()
                    .is_some_and(|s| s.ident == "Some" || s.ident == "Ok");
                let c = if transparent {
                    v.clone()
                } else {
                    Abs::Unknown(v.active())
                };
                ps.iter().for_each(|p| self.bind_pat(p, &c));
            }
            Pat::Struct(_, fs, _) => {
                let c = Abs::Unknown(v.active());
                fs.iter().for_each(|(_, p, _)| self.bind_pat(p, &c));
            }
            Pat::Ref(_, p) => self.bind_pat(p, v.deref()),
            Pat::Slice(ps) => {
                let e = v.elem();
                ps.iter().for_each(|p| self.bind_pat(p, &e));
            }
            Pat::Or(ps) => ps.iter().for_each(|p| self.bind_pat(p, v)),
            Pat::Paren(p) => self.bind_pat(p, v),
            Pat::Type(p, ty) => self.bind_pat(p, &v.join(&abs_of_type(ty, false))),
            Pat::Other(_) => {}
        }
    }

    /// A value written into a place (`x = v`, `x[i] = v`, `*r = v`, `p.f = v`).
    fn flow_place(&mut self, place: &Expr, v: &Abs) {
        match &place.kind {
            Kind::Local(id, _) => self.flow(*id, v),
            Kind::Index(base, idx) => {
                if matches!(idx.peel().kind, Kind::Range(..)) {
                    self.flow_place(base, v)
                } else {
                    self.flow_place(base, &Abs::Seq(Box::new(v.clone())))
                }
            }
            Kind::Field(base, _) => self.flow_place(base, &Abs::Unknown(v.active())),
            Kind::Unary(UnOp::Deref(_), inner) | Kind::Paren(inner) => self.flow_place(inner, v),
            // `std::mem::swap(&mut a, &mut b)`: what is written through `&mut a` reaches `a`.
            Kind::Reference { expr, .. } => self.flow_place(expr, v),
            Kind::MethodCall(m) => self.flow_place(&m.receiver, &Abs::Unknown(v.active())),
            // `(a, b) = (x, y)`.
            Kind::Tuple(xs) => {
                for (i, x) in xs.iter().enumerate() {
                    let part = match v.deref() {
                        Abs::Tuple(vs) => vs.get(i).cloned().unwrap_or(Abs::Unknown(false)),
                        other => Abs::Unknown(other.active()),
                    };
                    self.flow_place(x, &part);
                }
            }
            _ => {}
        }
    }

    fn expr(&mut self, e: &'a Expr) -> Abs {
        let v = self.expr_kind(e);
        self.expr[e.id] = v.clone();
        v
    }

    fn exprs(&mut self, es: &'a [Expr]) -> Vec<Abs> {
        es.iter().map(|e| self.expr(e)).collect()
    }

    fn expr_kind(&mut self, e: &'a Expr) -> Abs {
        match &e.kind {
            Kind::Lit(l) => lit(l),
            Kind::Local(id, _) => self.bind[*id].clone(),
            Kind::Path(p) => path_value(p),
            Kind::Unary(op, x) => {
                let v = self.expr(x);
                match op {
                    UnOp::Deref(_) => match v {
                        Abs::Ref(x) => *x,
                        v => v,
                    },
                    _ => v.deref().clone(),
                }
            }
            Kind::Binary(op, l, r) => self.binary(op, l, r),
            Kind::Assign(l, r) => {
                let v = self.expr(r);
                self.expr(l);
                self.flow_place(l, &v);
                Abs::Unknown(false)
            }
            Kind::Call(f, args) => self.call(f, args),
            Kind::MethodCall(m) => self.method(m),
            Kind::Field(base, member) => {
                let b = self.expr(base);
                field(&b, member)
            }
            Kind::Index(base, idx) => {
                let b = self.expr(base);
                let i = self.expr(idx);
                if matches!(i, Abs::Seq(_)) {
                    b.deref().clone()
                } else {
                    b.elem()
                }
            }
            Kind::Paren(x) => self.expr(x),
            Kind::Reference { expr, .. } => Abs::Ref(Box::new(self.expr(expr))),
            Kind::Cast(x, ty) => {
                self.expr(x);
                cast_value(ty)
            }
            Kind::Block(_, label, b) => {
                if label.is_some() {
                    self.loops.push((label_name(label), Abs::Never));
                    let v = self.block(b);
                    let (_, brk) = self.loops.pop().expect("pushed");
                    v.join(&brk)
                } else {
                    self.block(b)
                }
            }
            Kind::If(c, then, els) => {
                self.expr(c);
                let t = self.block(then);
                match els {
                    Some(x) => t.join(&self.expr(x)),
                    None => Abs::Unknown(false),
                }
            }
            Kind::Let(p, x) => {
                let v = self.expr(x);
                self.bind_pat(p, &v);
                Abs::Bool
            }
            Kind::Match(x, arms) => {
                let v = self.expr(x);
                let mut out = Abs::Never;
                for a in arms {
                    self.bind_pat(&a.pat, &v);
                    if let Some(g) = &a.guard {
                        self.expr(g);
                    }
                    out = out.join(&self.expr(&a.body));
                }
                out
            }
            Kind::While(label, c, b) => {
                self.loops.push((label_name(label), Abs::Never));
                self.expr(c);
                self.block(b);
                self.loops.pop();
                Abs::Unknown(false)
            }
            Kind::For(label, p, it, b) => {
                let v = self.expr(it);
                self.bind_pat(p, &v.item());
                self.note_iter_mut(p, it);
                self.loops.push((label_name(label), Abs::Never));
                self.block(b);
                self.loops.pop();
                Abs::Unknown(false)
            }
            Kind::Loop(label, b) => {
                self.loops.push((label_name(label), Abs::Never));
                self.block(b);
                let (_, brk) = self.loops.pop().expect("pushed");
                brk
            }
            Kind::Break(label, v) => {
                let v = match v {
                    Some(x) => self.expr(x),
                    None => Abs::Unknown(false),
                };
                let name = label.as_ref().map(|l| l.ident.to_string());
                let target = match name {
                    Some(n) => self
                        .loops
                        .iter_mut()
                        .rev()
                        .find(|(l, _)| l.as_deref() == Some(&n)),
                    None => self.loops.iter_mut().next_back(),
                };
                if let Some((_, acc)) = target {
                    *acc = acc.join(&v);
                }
                Abs::Never
            }
            Kind::Continue(_) => Abs::Never,
            Kind::Return(v) => {
                let v = match v {
                    Some(x) => self.expr(x),
                    None => Abs::Unknown(false),
                };
                if let Some(&c) = self.rets.last() {
                    self.closure_ret[c] = self.closure_ret[c].join(&v);
                }
                Abs::Never
            }
            Kind::Closure(c) => self.closure(c),
            Kind::Tuple(xs) => Abs::Tuple(self.exprs(xs)),
            Kind::Array(xs) => {
                let vs = self.exprs(xs);
                Abs::Seq(Box::new(vs.iter().fold(Abs::Never, |a, b| a.join(b))))
            }
            Kind::Repeat(x, _) => Abs::Seq(Box::new(self.expr(x))),
            Kind::Range(a, _, b) => {
                for x in a.iter().chain(b.iter()) {
                    self.expr(x);
                }
                Abs::Seq(Box::new(Abs::Int))
            }
            Kind::Struct(s) => {
                let mut act = false;
                for (_, x, _) in &s.fields {
                    act |= self.expr(x).active();
                }
                if let Some(r) = &s.rest {
                    act |= self.expr(r).active();
                }
                Abs::Unknown(act)
            }
            Kind::Try(x) => self.expr(x),
            Kind::Macro(m) => self.mac(m),
            Kind::Opaque(_) => Abs::Unknown(false),
        }
    }

    fn binary(&mut self, op: &BinOp, l: &'a Expr, r: &'a Expr) -> Abs {
        let a = self.expr(l);
        let b = self.expr(r);
        match op {
            BinOp::Add(_) | BinOp::Sub(_) | BinOp::Mul(_) | BinOp::Div(_) | BinOp::Rem(_) => {
                arith(&a, &b)
            }
            BinOp::AddAssign(_)
            | BinOp::SubAssign(_)
            | BinOp::MulAssign(_)
            | BinOp::DivAssign(_)
            | BinOp::RemAssign(_) => {
                let v = arith(&a, &b);
                self.flow_place(l, &v);
                Abs::Unknown(false)
            }
            BinOp::BitAndAssign(_)
            | BinOp::BitOrAssign(_)
            | BinOp::BitXorAssign(_)
            | BinOp::ShlAssign(_)
            | BinOp::ShrAssign(_) => Abs::Unknown(false),
            BinOp::BitAnd(_) | BinOp::BitOr(_) | BinOp::BitXor(_) => a.join(&b),
            BinOp::Shl(_) | BinOp::Shr(_) => a,
            _ => Abs::Bool,
        }
    }
}

fn label_name(l: &Option<syn::Label>) -> Option<String> {
    l.as_ref().map(|l| l.name.ident.to_string())
}

/// The local variable a place expression is rooted at (`x`, `x[i]`, `x.f`, `*x`).
pub fn root_local(e: &Expr) -> Option<BindId> {
    match &e.kind {
        Kind::Local(id, _) => Some(*id),
        Kind::Index(b, _) | Kind::Field(b, _) | Kind::Paren(b) => root_local(b),
        Kind::Unary(UnOp::Deref(_), b) => root_local(b),
        Kind::MethodCall(m) => root_local(&m.receiver),
        _ => None,
    }
}

impl Walk<'_> {
    /// `for o in x.iter_mut()` (through `zip`, `enumerate`, `rev`, `skip`, `take`): what
    /// is written through `o` reaches `x`'s elements.
    pub(super) fn note_iter_mut(&mut self, p: &Pat, it: &Expr) {
        let Some((root, path)) = iter_mut_item(it) else {
            return;
        };
        let mut cur = p;
        for i in path {
            cur = match cur {
                Pat::Tuple(ps) if i < ps.len() => &ps[i],
                _ => return,
            };
        }
        if let Pat::Ident { id, .. } = cur {
            if !self.elem_aliases.contains(&(*id, root)) {
                self.elem_aliases.push((*id, root));
            }
        }
    }
}

/// The local an iterator's `iter_mut` items point into, and where they are in its items
/// (tuple positions, outermost first).
fn iter_mut_item(it: &Expr) -> Option<(BindId, Vec<usize>)> {
    let Kind::MethodCall(m) = &it.peel().kind else {
        return None;
    };
    match (m.method.to_string().as_str(), m.args.as_slice()) {
        ("iter_mut", []) => root_local(&m.receiver).map(|r| (r, vec![])),
        ("rev" | "skip" | "take" | "step_by", _) => iter_mut_item(&m.receiver),
        ("enumerate", []) => iter_mut_item(&m.receiver).map(|(r, mut p)| {
            p.insert(0, 1);
            (r, p)
        }),
        ("zip", [other]) => match iter_mut_item(&m.receiver) {
            Some((r, mut p)) => {
                p.insert(0, 0);
                Some((r, p))
            }
            None => iter_mut_item(other).map(|(r, mut p)| {
                p.insert(0, 1);
                (r, p)
            }),
        },
        _ => None,
    }
}
