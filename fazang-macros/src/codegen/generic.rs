//! The body generic over the scalar `S`, printed from the model.
//!
//! Passive code is printed as written (plain `f64`). Types written for active values get
//! `S` ([`super::ty`]). Where a passive value flows into an active place it is converted
//! there ([`Gen::coerce`]): `::fazang::__private::lit::<S>(..)` for a float,
//! `promote::<S, _>(..)` for arrays and vectors, the conversion pushed into the branches
//! of an `if`/`match`, the tails of blocks and the elements of literals so that the
//! code stays as written. With `S = f64` every conversion is the identity, so the primal
//! is the original function.

use super::{pat, ty};
use crate::activity::{Abs, Activity, Callees};
use crate::model::*;
use crate::util::Ctxt;
use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::{Ident, UnOp};

pub struct Gen<'a> {
    body: &'a Body,
    callees: &'a Callees,
    act: &'a Activity,
    s: &'a Ident,
    cx: &'a mut Ctxt,
    /// What `return` returns to: the function, then each closure being printed.
    rets: Vec<Abs>,
    /// Loops being printed: label and the loop expression (the target of `break`).
    loops: Vec<(Option<String>, ExprId)>,
    /// The span of the expression being printed: the tokens the printer adds take it, so
    /// that rustc's errors point at the user's code, not at the attribute.
    sp: Span,
    /// Whether data meets active values in a [`mixed`] operation.
    mixed_used: bool,
}

/// The function body, generic over `s`; errors (active values cast with `as f64`) go to
/// `cx`. `callees` are the functions of the same module or impl block.
pub fn body(
    body: &Body,
    act: &Activity,
    callees: &Callees,
    s: &Ident,
    cx: &mut Ctxt,
) -> TokenStream {
    let mut g = Gen {
        body,
        callees,
        act,
        s,
        cx,
        rets: vec![act.ret.clone()],
        loops: Vec::new(),
        sp: body.block.span,
        mixed_used: false,
    };
    let ret = act.ret.clone();
    let out = g.block(&body.block, Some(&ret));
    mixed::with_imports(out, g.mixed_used)
}

