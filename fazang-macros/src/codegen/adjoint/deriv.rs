//! The reverse of one right-hand side: the values of its subexpressions computed again
//! (each once, as `let`s), then the adjoint propagated from the root to every active
//! operand with the local partial derivatives, taken from fazang's elementary table
//! (`::fazang::__private::d1`, `d2`: one place defines each derivative).

use super::forward::Fwd;
use super::reverse::root;
use crate::model::*;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use std::collections::HashMap;
use syn::{BinOp, Ident, UnOp};

/// Unary functions with a row in the elementary table.
const TABLE: &[&str] = &[
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "tanh",
    "asinh",
    "acosh",
    "atanh",
    "exp",
    "exp2",
    "exp_m1",
    "ln",
    "log10",
    "log2",
    "ln_1p",
    "sqrt",
    "cbrt",
    "abs",
    "recip",
    "fract",
    "erf",
    "erfc",
    "log_gamma",
    "square",
    "inv",
    "inv_square",
    "inv_sqrt",
    "logit",
    "inv_logit",
    "log1p_exp",
    "to_degrees",
    "to_radians",
];

/// Piecewise constant: derivative 0.
const FLAT: &[&str] = &[
    "signum",
    "floor",
    "ceil",
    "round",
    "trunc",
    "round_ties_even",
    "div_euclid",
    "val",
];

/// Binary functions whose partials `d2::NAME` gives from the operands (and the value).
const BINARY: &[&str] = &[
    "atan2",
    "powf",
    "hypot",
    "log",
    "copysign",
    "rem_euclid",
    "log_sum_exp",
];

/// Whether the adjoint code differentiates method `name` on an active value.
pub fn supported_method(name: &str) -> bool {
    TABLE.contains(&name)
        || FLAT.contains(&name)
        || BINARY.contains(&name)
        || matches!(
            name,
            "powi" | "max" | "min" | "mul_add" | "clamp" | "midpoint"
        )
}

/// Reverse one right-hand side.
pub struct D<'f, 'c, 'a> {
    f: &'f Fwd<'c, 'a>,
    /// The recomputed values, in order.
    pre: Vec<TokenStream>,
    vals: HashMap<ExprId, TokenStream>,
}

impl<'f, 'c, 'a> D<'f, 'c, 'a> {
    pub fn new(f: &'f Fwd<'c, 'a>) -> Self {
        D {
            f,
            pre: Vec::new(),
            vals: HashMap::new(),
        }
    }

