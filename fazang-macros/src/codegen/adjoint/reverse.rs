//! The reverse sweep: the statements backwards. Each pops what its forward counterpart
//! pushed, restoring the variables it overwrote, then propagates its target's adjoint
//! into its right-hand side ([`super::deriv`]).

use super::check::{is_compound, is_err, simple_pat};
use super::deriv::D;
use super::forward::{loop_source, Fwd, Item, Source};
use super::Cx;
use crate::activity::Abs;
use crate::model::*;
use proc_macro2::TokenStream;
use quote::quote;
use syn::{BinOp, UnOp};

/// The local variable a place is rooted at.
pub fn root(e: &Expr) -> Option<BindId> {
    match &e.kind {
        Kind::Local(id, _) => Some(*id),
        Kind::Index(b, _) | Kind::Paren(b) => root(b),
        Kind::Unary(UnOp::Deref(_), b) => root(b),
        Kind::Reference { expr, .. } => root(expr),
        _ => None,
    }
}

/// The reverse sweep of a block.
pub fn block(cx: &Cx, b: &Block) -> TokenStream {
    let mut r = Rev {
        f: Fwd::new(cx),
        cx,
    };
    r.block(b)
}

struct Rev<'c, 'a> {
    f: Fwd<'c, 'a>,
    cx: &'c Cx<'a>,
}

