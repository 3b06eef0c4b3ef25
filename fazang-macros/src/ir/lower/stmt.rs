//! Statements: blocks (with the rest of a block guarded after a statement that may jump),
//! `let` (patterns bound in [`super::bind`]), expression statements (assignments and
//! compound assignments to variables and elements in [`super::assign`]).

use super::*;
use crate::model::visit::{walk_expr, Visit};
use crate::model::{Expr as MExpr, Kind as MKind, Let, Pat as MPat, Stmt as MStmt};
use quote::quote;
use std::collections::HashSet;
use syn::BinOp;

/// Bindings assigned after their `let` (or written through `&mut`), and those of them
/// whose elements are written (`w[i] = ..`, `w[i] += ..`).
pub fn assigned(body: &model::Body) -> (HashSet<BindId>, HashSet<BindId>) {
    #[derive(Default)]
    struct A {
        assigned: HashSet<BindId>,
        elements: HashSet<BindId>,
    }
    impl Visit for A {
        fn visit_expr(&mut self, e: &MExpr) {
            match &e.kind {
                MKind::Assign(p, _) => self.place(p),
                MKind::Binary(op, p, _) if is_compound(op) => self.place(p),
                MKind::Reference {
                    mutable: true,
                    expr,
                } => root(expr, &mut self.assigned),
                MKind::MethodCall(m)
                    if matches!(
                        m.method.to_string().as_str(),
                        "iter_mut" | "push" | "swap" | "fill" | "clear" | "truncate"
                    ) =>
                {
                    root(&m.receiver, &mut self.assigned)
                }
                _ => {}
            }
            walk_expr(self, e);
        }
    }
    impl A {
        fn place(&mut self, p: &MExpr) {
            root(p, &mut self.assigned);
            if matches!(p.peel().kind, MKind::Index(..)) {
                root(p, &mut self.elements);
            }
        }
    }
    fn root(p: &MExpr, out: &mut HashSet<BindId>) {
        if let MKind::Tuple(xs) = &p.peel().kind {
            // `(a, b) = (x, y)`.
            xs.iter().for_each(|x| root(x, out));
        } else if let Some(id) = crate::activity::walk_support::root_local(p) {
            out.insert(id);
        }
    }
    let mut a = A::default();
    a.visit_block(&body.block);
    (a.assigned, a.elements)
}

/// `+=`, `-=`, ...
pub fn is_compound(op: &BinOp) -> bool {
    matches!(
        op,
        BinOp::AddAssign(_)
            | BinOp::SubAssign(_)
            | BinOp::MulAssign(_)
            | BinOp::DivAssign(_)
            | BinOp::RemAssign(_)
            | BinOp::BitAndAssign(_)
            | BinOp::BitOrAssign(_)
            | BinOp::BitXorAssign(_)
            | BinOp::ShlAssign(_)
            | BinOp::ShrAssign(_)
    )
}

impl<'a> Lower<'a> {
    /// The value of a block (its tail expression), its statements emitted. After a
    /// statement that may jump (`return`, `break`, `continue` inside it), the rest of the
    /// block runs under `if` not jumped.
    pub fn block_value(&mut self, b: &'a model::Block) -> R<Val> {
        self.stmts_value(&b.stmts)
    }

    /// `#[cfg(..)]` and `#[cfg_attr(..)]` inside the body decide at compile time whether a
    /// statement exists; the core form would run it regardless, so such bodies take the
    /// tape (whose generic body keeps the attributes).
    pub fn check_cfg(body: &model::Body) -> R<()> {
        struct C(bool);
        fn cfg(attrs: &[syn::Attribute]) -> bool {
            attrs
                .iter()
                .any(|a| a.path().is_ident("cfg") || a.path().is_ident("cfg_attr"))
        }
        impl Visit for C {
            fn visit_let(&mut self, l: &Let) {
                self.0 |= cfg(&l.attrs);
                crate::model::visit::walk_let(self, l);
            }
            fn visit_expr(&mut self, e: &MExpr) {
                self.0 |= cfg(&e.attrs);
                if let MKind::Match(_, arms) = &e.kind {
                    self.0 |= arms.iter().any(|a| cfg(&a.attrs));
                }
                walk_expr(self, e);
            }
        }
        let mut c = C(false);
        c.visit_block(&body.block);
        if c.0 {
            return no("a `#[cfg]` attribute inside the body");
        }
        Ok(())
    }

