//! Which expressions are floats by the way they are used, where the activity analysis
//! could not see their type (the result of a function the macro cannot see into): an
//! operand of arithmetic next to a float, the receiver of a float method, a value bound
//! to a variable used so, the function's result. Rust's arithmetic on `f64` takes `f64`
//! on both sides, so such a value is a float.

use crate::activity::{Abs, Activity};
use crate::model::visit::{walk_expr, walk_let, Visit};
use crate::model::*;
use std::collections::HashSet;
use syn::BinOp;

/// The hints of a body: expressions known to be floats, and expressions known to be
/// sequences (indexed, iterated) where the activity analysis saw an unknown value.
pub struct Hints {
    pub exprs: HashSet<ExprId>,
    pub seqs: HashSet<ExprId>,
    /// Bindings used as floats, and bindings used as sequences.
    pub binds: HashSet<BindId>,
    pub seq_binds: HashSet<BindId>,
    /// Bindings dereferenced to a float (`**v > 0.5`): references to numbers.
    pub deref_binds: HashSet<BindId>,
}

pub fn hints(body: &Body, act: &Activity, ret_float: bool) -> Hints {
    let mut h = H {
        act,
        ret_float,
        exprs: HashSet::new(),
        binds: HashSet::new(),
        seqs: HashSet::new(),
        seq_binds: HashSet::new(),
        deref_binds: HashSet::new(),
        changed: false,
    };
    if ret_float {
        if let Some(Stmt::Expr(e, false)) = body.block.stmts.last() {
            h.float(e);
        }
    }
    for _ in 0..16 {
        h.changed = false;
        h.visit_block(&body.block);
        if !h.changed {
            break;
        }
    }
    Hints {
        exprs: h.exprs,
        seqs: h.seqs,
        binds: h.binds,
        seq_binds: h.seq_binds,
        deref_binds: h.deref_binds,
    }
}

struct H<'a> {
    act: &'a Activity,
    ret_float: bool,
    exprs: HashSet<ExprId>,
    binds: HashSet<BindId>,
    seqs: HashSet<ExprId>,
    seq_binds: HashSet<BindId>,
    deref_binds: HashSet<BindId>,
    changed: bool,
}

impl H<'_> {
    fn is_float(&self, e: &Expr) -> bool {
        matches!(self.act.of_expr(e.id).deref(), Abs::Float(_)) || self.exprs.contains(&e.id)
    }

    /// Mark `e` (through parentheses, blocks' tails, branches) a float.
    fn float(&mut self, e: &Expr) {
        if self.exprs.insert(e.id) {
            self.changed = true;
        }
        match &e.kind {
            Kind::Paren(x) | Kind::Try(x) => self.float(x),
            Kind::Local(id, _) if self.binds.insert(*id) => self.changed = true,
            Kind::MethodCall(m)
                if matches!(
                    m.method.to_string().as_str(),
                    "unwrap" | "expect" | "unwrap_or"
                ) =>
            {
                self.float(&m.receiver)
            }
            Kind::If(_, t, els) => {
                if let Some(Stmt::Expr(x, false)) = t.stmts.last() {
                    self.float(x);
                }
                if let Some(x) = els {
                    self.float(x);
                }
            }
            Kind::Block(_, _, b) => {
                if let Some(Stmt::Expr(x, false)) = b.stmts.last() {
                    self.float(x);
                }
            }
            Kind::Match(_, arms) => arms.iter().for_each(|a| self.float(&a.body)),
            _ => {}
        }
    }
}

impl H<'_> {
    /// Mark `e` a sequence (through parentheses and references).
    fn seq(&mut self, e: &Expr) {
        if self.seqs.insert(e.id) {
            self.changed = true;
        }
        match &e.kind {
            Kind::Paren(x) | Kind::Try(x) | Kind::Reference { expr: x, .. } => self.seq(x),
            Kind::Local(id, _) if self.seq_binds.insert(*id) => self.changed = true,
            _ => {}
        }
    }
}

