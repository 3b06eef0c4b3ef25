//! Calls and method calls, classified once: a catalogue function (one operation), a local
//! closure (its body inlined), an iterator adaptor or consumer, a method of sequences
//! (`len`, `push`, `swap`, ..), or a call of a function the macro cannot see into (one
//! [`Stmt::Call`], differentiated in the forward sweep by forward lanes or the tape).

use super::*;
use crate::catalogue;
use crate::model::{Expr as MExpr, Kind as MKind, MethodCall};
use quote::quote;

/// Active scalar inputs up to which a call is differentiated by forward lanes.
const MAX_LANES: usize = 8;

impl<'a> Lower<'a> {
    pub fn call(&mut self, e: &'a MExpr, f: &'a MExpr, args: &'a [MExpr]) -> R<Val> {
        if let MKind::Local(id, _) = &f.peel().kind {
            if let Some(Val::Closure(c)) = self.env[*id].clone() {
                let vals = args.iter().map(|a| self.expr(a)).collect::<R<Vec<_>>>()?;
                return self.apply_closure(c, vals);
            }
        }
        let MKind::Path(p) = &f.peel().kind else {
            return no("a call of a computed function");
        };
        let segs: Vec<String> = p
            .path
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect();
        let last = segs.last().map(String::as_str).unwrap_or("");
        if let Some(fun) = scalar_fn_path(&segs) {
            let vals = args.iter().map(|a| self.expr(a)).collect::<R<Vec<_>>>()?;
            return self.fun(fun, vals);
        }
        match (segs.len(), last) {
            (1, "Some" | "Ok") if args.len() == 1 => {
                let v = self.expr(&args[0])?;
                let t = self.flag("some", true);
                return Ok(Val::Opt(Box::new(v), t));
            }
            (_, "swap")
                if segs
                    .first()
                    .is_some_and(|s| s == "std" || s == "mem" || s == "core") =>
            {
                return self.mem_swap(args);
            }
            (_, "once")
                if args.len() == 1
                    && (segs.len() == 1 || matches!(segs[0].as_str(), "std" | "core" | "iter")) =>
            {
                let v = self.expr(&args[0])?;
                let count = self.data("n", Kind::Data(DataKind::Int), quote!(1usize), vec![]);
                return Ok(Val::Iter(iter::Iter {
                    count,
                    gen: iter::Gen::Once(Box::new(v)),
                }));
            }
            (1, "sum") if args.len() == 1 && self.seq_arg(&args[0]) => {
                let it = self.iter_of(&args[0])?;
                return self.sum_items(it);
            }
            (1, "dot_product") if args.len() == 2 => {
                if let (true, true) = (self.seq_arg(&args[0]), self.seq_arg(&args[1])) {
                    return self.dot(&args[0], &args[1]);
                }
            }
            _ => {}
        }
        if crate::model::known::is_fazang_reduce_sum(&p.path)
            && std::env::var_os("FZ_NO_RSUM").is_none()
            && self.abs(e).active()
            && (segs.len() > 1
                || crate::activity::walk_support::known_callee(self.callees, &segs, false)
                    .is_none())
        {
            return self.reduce_sum(args);
        }
        let callee = self.path_callee(p, &segs);
        self.opaque(e, callee, args, Fallible::No)
    }

    /// Whether an argument is a sequence (so a fazang function over slices can be a loop).
    fn seq_arg(&self, a: &MExpr) -> bool {
        matches!(self.abs(a).deref(), Abs::Seq(x) if matches!(x.deref(), Abs::Float(_)))
    }

    /// `sum(x)`, as std's sequential sum (the runtime's `f64` sum is the same loop).
    fn sum_items(&mut self, it: iter::Iter) -> R<Val> {
        let acc = self.new_var("acc", Kind::F64);
        self.emit(Stmt::Set {
            dst: acc,
            rhs: Rhs::Copy(Op::Const(toks(quote!(-0.0)))),
        });
        self.each(&None, it, &mut |lw, x| {
            let v = lw.arith(expr::Arith::Add, Val::F(Op::Var(acc)), x)?;
            let op = lw.float(v, "a sum")?;
            lw.emit(Stmt::Set {
                dst: acc,
                rhs: Rhs::Copy(op),
            });
            Ok(())
        })?;
        Ok(Val::F(Op::Var(acc)))
    }

