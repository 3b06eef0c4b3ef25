//! Assignments: `place = v` (tuples assigned part by part after computing all of them),
//! stores into variables, elements, fields and through `&mut`, and compound assignments
//! (`x += v`, data updated in place).

use super::*;
use crate::model::{Expr as MExpr, Kind as MKind};
use quote::quote;
use syn::BinOp;

impl<'a> Lower<'a> {
    /// `place = v`; `(a, b) = (x, y)` assigns every part after computing all of them.
    pub(super) fn assign(&mut self, place: &'a MExpr, v: &'a MExpr) -> R<()> {
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
    pub(super) fn compound(
        &mut self,
        e: &'a MExpr,
        op: &BinOp,
        place: &'a MExpr,
        v: &'a MExpr,
    ) -> R<()> {
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
