//! `name_jvp`, `name_hvp` and `name_hessian` from the core form (issue 21): the hidden
//! `__name_tangent::<T>(params..)` (the forward sweep over a scalar `T`: with dual numbers,
//! tangent code) and `__name_adjoint_t::<T>(params.., seed, grads..)` (both sweeps over
//! `T`: with dual numbers, the tangent of the adjoint code, forward over reverse), and the
//! public items calling them with `Dual<f64, f64>` (one direction) or `Dual<f64, [f64; K]>`
//! (`K` Hessian columns per pass).
//!
//! The active parameters' `f64`s become `T` in the hidden items' signatures; data
//! parameters stay as written. Functions whose core form has no such code (a call the
//! dual numbers cannot go through, a registered struct parameter) keep the generic
//! body's items (`higher.rs`).

use super::ast::{Model, Param, Place};
use super::expand::Analysed;
pub(super) use super::higher::count;
use super::higher::{
    direction_ident, in_ok, input_names, is_result, ok_if_result, ret_type, seeds,
};
use super::siblings::{active_name, carried_attrs, item, result_with};
use crate::types::{replace_f64, ParamKind, ResultKind};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::Ident;

/// The bodies of the hidden generic items, when the core form gives both.
pub struct Generic<'a> {
    tangent: &'a TokenStream,
    adjoint: Option<&'a TokenStream>,
}

/// The generic bodies of `a`, if any (and why not, for `FAZANG_MACRO_DEBUG`).
pub fn generic<'a>(m: &Model, a: &'a Analysed) -> Option<Generic<'a>> {
    let adj = match &a.adjoint {
        Some(Ok(adj)) if !m.options.tape => adj,
        _ => return None,
    };
    let debug = std::env::var_os("FAZANG_MACRO_DEBUG").is_some();
    let tangent = match &adj.tangent {
        Ok(t) => t,
        Err(why) => {
            if debug {
                eprintln!(
                    "#[differentiate] {}: _jvp, _hvp, _hessian on the generic body; tangent \
                     code lacks {why}",
                    m.name()
                );
            }
            return None;
        }
    };
    if debug {
        eprintln!("#[differentiate] {}: tangent code\n{}\n", m.name(), tangent);
    }
    let scalar = matches!(m.ret, Some(ResultKind::Scalar | ResultKind::ResultScalar));
    let adjoint = adj.generic.as_ref().ok().filter(|_| scalar);
    Some(Generic { tangent, adjoint })
}

fn tangent_name(m: &Model) -> Ident {
    format_ident!("__{}_tangent", m.name())
}

fn adjoint_t_name(m: &Model) -> Ident {
    format_ident!("__{}_adjoint_t", m.name())
}

fn buffer(p: &Param) -> Ident {
    format_ident!("__fz_g_{}", p.ident)
}

