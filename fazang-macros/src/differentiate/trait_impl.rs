//! `#[differentiate]` on a trait implementation (`impl Model for StudentT { .. }`).
//!
//! A trait's methods keep the trait's signatures, so they cannot become generic over the
//! scalar themselves. Each method that can be differentiated is therefore generated
//! twice:
//!
//! - in a new inherent `impl StudentT { .. }`: the method made generic under the same
//!   name (`pub fn log_density<S: Real>(&self, theta: &[S]) -> S`), and its siblings
//!   `log_density_grad`, `_grad_into`, `_jvp`, `_hessian`, `_hvp` (or `_jacobian`), all
//!   `pub`, since a trait's methods are as visible as the trait;
//! - in the trait impl: the method with the user's signature, calling the generic one
//!   with `S = f64` (`Self::log_density(self, theta)`: a path resolves to an inherent
//!   method before a trait one), so the impl still satisfies the trait.
//!
//! Inherent methods rather than an extension trait: `model.log_density_grad(&theta)`
//! then works wherever the type is visible, with no trait to import or name, exactly as
//! for `#[differentiate]` on an inherent `impl`; and the generic method keeping the
//! trait method's name lets the methods of the impl call each other with active values
//! as they are written (`self.log_prior(theta)`), an inherent method being found before
//! the trait's. The price: Rust allows inherent impls only for a type defined in the
//! same crate, so a trait implemented for `Vec<f64>` or `f64` is refused (wrap the type
//! in a struct of your own). Generic code over `M: Model` reaches the trait's methods
//! only, not the gradients (declare `fn log_density_grad` in the trait to have them).

use super::ast::Place;
use super::attr::Options;
use super::items::{members, stripped};
use crate::util::Ctxt;
use proc_macro2::TokenStream;
use quote::{quote, ToTokens};
use syn::{FnArg, ImplItem, ImplItemFn, ItemImpl, Pat, Type, Visibility};

/// The trait impl with delegating methods, and the inherent impl with the generic
/// methods and their siblings.
pub fn trait_impl(cx: &mut Ctxt, i: &ItemImpl) -> TokenStream {
    if !check_self_type(cx, &i.self_ty) {
        return TokenStream::new();
    }
    let user: Vec<(ImplItemFn, Options)> = i
        .items
        .iter()
        .filter_map(|item| match item {
            ImplItem::Fn(f) => Some(stripped(cx, f.clone(), &Options::default())),
            _ => None,
        })
        .collect();
    // The generated copies are `pub`: the trait's methods are as visible as the trait.
    let public: Vec<(ImplItemFn, Options)> = user
        .iter()
        .map(|(f, o)| {
            let mut f = f.clone();
            f.vis = Visibility::Public(Default::default());
            (f, o.clone())
        })
        .collect();
    let expanded = members(
        cx,
        &public,
        Place::Method,
        Some(&i.generics),
        Some(&i.self_ty),
    );
    let mut generated = Vec::new();
    let mut delegated = Vec::new();
    let mut user_fns = user.iter().zip(expanded);
    let items: Vec<TokenStream> = i
        .items
        .iter()
        .map(|item| match item {
            ImplItem::Fn(_) => match user_fns.next() {
                Some(((f, _), Some(tokens))) => {
                    generated.push(tokens);
                    delegated.push(f);
                    delegate(f)
                }
                Some(((f, _), None)) => f.to_token_stream(),
                None => TokenStream::new(),
            },
            other => other.to_token_stream(),
        })
        .collect();
    let (attrs, generics, self_ty) = (&i.attrs, &i.generics, &i.self_ty);
    let (unsafety, wc, defaultness) = (&i.unsafety, &i.generics.where_clause, &i.defaultness);
    let (bang, path, for_token) = i.trait_.as_ref().expect("a trait impl");
    let inherent_attrs = attrs.iter().filter(|a| {
        let p = a.path();
        ["cfg", "cfg_attr", "allow", "expect", "warn", "deny"]
            .iter()
            .any(|n| p.is_ident(n))
    });
    let uses = uses_trait_methods(&delegated, path);
    quote! {
        #(#attrs)*
        #defaultness #unsafety impl #generics #bang #path #for_token #self_ty #wc {
            #(#items)*
        }
        #(#inherent_attrs)*
        impl #generics #self_ty #wc {
            #(#generated)*
            #uses
        }
    }
}

