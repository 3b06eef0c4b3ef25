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

/// [`SCALAR`](crate::util::SCALAR), or the same followed by `_`, `__`.. if the function or
/// its impl block already has a generic named so.
pub fn scalar_ident(own: &Generics, outer: Option<&Generics>) -> Ident {
    let taken = |name: &str| {
        own.type_params()
            .chain(outer.into_iter().flat_map(|g| g.type_params()))
            .any(|t| t.ident == name)
    };
    let mut name = String::from(crate::util::SCALAR);
    while taken(&name) {
        name.push('_');
    }
    format_ident!("{}", name)
}

/// A lifetime name for the where-clauses' `for<'a>` binders, free in `generics` (a
/// binder may not shadow a lifetime in scope). rustc prints it (`&'a f64`), so it is the
/// plain name a user would write where it can be.
pub fn free_lifetime(own: &Generics, outer: Option<&Generics>) -> syn::Lifetime {
    let taken = |n: &str| {
        own.lifetimes()
            .chain(outer.into_iter().flat_map(|g| g.lifetimes()))
            .any(|l| l.lifetime.ident == n)
    };
    let name = ('a'..='z')
        .map(|c| c.to_string())
        .find(|n| !taken(n))
        .unwrap_or_else(|| "__fz".to_string());
    syn::Lifetime::new(&format!("'{name}"), proc_macro2::Span::call_site())
}

