//! Control flow: `if` and `match` as branches on data, loops as counted or flagged loops,
//! `break`/`continue`/`return` as flags (the rest of an iteration guarded by them).

use super::*;
use crate::model::{Arm, Expr as MExpr, Kind as MKind, Pat as MPat};
use quote::quote;

impl<'a> Lower<'a> {
    /// A condition: a boolean data variable.
    fn cond(&mut self, c: &'a MExpr) -> R<(V, Option<(&'a MPat, &'a MExpr)>)> {
        if let MKind::Let(p, x) = &c.peel().kind {
            if !self.pure_data(x) {
                return no("`if let` on an active value");
            }
            let (t, reads) = self.data_tokens(x)?;
            let pt = crate::codegen::pat::print(p);
            let pure = data::model_pure(x);
            let v = self.data_with(
                "c",
                Kind::Data(DataKind::Bool),
                quote!(matches!(#t, #pt)),
                reads,
                pure,
            );
            return Ok((v, Some((p, x))));
        }
        let v = self.expr(c)?;
        let (t, reads) = self.val_tokens(&v)?;
        // Always a variable of its own: the reverse sweep reads the decision, and the
        // branch may assign the variable the condition named.
        let t = match v {
            Val::D(d) if self.vars[d].kind == Kind::Data(DataKind::Other) => {
                quote!(::fazang::__private::to_bool(#t))
            }
            _ => t,
        };
        Ok((self.data("c", Kind::Data(DataKind::Bool), t, reads), None))
    }

    pub fn if_expr(
        &mut self,
        c: &'a MExpr,
        then: &'a model::Block,
        els: Option<&'a MExpr>,
    ) -> R<Val> {
        let (cv, bind) = self.cond(c)?;
        let (tb, tv) = self.in_block(|lw| {
            if let Some((p, x)) = bind {
                lw.bind_data_pat(p, x)?;
            }
            lw.block_value(then)
        })?;
        let (eb, ev) = match els {
            Some(x) => self.in_block(|lw| lw.expr(x))?,
            None => (Vec::new(), Val::Unit),
        };
        self.branches(cv, vec![(tb, tv), (eb, ev)])
    }

    /// Emit `if cond { b0 } else { b1 }` with the branches' values merged into one.
    fn branches(&mut self, cond: V, mut bs: Vec<(Block, Val)>) -> R<Val> {
        let out = self.merge(&mut bs)?;
        let (eb, _) = bs.pop().expect("two branches");
        let (tb, _) = bs.pop().expect("two branches");
        self.emit(Stmt::If {
            cond,
            then: tb,
            els: eb,
        });
        Ok(out)
    }

    /// The value of several branches: a variable each assigns (floats, data, tuples of
    /// them); `Never` if every branch diverges.
    fn merge(&mut self, bs: &mut [(Block, Val)]) -> R<Val> {
        let live: Vec<&Val> = bs
            .iter()
            .map(|(_, v)| v)
            .filter(|v| !matches!(v, Val::Never))
            .collect();
        let Some(first) = live.first() else {
            return Ok(Val::Never);
        };
        // Rust gives every branch one type: if one branch is `()`, all are (an arm
        // `acc += x` is `()` whatever the lowering holds for it).
        // Rust gives every branch one type: next to a `()` branch, data is `()` too (an
        // empty `else { }` is data to the lowering, already evaluated in its block).
        let unit = |v: &&Val| matches!(v, Val::Unit | Val::D(_) | Val::C(_));
        if live.iter().any(|v| matches!(v, Val::Unit)) && live.iter().all(unit) {
            return Ok(Val::Unit);
        }
        let shape = (*first).clone();
        let out = self.result_var(&shape, &live)?;
        for (b, v) in bs.iter_mut() {
            if matches!(v, Val::Never) {
                continue;
            }
            let stmts = self.assign_into(&out, v.clone())?;
            b.extend(stmts);
        }
        Ok(out)
    }

    /// A variable shaped for the values of branches.
    fn result_var(&mut self, shape: &Val, all: &[&Val]) -> R<Val> {
        let float = all.iter().any(|v| matches!(v, Val::F(_)))
            || all
                .iter()
                .any(|v| matches!(v, Val::D(d) if self.vars[*d].kind == Kind::F64));
        Ok(match shape {
            Val::F(_) => Val::F(Op::Var(self.new_var("r", Kind::F64))),
            Val::D(_) | Val::C(_) if float => Val::F(Op::Var(self.new_var("r", Kind::F64))),
            Val::C(t) => {
                let b = matches!(t.0.to_string().as_str(), "true" | "false");
                let kind = Kind::Data(if b { DataKind::Bool } else { DataKind::Int });
                Val::D(self.new_var("r", kind))
            }
            Val::D(d) => {
                let kind = self.vars[*d].kind;
                if kind == Kind::Data(DataKind::Other) {
                    return no("a branch choosing a value of a type the macro cannot see");
                }
                Val::D(self.new_var("r", kind))
            }
            Val::Tuple(xs) => {
                let mut parts = Vec::new();
                for (i, x) in xs.iter().enumerate() {
                    let col: Vec<&Val> = all
                        .iter()
                        .filter_map(|v| match v {
                            Val::Tuple(ys) => ys.get(i),
                            _ => None,
                        })
                        .collect();
                    parts.push(self.result_var(x, &col)?);
                }
                Val::Tuple(parts)
            }
            other => return no(format!("{} chosen by a branch", other.describe())),
        })
    }

    /// Statements assigning a value into a result variable.
    fn assign_into(&mut self, out: &Val, v: Val) -> R<Vec<Stmt>> {
        let (stmts, ()) = self.in_block(|lw| {
            match (out, v) {
                (Val::F(Op::Var(r)), v) => {
                    let op = lw.float(v, "a branch's value")?;
                    lw.emit(Stmt::Set {
                        dst: *r,
                        rhs: Rhs::Copy(op),
                    });
                }
                (Val::D(r), v) => {
                    let (t, reads) = lw.val_tokens(&v)?;
                    lw.emit(Stmt::Data {
                        dst: *r,
                        expr: toks(t),
                        reads,
                        pure: false,
                    });
                }
                (Val::Tuple(rs), Val::Tuple(vs)) if rs.len() == vs.len() => {
                    for (r, v) in rs.iter().zip(vs) {
                        let s = lw.assign_into(r, v)?;
                        lw.blocks.last_mut().expect("open").extend(s);
                    }
                }
                _ => return no("branches with values of different shapes"),
            }
            Ok(())
        })?;
        Ok(stmts)
    }

    /// `match x { arms }`: a chain of `if`s, each arm's test a data match.
    pub fn match_expr(&mut self, x: &'a MExpr, arms: &'a [Arm]) -> R<Val> {
        let scrut = self.expr(x)?;
        if let Val::Opt(inner, has) = scrut {
            return self.opt_arms(&inner, has, arms);
        }
        if let Val::Seq(s) = scrut {
            return self.slice_arms(&s, arms);
        }
        let (st, sreads) = match &scrut {
            Val::F(_) | Val::D(_) | Val::C(_) | Val::Tuple(_) => self.val_tokens(&scrut)?,
            other => return no(format!("a `match` on {}", other.describe())),
        };
        let active = matches!(&scrut, Val::F(_)) && self.abs(x).active();
        self.arms(&scrut, &st, &sreads, active, arms)
    }

    /// `match` on an `Option` the lowering holds as a value and a flag: `Some(p)` tests the
    /// flag and binds `p`, `None` tests its negation.
    fn opt_arms(&mut self, inner: &Val, has: V, arms: &'a [Arm]) -> R<Val> {
        let Some((arm, rest)) = arms.split_first() else {
            self.emit(Stmt::Effect {
                tokens: toks(quote!(::core::unreachable!();)),
                reads: vec![],
            });
            return Ok(Val::Never);
        };
        if arm.guard.is_some() {
            return no("a guard in a `match` on an `Option` of an active value");
        }
        let hi = self.ident(has).clone();
        let (test, bind) = match &arm.pat {
            MPat::TupleStruct(path, ps)
                if ps.len() == 1 && path.segments.last().is_some_and(|s| s.ident == "Some") =>
            {
                (Some(quote!(#hi)), Some(&ps[0]))
            }
            MPat::Other(syn::Pat::Ident(pi)) if pi.ident == "None" => (Some(quote!(!#hi)), None),
            p if irrefutable(p) => (None, None),
            _ => return no("a pattern of an `Option` of an active value other than `Some`/`None`"),
        };
        let Some(test) = test else {
            if let MPat::Ident { .. } = &arm.pat {
                return no("a binding of a whole `Option` of an active value");
            }
            return self.expr(&arm.body);
        };
        let c = self.data("c", Kind::Data(DataKind::Bool), test, vec![has]);
        let (tb, tv) = self.in_block(|lw| {
            if let Some(p) = bind {
                lw.bind_pat(p, inner.clone())?;
            }
            lw.expr(&arm.body)
        })?;
        let (eb, ev) = self.in_block(|lw| lw.opt_arms(inner, has, rest))?;
        self.branches(c, vec![(tb, tv), (eb, ev)])
    }

    /// `match` on an array of floats with slice patterns (`[a, b, c, d] => ..`): each arm
    /// tests the length and binds the elements.
    fn slice_arms(&mut self, s: &super::seq::Seq, arms: &'a [Arm]) -> R<Val> {
        let Some((arm, rest)) = arms.split_first() else {
            self.emit(Stmt::Effect {
                tokens: toks(quote!(::core::unreachable!();)),
                reads: vec![],
            });
            return Ok(Val::Never);
        };
        if arm.guard.is_some() {
            return no("a guard in a `match` on an active array");
        }
        let ps = match &arm.pat {
            MPat::Slice(ps)
                if !ps
                    .iter()
                    .any(|p| matches!(p, MPat::Other(syn::Pat::Rest(_)))) =>
            {
                ps
            }
            p if irrefutable(p) && !matches!(p, MPat::Ident { .. }) => return self.expr(&arm.body),
            _ => return no("a pattern of an active array other than `[a, b, ..]` of a length"),
        };
        let n = self.seq_len(s);
        let (ni, len) = (self.ident(n).clone(), ps.len());
        let c = self.data(
            "c",
            Kind::Data(DataKind::Bool),
            quote!(#ni == #len),
            vec![n],
        );
        let (tb, tv) = self.in_block(|lw| {
            for (i, p) in ps.iter().enumerate() {
                let x = lw.seq_elem_bound(s, Op::Const(toks(quote!(#i))));
                lw.bind_pat(p, x)?;
            }
            lw.expr(&arm.body)
        })?;
        let (eb, ev) = self.in_block(|lw| lw.slice_arms(s, rest))?;
        self.branches(c, vec![(tb, tv), (eb, ev)])
    }

    fn arms(
        &mut self,
        scrut: &Val,
        st: &TokenStream,
        sreads: &[V],
        active: bool,
        arms: &'a [Arm],
    ) -> R<Val> {
        let Some((arm, rest)) = arms.split_first() else {
            self.emit(Stmt::Effect {
                tokens: toks(quote!(::core::unreachable!();)),
                reads: vec![],
            });
            return Ok(Val::Never);
        };
        let catch_all = arm.guard.is_none() && irrefutable(&arm.pat);
        if catch_all {
            self.arm_bind(scrut, st, sreads, active, &arm.pat)?;
            return self.expr(&arm.body);
        }
        // The test: the pattern (and guard) on the value.
        let c = self.arm_test(scrut, st, sreads, active, arm)?;
        let (tb, tv) = self.in_block(|lw| {
            lw.arm_bind(scrut, st, sreads, active, &arm.pat)?;
            lw.expr(&arm.body)
        })?;
        let (eb, ev) = self.in_block(|lw| lw.arms(scrut, st, sreads, active, rest))?;
        self.branches(c, vec![(tb, tv), (eb, ev)])
    }

    fn arm_test(
        &mut self,
        scrut: &Val,
        st: &TokenStream,
        sreads: &[V],
        active: bool,
        arm: &'a Arm,
    ) -> R<V> {
        let pt = crate::codegen::pat::print(&arm.pat);
        match &arm.guard {
            None => Ok(self.data(
                "c",
                Kind::Data(DataKind::Bool),
                quote!(matches!(#st, #pt)),
                sreads.to_vec(),
            )),
            Some(g) if self.pure_data(g) && !active => {
                let (gt, mut reads) = self.data_tokens(g)?;
                reads.extend(sreads.iter().copied());
                Ok(self.data_with(
                    "c",
                    Kind::Data(DataKind::Bool),
                    quote!(matches!(#st, #pt if #gt)),
                    reads,
                    data::model_pure(g),
                ))
            }
            Some(g) => {
                // A guard reading the value or active values: bind, then test.
                if !irrefutable(&arm.pat) {
                    return no("a `match` guard on an active value with a refutable pattern");
                }
                self.arm_bind(scrut, st, sreads, active, &arm.pat)?;
                let v = self.expr(g)?;
                let (t, reads) = self.val_tokens(&v)?;
                Ok(self.data("c", Kind::Data(DataKind::Bool), t, reads))
            }
        }
    }

    /// Bind an arm's pattern.
    fn arm_bind(
        &mut self,
        scrut: &Val,
        st: &TokenStream,
        sreads: &[V],
        active: bool,
        p: &'a MPat,
    ) -> R<()> {
        if active || matches!(p, MPat::Ident { .. }) {
            return self.bind_pat(p, scrut.clone());
        }
        self.destructure(p, st.clone(), sreads.to_vec())
    }

    /// The loop context a `break`/`continue` with `label` targets (its index).
    fn target(&self, label: Option<&syn::Lifetime>) -> R<usize> {
        let n = self.loops.len();
        match label {
            None => n
                .checked_sub(1)
                .ok_or_else(|| Unsupported::new("`break` outside a loop")),
            Some(l) => {
                let name = l.ident.to_string();
                self.loops
                    .iter()
                    .rposition(|c| c.label.as_deref() == Some(&name))
                    .ok_or_else(|| Unsupported::new("`break` to a labelled block"))
            }
        }
    }

    pub fn break_expr(&mut self, label: Option<&syn::Lifetime>, v: Option<&'a MExpr>) -> R<Val> {
        let t = self.target(label)?;
        if let Some(x) = v {
            let val = self.expr(x)?;
            let op = self.float(val, "a `break` value")?;
            let dst = match self.loops[t].value {
                Some(d) => d,
                None => {
                    let d = self.new_var("brk", Kind::F64);
                    self.loops[t].value = Some(d);
                    d
                }
            };
            self.emit(Stmt::Set {
                dst,
                rhs: Rhs::Copy(op),
            });
        }
        for i in t..self.loops.len() {
            self.stop_loop(i, true);
        }
        Ok(Val::Never)
    }

    pub fn continue_expr(&mut self, label: Option<&syn::Lifetime>) -> R<Val> {
        let t = self.target(label)?;
        for i in t..self.loops.len() {
            self.stop_loop(i, i != t);
        }
        Ok(Val::Never)
    }

    pub fn return_expr(&mut self, v: Option<&'a MExpr>) -> R<Val> {
        let Some(x) = v else {
            return no("`return` without a value");
        };
        // `return Err(e)` ends the whole computation with the error.
        if let MKind::Call(f, args) = &x.peel().kind {
            if is_path(f, "Err") {
                let (t, reads) = self.data_tokens(x)?;
                let _ = args;
                self.emit(Stmt::Effect {
                    tokens: toks(quote!(return #t;)),
                    reads,
                });
                return Ok(Val::Never);
            }
            if is_path(f, "Ok") && args.len() == 1 {
                return self.return_value(&args[0]);
            }
        }
        self.return_value(x)
    }

    fn return_value(&mut self, x: &'a MExpr) -> R<Val> {
        let val = self.expr(x)?;
        self.set_result(val)?;
        let done = self.done;
        self.set_flag(done, true);
        for i in 0..self.loops.len() {
            self.stop_loop(i, true);
        }
        self.returns = true;
        Ok(Val::Never)
    }

    /// Skip the rest of loop `i`'s iteration, and stop it if `exit`.
    fn stop_loop(&mut self, i: usize, exit: bool) {
        let skip = self.loops[i].skip;
        self.set_flag(skip, true);
        if exit {
            let e = self.loops[i].exit;
            self.set_flag(e, true);
            self.loops[i].breaks = true;
        }
    }

    /// A loop around `body`: flags made, the context pushed while `body` is lowered.
    pub fn with_loop(
        &mut self,
        label: &Option<syn::Label>,
        body: impl FnOnce(&mut Self) -> R<()>,
    ) -> R<(Block, Option<Exit>, Option<V>)> {
        let skip = self.new_var("skip", Kind::Data(DataKind::Bool));
        let exit = self.flag("exit", false);
        self.loops.push(LoopCx {
            label: label.as_ref().map(|l| l.name.ident.to_string()),
            skip,
            exit,
            value: None,
            breaks: false,
        });
        let r = self.in_block(|lw| {
            lw.set_flag(skip, false);
            body(lw)
        });
        let cx = self.loops.pop().expect("pushed");
        let (b, ()) = r?;
        let ex = cx.breaks.then(|| Exit {
            flag: exit,
            trips: self.new_var("trips", Kind::Data(DataKind::Int)),
        });
        Ok((b, ex, cx.value))
    }

    pub fn while_loop(
        &mut self,
        label: &Option<syn::Label>,
        c: &'a MExpr,
        body: &'a model::Block,
    ) -> R<Val> {
        let (b, ex, _) = self.with_loop(label, |lw| {
            let (cv, bind) = lw.cond(c)?;
            let (then, _) = lw.in_block(|lw| {
                if let Some((p, x)) = bind {
                    lw.bind_data_pat(p, x)?;
                }
                lw.block_value(body)
            })?;
            let (els, ()) = lw.in_block(|lw| {
                let n = lw.loops.len() - 1;
                lw.stop_loop(n, true);
                Ok(())
            })?;
            lw.emit(Stmt::If {
                cond: cv,
                then,
                els,
            });
            Ok(())
        })?;
        let exit = ex.expect("a while loop stops by its flag");
        self.emit(Stmt::Loop { body: b, exit });
        Ok(Val::Unit)
    }

    pub fn loop_expr(&mut self, label: &Option<syn::Label>, body: &'a model::Block) -> R<Val> {
        let (b, ex, value) = self.with_loop(label, |lw| {
            lw.block_value(body)?;
            Ok(())
        })?;
        let Some(exit) = ex else {
            return no("a `loop` without `break`");
        };
        self.emit(Stmt::Loop { body: b, exit });
        Ok(match value {
            Some(v) => Val::F(Op::Var(v)),
            None => Val::Unit,
        })
    }

    pub fn for_loop(
        &mut self,
        label: &Option<syn::Label>,
        p: &'a MPat,
        it: &'a MExpr,
        body: &'a model::Block,
    ) -> R<Val> {
        let iter = self.iter_of(it)?;
        self.each(label, iter, &mut |lw, item| {
            lw.bind_pat(p, item)?;
            lw.block_value(body)?;
            Ok(())
        })?;
        Ok(Val::Unit)
    }
}

/// A pattern that matches anything (`_`, a name, a tuple of those).
pub fn irrefutable(p: &MPat) -> bool {
    match p {
        MPat::Ident { sub: None, .. } => true,
        MPat::Tuple(ps) => ps.iter().all(irrefutable),
        MPat::Paren(p) | MPat::Type(p, _) => irrefutable(p),
        MPat::Other(syn::Pat::Wild(_)) => true,
        _ => false,
    }
}

/// Whether `f` is the path `name`.
pub fn is_path(f: &MExpr, name: &str) -> bool {
    matches!(&f.peel().kind, MKind::Path(p) if p.path.is_ident(name))
}
