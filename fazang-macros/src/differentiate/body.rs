//! Rewriting a body written for `f64` into one generic over the scalar `S`.
//!
//! Three rewrites, and nothing else:
//! - the type `f64` becomes `S` wherever a type is written (`let a: f64`, `Vec<f64>`,
//!   `sum::<f64>()`, closure parameters);
//! - a constant-like float expression (a literal, `f64::EPSILON`, `consts::PI`, an
//!   `as f64` cast, or arithmetic and method calls on those) in a *value position* (what
//!   initialises a binding, is assigned, returned, a block's tail, `fold`'s start, the
//!   elements of `vec![..]` and arrays, a method receiver) becomes `lit::<S>(..)`, so that
//!   `let mut acc = 0.0; acc += x;` and `2.0f64.powf(x)` work. Elsewhere (`2.0 * x`,
//!   `x.powf(2.0)`, `y[i] - 1.0`) constants stay `f64`, which the operators accept;
//! - `e as f64` becomes `AsF64::to_f64(e)`, which refuses active values at compile time
//!   (the cast would silently drop the derivative).
//!
//! Nested items (`fn` inside the body) are left alone.

use crate::util::{is_f64, Ctxt};
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use std::collections::HashSet;
use syn::parse::ParseStream;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::visit_mut::{self, VisitMut};
use syn::{parse_quote, BinOp, Block, Expr, Ident, Item, Lit, Local, Macro, Token, Type};

pub struct Rewrite<'c> {
    /// The scalar type parameter.
    pub s: Ident,
    /// Names of the active parameters (for the `as f64` check).
    pub active: HashSet<String>,
    pub cx: &'c mut Ctxt,
}

impl Rewrite<'_> {
    /// Rewrite a function body; its tail is a value position.
    pub fn body(&mut self, block: &mut Block) {
        self.block_tail(block);
        self.visit_block_mut(block);
    }

    fn wrap(&self, e: &mut Expr) {
        let s = &self.s;
        let mut inner = std::mem::replace(e, Expr::PLACEHOLDER);
        while let Expr::Paren(p) = inner {
            inner = *p.expr;
        }
        let span = inner.span();
        *e = parse_quote_spanned_lit(span, s, inner);
    }

    /// `e` is a value position: a constant-like float there becomes an `S`.
    fn value(&self, e: &mut Expr) {
        if const_like(e) {
            self.wrap(e);
            return;
        }
        match e {
            Expr::Block(b) => self.block_tail(&mut b.block),
            Expr::Unsafe(b) => self.block_tail(&mut b.block),
            Expr::If(i) => {
                self.block_tail(&mut i.then_branch);
                if let Some((_, els)) = &mut i.else_branch {
                    self.value(els);
                }
            }
            Expr::Match(m) => m.arms.iter_mut().for_each(|a| self.value(&mut a.body)),
            Expr::Paren(p) => self.value(&mut p.expr),
            Expr::Tuple(t) => t.elems.iter_mut().for_each(|x| self.value(x)),
            Expr::Array(a) => a.elems.iter_mut().for_each(|x| self.value(x)),
            Expr::Repeat(r) => self.value(&mut r.expr),
            Expr::Call(c) if is_wrapper_ctor(&c.func) => {
                c.args.iter_mut().for_each(|x| self.value(x));
            }
            _ => {}
        }
    }

    fn block_tail(&self, b: &mut Block) {
        if let Some(syn::Stmt::Expr(tail, None)) = b.stmts.last_mut() {
            self.value(tail);
        }
    }

    /// `x as f64` on an active parameter is refused here with a precise span; other
    /// active values are refused by the `AsF64` trait bound.
    fn check_cast(&mut self, inner: &Expr, cast: &Expr) {
        if let Expr::Path(p) = inner {
            if let Some(id) = p.path.get_ident() {
                if self.active.contains(&id.to_string()) {
                    self.cx.error(
                        cast,
                        format!(
                            "`{id} as f64` would silently drop the derivative of the active \
                             parameter `{id}`; use `{id}` itself (arithmetic and math work on \
                             active values), or `{id}.val()` if you really want a constant"
                        ),
                    );
                }
            }
        }
    }

    fn rewrite_vec_macro(&mut self, mac: &mut Macro) {
        let Ok(mut body) = mac.parse_body_with(VecBody::parse) else {
            return;
        };
        match &mut body {
            VecBody::Repeat(elem, n) => {
                self.value(elem);
                self.visit_expr_mut(elem);
                self.visit_expr_mut(n);
            }
            VecBody::List(items) => {
                for x in items.iter_mut() {
                    self.value(x);
                    self.visit_expr_mut(x);
                }
            }
        }
        mac.tokens = body.into_tokens();
    }
}

