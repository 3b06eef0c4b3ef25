//! `#[differentiate]` on an inline module or an inherent impl block: every function in
//! it that takes an active parameter is made generic (so the others can call it with
//! active values) and gets its siblings when its result allows; functions that cannot
//! be differentiated (no active parameter, `async`, ...) are left as they are.

use super::ast::{Func, Model, Place};
use super::attr::{self, Options};
use super::{function, valid};
use crate::util::Ctxt;
use proc_macro2::TokenStream;
use quote::{quote, ToTokens};
use syn::{Attribute, ImplItem, Item, ItemImpl, ItemMod};

/// The attribute on a function inside: its options apply to that function.
fn own_options(cx: &mut Ctxt, attrs: &[Attribute]) -> Option<Options> {
    let a = attrs.iter().find(|a| a.path().is_ident("differentiate"))?;
    let tokens = match &a.meta {
        syn::Meta::List(l) => l.tokens.clone(),
        _ => TokenStream::new(),
    };
    Some(attr::parse(cx, tokens))
}

fn without_own_attr(attrs: &[Attribute]) -> Vec<Attribute> {
    attrs
        .iter()
        .filter(|a| !a.path().is_ident("differentiate"))
        .cloned()
        .collect()
}

/// Options given on the module or impl itself: `wrt(...)` names one function's
/// parameters, so it belongs on that function.
fn check_outer_options(cx: &mut Ctxt, options: &Options, what: &str) {
    if let Some(w) = options.wrt.as_ref().and_then(|w| w.first()) {
        cx.error(
            w,
            format!(
                "`wrt(...)` on #[differentiate] {what} is ambiguous; put \
                 #[differentiate(wrt(...))] on the function it is meant for"
            ),
        );
    }
    if let Some(g) = options.grad.as_ref().or(options.jacobian.as_ref()) {
        cx.error(
            g,
            format!("renaming on #[differentiate] {what} is ambiguous; put it on the function"),
        );
    }
}

pub fn module(cx: &mut Ctxt, m: &ItemMod, options: Options) -> TokenStream {
    check_outer_options(cx, &options, "on a module");
    let Some((_, items)) = &m.content else {
        cx.error(
            m.mod_token,
            "#[differentiate] on a module needs its items inline (`mod name { .. }`); put it \
             on the functions of the module's file, or on an inline `mod` there",
        );
        return TokenStream::new();
    };
    let out: Vec<TokenStream> = items.iter().map(|i| module_item(cx, i)).collect();
    let (attrs, vis, ident) = (&m.attrs, &m.vis, &m.ident);
    let unsafety = &m.unsafety;
    quote! {
        #(#attrs)*
        #vis #unsafety mod #ident {
            #(#out)*
        }
    }
}

fn module_item(cx: &mut Ctxt, item: &Item) -> TokenStream {
    match item {
        Item::Fn(f) => {
            let options = own_options(cx, &f.attrs).unwrap_or_default();
            let mut f = f.clone();
            f.attrs = without_own_attr(&f.attrs);
            member(cx, Func::from(&f), Place::InMod, options, None)
                .unwrap_or_else(|| f.to_token_stream())
        }
        Item::Impl(i) if i.trait_.is_none() => impl_block(cx, i, Options::default()),
        Item::Mod(m) if m.content.is_some() => module(cx, m, Options::default()),
        other => other.to_token_stream(),
    }
}

/// One function of a module or impl block: its expansion, or `None` to leave it as it is.
fn member(
    cx: &mut Ctxt,
    func: Func,
    place: Place,
    options: Options,
    outer: Option<&syn::Generics>,
) -> Option<TokenStream> {
    let model = Model::new(cx, func, place, options);
    if !valid::eligible(&model) {
        return None;
    }
    valid::check_member(cx, &model);
    Some(function(cx, &model, outer))
}

pub fn impl_block(cx: &mut Ctxt, i: &ItemImpl, options: Options) -> TokenStream {
    check_outer_options(cx, &options, "on an impl block");
    if let Some((_, path, _)) = &i.trait_ {
        cx.error(
            path,
            "#[differentiate] cannot make the methods of a trait impl generic (their \
             signatures are the trait's); put the computation in an inherent method or a \
             free function with #[differentiate] and call it from here",
        );
        return TokenStream::new();
    }
    let items: Vec<TokenStream> = i
        .items
        .iter()
        .map(|item| match item {
            ImplItem::Fn(f) => {
                let options = own_options(cx, &f.attrs).unwrap_or_default();
                let mut f = f.clone();
                f.attrs = without_own_attr(&f.attrs);
                member(
                    cx,
                    Func::from(&f),
                    Place::Method,
                    options,
                    Some(&i.generics),
                )
                .unwrap_or_else(|| f.to_token_stream())
            }
            other => other.to_token_stream(),
        })
        .collect();
    let (attrs, generics, self_ty) = (&i.attrs, &i.generics, &i.self_ty);
    let (unsafety, wc) = (&i.unsafety, &i.generics.where_clause);
    quote! {
        #(#attrs)*
        #unsafety impl #generics #self_ty #wc {
            #(#items)*
        }
    }
}
