//! A differentiable struct: `struct Bar<S = f64>` and its `Composite`/`CompositeOf` impls
//! (input validated by `valid`).

use super::ast::{Field, FieldKind, RuleStruct};
use super::valid::SCALAR;
use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
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
        field.ty = match model.kind {
            FieldKind::Scalar => syn::parse_quote_spanned!(field.ty.span()=> #scalar),
            FieldKind::Array(n) => syn::parse_quote_spanned!(field.ty.span()=> [#scalar; #n]),
            FieldKind::Data => continue,
        };
    }
    let names: Vec<String> = s.differentiable().map(|f| member_name(f)).collect();
    let fields = match names.as_slice() {
        [one] => format!("the field {one} has"),
        many => format!("the fields {} have", many.join(", ")),
    };
    let doc = format!(
        "*Differentiable struct (`#[deriv_rule]`)*: {fields} type `{SCALAR}`, `f64` by \
         default, so `{}` is the plain struct and `{}<Var>` records on the tape.",
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

/// `impl Composite for Bar<f64>`: activate and read back adjoints, in field order.
fn impl_composite(s: &RuleStruct) -> TokenStream {
    let ident = &s.item.ident;
    let activate = s.fields.iter().map(|f| {
        let m = &f.member;
        let value = match f.kind {
            FieldKind::Scalar => quote!(::fazang::__private::new_var(self.#m, vars)),
            FieldKind::Array(_) => {
                quote!(self.#m.map(|__fz_e| ::fazang::__private::new_var(__fz_e, vars)))
            }
            FieldKind::Data => clone_field(f),
        };
        quote!(#m: #value)
    });
    let adjoint = s.fields.iter().map(|f| {
        let m = &f.member;
        let value = match f.kind {
            FieldKind::Scalar => quote!(::fazang::__private::next_adjoint(adj)),
            FieldKind::Array(_) => {
                quote!(::core::array::from_fn(|_| {
                    ::fazang::__private::next_adjoint(adj)
                }))
            }
            FieldKind::Data => clone_field(f),
        };
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
            const LEN: usize = #len;
        }
    }
}

/// `impl<S: Real> CompositeOf<S> for Bar<S>`: values, fields and partials.
fn impl_composite_of(s: &RuleStruct, scalar: &Ident) -> TokenStream {
    let ident = &s.item.ident;
    let real = quote!(<#scalar as ::fazang::Real>);
    let values = s.fields.iter().map(|f| {
        let m = &f.member;
        let value = match f.kind {
            FieldKind::Scalar => quote!(#real::val(&self.#m)),
            FieldKind::Array(_) => quote!(self.#m.map(|__fz_e| #real::val(&__fz_e))),
            FieldKind::Data => clone_field(f),
        };
        quote!(#m: #value)
    });
    let each = s.differentiable().map(|f| {
        let m = &f.member;
        match f.kind {
            FieldKind::Array(_) => quote!(for __fz_e in self.#m { f(__fz_e); }),
            _ => quote!(f(self.#m);),
        }
    });
    let push = s.differentiable().map(|f| {
        let m = &f.member;
        match f.kind {
            FieldKind::Array(_) => quote! {
                for (__fz_e, __fz_d) in self.#m.iter().zip(&d.#m) {
                    p.push(*__fz_e, *__fz_d);
                }
            },
            _ => quote!(p.push(self.#m, d.#m);),
        }
    });
    let len = len(s);
    quote! {
        impl<#scalar: ::fazang::Real> ::fazang::__private::CompositeOf<#scalar> for #ident<#scalar> {
            type Values = #ident<f64>;
            const LEN: usize = #len;
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

/// `impl Seed for Bar<f64>`: the struct rebuilt with any scalar for its f64 fields (what
/// the generated `_jvp`, `_hessian` and `_hvp` make of a struct parameter).
fn impl_seed(s: &RuleStruct) -> TokenStream {
    let ident = &s.item.ident;
    let fields = s.fields.iter().map(|f| {
        let m = &f.member;
        let value = match f.kind {
            FieldKind::Scalar => quote!(make(self.#m)),
            FieldKind::Array(_) => quote!(self.#m.map(|__fz_e| make(__fz_e))),
            FieldKind::Data => clone_field(f),
        };
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

/// The number of f64 values: 1 per scalar field, N per array field.
fn len(s: &RuleStruct) -> TokenStream {
    let terms = s.differentiable().map(|f| match f.kind {
        FieldKind::Array(n) => quote!((#n)),
        _ => quote!(1),
    });
    quote!(0 #(+ #terms)*)
}
