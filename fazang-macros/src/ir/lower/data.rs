//! Data printed back as Rust: an expression with no active value and no jump out of it is
//! one [`Stmt::Data`] (or [`Stmt::Effect`]), its outer variables renamed to theirs in the
//! core form. Bindings made inside it (closure parameters, `let`s of inner blocks, match
//! arms) keep their names: nothing outside can see them.

use super::*;
use crate::codegen::pat;
use crate::model::{Expr as MExpr, Kind as MKind, Macro, Stmt as MStmt};
use quote::quote;

impl Lower<'_> {
    /// Whether `e` is data through and through: no active value in it, and no
    /// `return`, `break` or `continue` leaving it.
    pub fn pure_data(&self, e: &MExpr) -> bool {
        !self.any_active(e) && !escapes(e, 0) && !self.writes_outer(e)
    }

    /// Whether `e` may write a local bound before it (`k = 0.5 * k` inside a loop, `&mut
    /// k`, `v.push(..)`): printed as one data statement, that write would be invisible to
    /// the analyses (the reverse sweep would read the new value where it needs the old),
    /// so such an expression is lowered statement by statement instead.
    fn writes_outer(&self, e: &MExpr) -> bool {
        let outer = |x: &MExpr| match &place_root(x).kind {
            MKind::Local(id, _) => self.env[*id].is_some(),
            _ => false,
        };
        let mut found = false;
        crate::model::visit::each_expr(e, &mut |x| match &x.kind {
            MKind::Assign(place, _) if outer(place) => found = true,
            MKind::Binary(op, place, _) if super::stmt::is_compound(op) && outer(place) => {
                found = true
            }
            MKind::Reference {
                mutable: true,
                expr,
            } if outer(expr) => found = true,
            MKind::MethodCall(m) if outer(&m.receiver) && mutating(&m.method.to_string()) => {
                found = true
            }
            _ => {}
        });
        found
    }

    fn any_active(&self, e: &MExpr) -> bool {
        let mut found = false;
        crate::model::visit::each_expr(e, &mut |x| {
            if self.abs(x).active() {
                found = true;
            }
            if let MKind::Local(id, _) = &x.kind {
                // A view or an array of active floats, or a local closure or iterator:
                // lowered, never printed.
                if let Some(v) = &self.env[*id] {
                    if !printable(v) {
                        found = true;
                    }
                }
            }
        });
        found
    }

    /// Print a data value (its tokens and the variables it reads).
    pub fn val_tokens(&self, v: &Val) -> R<(TokenStream, Vec<V>)> {
        Ok(match v {
            Val::F(op) => (seq::op_tokens(self, op), op.var().into_iter().collect()),
            Val::D(d) => {
                let i = self.ident(*d);
                (quote!(#i), vec![*d])
            }
            Val::C(t) => (t.0.clone(), vec![]),
            Val::Seq(s) => self.seq_tokens(s),
            Val::Tuple(xs) => {
                let mut ts = Vec::new();
                let mut reads = Vec::new();
                for x in xs {
                    let (t, r) = self.val_tokens(x)?;
                    ts.push(t);
                    reads.extend(r);
                }
                (quote!((#(#ts,)*)), reads)
            }
            Val::Opt(x, _) => self.val_tokens(x)?,
            Val::Unit => (quote!(()), vec![]),
            other => return no(format!("{} used as data", other.describe())),
        })
    }

    /// `e` printed as Rust.
    pub fn data_tokens(&self, e: &MExpr) -> R<(TokenStream, Vec<V>)> {
        let mut reads = Vec::new();
        let t = self.print(e, &mut reads)?;
        Ok((t, reads))
    }

    fn print(&self, e: &MExpr, reads: &mut Vec<V>) -> R<TokenStream> {
        let mut p = |x: &MExpr| self.print(x, reads);
        Ok(match &e.kind {
            MKind::Local(id, ident) => match &self.env[*id] {
                Some(v) => {
                    let (t, r) = self.val_tokens(v)?;
                    reads.extend(r);
                    at_user_token(t, ident.span())
                }
                None => quote!(#ident),
            },
            MKind::Lit(l) => quote!(#l),
            MKind::Path(x) => quote!(#x),
            // A number the lowering holds by value (a loop's item, a loaded element) is
            // read without the `*` its reference needed.
            MKind::Unary(syn::UnOp::Deref(_), x) if self.held_by_value(x) => p(x)?,
            MKind::Unary(op, x) => {
                let x = p(x)?;
                quote!(#op #x)
            }
            MKind::Binary(op, l, r) => {
                let (l, r) = (p(l)?, p(r)?);
                quote!(#l #op #r)
            }
            MKind::Assign(l, r) => {
                let (l, r) = (p(l)?, p(r)?);
                quote!(#l = #r)
            }
            MKind::Call(f, args) => {
                let f = p(f)?;
                let args = args.iter().map(&mut p).collect::<R<Vec<_>>>()?;
                quote!(#f(#(#args),*))
            }
            MKind::MethodCall(m) => {
                let recv = p(&m.receiver)?;
                let args = m.args.iter().map(&mut p).collect::<R<Vec<_>>>()?;
                let (name, tf) = (&m.method, &m.turbofish);
                let tf = tf.as_ref().map(|t| quote!(#t));
                quote!(#recv.#name #tf(#(#args),*))
            }
            MKind::Field(x, mem) => {
                let x = p(x)?;
                quote!(#x.#mem)
            }
            MKind::Index(b, i) => {
                let (b, i) = (p(b)?, p(i)?);
                quote!(#b[#i])
            }
            MKind::Paren(x) => {
                let x = p(x)?;
                quote!((#x))
            }
            MKind::Reference { mutable, expr } => {
                let x = p(expr)?;
                let m = mutable.then(|| quote!(mut));
                quote!(& #m #x)
            }
            MKind::Cast(x, ty) => {
                let x = p(x)?;
                quote!(#x as #ty)
            }
            MKind::Block(kind, label, b) => {
                let b = self.print_block(b, reads)?;
                let kw = match kind {
                    model::BlockKind::Plain => quote!(),
                    model::BlockKind::Unsafe => quote!(unsafe),
                    model::BlockKind::Const => quote!(const),
                };
                quote!(#label #kw #b)
            }
            MKind::If(c, t, els) => {
                let c = p(c)?;
                let t = self.print_block(t, reads)?;
                let e = match els {
                    Some(x) => {
                        let x = self.print(x, reads)?;
                        quote!(else #x)
                    }
                    None => quote!(),
                };
                quote!(if #c #t #e)
            }
            MKind::Let(pt, x) => {
                let (pt, x) = (pat::print(pt), p(x)?);
                quote!(let #pt = #x)
            }
            MKind::Match(x, arms) => {
                let x = p(x)?;
                let mut ats = Vec::new();
                for a in arms {
                    let pt = pat::print(&a.pat);
                    let g = match &a.guard {
                        Some(g) => {
                            let g = self.print(g, reads)?;
                            quote!(if #g)
                        }
                        None => quote!(),
                    };
                    let b = self.print(&a.body, reads)?;
                    ats.push(quote!(#pt #g => #b,));
                }
                quote!(match #x { #(#ats)* })
            }
            MKind::While(label, c, b) => {
                let c = p(c)?;
                let b = self.print_block(b, reads)?;
                quote!(#label while #c #b)
            }
            MKind::For(label, pt, it, b) => {
                let (pt, it) = (pat::print(pt), p(it)?);
                let b = self.print_block(b, reads)?;
                quote!(#label for #pt in #it #b)
            }
            MKind::Loop(label, b) => {
                let b = self.print_block(b, reads)?;
                quote!(#label loop #b)
            }
            MKind::Break(l, v) => {
                let v = match v {
                    Some(x) => Some(self.print(x, reads)?),
                    None => None,
                };
                quote!(break #l #v)
            }
            MKind::Continue(l) => quote!(continue #l),
            MKind::Return(v) => {
                let v = match v {
                    Some(x) => Some(self.print(x, reads)?),
                    None => None,
                };
                quote!(return #v)
            }
            MKind::Closure(c) => {
                let ps = c.params.iter().map(|(pt, ty)| {
                    let pt = pat::print(pt);
                    match ty {
                        Some(t) => quote!(#pt: #t),
                        None => pt,
                    }
                });
                let ret = c.ret.as_ref().map(|t| quote!(-> #t));
                let mv = c.is_move.then(|| quote!(move));
                let b = self.print(&c.body, reads)?;
                quote!(#mv |#(#ps),*| #ret #b)
            }
            MKind::Tuple(xs) => {
                let xs = xs.iter().map(&mut p).collect::<R<Vec<_>>>()?;
                quote!((#(#xs,)*))
            }
            MKind::Array(xs) => {
                let xs = xs.iter().map(&mut p).collect::<R<Vec<_>>>()?;
                quote!([#(#xs),*])
            }
            MKind::Repeat(x, n) => {
                let x = p(x)?;
                quote!([#x; #n])
            }
            MKind::Range(a, lim, b) => {
                let a = match a {
                    Some(x) => Some(self.print(x, reads)?),
                    None => None,
                };
                let b = match b {
                    Some(x) => Some(self.print(x, reads)?),
                    None => None,
                };
                quote!(#a #lim #b)
            }
            MKind::Struct(s) => {
                let path = &s.path;
                let mut fs = Vec::new();
                for (m, x, _) in &s.fields {
                    let x = self.print(x, reads)?;
                    fs.push(quote!(#m: #x));
                }
                let rest = match &s.rest {
                    Some(r) => {
                        let r = self.print(r, reads)?;
                        quote!(.. #r)
                    }
                    None if s.dot2 => quote!(..),
                    None => quote!(),
                };
                quote!(#path { #(#fs,)* #rest })
            }
            MKind::Try(x) => {
                let x = p(x)?;
                quote!(#x?)
            }
            MKind::Macro(m) => self.print_macro(m, reads)?,
            MKind::Opaque(x) => quote!(#x),
        })
    }

    fn print_macro(&self, m: &Macro, reads: &mut Vec<V>) -> R<TokenStream> {
        Ok(match m {
            Macro::VecList(_, xs) => {
                let xs = xs
                    .iter()
                    .map(|x| self.print(x, reads))
                    .collect::<R<Vec<_>>>()?;
                quote!(::std::vec![#(#xs),*])
            }
            Macro::VecRepeat(_, x, n) => {
                let (x, n) = (self.print(x, reads)?, self.print(n, reads)?);
                quote!(::std::vec![#x; #n])
            }
            Macro::Args(mac, xs) => {
                if crate::codegen::generic::has_inline_capture(xs) {
                    return no("a format string naming a local variable (`{x}`)");
                }
                let xs = xs
                    .iter()
                    .map(|x| self.print(x, reads))
                    .collect::<R<Vec<_>>>()?;
                let path = &mac.path;
                quote!(#path!(#(#xs),*))
            }
            Macro::Opaque(mac) => {
                if mentions_outer_local(mac, self) {
                    return no("a macro whose arguments the macro cannot read");
                }
                quote!(#mac)
            }
        })
    }

    fn print_block(&self, b: &model::Block, reads: &mut Vec<V>) -> R<TokenStream> {
        let mut out = Vec::new();
        let n = b.stmts.len();
        for (i, s) in b.stmts.iter().enumerate() {
            out.push(match s {
                MStmt::Let(l) => {
                    let pt = pat::print(&l.pat);
                    let ty = l.ty.as_ref().map(|t| quote!(: #t));
                    let init = match &l.init {
                        Some(x) => {
                            let x = self.print(x, reads)?;
                            quote!(= #x)
                        }
                        None => quote!(),
                    };
                    let d = match &l.diverge {
                        Some(x) => {
                            let x = self.print(x, reads)?;
                            quote!(else #x)
                        }
                        None => quote!(),
                    };
                    quote!(let #pt #ty #init #d;)
                }
                MStmt::Expr(x, semi) => {
                    let x = self.print(x, reads)?;
                    if *semi || i + 1 < n {
                        quote!(#x;)
                    } else {
                        x
                    }
                }
                MStmt::Item(it) => quote!(#it),
            });
        }
        Ok(quote!({ #(#out)* }))
    }
}

/// Whether a value can be printed in data code.
fn printable(v: &Val) -> bool {
    match v {
        Val::F(_) | Val::D(_) | Val::C(_) | Val::Unit => true,
        Val::Seq(_) => true,
        Val::Tuple(xs) => xs.iter().all(printable),
        Val::Opt(x, _) => printable(x),
        _ => false,
    }
}

/// An unparsed macro mentioning a local the model bound: its tokens cannot be renamed.
fn mentions_outer_local(mac: &syn::Macro, lw: &Lower) -> bool {
    fn scan(ts: TokenStream, names: &[String]) -> bool {
        ts.into_iter().any(|t| match t {
            proc_macro2::TokenTree::Ident(i) => names.contains(&i.to_string()),
            proc_macro2::TokenTree::Group(g) => scan(g.stream(), names),
            _ => false,
        })
    }
    let names: Vec<String> = lw
        .env
        .iter()
        .enumerate()
        .filter(|(_, v)| v.is_some())
        .map(|(id, _)| lw.body.bindings[id].name.to_string())
        .collect();
    scan(mac.tokens.clone(), &names)
}

/// Whether `e` contains a `return`, `?`-free jump out of it: `return` outside closures,
/// `break`/`continue` to a loop outside `e` (`depth`: loops of `e` around the point).
pub fn escapes(e: &MExpr, depth: usize) -> bool {
    let block = |b: &model::Block, d: usize| {
        b.stmts.iter().any(|s| match s {
            MStmt::Let(l) => {
                l.init.as_ref().is_some_and(|x| escapes(x, d))
                    || l.diverge.as_ref().is_some_and(|x| escapes(x, d))
            }
            MStmt::Expr(x, _) => escapes(x, d),
            MStmt::Item(_) => false,
        })
    };
    match &e.kind {
        MKind::Return(_) => true,
        MKind::Break(label, v) => {
            label.is_some() || depth == 0 || v.as_ref().is_some_and(|x| escapes(x, depth))
        }
        MKind::Continue(label) => label.is_some() || depth == 0,
        MKind::Closure(_) => false,
        MKind::While(_, c, b) => escapes(c, depth) || block(b, depth + 1),
        MKind::For(_, _, it, b) => escapes(it, depth) || block(b, depth + 1),
        MKind::Loop(_, b) => block(b, depth + 1),
        MKind::Block(_, label, b) => block(b, depth + usize::from(label.is_some())),
        MKind::If(c, t, els) => {
            escapes(c, depth) || block(t, depth) || els.as_ref().is_some_and(|x| escapes(x, depth))
        }
        MKind::Match(x, arms) => {
            escapes(x, depth)
                || arms.iter().any(|a| {
                    escapes(&a.body, depth) || a.guard.as_ref().is_some_and(|g| escapes(g, depth))
                })
        }
        _ => {
            let mut any = false;
            crate::model::visit::each_child(e, &mut |x| any |= escapes(x, depth));
            any
        }
    }
}

/// Whether a closure body has a `return` of its own (not of a closure inside it).
pub fn escapes_closure(body: &MExpr) -> bool {
    struct R(bool);
    impl crate::model::visit::Visit for R {
        fn visit_expr(&mut self, e: &MExpr) {
            match &e.kind {
                MKind::Return(_) => self.0 = true,
                MKind::Closure(_) => {}
                _ => crate::model::visit::walk_expr(self, e),
            }
        }
    }
    let mut r = R(false);
    crate::model::visit::Visit::visit_expr(&mut r, body);
    r.0
}

/// Whether data code is cheap and has no effect (arithmetic, comparisons, indexing,
/// lengths): the reverse sweep may compute it again instead of saving its value.
pub fn model_pure(e: &MExpr) -> bool {
    let mut pure = true;
    crate::model::visit::each_expr(e, &mut |x| match &x.kind {
        MKind::Lit(_)
        | MKind::Local(..)
        | MKind::Path(_)
        | MKind::Unary(..)
        | MKind::Paren(_)
        | MKind::Cast(..)
        | MKind::Index(..)
        | MKind::Field(..)
        | MKind::Tuple(_)
        | MKind::Reference { .. } => {}
        MKind::Binary(op, ..) if !super::stmt::is_compound(op) => {}
        MKind::MethodCall(m)
            if matches!(
                m.method.to_string().as_str(),
                "len"
                    | "is_empty"
                    | "is_nan"
                    | "is_finite"
                    | "is_infinite"
                    | "min"
                    | "max"
                    | "saturating_sub"
                    | "partial_cmp"
                    | "total_cmp"
                    | "signum"
                    | "abs"
            ) => {}
        _ => pure = false,
    });
    pure
}

impl Lower<'_> {
    /// Whether a local holds a number by value (a float, an integer or a boolean variable).
    fn held_by_value(&self, x: &MExpr) -> bool {
        match &x.peel().kind {
            // `**v` of a `filter` closure's `&&f64`: every `*` goes.
            MKind::Unary(syn::UnOp::Deref(_), y) => self.held_by_value(y),
            MKind::Local(id, _) => match &self.env[*id] {
                Some(Val::F(_) | Val::C(_)) => true,
                Some(Val::D(d)) => self.vars[*d].kind != Kind::Data(DataKind::Other),
                _ => false,
            },
            _ => false,
        }
    }
}

/// A variable standing for the user's local, spanned as the user's token (so rustc's
/// messages about it point there); other tokens as they are.
fn at_user_token(t: TokenStream, span: proc_macro2::Span) -> TokenStream {
    let mut it = t.clone().into_iter();
    match (it.next(), it.next()) {
        (Some(proc_macro2::TokenTree::Ident(i)), None) => {
            let i = crate::util::ident_at(&i, span);
            quote::quote!(#i)
        }
        _ => t,
    }
}

/// The local (or other root) a place expression writes into: `x` of `x[i].f`, `*x`.
fn place_root(e: &MExpr) -> &MExpr {
    match &e.peel().kind {
        MKind::Index(b, _) | MKind::Field(b, _) => place_root(b),
        MKind::Unary(syn::UnOp::Deref(_), b) => place_root(b),
        _ => e.peel(),
    }
}

/// Methods of std's collections and iterators that write through `&mut self`.
fn mutating(name: &str) -> bool {
    name.ends_with("_mut")
        || matches!(
            name,
            "push"
                | "pop"
                | "insert"
                | "remove"
                | "clear"
                | "sort"
                | "sort_by"
                | "sort_by_key"
                | "sort_unstable"
                | "sort_unstable_by"
                | "sort_unstable_by_key"
                | "swap"
                | "reverse"
                | "extend"
                | "extend_from_slice"
                | "truncate"
                | "retain"
                | "dedup"
                | "fill"
                | "next"
                | "next_back"
                | "nth"
                | "drain"
                | "append"
                | "resize"
                | "split_off"
                | "copy_from_slice"
                | "clone_from_slice"
                | "rotate_left"
                | "rotate_right"
                | "push_str"
                | "take"
                | "replace"
                | "get_or_insert"
                | "entry"
        )
}
