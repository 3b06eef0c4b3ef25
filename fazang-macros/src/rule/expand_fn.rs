//! The generic function a rule expands to (input validated by `valid`).
//!
//! The body runs once on `f64` values, never traced; the result is recorded as one node
//! with the rule's partials (`Real::from_partials`), or as outputs whose adjoints the
//! adjoint function computes during the sweep (`RealInternals::__from_vjp`).

use super::ast::{Active, Form, Param, Role, RuleFn};
use super::valid::SCALAR;
use crate::types::{generic_over, without_ref_lifetimes, RetShape, Shape};
use proc_macro2::{Span, TokenStream, TokenTree};
use quote::{format_ident, quote, quote_spanned, ToTokens};
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{Expr, Ident, Type};

pub fn expand(f: &RuleFn) -> TokenStream {
    let s = Ident::new(SCALAR, Span::call_site());
    let item = f.item;
    let (attrs, vis, sig) = (&item.attrs, &item.vis, &item.sig);
    let (fn_token, ident) = (&sig.fn_token, &sig.ident);
    let lifetimes = sig.generics.lifetimes();
    let where_clause = &sig.generics.where_clause;
    let params = f.params.iter().map(|p| signature_param(f, p, &s));
    let (ret_f64, ret_shape) = f.ret.expect("validated: a return type");
    let ret_s = generic_over(ret_f64, &s, Shape::Other);
    // The partials are only read in the partials form: an `adjoint = ..` rule names none.
    let (body, doc) = match f.form() {
        Form::Partials => match generic_partials(f, ret_shape) {
            Ok(partials) => (
                apply_generic(f, ret_f64, &partials, &s),
                GENERIC_DOC.to_string(),
            ),
            Err(why) => (
                first_order(f, ret_f64, record_partials(f, &s), &why, &s),
                format!("{PARTIALS_DOC} First-order only: {why}."),
            ),
        },
        Form::Adjoint(path) => (
            first_order(
                f,
                ret_f64,
                record_adjoint(f, path, ret_shape, &s),
                "it is an `adjoint = ..` rule, whose vector-Jacobian product runs on f64",
                &s,
            ),
            format!("{ADJOINT_DOC} `{}`.", path.to_token_stream()),
        ),
    };
    quote! {
        #(#attrs)*
        #[doc = ""]
        #[doc = #doc]
        #[allow(clippy::redundant_closure_call)]
        #vis #fn_token #ident<#(#lifetimes,)* #s: ::fazang::Real>(#(#params),*) -> #ret_s
        #where_clause
        {
            #body
        }
    }
}

