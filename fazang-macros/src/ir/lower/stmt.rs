//! Statements: blocks (with the rest of a block guarded after a statement that may jump),
//! `let` with patterns, assignments and compound assignments to variables and elements.

use super::*;
use crate::model::visit::{walk_expr, Visit};
use crate::model::{Expr as MExpr, Kind as MKind, Let, Pat as MPat, Stmt as MStmt};
use quote::quote;
use std::collections::HashSet;
use syn::BinOp;

/// Bindings assigned after their `let` (or written through `&mut`).
pub fn assigned(body: &model::Body) -> HashSet<BindId> {
    struct A(HashSet<BindId>);
    impl Visit for A {
        fn visit_expr(&mut self, e: &MExpr) {
            match &e.kind {
                MKind::Assign(p, _) => root(p, &mut self.0),
                MKind::Binary(op, p, _) if is_compound(op) => root(p, &mut self.0),
                MKind::Reference {
                    mutable: true,
                    expr,
                } => root(expr, &mut self.0),
                MKind::MethodCall(m)
                    if matches!(
                        m.method.to_string().as_str(),
                        "iter_mut" | "push" | "swap" | "fill" | "clear" | "truncate"
                    ) =>
                {
                    root(&m.receiver, &mut self.0)
                }
                _ => {}
            }
            walk_expr(self, e);
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
    let mut a = A(HashSet::new());
    a.visit_block(&body.block);
    a.0
}

/// Bindings whose elements are written after their `let` (`w[i] = ..`, `w[i] += ..`).
pub fn element_written(body: &model::Body) -> HashSet<BindId> {
    struct A(HashSet<BindId>);
    impl Visit for A {
        fn visit_expr(&mut self, e: &MExpr) {
            let place = match &e.kind {
                MKind::Assign(p, _) => Some(p),
                MKind::Binary(op, p, _) if is_compound(op) => Some(p),
                _ => None,
            };
            if let Some(p) = place {
                if matches!(p.peel().kind, MKind::Index(..)) {
                    if let Some(id) = crate::activity::walk_support::root_local(p) {
                        self.0.insert(id);
                    }
                }
            }
            walk_expr(self, e);
        }
    }
    let mut a = A(HashSet::new());
    a.visit_block(&body.block);
    a.0
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
                    self.let_stmt(l)?;
                    Val::Unit
                }
                MStmt::Expr(e, semi) => {
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
        let empty = matches!(&init.peel().kind, MKind::Call(f, _) if super::expr::is_vec_new(f));
        // So is a data array whose elements are written later (`w[i] /= 2.0`): its
        // writes are then stores the analyses see, like an active array's.
        let written_array = matches!(&l.pat, MPat::Ident { id, .. }
            if self.elem_written.contains(id)
                && matches!(self.act.of_bind(*id).deref(), Abs::Seq(x)
                    if matches!(x.deref(), Abs::Float(false))));
        let v = if (active_array || written_array) && (empty || self.pure_data(init)) {
            self.array_init(init)?
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

    /// Bind the variables of a pattern matched against data `e` (which matches).
    pub fn bind_data_pat(&mut self, p: &MPat, e: &MExpr) -> R<()> {
        let (t, reads) = self.data_tokens(e)?;
        self.destructure(p, t, reads)
    }

    /// Bind the variables of a pattern matching data `t` (which matches): one `let` of
    /// the pattern (its names private), then each binding moved into its variable.
    pub fn destructure(&mut self, p: &MPat, t: TokenStream, reads: Vec<V>) -> R<()> {
        let mut ids = Vec::new();
        model::visit::pat_bindings(p, &mut ids);
        if ids.is_empty() {
            return Ok(());
        }
        let private = |id: BindId, ident: &Ident| format_ident!("__fzp_{}_{}", ident, id);
        let pt = crate::codegen::pat::print_with(p, &private);
        self.emit(Stmt::Effect {
            tokens: toks(quote!(let #pt = #t else { ::core::unreachable!() };)),
            reads,
        });
        for id in ids {
            if self.act.of_bind(id).active() {
                return no("a pattern binding an active value out of data");
            }
            let x = private(id, &self.body.bindings[id].name);
            let kind = self.kind_of_abs(self.act.of_bind(id));
            let v = self.binding_var(id, kind);
            self.emit(Stmt::Data {
                dst: v,
                expr: toks(quote!(#x)),
                reads: vec![],
                pure: false,
            });
            self.env[id] = Some(match kind {
                Kind::F64 => Val::F(Op::Var(v)),
                _ => Val::D(v),
            });
        }
        Ok(())
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

    /// Bind a pattern to a value.
    pub fn bind_pat(&mut self, p: &MPat, v: Val) -> R<()> {
        match p {
            MPat::Ident { id, sub: None, .. } => self.bind(*id, v),
            MPat::Paren(p) | MPat::Type(p, _) => self.bind_pat(p, v),
            MPat::Ref(_, p) => self.bind_pat(p, v),
            MPat::Tuple(ps) => match v {
                Val::Tuple(xs) if xs.len() == ps.len() => {
                    for (p, x) in ps.iter().zip(xs) {
                        self.bind_pat(p, x)?;
                    }
                    Ok(())
                }
                Val::D(_) | Val::F(_) => self.bind_data_val(p, v),
                _ => no("a tuple pattern on a value that is not a tuple"),
            },
            MPat::Other(_) => Ok(()),
            MPat::Slice(ps) if matches!(v, Val::Seq(_)) => {
                let Val::Seq(s) = v else {
                    unreachable!("matched")
                };
                // `let [a, b, c] = x;` on an array: element by element (a trailing `..`
                // leaves the rest).
                for (i, p) in ps.iter().enumerate() {
                    if matches!(p, MPat::Other(syn::Pat::Rest(_))) {
                        if i + 1 != ps.len() {
                            return no("a `..` pattern before the end of an array pattern");
                        }
                        break;
                    }
                    let x = self.seq_elem(&s, Op::Const(toks(quote!(#i))));
                    self.bind_pat(p, x)?;
                }
                Ok(())
            }
            MPat::TupleStruct(path, ps)
                if ps.len() == 1 && path.segments.last().is_some_and(|s| s.ident == "Some") =>
            {
                match v {
                    Val::Opt(inner, _) => self.bind_pat(&ps[0], *inner),
                    _ => self.bind_data_val(p, v),
                }
            }
            _ => self.bind_data_val(p, v),
        }
    }

    /// A pattern on a data value: bound by matching it in data code.
    fn bind_data_val(&mut self, p: &MPat, v: Val) -> R<()> {
        let (t, reads) = self.val_tokens(&v)?;
        self.destructure(p, t, reads)
    }

    /// Bind one binding to a value: a float gets a variable of its own unless the value is
    /// a fresh temporary; arrays assigned later are copied.
    pub fn bind(&mut self, id: BindId, v: Val) -> R<()> {
        let v = match v {
            Val::F(Op::Var(t)) if !self.owned[t] => {
                self.owned[t] = true;
                self.rename(t, id);
                Val::F(Op::Var(t))
            }
            Val::F(op) => {
                let t = self.binding_var(id, Kind::F64);
                self.emit(Stmt::Set {
                    dst: t,
                    rhs: Rhs::Copy(op),
                });
                Val::F(Op::Var(t))
            }
            Val::D(d) if !self.owned[d] => {
                self.owned[d] = true;
                self.rename(d, id);
                Val::D(d)
            }
            Val::D(d) => {
                let kind = self.vars[d].kind;
                let t = self.binding_var(id, kind);
                let i = self.ident(d).clone();
                self.emit(Stmt::Data {
                    dst: t,
                    expr: toks(quote!(#i)),
                    reads: vec![d],
                    pure: false,
                });
                Val::D(t)
            }
            Val::C(t) if self.assigned.contains(&id) => {
                let kind = self.kind_of_abs(self.act.of_bind(id));
                let v = self.binding_var(id, kind);
                self.emit(Stmt::Data {
                    dst: v,
                    expr: t,
                    reads: vec![],
                    pure: true,
                });
                match kind {
                    Kind::F64 => Val::F(Op::Var(v)),
                    _ => Val::D(v),
                }
            }
            Val::Seq(s) if self.assigned.contains(&id) && !self.fresh_array(&s) => {
                let t = self.binding_var(id, Kind::Array);
                let place = Place {
                    root: s.root,
                    path: s.prefix.clone(),
                };
                let window = s.window.clone().map(|(o, n)| (o, Op::Var(n)));
                self.emit(Stmt::Alloc {
                    dst: t,
                    init: Init::CopyOf(place, window),
                });
                Val::Seq(seq::Seq::whole(t, s.depth + 1))
            }
            Val::Seq(s) => {
                if self.fresh_array(&s) {
                    self.owned[s.root] = true;
                    self.rename(s.root, id);
                }
                Val::Seq(s)
            }
            other => other,
        };
        self.env[id] = Some(v);
        Ok(())
    }

    /// An array just made by an expression (not named by any binding yet).
    fn fresh_array(&self, s: &seq::Seq) -> bool {
        s.prefix.is_empty()
            && s.window.is_none()
            && self.vars[s.root].kind == Kind::Array
            && !self.owned[s.root]
    }

    /// Give a temporary the name of the binding it now holds (readable generated code).
    fn rename(&mut self, v: V, id: BindId) {
        if self.named.borrow()[v] {
            return;
        }
        let name = self.body.bindings[id].name.to_string();
        let name = name.trim_start_matches("r#");
        self.vars[v].ident = format_ident!("__fz_{}_{}", name, v);
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

    /// `place = v`; `(a, b) = (x, y)` assigns every part after computing all of them.
    fn assign(&mut self, place: &'a MExpr, v: &'a MExpr) -> R<()> {
        let val = self.expr(v)?;
        if let MKind::Tuple(places) = &place.peel().kind {
            let Val::Tuple(parts) = val else {
                return no("a tuple assignment of something that is not a tuple");
            };
            if parts.len() != places.len() {
                return no("a tuple assignment of another length");
            }
            let mut held = Vec::new();
            for p in parts {
                let (t, stmts) = self.value_var(p)?;
                for s in stmts {
                    self.emit(s);
                }
                held.push(t);
            }
            for (pl, v) in places.iter().zip(held) {
                if !matches!(pl.peel().kind, MKind::Path(ref p) if p.path.is_ident("_")) {
                    self.store(pl, v)?;
                }
            }
            return Ok(());
        }
        self.store(place, val)
    }

    /// Write a value into a place expression.
    pub fn store(&mut self, place: &'a MExpr, val: Val) -> R<()> {
        match &place.peel().kind {
            MKind::Local(id, _) if self.env[*id].is_none() => {
                // The first assignment of `let x;`.
                self.bind(*id, val)
            }
            MKind::Local(id, _) => {
                let cur = self.env[*id].clone().expect("checked");
                self.overwrite(cur, val, *id)
            }
            MKind::Unary(syn::UnOp::Deref(_), inner) => {
                let target = self.expr(inner)?;
                match target {
                    Val::MutRef(v) => {
                        let op = self.float(val, "a value written through `&mut`")?;
                        self.emit(Stmt::Set {
                            dst: v,
                            rhs: Rhs::Copy(op),
                        });
                        Ok(())
                    }
                    Val::MutPlace(p) => {
                        let op = self.float(val, "a value written through `&mut`")?;
                        self.emit(Stmt::Store { place: p, src: op });
                        Ok(())
                    }
                    _ => self.store(inner, val),
                }
            }
            MKind::Index(..) | MKind::Field(..) => {
                let p = self.place_of(place)?;
                match val {
                    Val::F(op) => {
                        self.emit(Stmt::Store { place: p, src: op });
                        Ok(())
                    }
                    Val::D(d) if self.vars[d].kind == Kind::F64 => {
                        self.emit(Stmt::Store {
                            place: p,
                            src: Op::Var(d),
                        });
                        Ok(())
                    }
                    other => no(format!("{} written into an element", other.describe())),
                }
            }
            _ => no("an assignment to something other than a variable or an element"),
        }
    }

    /// A variable's new value.
    fn overwrite(&mut self, cur: Val, val: Val, id: BindId) -> R<()> {
        match (cur, val) {
            (Val::F(Op::Var(x)), v) => {
                let op = self.float(v, "a value assigned to a float variable")?;
                if op.var() != Some(x) {
                    self.emit(Stmt::Set {
                        dst: x,
                        rhs: Rhs::Copy(op),
                    });
                }
                Ok(())
            }
            (Val::D(x), Val::C(t)) => {
                self.emit(Stmt::Data {
                    dst: x,
                    expr: t,
                    reads: vec![],
                    pure: true,
                });
                Ok(())
            }
            (Val::D(x), Val::D(d)) => {
                let i = self.ident(d).clone();
                self.emit(Stmt::Data {
                    dst: x,
                    expr: toks(quote!(#i)),
                    reads: vec![d],
                    pure: false,
                });
                Ok(())
            }
            (Val::D(x), v @ Val::F(_)) if self.vars[x].kind == Kind::Data(DataKind::Int) => {
                let _ = v;
                no("a float assigned to an integer variable")
            }
            (Val::Seq(s), Val::Seq(new)) if s.prefix.is_empty() && s.window.is_none() => {
                let place = Place {
                    root: new.root,
                    path: new.prefix.clone(),
                };
                let window = new.window.clone().map(|(o, n)| (o, Op::Var(n)));
                if self.vars[s.root].kind != Kind::Array {
                    return no("a new value for an array parameter");
                }
                self.emit(Stmt::Alloc {
                    dst: s.root,
                    init: Init::CopyOf(place, window),
                });
                Ok(())
            }
            (Val::MutRef(_), Val::MutRef(t)) => {
                self.env[id] = Some(Val::MutRef(t));
                Ok(())
            }
            (cur, v) => no(format!(
                "{} assigned to a variable holding {}",
                v.describe(),
                cur.describe()
            )),
        }
    }

    /// `place op= v`.
    fn compound(&mut self, e: &'a MExpr, op: &BinOp, place: &'a MExpr, v: &'a MExpr) -> R<()> {
        if !self.abs(place).active() && !self.abs(v).active() && self.pure_data(e) {
            let (t, reads) = self.data_tokens(e)?;
            // A data variable updated in place (`k += 1`): a new value of it.
            if let MKind::Local(id, _) = &place.peel().kind {
                if let Some(Val::D(x) | Val::F(Op::Var(x))) = self.env[*id].clone() {
                    let _ = t;
                    let xi = self.ident(x).clone();
                    let (rt, rr) = self.data_tokens(v)?;
                    let bop = simple_op(op);
                    let mut reads = rr;
                    reads.push(x);
                    self.emit(Stmt::Data {
                        dst: x,
                        expr: toks(quote!(#xi #bop (#rt))),
                        reads,
                        pure: false,
                    });
                    return Ok(());
                }
            }
            self.emit(Stmt::Effect {
                tokens: toks(quote!(#t;)),
                reads,
            });
            return Ok(());
        }
        let cur = self.expr(place)?;
        let rhs = self.expr(v)?;
        let new = self.arith(simple_bin(op)?, cur, rhs)?;
        self.store(place, new)
    }
}

/// `+` for `+=`, as a token.
fn simple_op(op: &BinOp) -> TokenStream {
    match op {
        BinOp::AddAssign(_) => quote!(+),
        BinOp::SubAssign(_) => quote!(-),
        BinOp::MulAssign(_) => quote!(*),
        BinOp::DivAssign(_) => quote!(/),
        BinOp::RemAssign(_) => quote!(%),
        BinOp::BitAndAssign(_) => quote!(&),
        BinOp::BitOrAssign(_) => quote!(|),
        BinOp::BitXorAssign(_) => quote!(^),
        BinOp::ShlAssign(_) => quote!(<<),
        BinOp::ShrAssign(_) => quote!(>>),
        _ => quote!(+),
    }
}

/// The arithmetic operator of a compound assignment.
fn simple_bin(op: &BinOp) -> R<expr::Arith> {
    Ok(match op {
        BinOp::AddAssign(_) => expr::Arith::Add,
        BinOp::SubAssign(_) => expr::Arith::Sub,
        BinOp::MulAssign(_) => expr::Arith::Mul,
        BinOp::DivAssign(_) => expr::Arith::Div,
        BinOp::RemAssign(_) => expr::Arith::Rem,
        _ => return no("a bitwise compound assignment on an active value"),
    })
}
