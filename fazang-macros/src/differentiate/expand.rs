//! The generic function: the original one made generic over the scalar.
//!
//! ```text
//! fn f(mu: f64, y: &[f64], k: usize) -> f64 { body }
//! ```
//! becomes
//! ```text
//! fn f<S: Real>(mu: S, y: &[S], k: usize) -> S where f64: ScalarOps<S>, .. { body' }
//! ```
//! where `body'` is the body lowered to the model, analysed for activity and printed by
//! [`crate::codegen::generic`]. Its siblings (`_grad`, `_jacobian`) are in
//! [`super::siblings`].

use super::ast::{Model, Place};
use crate::activity::{self, abs_of_type, Abs, Callee, Callees};
use crate::codegen;
use crate::model::lower::{lower_body, ParamDecl};
use crate::types::{replace_f64, ParamKind};
use crate::util::Ctxt;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{parse_quote, FnArg, Generics, Ident, ReturnType, Type};

/// `S`, or `S_`, `S__`.. if the function or its impl block already has a generic named so.
pub fn scalar_ident(own: &Generics, outer: Option<&Generics>) -> Ident {
    let taken = |name: &str| {
        own.type_params()
            .chain(outer.into_iter().flat_map(|g| g.type_params()))
            .any(|t| t.ident == name)
    };
    let mut name = String::from("S");
    while taken(&name) {
        name.push('_');
    }
    format_ident!("{}", name)
}

/// The function made generic over `s`.
pub fn generic_fn(
    cx: &mut Ctxt,
    m: &Model,
    s: &Ident,
    a: &Analysed,
    callees: &Callees,
) -> TokenStream {
    let mut sig = m.func.sig.clone();
    sig.generics.params.push(parse_quote!(#s: ::fazang::Real));
    let wc = sig.generics.make_where_clause();
    // `T: Float` helpers and nalgebra's methods take the body's scalar.
    wc.predicates
        .push(parse_quote!(#s: ::fazang::__private::Float));
    let wc = sig.generics.make_where_clause();
    wc.predicates
        .push(parse_quote!(f64: ::fazang::__private::ScalarOps<#s>));
    wc.predicates
        .push(parse_quote!(#s: ::fazang::__private::IntoScalar<#s>));
    wc.predicates.push(parse_quote!(
        for<'__fz> &'__fz #s: ::fazang::__private::RefOps<#s> + ::fazang::__private::RefScalarOps<#s>
    ));
    wc.predicates
        .push(parse_quote!(for<'__fz> &'__fz f64: ::fazang::__private::RefOps<#s>));
    // The same bounds for `f64` itself, although they always hold: rustc prefers a
    // where-clause when it infers a callee's scalar, so with only the `S` ones a call of
    // another differentiated function on data (`sq(r - mean)`) would be given `S`.
    wc.predicates
        .push(parse_quote!(f64: ::fazang::__private::ScalarOps<f64>));
    wc.predicates
        .push(parse_quote!(for<'__fz> &'__fz f64: ::fazang::__private::RefOps<f64> + ::fazang::__private::RefScalarOps<f64>));
    let typed = sig.inputs.iter_mut().filter_map(|a| match a {
        FnArg::Typed(t) => Some(t),
        FnArg::Receiver(_) => None,
    });
    for (arg, p) in typed.zip(&m.params) {
        if scalar_param(m, p) {
            *arg.ty = scalar_type(&arg.ty, &p.kind, s);
        }
    }
    if let ReturnType::Type(_, ty) = &mut sig.output {
        **ty = replace_f64(ty, s);
    }
    let body = generic_body(cx, m, s, a, callees);
    let (attrs, vis) = (m.func.attrs, m.func.vis);
    quote! {
        #(#attrs)*
        #vis #sig #body
    }
}

/// What other functions of the module or impl block need to know to call this one.
pub fn callee(m: &Model) -> Callee {
    let params = m
        .params
        .iter()
        .map(|p| scalar_param(m, p).then(|| param_abs(m, p)))
        .collect();
    let ret = match &m.func.sig.output {
        ReturnType::Type(_, ty) => abs_of_type(ty, true),
        ReturnType::Default => Abs::Unknown(false),
    };
    Callee {
        params,
        ret,
        method: m.receiver().is_some(),
    }
}

/// A parameter's abstract value in the body.
fn param_abs(m: &Model, p: &super::ast::Param) -> Abs {
    match p.kind {
        ParamKind::Struct if p.active => Abs::Unknown(true),
        _ => abs_of_type(p.ty, scalar_param(m, p)),
    }
}

/// Whether a parameter's `f64`s become `S` in the signature.
fn scalar_param(m: &Model, p: &super::ast::Param) -> bool {
    p.active || (m.place != Place::Free && matches!(p.kind, ParamKind::MutRef))
}

/// The body lowered to the model, and what the activity analysis found.
pub struct Analysed {
    pub body: crate::model::Body,
    pub act: activity::Activity,
}

/// Lower and analyse the body.
pub fn analyse(m: &Model, callees: &Callees) -> Analysed {
    let decls: Vec<ParamDecl> = m
        .params
        .iter()
        .map(|p| ParamDecl {
            ident: p.ident.clone(),
        })
        .collect();
    let body = lower_body(&decls, m.func.block);
    let params = m.params.iter().map(|p| param_abs(m, p)).collect();
    let ret = match &m.func.sig.output {
        ReturnType::Type(_, ty) => abs_of_type(ty, true),
        ReturnType::Default => Abs::Unknown(false),
    };
    let act = activity::analyse(&body, params, ret, callees);
    Analysed { body, act }
}

/// Print the generic body.
fn generic_body(
    cx: &mut Ctxt,
    m: &Model,
    s: &Ident,
    a: &Analysed,
    callees: &Callees,
) -> TokenStream {
    let out = codegen::generic::body(&a.body, &a.act, callees, s, cx);
    if std::env::var_os("FAZANG_MACRO_DEBUG").is_some() {
        // `FAZANG_MACRO_DEBUG=1 cargo build`: what the analysis found and the body it gave.
        eprintln!(
            "#[differentiate] {}:\n{}{}\n",
            m.name(),
            a.act.describe(&a.body),
            out
        );
    }
    out
}

/// The parameter type with `f64` replaced by `S`; a struct `Bar` becomes
/// `<Bar as Composite>::Of<S>` (that is `Bar<S>` for a #[deriv_rule] struct, and an error
/// in the user's terms for any other type).
fn scalar_type(ty: &Type, kind: &ParamKind, s: &Ident) -> Type {
    if let ParamKind::Struct = kind {
        return parse_quote!(<#ty as ::fazang::__private::Composite>::Of<#s>);
    }
    replace_f64(ty, s)
}