/// `x: ty` with the active parameters' `f64`s made `__FzT`.
fn generic_inputs(m: &Model) -> TokenStream {
    let t = format_ident!("__FzT");
    let recv = super::siblings::wrapper_receiver(m);
    let inputs = m.params.iter().map(|p| {
        let x = &p.ident;
        if p.active {
            let ty = super::expand::borrowed_for_the_call(replace_f64(p.ty, &t));
            quote!(#x: #ty)
        } else {
            let ty = p.ty;
            quote!(#x: #ty)
        }
    });
    quote!(#recv #(#inputs),*)
}

/// A hidden item generic over `__FzT` (after the function's own generics).
fn generic_item(
    m: &Model,
    name: &Ident,
    extra: TokenStream,
    ret: TokenStream,
    body: &TokenStream,
) -> TokenStream {
    let f = &m.func;
    let mut generics = f.sig.generics.clone();
    generics
        .params
        .push(syn::parse_quote!(__FzT: ::fazang::__private::AdjointScalar));
    let (params, wc) = (&generics.params, &f.sig.generics.where_clause);
    let (vis, inputs, attrs) = (f.vis, generic_inputs(m), carried_attrs(m));
    let (ret, body) = if is_result(m) {
        (
            result_with(&f.sig.output, ret),
            quote!(::std::result::Result::Ok({ #body })),
        )
    } else {
        (ret, body.clone())
    };
    let item = quote! {
        #[doc(hidden)]
        #attrs
        #[allow(dead_code, unused_mut, unused_variables, unused_assignments, unused_parens, unused_braces, non_snake_case, unreachable_code, clippy::all)]
        #vis fn #name<#params>(#inputs #extra) -> #ret #wc {
            #body
        }
    };
    // rustc names the scalar in messages about this code: the primal's name for it
    // (`ActiveF64`) reads as the user's function, unless the function already uses that
    // name. (A method's impl block could declare it too, as the primal's scalar would
    // then clash as well: only a user naming a type parameter `ActiveF64` would.)
    let user = format_ident!("{}", crate::util::SCALAR);
    let mentioned = mentions(quote::ToTokens::to_token_stream(f.block), &user)
        || mentions(quote::ToTokens::to_token_stream(&f.sig), &user);
    if mentioned {
        item
    } else {
        rename(item, &format_ident!("__FzT"), &user)
    }
}

/// Whether `ts` has the identifier `name` anywhere.
fn mentions(ts: TokenStream, name: &Ident) -> bool {
    ts.into_iter().any(|t| match t {
        proc_macro2::TokenTree::Ident(i) => i == *name,
        proc_macro2::TokenTree::Group(g) => mentions(g.stream(), name),
        _ => false,
    })
}

/// `ts` with every identifier `from` replaced by `to` (same span).
fn rename(ts: TokenStream, from: &Ident, to: &Ident) -> TokenStream {
    use proc_macro2::{Group, TokenTree};
    ts.into_iter()
        .map(|t| match t {
            TokenTree::Ident(i) if i == *from => {
                TokenTree::Ident(Ident::new(&to.to_string(), i.span()))
            }
            TokenTree::Group(g) => {
                let mut n = Group::new(g.delimiter(), rename(g.stream(), from, to));
                n.set_span(g.span());
                TokenTree::Group(n)
            }
            other => other,
        })
        .collect()
}

/// The hidden `__name_tangent` and the public `name_jvp` over it.
pub fn tangent_items(m: &Model, g: &Generic) -> TokenStream {
    let vector = matches!(m.ret, Some(ResultKind::Vector));
    let tret = if vector {
        quote!(::std::vec::Vec<__FzT>)
    } else {
        quote!(__FzT)
    };
    let tangent = generic_item(m, &tangent_name(m), quote!(), tret, g.tangent);
    let jvp = jvp_fn(m, vector);
    quote!(#tangent #jvp)
}

/// The closure `name_hessian_sparse` gives the colour-lane driver: the parameters seeded
/// for a pass, the tangent of the adjoint code on `Dual<f64, [f64; COLOUR_LANES]>`, its
/// value and its gradient buffers flattened (the compressed Hessian's columns).
pub(super) fn colour_lanes_closure(m: &Model) -> TokenStream {
    let t = quote!(::fazang::Dual<f64, [f64; ::fazang::__private::COLOUR_LANES]>);
    let (seeds, zeros, out) = adjoint_t_pass(m, &t);
    let reads = m.active().map(|p| {
        let b = buffer(p);
        quote!(::fazang::__private::flat_duals(#b, &mut __fz_flat);)
    });
    quote! {
        |__fz_s: &mut ::fazang::__private::ColourLanes<'_, { ::fazang::__private::COLOUR_LANES }>| {
            #seeds
            #zeros
            let __fz_v = #out;
            let mut __fz_flat = ::std::vec::Vec::new();
            #(#reads)*
            ::std::result::Result::Ok((__fz_v, __fz_flat))
        }
    }
}

/// One pass of the tangent of the adjoint code on the dual scalar `t`: the parameters
/// seeded by `__fz_s`, zero gradient buffers, and the call (seed 1) giving the value.
fn adjoint_t_pass(m: &Model, t: &TokenStream) -> (TokenStream, TokenStream, TokenStream) {
    let (seeds, zeros, bufs) = (
        seeds(m, &format_ident!("__fz_s")),
        zero_buffers(m),
        buffer_args(m),
    );
    let out = call(
        m,
        &adjoint_t_name(m),
        t,
        quote!(<#t as ::core::convert::From<f64>>::from(1.0) #bufs),
    );
    (seeds, zeros, out)
}

/// Input directions per pass of `name_jacobian` by columns.
const JACOBIAN_LANES: usize = 8;

/// `name_jacobian`'s rows by columns of the tangent code (an expression, given `__fz_n`
/// inputs): `JACOBIAN_LANES` unit directions per pass on `Dual<f64, [f64; K]>`.
pub(super) fn jacobian_columns(m: &Model) -> TokenStream {
    let k = JACOBIAN_LANES;
    let t = quote!(::fazang::Dual<f64, [f64; #k]>);
    let seeds = seeds(m, &format_ident!("__fz_s"));
    let out = call(m, &tangent_name(m), &t, quote!());
    quote! {{
        let mut __fz_s = ::fazang::__private::JacobianLanes::<#k>::new(__fz_n);
        while __fz_s.next_pass() {
            #seeds
            let __fz_out = #out;
            __fz_s.finish_pass(__fz_out);
        }
        __fz_s.finish()
    }}
}

/// The hidden `__name_adjoint_t` and the public `name_hvp` and `name_hessian` over it,
/// if the core form gives it (scalar results).
pub fn second_items(m: &Model, g: &Generic) -> Option<TokenStream> {
    let adjoint = g.adjoint?;
    let bufs = m.active().map(|p| {
        let (b, t) = (buffer(p), buffer_type(p));
        quote!(, #b: #t)
    });
    let adj = generic_item(
        m,
        &adjoint_t_name(m),
        quote!(, __fz_seed: __FzT #(#bufs)*),
        quote!(__FzT),
        adjoint,
    );
    let (hvp, hessian) = (hvp_fn(m), hessian_fn(m));
    Some(quote!(#adj #hvp #hessian))
}

/// A gradient buffer's type over `__FzT`.
fn buffer_type(p: &Param) -> TokenStream {
    let t = format_ident!("__FzT");
    let ty: syn::Type = syn::parse2(super::adjoint_items::buffer_type(p)).expect("a type");
    let ty = replace_f64(&ty, &t);
    quote!(#ty)
}

/// The call of a hidden generic item with the scalar `t`: active parameters as their
/// seeded copies (`__fza_x`), data as they are.
fn call(m: &Model, name: &Ident, t: &TokenStream, extra: TokenStream) -> TokenStream {
    let args = m.params.iter().map(|p| {
        let x = &p.ident;
        if !p.active {
            return quote!(#x);
        }
        let a = active_name(p);
        let by_ref = matches!(
            p.kind,
            ParamKind::Nested { by_ref: true, .. } | ParamKind::Container { by_ref: true, .. }
        );
        if by_ref {
            quote!(&#a)
        } else {
            quote!(#a)
        }
    });
    let call = match (m.place, m.receiver()) {
        (Place::Method, Some(_)) => quote!(self.#name::<#t>(#(#args,)* #extra)),
        (Place::Method, None) => quote!(Self::#name::<#t>(#(#args,)* #extra)),
        _ => quote!(#name::<#t>(#(#args,)* #extra)),
    };
    if is_result(m) {
        quote!(match #call {
            ::std::result::Result::Ok(v) => v,
            ::std::result::Result::Err(e) => return ::std::result::Result::Err(e),
        })
    } else {
        call
    }
}

/// Zero gradient buffers shaped as the seeded parameters.
fn zero_buffers(m: &Model) -> TokenStream {
    let lets = m.active().map(|p| {
        let (b, a) = (buffer(p), active_name(p));
        quote!(let mut #b = ::fazang::__private::zeros_like(&#a);)
    });
    quote!(#(#lets)*)
}

fn buffer_args(m: &Model) -> TokenStream {
    let bufs = m.active().map(|p| {
        let b = buffer(p);
        quote!(, &mut #b)
    });
    quote!(#(#bufs)*)
}

const DUAL1: &str = "::fazang::Dual<f64, f64>";

fn jvp_fn(m: &Model, vector: bool) -> TokenStream {
    let t: TokenStream = DUAL1.parse().expect("a type");
    let what = format!("{}_jvp", m.name());
    let seeds = seeds(m, &format_ident!("__fz_dir"));
    let read = [
        quote!((
            __fz_out.iter().map(|d| d.re).collect(),
            __fz_out.iter().map(|d| d.eps).collect(),
        )),
        quote!((__fz_out.re, __fz_out.eps)),
    ];
    super::higher::jvp_item(
        m,
        vector,
        |v, n| quote!(let mut __fz_dir = ::fazang::__private::TangentSeed::new(#what, #v, #n); #seeds),
        call(m, &tangent_name(m), &t, quote!()),
        read,
        "Tangent code: the body's core form run once on dual numbers.",
    )
}

fn hvp_fn(m: &Model) -> TokenStream {
    let name = m.name();
    let hname = format_ident!("{}_hvp", name);
    let v = direction_ident(m);
    let t: TokenStream = DUAL1.parse().expect("a type");
    let what = format!("{hname}");
    let (n, seeds, zeros) = (
        count(m),
        seeds(m, &format_ident!("__fz_dir")),
        zero_buffers(m),
    );
    let bufs = buffer_args(m);
    let out = call(
        m,
        &adjoint_t_name(m),
        &t,
        quote!(<#t as ::core::convert::From<f64>>::from(1.0) #bufs),
    );
    let reads = m.active().map(|p| {
        let b = buffer(p);
        quote!(::fazang::__private::flat_duals(#b, &mut __fz_flat);)
    });
    let done = ok_if_result(
        m,
        quote!((__fz_v.re, __fz_flat.iter().map(|d| d.eps).collect())),
    );
    let body = quote! {
        let __fz_n = #n;
        let mut __fz_dir = ::fazang::__private::TangentSeed::new(#what, #v, __fz_n);
        #seeds
        #zeros
        let __fz_v = #out;
        let mut __fz_flat = ::std::vec::Vec::with_capacity(__fz_n);
        #(#reads)*
        #done
    };
    let doc1 = format!(
        " Value of [`{name}`] and its Hessian times `{v}` (generated by `#[differentiate]`)."
    );
    let doc2 = format!(
        " Returns `(value, H {v})`{}, both over the active inputs {} flattened in that order; \
         `{v}` has one entry per input (panics otherwise). The tangent of the adjoint code \
         (forward over reverse): both sweeps once, on dual numbers.",
        in_ok(m),
        input_names(m)
    );
    let ty = quote!((f64, ::std::vec::Vec<f64>));
    item(
        m,
        &hname,
        [doc1, doc2],
        quote!(, #v: &[f64]),
        ret_type(m, ty),
        body,
    )
}

/// Lanes per pass of `name_hessian`: few inputs take one pass of 4, more passes of 8.
const LANES: [(usize, usize); 2] = [(4, 4), (usize::MAX, 8)];

fn hessian_fn(m: &Model) -> TokenStream {
    let name = m.name();
    let hname = format_ident!("{}_hessian", name);
    let n = count(m);
    let session = |k: usize| {
        let t = quote!(::fazang::Dual<f64, [f64; #k]>);
        let (seeds, zeros, out) = adjoint_t_pass(m, &t);
        let reads = m.active().map(|p| {
            let b = buffer(p);
            quote!(__fz_s.read(#b);)
        });
        quote! {{
            let mut __fz_s = ::fazang::__private::HessianLanes::<#k>::new(__fz_n);
            while __fz_s.next_pass() {
                #seeds
                #zeros
                let __fz_v = #out;
                #(#reads)*
                __fz_s.finish_pass(__fz_v);
            }
            __fz_s.finish()
        }}
    };
    let (small, large) = (session(LANES[0].1), session(LANES[1].1));
    let few = LANES[0].0;
    let (g, gty) = super::higher::shaped_gradient(m);
    let done = ok_if_result(m, quote!((__fz_v, __fz_grad, __fz_h)));
    let body = quote! {
        let __fz_n = #n;
        let (__fz_v, __fz_g, __fz_h) = if __fz_n <= #few { #small } else { #large };
        let mut __fz_it = __fz_g.into_iter();
        let __fz_grad = #g;
        #done
    };
    let doc1 =
        format!(" Value, gradient and Hessian of [`{name}`] (generated by `#[differentiate]`).");
    let doc2 = format!(
        " Returns `(value, gradient, hessian)`{}: the gradient shaped as `{name}_grad` \
         shapes it, the Hessian as rows (`hessian[i][j]` = d²f / d input_i d input_j, \
         symmetric) over the active inputs {} flattened in that order. The tangent of the \
         adjoint code (forward over reverse), up to 8 Hessian columns per pass.",
        in_ok(m),
        input_names(m)
    );
    let ty = quote!((f64, #gty, ::std::vec::Vec<::std::vec::Vec<f64>>));
    item(
        m,
        &hname,
        [doc1, doc2],
        TokenStream::new(),
        ret_type(m, ty),
        body,
    )
}
