//! Helpers shared by both attributes: error collection and small type predicates.

use proc_macro2::TokenStream;
use quote::{quote, ToTokens};
use syn::Type;

/// The name of the scalar type parameter the attributes make functions and structs
/// generic over. rustc prints it in type errors of a differentiated body (`expected
/// `f64`, found type parameter `ActiveF64``, `cannot multiply `f32` by `ActiveF64``), so
/// it says what the value is: one of the user's `f64`s, made active (differentiated).
pub const SCALAR: &str = "ActiveF64";

/// Collects every error found while parsing and validating, reported together
/// (serde_derive's `Ctxt`).
#[derive(Default)]
pub struct Ctxt {
    errors: Vec<syn::Error>,
}

impl Ctxt {
    /// Record an error spanning `node`.
    pub fn error(&mut self, node: impl ToTokens, msg: impl std::fmt::Display) {
        self.errors.push(syn::Error::new_spanned(node, msg));
    }

    /// Record an already built error.
    pub fn push(&mut self, e: syn::Error) {
        self.errors.push(e);
    }

    /// All errors combined, or `Ok` if there were none.
    pub fn check(self) -> syn::Result<()> {
        let mut iter = self.errors.into_iter();
        let Some(mut first) = iter.next() else {
            return Ok(());
        };
        for e in iter {
            first.combine(e);
        }
        Err(first)
    }
}

/// On failure, the errors *and* the original item, so callers of the item do not get a
/// second wave of "cannot find function" errors.
pub fn with_item(e: syn::Error, item: TokenStream) -> TokenStream {
    let errors = e.to_compile_error();
    quote!(#errors #item)
}

/// Whether `ty` is the type `f64`.
pub fn is_f64(ty: &Type) -> bool {
    match ty {
        Type::Path(tp) => tp.qself.is_none() && tp.path.is_ident("f64"),
        Type::Paren(p) => is_f64(&p.elem),
        Type::Group(g) => is_f64(&g.elem),
        _ => false,
    }
}
