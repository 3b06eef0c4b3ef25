//! Calls and method calls in the generic body: where arguments and receivers meet active
//! values, and `f64`'s associated functions (`f64::max(0.0, x)`) go through `Real`.

use super::mixed::MethodLift;
use super::Gen;
use crate::activity::walk_support::{is_self, known_callee};
use crate::activity::Abs;
use crate::model::known::*;
use crate::model::*;
use proc_macro2::TokenStream;
use quote::{format_ident, quote_spanned};

impl Gen<'_> {
    pub(super) fn call(&mut self, e: &Expr, f: &Expr, args: &[Expr]) -> TokenStream {
        let fx = self.expr(f);
        let any_active = args.iter().any(|a| self.abs(a).active());
        // A local closure: its parameters decide.
        if let Kind::Local(id, _) = &f.peel().kind {
            if let Abs::Closure(c) = self.act.of_bind(*id) {
                let targets: Vec<Abs> = self.body.closures[*c]
                    .params
                    .iter()
                    .map(|p| p.map_or(Abs::Unknown(false), |b| self.act.of_bind(b).clone()))
                    .collect();
                let xs: Vec<TokenStream> = args
                    .iter()
                    .enumerate()
                    .map(|(i, a)| match targets.get(i) {
                        Some(t) => self.coerce(a, t),
                        None => self.expr(a),
                    })
                    .collect();
                return quote_spanned!(self.sp=> #fx(#(#xs),*));
            }
        }
        let Kind::Path(p) = &f.peel().kind else {
            let xs: Vec<_> = args.iter().map(|a| self.expr(a)).collect();
            return quote_spanned!(self.sp=> #fx(#(#xs),*));
        };
        let segs: Vec<String> = crate::util::path_names(&p.path);
        if let Some(c) = known_callee(self.callees, &segs, false) {
            let xs = self.known_args(&c.params.clone(), args, any_active);
            return quote_spanned!(self.sp=> #fx(#(#xs),*));
        }
        let last = segs.last().cloned().unwrap_or_default();
        if segs.len() == 2 && segs[0] == "f64" && ufcs(&last) && any_active {
            // `f64::max(0.0, x)` -> `Real::max(lit(0.0), x)`.
            let name = format_ident!("{}", last, span = p.path.segments[1].ident.span());
            let mut xs = Vec::new();
            for (i, a) in args.iter().enumerate() {
                xs.push(if i == 0 {
                    self.receiver(a)
                } else {
                    self.expr(a)
                });
            }
            return quote_spanned!(e.span=> ::fazang::Real::#name(#(#xs),*));
        }
        let known = is_fazang_fn(&last)
            || matches!(last.as_str(), "Some" | "Ok" | "Err")
            || segs.first().is_some_and(|s| s == "fazang");
        let xs: Vec<TokenStream> = args
            .iter()
            .map(|a| {
                if any_active && !known {
                    self.data_arg(a)
                } else {
                    self.expr(a)
                }
            })
            .collect();
        quote_spanned!(self.sp=> #fx(#(#xs),*))
    }

    /// Arguments of a function of the same module or impl block: converted to what its
    /// active parameters take when the call is active.
    fn known_args(
        &mut self,
        params: &[Option<Abs>],
        args: &[Expr],
        active: bool,
    ) -> Vec<TokenStream> {
        args.iter()
            .enumerate()
            .map(|(i, a)| match params.get(i) {
                Some(Some(t)) if active && !is_mut_ref(a) => self.coerce(a, t),
                _ => self.expr(a),
            })
            .collect()
    }

    /// An argument of a function the macro cannot see, called with active values: data
    /// (a float, a slice, an array of floats) is passed so that the parameter's type
    /// decides what it becomes: an active value for a differentiated function's active
    /// parameter, the same data (borrowed, not copied) for a data parameter.
    fn data_arg(&mut self, a: &Expr) -> TokenStream {
        let abs = self.abs(a).clone();
        if abs.active() {
            return self.expr(a);
        }
        let x = self.expr(a);
        let sp = a.span;
        let call_result = matches!(
            &a.peel().kind,
            Kind::Call(..) | Kind::MethodCall(..) | Kind::Try(..)
        );
        let local = matches!(&a.peel().kind, Kind::Local(..));
        match &abs {
            _ if self.is_passive_float(a) => quote_spanned!(sp=> ::fazang::__private::lit(#x)),
            // A value of a type the macro cannot see (`let state = initial();`): converted
            // if it is `f64` data, passed as it is otherwise.
            Abs::Unknown(false) if call_result || local => {
                quote_spanned!(sp=> ::fazang::__private::DataArg::new(#x).get())
            }
            Abs::Ref(inner) if matches!(inner.deref(), Abs::Unknown(false)) => {
                quote_spanned!(sp=> &*::fazang::__private::DataRefArg::new(#x).get())
            }
            Abs::Ref(inner) if matches!(inner.deref(), Abs::Seq(e) if **e == Abs::Float(false)) => {
                quote_spanned!(sp=> &*::fazang::__private::adapt_ref(#x))
            }
            Abs::Ref(inner) if is_float_seq(inner) => {
                quote_spanned!(sp=> &::fazang::__private::promote(#x))
            }
            Abs::Seq(_) if is_float_seq(&abs) => {
                quote_spanned!(sp=> ::fazang::__private::promote(#x))
            }
            _ => x,
        }
    }

    /// A float value that is data: a literal, a constant, data arithmetic, or an element
    /// or field of data whose type the macro cannot see (`self.xs[i]`, `SCALE`).
    fn is_passive_float(&self, a: &Expr) -> bool {
        match self.abs(a) {
            Abs::Float(false) => true,
            Abs::Unknown(false) => match &a.peel().kind {
                Kind::Index(..) | Kind::Field(..) => true,
                Kind::Path(p) => p.path.segments.last().is_some_and(|s| {
                    let n = s.ident.to_string();
                    n.chars()
                        .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit())
                }),
                _ => false,
            },
            _ => false,
        }
    }

    /// The receiver of a `Real` method next to active arguments: an active scalar.
    fn receiver(&mut self, r: &Expr) -> TokenStream {
        let s = self.s;
        let a = self.abs(r).clone();
        if a.active() {
            return self.expr(r);
        }
        let x = self.expr(r);
        match a {
            Abs::Ref(_) => quote_spanned!(r.span=> ::fazang::__private::promote::<#s, _>(#x)),
            _ => quote_spanned!(r.span=> ::fazang::__private::lit::<#s>(#x)),
        }
    }

    pub(super) fn method(&mut self, e: &Expr, m: &MethodCall) -> TokenStream {
        let own = self.abs(e).clone();
        let name = m.method.to_string();
        let n = name.as_str();
        let recv_abs = self.abs(&m.receiver).clone();
        let any_arg_active = m.args.iter().any(|a| self.abs(a).active());
        let context_active = own.active() || recv_abs.active();
        if is_self(&m.receiver) {
            if let Some(c) = known_callee(self.callees, std::slice::from_ref(&name), true) {
                let recv = self.expr(&m.receiver);
                let xs = self.known_args(&c.params.clone(), &m.args, any_arg_active);
                let method = &m.method;
                return quote_spanned!(self.sp=> #recv.#method(#(#xs),*));
            }
        }
        let scalar_recv = matches!(recv_abs.deref(), Abs::Float(true) | Abs::Unknown(true))
            || (is_real_method(n) && any_arg_active);
        let iterator_extreme = matches!(n, "max" | "min") && m.args.is_empty();
        let through_real = scalar_recv && ufcs(n) && !iterator_extreme && m.turbofish.is_none();
        // Through `real::`, the receiver loses parentheses only a method call needed.
        let recv_expr = match &m.receiver.kind {
            Kind::Paren(inner) if through_real => &**inner,
            _ => &*m.receiver,
        };
        let chain = n == "chain" && own.active();
        let known = is_real_method(n)
            || FLOAT_PREDICATES.contains(&n)
            || DATA_METHODS.contains(&n)
            || SAME_ITEMS.contains(&n)
            || TRANSPARENT.contains(&n)
            || ELEMENT.contains(&n)
            || STORE_ARG.contains(&n)
            || ITER_METHODS.contains(&n);
        let lift = match known || through_real {
            true => MethodLift::None,
            false => self.method_lift(&recv_abs, &m.args),
        };
        let recv = if lift == MethodLift::Receiver {
            // `y.dot(&a)`: a data matrix meeting an active one.
            let r = self.lift_operand(recv_expr);
            quote_spanned!(self.sp=> (#r))
        } else if is_real_method(n) && any_arg_active && !recv_abs.active() {
            self.receiver(recv_expr)
        } else if chain {
            // Both sides of `chain` yield the same items.
            self.coerce(recv_expr, &own)
        } else {
            self.expr(recv_expr)
        };
        let last = m.args.len().saturating_sub(1);
        let args: Vec<TokenStream> = m
            .args
            .iter()
            .enumerate()
            .map(|(i, a)| {
                if (n == "fold" && i == 0) || n == "unwrap_or" || chain {
                    self.coerce(a, &own)
                } else if STORE_ARG.contains(&n) && i == last {
                    let t = recv_abs.elem();
                    self.coerce(a, &t)
                } else if context_active && real_fn_path(a).is_some() {
                    self.real_fn_value(a)
                } else if lift == MethodLift::Args && self.lifted_arg(a) {
                    // `chol.solve(&y)`: data meeting an active matrix.
                    self.lift_operand(a)
                } else if !known && any_arg_active {
                    self.data_arg(a)
                } else {
                    self.expr(a)
                }
            })
            .collect();
        let method = &m.method;
        let turbofish = m.turbofish.as_ref().map(|t| {
            let mut t = t.clone();
            for arg in t.args.iter_mut() {
                if let syn::GenericArgument::Type(ty) = arg {
                    *ty = super::ty::rewrite(ty, &own, self.s);
                }
            }
            quote_spanned!(self.sp=> #t)
        });
        if through_real {
            // `x.sin()` -> `real::sin(x)`: the body's scalar is bounded by `Float` too,
            // where the method call would be ambiguous.
            return quote_spanned!(self.sp=> ::fazang::__private::real::#method(#recv #(, #args)*));
        }
        quote_spanned!(self.sp=> #recv.#method #turbofish(#(#args),*))
    }

    /// `f64::max` passed as a function over active values: a closure calling `Real`.
    fn real_fn_value(&mut self, a: &Expr) -> TokenStream {
        let name = real_fn_path(a).expect("checked");
        let arity = match name.to_string().as_str() {
            "mul_add" | "clamp" => 3,
            "atan2" | "powf" | "powi" | "hypot" | "log" | "min" | "max" | "copysign"
            | "rem_euclid" | "div_euclid" | "total_cmp" | "midpoint" | "log_sum_exp" => 2,
            _ => 1,
        };
        let ps: Vec<_> = (0..arity as usize)
            .map(|i| format_ident!("__fz_{}", i, span = a.span))
            .collect();
        quote_spanned!(a.span=> |#(#ps),*| ::fazang::Real::#name(#(#ps),*))
    }
}

/// Methods called through `::fazang::__private::real` on active values.
fn ufcs(name: &str) -> bool {
    is_real_method(name)
        || FLOAT_PREDICATES.contains(&name)
        || matches!(name, "sin_cos" | "total_cmp" | "val" | "classify")
}

/// For a path `f64::NAME` with `NAME` a `Real` method, `NAME`.
fn real_fn_path(a: &Expr) -> Option<syn::Ident> {
    let Kind::Path(p) = &a.peel().kind else {
        return None;
    };
    let segs = &p.path.segments;
    let name = segs.last()?.ident.to_string();
    let known =
        is_real_method(&name) || name == "total_cmp" || FLOAT_PREDICATES.contains(&name.as_str());
    (segs.len() == 2 && segs[0].ident == "f64" && known).then(|| segs[1].ident.clone())
}

/// Iterator methods the activity analysis models (their arguments are closures or
/// iterators, never floats to convert).
const ITER_METHODS: &[&str] = &[
    "iter",
    "iter_mut",
    "map",
    "filter",
    "filter_map",
    "flat_map",
    "flatten",
    "for_each",
    "enumerate",
    "zip",
    "chain",
    "windows",
    "chunks",
    "sum",
    "product",
    "fold",
    "reduce",
    "max_by",
    "min_by",
    "max_by_key",
    "min_by_key",
    "find",
    "find_map",
    "any",
    "all",
    "collect",
    "unwrap_or_else",
    "extend",
    "extend_from_slice",
    "append",
    "split_at",
    "skip_while",
    "take_while",
    "inspect",
    "map_while",
    "and_then",
];

fn is_mut_ref(a: &Expr) -> bool {
    matches!(a.peel().kind, Kind::Reference { mutable: true, .. })
}

/// A sequence (of sequences ...) of data floats.
fn is_float_seq(a: &Abs) -> bool {
    match a.deref() {
        Abs::Seq(e) => **e == Abs::Float(false) || is_float_seq(e),
        _ => false,
    }
}