    /// `dot_product(a, b)` as its loop (the runtime's `f64` version is the same sum).
    fn dot(&mut self, a: &'a MExpr, b: &'a MExpr) -> R<Val> {
        let x = self.iter_of(a)?;
        let y = self.iter_of(b)?;
        let (xi, yi) = (self.ident(x.count).clone(), self.ident(y.count).clone());
        self.emit(Stmt::Effect {
            tokens: toks(quote!(::fazang::__private::check_same_len(#xi, #yi);)),
            reads: vec![x.count, y.count],
        });
        let it = iter::Iter {
            count: x.count,
            gen: iter::Gen::Zip(Box::new(x.gen), Box::new(y.gen)),
        };
        let acc = self.new_var("acc", Kind::F64);
        self.emit(Stmt::Set {
            dst: acc,
            rhs: Rhs::Copy(Op::Const(toks(quote!(-0.0)))),
        });
        self.each(&None, it, &mut |lw, item| {
            let Val::Tuple(xy) = item else {
                return no("a dot product of non-sequences");
            };
            let mut xy = xy.into_iter();
            let (p, q) = (xy.next().expect("pair"), xy.next().expect("pair"));
            let m = lw.arith(expr::Arith::Mul, p, q)?;
            let v = lw.arith(expr::Arith::Add, Val::F(Op::Var(acc)), m)?;
            let op = lw.float(v, "a dot product")?;
            lw.emit(Stmt::Set {
                dst: acc,
                rhs: Rhs::Copy(op),
            });
            Ok(())
        })?;
        Ok(Val::F(Op::Var(acc)))
    }

    /// `std::mem::swap(&mut a, &mut b)` on floats.
    fn mem_swap(&mut self, args: &'a [MExpr]) -> R<Val> {
        let [a, b] = args else {
            return no("`swap` with other than two arguments");
        };
        let (va, vb) = (self.expr(a)?, self.expr(b)?);
        let read = |lw: &mut Self, v: &Val| -> R<Op> {
            match v {
                Val::MutRef(t) => Ok(Op::Var(*t)),
                Val::MutPlace(p) => {
                    let x = lw.load_place(p.clone());
                    lw.float(x, "a swapped value")
                }
                other => no(format!("`swap` of {}", other.describe())),
            }
        };
        let (x, y) = (read(self, &va)?, read(self, &vb)?);
        // Both values first, then both writes.
        let tx = self.set(Rhs::Copy(x));
        let ty = self.set(Rhs::Copy(y));
        self.write_ref(&va, ty)?;
        self.write_ref(&vb, tx)?;
        Ok(Val::Unit)
    }

    pub fn load_place(&mut self, p: Place) -> Val {
        self.load(p)
    }

    fn write_ref(&mut self, to: &Val, v: Op) -> R<()> {
        match to {
            Val::MutRef(t) => {
                self.emit(Stmt::Set {
                    dst: *t,
                    rhs: Rhs::Copy(v),
                });
                Ok(())
            }
            Val::MutPlace(p) => {
                self.emit(Stmt::Store {
                    place: p.clone(),
                    src: v,
                });
                Ok(())
            }
            other => no(format!("a write into {}", other.describe())),
        }
    }

    /// A catalogue function applied to values.
    pub fn fun(&mut self, f: &'static catalogue::Fun, vals: Vec<Val>) -> R<Val> {
        if vals.len() != f.arity {
            return no(format!("`{}` with {} arguments", f.name, vals.len()));
        }
        let mut ops = Vec::new();
        for (i, v) in vals.into_iter().enumerate() {
            let int_arg = f.name == "powi" && i == 1;
            ops.push(match (int_arg, v) {
                (true, Val::D(d)) => Op::Var(d),
                (true, Val::C(c)) => Op::Const(c),
                (true, Val::F(Op::Const(c))) => Op::Const(c),
                (_, v) => self.float(v, "an argument")?,
            });
        }
        Ok(Val::F(self.set(Rhs::Fun(f, ops))))
    }

    /// A function path applied to values (`f64::max` in `fold`, a helper in `map`).
    pub fn call_path_values(&mut self, p: &syn::ExprPath, args: Vec<Val>) -> R<Val> {
        let segs: Vec<String> = p
            .path
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect();
        if let Some(fun) = scalar_fn_path(&segs) {
            return self.fun(fun, args);
        }
        no("a function passed by name to an iterator adaptor")
    }

    /// A method call.
    pub fn method(&mut self, e: &'a MExpr, m: &'a MethodCall) -> R<Val> {
        let name = m.method.to_string();
        if self.gives_option(&m.receiver)
            && matches!(
                name.as_str(),
                "copied" | "cloned" | "unwrap_or" | "unwrap_or_default" | "unwrap" | "expect"
            )
        {
            let recv = self.expr(&m.receiver)?;
            return self.option_method(&name, &m.args, recv);
        }
        if iter::iter_method(&name) {
            return self.iter_method(e, m);
        }
        if consume::consumer(&name) {
            let it = self.iter_of(&m.receiver)?;
            return self.consume(e, m, it);
        }
        if matches!(name.as_str(), "unwrap" | "expect") && self.is_opaque_call(&m.receiver) {
            let f = match m.args.first() {
                None => Fallible::Unwrap,
                Some(msg) => Fallible::Expect(toks(self.data_tokens(msg)?.0)),
            };
            return self.opaque_call_expr(&m.receiver, f);
        }
        if crate::activity::walk_support::is_self(&m.receiver) && !self.pure_data(e) {
            let (recv, _) = self.data_tokens(&m.receiver)?;
            let method = &m.method;
            let tf = m.turbofish.as_ref().map(|t| quote!(#t));
            let callee = self.method_callee(quote!(#recv.#method #tf), &m.method);
            return self.opaque(e, callee, &m.args, Fallible::No);
        }
        let recv = self.expr(&m.receiver)?;
        match recv {
            Val::F(_) => self.float_method(e, m, recv),
            Val::D(d) if self.vars[d].kind == Kind::F64 => self.float_method(e, m, recv),
            Val::Seq(s) => self.seq_method(e, m, s),
            Val::Opt(inner, has) => match name.as_str() {
                "unwrap" | "expect" => {
                    let hi = self.ident(has).clone();
                    let msg = format!("called `Option::{name}()` on a `None` value");
                    self.emit(Stmt::Effect {
                        tokens: toks(quote!(if !#hi { ::core::panic!(#msg); })),
                        reads: vec![has],
                    });
                    Ok(*inner)
                }
                _ => no(format!("`{name}` on an `Option`")),
            },
            Val::D(_) => self.data_method_val(e, m, recv),
            other => no(format!("the method `{name}` on {}", other.describe())),
        }
    }

    /// A method of a float: a catalogue function, `sin_cos`, or data (`is_nan`).
    fn float_method(&mut self, e: &'a MExpr, m: &'a MethodCall, recv: Val) -> R<Val> {
        let name = m.method.to_string();
        if name == "sin_cos" && m.args.is_empty() {
            let s = self.fun(catalogue::get("sin").expect("listed"), vec![recv.clone()])?;
            let c = self.fun(catalogue::get("cos").expect("listed"), vec![recv])?;
            return Ok(Val::Tuple(vec![s, c]));
        }
        if let Some(f) = catalogue::get(&name) {
            let mut vals = vec![recv];
            for a in &m.args {
                vals.push(self.expr(a)?);
            }
            return self.fun(f, vals);
        }
        if self.abs(e).active() {
            return no(format!("the method `{name}` on an active value"));
        }
        self.data_method_val(e, m, recv)
    }

    /// A data method over a lowered receiver (`x.is_nan()`, `x.total_cmp(&y)`).
    fn data_method_val(&mut self, e: &'a MExpr, m: &'a MethodCall, recv: Val) -> R<Val> {
        if m.args.iter().any(|a| self.abs(a).active()) {
            let (rt, _) = self.val_tokens(&recv)?;
            let method = &m.method;
            let callee = Callee::unknown(quote!(#rt.#method));
            return self.opaque(e, callee, &m.args, Fallible::No);
        }
        let (rt, mut reads) = self.val_tokens(&recv)?;
        let mut args = Vec::new();
        for a in &m.args {
            let v = self.expr(a)?;
            let (t, r) = self.val_tokens(&v)?;
            args.push(t);
            reads.extend(r);
        }
        let (name, tf) = (&m.method, m.turbofish.as_ref().map(|t| quote!(#t)));
        Ok(self.data_val(e, quote!(#rt.#name #tf(#(#args),*)), reads))
    }

    /// `windows`, `chunks` on data: data.
    pub fn data_method(&mut self, e: &'a MExpr, m: &'a MethodCall) -> R<Val> {
        let recv = self.expr(&m.receiver)?;
        self.data_method_val(e, m, recv)
    }

    /// Methods of sequences of floats.
    fn seq_method(&mut self, e: &'a MExpr, m: &'a MethodCall, s: seq::Seq) -> R<Val> {
        let name = m.method.to_string();
        let args = &m.args;
        match (name.as_str(), args.len()) {
            ("len", 0) => Ok(Val::D(self.seq_len(&s))),
            ("is_empty", 0) => {
                let n = self.seq_len(&s);
                let ni = self.ident(n).clone();
                Ok(Val::D(self.data(
                    "b",
                    Kind::Data(DataKind::Bool),
                    quote!(#ni == 0),
                    vec![n],
                )))
            }
            ("clone" | "to_vec" | "to_owned", 0) => {
                let place = Place {
                    root: s.root,
                    path: s.prefix.clone(),
                };
                let window = s.window.clone().map(|(o, n)| (o, Op::Var(n)));
                self.alloc(Init::CopyOf(place, window))
            }
            ("as_slice" | "as_ref" | "borrow", 0) => Ok(Val::Seq(s)),
            ("push", 1) => {
                let v = self.expr(&args[0])?;
                let op = self.float(v, "a pushed value")?;
                self.local_array(&s, "push")?;
                self.emit(Stmt::Push {
                    dst: s.root,
                    src: op,
                });
                Ok(Val::Unit)
            }
            ("swap", 2) => {
                let (i, j) = (self.index_op(&args[0])?, self.index_op(&args[1])?);
                let (pi, pj) = (self.seq_place(&s, i), self.seq_place(&s, j));
                let (x, y) = (self.load(pi.clone()), self.load(pj.clone()));
                let (x, y) = (self.float(x, "an element")?, self.float(y, "an element")?);
                self.emit(Stmt::Store { place: pi, src: y });
                self.emit(Stmt::Store { place: pj, src: x });
                Ok(Val::Unit)
            }
            ("fill", 1) => {
                let v = self.expr(&args[0])?;
                let op = self.float(v, "a fill value")?;
                let it = self.iter_of_val(Val::Seq(s.clone()))?;
                let iter::Iter { count, .. } = it;
                let it = iter::Iter {
                    count,
                    gen: iter::Gen::SeqMut(s),
                };
                self.each(&None, it, &mut |lw, p| {
                    let Val::MutPlace(p) = p else {
                        unreachable!("iter_mut gives places")
                    };
                    lw.emit(Stmt::Store {
                        place: p,
                        src: op.clone(),
                    });
                    Ok(())
                })?;
                Ok(Val::Unit)
            }
            ("first" | "last", 0) | ("get", 1) => {
                let n = self.seq_len(&s);
                let ni = self.ident(n).clone();
                let (has, k) = if name == "get" {
                    if matches!(args[0].peel().kind, MKind::Range(..)) {
                        return no("`get` of a range of an active array");
                    }
                    let k = self.index_op(&args[0])?;
                    let kt = seq::op_tokens(self, &k);
                    let mut reads = vec![n];
                    reads.extend(k.var());
                    let has =
                        self.data("has", Kind::Data(DataKind::Bool), quote!(#kt < #ni), reads);
                    (has, Some(k))
                } else {
                    let has =
                        self.data("has", Kind::Data(DataKind::Bool), quote!(#ni > 0), vec![n]);
                    (has, None)
                };
                let k = if let Some(k) = k {
                    k
                } else if name == "first" {
                    Op::Const(toks(quote!(0usize)))
                } else {
                    Op::Var(self.data(
                        "i",
                        Kind::Data(DataKind::Int),
                        quote!(#ni.saturating_sub(1)),
                        vec![n],
                    ))
                };
                // Read only if present (the primal would not index an empty slice).
                let out = self.new_var("x", Kind::F64);
                let hi = self.ident(has).clone();
                let c = self.data("c", Kind::Data(DataKind::Bool), quote!(#hi), vec![has]);
                let (then, ()) = self.in_block(|lw| {
                    let v = lw.seq_elem(&s, k);
                    let op = lw.float(v, "an element")?;
                    lw.emit(Stmt::Set {
                        dst: out,
                        rhs: Rhs::Copy(op),
                    });
                    Ok(())
                })?;
                self.emit(Stmt::If {
                    cond: c,
                    then,
                    els: vec![],
                });
                Ok(Val::Opt(Box::new(Val::F(Op::Var(out))), has))
            }
            ("copy_from_slice" | "clone_from_slice", 1) => {
                let src = self.expr(&args[0])?;
                let src = self.iter_of_val(src)?;
                let n = self.seq_len(&s);
                let (ni, si) = (self.ident(n).clone(), self.ident(src.count).clone());
                self.emit(Stmt::Effect {
                    tokens: toks(quote!(::fazang::__private::check_copy_len(#ni, #si);)),
                    reads: vec![n, src.count],
                });
                let it = iter::Iter {
                    count: n,
                    gen: iter::Gen::Zip(Box::new(iter::Gen::SeqMut(s)), Box::new(src.gen)),
                };
                self.each(&None, it, &mut |lw, pair| {
                    let Val::Tuple(mut xy) = pair else {
                        unreachable!("zip gives pairs")
                    };
                    let (Some(y), Some(Val::MutPlace(p))) = (xy.pop(), xy.pop()) else {
                        unreachable!("iter_mut gives places")
                    };
                    let op = lw.float(y, "a copied element")?;
                    lw.emit(Stmt::Store { place: p, src: op });
                    Ok(())
                })?;
                Ok(Val::Unit)
            }
            ("split_at", 1) => {
                let mid = self.index_op(&args[0])?;
                let a = self.seq_window(&s, None, Some(mid.clone()));
                let b = self.seq_window(&s, Some(mid), None);
                Ok(Val::Tuple(vec![Val::Seq(a), Val::Seq(b)]))
            }
            // A method that may reorder or rewrite the floats of an active array would move
            // values without their adjoints.
            _ if self.abs(&m.receiver).active() => {
                no(format!("the method `{name}` on an active array"))
            }
            _ if !self.abs(e).active() && args.iter().all(|a| !self.abs(a).active()) => {
                self.data_method_val(e, m, Val::Seq(s))
            }
            _ => {
                let (rt, _) = self.seq_tokens(&s);
                let method = &m.method;
                self.opaque(e, Callee::unknown(quote!(#rt.#method)), args, Fallible::No)
            }
        }
    }

    /// A sequence that is a whole local array (what `push` may grow).
    fn local_array(&self, s: &seq::Seq, what: &str) -> R<()> {
        if s.prefix.is_empty() && s.window.is_none() && self.vars[s.root].kind == Kind::Array {
            Ok(())
        } else {
            no(format!("`{what}` on something other than a local vector"))
        }
    }

    /// `f(args)?`.
    pub fn try_expr(&mut self, x: &'a MExpr) -> R<Val> {
        if self.is_opaque_call(x) {
            return self.opaque_call_expr(x, Fallible::Question);
        }
        match self.expr(x)? {
            Val::Opt(v, _) => Ok(*v),
            other => no(format!("`?` on {}", other.describe())),
        }
    }

    /// Whether an expression is a call the macro cannot see into (so `?`, `unwrap` apply
    /// to its result inside the call's statement).
    fn is_opaque_call(&self, x: &MExpr) -> bool {
        match &x.peel().kind {
            MKind::Call(f, _) => match &f.peel().kind {
                MKind::Path(p) => {
                    let segs: Vec<String> = p
                        .path
                        .segments
                        .iter()
                        .map(|s| s.ident.to_string())
                        .collect();
                    scalar_fn_path(&segs).is_none()
                        && !matches!(segs.last().map(String::as_str), Some("Some" | "Ok" | "Err"))
                }
                _ => false,
            },
            MKind::MethodCall(m) => crate::activity::walk_support::is_self(&m.receiver),
            _ => false,
        }
    }

    /// An opaque call whose `Result` is unwrapped as `f` says.
    fn opaque_call_expr(&mut self, x: &'a MExpr, f: Fallible) -> R<Val> {
        match &x.peel().kind {
            MKind::Call(func, args) => {
                let MKind::Path(p) = &func.peel().kind else {
                    return no("a call of a computed function");
                };
                let segs: Vec<String> = p
                    .path
                    .segments
                    .iter()
                    .map(|s| s.ident.to_string())
                    .collect();
                let callee = self.path_callee(p, &segs);
                self.opaque(x, callee, args, f)
            }
            MKind::MethodCall(m) => {
                let (recv, _) = self.data_tokens(&m.receiver)?;
                let method = &m.method;
                let callee = self.method_callee(quote!(#recv.#method), &m.method);
                self.opaque(x, callee, &m.args, f)
            }
            _ => no("`?` on something other than a call"),
        }
    }

    /// A call the macro cannot see into: one statement, differentiated in the forward sweep.
    pub fn opaque(
        &mut self,
        e: &'a MExpr,
        callee: Callee,
        margs: &'a [MExpr],
        fallible: Fallible,
    ) -> R<Val> {
        // A `Result` returned as the function's own result: its error returned, its value
        // the result (what `?` then `Ok` do).
        let fallible = match fallible {
            Fallible::No if self.result_positions.contains(&e.id) => Fallible::Question,
            f => f,
        };
        let mut args = Vec::new();
        for (i, a) in margs.iter().enumerate() {
            let param = callee
                .params
                .as_ref()
                .map(|ps| ps.get(i).cloned().flatten());
            args.push(self.call_arg(a, &callee, param)?);
        }
        let scalars = args
            .iter()
            .filter(|a| matches!(a, CallArg::Scalar(_) | CallArg::InOut(_)))
            .count();
        let slices = args.iter().any(|a| matches!(a, CallArg::Slice(_)));
        let inouts: Vec<V> = args
            .iter()
            .filter_map(|a| match a {
                CallArg::InOut(v) => Some(*v),
                _ => None,
            })
            .collect();
        let result = self.abs(e).deref().clone();
        let hinted = self.hints.exprs.contains(&e.id) && matches!(result, Abs::Unknown(_));
        let seq_hinted =
            !hinted && self.hints.seqs.contains(&e.id) && matches!(result, Abs::Unknown(true));
        let vector_result =
            seq_hinted || matches!(&result, Abs::Seq(x) if matches!(x.deref(), Abs::Float(true)));
        let how = if !slices && scalars <= MAX_LANES && (!vector_result || inouts.is_empty()) {
            CallHow::Lanes
        } else {
            CallHow::Tape
        };
        let convert = !callee.fazang;
        if how == CallHow::Tape && !inouts.is_empty() {
            let shape = if hinted || matches!(result, Abs::Float(_)) {
                Some(false)
            } else if vector_result {
                Some(true)
            } else if matches!(result, Abs::Unknown(false) | Abs::Never) {
                None
            } else {
                return no("a call with `&mut` floats returning something other than floats");
            };
            return self.taped_with_inouts(callee.tokens, args, shape, fallible, convert);
        }
        let callee_reads = Vec::new();
        let callee = callee.tokens;
        let mut out_array = None;
        let (out, data_out) = match &result {
            Abs::Float(_) => (Some(self.new_var("y", Kind::F64)), None),
            _ if hinted => (Some(self.new_var("y", Kind::F64)), None),
            Abs::Int | Abs::Bool => (None, Some(self.new_var("d", self.kind_of_abs(&result)))),
            _ if (seq_hinted
                || matches!(&result, Abs::Seq(x) if matches!(x.deref(), Abs::Float(true))))
                && inouts.is_empty() =>
            {
                let values = self.new_var("ys", Kind::Array);
                let jac = self.new_var("jac", Kind::Array);
                out_array = Some((values, jac));
                (None, None)
            }
            Abs::Unknown(false) | Abs::Never => (None, None),
            _ => return no("a call returning something other than a float or a vector of floats"),
        };
        if how == CallHow::Tape && out.is_none() && out_array.is_none() {
            return no("a call with active arrays that returns no float");
        }
        let n_out = usize::from(out.is_some()) + inouts.len();
        let partials = if how == CallHow::Lanes && out_array.is_none() {
            (0..n_out)
                .map(|_| (0..scalars).map(|_| self.new_var("p", Kind::F64)).collect())
                .collect()
        } else {
            Vec::new()
        };
        self.emit(Stmt::Call(Call {
            how,
            callee: toks(callee),
            callee_reads,
            args,
            out,
            data_out,
            out_array,
            result_array: None,
            partials,
            fallible,
            convert,
            reduce: None,
        }));
        Ok(match (out, data_out, out_array) {
            (Some(v), _, _) => Val::F(Op::Var(v)),
            (_, Some(d), _) => Val::D(d),
            (_, _, Some((values, _))) => Val::Seq(seq::Seq::whole(values, 1)),
            _ => Val::Unit,
        })
    }

    /// A call of a path: fazang's functions take data as it is; the functions of the same
    /// module or impl block have known parameters.
    fn path_callee(&self, p: &syn::ExprPath, segs: &[String]) -> Callee {
        let last = segs.last().map(String::as_str).unwrap_or("");
        let fazang = crate::model::known::is_fazang_fn(last)
            && (segs.len() == 1 || segs.first().is_some_and(|s| s == "fazang"));
        let params = crate::activity::walk_support::known_callee(self.callees, segs, false)
            .map(|c| c.params.clone());
        Callee {
            tokens: quote!(#p),
            fazang,
            params,
        }
    }

    /// A method of `self` (known if it is of the same impl block).
    fn method_callee(&self, tokens: TokenStream, name: &syn::Ident) -> Callee {
        let segs = [name.to_string()];
        let params = crate::activity::walk_support::known_callee(self.callees, &segs, true)
            .map(|c| c.params.clone());
        Callee {
            tokens,
            fazang: false,
            params,
        }
    }

    /// One argument of an opaque call (`param`: the callee's parameter, if known: `None`
    /// inside for a parameter that stays data).
    fn call_arg(
        &mut self,
        a: &'a MExpr,
        callee: &Callee,
        param: Option<Option<Abs>>,
    ) -> R<CallArg> {
        let active = self.abs(a).active();
        let v = self.expr(a)?;
        let call_result = matches!(
            a.peel().kind,
            MKind::Call(..) | MKind::MethodCall(..) | MKind::Try(..)
        );
        // How data converts to the callee's parameter.
        let shape = |default: DataArg| -> DataArg {
            if callee.fazang {
                return DataArg::Other;
            }
            match &param {
                Some(None) => DataArg::Other,
                Some(Some(p)) => match p.deref() {
                    Abs::Float(_) => DataArg::Float,
                    Abs::Seq(x) if matches!(x.deref(), Abs::Float(_)) => DataArg::FloatSlice,
                    _ => DataArg::Other,
                },
                None => default,
            }
        };
        Ok(match v {
            Val::F(op) if active => CallArg::Scalar(op),
            Val::MutRef(t) => CallArg::InOut(t),
            Val::Seq(s) if s.prefix.is_empty() && self.is_struct_root(s.root) => {
                return no("a registered struct passed to a function")
            }
            Val::Seq(s) if active && s.depth > 0 => {
                return no("a nested array of active values passed to a function")
            }
            Val::Seq(s) if active => CallArg::Slice(self.windowed(s)),
            Val::D(d) if self.vars[d].kind == Kind::Data(DataKind::Other) => {
                let i = self.ident(d).clone();
                // What the analysis knows of its type: floats or arrays of them take the
                // callee's scalar (`&data` borrowed, arrays passed by value); of any other
                // type, `DataArg`/`DataRefArg` decide by the type itself.
                let floats =
                    |x: &Abs| matches!(x, Abs::Seq(e) if matches!(e.deref(), Abs::Float(_)));
                let by_ref = matches!(a.peel().kind, MKind::Reference { .. });
                let seen = match self.abs(a).deref() {
                    Abs::Ref(x) if floats(x) => Some(DataArg::FloatSlice),
                    x if floats(x) && by_ref => Some(DataArg::FloatSlice),
                    x if floats(x) => Some(DataArg::Pass),
                    _ => None,
                };
                let sh = shape(if call_result {
                    DataArg::Pass
                } else {
                    seen.unwrap_or(DataArg::Unseen { by_ref })
                });
                // A float parameter given data the macro could not type (maybe borrowed).
                let t = match sh {
                    DataArg::Float => quote!(::fazang::__private::to_f64(#i)),
                    _ => quote!(#i),
                };
                CallArg::Data(toks(t), vec![d], sh)
            }
            Val::Seq(s) => {
                let (t, reads) = self.seq_tokens(&s);
                // Borrowed as the call borrows it (a window already is a slice; a row an
                // iterator gave is a reference).
                let row = s.window.is_none() && matches!(s.prefix.last(), Some(Proj::Index(_)));
                let written_index = matches!(a.peel().kind, MKind::Index(..));
                let by_ref_param = s.prefix.is_empty()
                    && s.window.is_none()
                    && self.vars[s.root].kind == Kind::ParamSeq
                    && self.param_by_ref(s.root);
                let borrowed =
                    matches!(a.peel().kind, MKind::Reference { .. }) || (row && !written_index);
                let t = if borrowed { quote!(&#t) } else { t };
                let a_reference = borrowed || by_ref_param || s.window.is_some();
                // Flat data arrays become the callee's scalar (`adapt_ref` when borrowed,
                // `promote` when passed by value); nested ones are converted whole.
                // Data arrays take the callee's parameter type: borrowed (`adapt_ref`),
                // or passed by value (`pass`); data stays `f64` where the parameter is data.
                let sh = match shape(DataArg::FloatSlice) {
                    DataArg::FloatSlice if !a_reference => DataArg::Pass,
                    DataArg::Other if s.depth > 0 && callee.params.is_none() && !callee.fazang => {
                        if a_reference {
                            DataArg::FloatSlice
                        } else {
                            DataArg::Pass
                        }
                    }
                    other => other,
                };
                CallArg::Data(toks(t), reads, sh)
            }
            Val::F(op) => {
                let t = seq::op_tokens(self, &op);
                CallArg::Data(
                    toks(t),
                    op.var().into_iter().collect(),
                    shape(DataArg::Float),
                )
            }
            Val::D(d) => {
                let i = self.ident(d).clone();
                let sh = if self.vars[d].kind == Kind::F64 {
                    shape(DataArg::Float)
                } else {
                    DataArg::Other
                };
                CallArg::Data(toks(quote!(#i)), vec![d], sh)
            }
            Val::C(t) => CallArg::Data(t, vec![], DataArg::Other),
            other => return no(format!("{} passed to a function", other.describe())),
        })
    }
}

/// `f64::sin`, `Real::sin`, `fazang::Real::sin`, fazang's free functions of the catalogue
/// (`erf(x)`, `inv_logit(x)`).
fn scalar_fn_path(segs: &[String]) -> Option<&'static catalogue::Fun> {
    let last = segs.last()?;
    let qualified =
        segs.len() >= 2 && matches!(segs[segs.len() - 2].as_str(), "f64" | "Real" | "Float");
    let free = segs.len() == 1 && crate::model::known::FAZANG_SCALAR_FNS.contains(&last.as_str());
    if qualified || free {
        catalogue::get(last)
    } else {
        None
    }
}

/// The function an opaque call calls.
pub struct Callee {
    /// What comes before the argument list.
    pub tokens: TokenStream,
    /// One of fazang's functions (data taken as it is).
    pub fazang: bool,
    /// The parameters, when the callee is a function of the same module or impl block.
    pub params: Option<Vec<Option<Abs>>>,
}

impl Callee {
    fn unknown(tokens: TokenStream) -> Self {
        Callee {
            tokens,
            fazang: false,
            params: None,
        }
    }
}

impl Lower<'_> {
    /// A sequence with an explicit window (its whole length if it had none).
    pub fn windowed(&mut self, s: seq::Seq) -> seq::Seq {
        if s.window.is_some() {
            return s;
        }
        let n = self.seq_len(&s);
        seq::Seq {
            window: Some((Op::Const(toks(quote!(0usize))), n)),
            ..s
        }
    }
}

impl Lower<'_> {
    /// Whether the parameter whose variable is `root` is a reference (`&[f64]`, `&[f64; N]`).
    pub fn param_by_ref(&self, root: V) -> bool {
        use crate::types::ParamKind;
        self.m.params.iter().enumerate().any(|(id, p)| {
            matches!(&self.env[id], Some(Val::Seq(s)) if s.root == root)
                && matches!(p.kind, ParamKind::Nested { by_ref: true, .. })
        })
    }
}

impl<'a> Lower<'a> {
    /// Whether an expression is an `Option` the lowering holds as a value and a flag.
    fn gives_option(&self, e: &MExpr) -> bool {
        match &e.peel().kind {
            MKind::MethodCall(m) => {
                matches!(
                    m.method.to_string().as_str(),
                    "get" | "first" | "last" | "max_by" | "min_by" | "reduce" | "copied" | "cloned"
                ) && (self.abs(e).active() || self.gives_option(&m.receiver))
            }
            MKind::Local(id, _) => matches!(self.env[*id], Some(Val::Opt(..))),
            _ => false,
        }
    }

    /// `copied`, `cloned`, `unwrap_or(d)`, `unwrap_or_default()`, `unwrap()` on an
    /// `Option` held as a value and a flag.
    fn option_method(&mut self, name: &str, args: &'a [MExpr], recv: Val) -> R<Val> {
        let Val::Opt(inner, has) = recv else {
            return no(format!("`{name}` on {}", recv.describe()));
        };
        match name {
            "copied" | "cloned" => Ok(Val::Opt(inner, has)),
            "unwrap" | "expect" => {
                let hi = self.ident(has).clone();
                let msg = format!("called `Option::{name}()` on a `None` value");
                self.emit(Stmt::Effect {
                    tokens: toks(quote!(if !#hi { ::core::panic!(#msg); })),
                    reads: vec![has],
                });
                Ok(*inner)
            }
            _ => {
                // The value if present, else the default (0.0 for `unwrap_or_default`).
                let out = self.new_var("or", Kind::F64);
                let hi = self.ident(has).clone();
                let c = self.data("c", Kind::Data(DataKind::Bool), quote!(#hi), vec![has]);
                let (then, ()) = self.in_block(|lw| {
                    let op = lw.float(*inner, "an `Option`'s value")?;
                    lw.emit(Stmt::Set {
                        dst: out,
                        rhs: Rhs::Copy(op),
                    });
                    Ok(())
                })?;
                let (els, ()) = self.in_block(|lw| {
                    let d = match args.first() {
                        Some(a) => lw.expr(a)?,
                        None => Val::F(Op::Const(toks(quote!(0.0)))),
                    };
                    let op = lw.float(d, "a default value")?;
                    lw.emit(Stmt::Set {
                        dst: out,
                        rhs: Rhs::Copy(op),
                    });
                    Ok(())
                })?;
                self.emit(Stmt::If { cond: c, then, els });
                Ok(Val::F(Op::Var(out)))
            }
        }
    }
}

impl<'a> Lower<'a> {
    /// A call on the tape with `&mut` floats (`simplex_constrain(&y, &mut lp)`): one
    /// recording whose outputs are the result and each `&mut` float's new value. `shape`:
    /// a float result (`Some(false)`), a vector of floats (`Some(true)`) or none.
    fn taped_with_inouts(
        &mut self,
        callee: TokenStream,
        args: Vec<CallArg>,
        shape: Option<bool>,
        fallible: Fallible,
        convert: bool,
    ) -> R<Val> {
        let values = self.new_var("ys", Kind::Array);
        let jac = self.new_var("jac", Kind::Array);
        let (out, result_array) = match shape {
            Some(false) => (Some(self.new_var("y", Kind::F64)), None),
            Some(true) => (None, Some(self.new_var("res", Kind::Array))),
            None => (None, None),
        };
        self.emit(Stmt::Call(Call {
            how: CallHow::Tape,
            callee: toks(callee),
            callee_reads: Vec::new(),
            args,
            out,
            data_out: None,
            out_array: Some((values, jac)),
            result_array,
            partials: Vec::new(),
            fallible,
            convert,
            reduce: None,
        }));
        Ok(match (out, result_array) {
            (Some(v), _) => Val::F(Op::Var(v)),
            (_, Some(a)) => Val::Seq(seq::Seq::whole(a, 1)),
            _ => Val::Unit,
        })
    }
}