/// The function made generic over `s` (`lt`: the name of its where-clauses' binders).
pub fn generic_fn(
    cx: &mut Ctxt,
    m: &Model,
    (s, lt): (&Ident, &syn::Lifetime),
    a: &Analysed,
    callees: &Callees,
) -> TokenStream {
    let mut sig = m.func.sig.clone();
    sig.generics.params.push(parse_quote!(#s: ::fazang::Real));
    let wc = sig.generics.make_where_clause();
    // `T: Float` helpers, nalgebra's methods and `fazang::linalg` take the body's scalar.
    wc.predicates
        .push(parse_quote!(#s: ::fazang::__private::BodyScalar));
    let wc = sig.generics.make_where_clause();
    wc.predicates
        .push(parse_quote!(f64: ::fazang::__private::ScalarOps<#s>));
    wc.predicates
        .push(parse_quote!(#s: ::fazang::__private::IntoScalar<#s>));
    wc.predicates.push(parse_quote!(
        for<#lt> &#lt #s: ::fazang::__private::RefOps<#s> + ::fazang::__private::RefScalarOps<#s>
    ));
    wc.predicates
        .push(parse_quote!(for<#lt> &#lt f64: ::fazang::__private::RefOps<#s>));
    // The same bounds for `f64` itself, although they always hold: rustc prefers a
    // where-clause when it infers a callee's scalar, so with only the `S` ones a call of
    // another differentiated function on data (`sq(r - mean)`) would be given `S`.
    wc.predicates
        .push(parse_quote!(f64: ::fazang::__private::ScalarOps<f64>));
    wc.predicates
        .push(parse_quote!(for<#lt> &#lt f64: ::fazang::__private::RefOps<f64> + ::fazang::__private::RefScalarOps<f64>));
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
        **ty = match m.ret {
            // `-> State` with `type State = [f64; 2];`: `[S; 2]`, through the trait; spanned
            // at the written type, where rustc reports a result that is not such an alias.
            Some(crate::types::ResultKind::Aliased) => {
                let span = syn::spanned::Spanned::span(&**ty);
                syn::parse_quote_spanned!(span=> <#ty as ::fazang::__private::VectorShape>::Of<#s>)
            }
            _ => replace_f64(ty, s),
        };
    }
    if !a.act.converged {
        cx.error(
            &m.func.sig.ident,
            "#[differentiate]: the activity analysis of this body did not settle (a bug of \
             fazang, please report it with the function)",
        );
    }
    let body = generic_body(cx, m, s, a, callees);
    let body = match fused(m, a, s) {
        Some(pre) => quote!({ #pre #body }),
        None => body,
    };
    let (attrs, vis) = (m.func.attrs, m.func.vis);
    // Generated derivatives need not call the function (adjoint and tangent code are
    // their own functions): one that is only differentiated is not dead code.
    let live = if m.has_siblings() {
        quote!(#[allow(dead_code)])
    } else {
        TokenStream::new()
    };
    quote! {
        #(#attrs)*
        #live
        #vis #sig #body
    }
}

/// Called on the tape, a function whose gradient is adjoint code records one node with
/// the partials that code computes, instead of every operation (Stan's precomputed
/// gradients). Where it is faster: bodies with a loop, parameters `f64` and flat arrays.
fn fused(m: &Model, a: &Analysed, s: &Ident) -> Option<TokenStream> {
    use crate::types::Nested;
    let scalar = matches!(
        m.ret,
        Some(crate::types::ResultKind::Scalar | crate::types::ResultKind::ResultScalar)
    );
    if !scalar || !matches!(a.adjoint, Some(Ok(_))) || !has_loop(&a.body.block) {
        return None;
    }
    let flat = |p: &super::ast::Param| match &p.kind {
        ParamKind::Scalar => true,
        ParamKind::Nested { shape, .. } => match shape {
            Nested::Slice(e) | Nested::Vec(e) | Nested::Array(e, _) => matches!(**e, Nested::F64),
            Nested::F64 => false,
        },
        _ => false,
    };
    // `beta: &'static [f64]`, or `&'a [f64]` with `'a` of the impl block: `name_grad`
    // cannot lend it the values copied for it, which live for the call only.
    let named_lifetime = |p: &super::ast::Param| {
        struct Named(bool);
        impl<'v> syn::visit::Visit<'v> for Named {
            fn visit_lifetime(&mut self, l: &'v syn::Lifetime) {
                self.0 |= l.ident != "_";
            }
        }
        let mut found = Named(false);
        syn::visit::visit_type(&mut found, p.ty);
        found.0
    };
    if !m.active().all(flat) || m.active().any(named_lifetime) {
        return None;
    }
    let gname = m
        .options
        .grad
        .clone()
        .unwrap_or_else(|| format_ident!("{}_grad", m.name()));
    let args = m.params.iter().map(|p| {
        let x = &p.ident;
        match (&p.kind, p.active) {
            (_, false) => quote!(#x),
            (ParamKind::Scalar, true) => quote!(::fazang::Real::val(&#x)),
            (
                ParamKind::Nested {
                    shape: Nested::Array(..),
                    by_ref,
                    ..
                },
                true,
            ) => {
                let arr = quote!(#x.map(|__fz_v| ::fazang::Real::val(&__fz_v)));
                if *by_ref {
                    quote!(&#arr)
                } else {
                    arr
                }
            }
            (ParamKind::Nested { by_ref, .. }, true) => {
                let v =
                    quote!(#x.iter().map(::fazang::Real::val).collect::<::std::vec::Vec<f64>>());
                if *by_ref {
                    quote!(&#v)
                } else {
                    v
                }
            }
            _ => quote!(#x),
        }
    });
    let call = match (m.place, m.receiver()) {
        (Place::Method, Some(_)) => quote!(self.#gname(#(#args),*)),
        (Place::Method, None) => quote!(Self::#gname(#(#args),*)),
        _ => quote!(#gname(#(#args),*)),
    };
    let active: Vec<_> = m.active().collect();
    let all_scalar = active.iter().all(|p| matches!(p.kind, ParamKind::Scalar));
    let pushes = active.iter().enumerate().map(|(i, p)| {
        let x = &p.ident;
        let g = if all_scalar {
            quote!(__fz_g[#i])
        } else if active.len() == 1 {
            quote!(__fz_g)
        } else {
            let i = syn::Index::from(i);
            quote!(__fz_g.#i)
        };
        match p.kind {
            ParamKind::Scalar => quote!(__fz_p.push(#x, #g);),
            _ => quote! {
                for (__fz_x, __fz_d) in #x.iter().zip(#g.iter()) {
                    __fz_p.push(*__fz_x, *__fz_d);
                }
            },
        }
    });
    let record = quote! {
        <#s as ::fazang::Real>::from_partials(__fz_v, |__fz_p| { #(#pushes)* })
    };
    let result = matches!(m.ret, Some(crate::types::ResultKind::ResultScalar));
    let body = if result {
        quote!(return match #call {
            ::std::result::Result::Ok((__fz_v, __fz_g)) => ::std::result::Result::Ok(#record),
            ::std::result::Result::Err(__fz_e) => ::std::result::Result::Err(__fz_e),
        };)
    } else {
        quote!(let (__fz_v, __fz_g) = #call; return #record;)
    };
    Some(quote! {
        if ::fazang::__private::fused::<#s>() {
            #body
        }
    })
}

/// Whether a block has a loop (at any depth).
fn has_loop(b: &crate::model::Block) -> bool {
    use crate::model::{Kind, Stmt};
    b.stmts.iter().any(|s| match s {
        Stmt::Expr(e, _) => match &e.kind {
            Kind::For(..) | Kind::While(..) | Kind::Loop(..) => true,
            Kind::If(_, t, els) => {
                has_loop(t)
                    || els
                        .as_ref()
                        .is_some_and(|x| matches!(&x.kind, Kind::Block(_, _, b) if has_loop(b)))
            }
            Kind::Block(_, _, inner) => has_loop(inner),
            _ => false,
        },
        _ => false,
    })
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

/// The body lowered to the model, what the activity analysis found, and the adjoint
/// code of `name_grad` (or why the tape takes it), for functions with a gradient.
pub struct Analysed {
    pub body: crate::model::Body,
    pub act: activity::Activity,
    pub adjoint: Option<Result<crate::ir::Adjoint, crate::ir::lower::Unsupported>>,
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
    let aliased = matches!(m.ret, Some(crate::types::ResultKind::Aliased));
    let adjoint = (m.has_siblings() && !m.options.tape && !aliased)
        .then(|| crate::ir::adjoint(m, &body, &act, callees));
    Analysed { body, act, adjoint }
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

/// The parameter type with `f64` replaced by `S`; a capitalised name `Bar` becomes
/// `<Bar as Seed>::Of<S>`: `Bar<S>` for a #[deriv_rule] struct, `[S; 2]` for an alias
/// `type Bar = [f64; 2];`, and an error in the user's terms for any other type.
fn scalar_type(ty: &Type, kind: &ParamKind, s: &Ident) -> Type {
    if let ParamKind::Struct = kind {
        return parse_quote!(<#ty as ::fazang::__private::Seed>::Of<#s>);
    }
    borrowed_for_the_call(replace_f64(ty, s))
}

/// `&'static [S]` made `&[S]`: the siblings lend a generic item active copies of a
/// parameter (`beta: &'static [f64]`) made on the spot, which live for the call, not for
/// `'static`. The primal still accepts what it did (a `'static` borrow is a borrow).
pub fn borrowed_for_the_call(mut ty: Type) -> Type {
    if let Type::Reference(r) = &mut ty {
        if r.lifetime.as_ref().is_some_and(|l| l.ident == "static") {
            r.lifetime = None;
        }
    }
    ty
}