    /// Statements propagating adjoint `a` into `e`'s operands.
    pub fn run(mut self, e: &Expr, a: TokenStream) -> TokenStream {
        let seed = self.tmp("a");
        let body = self.prop(e, quote!(#seed));
        let pre = &self.pre;
        // A zero adjoint propagates nothing (as the tape's sweep skips it): a value the
        // result does not depend on may have infinite or NaN partials.
        quote!({ let #seed: f64 = #a; if #seed != 0.0 { #(#pre)* #body } })
    }

    fn tmp(&self, what: &str) -> Ident {
        self.f.cx.tmp(what)
    }

    fn active(&self, e: &Expr) -> bool {
        self.f.cx.act.of_expr(e.id).active()
    }

    /// `e`'s value, computed once (a `let` before the propagation).
    pub fn val(&mut self, e: &Expr) -> TokenStream {
        if let Some(v) = self.vals.get(&e.id) {
            return v.clone();
        }
        let v = match &e.kind {
            Kind::Lit(_) | Kind::Local(..) | Kind::Path(_) => self.f.expr_ro(e),
            Kind::Paren(x) => self.val(x),
            Kind::Unary(UnOp::Deref(_), x)
                if self.f.cx.act.of_expr(x.id).deref() == self.f.cx.act.of_expr(e.id) =>
            {
                self.val(x)
            }
            _ if !self.active(e) => self.bind(self.f.expr_ro(e)),
            Kind::Unary(op, x) => {
                let x = self.val(x);
                self.bind(quote!(#op #x))
            }
            Kind::Binary(op, l, r) => {
                let (l, r) = (self.val(l), self.val(r));
                self.bind(quote!(#l #op #r))
            }
            Kind::Index(..) => self.bind(self.f.expr_ro(e)),
            Kind::MethodCall(m) => {
                let recv = self.val(&m.receiver);
                let args: Vec<_> = m.args.iter().map(|a| self.val(a)).collect();
                let method = &m.method;
                self.bind(quote!(<f64 as ::fazang::Real>::#method(#recv #(, #args)*)))
            }
            Kind::Call(..) => {
                let call = self.call_values(e);
                self.bind(call)
            }
            Kind::Try(x) => {
                let call = self.call_values(x);
                self.bind(quote!(::fazang::__private::recomputed(#call)))
            }
            _ => self.bind(self.f.expr_ro(e)),
        };
        self.vals.insert(e.id, v.clone());
        v
    }

    fn bind(&mut self, v: TokenStream) -> TokenStream {
        let t = self.tmp("v");
        self.pre.push(quote!(let #t = #v;));
        quote!(#t)
    }

    /// A call with its arguments' values.
    fn call_values(&mut self, e: &Expr) -> TokenStream {
        let Kind::Call(f, args) = &e.peel().kind else {
            return self.f.expr_ro(e);
        };
        let f = self.f.expr_ro(f);
        let args: Vec<_> = args
            .iter()
            .map(|a| match self.f.cx.act.of_expr(a.id) {
                crate::activity::Abs::Float(_) => self.val(a),
                _ => self.f.expr_ro(a),
            })
            .collect();
        quote!(#f(#(#args),*))
    }

    /// Statements adding `a` (an identifier) times d`e` into the adjoints.
    fn prop(&mut self, e: &Expr, a: TokenStream) -> TokenStream {
        if !self.active(e) {
            return TokenStream::new();
        }
        match &e.kind {
            Kind::Local(..) | Kind::Index(..) => self.accumulate(e, a),
            Kind::Paren(x) => self.prop(x, a),
            Kind::Unary(UnOp::Neg(_), x) => self.seeded(x, quote!(-#a)),
            Kind::Unary(_, x) => self.prop(x, a),
            Kind::Binary(op, l, r) => self.binary(e, op, l, r, a),
            Kind::MethodCall(m) => {
                let name = m.method.to_string();
                self.method(e, &name, &m.receiver, &m.args, a)
            }
            Kind::Call(f, args) => {
                if let Some(name) = f64_fn(f) {
                    if let Some((recv, rest)) = args.split_first() {
                        return self.method(e, &name, recv, rest, a);
                    }
                }
                self.vjp(f, args, a, false)
            }
            Kind::Try(x) => match &x.peel().kind {
                Kind::Call(f, args) => self.vjp(f, args, a, true),
                _ => self.prop(x, a),
            },
            // Integer casts of active values: derivative 0.
            Kind::Cast(..) => TokenStream::new(),
            _ => quote!(::core::unreachable!();),
        }
    }

    /// `prop` with a seed expression bound to a temporary first.
    fn seeded(&mut self, e: &Expr, a: TokenStream) -> TokenStream {
        if !self.active(e) {
            return TokenStream::new();
        }
        let t = self.tmp("a");
        let body = self.prop(e, quote!(#t));
        quote!({ let #t: f64 = #a; #body })
    }

    /// `adj(x) += a` for a variable or an element.
    fn accumulate(&mut self, e: &Expr, a: TokenStream) -> TokenStream {
        let Some(id) = root(e) else {
            return TokenStream::new();
        };
        let adj = self.f.cx.adj(id);
        let mut idx = Vec::new();
        let mut cur = e.peel();
        while let Kind::Index(b, i) = &cur.kind {
            idx.push(self.f.expr_ro(i));
            cur = b.peel();
        }
        idx.reverse();
        quote!(#adj #([#idx])* += #a;)
    }

    fn binary(&mut self, e: &Expr, op: &BinOp, l: &Expr, r: &Expr, a: TokenStream) -> TokenStream {
        let (la, ra) = (self.active(l), self.active(r));
        match op {
            BinOp::Add(_) => {
                let x = self.prop(l, a.clone());
                let y = self.prop(r, a);
                quote!(#x #y)
            }
            BinOp::Sub(_) => {
                let x = self.prop(l, a.clone());
                let y = self.seeded(r, quote!(-#a));
                quote!(#x #y)
            }
            BinOp::Mul(_) => {
                let x = if la {
                    let rv = self.val(r);
                    self.seeded(l, quote!(#a * #rv))
                } else {
                    TokenStream::new()
                };
                let y = if ra {
                    let lv = self.val(l);
                    self.seeded(r, quote!(#a * #lv))
                } else {
                    TokenStream::new()
                };
                quote!(#x #y)
            }
            BinOp::Div(_) => {
                let rv = self.val(r);
                let x = if la {
                    self.seeded(l, quote!(#a / #rv))
                } else {
                    TokenStream::new()
                };
                let y = if ra {
                    let q = self.val(e);
                    self.seeded(r, quote!(-#a * #q / #rv))
                } else {
                    TokenStream::new()
                };
                quote!(#x #y)
            }
            BinOp::Rem(_) => {
                let (lv, rv, v) = (self.val(l), self.val(r), self.val(e));
                self.pair(l, r, quote!(::fazang::__private::d2::rem(#lv, #rv, #v)), a)
            }
            _ => quote!(::core::unreachable!();),
        }
    }

    /// Propagate through `(dx, dy) = partials` into `x` and `y`.
    fn pair(&mut self, x: &Expr, y: &Expr, partials: TokenStream, a: TokenStream) -> TokenStream {
        let (dx, dy) = (self.tmp("d"), self.tmp("d"));
        let px = self.seeded(x, quote!(#a * #dx));
        let py = self.seeded(y, quote!(#a * #dy));
        quote!({ let (#dx, #dy): (f64, f64) = #partials; #px #py })
    }

    fn method(
        &mut self,
        e: &Expr,
        name: &str,
        recv: &Expr,
        args: &[Expr],
        a: TokenStream,
    ) -> TokenStream {
        let m = format_ident!("{}", name);
        if FLAT.contains(&name) {
            return TokenStream::new();
        }
        if TABLE.contains(&name) {
            let (x, v) = (self.val(recv), self.val(e));
            return self.seeded(recv, quote!(#a * ::fazang::__private::d1::#m(#x, #v)));
        }
        let x = self.val(recv);
        match (name, args) {
            ("powi", [n]) => {
                let n = self.f.expr_ro(n);
                self.seeded(recv, quote!(#a * ::fazang::__private::d_powi(#x, #n)))
            }
            ("powf", [y]) => {
                let (yv, v) = (self.val(y), self.val(e));
                self.pair(
                    recv,
                    y,
                    quote!(::fazang::__private::d2::powf(#x, #yv, #v)),
                    a,
                )
            }
            ("hypot", [y]) => {
                let (yv, v) = (self.val(y), self.val(e));
                self.pair(
                    recv,
                    y,
                    quote!(::fazang::__private::d2::hypot(#x, #yv, #v)),
                    a,
                )
            }
            ("atan2" | "log" | "copysign" | "log_sum_exp", [y]) => {
                let yv = self.val(y);
                self.pair(recv, y, quote!(::fazang::__private::d2::#m(#x, #yv)), a)
            }
            ("rem_euclid", [y]) => {
                let (yv, v) = (self.val(y), self.val(e));
                self.pair(
                    recv,
                    y,
                    quote!(::fazang::__private::d2::rem(#x, #yv, #v)),
                    a,
                )
            }
            ("midpoint", [y]) => self.pair(recv, y, quote!((0.5, 0.5)), a),
            ("max" | "min", [y]) => {
                let yv = self.val(y);
                let pick = format_ident!("{}_picks_first", name);
                let px = self.prop(recv, a.clone());
                let py = self.prop(y, a);
                quote!(if ::fazang::__private::d2::#pick(#x, #yv) { #px } else { #py })
            }
            ("mul_add", [p, q]) => {
                let pv = self.val(p);
                let px = self.seeded(recv, quote!(#a * #pv));
                let pp = self.seeded(p, quote!(#a * #x));
                let pq = self.prop(q, a);
                quote!(#px #pp #pq)
            }
            ("clamp", [lo, hi]) => {
                let (lv, hv) = (self.val(lo), self.val(hi));
                let px = self.prop(recv, a.clone());
                let pl = self.prop(lo, a.clone());
                let ph = self.prop(hi, a);
                quote!(match ::fazang::__private::d_clamp(#x, #lv, #hv) {
                    0 => { #px }
                    1 => { #pl }
                    _ => { #ph }
                })
            }
            _ => quote!(::core::unreachable!();),
        }
    }

    /// A call the adjoint code cannot see into, differentiated on the tape at this point
    /// of the reverse sweep.
    fn vjp(&mut self, f: &Expr, args: &[Expr], a: TokenStream, fallible: bool) -> TokenStream {
        let fx = self.f.expr_ro(f);
        let (xs, v, adj) = (self.tmp("xs"), self.tmp("v"), self.tmp("g"));
        let mut fill = Vec::new();
        let mut call_args = Vec::new();
        let mut back = Vec::new();
        for arg in args {
            let aa = self.f.cx.act.of_expr(arg.id).clone();
            if !aa.active() {
                call_args.push(self.data_arg(f, arg, &aa));
                continue;
            }
            let off = self.tmp("o");
            fill.push(quote!(let #off = #xs.len();));
            if matches!(aa.deref(), crate::activity::Abs::Float(_)) {
                let val = self.val(arg);
                fill.push(quote!(#xs.push(#val);));
                call_args.push(quote!(#v[#off]));
                let p = self.seeded(arg, quote!(#adj[#off]));
                back.push(p);
            } else {
                // An active slice (a variable): its elements, and its adjoint back.
                let s = self.f.expr_ro(arg);
                let id = root(arg).expect("checked: a variable");
                let sadj = self.f.cx.adj(id);
                fill.push(quote!(#xs.extend_from_slice(&#s[..]);));
                call_args.push(quote!(&#v[#off..#off + #s.len()]));
                back.push(
                    quote!(for (__fz_j, __fz_g) in #adj[#off..#off + #s.len()].iter().enumerate() {
                        #sadj[__fz_j] += __fz_g;
                    }),
                );
            }
        }
        let call = quote!(#fx(#(#call_args),*));
        let call = if fallible {
            quote!(::fazang::__private::recomputed(#call))
        } else {
            call
        };
        quote! {{
            let mut #xs: ::std::vec::Vec<f64> = ::std::vec::Vec::new();
            #(#fill)*
            let mut #adj = ::std::vec![0.0; #xs.len()];
            ::fazang::__private::vjp_call(&#xs, #a, &mut #adj, |#v| #call);
            #(#back)*
        }}
    }
}

impl D<'_, '_, '_> {
    /// Data passed to a call made on the tape: as in the generic body, it takes the
    /// parameter's type (fazang's own functions take data as it is).
    fn data_arg(&mut self, f: &Expr, arg: &Expr, aa: &crate::activity::Abs) -> TokenStream {
        use crate::activity::Abs;
        let fazang = matches!(&f.peel().kind, Kind::Path(p)
            if p.path.segments.last().is_some_and(|s| crate::model::known::is_fazang_fn(&s.ident.to_string())));
        if fazang {
            return self.f.expr_ro(arg);
        }
        match aa {
            Abs::Float(false) => {
                let v = self.val(arg);
                quote!(::fazang::__private::lit(#v))
            }
            Abs::Ref(x) if matches!(x.deref(), Abs::Seq(e) if **e == Abs::Float(false)) => {
                let x = self.f.expr_ro(arg);
                quote!(&*::fazang::__private::adapt_ref(#x))
            }
            _ => self.f.expr_ro(arg),
        }
    }
}

/// For `f64::NAME` with a method the adjoint code knows, `NAME`.
fn f64_fn(f: &Expr) -> Option<String> {
    let Kind::Path(p) = &f.peel().kind else {
        return None;
    };
    let segs = &p.path.segments;
    (segs.len() == 2 && segs[0].ident == "f64").then(|| segs[1].ident.to_string())
}
