//! The forward sweep: the primal on `f64`, with every binding hoisted, overwritten values
//! the reverse sweep reads pushed first, and control decisions pushed.

use super::check::{is_compound, is_err, simple_pat};
use super::Cx;
use crate::activity::Abs;
use crate::model::known::is_real_method;
use crate::model::*;
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::UnOp;

/// What a `for` loop walks.
pub enum Source<'a> {
    /// `a..b`, `a..=b`.
    Range(&'a Expr),
    /// Slices walked together by index: the item for index `k`.
    Slices(Item<'a>),
}

/// The item of a loop over slices, for index `k`.
pub enum Item<'a> {
    /// The index itself (`enumerate`).
    Index,
    /// `s[k]`.
    Elem(&'a Expr),
    /// A pair (`enumerate`, `zip`).
    Pair(Box<Item<'a>>, Box<Item<'a>>),
}

impl<'a> Item<'a> {
    /// The slices walked.
    pub fn seqs(&self, out: &mut Vec<&'a Expr>) {
        match self {
            Item::Index => {}
            Item::Elem(s) => out.push(s),
            Item::Pair(a, b) => {
                a.seqs(out);
                b.seqs(out);
            }
        }
    }
}

/// What `it` walks, if the adjoint code can walk it backwards.
pub fn loop_source(it: &Expr) -> Option<Source<'_>> {
    match &it.peel().kind {
        Kind::Range(Some(_), _, Some(_)) => Some(Source::Range(it.peel())),
        _ => item(it).map(Source::Slices),
    }
}

fn item(it: &Expr) -> Option<Item<'_>> {
    let e = it.peel();
    match &e.kind {
        Kind::Local(..) => Some(Item::Elem(e)),
        Kind::Reference { expr, .. } if matches!(expr.peel().kind, Kind::Local(..)) => {
            Some(Item::Elem(expr.peel()))
        }
        Kind::MethodCall(m) => match m.method.to_string().as_str() {
            "iter" | "copied" | "cloned" | "into_iter" if m.args.is_empty() => item(&m.receiver),
            "enumerate" if m.args.is_empty() => Some(Item::Pair(
                Box::new(Item::Index),
                Box::new(item(&m.receiver)?),
            )),
            "zip" if m.args.len() == 1 => Some(Item::Pair(
                Box::new(item(&m.receiver)?),
                Box::new(item(&m.args[0])?),
            )),
            _ => None,
        },
        _ => None,
    }
}

/// The forward sweep of a block.
pub fn block(cx: &Cx, b: &Block) -> TokenStream {
    Fwd::new(cx).block(b)
}

pub struct Fwd<'c, 'a> {
    pub cx: &'c Cx<'a>,
    /// Loops around the statement being printed.
    pub depth: usize,
}

impl<'c, 'a> Fwd<'c, 'a> {
    pub fn new(cx: &'c Cx<'a>) -> Self {
        Fwd { cx, depth: 0 }
    }

    /// Whether an assignment to binding `id` saves the old value: the reverse sweep reads
    /// it, and there is an old value (not the first and only `let` outside loops).
    pub fn saves(&self, id: BindId, at_let: bool) -> bool {
        let cx = self.cx;
        let first_and_only = at_let && self.depth == 0 && !cx.assigned.contains(&id);
        let recomputed = at_let && cx.plan.recompute.contains(&id);
        cx.tbr.contains(&id) && !first_and_only && !recomputed
    }

