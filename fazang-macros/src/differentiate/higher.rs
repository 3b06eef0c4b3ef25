//! The siblings that run the same generic body on forward-mode scalars: `name_jvp` (value
//! and directional derivative, every supported result), `name_hessian` and `name_hvp`
//! (scalar results). Each seeds the active parameters through the runtime's `Seed` (one
//! run of inputs, flattened in parameter order as `name_grad` flattens them), calls the
//! generic function once per pass and reads the result back
//! (`fazang-runtime/src/seed.rs`).

use super::ast::{Model, Param};
use super::siblings::{active_name, call, item, param_ref, result_with};
use crate::types::{ParamKind, ResultKind};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::Ident;

/// `name_jvp`, and for scalar results `name_hessian` and `name_hvp`. Nothing for a
/// function with an active nalgebra or ndarray parameter (seeded only by `name_grad`).
///
/// Where the core form gives tangent code (and the tangent of the adjoint code), the items
/// run it (`tangent_items.rs`); otherwise the generic body on forward scalars.
pub fn higher(m: &Model, a: &super::expand::Analysed) -> TokenStream {
    if !m.has_siblings()
        || m.active()
            .any(|p| matches!(p.kind, ParamKind::Container { .. }))
    {
        return TokenStream::new();
    }
    let g = super::tangent_items::generic(m, a);
    let jvp = match &g {
        Some(g) => super::tangent_items::tangent_items(m, g),
        None => jvp_fn(m),
    };
    match m.ret {
        Some(ResultKind::Scalar | ResultKind::ResultScalar) => {
            // `FAZANG_HESSIAN_TWIN=1` (the fuzzer): the generic body's Hessian beside the
            // generated one, hidden, so that the two can be compared.
            let twin = if std::env::var_os("FAZANG_HESSIAN_TWIN").is_some() {
                hessian_fn(m, &format_ident!("__{}_hessian_generic", m.name()))
            } else {
                TokenStream::new()
            };
            let second = g
                .as_ref()
                .and_then(|g| super::tangent_items::second_items(m, g));
            if std::env::var_os("FAZANG_MACRO_DEBUG").is_some() {
                let why = match (&a.adjoint, &second) {
                    (_, Some(_)) => String::new(),
                    (Some(Ok(adj)), None) => match &adj.generic {
                        Err(e) => format!("; the core form over dual numbers lacks {e}"),
                        Ok(_) => "; no tangent code".into(),
                    },
                    _ => "; no adjoint code".into(),
                };
                let path = if second.is_some() {
                    "from the core form"
                } else {
                    "on the generic body"
                };
                eprintln!("#[differentiate] {}: second order {path}{why}", m.name());
            }
            match second {
                Some(second) => quote!(#jvp #second #twin),
                None => {
                    let hname = format_ident!("{}_hessian", m.name());
                    let (h, hv) = (hessian_fn(m, &hname), hvp_fn(m));
                    quote!(#jvp #h #hv #twin)
                }
            }
        }
        _ => jvp,
    }
}

pub(super) fn is_result(m: &Model) -> bool {
    matches!(m.ret, Some(ResultKind::ResultScalar))
}

/// `v`, or `v_` etc. if a parameter is called `v`.
pub(super) fn direction_ident(m: &Model) -> Ident {
    let mut v = String::from("v");
    while m.params.iter().any(|p| p.ident == v.as_str()) {
        v.push('_');
    }
    format_ident!("{}", v)
}

/// `Seed::count(&x) + Seed::count(y) + ..` over the active parameters.
pub(super) fn count(m: &Model) -> TokenStream {
    let counts = m.active().map(|p| {
        let r = param_ref(p);
        quote!(::fazang::__private::Seed::count(#r))
    });
    quote!(0usize #(+ #counts)*)
}

/// `let __fz_x = seeder.seed(&x);` for every active parameter, in order.
pub(super) fn seeds(m: &Model, seeder: &Ident) -> TokenStream {
    let lets = m.active().map(|p| {
        let (a, r) = (active_name(p), param_ref(p));
        quote!(let #a = #seeder.seed(#r);)
    });
    quote!(#(#lets)*)
}

/// The call of the generic function, with `?`-like early return of its error.
pub(super) fn checked_call(m: &Model) -> TokenStream {
    let call = call(m);
    if is_result(m) {
        quote!(match #call {
            ::std::result::Result::Ok(v) => v,
            ::std::result::Result::Err(e) => return ::std::result::Result::Err(e),
        })
    } else {
        call
    }
}

pub(super) fn ok_if_result(m: &Model, e: TokenStream) -> TokenStream {
    if is_result(m) {
        quote!(::std::result::Result::Ok(#e))
    } else {
        e
    }
}

pub(super) fn ret_type(m: &Model, t: TokenStream) -> TokenStream {
    if is_result(m) {
        result_with(&m.func.sig.output, t)
    } else {
        t
    }
}

/// The active parameters' names, for docs: "`x`, `y`".
pub(super) fn input_names(m: &Model) -> String {
    let names: Vec<String> = m.active().map(|p| format!("`{}`", p.ident)).collect();
    names.join(", ")
}

fn jvp_fn(m: &Model) -> TokenStream {
    let seeds = seeds(m, &format_ident!("__fz_dir"));
    let read = [
        quote!(::fazang::__private::jvp_vector(__fz_out)),
        quote!(::fazang::__private::jvp_scalar(__fz_out)),
    ];
    jvp_item(
        m,
        m.ret.as_ref().is_some_and(ResultKind::is_vector),
        |v, n| quote!(let mut __fz_dir = ::fazang::__private::Direction::new(#v, #n); #seeds),
        checked_call(m),
        read,
        "One forward-mode evaluation of the body on dual numbers.",
    )
}

/// `name_jvp`: `seed(v, n)` makes the seeded inputs from the direction `v` and the input
/// count, `out` runs the body on them into `__fz_out`, `read` (vector, scalar result)
/// turns that into `(value, derivative)`; `how` ends the docs.
pub(super) fn jvp_item(
    m: &Model,
    vector: bool,
    seed: impl FnOnce(&Ident, &Ident) -> TokenStream,
    out: TokenStream,
    [read_vector, read_scalar]: [TokenStream; 2],
    how: &str,
) -> TokenStream {
    let name = m.name();
    let jname = format_ident!("{}_jvp", name);
    let v = direction_ident(m);
    let n = count(m);
    let (read, ty, shape) = if vector {
        (
            read_vector,
            quote!((::std::vec::Vec<f64>, ::std::vec::Vec<f64>)),
            "`(values, J v)`, the outputs flattened row-major",
        )
    } else {
        (
            read_scalar,
            quote!((f64, f64)),
            "`(value, directional derivative)`",
        )
    };
    let done = ok_if_result(m, read);
    let seeded = seed(&v, &format_ident!("__fz_n"));
    let body = quote! {
        let __fz_n = #n;
        #seeded
        let __fz_out = #out;
        #done
    };
    let doc1 = format!(
        " Value and derivative of [`{name}`] along `{v}` (generated by `#[differentiate]`)."
    );
    let doc2 = format!(
        " Returns {shape}{}. `{v}` has one entry per active input: {} flattened in that \
         order (panics otherwise). {how}",
        in_ok(m),
        input_names(m)
    );
    let extra = quote!(, #v: &[f64]);
    item(m, &jname, [doc1, doc2], extra, ret_type(m, ty), body)
}

/// " in `Ok`, or the function's error" for a `Result` function, for docs.
pub(super) fn in_ok(m: &Model) -> &'static str {
    if is_result(m) {
        " in `Ok`, or the function's error"
    } else {
        ""
    }
}

fn hvp_fn(m: &Model) -> TokenStream {
    let name = m.name();
    let hname = format_ident!("{}_hvp", name);
    let v = direction_ident(m);
    let (n, seeds, out) = (
        count(m),
        seeds(m, &format_ident!("__fz_s")),
        checked_call(m),
    );
    let done = ok_if_result(m, quote!(__fz_s.finish(__fz_out)));
    let body = quote! {
        let __fz_n = #n;
        let mut __fz_s = ::fazang::__private::Hvp::new(#v, __fz_n);
        #seeds
        let __fz_out = #out;
        #done
    };
    let doc1 = format!(
        " Value of [`{name}`] and its Hessian times `{v}` (generated by `#[differentiate]`)."
    );
    let doc2 = format!(
        " Returns `(value, H {v})`{}, both over the active inputs {} flattened in that order; \
         `{v}` has one entry per input (panics otherwise). Reverse-over-forward: one \
         evaluation on dual numbers over the tape and one backward sweep, whatever the \
         number of inputs.",
        if is_result(m) {
            " in `Ok`, or the function's error"
        } else {
            ""
        },
        input_names(m)
    );
    let extra = quote!(, #v: &[f64]);
    let ty = quote!((f64, ::std::vec::Vec<f64>));
    item(m, &hname, [doc1, doc2], extra, ret_type(m, ty), body)
}

/// The gradient of a Hessian session in `name_grad`'s shape: `[f64; K]` if every active
/// parameter is an `f64`, the one parameter's shape, or a tuple of shapes.
pub(super) fn shaped_gradient(m: &Model) -> (TokenStream, TokenStream) {
    let active: Vec<&Param> = m.active().collect();
    let shaped = active.iter().map(|p| {
        let r = param_ref(p);
        quote!(::fazang::__private::Seed::shaped(#r, &mut __fz_it))
    });
    let tys: Vec<TokenStream> = active
        .iter()
        .map(|p| super::siblings::grad_type(p))
        .collect();
    if active.iter().all(|p| matches!(p.kind, ParamKind::Scalar)) {
        let k = active.len();
        (quote!([#(#shaped),*]), quote!([f64; #k]))
    } else if active.len() == 1 {
        let t = &tys[0];
        (quote!(#(#shaped)*), quote!(#t))
    } else {
        (quote!((#(#shaped),*)), quote!((#(#tys),*)))
    }
}

fn hessian_fn(m: &Model, hname: &Ident) -> TokenStream {
    let name = m.name();
    let (n, out) = (count(m), checked_call(m));
    let seeds = seeds(m, &format_ident!("__fz_pass"));
    let session = |mode: TokenStream| {
        quote! {{
            let mut __fz_s = ::fazang::__private::HessianSession::<#mode>::new(__fz_n);
            while let ::std::option::Option::Some(mut __fz_pass) = __fz_s.next_pass() {
                #seeds
                let __fz_out = #out;
                __fz_pass.finish(__fz_out);
            }
            __fz_s.finish()
        }}
    };
    let fwd = session(quote!(
        ::fazang::__private::Forward<{ ::fazang::__private::FORWARD_HESSIAN_MAX }>
    ));
    let rev = session(quote!(::fazang::__private::Reverse));
    let (g, gty) = shaped_gradient(m);
    let done = ok_if_result(m, quote!((__fz_v, __fz_grad, __fz_h)));
    let body = quote! {
        let __fz_n = #n;
        let (__fz_v, __fz_g, __fz_h) = if __fz_n <= ::fazang::__private::FORWARD_HESSIAN_MAX {
            #fwd
        } else {
            #rev
        };
        let mut __fz_it = __fz_g.into_iter();
        let __fz_grad = #g;
        #done
    };
    let doc1 =
        format!(" Value, gradient and Hessian of [`{name}`] (generated by `#[differentiate]`).");
    let doc2 = format!(
        " Returns `(value, gradient, hessian)`{}: the gradient shaped as `{name}_grad` \
         shapes it, the Hessian as rows (`hessian[i][j]` = d²f / d input_i d input_j, \
         symmetric) over the active inputs {} flattened in that order. Up to \
         `FORWARD_HESSIAN_MAX` (4) inputs by forward-over-forward in one pass, above by \
         reverse-over-forward, 8 directions per pass.",
        if is_result(m) {
            " in `Ok`, or the function's error"
        } else {
            ""
        },
        input_names(m)
    );
    let ty = quote!((f64, #gty, ::std::vec::Vec<::std::vec::Vec<f64>>));
    item(
        m,
        hname,
        [doc1, doc2],
        TokenStream::new(),
        ret_type(m, ty),
        body,
    )
}