/// The methods of the impl call each other through the generic copies, so the trait's
/// own declarations of them may be used nowhere any more: without this, rustc would warn
/// that they are never used, in the user's trait. A hidden function allowed to be dead
/// names them (as function values, for methods without type parameters).
fn uses_trait_methods(fns: &[&ImplItemFn], path: &syn::Path) -> TokenStream {
    let names: Vec<&syn::Ident> = fns
        .iter()
        .filter(|f| {
            f.sig.generics.type_params().next().is_none()
                && f.sig.generics.const_params().next().is_none()
                && !f.sig.inputs.iter().any(|a| {
                    matches!(a, FnArg::Typed(t) if t.ty.to_token_stream().to_string().contains("impl"))
                })
        })
        .map(|f| &f.sig.ident)
        .collect();
    if names.is_empty() {
        return TokenStream::new();
    }
    let trait_name = path
        .segments
        .last()
        .map(|s| s.ident.to_string().to_lowercase())
        .unwrap_or_default();
    let marker = quote::format_ident!("__fz_uses_{}", trait_name);
    quote! {
        #[doc(hidden)]
        #[allow(dead_code)]
        fn #marker() {
            #(let _ = <Self as #path>::#names;)*
        }
    }
}

/// The trait's method as the user wrote its signature, computing with the generic
/// inherent method at `S = f64` (the same code, so the same values bit for bit).
fn delegate(f: &ImplItemFn) -> TokenStream {
    let (attrs, defaultness, sig) = (&f.attrs, &f.defaultness, &f.sig);
    let name = &sig.ident;
    let args = sig.inputs.iter().map(|a| match a {
        FnArg::Receiver(r) => r.self_token.to_token_stream(),
        FnArg::Typed(t) => match &*t.pat {
            Pat::Ident(p) => p.ident.to_token_stream(),
            // Not reached: a method with a destructured parameter is left as it is.
            other => other.to_token_stream(),
        },
    });
    quote! {
        #(#attrs)*
        #[inline]
        #defaultness #sig {
            Self::#name(#(#args),*)
        }
    }
}

/// The gradients become inherent methods, which Rust allows only on a type of this
/// crate: refuse the types that cannot be one (`Vec<f64>`, `[f64; 3]`, `&T`, `f64`).
fn check_self_type(cx: &mut Ctxt, ty: &Type) -> bool {
    let foreign = match crate::types::strip(ty) {
        Type::Path(p) => {
            p.qself.is_some()
                || p.path.segments.last().is_some_and(|s| {
                    let name = s.ident.to_string();
                    FOREIGN.contains(&name.as_str())
                })
        }
        _ => true,
    };
    if foreign {
        cx.error(
            ty,
            format!(
                "#[differentiate] on a trait impl adds the gradients (`name_grad`, ..) as \
                 inherent methods of `{}`, which Rust allows only for a type defined in \
                 this crate; implement the trait for a struct of your own that holds the \
                 data (`struct Data(Vec<f64>);`), or differentiate a free function and \
                 call it from the trait method",
                crate::types::type_name(ty)
            ),
        );
    }
    !foreign
}

/// Types of the standard library a trait is often implemented for.
const FOREIGN: &[&str] = &[
    "f64", "f32", "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128",
    "usize", "bool", "char", "str", "String", "Vec", "VecDeque", "Box", "Rc", "Arc", "Option",
    "Result", "HashMap", "BTreeMap", "HashSet", "BTreeSet",
];
