//! Bindings: patterns bound to values (tuples part by part, arrays element by element,
//! `Some(x)` of an `Option` held as a value and a flag, data destructured by a `let` of the
//! pattern), each binding given its variable.

use super::*;
use crate::model::{Expr as MExpr, Pat as MPat};
use quote::quote;

impl<'a> Lower<'a> {
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

    /// Bind a pattern to a value.
    pub fn bind_pat(&mut self, p: &MPat, v: Val) -> R<()> {
        match p {
            MPat::Ident { id, sub: None, .. } => self.bind(*id, v),
            MPat::Paren(p) | MPat::Type(p, _) => self.bind_pat(p, v),
            // `&x` over a borrowed data item (`for &i in idx`): `x` is the value.
            MPat::Ref(_, p) => match v {
                Val::D(d) if self.vars[d].kind == Kind::Data(DataKind::Other) => {
                    let di = self.ident(d).clone();
                    let x = self.data("d", Kind::Data(DataKind::Other), quote!(*#di), vec![d]);
                    self.bind_pat(p, Val::D(x))
                }
                v => self.bind_pat(p, v),
            },
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
                    let x = self.seq_elem_bound(&s, Op::Const(toks(quote!(#i))));
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
        if let Val::F(Op::Var(t)) = &v {
            let used_as_number = (self.hints.binds.contains(&id)
                || self.hints.deref_binds.contains(&id))
                && !self.hints.seq_binds.contains(&id);
            if self.uncertain.contains(t) && !used_as_number {
                return no(super::seq::UNCERTAIN_ELEMENT);
            }
        }
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
}