/// The body that runs the rule on `f64` values and records `f64` partials (or an
/// adjoint function), after checking that no argument needs more than first
/// derivatives: a second-order scalar (a Hessian, a Taylor series) panics with `why`.
fn first_order(
    f: &RuleFn,
    ret_f64: &Type,
    record: TokenStream,
    why: &str,
    s: &Ident,
) -> TokenStream {
    let bindings = f.active().map(|(p, a)| binding(p, a, s));
    let rebinds = f
        .roles()
        .filter(|(p, _)| p.mutable)
        .map(|(p, r)| rebind(f, p, r));
    // The body's statements go straight into the closure: wrapping the block itself
    // would leave `{ { .. } }`, which rustc reports as unused braces in user code.
    let stmts = &f.item.block.stmts;
    let checks = f.active().map(|(p, a)| first_order_check(p, a, s));
    let name = f.name().unraw().to_string();
    quote! {
        if !(true #(&& #checks)*) {
            ::fazang::__private::rule_first_order_only(#name, #why);
        }
        #(#bindings)*
        let __fz_value: #ret_f64 = (|| -> #ret_f64 { #(#rebinds)* #(#stmts)* })();
        #record
    }
}

/// Whether `f64` partials give every derivative the argument carries.
fn first_order_check(p: &Param, a: Active, s: &Ident) -> TokenStream {
    let name = p.name();
    let real = quote!(<#s as ::fazang::__private::RealInternals>);
    match a {
        Active::Scalar => quote!(#real::__f64_partials_suffice(&#name)),
        Active::Struct { by_ref } => {
            let (span, arg) = struct_arg(p, name, by_ref);
            quote_spanned! {span=>
                ::fazang::__private::CompositeOf::<#s>::__first_order(#arg)
            }
        }
        _ => {
            let slice = slice_of(name, a);
            quote!(#slice.iter().all(#real::__f64_partials_suffice))
        }
    }
}

/// The partials rewritten for a generic scalar, when every active parameter is a scalar,
/// the result is `f64`, and every partial can be evaluated on any scalar.
fn generic_partials(f: &RuleFn, ret: RetShape) -> Result<Vec<TokenStream>, String> {
    let t = Ident::new(GENERIC, Span::call_site());
    if !matches!(ret, RetShape::F64) {
        return Err("its result is not a single f64".into());
    }
    let active: Vec<&Ident> = f.active().map(|(p, _)| p.name()).collect();
    let params: Vec<&Ident> = f.params.iter().filter_map(|p| p.ident).collect();
    if let Some((p, _)) = f.active().find(|(_, a)| *a != Active::Scalar) {
        return Err(format!("`{}` is not a scalar", p.name().unraw()));
    }
    f.active()
        .map(|(p, _)| {
            let d = f
                .partial(p)
                .expect("validated: every active parameter named");
            super::generic::rewrite(&d.expr, &active, &params, &t).map_err(|why| {
                format!(
                    "its partial for `{}` is computed on f64 ({why})",
                    p.name().unraw()
                )
            })
        })
        .collect()
}

/// The type parameter of the generic partials.
/// (A method of a local impl: no outer generic is in scope, so it can take the same
/// name as the function's scalar, which reads as the user's `f64` in messages.)
const GENERIC: &str = crate::util::SCALAR;

/// The body of a rule whose partials are generic: `apply_rule` evaluates them on the
/// scalar one derivative order below (on `f64` for `f64` and `Var`), recursively, and
/// runs the body once, on `f64`.
fn apply_generic(f: &RuleFn, ret_f64: &Type, partials: &[TokenStream], s: &Ident) -> TokenStream {
    let t = Ident::new(GENERIC, Span::call_site());
    let names: Vec<&Ident> = f.active().map(|(p, _)| p.name()).collect();
    let n = names.len();
    let rebinds = f
        .roles()
        .filter(|(p, _)| p.mutable)
        .map(|(p, r)| rebind(f, p, r));
    let stmts = &f.item.block.stmts;
    quote! {
        struct __FzPartials;
        impl ::fazang::__private::RulePartials<#n> for __FzPartials {
            #[inline]
            #[allow(unused_variables, clippy::all)]
            fn partials<#t: ::fazang::Real>(&self, __fz_x: [#t; #n]) -> [#t; #n] {
                let [#(#names),*] = __fz_x;
                [#(#partials),*]
            }
        }
        ::fazang::__private::apply_rule::<#s, __FzPartials, #n>(
            &__FzPartials,
            [#(#names),*],
            |[#(#names),*]: [f64; #n]| -> #ret_f64 { #(#rebinds)* #(#stmts)* },
        )
    }
}

const GENERIC_DOC: &str = "*Derivative from `#[deriv_rule]`*: generic over the scalar \
    `ActiveF64`. With `f64` arguments this computes the value; with `Var` arguments it also records \
    one node on the tape, holding the rule's partial derivatives (the body is not traced). \
    The partials are evaluated on the scalar itself, so Hessians, Taylor series and nested \
    derivatives through this function are exact.";

const PARTIALS_DOC: &str = "*Derivative from `#[deriv_rule]`*: generic over the scalar \
    `ActiveF64`. With `f64` arguments this computes the value; with `Var` arguments it also records \
    one node on the tape, holding the rule's partial derivatives (the body is not traced).";

const ADJOINT_DOC: &str =
    "*Derivative from `#[deriv_rule]`*: generic over the scalar `ActiveF64`. \
    With `f64` arguments this computes the value; with `Var` arguments it also records the \
    result, whose adjoints are propagated during the backward sweep by";

/// The name of the hidden binding holding the scalar-typed argument.
fn hidden(name: &Ident) -> Ident {
    format_ident!("__fz_arg_{}", name.unraw())
}

/// The name of the hidden binding holding values borrowed by the body.
fn hidden_vals(name: &Ident) -> Ident {
    format_ident!("__fz_vals_{}", name.unraw())
}

/// `x: S`, `v: &[S]`, `z: Bar<S>`; data parameters unchanged.
fn signature_param(f: &RuleFn, p: &Param, s: &Ident) -> TokenStream {
    match f.role(p) {
        Role::Active(_) => {
            let (attrs, name) = (&p.arg.attrs, p.name());
            let ty = generic_over(&p.arg.ty, s, p.shape);
            quote!(#(#attrs)* #name: #ty)
        }
        Role::Data | Role::Invalid(_) if p.mutable => {
            let (attrs, name, ty) = (&p.arg.attrs, p.name(), &p.arg.ty);
            quote!(#(#attrs)* #name: #ty)
        }
        Role::Data | Role::Invalid(_) => p.arg.to_token_stream(),
    }
}

/// `let mut x = x;` at the top of the body for a `mut` parameter, so that the body's
/// changes stay in the body: the rule sees the arguments as they were passed. A value
/// the rule or adjoint function also uses, and that the body would own, is cloned.
fn rebind(f: &RuleFn, p: &Param, role: Role) -> TokenStream {
    let name = p.name();
    let used_later = match f.form() {
        Form::Adjoint(_) => true,
        Form::Partials => f
            .attr
            .partials
            .iter()
            .any(|d| mentions(d.expr.to_token_stream(), name)),
    };
    let owned = match role {
        Role::Active(a) => matches!(a, Active::Vec | Active::Struct { by_ref: false }),
        _ => !matches!(&*p.arg.ty, Type::Reference(_)),
    };
    if used_later && owned {
        quote!(let mut #name = ::core::clone::Clone::clone(&#name);)
    } else {
        quote!(let mut #name = #name;)
    }
}

/// Whether `tokens` contain the identifier `name`.
fn mentions(tokens: TokenStream, name: &Ident) -> bool {
    tokens.into_iter().any(|t| match t {
        TokenTree::Ident(i) => i == *name,
        TokenTree::Group(g) => mentions(g.stream(), name),
        _ => false,
    })
}

/// Rebind an active parameter to its `f64` values, as the body and the rule see them;
/// the scalar-typed argument stays in `__fz_<name>`.
fn binding(p: &Param, a: Active, s: &Ident) -> TokenStream {
    let name = p.name();
    let h = hidden(name);
    let v = hidden_vals(name);
    let real = quote!(<#s as ::fazang::Real>);
    let internals = quote!(<#s as ::fazang::__private::RealInternals>);
    match a {
        Active::Scalar => quote! {
            let #h = #name;
            let #name: f64 = #real::val(&#h);
        },
        Active::Slice | Active::VecRef => {
            let slice = slice_of(&h, a);
            quote! {
                let #h = #name;
                let #v = #internals::__vals(#slice);
                let #name: &[f64] = &#v;
            }
        }
        Active::Vec => quote! {
            let (#name, #h) = #internals::__into_vals(#name);
        },
        Active::Array => quote! {
            let #h = #name;
            let #name = #h.map(|__fz_e| #real::val(&__fz_e));
        },
        Active::Struct { by_ref } => {
            let (span, arg) = struct_arg(p, &h, by_ref);
            let values = quote_spanned! {span=>
                ::fazang::__private::CompositeOf::<#s>::values(#arg)
            };
            let bind = if by_ref { quote!(&#v) } else { quote!(#v) };
            quote! {
                let #h = #name;
                let #v = #values;
                let #name = #bind;
            }
        }
    }
}

/// A struct parameter's hidden argument as a reference, spanned at the parameter's type:
/// an error about a struct without #[deriv_rule] points there (once: reading its values
/// and pushing its partials use the same span).
fn struct_arg(p: &Param, h: &Ident, by_ref: bool) -> (proc_macro2::Span, TokenStream) {
    let span = p.arg.ty.span();
    let h = Ident::new(&h.to_string(), span);
    let arg = if by_ref {
        quote!(#h)
    } else {
        quote_spanned!(span=> &#h)
    };
    (span, arg)
}

/// The hidden argument as a `&[S]`.
fn slice_of(h: &Ident, a: Active) -> TokenStream {
    match a {
        Active::Slice => quote!(#h),
        _ => quote!(#h.as_slice()),
    }
}

/// `S::from_partials(value, |p| { push each rule's partial })`.
fn record_partials(f: &RuleFn, s: &Ident) -> TokenStream {
    let pushes = f.active().map(|(p, a)| {
        let expr = &f
            .partial(p)
            .expect("validated: every active parameter named")
            .expr;
        push_partial(p, a, expr, s)
    });
    quote! {
        <#s as ::fazang::Real>::from_partials(
            __fz_value,
            |__fz_p: &mut ::fazang::__private::Partials<#s>| { #(#pushes)* },
        )
    }
}

fn push_partial(p: &Param, a: Active, expr: &Expr, s: &Ident) -> TokenStream {
    let name = p.name();
    let h = hidden(name);
    let label = name.unraw().to_string();
    match a {
        Active::Scalar => quote! {
            ::fazang::__private::Partials::push(__fz_p, #h, #expr);
        },
        Active::Slice | Active::VecRef | Active::Vec | Active::Array => {
            let slice = slice_of(&h, a);
            quote! {
                ::fazang::__private::push_slice(__fz_p, #slice, #expr, #label);
            }
        }
        Active::Struct { by_ref } => {
            let (span, arg) = struct_arg(p, &h, by_ref);
            let push = quote_spanned! {span=>
                ::fazang::__private::CompositeOf::<#s>::push_partials(#arg, &__fz_d, __fz_p);
            };
            quote! {
                let __fz_d = #expr;
                #push
            }
        }
    }
}

/// `S::__from_vjp(outputs, |inputs| adjoint closure)`, converted to the return type.
fn record_adjoint(f: &RuleFn, path: &Expr, ret: RetShape, s: &Ident) -> TokenStream {
    let fn_ptr = adjoint_fn_type(f, ret);
    let coerce = quote_spanned!(path.span()=> let __fz_adjoint: #fn_ptr = #path;);
    let inputs = f.active().map(|(p, a)| {
        let h = hidden(p.name());
        let slice = slice_of(&h, a);
        match a {
            Active::Scalar => quote!(__fz_in.push(#h);),
            _ => quote!(__fz_in.extend_from_slice(#slice);),
        }
    });
    let captures = f.roles().map(|(p, role)| capture(p, role));
    let args = f.roles().map(|(p, role)| adjoint_arg(p, role));
    let (out, ds) = match ret {
        RetShape::F64 => (quote!(__fz_out), quote!(__fz_ds[0])),
        RetShape::Array(_) => (
            quote!(&__fz_out),
            quote!(::fazang::__private::as_array(__fz_ds)),
        ),
        _ => (quote!(&__fz_out), quote!(__fz_ds)),
    };
    let scatter = scatter(f);
    let from = quote!(<#s as ::core::convert::From<f64>>::from);
    let (inactive, active) = match ret {
        RetShape::F64 => (quote!(#from(__fz_value)), quote!(__fz_outs[0])),
        RetShape::Array(_) => (
            quote!(__fz_value.map(#from)),
            quote!(::fazang::__private::to_array(__fz_outs)),
        ),
        _ => (
            quote!(__fz_value.into_iter().map(#from).collect()),
            quote!(__fz_outs),
        ),
    };
    quote! {
        #coerce
        let __fz_outs = <#s as ::fazang::__private::RealInternals>::__from_vjp(
            ::fazang::__private::AsOutputs::as_outputs(&__fz_value),
            |__fz_in: &mut ::std::vec::Vec<#s>| {
                #(#inputs)*
                #(#captures)*
                let __fz_out = ::core::clone::Clone::clone(&__fz_value);
                move |__fz_ds: &[f64], __fz_ib: &mut [f64]| {
                    let __fz_adj = __fz_adjoint(#(#args,)* #out, #ds);
                    #scatter
                }
            },
        );
        match __fz_outs {
            ::core::option::Option::None => #inactive,
            ::core::option::Option::Some(__fz_outs) => #active,
        }
    }
}

/// `fn(inputs.., out, ds) -> adjoints`, the type the adjoint function must have.
fn adjoint_fn_type(f: &RuleFn, ret: RetShape) -> TokenStream {
    let inputs = f.roles().map(|(p, role)| match role {
        Role::Active(a) => active_input_type(p, a),
        _ => without_ref_lifetimes(&p.arg.ty).to_token_stream(),
    });
    let out = match ret {
        RetShape::F64 => quote!(f64),
        RetShape::Array(m) => quote!(&[f64; #m]),
        _ => quote!(&[f64]),
    };
    let adjoints: Vec<TokenStream> = f.active().map(|(p, a)| adjoint_type(p, a)).collect();
    let adjoints = match adjoints.as_slice() {
        [one] => one.clone(),
        many => quote!((#(#many),*)),
    };
    quote!(fn(#(#inputs,)* #out, #out) -> #adjoints)
}

fn active_input_type(p: &Param, a: Active) -> TokenStream {
    match (a, p.shape) {
        (Active::Scalar, _) => quote!(f64),
        (Active::Array, Shape::Array(n)) => quote!(&[f64; #n]),
        _ => quote!(&[f64]),
    }
}

fn adjoint_type(p: &Param, a: Active) -> TokenStream {
    match (a, p.shape) {
        (Active::Scalar, _) => quote!(f64),
        (Active::Array, Shape::Array(n)) => quote!([f64; #n]),
        _ => quote!(::std::vec::Vec<f64>),
    }
}

/// Keep a parameter's value (owned) for the backward sweep.
fn capture(p: &Param, role: Role) -> TokenStream {
    let name = p.name();
    match (role, &*p.arg.ty) {
        (Role::Active(Active::Slice | Active::VecRef), _) => {
            quote!(let #name: ::std::vec::Vec<f64> = #name.to_vec();)
        }
        (Role::Active(_), _) => quote!(let #name = #name;),
        (_, Type::Reference(_)) => quote!(let #name = ::std::borrow::ToOwned::to_owned(#name);),
        _ => quote!(let #name = ::core::clone::Clone::clone(&#name);),
    }
}

/// A kept value as the adjoint function takes it.
fn adjoint_arg(p: &Param, role: Role) -> TokenStream {
    let name = p.name();
    match (role, &*p.arg.ty) {
        (Role::Active(Active::Scalar), _) => quote!(#name),
        (Role::Active(_), _) => quote!(&#name),
        (_, Type::Reference(_)) => quote!(::std::borrow::Borrow::borrow(&#name)),
        _ => quote!(::core::clone::Clone::clone(&#name)),
    }
}

/// Add each returned adjoint to the input adjoints, in operand order.
fn scatter(f: &RuleFn) -> TokenStream {
    let active: Vec<_> = f.active().collect();
    let several = active.len() > 1;
    let adds = active.iter().enumerate().map(|(i, (p, a))| {
        let index = syn::Index::from(i);
        let adj = if several {
            quote!(__fz_adj.#index)
        } else {
            quote!(__fz_adj)
        };
        let name = p.name();
        let label = name.unraw().to_string();
        match a {
            Active::Scalar => quote! {
                __fz_ib[__fz_k] += #adj;
                __fz_k += 1;
            },
            _ => quote! {
                let __fz_n = #name.len();
                ::fazang::__private::add_slice(&mut __fz_ib[__fz_k..__fz_k + __fz_n], &#adj, #label);
                __fz_k += __fz_n;
            },
        }
    });
    quote! {
        let mut __fz_k: usize = 0;
        #(#adds)*
    }
}
