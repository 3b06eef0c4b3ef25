//! `#[differentiate]` on an inline module or an inherent impl block: every function in
//! it that takes an active parameter is made generic (so the others can call it with
//! active values) and gets its siblings when its result allows; functions that cannot
//! be differentiated (no active parameter, `async`, ...) are left as they are.

use super::ast::{Func, Model, Place};
use super::attr::{self, Options};
use super::{expand, function, valid};
use crate::activity::Callees;
use crate::util::Ctxt;
use proc_macro2::TokenStream;
use quote::{quote, ToTokens};
use syn::{Attribute, ImplItem, ImplItemFn, Item, ItemFn, ItemImpl, ItemMod};

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
pub(super) fn check_outer_options(cx: &mut Ctxt, options: &Options, what: &str) {
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
    let aliases = Aliases::of(items);
    let fns: Vec<(ItemFn, Options)> = items
        .iter()
        .filter_map(|i| match i {
            Item::Fn(f) => Some(stripped(cx, aliases.resolved(f), &options)),
            _ => None,
        })
        .collect();
    let expanded = members(cx, &fns, Place::InMod, None, None);
    let mut expanded = expanded.into_iter().zip(&fns);
    let out: Vec<TokenStream> = items
        .iter()
        .map(|item| match item {
            Item::Fn(_) => match expanded.next() {
                Some((Some(tokens), _)) => tokens,
                Some((None, (f, _))) => f.to_token_stream(),
                None => TokenStream::new(),
            },
            Item::Impl(i) if i.trait_.is_none() => impl_block(cx, i, options.for_nested()),
            // Written out in the functions, an alias may be named nowhere any more.
            Item::Type(t) if aliases.has(&t.ident) => {
                quote!(#[allow(dead_code)] #t)
            }
            Item::Mod(m) if m.content.is_some() => module(cx, m, options.for_nested()),
            other => other.to_token_stream(),
        })
        .collect();
    let (attrs, vis, ident) = (&m.attrs, &m.vis, &m.ident);
    let unsafety = &m.unsafety;
    quote! {
        #(#attrs)*
        #vis #unsafety mod #ident {
            #(#out)*
        }
    }
}

/// The type aliases of a module (`type State = [f64; 2];`), written out in its functions
/// so that the macro sees the shapes they name.
struct Aliases(Vec<(syn::Ident, syn::Type)>);

impl Aliases {
    fn of(items: &[Item]) -> Aliases {
        Aliases(
            items
                .iter()
                .filter_map(|i| match i {
                    Item::Type(t) if t.generics.params.is_empty() => {
                        Some((t.ident.clone(), (*t.ty).clone()))
                    }
                    _ => None,
                })
                .collect(),
        )
    }

    fn has(&self, name: &syn::Ident) -> bool {
        self.0.iter().any(|(n, _)| n == name)
    }

    /// `f` with every alias of the module written out (aliases of aliases too).
    fn resolved(&self, f: &ItemFn) -> ItemFn {
        let mut f = f.clone();
        if !self.0.is_empty() {
            syn::visit_mut::VisitMut::visit_item_fn_mut(&mut Resolve(self, 0), &mut f);
        }
        f
    }
}

struct Resolve<'a>(&'a Aliases, usize);

impl syn::visit_mut::VisitMut for Resolve<'_> {
    fn visit_type_mut(&mut self, ty: &mut syn::Type) {
        if let syn::Type::Path(p) = ty {
            let alias = p.qself.is_none()
                && p.path.segments.len() == 1
                && p.path.segments[0].arguments.is_none();
            let found = (self.0).0.iter().find(|(name, _)| p.path.is_ident(name));
            // Depth-limited: a cycle of aliases is rustc's error to report.
            if let (true, Some((_, target)), true) = (alias, found, self.1 < 8) {
                *ty = target.clone();
                self.1 += 1;
                self.visit_type_mut(ty);
                self.1 -= 1;
                return;
            }
        }
        syn::visit_mut::visit_type_mut(self, ty);
    }
}

