//! Arrays and places: local arrays made (`[a, b]`, `vec![x; n]`, copies of data) and read,
//! indexing and sub-slices (`x[i]`, `x[a..b]`), fields of registered structs and tuples,
//! `&mut` references, and the places element writes go to.

use super::*;
use crate::model::{Expr as MExpr, Kind as MKind, Macro};
use quote::quote;
use syn::{Lit, UnOp};

impl<'a> Lower<'a> {
    /// The value of a local array that starts as data: a literal, a repeat, an empty
    /// vector, or a copy of data, made a local array.
    pub fn array_init(&mut self, e: &'a MExpr) -> R<Val> {
        match &e.peel().kind {
            MKind::Array(_)
            | MKind::Repeat(..)
            | MKind::Macro(Macro::VecList(..) | Macro::VecRepeat(..)) => self.expr_inner(e),
            MKind::Call(f, _) if is_vec_new(f) => self.alloc(Init::Empty),
            MKind::MethodCall(m)
                if matches!(
                    m.method.to_string().as_str(),
                    "to_vec" | "clone" | "to_owned"
                ) =>
            {
                let recv = self.expr(&m.receiver)?;
                match self.as_seq(recv, &m.receiver) {
                    Some(s) => {
                        let place = Place {
                            root: s.root,
                            path: s.prefix.clone(),
                        };
                        let window = s.window.clone().map(|(o, n)| (o, Op::Var(n)));
                        let depth = s.depth;
                        Ok(match self.alloc(Init::CopyOf(place, window))? {
                            Val::Seq(c) => Val::Seq(seq::Seq { depth, ..c }),
                            other => other,
                        })
                    }
                    None => no("an array copied from data of a type the macro cannot see"),
                }
            }
            _ => no("an array starting as data in a form the adjoint code does not copy"),
        }
    }

    /// `&x`, `&mut x`.
    pub(super) fn reference(&mut self, mutable: bool, x: &'a MExpr) -> R<Val> {
        let v = self.expr(x)?;
        if !mutable {
            return Ok(v);
        }
        match (&x.peel().kind, v) {
            (MKind::Local(..), Val::F(Op::Var(t))) => Ok(Val::MutRef(t)),
            (MKind::Index(..) | MKind::Field(..), Val::F(_)) => {
                Ok(Val::MutPlace(self.place_of(x)?))
            }
            (_, v @ (Val::Seq(_) | Val::D(_) | Val::MutRef(_) | Val::MutPlace(_))) => Ok(v),
            (_, v) => no(format!("`&mut` to {}", v.describe())),
        }
    }

    /// `x[i]`.
    pub(super) fn index(&mut self, e: &'a MExpr, b: &'a MExpr, i: &'a MExpr) -> R<Val> {
        let base = self.expr(b)?;
        match base {
            Val::Seq(s) => {
                if let MKind::Range(lo, lim, hi) = &i.peel().kind {
                    let lo = match lo {
                        Some(x) => Some(self.index_op(x)?),
                        None => None,
                    };
                    let hi = match hi {
                        Some(x) => Some(self.range_end(x, lim)?),
                        None => None,
                    };
                    return Ok(Val::Seq(self.seq_window(&s, lo, hi)));
                }
                let k = self.index_op(i)?;
                let known_float =
                    self.hints.exprs.contains(&e.id) && !self.hints.seqs.contains(&e.id);
                self.seq_elem_checked(&s, k, known_float)
            }
            Val::D(_) => {
                let (t, reads) = self.mixed_tokens_index(&base, i)?;
                Ok(self.data_val(e, t, reads))
            }
            other => no(format!("indexing into {}", other.describe())),
        }
    }

