//! A differentiable struct: `struct Bar<S = f64>` and its `Composite`/`CompositeOf` impls
//! (input validated by `valid`).

use super::ast::{Field, FieldKind, RuleStruct};
use super::valid::SCALAR;
use crate::types::Nested;
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Ident, ItemStruct};

pub fn expand(s: &RuleStruct) -> TokenStream {
    let scalar = Ident::new(SCALAR, Span::call_site());
    let item = generic_struct(s, &scalar);
    let composite = impl_composite(s);
    let composite_of = impl_composite_of(s, &scalar);
    let seed = impl_seed(s);
    quote! {
        #item
        #composite
        #composite_of
        #seed
    }
}

/// The struct with its f64 fields of type `S = f64`, and a doc paragraph saying so.
fn generic_struct(s: &RuleStruct, scalar: &Ident) -> ItemStruct {
    let mut item = s.item.clone();
    item.generics.params.push(syn::parse_quote!(#scalar = f64));
    for (field, model) in item.fields.iter_mut().zip(&s.fields) {
        field.ty = match &model.kind {
            FieldKind::Scalar => syn::parse_quote_spanned!(field.ty.span()=> #scalar),
            FieldKind::Shaped(_) => crate::types::replace_f64(&field.ty, scalar),
            FieldKind::Data => continue,
        };
    }
    let names: Vec<String> = s.differentiable().map(|f| member_name(f)).collect();
    let fields = match names.as_slice() {
        [one] => format!("the field {one} has"),
        many => format!("the fields {} have", many.join(", ")),
    };
    let doc = format!(
        "*Differentiable struct (`#[deriv_rule]`)*: {fields} type `{SCALAR}` (in its \
         entries), `f64` by default, so `{}` is the plain struct and `{}<Var>` records on \
         the tape.",
        s.item.ident, s.item.ident
    );
    item.attrs.push(syn::parse_quote!(#[doc = ""]));
    item.attrs.push(syn::parse_quote!(#[doc = #doc]));
    item
}

fn member_name(f: &Field) -> String {
    match &f.member {
        syn::Member::Named(id) => format!("`{id}`"),
        syn::Member::Unnamed(i) => format!("`{}`", i.index),
    }
}

/// A field's value built from its own: `leaf(entry)` for an `f64` field, the same shape
/// with `leaf` of each entry for an array or vector (entries read by value, `*e`).
fn map_field(f: &Field, leaf: &dyn Fn(TokenStream) -> TokenStream) -> TokenStream {
    let m = &f.member;
    match &f.kind {
        FieldKind::Scalar => leaf(quote!(self.#m)),
        FieldKind::Shaped(shape) => map_shape(shape, quote!((&self.#m)), 0, leaf),
        FieldKind::Data => clone_field(f),
    }
}

fn map_shape(
    shape: &Nested,
    r: TokenStream,
    depth: usize,
    leaf: &dyn Fn(TokenStream) -> TokenStream,
) -> TokenStream {
    let e = format_ident!("__fz_e{}", depth);
    match shape {
        Nested::F64 => leaf(quote!(*#r)),
        Nested::Array(inner, _) => {
            let x = map_shape(inner, quote!(#e), depth + 1, leaf);
            quote!(#r.each_ref().map(|#e| #x))
        }
        Nested::Vec(inner) | Nested::Slice(inner) => {
            let x = map_shape(inner, quote!(#e), depth + 1, leaf);
            quote!(#r.iter().map(|#e| #x).collect::<::std::vec::Vec<_>>())
        }
    }
}

/// Loops visiting every entry of a differentiable field in order: `body(entry)`.
fn each_entry(f: &Field, body: &dyn Fn(TokenStream) -> TokenStream) -> TokenStream {
    let m = &f.member;
    match &f.kind {
        FieldKind::Scalar => body(quote!(self.#m)),
        FieldKind::Shaped(shape) => each_shape(shape, quote!((&self.#m)), 0, body),
        FieldKind::Data => TokenStream::new(),
    }
}

fn each_shape(
    shape: &Nested,
    r: TokenStream,
    depth: usize,
    body: &dyn Fn(TokenStream) -> TokenStream,
) -> TokenStream {
    let e = format_ident!("__fz_e{}", depth);
    match shape {
        Nested::F64 => body(quote!(*#r)),
        Nested::Array(inner, _) | Nested::Vec(inner) | Nested::Slice(inner) => {
            let x = each_shape(inner, quote!(#e), depth + 1, body);
            quote!(for #e in #r.iter() { #x })
        }
    }
}

/// `impl Composite for Bar<f64>`: activate and read back adjoints, in field order.
fn impl_composite(s: &RuleStruct) -> TokenStream {
    let ident = &s.item.ident;
    let activate = s.fields.iter().map(|f| {
        let (m, value) = (
            &f.member,
            map_field(f, &|e| quote!(::fazang::__private::new_var(#e, vars))),
        );
        quote!(#m: #value)
    });
    let adjoint = s.fields.iter().map(|f| {
        let (m, value) = (
            &f.member,
            map_field(f, &|_| quote!(::fazang::__private::next_adjoint(adj))),
        );
        quote!(#m: #value)
    });
    let len = len(s);
    quote! {
        impl ::fazang::__private::Composite for #ident<f64> {
            type Active = #ident<::fazang::Var>;
            type Of<__FzS: ::fazang::Real> = #ident<__FzS>;
            fn activate(&self, vars: &mut ::std::vec::Vec<::fazang::Var>) -> #ident<::fazang::Var> {
                #ident { #(#activate),* }
            }
            fn adjoint(&self, adj: &mut dyn ::core::iter::Iterator<Item = f64>) -> Self {
                #ident { #(#adjoint),* }
            }
            fn count(&self) -> usize {
                #len
            }
        }
    }
}

/// `impl<S: Real> CompositeOf<S> for Bar<S>`: values, fields and partials.
fn impl_composite_of(s: &RuleStruct, scalar: &Ident) -> TokenStream {
    let ident = &s.item.ident;
    let real = quote!(<#scalar as ::fazang::Real>);
    let values = s.fields.iter().map(|f| {
        let (m, value) = (&f.member, map_field(f, &|e| quote!(#real::val(&#e))));
        quote!(#m: #value)
    });
    let each = s
        .differentiable()
        .map(|f| each_entry(f, &|e| quote!(f(#e);)));
    let push = s.differentiable().map(push_field);
    let len = len(s);
    quote! {
        impl<#scalar: ::fazang::Real> ::fazang::__private::CompositeOf<#scalar> for #ident<#scalar> {
            type Values = #ident<f64>;
            fn count(&self) -> usize {
                #len
            }
            fn values(&self) -> #ident<f64> {
                #ident { #(#values),* }
            }
            fn for_each_field(&self, mut f: impl ::core::ops::FnMut(#scalar)) {
                #(#each)*
            }
            fn push_partials(&self, d: &#ident<f64>, p: &mut ::fazang::__private::Partials<#scalar>) {
                #(#push)*
            }
        }
    }
}

/// Push the partials `d.field` for `self.field`, entry by entry; a vector of partials of
/// another length than the field's is a wrong rule, reported (never truncated).
fn push_field(f: &Field) -> TokenStream {
    let m = &f.member;
    let FieldKind::Shaped(shape) = &f.kind else {
        return quote!(p.push(self.#m, d.#m););
    };
    let name = member_name(f);
    zip_shape(shape, quote!((&self.#m)), quote!((&d.#m)), 0, &name)
}

fn zip_shape(
    shape: &Nested,
    a: TokenStream,
    b: TokenStream,
    depth: usize,
    name: &str,
) -> TokenStream {
    let (x, y) = (
        format_ident!("__fz_x{}", depth),
        format_ident!("__fz_d{}", depth),
    );
    match shape {
        Nested::F64 => quote!(p.push(*#a, *#b);),
        Nested::Array(inner, _) | Nested::Vec(inner) | Nested::Slice(inner) => {
            let body = zip_shape(inner, quote!(#x), quote!(#y), depth + 1, name);
            quote! {
                ::fazang::__private::check_field_len(#name, #a.len(), #b.len());
                for (#x, #y) in #a.iter().zip(#b.iter()) { #body }
            }
        }
    }
}

/// `impl Seed for Bar<f64>`: the struct rebuilt with any scalar for its f64 fields (what
/// the generated `_jvp`, `_hessian` and `_hvp` make of a struct parameter).
fn impl_seed(s: &RuleStruct) -> TokenStream {
    let ident = &s.item.ident;
    let fields = s.fields.iter().map(|f| {
        let (m, value) = (&f.member, map_field(f, &|e| quote!(make(#e))));
        quote!(#m: #value)
    });
    let len = len(s);
    quote! {
        impl ::fazang::__private::Seed for #ident<f64> {
            type Of<ActiveF64> = #ident<ActiveF64>;
            fn count(&self) -> usize {
                #len
            }
            fn seed<ActiveF64>(
                &self,
                make: &mut dyn ::core::ops::FnMut(f64) -> ActiveF64,
            ) -> #ident<ActiveF64> {
                #ident { #(#fields),* }
            }
        }
    }
}

/// A data field, cloned (an error about `Clone` points at the field's type).
fn clone_field(f: &Field) -> TokenStream {
    let m = &f.member;
    quote_spanned!(f.ty.span()=> ::core::clone::Clone::clone(&self.#m))
}

/// The number of f64 values of `self`: 1 per scalar field, the entries of the others.
fn len(s: &RuleStruct) -> TokenStream {
    let counts = s.differentiable().map(|f| {
        let m = &f.member;
        match &f.kind {
            FieldKind::Shaped(shape) => count_shape(shape, quote!((&self.#m)), 0),
            _ => quote!(1usize),
        }
    });
    quote!(0usize #(+ #counts)*)
}

fn count_shape(shape: &Nested, r: TokenStream, depth: usize) -> TokenStream {
    let e = format_ident!("__fz_e{}", depth);
    match shape {
        Nested::F64 => quote!(1usize),
        Nested::Array(inner, _) | Nested::Vec(inner) | Nested::Slice(inner) => match **inner {
            Nested::F64 => quote!(#r.len()),
            _ => {
                let x = count_shape(inner, quote!(#e), depth + 1);
                quote!(#r.iter().map(|#e| #x).sum::<usize>())
            }
        },
    }
}
