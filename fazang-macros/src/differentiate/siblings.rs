//! The generated siblings of a differentiated function: `name_grad` (scalar results) and
//! `name_jacobian` (vector results). Each opens a nested tape scope, makes the active
//! parameters independent variables, calls the generic function with `S = Var`, sweeps
//! backwards and reads the adjoints back in each parameter's own shape.

use super::ast::{Model, Param, Place};
use super::expand::Analysed;
use crate::types::{ParamKind, ResultKind};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{GenericArgument, Ident, PathArguments, ReturnType, Type};

/// `name_grad` or `name_jacobian`, if the function has one.
pub fn siblings(m: &Model, a: &Analysed) -> TokenStream {
    if !m.has_siblings() {
        return TokenStream::new();
    }
    match m.ret {
        Some(ResultKind::Scalar | ResultKind::ResultScalar) => {
            let g = grad_fns(m, a);
            let into = grad_into_fn(m, a);
            quote!(#g #into)
        }
        Some(ResultKind::Vector) => match &a.adjoint {
            Some(Ok(adj)) if !m.options.tape && super::adjoint_items::has_adjoint_jacobian(m) => {
                if std::env::var_os("FAZANG_MACRO_DEBUG").is_some() {
                    eprintln!(
                        "#[differentiate] {}: adjoint code\n{}\n",
                        m.name(),
                        adj.body
                    );
                }
                let item = super::adjoint_items::adjoint_fn(m, adj.body.clone());
                let containers = m
                    .active()
                    .any(|p| matches!(p.kind, ParamKind::Container { .. }));
                let columns = (adj.tangent.is_ok() && !containers)
                    .then(|| super::tangent_items::jacobian_columns(m));
                let jac = adjoint_jacobian_fn(m, columns);
                quote!(#item #jac)
            }
            Some(Err(u)) if std::env::var_os("FAZANG_MACRO_DEBUG").is_some() => {
                eprintln!(
                    "#[differentiate] {}: tape; adjoint code lacks {}",
                    m.name(),
                    u.why
                );
                jacobian_fn(m)
            }
            _ => jacobian_fn(m),
        },
        // An alias the macro cannot see into: the adjoint code does not know its shape.
        Some(ResultKind::Aliased) => jacobian_fn(m),
        None => TokenStream::new(),
    }
}

/// The active copy of a parameter (`__fza_`: no helper binding starts so).
pub(super) fn active_name(p: &Param) -> Ident {
    format_ident!("__fza_{}", p.ident)
}

/// `x` as `Param` takes it: references as they are, values borrowed.
pub(super) fn param_ref(p: &Param) -> TokenStream {
    let x = &p.ident;
    match &p.kind {
        ParamKind::Nested { by_ref: true, .. } | ParamKind::Container { by_ref: true, .. } => {
            quote!(#x)
        }
        _ => quote!(&#x),
    }
}

/// Statements making the active copies, one run of independent variables in parameter
/// order (`__fz_inputs`, also the Jacobian's columns).
fn activations(m: &Model) -> TokenStream {
    let acts = m.active().map(|p| {
        let (a, r) = (active_name(p), param_ref(p));
        match p.kind {
            // A capitalised name (a #[deriv_rule] struct, or an alias of an `f64` shape)
            // through `Seed`, as in its type: an unregistered struct gets one message.
            ParamKind::Struct => quote! {
                let #a = ::fazang::__private::Seed::seed(#r, &mut |__fz_v| __fz_inputs.var(__fz_v));
            },
            _ => quote!(let #a = ::fazang::__private::Param::activate(#r, &mut __fz_inputs);),
        }
    });
    quote! {
        let mut __fz_inputs = ::fazang::__private::Inputs::new();
        #(#acts)*
    }
}

/// The call of the generic function on the active copies.
pub(super) fn call(m: &Model) -> TokenStream {
    let name = m.name();
    let args = m.params.iter().map(|p| {
        let (x, a) = (&p.ident, active_name(p));
        match (&p.kind, p.active) {
            (_, false) => quote!(#x),
            (ParamKind::Nested { by_ref: true, .. }, true)
            | (ParamKind::Container { by_ref: true, .. }, true) => quote!(&#a),
            (ParamKind::Container { view: true, .. }, true) => quote!(#a.view()),
            (_, true) => quote!(#a),
        }
    });
    match (m.place, m.receiver()) {
        (Place::Method, Some(_)) => quote!(self.#name(#(#args),*)),
        (Place::Method, None) => quote!(Self::#name(#(#args),*)),
        _ => quote!(#name(#(#args),*)),
    }
}

/// The adjoint of one active parameter in its own shape, and that shape's type.
fn adjoint(p: &Param) -> (TokenStream, TokenStream) {
    let r = param_ref(p);
    let e = match p.kind {
        ParamKind::Struct => quote!(::fazang::__private::Seed::shaped(#r, &mut __fz_adj)),
        _ => quote!(::fazang::__private::Param::gradient(#r, &mut __fz_adj)),
    };
    (e, grad_type(p))
}

/// The type of an active parameter's gradient: its own shape with `f64`s.
pub(super) fn grad_type(p: &Param) -> TokenStream {
    match &p.kind {
        ParamKind::Scalar => quote!(f64),
        ParamKind::Nested { shape, .. } => shape.grad_type(),
        ParamKind::Container { .. } => {
            let ty = crate::types::container_grad_type(p.ty);
            quote!(#ty)
        }
        ParamKind::Struct => {
            let ty = p.ty;
            quote!(#ty)
        }
        ParamKind::MutRef | ParamKind::Data => unreachable!("only active parameters"),
    }
}

/// The gradient expression and its type: `[f64; K]` if every active parameter is a
/// scalar, else the one adjoint shape, else a tuple of them.
fn gradient(m: &Model) -> (TokenStream, TokenStream, String) {
    let active: Vec<&Param> = m.active().collect();
    let names: Vec<String> = active.iter().map(|p| format!("d/d{}", p.ident)).collect();
    if active.iter().all(|p| matches!(p.kind, ParamKind::Scalar)) {
        let adj = active.iter().map(|p| adjoint(p).0);
        let k = active.len();
        let doc = format!("`[{}]`", names.join(", "));
        return (quote!([#(#adj),*]), quote!([f64; #k]), doc);
    }
    let (exprs, tys): (Vec<_>, Vec<_>) = active.iter().map(|p| adjoint(p)).unzip();
    let doc = names.join(", ");
    if active.len() == 1 {
        let (e, t) = (&exprs[0], &tys[0]);
        let doc = format!("{doc}, shaped like the parameter");
        (quote!(#e), quote!(#t), doc)
    } else {
        let doc = format!("the tuple `({doc})`, each shaped like its parameter");
        (quote!((#(#exprs),*)), quote!((#(#tys),*)), doc)
    }
}

/// Parameters of the generated functions: the original ones, without `mut` bindings.
pub(super) fn wrapper_inputs(m: &Model) -> TokenStream {
    let recv = wrapper_receiver(m);
    let inputs = m.params.iter().map(|p| {
        let (x, ty) = (&p.ident, p.ty);
        quote!(#x: #ty)
    });
    quote!(#recv #(#inputs),*)
}

/// The receiver of a method as the wrappers take it (`&self,`), or nothing.
pub(super) fn wrapper_receiver(m: &Model) -> TokenStream {
    let recv = m.receiver().map(|r| {
        let (and, lt, mutability, slf) = (
            r.reference.as_ref().map(|(a, _)| a),
            r.reference.as_ref().and_then(|(_, l)| l.as_ref()),
            &r.mutability,
            &r.self_token,
        );
        if and.is_some() {
            quote!(#and #lt #mutability #slf,)
        } else {
            quote!(#slf,)
        }
    });
    quote!(#recv)
}

/// Attributes that must follow the function to its generated siblings: `cfg`, and lint
/// levels (`allow`, `expect`) the user set.
pub(super) fn carried_attrs(m: &Model) -> TokenStream {
    let attrs = m.func.attrs.iter().filter(|a| {
        let p = a.path();
        p.is_ident("cfg") || p.is_ident("allow") || p.is_ident("expect")
    });
    quote!(#(#attrs)*)
}

/// A generated sibling: docs, the user's carried attributes, the original parameters,
/// and a body that opens a nested scope and activates the inputs before `rest`.
fn sibling(
    m: &Model,
    name: &Ident,
    docs: [String; 2],
    ret: TokenStream,
    acts: TokenStream,
    rest: TokenStream,
) -> TokenStream {
    let body = quote! {
        let __fz_scope = ::fazang::__private::scope();
        #acts
        #rest
    };
    item(m, name, docs, TokenStream::new(), ret, body)
}

/// A generated item: docs, the user's carried attributes, the original parameters
/// followed by `extra` (`, v: &[f64]`), the return type and the body.
pub(super) fn item(
    m: &Model,
    name: &Ident,
    docs: [String; 2],
    extra: TokenStream,
    ret: TokenStream,
    body: TokenStream,
) -> TokenStream {
    let f = &m.func;
    let (vis, generics, wc) = (f.vis, &f.sig.generics, &f.sig.generics.where_clause);
    let (inputs, attrs) = (wrapper_inputs(m), carried_attrs(m));
    let [doc1, doc2] = docs;
    quote! {
        #[doc = #doc1]
        #[doc = ""]
        #[doc = #doc2]
        #attrs
        #[allow(dead_code, unused_mut, clippy::needless_borrow, clippy::redundant_clone, clippy::too_many_arguments, clippy::type_complexity)]
        #vis fn #name #generics(#inputs #extra) -> #ret #wc {
            #body
        }
    }
}

/// `name_grad`: adjoint code where the body allows it, the tape otherwise; beside the
/// adjoint one, the tape one as a hidden `__name_grad_tape` (tests compare the two).
fn grad_fns(m: &Model, a: &Analysed) -> TokenStream {
    let name = m.name();
    let gname = m
        .options
        .grad
        .clone()
        .unwrap_or_else(|| format_ident!("{}_grad", name));
    // The tape twin exists whatever the path, so tests and the fuzzer can compare.
    let twin = grad_fn(
        m,
        &format_ident!("__{}_grad_tape", name),
        String::new(),
        true,
    );
    let debug = std::env::var_os("FAZANG_MACRO_DEBUG").is_some();
    let main = if m.options.tape {
        let doc = " It records the function on the tape (`#[differentiate(tape)]`).";
        grad_fn(m, &gname, doc.into(), false)
    } else {
        match a.adjoint.as_ref().expect("computed for scalar results") {
            Ok(adj) => {
                if debug {
                    eprintln!("#[differentiate] {name}: adjoint code\n{}\n", adj.body);
                }
                let item = super::adjoint_items::adjoint_fn(m, adj.body.clone());
                let grad = adjoint_grad_fn(m, &gname);
                quote!(#item #grad)
            }
            Err(u) => {
                if debug {
                    eprintln!(
                        "#[differentiate] {name}: tape; adjoint code lacks {}",
                        u.why
                    );
                }
                let doc = format!(
                    " It records the function on the tape: the adjoint code does not cover \
                     {} yet.",
                    u.why
                );
                grad_fn(m, &gname, doc, false)
            }
        }
    };
    quote!(#main #twin)
}

/// `name_grad` from adjoint code.
fn adjoint_grad_fn(m: &Model, gname: &Ident) -> TokenStream {
    let name = m.name();
    let (_, gty, gdoc) = gradient(m);
    let is_result = matches!(m.ret, Some(ResultKind::ResultScalar));
    let doc1 = format!(" Value and gradient of [`{name}`] (generated by `#[differentiate]`).");
    let doc2 = format!(
        " Returns `(value, gradient)`{}; the gradient is {gdoc}. It runs adjoint code \
         generated from the body (a forward and a reverse sweep in plain `f64`), not the \
         tape.",
        if is_result {
            " in `Ok`, or `name`'s error"
        } else {
            ""
        }
    );
    super::adjoint_items::grad_fn(m, gname, doc1, doc2, gty)
}

fn grad_fn(m: &Model, gname: &Ident, path_doc: String, hidden: bool) -> TokenStream {
    let name = m.name();
    let call = call(m);
    let (g, gty, gdoc) = gradient(m);
    let is_result = matches!(m.ret, Some(ResultKind::ResultScalar));
    let ret = if is_result {
        result_with(&m.func.sig.output, quote!((f64, #gty)))
    } else {
        quote!((f64, #gty))
    };
    let get_out = if is_result {
        quote!(match #call {
            ::std::result::Result::Ok(v) => v,
            ::std::result::Result::Err(e) => return ::std::result::Result::Err(e),
        })
    } else {
        call
    };
    let done = if is_result {
        quote!(::std::result::Result::Ok((__fz_out.val(), #g)))
    } else {
        quote!((__fz_out.val(), #g))
    };
    let doc1 = format!(" Value and gradient of [`{name}`] (generated by `#[differentiate]`).");
    let doc2 = format!(
        " Returns `(value, gradient)`{}; the gradient is {gdoc}.",
        if is_result {
            " in `Ok`, or `name`'s error"
        } else {
            ""
        }
    );
    let rest = quote! {
        let __fz_out: ::fazang::Var = #get_out;
        ::fazang::__private::grad_in_scope(__fz_out);
        let mut __fz_adj = __fz_inputs.adjoints();
        #done
    };
    let doc2 = format!("{doc2}{path_doc}");
    // The tape twin records every operation, also of functions it calls.
    let acts = activations(m);
    let acts = if hidden {
        quote!(let __fz_nf = ::fazang::__private::no_fusion(); #acts)
    } else {
        acts
    };
    let out = sibling(m, gname, [doc1, doc2], ret, acts, rest);
    if hidden {
        quote!(#[doc(hidden)] #out)
    } else {
        out
    }
}

/// `Result<f64, E>` with `f64` replaced by `inner`.
pub(super) fn result_with(out: &ReturnType, inner: TokenStream) -> TokenStream {
    let ReturnType::Type(_, ty) = out else {
        unreachable!("validated: returns Result<f64, E>")
    };
    let mut ty = (**ty).clone();
    if let Type::Path(tp) = crate::types::strip_mut(&mut ty) {
        if let Some(seg) = tp.path.segments.last_mut() {
            if let PathArguments::AngleBracketed(args) = &mut seg.arguments {
                if let Some(GenericArgument::Type(t)) = args.args.first_mut() {
                    *t = syn::parse_quote!(#inner);
                }
            }
        }
    }
    quote!(#ty)
}

/// `name_jacobian` from adjoint code: rows by reverse sweeps, or, given `columns` (the
/// tangent code's), columns when there are fewer inputs than outputs.
fn adjoint_jacobian_fn(m: &Model, columns: Option<TokenStream>) -> TokenStream {
    let name = m.name();
    let jname = m
        .options
        .jacobian
        .clone()
        .unwrap_or_else(|| format_ident!("{}_jacobian", name));
    let names: Vec<String> = m.active().map(|p| format!("`{}`", p.ident)).collect();
    let doc1 = format!(" Values and Jacobian of [`{name}`] (generated by `#[differentiate]`).");
    let doc2 = format!(
        " Returns `(values, jac)` with `jac[i][j]` = d out_i / d input_j, the inputs being \
         {} flattened in that order. {}",
        names.join(", "),
        if columns.is_some() {
            "Generated from the body: rows by adjoint code (one forward and one reverse \
             sweep per output, in plain `f64`), or, when there are fewer inputs than \
             outputs, columns by tangent code (one pass on dual numbers per 8 inputs)."
        } else {
            "It runs adjoint code generated from the body: one forward and one reverse \
             sweep per output, in plain `f64`."
        }
    );
    super::adjoint_items::jacobian_fn(m, &jname, [doc1, doc2], columns)
}

fn jacobian_fn(m: &Model) -> TokenStream {
    let name = m.name();
    let jname = m
        .options
        .jacobian
        .clone()
        .unwrap_or_else(|| format_ident!("{}_jacobian", name));
    let call = call(m);
    let names: Vec<String> = m.active().map(|p| format!("`{}`", p.ident)).collect();
    let doc1 = format!(" Values and Jacobian of [`{name}`] (generated by `#[differentiate]`).");
    let doc2 = format!(
        " Returns `(values, jac)` with `jac[i][j]` = d out_i / d input_j, the outputs \
         flattened row-major and the inputs being {} flattened in that order. Cost: one \
         recorded evaluation and one backward sweep per 8 outputs.",
        names.join(", ")
    );
    let ret = quote!((::std::vec::Vec<f64>, ::std::vec::Vec<::std::vec::Vec<f64>>));
    let rest = quote! {
        let mut __fz_out: ::std::vec::Vec<::fazang::Var> = ::std::vec::Vec::new();
        ::fazang::__private::Outputs::push_outputs(#call, &mut __fz_out);
        ::fazang::__private::jacobian_rows(&__fz_out, &__fz_inputs.to_vars())
    };
    sibling(m, &jname, [doc1, doc2], ret, activations(m), rest)
}

/// `name_grad_into(args.., grad: &mut [f64]) -> f64`: the gradient written flat (in
/// parameter order) into the caller's buffer, allocating nothing in steady state; for
/// functions whose active parameters are `f64`s and `&[f64]`s (what optimisers take).
fn grad_into_fn(m: &Model, a: &Analysed) -> TokenStream {
    use crate::types::Nested;
    let name = m.name();
    let iname = format_ident!("{}_grad_into", name);
    let taken = |n: &str| m.params.iter().any(|p| p.ident == n);
    let mut g = String::from("grad");
    while taken(&g) {
        g.push('_');
    }
    let g = format_ident!("{}", g);
    let adjoint = matches!(a.adjoint, Some(Ok(_))) && !m.options.tape;
    if adjoint && super::adjoint_items::has_grad_into(m) {
        let doc1 = format!(
            " Value of [`{name}`], its gradient written into `{g}` (generated by \
             `#[differentiate]`)."
        );
        let doc2 = " `grad` holds the partial derivatives in parameter order, arrays flattened; \
                    it must have one entry per active input (panics otherwise). It runs the \
                    same adjoint code as `name_grad` and allocates nothing in steady state: \
                    for optimisers calling it many times.";
        return super::adjoint_items::grad_into_fn(m, &iname, &g, doc1, doc2);
    }
    let flat = m.active().all(|p| match &p.kind {
        ParamKind::Scalar => true,
        ParamKind::Nested {
            by_ref: true,
            shape: Nested::Slice(e),
        } => matches!(**e, Nested::F64),
        _ => false,
    });
    if !flat {
        return TokenStream::new();
    }
    let is_result = matches!(m.ret, Some(ResultKind::ResultScalar));
    let call = call(m);
    let finish = quote! {
        ::fazang::__private::grad_in_scope(__fz_out);
        __fz_inputs.adjoints_into(#g);
        __fz_out.val()
    };
    let mut inner = if is_result {
        quote!(match #call {
            ::std::result::Result::Ok(__fz_out) => ::std::result::Result::Ok({ #finish }),
            ::std::result::Result::Err(e) => ::std::result::Result::Err(e),
        })
    } else {
        quote!({ let __fz_out: ::fazang::Var = #call; #finish })
    };
    // Activate in parameter order: slices open a scope each, innermost last.
    for p in m.active().collect::<Vec<_>>().into_iter().rev() {
        let (x, a) = (&p.ident, active_name(p));
        inner = match p.kind {
            ParamKind::Scalar => quote!({ let #a = __fz_inputs.var(#x); #inner }),
            _ => quote!(__fz_inputs.with_slice(#x, |__fz_inputs, #a| #inner)),
        };
    }
    let ret = if is_result {
        result_with(&m.func.sig.output, quote!(f64))
    } else {
        quote!(f64)
    };
    let f = &m.func;
    let (vis, generics, wc) = (f.vis, &f.sig.generics, &f.sig.generics.where_clause);
    let (inputs, attrs) = (wrapper_inputs(m), carried_attrs(m));
    let doc1 = format!(
        " Value of [`{name}`], its gradient written into `{g}` (generated by \
         `#[differentiate]`)."
    );
    let doc2 = " `grad` holds the partial derivatives in parameter order, slices flattened; \
                it must have one entry per active input (panics otherwise). Nothing is \
                allocated in steady state: for optimisers calling it many times.";
    quote! {
        #[doc = #doc1]
        #[doc = ""]
        #[doc = #doc2]
        #attrs
        #[allow(dead_code, clippy::too_many_arguments)]
        #vis fn #iname #generics(#inputs, #g: &mut [f64]) -> #ret #wc {
            // On the tape operation by operation: a fused node would copy the slices.
            let __fz_nf = ::fazang::__private::no_fusion();
            let __fz_scope = ::fazang::__private::scope();
            let mut __fz_inputs = ::fazang::__private::Inputs::new();
            #inner
        }
    }
}