impl Visit for H<'_> {
    fn visit_let(&mut self, l: &Let) {
        if let (Pat::Ident { id, .. }, Some(init)) = (&l.pat, &l.init) {
            let typed = l.ty.as_ref().is_some_and(crate::util::is_f64);
            if typed || self.binds.contains(id) {
                self.float(init);
            }
            if self.seq_binds.contains(id) {
                self.seq(init);
            }
        }
        walk_let(self, l);
    }

    fn visit_expr(&mut self, e: &Expr) {
        match &e.kind {
            Kind::Binary(op, l, r) if arithmetic(op) || comparison(op) => {
                if self.is_float(l) {
                    self.float(r);
                }
                if self.is_float(r) {
                    self.float(l);
                }
                if arithmetic(op) && self.exprs.contains(&e.id) {
                    // A float result of arithmetic has float operands.
                    self.float(l);
                    self.float(r);
                }
            }
            Kind::Unary(syn::UnOp::Neg(_), x) if self.exprs.contains(&e.id) => self.float(x),
            Kind::MethodCall(m) if crate::catalogue::get(&m.method.to_string()).is_some() => {
                // Integers have methods of these names too.
                let name = m.method.to_string();
                let ambiguous = matches!(
                    name.as_str(),
                    "max"
                        | "min"
                        | "clamp"
                        | "abs"
                        | "signum"
                        | "rem_euclid"
                        | "div_euclid"
                        | "midpoint"
                );
                // `x.max(0.0)`: the other operand is of the receiver's type.
                let float_arg = name != "powi" && m.args.iter().any(|a| self.is_float(a));
                if !ambiguous || float_arg || self.is_float(&m.receiver) {
                    self.float(&m.receiver);
                    if name != "powi" {
                        m.args.iter().for_each(|a| self.float(a));
                    }
                }
            }
            Kind::Assign(l, r) if self.is_float(l) => self.float(r),
            Kind::Index(b, i) if !matches!(i.peel().kind, Kind::Range(..)) => self.seq(b),
            Kind::MethodCall(m)
                if matches!(
                    m.method.to_string().as_str(),
                    "iter"
                        | "len"
                        | "windows"
                        | "chunks"
                        | "chunks_exact"
                        | "first"
                        | "last"
                        | "get"
                        | "to_vec"
                        | "split_at"
                ) =>
            {
                self.seq(&m.receiver)
            }
            Kind::For(_, _, it, _) if matches!(it.peel().kind, Kind::Local(..)) => self.seq(it),
            Kind::Return(Some(x)) if self.ret_float => self.float(x),
            // `f64::max(a, b)`, `f64::log(x, b)`: a scalar function of the catalogue takes
            // numbers.
            Kind::Call(f, args) => {
                if let Some(name) = scalar_fn(f) {
                    // `f64::powi(x, n)`: `n` is an integer.
                    let n = if name == "powi" { 1 } else { args.len() };
                    args.iter().take(n).for_each(|a| self.float(a));
                }
            }
            // `**v > 0.5`: `v` refers to a number.
            Kind::Unary(syn::UnOp::Deref(_), x) if self.is_float(e) => {
                if let Kind::Local(id, _) = &x.peel().kind {
                    if self.deref_binds.insert(*id) {
                        self.changed = true;
                    }
                }
                if let Kind::Unary(syn::UnOp::Deref(_), inner) = &x.peel().kind {
                    if let Kind::Local(id, _) = &inner.peel().kind {
                        if self.deref_binds.insert(*id) {
                            self.changed = true;
                        }
                    }
                }
            }
            // `it.map(|..| body).sum()` of floats: the closure returns floats.
            Kind::MethodCall(m)
                if matches!(m.method.to_string().as_str(), "sum" | "product")
                    && self.is_float(e) =>
            {
                if let Kind::MethodCall(inner) = &m.receiver.peel().kind {
                    if inner.method == "map" {
                        if let Some(Kind::Closure(c)) = inner.args.first().map(|a| &a.peel().kind) {
                            self.float(&c.body);
                        }
                    }
                }
            }
            _ => {}
        }
        walk_expr(self, e);
    }
}

/// The catalogue function a call's path names (`f64::max`, `Real::exp`, fazang's free
/// `sqrt`), as the lowering classifies calls; not `f64::from`.
fn scalar_fn(f: &Expr) -> Option<&'static str> {
    let Kind::Path(p) = &f.peel().kind else {
        return None;
    };
    let segs: Vec<String> = crate::util::path_names(&p.path);
    super::call::scalar_fn_path(&segs).map(|fun| fun.name)
}

fn arithmetic(op: &BinOp) -> bool {
    matches!(
        op,
        BinOp::Add(_)
            | BinOp::Sub(_)
            | BinOp::Mul(_)
            | BinOp::Div(_)
            | BinOp::Rem(_)
            | BinOp::AddAssign(_)
            | BinOp::SubAssign(_)
            | BinOp::MulAssign(_)
            | BinOp::DivAssign(_)
    )
}

fn comparison(op: &BinOp) -> bool {
    matches!(
        op,
        BinOp::Lt(_) | BinOp::Le(_) | BinOp::Gt(_) | BinOp::Ge(_) | BinOp::Eq(_) | BinOp::Ne(_)
    )
}

/// The expressions whose value is the function's result: the body's tail (through
/// blocks, branches and arms) and the values of `return`. In a function returning
/// `Result`, such a call that is not `Ok(..)` returns a `Result` itself.
pub fn result_positions(body: &Body) -> HashSet<ExprId> {
    fn tail(e: &Expr, out: &mut HashSet<ExprId>) {
        out.insert(e.id);
        match &e.kind {
            Kind::Paren(x) => tail(x, out),
            Kind::Block(_, _, b) => block_tail(b, out),
            Kind::If(_, t, els) => {
                block_tail(t, out);
                if let Some(x) = els {
                    tail(x, out);
                }
            }
            Kind::Match(_, arms) => arms.iter().for_each(|a| tail(&a.body, out)),
            _ => {}
        }
    }
    fn block_tail(b: &Block, out: &mut HashSet<ExprId>) {
        if let Some(Stmt::Expr(x, false)) = b.stmts.last() {
            tail(x, out);
        }
    }
    struct Returns<'o>(&'o mut HashSet<ExprId>);
    impl Visit for Returns<'_> {
        fn visit_expr(&mut self, e: &Expr) {
            match &e.kind {
                Kind::Return(Some(x)) => tail(x, self.0),
                Kind::Closure(_) => return,
                _ => {}
            }
            walk_expr(self, e);
        }
    }
    let mut out = HashSet::new();
    block_tail(&body.block, &mut out);
    Returns(&mut out).visit_block(&body.block);
    out
}
