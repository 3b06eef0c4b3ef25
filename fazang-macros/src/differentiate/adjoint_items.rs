//! The items of a function whose gradient is adjoint code: the hidden
//! `__name_adjoint(params.., seed, grads..)` (both sweeps, adding `seed` times the gradient
//! into one buffer per active parameter), and `name_grad` and `name_grad_into` calling it
//! with their own buffers.

use super::ast::{Model, Param, Place};
use super::siblings::{carried_attrs, result_with, wrapper_inputs};
use crate::types::{Nested, ParamKind, ResultKind};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::Ident;

/// The name of the hidden adjoint function.
pub fn adjoint_name(m: &Model) -> Ident {
    format_ident!("__{}_adjoint", m.name())
}

fn buffer(p: &Param) -> Ident {
    format_ident!("__fz_g_{}", p.ident)
}

/// The type of an active parameter's gradient buffer.
pub(super) fn buffer_type(p: &Param) -> TokenStream {
    match &p.kind {
        ParamKind::Scalar => quote!(&mut f64),
        ParamKind::Nested { shape, .. } => match shape {
            Nested::Slice(e) | Nested::Vec(e) | Nested::Array(e, _) => {
                let e = e.grad_type();
                quote!(&mut [#e])
            }
            Nested::F64 => quote!(&mut f64),
        },
        _ => {
            let ty = p.ty;
            quote!(&mut #ty)
        }
    }
}

fn is_result(m: &Model) -> bool {
    matches!(m.ret, Some(ResultKind::ResultScalar))
}

/// `__name_adjoint`.
pub fn adjoint_fn(m: &Model, body: TokenStream) -> TokenStream {
    let name = adjoint_name(m);
    let f = &m.func;
    let (vis, generics, wc) = (f.vis, &f.sig.generics, &f.sig.generics.where_clause);
    let (inputs, attrs) = (wrapper_inputs(m), carried_attrs(m));
    let bufs = m.active().map(|p| {
        let (b, t) = (buffer(p), buffer_type(p));
        quote!(#b: #t)
    });
    let vector = matches!(m.ret, Some(ResultKind::Vector));
    let (ret, body) = if is_result(m) {
        (
            result_with(&m.func.sig.output, quote!(f64)),
            quote!(::std::result::Result::Ok({ #body })),
        )
    } else if vector {
        (quote!(::std::vec::Vec<f64>), body)
    } else {
        (quote!(f64), body)
    };
    // A vector result takes the adjoint of each entry.
    let seed = if vector { quote!(&[f64]) } else { quote!(f64) };
    quote! {
        #[doc(hidden)]
        #attrs
        #[allow(dead_code, unused_mut, unused_variables, unused_assignments, unused_parens, unused_braces, non_snake_case, unreachable_code, clippy::all)]
        #vis fn #name #generics(#inputs, __fz_seed: #seed, #(#bufs),*) -> #ret #wc {
            #body
        }
    }
}

/// The call of `__name_adjoint` with buffers named as [`buffer`].
fn call(m: &Model) -> TokenStream {
    let name = adjoint_name(m);
    let args = m.params.iter().map(|p| {
        let x = &p.ident;
        quote!(#x)
    });
    let bufs = m.active().map(|p| {
        let b = buffer(p);
        match p.kind {
            ParamKind::Scalar => quote!(&mut #b),
            _ => quote!(&mut #b),
        }
    });
    match (m.place, m.receiver()) {
        (Place::Method, Some(_)) => quote!(self.#name(#(#args,)* 1.0, #(#bufs),*)),
        (Place::Method, None) => quote!(Self::#name(#(#args,)* 1.0, #(#bufs),*)),
        _ => quote!(#name(#(#args,)* 1.0, #(#bufs),*)),
    }
}

/// `name_grad` over the adjoint function.
pub fn grad_fn(
    m: &Model,
    gname: &Ident,
    doc1: String,
    doc2: String,
    gty: TokenStream,
) -> TokenStream {
    let zeros = m.active().map(|p| {
        let (b, x) = (buffer(p), &p.ident);
        match p.kind {
            ParamKind::Scalar => quote!(let mut #b: f64 = 0.0;),
            // Zeros in the parameter's shape (a struct, or an alias of an array).
            ParamKind::Struct => quote! {
                let mut #b = ::fazang::__private::Seed::shaped(&#x, &mut ::std::iter::repeat(0.0));
            },
            _ => quote!(let mut #b = ::fazang::__private::zeros_like(&#x);),
        }
    });
    let active: Vec<&Param> = m.active().collect();
    let names: Vec<Ident> = active.iter().map(|p| buffer(p)).collect();
    let g = if active.iter().all(|p| matches!(p.kind, ParamKind::Scalar)) {
        quote!([#(#names),*])
    } else if names.len() == 1 {
        let n = &names[0];
        quote!(#n)
    } else {
        quote!((#(#names),*))
    };
    let call = call(m);
    let (ret, body) = if is_result(m) {
        (
            result_with(&m.func.sig.output, quote!((f64, #gty))),
            quote! {
                let __fz_v = #call?;
                ::std::result::Result::Ok((__fz_v, #g))
            },
        )
    } else {
        (
            quote!((f64, #gty)),
            quote!(let __fz_v = #call; (__fz_v, #g)),
        )
    };
    let f = &m.func;
    let (vis, generics, wc) = (f.vis, &f.sig.generics, &f.sig.generics.where_clause);
    let (inputs, attrs) = (wrapper_inputs(m), carried_attrs(m));
    quote! {
        #[doc = #doc1]
        #[doc = ""]
        #[doc = #doc2]
        #attrs
        #[allow(dead_code, clippy::too_many_arguments, clippy::type_complexity)]
        #vis fn #gname #generics(#inputs) -> #ret #wc {
            #(#zeros)*
            #body
        }
    }
}

/// Whether `name_grad_into` exists: every active parameter a float or a flat array, slice
/// or vector of floats.
pub fn has_grad_into(m: &Model) -> bool {
    m.active().all(|p| match &p.kind {
        ParamKind::Scalar => true,
        ParamKind::Nested { shape, .. } => match shape {
            Nested::Slice(e) | Nested::Vec(e) | Nested::Array(e, _) => matches!(**e, Nested::F64),
            Nested::F64 => false,
        },
        _ => false,
    })
}

/// `name_grad_into(args.., grad)` over the adjoint function: no allocation.
pub fn grad_into_fn(m: &Model, iname: &Ident, g: &Ident, doc1: String, doc2: &str) -> TokenStream {
    let active: Vec<&Param> = m.active().collect();
    let lens: Vec<TokenStream> = active
        .iter()
        .map(|p| {
            let x = &p.ident;
            match p.kind {
                ParamKind::Scalar => quote!(1usize),
                _ => quote!(#x.len()),
            }
        })
        .collect();
    let lvars: Vec<Ident> = (0..active.len())
        .map(|i| format_ident!("__fz_n{}", i))
        .collect();
    let mut split = Vec::new();
    for (p, n) in active.iter().zip(&lvars) {
        let b = buffer(p);
        split.push(match p.kind {
            ParamKind::Scalar => quote! {
                let (__fz_head, __fz_rest) = __fz_rest.split_at_mut(#n);
                let #b = &mut __fz_head[0];
            },
            _ => quote! {
                let (#b, __fz_rest) = __fz_rest.split_at_mut(#n);
            },
        });
    }
    let name = adjoint_name(m);
    let args = m.params.iter().map(|p| {
        let x = &p.ident;
        quote!(#x)
    });
    let bufs = active.iter().map(|p| buffer(p));
    let call = match (m.place, m.receiver()) {
        (Place::Method, Some(_)) => quote!(self.#name(#(#args,)* 1.0, #(#bufs),*)),
        (Place::Method, None) => quote!(Self::#name(#(#args,)* 1.0, #(#bufs),*)),
        _ => quote!(#name(#(#args,)* 1.0, #(#bufs),*)),
    };
    let ret = if is_result(m) {
        result_with(&m.func.sig.output, quote!(f64))
    } else {
        quote!(f64)
    };
    let f = &m.func;
    let (vis, generics, wc) = (f.vis, &f.sig.generics, &f.sig.generics.where_clause);
    let (inputs, attrs) = (wrapper_inputs(m), carried_attrs(m));
    let fname = m.name().to_string();
    quote! {
        #[doc = #doc1]
        #[doc = ""]
        #[doc = #doc2]
        #attrs
        #[allow(dead_code, clippy::too_many_arguments)]
        #vis fn #iname #generics(#inputs, #g: &mut [f64]) -> #ret #wc {
            #(let #lvars: usize = #lens;)*
            ::fazang::__private::check_grad_len(#fname, #g.len(), 0 #(+ #lvars)*);
            for __fz_x in #g.iter_mut() {
                *__fz_x = 0.0;
            }
            let __fz_rest: &mut [f64] = #g;
            #(#split)*
            let _ = __fz_rest;
            #call
        }
    }
}

/// Whether `name_jacobian` can run the adjoint code once per output: every parameter can
/// be passed again (a reference or a `Copy` type), every active one a float or a flat
/// array.
pub fn has_adjoint_jacobian(m: &Model) -> bool {
    let copy = |p: &Param| match &p.kind {
        ParamKind::Scalar => true,
        ParamKind::Nested { by_ref, shape } => *by_ref || matches!(shape, Nested::Array(..)),
        ParamKind::Data => match crate::types::strip(p.ty) {
            syn::Type::Reference(r) => r.mutability.is_none(),
            syn::Type::Path(tp) => tp.path.get_ident().is_some_and(|i| {
                let n = i.to_string();
                crate::model::known::INT_TYPES.contains(&n.as_str())
                    || matches!(n.as_str(), "f64" | "f32" | "bool" | "char")
            }),
            _ => false,
        },
        _ => false,
    };
    has_grad_into(m)
        && m.params.iter().all(copy)
        && m.receiver().is_none_or(|r| r.reference.is_some())
}

/// `name_jacobian` over the adjoint code: values, then one forward and reverse sweep per
/// output with that output's adjoint 1.
pub fn jacobian_fn(
    m: &Model,
    jname: &Ident,
    [doc1, doc2]: [String; 2],
    columns: Option<TokenStream>,
) -> TokenStream {
    let active: Vec<&Param> = m.active().collect();
    let zeros: Vec<TokenStream> = active
        .iter()
        .map(|p| {
            let (b, x) = (buffer(p), &p.ident);
            match p.kind {
                ParamKind::Scalar => quote!(let mut #b: f64 = 0.0;),
                _ => quote!(let mut #b = ::fazang::__private::zeros_like(&#x);),
            }
        })
        .collect();
    let row: Vec<TokenStream> = active
        .iter()
        .map(|p| {
            let b = buffer(p);
            match p.kind {
                ParamKind::Scalar => quote!(__fz_row.push(#b);),
                _ => quote!(__fz_row.extend_from_slice(&#b[..]);),
            }
        })
        .collect();
    let name = adjoint_name(m);
    let args: Vec<TokenStream> = m
        .params
        .iter()
        .map(|p| {
            let x = &p.ident;
            quote!(#x)
        })
        .collect();
    let bufs: Vec<TokenStream> = active
        .iter()
        .map(|p| {
            let b = buffer(p);
            quote!(&mut #b)
        })
        .collect();
    let call = |seed: TokenStream| match (m.place, m.receiver()) {
        (Place::Method, Some(_)) => quote!(self.#name(#(#args,)* #seed, #(#bufs),*)),
        (Place::Method, None) => quote!(Self::#name(#(#args,)* #seed, #(#bufs),*)),
        _ => quote!(#name(#(#args,)* #seed, #(#bufs),*)),
    };
    // Fewer inputs than outputs: columns by tangent code, 8 inputs per pass.
    let by_columns = columns.map(|cols| {
        let n = super::tangent_items::count(m);
        quote! {
            let __fz_n = #n;
            if __fz_n < __fz_m {
                return (__fz_values, #cols);
            }
        }
    });
    let first = call(quote!(&[]));
    let each = call(quote!(&__fz_seed));
    let f = &m.func;
    let (vis, generics, wc) = (f.vis, &f.sig.generics, &f.sig.generics.where_clause);
    let (inputs, attrs) = (wrapper_inputs(m), carried_attrs(m));
    quote! {
        #[doc = #doc1]
        #[doc = ""]
        #[doc = #doc2]
        #attrs
        #[allow(dead_code, clippy::too_many_arguments, clippy::type_complexity)]
        #vis fn #jname #generics(#inputs) -> (::std::vec::Vec<f64>, ::std::vec::Vec<::std::vec::Vec<f64>>) #wc {
            let __fz_values = {
                #(#zeros)*
                #first
            };
            let __fz_m = __fz_values.len();
            #by_columns
            let mut __fz_seed = ::std::vec![0.0; __fz_m];
            let mut __fz_rows = ::std::vec::Vec::with_capacity(__fz_m);
            for __fz_i in 0..__fz_m {
                __fz_seed[__fz_i] = 1.0;
                #(#zeros)*
                #each;
                __fz_seed[__fz_i] = 0.0;
                let mut __fz_row = ::std::vec::Vec::new();
                #(#row)*
                __fz_rows.push(__fz_row);
            }
            (__fz_values, __fz_rows)
        }
    }
}
