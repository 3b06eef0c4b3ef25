//! Consumers of iterators: each makes one loop over the items (`sum`, `product`, `fold`,
//! `reduce`, `for_each`, `collect`, `count`, `max_by`, `min_by`, `last`, `any`, `all`).

use super::iter::Iter;
use super::*;
use crate::model::{Expr as MExpr, MethodCall};
use quote::quote;

/// Whether `name` consumes an iterator.
pub fn consumer(name: &str) -> bool {
    matches!(
        name,
        "sum"
            | "product"
            | "fold"
            | "reduce"
            | "for_each"
            | "collect"
            | "count"
            | "max_by"
            | "min_by"
            | "last"
            | "any"
            | "all"
    )
}

impl<'a> Lower<'a> {
    /// `it.name(args)`.
    pub fn consume(&mut self, e: &'a MExpr, m: &'a MethodCall, it: Iter) -> R<Val> {
        let name = m.method.to_string();
        let args = &m.args;
        match (name.as_str(), args.len()) {
            ("sum" | "product", 0) => self.reduce_arith(e, &name, it),
            ("fold", 2) => {
                let init = self.expr(&args[0])?;
                let f = self.fn_arg(&args[1])?;
                self.fold(it, init, &f)
            }
            ("reduce", 1) => {
                let f = self.fn_arg(&args[0])?;
                self.reduce(it, &f)
            }
            ("for_each", 1) => {
                let f = self.fn_arg(&args[0])?;
                self.each(&None, it, &mut |lw, x| {
                    lw.apply(&f, vec![x])?;
                    Ok(())
                })?;
                Ok(Val::Unit)
            }
            ("collect", 0) => self.collect(e, it),
            ("count", 0) => {
                let n = self.data("n", Kind::Data(DataKind::Int), quote!(0usize), vec![]);
                let ni = self.ident(n).clone();
                self.each(&None, it, &mut |lw, _| {
                    lw.emit(Stmt::Data {
                        dst: n,
                        expr: toks(quote!(#ni + 1)),
                        reads: vec![n],
                        pure: false,
                    });
                    Ok(())
                })?;
                Ok(Val::D(n))
            }
            ("max_by" | "min_by", 1) => {
                let f = self.fn_arg(&args[0])?;
                self.select(it, &f, name == "max_by")
            }
            ("last", 0) => {
                let best = self.new_var("last", Kind::F64);
                let has = self.flag("has", false);
                self.each(&None, it, &mut |lw, x| {
                    let op = lw.float(x, "an item")?;
                    lw.emit(Stmt::Set {
                        dst: best,
                        rhs: Rhs::Copy(op),
                    });
                    lw.set_flag(has, true);
                    Ok(())
                })?;
                Ok(Val::Opt(Box::new(Val::F(Op::Var(best))), has))
            }
            ("any" | "all", 1) => {
                let f = self.fn_arg(&args[0])?;
                let any = name == "any";
                let res = self.flag("b", !any);
                let ri = self.ident(res).clone();
                self.each(&None, it, &mut |lw, x| {
                    let c = lw.apply(&f, vec![x])?;
                    let (ct, mut reads) = lw.val_tokens(&c)?;
                    reads.push(res);
                    let t = if any {
                        quote!(#ri || #ct)
                    } else {
                        quote!(#ri && #ct)
                    };
                    lw.emit(Stmt::Data {
                        dst: res,
                        expr: toks(t),
                        reads,
                        pure: false,
                    });
                    Ok(())
                })?;
                Ok(Val::D(res))
            }
            _ => no(format!("the iterator method `{name}`")),
        }
    }

    /// `sum()`, `product()` of floats.
    fn reduce_arith(&mut self, e: &MExpr, name: &str, it: Iter) -> R<Val> {
        if matches!(self.abs(e).deref(), Abs::Int | Abs::Bool) {
            return no(format!("`{name}` of items that are not floats"));
        }
        let acc = self.new_var("acc", Kind::F64);
        // As std's `Sum for f64`: from -0.0 (the sum of nothing, or of -0.0s, is -0.0).
        let init = if name == "sum" {
            quote!(-0.0)
        } else {
            quote!(1.0)
        };
        self.emit(Stmt::Set {
            dst: acc,
            rhs: Rhs::Copy(Op::Const(toks(init))),
        });
        let a = if name == "sum" {
            expr::Arith::Add
        } else {
            expr::Arith::Mul
        };
        self.each(&None, it, &mut |lw, x| {
            let v = lw.arith(a, Val::F(Op::Var(acc)), x)?;
            let op = lw.float(v, "a sum")?;
            lw.emit(Stmt::Set {
                dst: acc,
                rhs: Rhs::Copy(op),
            });
            Ok(())
        })?;
        Ok(Val::F(Op::Var(acc)))
    }

    /// `fold(init, f)`: the accumulator in variables.
    fn fold(&mut self, it: Iter, init: Val, f: &iter::Fn) -> R<Val> {
        let (acc, stmts) = self.value_var(init)?;
        for s in stmts {
            self.emit(s);
        }
        let acc2 = acc.clone();
        self.each(&None, it, &mut |lw, x| {
            let v = lw.apply(f, vec![acc2.clone(), x])?;
            lw.assign_val(&acc2, v)
        })?;
        Ok(acc)
    }

    /// `reduce(f)`: the first item, then `f(acc, item)`.
    fn reduce(&mut self, it: Iter, f: &iter::Fn) -> R<Val> {
        let acc = self.new_var("acc", Kind::F64);
        let has = self.flag("has", false);
        let hi = self.ident(has).clone();
        self.each(&None, it, &mut |lw, x| {
            let c = lw.data("c", Kind::Data(DataKind::Bool), quote!(#hi), vec![has]);
            let (then, ()) = lw.in_block(|lw| {
                let v = lw.apply(f, vec![Val::F(Op::Var(acc)), x.clone()])?;
                lw.assign_val(&Val::F(Op::Var(acc)), v)
            })?;
            let (els, ()) = lw.in_block(|lw| {
                lw.assign_val(&Val::F(Op::Var(acc)), x.clone())?;
                lw.set_flag(has, true);
                Ok(())
            })?;
            lw.emit(Stmt::If { cond: c, then, els });
            Ok(())
        })?;
        Ok(Val::Opt(Box::new(Val::F(Op::Var(acc))), has))
    }

    /// Assign a value to variables shaped like it (a float, data, a tuple of them).
    pub fn assign_val(&mut self, to: &Val, v: Val) -> R<()> {
        match (to, v) {
            (Val::F(Op::Var(a)), v) => {
                let op = self.float(v, "an accumulator")?;
                if op.var() != Some(*a) {
                    self.emit(Stmt::Set {
                        dst: *a,
                        rhs: Rhs::Copy(op),
                    });
                }
                Ok(())
            }
            (Val::D(a), v) => {
                let (t, reads) = self.val_tokens(&v)?;
                self.emit(Stmt::Data {
                    dst: *a,
                    expr: toks(t),
                    reads,
                    pure: false,
                });
                Ok(())
            }
            (Val::Tuple(xs), Val::Tuple(vs)) if xs.len() == vs.len() => {
                // Compute every part before writing any (`(a, b) = (b, a)`).
                let mut tmp = Vec::new();
                for v in vs {
                    let (t, stmts) = self.value_var(v)?;
                    for s in stmts {
                        self.emit(s);
                    }
                    tmp.push(t);
                }
                for (x, t) in xs.iter().zip(tmp) {
                    self.assign_val(x, t)?;
                }
                Ok(())
            }
            (to, v) => no(format!(
                "{} given to an accumulator holding {}",
                v.describe(),
                to.describe()
            )),
        }
    }

    /// `collect()` of floats into a new vector, or of rows of floats into a vector of
    /// rows (each a copy: `Vec<Vec<f64>>`).
    fn collect(&mut self, e: &MExpr, it: Iter) -> R<Val> {
        let floats = |x: &Abs| matches!(x, Abs::Float(_) | Abs::Never);
        let rows = match self.abs(e).deref() {
            Abs::Seq(x) if floats(x) => false,
            Abs::Seq(x) if matches!(x.deref(), Abs::Seq(y) if floats(y)) => true,
            _ => return no("`collect` into something other than a vector of floats or of rows"),
        };
        let Val::Seq(s) = self.alloc(Init::Empty)? else {
            unreachable!("alloc gives a sequence")
        };
        let dst = s.root;
        self.each(&None, it, &mut |lw, x| {
            if rows {
                let src = lw.whole_row(x)?;
                lw.emit(Stmt::PushRow { dst, src });
            } else {
                let op = lw.float(x, "a collected item")?;
                lw.emit(Stmt::Push { dst, src: op });
            }
            Ok(())
        })?;
        Ok(Val::Seq(seq::Seq {
            depth: usize::from(rows),
            ..s
        }))
    }

    /// A row of floats as a whole local array (a copy of it, unless it is one already).
    pub(super) fn whole_row(&mut self, x: Val) -> R<V> {
        let s = match x {
            Val::Seq(s) if s.depth == 0 && !self.is_struct_root(s.root) => s,
            other => return no(format!("{} collected as a row", other.describe())),
        };
        if s.prefix.is_empty() && s.window.is_none() && self.vars[s.root].kind == Kind::Array {
            return Ok(s.root);
        }
        let place = Place {
            root: s.root,
            path: s.prefix.clone(),
        };
        let window = s.window.clone().map(|(o, n)| (o, Op::Var(n)));
        match self.alloc(Init::CopyOf(place, window))? {
            Val::Seq(c) => Ok(c.root),
            _ => unreachable!("alloc gives a sequence"),
        }
    }

    /// `max_by(cmp)` (the last maximum), `min_by(cmp)` (the first minimum).
    fn select(&mut self, it: Iter, f: &iter::Fn, max: bool) -> R<Val> {
        let best = self.new_var("best", Kind::F64);
        let has = self.flag("has", false);
        let hi = self.ident(has).clone();
        self.each(&None, it, &mut |lw, x| {
            let op = lw.float(x, "an item")?;
            let c = lw.data("c", Kind::Data(DataKind::Bool), quote!(#hi), vec![has]);
            let take = lw.new_var("take", Kind::Data(DataKind::Bool));
            let (then, ()) = lw.in_block(|lw| {
                let ord = lw.apply(f, vec![Val::F(Op::Var(best)), Val::F(op.clone())])?;
                let (ot, reads) = lw.val_tokens(&ord)?;
                let t = if max {
                    quote!(!::core::matches!(#ot, ::core::cmp::Ordering::Greater))
                } else {
                    quote!(::core::matches!(#ot, ::core::cmp::Ordering::Greater))
                };
                lw.emit(Stmt::Data {
                    dst: take,
                    expr: toks(t),
                    reads,
                    pure: false,
                });
                Ok(())
            })?;
            let (els, ()) = lw.in_block(|lw| {
                lw.set_flag(take, true);
                Ok(())
            })?;
            lw.emit(Stmt::If { cond: c, then, els });
            let (tk, ()) = lw.in_block(|lw| {
                lw.emit(Stmt::Set {
                    dst: best,
                    rhs: Rhs::Copy(op),
                });
                lw.set_flag(has, true);
                Ok(())
            })?;
            lw.emit(Stmt::If {
                cond: take,
                then: tk,
                els: vec![],
            });
            Ok(())
        })?;
        Ok(Val::Opt(Box::new(Val::F(Op::Var(best))), has))
    }
}
