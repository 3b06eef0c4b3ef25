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
/// A path's segment names (`f64::max` -> `["f64", "max"]`), as the lowering and the
/// analyses classify calls and constants by them.
pub fn path_names(path: &syn::Path) -> Vec<String> {
    path.segments.iter().map(|s| s.ident.to_string()).collect()
}

pub fn is_f64(ty: &Type) -> bool {
    match ty {
        Type::Path(tp) => tp.qself.is_none() && tp.path.is_ident("f64"),
        Type::Paren(p) => is_f64(&p.elem),
        Type::Group(g) => is_f64(&g.elem),
        _ => false,
    }
}

/// `t` with its generated tokens (those at the attribute, the call site) moved to `at`:
/// code generated for one of the user's expressions, so that an error rustc finds in it
/// points at that expression rather than at the attribute. The user's own tokens keep
/// their spans (an error about them points where the primal's does, and rustc reports the
/// two once).
///
/// Punctuation and delimiters take the user's span whole: an expression whose first and
/// last tokens come from different expansions is reported by rustc at their common
/// ancestor, the attribute. Identifiers move but keep resolving as generated ones
/// ([`ident_at`]); [`resolve_in_body`] then makes every generated name resolve as the
/// user's body does.
pub fn located_at(t: TokenStream, at: proc_macro2::Span) -> TokenStream {
    let site = format!("{:?}", proc_macro2::Span::call_site());
    relocate(t, at, &site)
}

/// `ident` at the user's `at`, still resolving as a generated name (see [`located_at`]).
pub fn ident_at(ident: &proc_macro2::Ident, at: proc_macro2::Span) -> proc_macro2::Ident {
    let mut i = ident.clone();
    i.set_span(ident.span().located_at(at));
    i
}

fn relocate(t: TokenStream, at: proc_macro2::Span, site: &str) -> TokenStream {
    use proc_macro2::{Group, Span, TokenTree};
    let generated = |s: Span| format!("{s:?}") == site;
    t.into_iter()
        .map(|tt| match tt {
            TokenTree::Group(g) => {
                let mut n = Group::new(g.delimiter(), relocate(g.stream(), at, site));
                n.set_span(if generated(g.span()) { at } else { g.span() });
                TokenTree::Group(n)
            }
            TokenTree::Ident(i) if generated(i.span()) => TokenTree::Ident(ident_at(&i, at)),
            mut other => {
                if generated(other.span()) {
                    other.set_span(at);
                }
                other
            }
        })
        .collect()
}

/// The expansion of one function with every hidden local (an identifier `__fz..` of the
/// attribute's expansion) resolving as the names of the user's `body` do, wherever it is
/// located. The hidden locals of generated code are then declared and read in one
/// hygiene context, the user's, also where [`located_at`] moved them to the user's tokens
/// and where the body comes from a `macro_rules!` (`$body:block`) while the attribute is
/// written in the macro.
pub fn resolve_in_body(t: TokenStream, body: proc_macro2::Span) -> TokenStream {
    let site = hygiene_of(proc_macro2::Span::call_site());
    resolve(t, body, &site)
}

/// The hygiene context in a span's debug form (`#8 bytes(25..50)`: `#8`).
fn hygiene_of(s: proc_macro2::Span) -> String {
    let d = format!("{s:?}");
    d.split(" bytes(").next().unwrap_or(&d).to_string()
}

fn resolve(t: TokenStream, body: proc_macro2::Span, site: &str) -> TokenStream {
    use proc_macro2::{Group, TokenTree};
    t.into_iter()
        .map(|tt| match tt {
            TokenTree::Group(g) => {
                let mut n = Group::new(g.delimiter(), resolve(g.stream(), body, site));
                n.set_span(g.span());
                TokenTree::Group(n)
            }
            // Only the hidden locals (`__fz..`): paths and methods keep resolving, and
            // being reported, as generated code.
            TokenTree::Ident(mut i)
                if hygiene_of(i.span()) == site && i.to_string().starts_with("__fz") =>
            {
                i.set_span(i.span().resolved_at(body));
                TokenTree::Ident(i)
            }
            other => other,
        })
        .collect()
}