/// A function without its own `#[differentiate(..)]` attribute, and that attribute's
/// options with those it inherits from `outer` (the module's or impl block's).
pub(super) fn stripped<F: HasAttrs>(cx: &mut Ctxt, mut f: F, outer: &Options) -> (F, Options) {
    let mut options = own_options(cx, f.attrs()).unwrap_or_default();
    options.inherit(outer);
    let attrs = without_own_attr(f.attrs());
    *f.attrs_mut() = attrs;
    (f, options)
}

pub(super) trait HasAttrs {
    fn attrs(&self) -> &[Attribute];
    fn attrs_mut(&mut self) -> &mut Vec<Attribute>;
}

impl HasAttrs for ItemFn {
    fn attrs(&self) -> &[Attribute] {
        &self.attrs
    }
    fn attrs_mut(&mut self) -> &mut Vec<Attribute> {
        &mut self.attrs
    }
}

impl HasAttrs for ImplItemFn {
    fn attrs(&self) -> &[Attribute] {
        &self.attrs
    }
    fn attrs_mut(&mut self) -> &mut Vec<Attribute> {
        &mut self.attrs
    }
}

/// The functions of one module or impl block: each expanded (knowing the signatures of
/// the others, so calls between them convert data arguments precisely), or `None` when
/// it cannot be differentiated (it is then left as it is).
pub(super) fn members<'f, F>(
    cx: &mut Ctxt,
    fns: &'f [(F, Options)],
    place: Place,
    outer: Option<&syn::Generics>,
    self_ty: Option<&syn::Type>,
) -> Vec<Option<TokenStream>>
where
    &'f F: Into<Func<'f>> + ToTokens,
{
    let models: Vec<Option<Model>> = fns
        .iter()
        .map(|(f, o)| {
            let m = Model::new(cx, f.into(), place, o.clone());
            (valid::eligible(&m) && !builds_self(&m, self_ty)).then_some(m)
        })
        .collect();
    let callees: Callees = models
        .iter()
        .flatten()
        .map(|m| (m.name().to_string(), expand::callee(m)))
        .collect();
    models
        .iter()
        .map(|m| {
            m.as_ref().map(|m| {
                valid::check_member(cx, m);
                function(cx, m, outer, &callees)
            })
        })
        .collect()
}

/// A constructor (`fn new(y: &[f64]) -> Self`) keeps its data: it is not made generic.
fn builds_self(m: &Model, self_ty: Option<&syn::Type>) -> bool {
    let syn::ReturnType::Type(_, ret) = &m.func.sig.output else {
        return false;
    };
    let names: Vec<String> = std::iter::once("Self".to_string())
        .chain(self_ty.and_then(type_ident))
        .collect();
    fn mentions(ts: TokenStream, names: &[String]) -> bool {
        ts.into_iter().any(|t| match t {
            proc_macro2::TokenTree::Ident(i) => names.iter().any(|n| i == n),
            proc_macro2::TokenTree::Group(g) => mentions(g.stream(), names),
            _ => false,
        })
    }
    mentions(ret.to_token_stream(), &names)
}

fn type_ident(ty: &syn::Type) -> Option<String> {
    match crate::types::strip(ty) {
        syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

pub fn impl_block(cx: &mut Ctxt, i: &ItemImpl, options: Options) -> TokenStream {
    check_outer_options(cx, &options, "on an impl block");
    if i.trait_.is_some() {
        return super::trait_impl::trait_impl(cx, i);
    }
    let fns: Vec<(ImplItemFn, Options)> = i
        .items
        .iter()
        .filter_map(|item| match item {
            ImplItem::Fn(f) => Some(stripped(cx, f.clone(), &options)),
            _ => None,
        })
        .collect();
    let expanded = members(cx, &fns, Place::Method, Some(&i.generics), Some(&i.self_ty));
    let mut expanded = expanded.into_iter().zip(&fns);
    let items: Vec<TokenStream> = i
        .items
        .iter()
        .map(|item| match item {
            ImplItem::Fn(_) => match expanded.next() {
                Some((Some(tokens), _)) => tokens,
                Some((None, (f, _))) => f.to_token_stream(),
                None => TokenStream::new(),
            },
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
