//! `#[differentiate]`: parse (`attr`, `ast`) -> validate (`valid`) -> expand (`expand`:
//! the generic function, from the body model; `siblings`: `_grad` and `_jacobian`;
//! `higher`: `_jvp`, `_hessian`, `_hvp`).
//! `items` applies the same to every function of an inline module or impl block.

mod adjoint_items;
pub(crate) mod ast;
mod attr;
mod expand;
mod higher;
mod items;
mod siblings;
mod tangent_items;
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
    let options = attr::parse(&mut cx, attr);
    let tokens = match &parsed {
        Item::Fn(f) => {
            let model = Model::new(&mut cx, Func::from(f), Place::Free, options);
            valid::check(&mut cx, &model);
            function(&mut cx, &model, None, &Default::default())
        }
        Item::Mod(m) => items::module(&mut cx, m, options),
        Item::Impl(i) => items::impl_block(&mut cx, i, options),
        other => {
            cx.push(not_a_fn(other));
            TokenStream::new()
        }
    };
    match cx.check() {
        Ok(()) => tokens,
        Err(e) => with_item(e, item),
    }
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
    let analysed = expand::analyse(m, callees);
    let primal = expand::generic_fn(cx, m, &s, &analysed, callees);
    let derived = siblings::siblings(m, &analysed);
    let higher = higher::higher(m, &analysed);
    // Functions the adjoint code calls (the bodies of `reduce_sum` closures).
    let hidden = match &analysed.adjoint {
        Some(Ok(a)) => a.hidden.clone(),
        _ => Vec::new(),
    };
    quote::quote! {
        #primal
        #derived
        #higher
        #(#hidden)*
    }
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
