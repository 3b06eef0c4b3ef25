//! Patterns of the model printed back as Rust, and the abstract value a pattern binds.

use crate::activity::{Abs, Activity};
use crate::model::Pat;
use proc_macro2::TokenStream;
use quote::quote;

pub fn print(p: &Pat) -> TokenStream {
    print_with(p, &|_, ident| ident.clone())
}

/// A pattern with each binding's name given by `name(binding, ident)`.
pub fn print_with(
    p: &Pat,
    name: &dyn Fn(crate::model::BindId, &syn::Ident) -> syn::Ident,
) -> TokenStream {
    let print = |p: &Pat| print_with(p, name);
    match p {
        Pat::Ident {
            id,
            by_ref,
            mutable,
            ident,
            sub,
        } => {
            let r = by_ref.then(|| quote!(ref));
            let m = mutable.then(|| quote!(mut));
            let sub = sub.as_ref().map(|s| {
                let s = print(s);
                quote!(@ #s)
            });
            let ident = name(*id, ident);
            quote!(#r #m #ident #sub)
        }
        Pat::Tuple(ps) => {
            let ps: Vec<_> = ps.iter().map(print).collect();
            if ps.len() == 1 {
                quote!((#(#ps),*,))
            } else {
                quote!((#(#ps),*))
            }
        }
        Pat::TupleStruct(path, ps) => {
            let ps = ps.iter().map(print);
            quote!(#path(#(#ps),*))
        }
        Pat::Struct(path, fields, rest) => {
            // Shorthand fields (`Elliptic { ecc }`) are written out when renamed: the
            // binding's name is no longer the field's.
            let fs = fields.iter().map(|(m, p, colon)| {
                let printed = print(p);
                // Shorthand (`Elliptic { ecc }`) stays so unless the binding was renamed.
                let same = match (m, p) {
                    (
                        syn::Member::Named(f),
                        Pat::Ident {
                            id,
                            ident,
                            sub: None,
                            by_ref: false,
                            mutable: false,
                        },
                    ) => name(*id, ident) == *f,
                    _ => false,
                };
                if !colon && same {
                    printed
                } else {
                    quote!(#m: #printed)
                }
            });
            let rest = rest.then(|| quote!(..));
            if fields.is_empty() {
                quote!(#path { #rest })
            } else if rest.is_some() {
                quote!(#path { #(#fs),*, #rest })
            } else {
                quote!(#path { #(#fs),* })
            }
        }
        Pat::Ref(m, p) => {
            let p = print(p);
            let m = m.then(|| quote!(mut));
            quote!(& #m #p)
        }
        Pat::Slice(ps) => {
            let ps = ps.iter().map(print);
            quote!([#(#ps),*])
        }
        Pat::Or(ps) => {
            let ps = ps.iter().map(print);
            quote!(#(#ps)|*)
        }
        Pat::Paren(p) => {
            let p = print(p);
            quote!((#p))
        }
        Pat::Type(p, ty) => {
            let p = print(p);
            quote!(#p: #ty)
        }
        Pat::Other(p) => quote!(#p),
    }
}

/// The abstract value of what a pattern binds as a whole (for the conversion of the
/// value it is matched against).
pub fn abs(p: &Pat, act: &Activity) -> Abs {
    match p {
        Pat::Ident {
            id, by_ref: false, ..
        } => act.of_bind(*id).clone(),
        Pat::Tuple(ps) => Abs::Tuple(ps.iter().map(|p| abs(p, act)).collect()),
        Pat::Paren(p) | Pat::Type(p, _) => abs(p, act),
        _ => Abs::Unknown(false),
    }
}