    fn stmts_value(&mut self, stmts: &'a [MStmt]) -> R<Val> {
        let n = stmts.len();
        for (i, s) in stmts.iter().enumerate() {
            let last = i + 1 == n;
            let v = match s {
                MStmt::Let(l) => {
                    // What the `let` computes is at its initialiser.
                    let at = l.init.as_ref().map_or(l.span, |x| x.span);
                    let outer = std::mem::replace(&mut self.span, at);
                    let r = self.let_stmt(l);
                    self.span = outer;
                    r?;
                    Val::Unit
                }
                MStmt::Expr(e, semi) => {
                    if *semi || !last {
                        // A call whose value is dropped: nothing flows back through it.
                        let call = match &e.peel().kind {
                            MKind::Try(x) => x.peel(),
                            _ => e.peel(),
                        };
                        self.discarded.insert(call.id);
                    }
                    let v = self.expr_stmt(e)?;
                    if last && !*semi {
                        return Ok(v);
                    }
                    v
                }
                MStmt::Item(it) => {
                    // Items of the body (`const`, `fn`, `use`, ..) are printed at the top of
                    // the generated function: there they shadow outer items as in the
                    // body. One in an inner block would shadow them only there.
                    if self.blocks.len() != 1 || !self.loops.is_empty() {
                        return no("an item (`const`, `fn`, `use`, ..) inside an inner block");
                    }
                    self.items.push(quote!(#it));
                    Val::Unit
                }
            };
            if matches!(v, Val::Never) {
                // Nothing after an unconditional jump runs.
                return Ok(Val::Never);
            }
            let jumps = match s {
                MStmt::Let(l) => {
                    l.init.as_ref().is_some_and(|x| data::escapes(x, 0)) || l.diverge.is_some()
                }
                MStmt::Expr(e, _) => data::escapes(e, 0),
                MStmt::Item(_) => false,
            };
            if jumps && !last {
                return self.guarded_rest(&stmts[i + 1..]);
            }
        }
        Ok(Val::Unit)
    }

    /// The rest of a block after a statement that may have jumped: under `if !jumped`.
    /// Its value, if any, goes through a variable.
    fn guarded_rest(&mut self, rest: &'a [MStmt]) -> R<Val> {
        let c = self.not_jumped();
        let (then, v) = self.in_block(|lw| lw.stmts_value(rest))?;
        let (then, out) = match v {
            Val::Unit | Val::Never => (then, v),
            v => {
                // A tail value: kept in a variable assigned inside.
                let mut then = then;
                let (var, rest) = self.value_var(v)?;
                then.extend(rest);
                (then, var)
            }
        };
        self.emit(Stmt::If {
            cond: c,
            then,
            els: vec![],
        });
        Ok(match out {
            Val::Never => Val::Unit,
            v => v,
        })
    }

    /// A flag: no jump is pending (`!skip` of the innermost loop, `!done` outside loops).
    pub fn not_jumped(&mut self) -> V {
        let f = match self.loops.last() {
            Some(l) => l.skip,
            None => self.done,
        };
        let i = self.ident(f).clone();
        self.data("c", Kind::Data(DataKind::Bool), quote!(!#i), vec![f])
    }

    /// A value moved into a fresh variable, with the statements to do so (for values
    /// computed inside a block and read after it).
    pub fn value_var(&mut self, v: Val) -> R<(Val, Vec<Stmt>)> {
        match v {
            Val::F(op) => {
                let t = self.new_var("v", Kind::F64);
                Ok((
                    Val::F(Op::Var(t)),
                    vec![Stmt::Set {
                        dst: t,
                        rhs: Rhs::Copy(op),
                    }],
                ))
            }
            // Declared where computed (its type unseen): it would not exist after the block.
            Val::D(d) if self.vars[d].kind == Kind::Data(DataKind::Other) => no(
                "a value of a type the macro cannot see computed under a branch or after a jump",
            ),
            Val::D(d) => {
                let kind = self.vars[d].kind;
                let t = self.new_var("v", kind);
                let i = self.ident(d).clone();
                Ok((
                    Val::D(t),
                    vec![Stmt::Data {
                        dst: t,
                        expr: toks(quote!(#i)),
                        reads: vec![d],
                        pure: false,
                    }],
                ))
            }
            Val::Tuple(xs) => {
                let mut vals = Vec::new();
                let mut stmts = Vec::new();
                for x in xs {
                    let (v, s) = self.value_var(x)?;
                    vals.push(v);
                    stmts.extend(s);
                }
                Ok((Val::Tuple(vals), stmts))
            }
            Val::Unit => Ok((Val::Unit, vec![])),
            Val::C(t) => Ok((Val::C(t), vec![])),
            other => no(format!(
                "{} computed under a branch or after a jump",
                other.describe()
            )),
        }
    }

    /// Whether a pattern binds rows of floats (`Vec<Vec<f64>>`).
    fn binds_rows(&self, p: &MPat) -> bool {
        matches!(p, MPat::Ident { id, .. }
            if matches!(self.act.of_bind(*id).deref(), Abs::Seq(x)
                if matches!(x.deref(), Abs::Seq(y) if matches!(y.deref(), Abs::Float(_)))))
    }

    fn let_stmt(&mut self, l: &'a Let) -> R<()> {
        if l.diverge.is_some() {
            return self.let_else(l);
        }
        let Some(init) = &l.init else {
            // `let x;` assigned later: its variable is made at the first assignment.
            return self.declare(&l.pat);
        };
        // An array that starts as data and gets active values later (`let mut buf =
        // vec![0.0; n];`) is a local array from the start.
        let active_array = matches!(&l.pat, MPat::Ident { id, .. }
            if matches!(self.act.of_bind(*id).deref(), Abs::Seq(x) if x.active()));
        if let (MPat::Tuple(ps), MKind::Tuple(xs)) = (&l.pat, &init.peel().kind) {
            if ps.len() == xs.len() && l.ty.is_none() {
                // `let (a, b) = (x, y);`: each part on its own (data moved once each).
                let vals = xs.iter().map(|x| self.expr(x)).collect::<R<Vec<_>>>()?;
                for (p, v) in ps.iter().zip(vals) {
                    self.bind_pat(p, v)?;
                }
                return Ok(());
            }
        }
        // `Vec::with_capacity(x.len())` reads only a length, even of an active array.
        let empty = matches!(&init.peel().kind, MKind::Call(f, _) if super::place::is_vec_new(f));
        // So is a data array whose elements are written later (`w[i] /= 2.0`): its
        // writes are then stores the analyses see, like an active array's.
        let written_array = matches!(&l.pat, MPat::Ident { id, .. }
            if self.elem_written.contains(id)
                && matches!(self.act.of_bind(*id).deref(), Abs::Seq(x)
                    if matches!(x.deref(), Abs::Float(false))));
        let v = if (active_array || written_array) && (empty || self.pure_data(init)) {
            match self.array_init(init)? {
                // `let mut rows = Vec::new();` pushed rows later holds rows.
                Val::Seq(s) if empty && self.binds_rows(&l.pat) => {
                    Val::Seq(seq::Seq { depth: 1, ..s })
                }
                v => v,
            }
        } else if let (Some(ty), true) = (&l.ty, self.pure_data(init)) {
            // Data with a written type keeps it (`let t: Vec<f64> = ...collect();`).
            let (t, reads) = self.data_tokens(init)?;
            self.data_val(
                init,
                quote!({ let __fz_typed: #ty = #t; __fz_typed }),
                reads,
            )
        } else {
            self.expr(init)?
        };
        let v = self.typed(v, l.ty.as_ref())?;
        self.bind_pat(&l.pat, v)
    }

    /// A value given a written type (`let n: f64 = 3;` makes a float).
    fn typed(&mut self, v: Val, ty: Option<&syn::Type>) -> R<Val> {
        match (v, ty) {
            (Val::D(d), Some(t)) if crate::util::is_f64(t) && self.vars[d].kind != Kind::F64 => {
                Ok(Val::F(self.float(Val::D(d), "a value")?))
            }
            (v, _) => Ok(v),
        }
    }

    /// `let x;` with no value yet.
    fn declare(&mut self, p: &MPat) -> R<()> {
        let mut ids = Vec::new();
        model::visit::pat_bindings(p, &mut ids);
        for id in ids {
            let kind = match self.act.of_bind(id).deref() {
                Abs::Float(_) => Kind::F64,
                Abs::Int => Kind::Data(DataKind::Int),
                Abs::Bool => Kind::Data(DataKind::Bool),
                _ => return no("a `let` without a value that is not a number"),
            };
            let v = self.binding_var(id, kind);
            self.env[id] = Some(match kind {
                Kind::F64 => Val::F(Op::Var(v)),
                _ => Val::D(v),
            });
        }
        Ok(())
    }

    fn let_else(&mut self, l: &'a Let) -> R<()> {
        let init = l.init.as_ref().expect("let-else has a value");
        if !self.pure_data(init) {
            return no("`let .. else` on an active value");
        }
        let (t, reads) = self.data_tokens(init)?;
        let p = crate::codegen::pat::print(&l.pat);
        let pure = data::model_pure(init);
        let c = self.data_with(
            "c",
            Kind::Data(DataKind::Bool),
            quote!(!matches!(#t, #p)),
            reads,
            pure,
        );
        let d = l.diverge.as_ref().expect("checked");
        let (then, v) = self.in_block(|lw| lw.expr_stmt(d))?;
        if !matches!(v, Val::Never) {
            return no("an `else` of `let .. else` that does not diverge");
        }
        self.emit(Stmt::If {
            cond: c,
            then,
            els: vec![],
        });
        // The bindings: data extracted by the same pattern (it matches now).
        self.bind_data_pat(&l.pat, init)
    }

    /// The variable kind for a data value of abstract value `a`.
    pub fn kind_of_abs(&self, a: &Abs) -> Kind {
        // A reference is data of its own (a variable of a number type holds a value).
        if let Abs::Ref(_) = a {
            return Kind::Data(DataKind::Other);
        }
        match a.deref() {
            Abs::Float(_) => Kind::F64,
            Abs::Int => Kind::Data(DataKind::Int),
            Abs::Bool => Kind::Data(DataKind::Bool),
            _ => Kind::Data(DataKind::Other),
        }
    }

    /// An expression statement (or a block's tail).
    pub fn expr_stmt(&mut self, e: &'a MExpr) -> R<Val> {
        match &e.kind {
            MKind::Assign(place, v) => {
                self.assign(place, v)?;
                Ok(Val::Unit)
            }
            MKind::Binary(op, place, v) if is_compound(op) => {
                self.compound(e, op, place, v)?;
                Ok(Val::Unit)
            }
            _ => self.expr(e),
        }
    }
}
