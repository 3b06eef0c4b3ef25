//! `#[differentiate]`: parse (`attr`, `ast`) -> validate (`valid`) -> expand (`expand`:
//! the generic function, from the body model; `siblings`: `_grad` and `_jacobian`;
//! `higher`: `_jvp`, `_hessian`, `_hvp`; `sparse`: `_hessian_sparse`,
//! `_jacobian_sparse`).
//! `items` applies the same to every function of an inline module or impl block.

mod adjoint_items;
pub(crate) mod ast;
mod attr;
mod expand;
mod higher;
mod items;
mod siblings;
mod sparse;
mod tangent_items;
mod trait_impl;
mod valid;

use crate::util::{with_item, Ctxt};
use ast::{Func, Model, Place};
use proc_macro2::TokenStream;
use syn::Item;

pub fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let parsed = match syn::parse2::<Item>(item.clone()) {
        Ok(i) => i,
        Err(e) => return with_item(e, item),
    };
    let mut cx = Ctxt::default();
    // Mistakes in the options alone (an unknown option, a wrong `wrt(..)` name) are
    // reported, and the function is still expanded without them: code calling it (as
    // generic, or its `_grad`) then compiles, instead of adding errors that speak of
    // generated code.
    let mut soft = Ctxt::default();
    let options = attr::parse(&mut soft, attr);
    let tokens = match &parsed {
        Item::Fn(f) => free_fn(&mut cx, &mut soft, f, options),
        Item::Mod(m) => items::module(&mut cx, m, options),
        Item::Impl(i) => items::impl_block(&mut cx, i, options),
        other => {
            cx.push(not_a_fn(other));
            TokenStream::new()
        }
    };
    match (cx.check(), soft.check()) {
        (Ok(()), Ok(())) => tokens,
        (Ok(()), Err(e)) => {
            let errors = e.to_compile_error();
            quote::quote!(#errors #tokens)
        }
        (Err(mut e), soft) => {
            if let Err(s) = soft {
                e.combine(s);
            }
            with_item(e, item)
        }
    }
}

/// `#[differentiate] fn`: its options are checked into `soft`, and a `wrt(..)` naming
/// no parameter that can be active is dropped.
fn free_fn(cx: &mut Ctxt, soft: &mut Ctxt, f: &syn::ItemFn, options: attr::Options) -> TokenStream {
    let place = if is_method(f) {
        Place::Method
    } else {
        Place::Free
    };
    let mut model = Model::new(cx, Func::from(f), place, options.clone());
    if valid::check_options(soft, &model) && model.active().next().is_none() {
        let options = attr::Options {
            wrt: None,
            ..options
        };
        model = Model::new(cx, Func::from(f), place, options);
    }
    valid::check(cx, &model);
    // The generics of the impl block around a method are not in sight: the scalar's name
    // must differ from every `S`-like name the method mentions.
    let outer = (place == Place::Method).then(|| names_in_sight(f));
    function(cx, &model, outer.as_ref(), &Default::default())
}

/// The generic function and its siblings. `outer` holds the generics of an enclosing
/// impl block (the scalar's name must differ from them).
fn function(
    cx: &mut Ctxt,
    m: &Model,
    outer: Option<&syn::Generics>,
    callees: &crate::activity::Callees,
) -> TokenStream {
    let s = expand::scalar_ident(&m.func.sig.generics, outer);
    let lt = expand::free_lifetime(&m.func.sig.generics, outer);
    let analysed = expand::analyse(m, callees);
    let primal = expand::generic_fn(cx, m, (&s, &lt), &analysed, callees);
    let derived = siblings::siblings(m, &analysed);
    let higher = higher::higher(m, &analysed);
    let sparse = sparse::sparse(m, &analysed);
    // Functions the adjoint code calls (the bodies of `reduce_sum` closures).
    let hidden = match &analysed.adjoint {
        Some(Ok(a)) => a.hidden.clone(),
        _ => Vec::new(),
    };
    let all = quote::quote! {
        #primal
        #derived
        #higher
        #sparse
        #(#hidden)*
    };
    crate::util::resolve_in_body(all, m.func.block.brace_token.span.join())
}

/// Whether a function given alone to the attribute is an associated function of an impl
/// block (`#[differentiate]` on one method): it takes `self` or names `Self`. Its
/// siblings then become associated functions beside it, called through `self.`/`Self::`.
/// (An associated function that does neither cannot be told from a free function: it is
/// expanded as one, and its siblings' calls of it do not resolve; the attribute then goes
/// on the impl block.)
fn is_method(f: &syn::ItemFn) -> bool {
    let receiver = matches!(f.sig.inputs.first(), Some(syn::FnArg::Receiver(_)));
    receiver || mentions_ident(quote::ToTokens::to_token_stream(f), "Self")
}

fn mentions_ident(ts: TokenStream, name: &str) -> bool {
    ts.into_iter().any(|t| match t {
        proc_macro2::TokenTree::Ident(i) => i == name,
        proc_macro2::TokenTree::Group(g) => mentions_ident(g.stream(), name),
        _ => false,
    })
}

/// Generics naming each `S`, `S_`, .. and each lifetime the method mentions (maybe
/// generics of its impl: `b: &'a [f64]` in `impl<'a> Model<'a>`), so that the names the
/// expansion adds differ from them.
fn names_in_sight(f: &syn::ItemFn) -> syn::Generics {
    struct Lifetimes(Vec<syn::Lifetime>);
    impl<'v> syn::visit::Visit<'v> for Lifetimes {
        fn visit_lifetime(&mut self, l: &'v syn::Lifetime) {
            if l.ident != "_" && l.ident != "static" && !self.0.contains(l) {
                self.0.push(l.clone());
            }
        }
    }
    let mut lifetimes = Lifetimes(Vec::new());
    syn::visit::visit_item_fn(&mut lifetimes, f);
    let tokens = quote::ToTokens::to_token_stream(f);
    let mut generics = syn::Generics::default();
    for l in lifetimes.0 {
        generics.params.push(syn::parse_quote!(#l));
    }
    let mut name = String::from("S");
    while mentions_ident(tokens.clone(), &name) {
        let ident = syn::Ident::new(&name, proc_macro2::Span::call_site());
        generics.params.push(syn::parse_quote!(#ident));
        name.push('_');
    }
    generics
}

/// `#[differentiate] can only be applied to a fn, not a struct`, at the item's keyword.
fn not_a_fn(item: &Item) -> syn::Error {
    let (what, span): (&str, &dyn quote::ToTokens) = match item {
        Item::Struct(s) => ("a struct", &s.struct_token),
        Item::Enum(e) => ("an enum", &e.enum_token),
        Item::Union(u) => ("a union", &u.union_token),
        Item::Trait(t) => ("a trait", &t.trait_token),
        Item::Const(c) => ("a const", &c.const_token),
        Item::Static(s) => ("a static", &s.static_token),
        Item::Type(t) => ("a type alias", &t.type_token),
        _ => ("this item", item),
    };
    syn::Error::new_spanned(
        span,
        format!(
            "#[differentiate] can only be applied to a fn, an inline `mod` or an `impl` \
             block, not {what}"
        ),
    )
}

#[cfg(test)]
mod tests;