    fn block(&mut self, b: &Block) -> TokenStream {
        let stmts = b.stmts.iter().map(|s| self.stmt(s));
        quote!({ #(#stmts)* })
    }

    fn stmt(&mut self, s: &Stmt) -> TokenStream {
        match s {
            Stmt::Let(l) => self.let_stmt(l),
            Stmt::Item(i) => quote!(#i),
            Stmt::Expr(e, _) => self.expr_stmt(e),
        }
    }

    /// `push(old)` before an assignment to binding `id`, if the reverse sweep needs it.
    fn save(&self, id: BindId, at_let: bool) -> TokenStream {
        let cx = self.cx;
        if !self.saves(id, at_let) {
            return TokenStream::new();
        }
        let n = cx.name(id);
        match cx.abs(id).deref() {
            Abs::Float(_) => quote!(__fz_st.push(#n);),
            Abs::Int | Abs::Bool => quote!(__fz_st.push_ctrl(#n as i64);),
            // Arrays: elements are saved where they are written.
            _ => TokenStream::new(),
        }
    }

    fn let_stmt(&mut self, l: &Let) -> TokenStream {
        let Some(init) = &l.init else {
            return TokenStream::new();
        };
        let ids = simple_pat(&l.pat).expect("checked");
        let saves: Vec<TokenStream> = ids.iter().map(|&id| self.save(id, true)).collect();
        let names: Vec<_> = ids.iter().map(|&id| self.cx.name(id)).collect();
        let v = match (&init.peel().kind, self.cx.abs(ids[0])) {
            (Kind::Local(..), Abs::Seq(_)) => {
                let x = self.expr(init);
                quote!(::core::clone::Clone::clone(&#x))
            }
            _ => self.expr(init),
        };
        if names.len() == 1 {
            let n = &names[0];
            quote!(#(#saves)* #n = #v;)
        } else {
            quote!(#(#saves)* (#(#names),*) = #v;)
        }
    }

    /// Save what an assignment to `place` overwrites.
    fn save_place(&self, place: &Expr) -> TokenStream {
        let Some(id) = super::reverse::root(place) else {
            return TokenStream::new();
        };
        match &place.peel().kind {
            Kind::Local(..) => self.save(id, false),
            _ if self.cx.tbr.contains(&id) => {
                let p = self.place(place);
                match self.cx.abs(id).deref() {
                    Abs::Seq(e) if matches!(**e, Abs::Float(_)) => quote!(__fz_st.push(#p);),
                    _ => quote!(__fz_st.push_ctrl(#p as i64);),
                }
            }
            _ => TokenStream::new(),
        }
    }

    pub fn place(&self, p: &Expr) -> TokenStream {
        match &p.kind {
            Kind::Unary(UnOp::Deref(_), x) => self.place(x),
            Kind::Paren(x) => self.place(x),
            Kind::Index(b, i) => {
                let b = self.place(b);
                let i = self.expr_ro(i);
                quote!(#b[#i])
            }
            _ => self.expr_ro(p),
        }
    }

    fn expr_stmt(&mut self, e: &Expr) -> TokenStream {
        match &e.kind {
            Kind::Assign(place, v) => {
                let save = self.save_place(place);
                let p = self.place(place);
                let v = self.expr(v);
                quote!(#save #p = #v;)
            }
            Kind::Binary(op, place, v) if is_compound(op) => {
                let save = if self.cx.plan.free.contains(&e.id) {
                    TokenStream::new()
                } else {
                    self.save_place(place)
                };
                let p = self.place(place);
                let v = self.expr(v);
                // The right side first, as f64 does (and the borrow checker wants).
                quote!(#save { let __fz_rhs = #v; #p #op __fz_rhs; })
            }
            Kind::If(c, then, els) => {
                let c = self.expr(c);
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
                // Decisions, bounds and counts are pushed after what they govern, so the
                // reverse sweep pops them first.
                quote! {{
                    let __fz_c: bool = #c;
                    if __fz_c #t else #els
                    __fz_st.push_ctrl(__fz_c as i64);
                }}
            }
            Kind::For(_, p, it, body) => self.for_loop(p, it, body),
            Kind::While(_, c, body) => {
                let c = self.expr(c);
                self.depth += 1;
                let b = self.block(body);
                self.depth -= 1;
                quote! {{
                    let mut __fz_n: i64 = 0;
                    while #c {
                        #b
                        __fz_n += 1;
                    }
                    __fz_st.push_ctrl(__fz_n);
                }}
            }
            Kind::Block(_, _, b) => self.block(b),
            Kind::Paren(x) => self.expr_stmt(x),
            Kind::Return(Some(v)) if is_err(v) => {
                let v = self.expr(v);
                quote!(return #v;)
            }
            Kind::Return(Some(v)) => {
                let v = self.expr(v);
                quote!(__fz_ret = #v;)
            }
            _ => {
                let x = self.expr(e);
                quote!(#x;)
            }
        }
    }

    fn for_loop(&mut self, p: &Pat, it: &Expr, body: &Block) -> TokenStream {
        self.depth += 1;
        let b = self.block(body);
        self.depth -= 1;
        let k = format_ident!("__fz_k");
        match loop_source(it).expect("checked") {
            Source::Range(r) => {
                let Kind::Range(Some(a), limits, Some(z)) = &r.kind else {
                    unreachable!("a range with both ends")
                };
                let (a, z) = (self.expr(a), self.expr(z));
                let bind = self.bind_index(p);
                quote! {{
                    let (__fz_s, __fz_e) = (#a, #z);
                    for #k in __fz_s #limits __fz_e {
                        #bind
                        #b
                    }
                    __fz_st.push_ctrl(__fz_s as i64);
                    __fz_st.push_ctrl(__fz_e as i64);
                }}
            }
            Source::Slices(item) => {
                let n = self.len(&item);
                let bind = self.bind_item(p, &item);
                quote! {{
                    let __fz_n: usize = #n;
                    for #k in 0..__fz_n {
                        #bind
                        #b
                    }
                    __fz_st.push_ctrl(__fz_n as i64);
                }}
            }
        }
    }

    /// The number of items of a loop over slices: the shortest slice.
    pub fn len(&self, item: &Item) -> TokenStream {
        let mut seqs = Vec::new();
        item.seqs(&mut seqs);
        let lens: Vec<TokenStream> = seqs
            .iter()
            .map(|s| {
                let s = self.expr_ro(s);
                quote!(#s.len())
            })
            .collect();
        lens.into_iter()
            .reduce(|a, b| quote!(::core::cmp::min(#a, #b)))
            .expect("at least one slice")
    }

    /// The lets of a loop body computed again at the start of its reverse.
    pub fn recomputations(&self, body: &Block) -> TokenStream {
        let lets = body.stmts.iter().filter_map(|s| match s {
            Stmt::Let(l) => {
                let ids = simple_pat(&l.pat)?;
                let init = l.init.as_ref()?;
                match ids.as_slice() {
                    [id] if self.cx.plan.recompute.contains(id) => {
                        let (n, v) = (self.cx.name(*id), self.expr_ro(init));
                        Some(quote!(#n = #v;))
                    }
                    _ => None,
                }
            }
            _ => None,
        });
        quote!(#(#lets)*)
    }

    /// `i = __fz_k;` for a range loop's pattern.
    pub fn bind_index(&self, p: &Pat) -> TokenStream {
        match super::check::loop_bindings(p).expect("checked").as_slice() {
            [id] => {
                let n = self.cx.name(*id);
                quote!(#n = __fz_k;)
            }
            _ => TokenStream::new(),
        }
    }

    /// The pattern's bindings set from the item for `__fz_k`.
    pub fn bind_item(&self, p: &Pat, item: &Item) -> TokenStream {
        match (p, item) {
            (Pat::Ref(_, inner) | Pat::Paren(inner) | Pat::Type(inner, _), _) => {
                self.bind_item(inner, item)
            }
            (Pat::Tuple(ps), Item::Pair(a, b)) if ps.len() == 2 => {
                let a = self.bind_item(&ps[0], a);
                let b = self.bind_item(&ps[1], b);
                quote!(#a #b)
            }
            (Pat::Ident { id, .. }, Item::Index) => {
                let n = self.cx.name(*id);
                quote!(#n = __fz_k;)
            }
            (Pat::Ident { id, .. }, Item::Elem(s)) => {
                let n = self.cx.name(*id);
                let s = self.expr_ro(s);
                quote!(#n = #s[__fz_k];)
            }
            _ => TokenStream::new(),
        }
    }

    fn expr(&self, e: &Expr) -> TokenStream {
        self.expr_ro(e)
    }

    /// An expression as `f64` code.
    pub fn expr_ro(&self, e: &Expr) -> TokenStream {
        let sp = e.span;
        match &e.kind {
            Kind::Lit(l) => quote!(#l),
            Kind::Local(id, _) => {
                let n = self.cx.name(*id);
                quote_spanned!(sp=> #n)
            }
            Kind::Path(p) => quote!(#p),
            Kind::Unary(UnOp::Deref(_), x) if matches!(&x.peel().kind, Kind::Local(id, _) if self.cx.hoisted[*id]) => {
                self.expr_ro(x)
            }
            Kind::Unary(op, x) => {
                let x = self.expr_ro(x);
                quote!(#op #x)
            }
            Kind::Binary(op, l, r) => {
                let (l, r) = (self.expr_ro(l), self.expr_ro(r));
                quote!(#l #op #r)
            }
            Kind::Paren(x) => {
                let x = self.expr_ro(x);
                quote!((#x))
            }
            Kind::Try(x) => {
                let x = self.expr_ro(x);
                quote!(#x?)
            }
            Kind::Index(b, i) => {
                let (b, i) = (self.expr_ro(b), self.expr_ro(i));
                quote!(#b[#i])
            }
            Kind::Field(b, m) => {
                let b = self.expr_ro(b);
                quote!(#b.#m)
            }
            Kind::Reference { mutable, expr } => {
                let x = self.expr_ro(expr);
                let m = mutable.then(|| quote!(mut));
                quote!(& #m #x)
            }
            Kind::Cast(x, t) => {
                let x = self.expr_ro(x);
                quote!(#x as #t)
            }
            Kind::Range(a, limits, b) => {
                let a = a.as_ref().map(|x| self.expr_ro(x));
                let b = b.as_ref().map(|x| self.expr_ro(x));
                quote!(#a #limits #b)
            }
            Kind::MethodCall(m) => self.method(e, m),
            Kind::Call(f, args) => {
                let f = self.expr_ro(f);
                let args = args.iter().map(|a| self.expr_ro(a));
                quote!(#f(#(#args),*))
            }
            Kind::Tuple(xs) => {
                let xs: Vec<_> = xs.iter().map(|x| self.expr_ro(x)).collect();
                if xs.len() == 1 {
                    quote!((#(#xs),*,))
                } else {
                    quote!((#(#xs),*))
                }
            }
            Kind::Array(xs) => {
                let xs = xs.iter().map(|x| self.expr_ro(x));
                quote!([#(#xs),*])
            }
            Kind::Repeat(x, n) => {
                let x = self.expr_ro(x);
                quote!([#x; #n])
            }
            Kind::Macro(Macro::VecList(m, xs)) => {
                let xs = xs.iter().map(|x| self.expr_ro(x));
                let p = &m.path;
                quote!(#p![#(#xs),*])
            }
            Kind::Macro(Macro::VecRepeat(m, x, n)) => {
                let (x, n) = (self.expr_ro(x), self.expr_ro(n));
                let p = &m.path;
                quote!(#p![#x; #n])
            }
            Kind::Macro(Macro::Args(m, xs)) => {
                let xs = xs.iter().map(|x| self.expr_ro(x));
                let p = &m.path;
                quote!(#p!(#(#xs),*))
            }
            Kind::If(c, t, els) => {
                // A data `if` expression.
                let c = self.expr_ro(c);
                let t = self.value_block(t);
                let els = els.as_ref().map(|x| {
                    let x = self.expr_ro(x);
                    quote!(else #x)
                });
                quote!(if #c #t #els)
            }
            Kind::Block(_, _, b) => self.value_block(b),
            _ => {
                // Checked: nothing else reaches here.
                quote!(::core::unreachable!())
            }
        }
    }

    /// A data block used as a value (its statements are data too).
    fn value_block(&self, b: &Block) -> TokenStream {
        let mut f = Fwd {
            cx: self.cx,
            depth: self.depth,
        };
        let n = b.stmts.len();
        let stmts = b.stmts.iter().enumerate().map(|(i, s)| match s {
            Stmt::Expr(e, false) if i + 1 == n => f.expr_ro(e),
            s => f.stmt(s),
        });
        quote!({ #(#stmts)* })
    }

    fn method(&self, e: &Expr, m: &MethodCall) -> TokenStream {
        let name = m.method.to_string();
        let recv = self.expr_ro(&m.receiver);
        let args: Vec<_> = m.args.iter().map(|a| self.expr_ro(a)).collect();
        let active =
            self.cx.act.of_expr(e.id).active() || self.cx.act.of_expr(m.receiver.id).active();
        if active && (is_real_method(&name) || name == "val") {
            let method = &m.method;
            return quote!(<f64 as ::fazang::Real>::#method(#recv #(, #args)*));
        }
        let (method, tf) = (&m.method, &m.turbofish);
        quote!(#recv.#method #tf(#(#args),*))
    }
}