impl Rev<'_, '_> {
    fn block(&mut self, b: &Block) -> TokenStream {
        let stmts: Vec<TokenStream> = b.stmts.iter().rev().map(|s| self.stmt(s)).collect();
        quote!({ #(#stmts)* })
    }

    fn stmt(&mut self, s: &Stmt) -> TokenStream {
        match s {
            Stmt::Let(l) => self.let_stmt(l),
            Stmt::Item(_) => TokenStream::new(),
            Stmt::Expr(e, _) => self.expr_stmt(e),
        }
    }

    /// The pop matching [`Fwd::save`].
    fn restore(&self, id: BindId, at_let: bool) -> TokenStream {
        if !self.f.saves(id, at_let) {
            return TokenStream::new();
        }
        let n = self.cx.name(id);
        match self.cx.abs(id).deref() {
            Abs::Float(_) => quote!(#n = __fz_st.pop();),
            Abs::Bool => quote!(#n = __fz_st.pop_ctrl() != 0;),
            Abs::Int => quote!(#n = __fz_st.pop_ctrl() as _;),
            _ => TokenStream::new(),
        }
    }

    fn restore_place(&self, place: &Expr) -> TokenStream {
        let Some(id) = root(place) else {
            return TokenStream::new();
        };
        match &place.peel().kind {
            Kind::Local(..) => self.restore(id, false),
            _ if self.cx.tbr.contains(&id) => {
                let p = self.f.place(place);
                match self.cx.abs(id).deref() {
                    Abs::Seq(e) if matches!(**e, Abs::Float(_)) => quote!(#p = __fz_st.pop();),
                    _ => quote!(#p = __fz_st.pop_ctrl() as _;),
                }
            }
            _ => TokenStream::new(),
        }
    }

    /// Whether a place holds an active float (it has an adjoint).
    fn has_adjoint(&self, place: &Expr) -> bool {
        root(place).is_some_and(|id| {
            let a = self.cx.abs(id);
            a.active() && matches!(a.deref(), Abs::Float(true) | Abs::Seq(_))
        })
    }

    /// The adjoint of a place (`__fz_a_x_3`, `__fz_a_v_2[i]`).
    fn adj_place(&self, place: &Expr) -> TokenStream {
        let id = root(place).expect("a variable or element");
        let a = self.cx.adj(id);
        let mut idx = Vec::new();
        let mut cur = place.peel();
        while let Kind::Index(b, i) = &cur.kind {
            idx.push(self.f.expr_ro(i));
            cur = b.peel();
        }
        idx.reverse();
        quote!(#a #([#idx])*)
    }

    fn let_stmt(&mut self, l: &Let) -> TokenStream {
        let Some(init) = &l.init else {
            return TokenStream::new();
        };
        let ids = simple_pat(&l.pat).expect("checked");
        if let (Abs::Seq(_), [id]) = (self.cx.abs(ids[0]), ids.as_slice()) {
            return self.seq_init(*id, init);
        }
        let restores: Vec<TokenStream> =
            ids.iter().rev().map(|&id| self.restore(id, true)).collect();
        let props: Vec<TokenStream> = match (&init.peel().kind, ids.len()) {
            (_, 1) => vec![self.assign(ids[0], init)],
            (Kind::Tuple(xs), _) => ids
                .iter()
                .zip(xs)
                .map(|(&id, x)| self.assign(id, x))
                .collect(),
            _ => Vec::new(),
        };
        quote!(#(#restores)* #(#props)*)
    }

    /// `x = e` reversed for an active scalar `x`: read and clear its adjoint, propagate.
    fn assign(&self, id: BindId, e: &Expr) -> TokenStream {
        let a = self.cx.abs(id);
        if !(a.active() && matches!(a.deref(), Abs::Float(true))) {
            return TokenStream::new();
        }
        let adj = self.cx.adj(id);
        let t = self.cx.tmp("a");
        let d = D::new(&self.f).run(e, quote!(#t));
        quote!({ let #t = #adj; #adj = 0.0; #d })
    }

    /// The adjoint of a local array or vector flows back into what it was built from.
    fn seq_init(&self, id: BindId, init: &Expr) -> TokenStream {
        let adj = self.cx.adj(id);
        if !self.cx.abs(id).active() {
            return TokenStream::new();
        }
        match &init.peel().kind {
            Kind::Macro(Macro::VecList(_, xs)) | Kind::Array(xs) => {
                let parts = xs
                    .iter()
                    .enumerate()
                    .map(|(i, x)| D::new(&self.f).run(x, quote!(#adj[#i])));
                quote!(#(#parts)*)
            }
            Kind::Local(..) => self.copied_from(init, &adj),
            Kind::MethodCall(m) => self.copied_from(&m.receiver, &adj),
            _ => TokenStream::new(),
        }
    }

    fn copied_from(&self, src: &Expr, adj: &syn::Ident) -> TokenStream {
        match root(src) {
            Some(s) if self.cx.abs(s).active() => {
                let sadj = self.cx.adj(s);
                quote!(::fazang::__private::accumulate(&mut #sadj, &#adj);)
            }
            _ => TokenStream::new(),
        }
    }

    fn expr_stmt(&mut self, e: &Expr) -> TokenStream {
        match &e.kind {
            Kind::Assign(place, v) => {
                let restore = self.restore_place(place);
                if !self.has_adjoint(place) {
                    return restore;
                }
                let adj = self.adj_place(place);
                let t = self.cx.tmp("a");
                let d = D::new(&self.f).run(v, quote!(#t));
                quote!({ let #t = #adj; #adj = 0.0; #restore #d })
            }
            Kind::Binary(op, place, v) if is_compound(op) => {
                self.compound(op, place, v, self.cx.plan.free.contains(&e.id))
            }
            Kind::If(_, then, els) => {
                let t = self.block(then);
                let els = match els {
                    Some(x) => match &x.kind {
                        Kind::Block(_, _, b) => self.block(b),
                        _ => {
                            let s = self.expr_stmt(x);
                            quote!({ #s })
                        }
                    },
                    None => quote!({}),
                };
                quote!(if __fz_st.pop_ctrl() != 0 #t else #els)
            }
            Kind::For(_, p, it, body) => self.for_loop(p, it, body),
            Kind::While(_, _, body) => {
                self.f.depth += 1;
                let b = self.block(body);
                let again = self.f.recomputations(body);
                self.f.depth -= 1;
                quote! {{
                    let __fz_n = __fz_st.pop_ctrl();
                    for _ in 0..__fz_n {
                        #again
                        #b
                    }
                }}
            }
            Kind::Block(_, _, b) => self.block(b),
            Kind::Paren(x) => self.expr_stmt(x),
            Kind::Return(Some(v)) if !is_err(v) => {
                let t = self.cx.tmp("a");
                let d = D::new(&self.f).run(v, quote!(#t));
                quote!({ let #t = __fz_a_ret; __fz_a_ret = 0.0; #d })
            }
            _ => TokenStream::new(),
        }
    }

    fn compound(&self, op: &BinOp, place: &Expr, v: &Expr, free: bool) -> TokenStream {
        let restore = if free {
            TokenStream::new()
        } else {
            self.restore_place(place)
        };
        if !self.has_adjoint(place) {
            return restore;
        }
        let adj = self.adj_place(place);
        let t = self.cx.tmp("a");
        let old = self.f.place(place);
        let d = match op {
            BinOp::AddAssign(_) => D::new(&self.f).run(v, quote!(#t)),
            BinOp::SubAssign(_) => D::new(&self.f).run(v, quote!(-#t)),
            BinOp::MulAssign(_) => {
                let vv = self.f.expr_ro(v);
                let d = D::new(&self.f).run(v, quote!(#t * #old));
                quote!({ let __fz_e: f64 = #vv; #adj = #t * __fz_e; } #d)
            }
            BinOp::DivAssign(_) => {
                let vv = self.f.expr_ro(v);
                let d = D::new(&self.f).run(v, quote!(-#t * (#old / __fz_e) / __fz_e));
                return quote! {{
                    let #t = #adj;
                    #restore
                    let __fz_e: f64 = #vv;
                    #adj = #t / __fz_e;
                    #d
                }};
            }
            _ => quote!(::core::unreachable!();),
        };
        quote!({ let #t = #adj; #restore #d })
    }

    fn for_loop(&mut self, p: &Pat, it: &Expr, body: &Block) -> TokenStream {
        self.f.depth += 1;
        let b = self.block(body);
        let again = self.f.recomputations(body);
        self.f.depth -= 1;
        match loop_source(it).expect("checked") {
            Source::Range(r) => {
                let Kind::Range(_, limits, _) = &r.kind else {
                    unreachable!("a range")
                };
                let bind = self.f.bind_index(p);
                let ty = if bind.is_empty() {
                    quote!(i64)
                } else {
                    quote!(_)
                };
                quote! {{
                    let __fz_e = __fz_st.pop_ctrl();
                    let __fz_s = __fz_st.pop_ctrl();
                    for __fz_k in ((__fz_s as #ty) #limits (__fz_e as #ty)).rev() {
                        #bind
                        #again
                        #b
                    }
                }}
            }
            Source::Slices(item) => {
                let bind = self.f.bind_item(p, &item);
                let back = self.item_back(p, &item);
                quote! {{
                    let __fz_n = __fz_st.pop_ctrl() as usize;
                    for __fz_k in (0..__fz_n).rev() {
                        #bind
                        #again
                        #b
                        #back
                    }
                }}
            }
        }
    }

    /// The reverse of `v = s[k]` for each active item binding: `adj(s)[k] += adj(v)`.
    fn item_back(&self, p: &Pat, item: &Item) -> TokenStream {
        match (p, item) {
            (Pat::Ref(_, inner) | Pat::Paren(inner) | Pat::Type(inner, _), _) => {
                self.item_back(inner, item)
            }
            (Pat::Tuple(ps), Item::Pair(a, b)) if ps.len() == 2 => {
                let a = self.item_back(&ps[0], a);
                let b = self.item_back(&ps[1], b);
                quote!(#a #b)
            }
            (Pat::Ident { id, .. }, Item::Elem(s)) => {
                let a = self.cx.abs(*id);
                let src = root(s);
                match src {
                    Some(sid) if a.active() && self.cx.abs(sid).active() => {
                        let (va, sa) = (self.cx.adj(*id), self.cx.adj(sid));
                        quote!(#sa[__fz_k] += #va; #va = 0.0;)
                    }
                    _ => TokenStream::new(),
                }
            }
            _ => TokenStream::new(),
        }
    }
}