impl Gen<'_> {
    fn abs(&self, e: &Expr) -> &Abs {
        self.act.of_expr(e.id)
    }

    /// `{ stmts }`, the tail converted to `tail` if given.
    fn block(&mut self, b: &Block, tail: Option<&Abs>) -> TokenStream {
        let n = b.stmts.len();
        let stmts: Vec<TokenStream> = b
            .stmts
            .iter()
            .enumerate()
            .map(|(i, s)| self.stmt(s, if i + 1 == n { tail } else { None }))
            .collect();
        quote_spanned!(b.span=> { #(#stmts)* })
    }

    fn stmt(&mut self, s: &Stmt, tail: Option<&Abs>) -> TokenStream {
        match s {
            Stmt::Let(l) => self.let_stmt(l),
            Stmt::Expr(e, true) => {
                let e = self.expr(e);
                quote_spanned!(self.sp=> #e;)
            }
            Stmt::Expr(e, false) => match tail {
                Some(t) => self.coerce(e, t),
                None => self.expr(e),
            },
            Stmt::Item(i) => quote_spanned!(self.sp=> #i),
        }
    }

    fn let_stmt(&mut self, l: &Let) -> TokenStream {
        let target = pat::abs(&l.pat, self.act);
        let attrs = &l.attrs;
        let p = pat::print(&l.pat);
        let ty = l.ty.as_ref().map(|t| {
            let t = ty::rewrite(t, &target, self.s);
            quote_spanned!(self.sp=> : #t)
        });
        let init = l.init.as_ref().map(|e| {
            let e = self.coerce(e, &target);
            quote_spanned!(self.sp=> = #e)
        });
        let diverge = l.diverge.as_ref().map(|d| {
            let d = self.expr(d);
            quote_spanned!(self.sp=> else #d)
        });
        quote_spanned!(l.span=> #(#attrs)* let #p #ty #init #diverge;)
    }

    /// `e` where a value of abstract value `t` is expected: converted if `e` is passive
    /// and `t` active.
    pub fn coerce(&mut self, e: &Expr, t: &Abs) -> TokenStream {
        let saved = std::mem::replace(&mut self.sp, e.span);
        let out = self.coerce_here(e, t);
        self.sp = saved;
        out
    }

    fn coerce_here(&mut self, e: &Expr, t: &Abs) -> TokenStream {
        let src = self.abs(e).clone();
        if !needs_conversion(&src, t) {
            return self.expr(e);
        }
        let attrs = &e.attrs;
        match &e.kind {
            Kind::Paren(x) => {
                let x = self.coerce(x, t);
                quote_spanned!(self.sp=> #(#attrs)* (#x))
            }
            Kind::Block(BlockKind::Plain, None, b) => {
                let b = self.block(b, Some(t));
                quote_spanned!(self.sp=> #(#attrs)* #b)
            }
            Kind::If(c, then, els) => self.if_expr(c, then, els.as_deref(), t),
            Kind::Match(x, arms) => self.match_expr(x, arms, t),
            Kind::Array(xs) => {
                let xs = self.coerce_all(xs, &t.elem());
                quote_spanned!(self.sp=> #(#attrs)* [#(#xs),*])
            }
            Kind::Repeat(x, n) => {
                let x = self.coerce(x, &t.elem());
                quote_spanned!(self.sp=> #(#attrs)* [#x; #n])
            }
            Kind::Macro(Macro::VecList(m, xs)) => {
                let xs = self.coerce_all(xs, &t.elem());
                let path = &m.path;
                quote_spanned!(self.sp=> #path![#(#xs),*])
            }
            // `std::iter::once(x)` where the items are active: `x` converted.
            Kind::Call(f, args)
                if args.len() == 1
                    && matches!(&f.peel().kind, Kind::Path(p)
                        if p.path.segments.last().is_some_and(|s| s.ident == "once")) =>
            {
                let f = self.expr(f);
                let x = self.coerce(&args[0], &t.item());
                quote_spanned!(self.sp=> #(#attrs)* #f(#x))
            }
            Kind::Macro(Macro::VecRepeat(m, x, n)) => {
                let x = self.coerce(x, &t.elem());
                let n = self.expr(n);
                let path = &m.path;
                quote_spanned!(self.sp=> #path![#x; #n])
            }
            Kind::Tuple(xs) => match t {
                Abs::Tuple(ts) if ts.len() == xs.len() => {
                    let xs: Vec<_> = xs.iter().zip(ts).map(|(x, t)| self.coerce(x, t)).collect();
                    tuple(attrs, &xs)
                }
                _ => self.expr(e),
            },
            Kind::Call(f, args) if args.len() == 1 && is_ctor(f, &["Some", "Ok"]) => {
                let f = self.expr(f);
                let a = self.coerce(&args[0], t);
                quote_spanned!(self.sp=> #(#attrs)* #f(#a))
            }
            _ => self.convert(e, t),
        }
    }

    fn coerce_all(&mut self, xs: &[Expr], t: &Abs) -> Vec<TokenStream> {
        xs.iter().map(|x| self.coerce(x, t)).collect()
    }

    /// The conversion call itself.
    fn convert(&mut self, e: &Expr, t: &Abs) -> TokenStream {
        let s = self.s;
        let x = self.expr(e);
        let span = e.span;
        match (self.abs(e).deref(), t.deref()) {
            _ if matches!(t, Abs::Ref(_)) => {
                // Data passed where a function of the module takes an active slice.
                quote_spanned!(span=> &::fazang::__private::promote::<#s, _>(#x))
            }
            (Abs::Float(_) | Abs::Unknown(_), Abs::Float(true))
            | (Abs::Float(_), Abs::Unknown(true)) => {
                quote_spanned!(span=> ::fazang::__private::lit::<#s>(#x))
            }
            (_, Abs::Unknown(true)) => quote_spanned!(span=> ::fazang::__private::pass(#x)),
            _ => quote_spanned!(span=> ::fazang::__private::promote::<#s, _>(#x)),
        }
    }

    fn if_expr(&mut self, c: &Expr, then: &Block, els: Option<&Expr>, t: &Abs) -> TokenStream {
        let c = self.expr(c);
        let then = self.block(then, Some(t));
        let els = els.map(|x| {
            let x = self.coerce(x, t);
            quote_spanned!(self.sp=> else #x)
        });
        quote_spanned!(self.sp=> if #c #then #els)
    }

    fn match_expr(&mut self, x: &Expr, arms: &[Arm], t: &Abs) -> TokenStream {
        let x = self.expr(x);
        let arms: Vec<TokenStream> = arms
            .iter()
            .map(|a| {
                let attrs = &a.attrs;
                let p = pat::print(&a.pat);
                let guard = a.guard.as_ref().map(|g| {
                    let g = self.expr(g);
                    quote_spanned!(self.sp=> if #g)
                });
                let body = self.coerce(&a.body, t);
                quote_spanned!(self.sp=> #(#attrs)* #p #guard => #body,)
            })
            .collect();
        quote_spanned!(self.sp=> match #x { #(#arms)* })
    }

    /// An expression printed as written, with the conversions inside it.
    pub fn expr(&mut self, e: &Expr) -> TokenStream {
        let saved = std::mem::replace(&mut self.sp, e.span);
        let attrs = &e.attrs;
        let body = self.expr_kind(e);
        let out = quote_spanned!(self.sp=> #(#attrs)* #body);
        self.sp = saved;
        out
    }

    fn expr_kind(&mut self, e: &Expr) -> TokenStream {
        let own = self.abs(e).clone();
        match &e.kind {
            Kind::Lit(l) => quote_spanned!(self.sp=> #l),
            Kind::Local(_, ident) => quote_spanned!(self.sp=> #ident),
            Kind::Path(p) => quote_spanned!(self.sp=> #p),
            Kind::Unary(op, x) => self.unary(op, x),
            Kind::Binary(op, l, r) => {
                if let Some(t) = self.mixed_binary(op, l, r) {
                    return t;
                }
                let element = is_compound(op)
                    && self.abs(l).active()
                    && !matches!(l.peel().kind, Kind::Local(..));
                let l = self.expr(l);
                let r = self.expr(r);
                if element {
                    // `z[i] -= l[i][p] * z[p]`: on `f64` the right side is evaluated
                    // first; on `S` (an operator call) the place would be borrowed first
                    // and `z[p]` refused. Evaluate the right side first, as on `f64`.
                    quote_spanned!(self.sp=> { let __fz_rhs = #r; #l #op __fz_rhs; })
                } else {
                    quote_spanned!(self.sp=> #l #op #r)
                }
            }
            Kind::Assign(l, r) => {
                let t = self.abs(l).clone();
                let l = self.expr(l);
                let r = self.coerce(r, &t);
                quote_spanned!(self.sp=> #l = #r)
            }
            Kind::Call(f, args) => self.call(e, f, args),
            Kind::MethodCall(m) => self.method(e, m),
            Kind::Field(b, m) => {
                let b = self.expr(b);
                quote_spanned!(self.sp=> #b.#m)
            }
            Kind::Index(b, i) => {
                let b = self.expr(b);
                let i = self.expr(i);
                quote_spanned!(self.sp=> #b[#i])
            }
            Kind::Paren(x) => {
                let x = self.expr(x);
                quote_spanned!(self.sp=> (#x))
            }
            Kind::Reference { mutable, expr } => {
                let x = self.expr(expr);
                let m = mutable.then(|| quote_spanned!(self.sp=> mut));
                quote_spanned!(self.sp=> & #m #x)
            }
            Kind::Cast(x, t) => self.cast(e, x, t),
            Kind::Block(kind, label, b) => self.labelled_block(*kind, label, b, e.id),
            Kind::If(c, then, els) => self.if_expr(c, then, els.as_deref(), &own),
            Kind::Let(p, x) => {
                let p = pat::print(p);
                let x = self.expr(x);
                quote_spanned!(self.sp=> let #p = #x)
            }
            Kind::Match(x, arms) => self.match_expr(x, arms, &own),
            Kind::While(label, c, b) => {
                let c = self.expr(c);
                let b = self.loop_body(label, b, e.id);
                quote_spanned!(self.sp=> #label while #c #b)
            }
            Kind::For(label, p, it, b) => {
                let p = pat::print(p);
                let it = self.expr(it);
                let b = self.loop_body(label, b, e.id);
                quote_spanned!(self.sp=> #label for #p in #it #b)
            }
            Kind::Loop(label, b) => {
                let b = self.loop_body(label, b, e.id);
                quote_spanned!(self.sp=> #label loop #b)
            }
            Kind::Break(label, v) => {
                let target = self.break_target(label);
                let v = v.as_ref().map(|x| self.coerce(x, &target));
                quote_spanned!(self.sp=> break #label #v)
            }
            Kind::Continue(label) => quote_spanned!(self.sp=> continue #label),
            Kind::Return(v) => {
                let target = self.rets.last().cloned().unwrap_or(Abs::Never);
                let v = v.as_ref().map(|x| self.coerce(x, &target));
                quote_spanned!(self.sp=> return #v)
            }
            Kind::Closure(c) => self.closure(c),
            Kind::Tuple(xs) => {
                let xs: Vec<_> = xs.iter().map(|x| self.expr(x)).collect();
                tuple(&[], &xs)
            }
            Kind::Array(xs) => {
                let xs = self.coerce_all(xs, &own.elem());
                quote_spanned!(self.sp=> [#(#xs),*])
            }
            Kind::Repeat(x, n) => {
                let x = self.coerce(x, &own.elem());
                quote_spanned!(self.sp=> [#x; #n])
            }
            Kind::Range(a, limits, b) => {
                let a = a.as_ref().map(|x| self.expr(x));
                let b = b.as_ref().map(|x| self.expr(x));
                quote_spanned!(self.sp=> #a #limits #b)
            }
            Kind::Struct(s) => self.struct_lit(s),
            Kind::Try(x) => {
                let x = self.expr(x);
                quote_spanned!(self.sp=> #x?)
            }
            Kind::Macro(m) => self.mac(m, &own),
            Kind::Opaque(x) => quote_spanned!(self.sp=> #x),
        }
    }

    fn unary(&mut self, op: &UnOp, x: &Expr) -> TokenStream {
        let neg_of_ref = matches!(op, UnOp::Neg(_))
            && matches!(self.abs(x), Abs::Ref(_))
            && self.abs(x).active();
        let x = self.expr(x);
        if neg_of_ref {
            // `-v` for `v: &S`: negation is not required of references to `S` (see
            // `fazang::__private::RefScalarOps`), so negate the value.
            quote_spanned!(self.sp=> -(*#x))
        } else {
            quote_spanned!(self.sp=> #op #x)
        }
    }

    fn labelled_block(
        &mut self,
        kind: BlockKind,
        label: &Option<syn::Label>,
        b: &Block,
        id: ExprId,
    ) -> TokenStream {
        let kw = match kind {
            BlockKind::Plain => quote_spanned!(self.sp=> ),
            BlockKind::Unsafe => quote_spanned!(self.sp=> unsafe),
            BlockKind::Const => quote_spanned!(self.sp=> const),
        };
        if label.is_some() {
            let b = self.loop_body(label, b, id);
            return quote_spanned!(self.sp=> #label #b);
        }
        let b = self.block(b, None);
        quote_spanned!(self.sp=> #kw #b)
    }

    fn loop_body(&mut self, label: &Option<syn::Label>, b: &Block, id: ExprId) -> TokenStream {
        let name = label.as_ref().map(|l| l.name.ident.to_string());
        self.loops.push((name, id));
        let b = self.block(b, None);
        self.loops.pop();
        b
    }

    fn break_target(&self, label: &Option<syn::Lifetime>) -> Abs {
        let name = label.as_ref().map(|l| l.ident.to_string());
        let found = match name {
            Some(n) => self
                .loops
                .iter()
                .rev()
                .find(|(l, _)| l.as_deref() == Some(&n)),
            None => self.loops.last(),
        };
        found
            .map(|(_, id)| self.act.of_expr(*id).clone())
            .unwrap_or(Abs::Never)
    }

    fn cast(&mut self, e: &Expr, x: &Expr, t: &syn::Type) -> TokenStream {
        let src = self.abs(x).clone();
        let inner = self.expr(x);
        let to_float = matches!(self.abs(e), Abs::Float(_));
        let to_int = *self.abs(e) == Abs::Int;
        match src.deref() {
            Abs::Float(true) if to_float => {
                let text = crate::types::source_text(&inner);
                let start = quote_spanned!(e.span=> x);
                self.cx.error(
                    quote_spanned!(self.sp=> #start #t),
                    format!(
                        "`{text} as {}` would silently drop the derivative of `{text}`, which is \
                         active (it depends on a differentiated parameter); use `{text}` \
                         itself (arithmetic and math work on active values), or \
                         `{text}.val()` if you really want a constant",
                        quote_spanned!(self.sp=> #t)
                    ),
                );
                quote_spanned!(e.span=> (#inner).val())
            }
            Abs::Unknown(true) if to_float => {
                quote_spanned!(e.span=> ::fazang::__private::AsF64::to_f64(#inner))
            }
            Abs::Float(true) if to_int => quote_spanned!(e.span=> (#inner).val() as #t),
            Abs::Seq(_) | Abs::Ref(_) | Abs::Tuple(_) if src.active() => {
                // rustc would say `casting `&[ActiveF64]` as `f32` is invalid`.
                let text = crate::types::source_text(&inner);
                let start = quote_spanned!(e.span=> x);
                self.cx.error(
                    quote_spanned!(self.sp=> #start #t),
                    format!(
                        "cannot cast `{text}` with `as`: it holds several values (an array, \
                         slice, vector or tuple of active `f64`s), not one number; cast or \
                         convert its elements (`{text}[i]`)"
                    ),
                );
                quote_spanned!(self.sp=> #inner as #t)
            }
            _ => quote_spanned!(self.sp=> #inner as #t),
        }
    }

    fn closure(&mut self, c: &ClosureExpr) -> TokenStream {
        let ret = self.act.closure_ret[c.id].clone();
        let attrs = &c.attrs;
        let mv = c.is_move.then(|| quote_spanned!(self.sp=> move));
        let params: Vec<TokenStream> = c
            .params
            .iter()
            .map(|(p, t)| {
                let a = pat::abs(p, self.act);
                let p = pat::print(p);
                match t {
                    Some(t) => {
                        let t = ty::rewrite(t, &a, self.s);
                        quote_spanned!(self.sp=> #p: #t)
                    }
                    None => p,
                }
            })
            .collect();
        let out = c.ret.as_ref().map(|t| {
            let t = ty::rewrite(t, &ret, self.s);
            quote_spanned!(self.sp=> -> #t)
        });
        self.rets.push(ret.clone());
        let saved = std::mem::take(&mut self.loops);
        let body = self.coerce(&c.body, &ret);
        self.loops = saved;
        self.rets.pop();
        quote_spanned!(self.sp=> #(#attrs)* #mv |#(#params),*| #out #body)
    }

    fn struct_lit(&mut self, s: &StructLit) -> TokenStream {
        let any_active = s.fields.iter().any(|(_, x, _)| self.abs(x).active());
        let fields: Vec<TokenStream> = s
            .fields
            .iter()
            .map(|(m, x, colon)| {
                if any_active && *self.abs(x) == Abs::Float(false) {
                    // The field's type decides: `S` in a #[deriv_rule] struct, `f64` in
                    // a data struct.
                    let x = self.expr(x);
                    quote_spanned!(self.sp=> #m: ::fazang::__private::lit(#x))
                } else if !colon {
                    quote_spanned!(self.sp=> #m)
                } else {
                    let x = self.expr(x);
                    quote_spanned!(self.sp=> #m: #x)
                }
            })
            .collect();
        let rest = s.rest.as_ref().map(|r| {
            let r = self.expr(r);
            quote_spanned!(self.sp=> .. #r)
        });
        let dot2 = s.dot2.then(|| quote_spanned!(self.sp=> ..));
        let path = &s.path;
        let path = match &s.qself {
            Some(q) => {
                let ty = &q.ty;
                quote_spanned!(self.sp=> <#ty>::#path)
            }
            None => quote_spanned!(self.sp=> #path),
        };
        let sep = (!fields.is_empty() && (rest.is_some() || dot2.is_some()))
            .then(|| quote_spanned!(self.sp=> ,));
        quote_spanned!(self.sp=> #path { #(#fields),* #sep #rest #dot2 })
    }

    fn mac(&mut self, m: &Macro, own: &Abs) -> TokenStream {
        match m {
            Macro::VecList(mac, xs) => {
                let xs = self.coerce_all(xs, &own.elem());
                let path = &mac.path;
                quote_spanned!(self.sp=> #path![#(#xs),*])
            }
            Macro::VecRepeat(mac, x, n) => {
                let x = self.coerce(x, &own.elem());
                let n = self.expr(n);
                let path = &mac.path;
                quote_spanned!(self.sp=> #path![#x; #n])
            }
            Macro::Args(mac, args) if !has_inline_capture(args) => {
                // `format!("{}", f64::max(0.0, x))`: the arguments are printed like any
                // expression (no conversion targets them, but calls inside get theirs).
                let xs: Vec<TokenStream> = args.iter().map(|a| self.expr(a)).collect();
                let path = &mac.path;
                quote_spanned!(self.sp=> #path!(#(#xs),*))
            }
            Macro::Args(mac, _) | Macro::Opaque(mac) => quote_spanned!(self.sp=> #mac),
        }
    }
}

mod calls;
mod mixed;

/// Whether a value of abstract value `src` must be converted where `t` is expected.
fn needs_conversion(src: &Abs, t: &Abs) -> bool {
    match (src, t) {
        (Abs::Ref(x), Abs::Ref(y)) => needs_conversion(x, y),
        // Data into a place whose type the analysis cannot see but which is active (an
        // `if` whose other arm calls a function with active arguments): a float becomes
        // the scalar, a value of unknown type passes as the other arm's type (`pass`).
        (Abs::Float(false) | Abs::Unknown(false), Abs::Unknown(true)) => true,
        (_, Abs::Ref(_)) | (_, Abs::Unknown(_)) | (Abs::Never, _) => false,
        (Abs::Ref(x), t) => matches!(t, Abs::Seq(_)) && needs_conversion(x, t),
        (Abs::Float(false) | Abs::Unknown(false), Abs::Float(true)) => true,
        (Abs::Seq(x), Abs::Seq(y)) => needs_conversion(x, y),
        (Abs::Unknown(false), Abs::Seq(y)) => y.active(),
        (Abs::Tuple(xs), Abs::Tuple(ys)) if xs.len() == ys.len() => {
            xs.iter().zip(ys).any(|(x, y)| needs_conversion(x, y))
        }
        _ => false,
    }
}

/// Whether a format-like macro names variables inside its string (`"{x}"`): printing its
/// arguments again would not reach those.
pub fn has_inline_capture(args: &[Expr]) -> bool {
    args.iter().any(|a| match &a.kind {
        Kind::Lit(syn::Lit::Str(s)) => {
            let v = s.value();
            let b = v.as_bytes();
            (0..b.len()).any(|i| {
                b[i] == b'{'
                    && (i == 0 || b[i - 1] != b'{')
                    && b.get(i + 1)
                        .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
            })
        }
        _ => false,
    })
}

fn is_compound(op: &syn::BinOp) -> bool {
    use syn::BinOp::*;
    matches!(
        op,
        AddAssign(_) | SubAssign(_) | MulAssign(_) | DivAssign(_) | RemAssign(_)
    )
}

fn tuple(attrs: &[syn::Attribute], xs: &[TokenStream]) -> TokenStream {
    if xs.len() == 1 {
        quote!(#(#attrs)* (#(#xs),*,))
    } else {
        quote!(#(#attrs)* (#(#xs),*))
    }
}

/// Whether `f` is a path ending in one of `names` (`Some`, `Ok`).
fn is_ctor(f: &Expr, names: &[&str]) -> bool {
    match &f.kind {
        Kind::Path(p) => {
            p.path.segments.len() == 1 && names.iter().any(|n| p.path.segments[0].ident == n)
        }
        _ => false,
    }
}