fn parse_quote_spanned_lit(span: proc_macro2::Span, s: &Ident, inner: Expr) -> Expr {
    let tokens = quote_spanned!(span=> ::fazang::__private::lit::<#s>(#inner));
    syn::parse2(tokens).expect("a call expression always parses")
}

impl VisitMut for Rewrite<'_> {
    fn visit_item_mut(&mut self, _: &mut Item) {}

    fn visit_type_mut(&mut self, ty: &mut Type) {
        if is_f64(ty) {
            let s = &self.s;
            *ty = parse_quote!(#s);
        } else {
            visit_mut::visit_type_mut(self, ty);
        }
    }

    fn visit_local_mut(&mut self, local: &mut Local) {
        let annotated_f64 = matches!(&local.pat, syn::Pat::Type(t) if is_f64(&t.ty));
        if let Some(init) = &mut local.init {
            self.value(&mut init.expr);
            if annotated_f64 && place_like(&init.expr) {
                // `let yi: f64 = y[i];` with `y` data or active: convert by source type.
                let (inner, s) = (&init.expr, &self.s);
                *init.expr = parse_quote!(
                    <_ as ::fazang::__private::IntoScalar<#s>>::into_scalar(#inner)
                );
            }
        }
        visit_mut::visit_local_mut(self, local);
    }

    fn visit_expr_mut(&mut self, e: &mut Expr) {
        match e {
            Expr::Cast(c) if is_f64(&c.ty) => {
                let snapshot = Expr::Cast(c.clone());
                self.check_cast(&c.expr, &snapshot);
                self.visit_expr_mut(&mut c.expr);
                let mut inner = &*c.expr;
                while let Expr::Paren(p) = inner {
                    inner = &p.expr;
                }
                let span = snapshot.span();
                *e = syn::parse2(quote_spanned!(span=> ::fazang::__private::AsF64::to_f64(#inner)))
                    .expect("a call expression always parses");
                return;
            }
            Expr::Assign(a) => self.value(&mut a.right),
            Expr::Return(r) => {
                if let Some(x) = &mut r.expr {
                    self.value(x);
                }
            }
            Expr::Closure(c) => self.value(&mut c.body),
            Expr::Array(_) | Expr::Repeat(_) => self.value(e),
            Expr::Call(c) if is_wrapper_ctor(&c.func) => {
                c.args.iter_mut().for_each(|x| self.value(x));
            }
            Expr::Call(c) => {
                if let Some(name) = f64_method_path(&c.func) {
                    // `f64::max(x, y)` -> `Real::max(x, y)`: works on data and active values.
                    *c.func = parse_quote!(::fazang::Real::#name);
                }
                // Other calls keep their constant arguments as they are: the callee may be
                // generic over its argument types (the distributions are), and only its
                // signature could say which type a literal should take.
            }
            Expr::MethodCall(m) => {
                if const_like(&m.receiver) {
                    self.wrap(&mut m.receiver);
                }
                if m.method == "fold" && m.args.len() == 2 {
                    self.value(&mut m.args[0]);
                }
            }
            Expr::Struct(st) if st.fields.iter().any(|f| !const_like(&f.expr)) => {
                // `Bar { x: 1.0, y: x }`: the field's type decides (S in a registered
                // struct, f64 in a data struct).
                from_constants(st.fields.iter_mut().map(|f| &mut f.expr));
            }
            Expr::Macro(m) if m.mac.path.is_ident("vec") => {
                self.rewrite_vec_macro(&mut m.mac);
                return;
            }
            _ => {}
        }
        visit_mut::visit_expr_mut(self, e);
    }

    fn visit_macro_mut(&mut self, mac: &mut Macro) {
        if mac.path.is_ident("vec") {
            self.rewrite_vec_macro(mac);
        }
    }
}

/// An expression whose type is known without looking at where its value goes (a
/// variable, an element, a field, a dereference), unlike `iter.sum()`.
fn place_like(e: &Expr) -> bool {
    match e {
        Expr::Path(p) => p.qself.is_none() && p.path.get_ident().is_some(),
        Expr::Index(_) | Expr::Field(_) => true,
        Expr::Unary(u) => matches!(u.op, syn::UnOp::Deref(_)) && place_like(&u.expr),
        Expr::Paren(p) => place_like(&p.expr),
        _ => false,
    }
}

/// Wrap the constant-like floats among `exprs` in `From::from(..)`, so that the type the
/// position expects (an `S` or an `f64`) picks the conversion.
fn from_constants<'e>(exprs: impl Iterator<Item = &'e mut Expr>) {
    for e in exprs.filter(|e| const_like(e)) {
        *e = parse_quote!(::core::convert::From::from(#e));
    }
}

/// Methods of `Real` that `f64` has too, callable as `f64::name(..)`.
const REAL_METHODS: &[&str] = &[
    "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sin_cos", "sinh", "cosh", "tanh",
    "asinh", "acosh", "atanh", "exp", "exp2", "exp_m1", "ln", "log", "log10", "log2", "ln_1p",
    "sqrt", "cbrt", "powi", "powf", "abs", "hypot", "recip", "min", "max", "mul_add", "signum",
    "floor", "ceil", "round", "trunc", "fract", "clamp",
];

/// For `f64::name` with `name` a `Real` method, `name`.
fn f64_method_path(func: &Expr) -> Option<Ident> {
    let Expr::Path(p) = func else { return None };
    let segs = &p.path.segments;
    let ok = p.qself.is_none()
        && segs.len() == 2
        && segs[0].ident == "f64"
        && REAL_METHODS.contains(&segs[1].ident.to_string().as_str());
    ok.then(|| segs[1].ident.clone())
}

/// `Ok(..)`, `Some(..)`: their argument is in the value position of the whole.
fn is_wrapper_ctor(func: &Expr) -> bool {
    matches!(func, Expr::Path(p) if p.path.is_ident("Ok") || p.path.is_ident("Some"))
}

/// A float expression built only from constants: literal floats, `f64::NAME`,
/// `...::consts::NAME`, `as f64` casts, and arithmetic or method calls on those.
pub fn const_like(e: &Expr) -> bool {
    match e {
        Expr::Lit(l) => {
            matches!(&l.lit, Lit::Float(f) if f.suffix().is_empty() || f.suffix() == "f64")
        }
        Expr::Path(p) => {
            let segs: Vec<String> = p
                .path
                .segments
                .iter()
                .map(|s| s.ident.to_string())
                .collect();
            segs.len() >= 2
                && (segs[segs.len() - 2] == "f64" || segs[segs.len() - 2] == "consts")
                && segs.last().is_some_and(|l| {
                    l.chars()
                        .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit())
                })
        }
        Expr::Cast(c) => is_f64(&c.ty),
        Expr::Unary(u) => matches!(u.op, syn::UnOp::Neg(_)) && const_like(&u.expr),
        Expr::Paren(p) => const_like(&p.expr),
        Expr::Binary(b) => {
            matches!(
                b.op,
                BinOp::Add(_) | BinOp::Sub(_) | BinOp::Mul(_) | BinOp::Div(_)
            ) && const_like(&b.left)
                && const_like(&b.right)
        }
        Expr::MethodCall(m) => {
            const_like(&m.receiver) && m.args.iter().all(|a| const_like(a) || int_lit(a))
        }
        _ => false,
    }
}

fn int_lit(e: &Expr) -> bool {
    matches!(e, Expr::Lit(l) if matches!(l.lit, Lit::Int(_)))
}

/// The body of `vec![..]`: `elem; n` or a list.
enum VecBody {
    Repeat(Box<Expr>, Box<Expr>),
    List(Punctuated<Expr, Token![,]>),
}

impl VecBody {
    fn parse(input: ParseStream) -> syn::Result<VecBody> {
        if input.is_empty() {
            return Ok(VecBody::List(Punctuated::new()));
        }
        let fork = input.fork();
        if fork.parse::<Expr>().is_ok() && fork.peek(Token![;]) {
            let elem: Expr = input.parse()?;
            input.parse::<Token![;]>()?;
            let n: Expr = input.parse()?;
            return Ok(VecBody::Repeat(Box::new(elem), Box::new(n)));
        }
        Punctuated::parse_terminated(input).map(VecBody::List)
    }

    fn into_tokens(self) -> TokenStream {
        match self {
            VecBody::Repeat(e, n) => quote!(#e; #n),
            VecBody::List(items) => quote!(#items),
        }
    }
}
