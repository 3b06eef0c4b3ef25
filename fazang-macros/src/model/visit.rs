//! One walk over the model (after syn's `visit` and rustc's MIR `Visitor`): [`Visit`] has a
//! default method per node that walks its children, so a pass overrides only the nodes it
//! cares about, and a new construct is added here once, not to every pass.

use super::*;

/// A read-only pass over the model. Each `visit_*` walks the node's children by default
/// (through the matching `walk_*`); override it to act on that node, calling `walk_*`
/// to go on into the children.
pub trait Visit {
    fn visit_block(&mut self, b: &Block) {
        walk_block(self, b);
    }
    fn visit_stmt(&mut self, s: &Stmt) {
        walk_stmt(self, s);
    }
    fn visit_let(&mut self, l: &Let) {
        walk_let(self, l);
    }
    fn visit_expr(&mut self, e: &Expr) {
        walk_expr(self, e);
    }
    fn visit_pat(&mut self, _p: &Pat) {}
}

pub fn walk_block<V: Visit + ?Sized>(v: &mut V, b: &Block) {
    for s in &b.stmts {
        v.visit_stmt(s);
    }
}

pub fn walk_stmt<V: Visit + ?Sized>(v: &mut V, s: &Stmt) {
    match s {
        Stmt::Let(l) => v.visit_let(l),
        Stmt::Expr(e, _) => v.visit_expr(e),
        Stmt::Item(_) => {}
    }
}

pub fn walk_let<V: Visit + ?Sized>(v: &mut V, l: &Let) {
    v.visit_pat(&l.pat);
    if let Some(e) = &l.init {
        v.visit_expr(e);
    }
    if let Some(e) = &l.diverge {
        v.visit_expr(e);
    }
}

/// The children of an expression, in evaluation order: sub-expressions, blocks (through
/// `visit_block`), patterns.
pub fn walk_expr<V: Visit + ?Sized>(v: &mut V, e: &Expr) {
    match &e.kind {
        Kind::Lit(_) | Kind::Local(..) | Kind::Path(_) | Kind::Continue(_) | Kind::Opaque(_) => {}
        Kind::Unary(_, x)
        | Kind::Paren(x)
        | Kind::Cast(x, _)
        | Kind::Field(x, _)
        | Kind::Try(x)
        | Kind::Repeat(x, _) => v.visit_expr(x),
        Kind::Reference { expr, .. } => v.visit_expr(expr),
        Kind::Binary(_, l, r) | Kind::Assign(l, r) | Kind::Index(l, r) => {
            v.visit_expr(l);
            v.visit_expr(r);
        }
        Kind::Call(f, args) => {
            v.visit_expr(f);
            args.iter().for_each(|a| v.visit_expr(a));
        }
        Kind::MethodCall(m) => {
            v.visit_expr(&m.receiver);
            m.args.iter().for_each(|a| v.visit_expr(a));
        }
        Kind::Block(_, _, b) | Kind::Loop(_, b) => v.visit_block(b),
        Kind::If(c, t, els) => {
            v.visit_expr(c);
            v.visit_block(t);
            if let Some(x) = els {
                v.visit_expr(x);
            }
        }
        Kind::Let(p, x) => {
            v.visit_expr(x);
            v.visit_pat(p);
        }
        Kind::Match(x, arms) => {
            v.visit_expr(x);
            for a in arms {
                v.visit_pat(&a.pat);
                if let Some(g) = &a.guard {
                    v.visit_expr(g);
                }
                v.visit_expr(&a.body);
            }
        }
        Kind::While(_, c, b) => {
            v.visit_expr(c);
            v.visit_block(b);
        }
        Kind::For(_, p, it, b) => {
            v.visit_expr(it);
            v.visit_pat(p);
            v.visit_block(b);
        }
        Kind::Break(_, x) | Kind::Return(x) => {
            if let Some(x) = x {
                v.visit_expr(x);
            }
        }
        Kind::Closure(c) => {
            for (p, _) in &c.params {
                v.visit_pat(p);
            }
            v.visit_expr(&c.body);
        }
        Kind::Tuple(xs) | Kind::Array(xs) => xs.iter().for_each(|x| v.visit_expr(x)),
        Kind::Range(a, _, b) => {
            if let Some(a) = a {
                v.visit_expr(a);
            }
            if let Some(b) = b {
                v.visit_expr(b);
            }
        }
        Kind::Struct(s) => {
            for (_, x, _) in &s.fields {
                v.visit_expr(x);
            }
            if let Some(r) = &s.rest {
                v.visit_expr(r);
            }
        }
        Kind::Macro(m) => match m {
            Macro::VecList(_, xs) | Macro::Args(_, xs) => xs.iter().for_each(|x| v.visit_expr(x)),
            Macro::VecRepeat(_, x, n) => {
                v.visit_expr(x);
                v.visit_expr(n);
            }
            Macro::Opaque(_) => {}
        },
    }
}

/// Call `f` on `e` and every expression inside it (blocks included), outer first.
pub fn each_expr(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    struct Each<'f>(&'f mut dyn FnMut(&Expr));
    impl Visit for Each<'_> {
        fn visit_expr(&mut self, e: &Expr) {
            (self.0)(e);
            walk_expr(self, e);
        }
    }
    Each(f).visit_expr(e);
}

/// Call `f` on each direct child expression of `e`: sub-expressions, and the statements'
/// expressions of its blocks (not deeper).
pub fn each_child(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    struct Children<'f>(&'f mut dyn FnMut(&Expr));
    impl Visit for Children<'_> {
        fn visit_expr(&mut self, e: &Expr) {
            (self.0)(e);
        }
    }
    walk_expr(&mut Children(f), e);
}

/// Every binding a pattern binds.
pub fn pat_bindings(p: &Pat, out: &mut Vec<BindId>) {
    match p {
        Pat::Ident { id, sub, .. } => {
            out.push(*id);
            if let Some(s) = sub {
                pat_bindings(s, out);
            }
        }
        Pat::Tuple(ps) | Pat::TupleStruct(_, ps) | Pat::Slice(ps) | Pat::Or(ps) => {
            ps.iter().for_each(|p| pat_bindings(p, out))
        }
        Pat::Struct(_, fs, _) => fs.iter().for_each(|(_, p, _)| pat_bindings(p, out)),
        Pat::Ref(_, p) | Pat::Paren(p) | Pat::Type(p, _) => pat_bindings(p, out),
        Pat::Other(_) => {}
    }
}
