//! Method calls, dispatched by their receiver: `Option`s held as a value and a flag
//! (`unwrap_or`, `copied`), methods of floats (catalogue functions, `sin_cos`), of
//! sequences of floats (`len`, `push`, `swap`, `fill`, `get`, `split_at`, ..) and of data.

use super::call_opaque::Callee;
use super::*;
use crate::catalogue;
use crate::model::{Expr as MExpr, Kind as MKind, MethodCall};
use quote::quote;

impl<'a> Lower<'a> {
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
        if iter_adapt::iter_method(&name) {
            return self.iter_method(e, m);
        }
        if consume::consumer(&name) {
            let it = self.iter_of(&m.receiver)?;
            return self.consume(e, m, it);
        }
        if name == "unwrap_or" && m.args.len() == 1 && self.is_opaque_call(&m.receiver) {
            // `helper(x).unwrap_or(0.0)` on a fallible call: a constant default only.
            let c = match self.expr(&m.args[0])? {
                Val::C(c) | Val::F(Op::Const(c)) => c,
                _ => return no("`unwrap_or` on a call with a default that is not a constant"),
            };
            return self.opaque_call_expr(&m.receiver, Fallible::UnwrapOr(c));
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
                // A copy of rows holds rows.
                Ok(match self.alloc(Init::CopyOf(place, window))? {
                    Val::Seq(c) => Val::Seq(seq::Seq {
                        depth: s.depth,
                        ..c
                    }),
                    other => other,
                })
            }
            ("as_slice" | "as_ref" | "borrow", 0) => Ok(Val::Seq(s)),
            ("push", 1) if s.depth == 1 => {
                let v = self.expr(&args[0])?;
                self.local_array(&s, "push")?;
                let src = self.whole_row(v)?;
                self.emit(Stmt::PushRow { dst: s.root, src });
                Ok(Val::Unit)
            }
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
            ("fill", 1) => self.seq_fill(s, args),
            ("first" | "last", 0) | ("get", 1) => self.seq_get(&name, s, args),
            ("copy_from_slice" | "clone_from_slice", 1) => self.seq_copy_from(s, args),
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

    /// `s.fill(x)`: `x` stored into every element.
    fn seq_fill(&mut self, s: seq::Seq, args: &'a [MExpr]) -> R<Val> {
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

    /// `s.first()`, `s.last()`, `s.get(k)`: an `Option` held as a value and a flag.
    fn seq_get(&mut self, name: &str, s: seq::Seq, args: &'a [MExpr]) -> R<Val> {
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
            let has = self.data("has", Kind::Data(DataKind::Bool), quote!(#kt < #ni), reads);
            (has, Some(k))
        } else {
            let has = self.data("has", Kind::Data(DataKind::Bool), quote!(#ni > 0), vec![n]);
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
            let v = lw.seq_elem_checked(&s, k, false)?;
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

    /// `s.copy_from_slice(src)`: the lengths checked, then element by element.
    fn seq_copy_from(&mut self, s: seq::Seq, args: &'a [MExpr]) -> R<Val> {
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

    /// A sequence that is a whole local array (what `push` may grow).
    fn local_array(&self, s: &seq::Seq, what: &str) -> R<()> {
        if s.prefix.is_empty() && s.window.is_none() && self.vars[s.root].kind == Kind::Array {
            Ok(())
        } else {
            no(format!("`{what}` on something other than a local vector"))
        }
    }

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
