//! Calls and method calls, classified once: a catalogue function (one operation), a local
//! closure (its body inlined), an iterator adaptor or consumer, a method of sequences
//! (`len`, `push`, `swap`, ..; [`super::call_method`]), or a call of a function the macro
//! cannot see into (one [`Stmt::Call`], differentiated in the forward sweep by forward
//! lanes or the tape; [`super::call_opaque`], its arguments in [`super::call_args`]).

use super::*;
use crate::catalogue;
use crate::model::{Expr as MExpr, Kind as MKind};
use quote::quote;

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
        let segs: Vec<String> = crate::util::path_names(&p.path);
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
        if segs.len() == 2
            && segs[0] == "f64"
            && args.len() == 1
            && crate::model::known::FLOAT_PREDICATES.contains(&last)
        {
            // `f64::is_finite(x)`: a test of the value, as `x.is_finite()` is.
            let v = self.expr(&args[0])?;
            let (t, reads) = self.val_tokens(&v)?;
            let name = quote::format_ident!("{}", last);
            let c = self.data(
                "c",
                Kind::Data(DataKind::Bool),
                quote!(f64::#name(#t)),
                reads,
            );
            return Ok(Val::D(c));
        }
        if crate::model::known::is_fazang_reduce_sum(&p.path)
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
        let segs: Vec<String> = crate::util::path_names(&p.path);
        if let Some(fun) = scalar_fn_path(&segs) {
            return self.fun(fun, args);
        }
        no("a function passed by name to an iterator adaptor")
    }
}

/// `f64::sin`, `Real::sin`, `fazang::Real::sin`, fazang's free functions of the catalogue
/// (`erf(x)`, `inv_logit(x)`).
pub(super) fn scalar_fn_path(segs: &[String]) -> Option<&'static catalogue::Fun> {
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