    /// `d[i]` on a data value with a lowered index.
    fn mixed_tokens_index(&mut self, base: &Val, i: &'a MExpr) -> R<(TokenStream, Vec<V>)> {
        let (bt, mut reads) = self.val_tokens(base)?;
        let iv = self.expr(i)?;
        let (it, r) = self.val_tokens(&iv)?;
        reads.extend(r);
        Ok((quote!(#bt[#it]), reads))
    }

    /// The end of a range as an exclusive bound (`..=b` gives `b + 1`).
    pub fn range_end(&mut self, x: &'a MExpr, lim: &syn::RangeLimits) -> R<Op> {
        let op = self.index_op(x)?;
        Ok(match lim {
            syn::RangeLimits::HalfOpen(_) => op,
            syn::RangeLimits::Closed(_) => {
                let t = seq::op_tokens(self, &op);
                Op::Var(self.data(
                    "i",
                    Kind::Data(DataKind::Int),
                    quote!(#t + 1),
                    op.var().into_iter().collect(),
                ))
            }
        })
    }

    /// An index or count: a data operand.
    pub fn index_op(&mut self, e: &'a MExpr) -> R<Op> {
        if let MKind::Lit(Lit::Int(l)) = &e.peel().kind {
            return Ok(Op::Const(toks(quote!(#l))));
        }
        match self.expr(e)? {
            Val::D(d) if self.vars[d].kind == Kind::Data(DataKind::Other) => {
                // An index of a type the macro cannot see: an integer variable of its own
                // (the reverse sweep may read it).
                let i = self.ident(d).clone();
                Ok(Op::Var(self.data(
                    "i",
                    Kind::Data(DataKind::Int),
                    crate::util::located_at(quote!(::fazang::__private::to_index(#i)), e.span),
                    vec![d],
                )))
            }
            Val::D(d) => Ok(Op::Var(d)),
            Val::C(t) => Ok(Op::Const(t)),
            Val::F(Op::Var(v)) if !self.act_float(e) => Ok(Op::Var(v)),
            other => no(format!("{} used as an index", other.describe())),
        }
    }

    fn act_float(&self, e: &MExpr) -> bool {
        matches!(self.abs(e).deref(), Abs::Float(_))
    }

    /// `s.f`.
    pub(super) fn field(&mut self, e: &'a MExpr, b: &'a MExpr, m: &syn::Member) -> R<Val> {
        let base = self.expr(b)?;
        match base {
            Val::Tuple(xs) => match m {
                syn::Member::Unnamed(i) => xs
                    .get(i.index as usize)
                    .cloned()
                    .ok_or_else(|| Unsupported::new("a tuple field out of range")),
                _ => no("a named field of a tuple"),
            },
            Val::Seq(s) if self.is_struct_root(s.root) => {
                let mut path = s.prefix.clone();
                path.push(Proj::Field(m.clone()));
                Ok(self.struct_field(e, Place { root: s.root, path }))
            }
            Val::D(_) => {
                let (t, reads) = self.mixed_tokens_field(&base, m)?;
                Ok(self.data_val(e, t, reads))
            }
            other => no(format!("a field of {}", other.describe())),
        }
    }

    fn mixed_tokens_field(&self, base: &Val, m: &syn::Member) -> R<(TokenStream, Vec<V>)> {
        let (bt, reads) = self.val_tokens(base)?;
        Ok((quote!(#bt.#m), reads))
    }

    /// Whether a variable is a registered struct parameter.
    pub fn is_struct_root(&self, v: V) -> bool {
        self.m.params.iter().zip(0..).any(|(p, id)| {
            matches!(p.kind, crate::types::ParamKind::Struct) && self.var_of_param(id) == Some(v)
        })
    }

    fn var_of_param(&self, id: BindId) -> Option<V> {
        match &self.env[id] {
            Some(Val::Seq(s)) => Some(s.root),
            _ => None,
        }
    }

    /// A field of a registered struct: a float (loaded) if the body uses it as one, a
    /// sequence if it indexes or walks it.
    fn struct_field(&mut self, e: &MExpr, place: Place) -> Val {
        let _ = e;
        Val::Seq(seq::Seq {
            root: place.root,
            prefix: place.path,
            depth: 0,
            window: None,
        })
    }

    /// `[a, b, c]`, `vec![a, b, c]`.
    pub(super) fn array_list(&mut self, xs: &'a [MExpr], form: ArrayForm) -> R<Val> {
        let mut ops = Vec::new();
        for x in xs {
            let v = self.expr(x)?;
            ops.push(self.float(v, "an array element")?);
        }
        self.alloc(Init::List(ops, form))
    }

    /// A new local array.
    pub fn alloc(&mut self, init: Init) -> R<Val> {
        let t = self.new_var("a", Kind::Array);
        self.emit(Stmt::Alloc { dst: t, init });
        Ok(Val::Seq(seq::Seq::whole(t, 1)))
    }

    /// An element, read.
    pub fn load(&mut self, place: Place) -> Val {
        let t = self.new_var("x", Kind::F64);
        self.emit(Stmt::Load { dst: t, place });
        Val::F(Op::Var(t))
    }

    /// The place an element expression names (`x[i]`, `x[i][j]`, `s.f[i]`).
    pub fn place_of(&mut self, e: &'a MExpr) -> R<Place> {
        match &e.peel().kind {
            MKind::Index(b, i) => {
                let base = self.expr(b)?;
                let Val::Seq(s) = base else {
                    return no("an element write into something that is not an array");
                };
                let k = self.index_op(i)?;
                Ok(self.seq_place(&s, k))
            }
            MKind::Field(b, m) => {
                let base = self.expr(b)?;
                match base {
                    Val::Seq(s) if self.is_struct_root(s.root) => {
                        let mut path = s.prefix.clone();
                        path.push(Proj::Field(m.clone()));
                        Ok(Place { root: s.root, path })
                    }
                    _ => no("a write into a field"),
                }
            }
            MKind::Unary(UnOp::Deref(_), x) => match self.expr(x)? {
                Val::MutPlace(p) => Ok(p),
                _ => no("a write through a reference"),
            },
            _ => no("a write into something that is not an element"),
        }
    }
}

/// `Vec::new`, `Vec::with_capacity`.
pub(super) fn is_vec_new(f: &MExpr) -> bool {
    matches!(&f.peel().kind, MKind::Path(p)
        if p.path.segments.len() == 2
            && p.path.segments[0].ident == "Vec"
            && matches!(p.path.segments[1].ident.to_string().as_str(), "new" | "with_capacity"))
}
