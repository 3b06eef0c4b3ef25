//! To be recorded (after Tapenade's TBR analysis): the bindings whose values the reverse
//! sweep reads. A statement overwriting one of them saves the old value first; the
//! others are overwritten freely. The reverse sweep reads a value where it computes a
//! partial derivative (an operand of `*`, `/`, a function's argument), where it indexes,
//! and where it walks slices again (the sources of `for` loops). Operands of `+`, `-`
//! and negation are not read: `s += e` reverses without knowing `s`.

use crate::activity::Activity;
use crate::model::*;
use std::collections::HashSet;
use syn::BinOp;

/// The bindings the reverse sweep reads.
pub fn needed(body: &Body, act: &Activity) -> HashSet<BindId> {
    let mut t = Tbr {
        act,
        out: HashSet::new(),
    };
    t.block(&body.block);
    t.out
}

struct Tbr<'a> {
    act: &'a Activity,
    out: HashSet<BindId>,
}

impl Tbr<'_> {
    fn active(&self, e: &Expr) -> bool {
        self.act.of_expr(e.id).active()
    }

    fn block(&mut self, b: &Block) {
        for s in &b.stmts {
            match s {
                Stmt::Let(l) => {
                    if let Some(init) = &l.init {
                        self.rhs(init, true);
                    }
                }
                Stmt::Expr(e, _) => self.stmt(e),
                Stmt::Item(_) => {}
            }
        }
    }

    fn stmt(&mut self, e: &Expr) {
        match &e.kind {
            Kind::Assign(place, v) => {
                self.target(place);
                self.rhs(v, true);
            }
            Kind::Binary(op, place, v) => {
                self.target(place);
                match op {
                    BinOp::MulAssign(_) | BinOp::DivAssign(_)
                        if self.active(e) || self.active(v) =>
                    {
                        self.all(place);
                        self.rhs(v, false);
                    }
                    _ => self.rhs(v, true),
                }
            }
            Kind::If(_, then, els) => {
                self.block(then);
                if let Some(x) = els {
                    self.stmt(x);
                }
            }
            Kind::Block(_, _, b) => self.block(b),
            Kind::For(_, _, it, b) => {
                // The reverse sweep walks the slices again.
                self.all(it);
                self.block(b);
            }
            Kind::While(_, _, b) => self.block(b),
            Kind::Return(Some(v)) => self.rhs(v, true),
            _ => {}
        }
    }

    /// The index expressions of an assigned place are evaluated again in reverse.
    fn target(&mut self, p: &Expr) {
        match &p.peel().kind {
            Kind::Index(b, i) => {
                self.all(i);
                self.target(b);
            }
            Kind::Unary(_, x) => self.target(x),
            _ => {}
        }
    }

    /// A right-hand side; `linear` while only `+`, `-` and negation lie above.
    fn rhs(&mut self, e: &Expr, linear: bool) {
        if !self.active(e) {
            // Data: its value is read only where a partial derivative uses it.
            if !linear {
                self.all(e);
            }
            return;
        }
        match &e.kind {
            Kind::Local(id, _) => {
                if !linear {
                    self.out.insert(*id);
                }
            }
            Kind::Paren(x) | Kind::Try(x) => self.rhs(x, linear),
            Kind::Unary(syn::UnOp::Neg(_), x) => self.rhs(x, linear),
            Kind::Unary(_, x) => self.rhs(x, linear),
            Kind::Binary(BinOp::Add(_) | BinOp::Sub(_), l, r) => {
                self.rhs(l, linear);
                self.rhs(r, linear);
            }
            Kind::Binary(BinOp::Mul(_), l, r) => {
                // d(l r) = r dl + l dr: each side's value is read if the other is active,
                // and both are read if the product itself is an operand whose value is
                // read (`(0.5 * v) * w` reads `0.5 * v`, so `v`).
                let (la, ra) = (self.active(l), self.active(r));
                self.rhs(l, linear && !ra);
                self.rhs(r, linear && !la);
            }
            Kind::Binary(BinOp::Div(_), l, r) => {
                let ra = self.active(r);
                self.rhs(l, linear && !ra);
                self.rhs(r, false);
            }
            Kind::Index(b, i) => {
                self.all(i);
                if !linear {
                    self.all(b);
                }
            }
            _ => self.all(e),
        }
    }

    /// Every binding `e` reads.
    fn all(&mut self, e: &Expr) {
        struct Reads<'o>(&'o mut HashSet<BindId>);
        impl Reads<'_> {
            fn expr(&mut self, e: &Expr) {
                match &e.kind {
                    Kind::Local(id, _) => {
                        self.0.insert(*id);
                    }
                    Kind::Paren(x) | Kind::Unary(_, x) | Kind::Cast(x, _) | Kind::Try(x) => {
                        self.expr(x)
                    }
                    Kind::Field(x, _) => self.expr(x),
                    Kind::Reference { expr, .. } => self.expr(expr),
                    Kind::Binary(_, l, r) | Kind::Index(l, r) | Kind::Assign(l, r) => {
                        self.expr(l);
                        self.expr(r);
                    }
                    Kind::Call(f, args) => {
                        self.expr(f);
                        args.iter().for_each(|a| self.expr(a));
                    }
                    Kind::MethodCall(m) => {
                        self.expr(&m.receiver);
                        m.args.iter().for_each(|a| self.expr(a));
                    }
                    Kind::Range(a, _, b) => {
                        a.iter().chain(b.iter()).for_each(|x| self.expr(x));
                    }
                    Kind::Tuple(xs) | Kind::Array(xs) => xs.iter().for_each(|x| self.expr(x)),
                    _ => {}
                }
            }
        }
        Reads(&mut self.out).expr(e);
    }
}
