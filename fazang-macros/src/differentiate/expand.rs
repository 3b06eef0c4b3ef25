//! Code generation for a validated `#[differentiate]` function.
//!
//! ```text
//! fn f(mu: f64, y: &[f64]) -> f64 { body }
//! ```
//! becomes
//! ```text
//! fn f<S: Real>(mu: S, y: &[S]) -> S where f64: ScalarOps<S>, .. { body on S }
//! fn f_grad(mu: f64, y: &[f64]) -> (f64, (f64, Vec<f64>)) {
//!     nested scope; mu, y as Vars; out = f(mu, &y); sweep; (value, adjoints)
//! }
//! ```

use super::ast::{Kind, Model, Param, Ret};
use super::body::Rewrite;
use crate::util::Ctxt;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{parse_quote, GenericArgument, Ident, ItemFn, PathArguments, ReturnType, Type};

pub fn expand(cx: &mut Ctxt, m: &Model) -> TokenStream {
    let s = scalar_ident(m.func);
    let primal = generic_primal(cx, m, &s);
    let derived = match m.ret {
        Some(Ret::Scalar) | Some(Ret::ResultScalar) => grad_fn(m),
        Some(Ret::Vector) => jacobian_fn(m),
        None => TokenStream::new(),
    };
    quote! {
        #primal
        #derived
    }
}

/// `S`, or `S_` if the function already has a generic parameter named `S`.
fn scalar_ident(func: &ItemFn) -> Ident {
    let taken = |name: &str| func.sig.generics.type_params().any(|t| t.ident == name);
    let mut name = String::from("S");
    while taken(&name) {
        name.push('_');
    }
    format_ident!("{}", name)
}

/// The original function made generic over the scalar `S`.
fn generic_primal(cx: &mut Ctxt, m: &Model, s: &Ident) -> ItemFn {
    let mut f = m.func.clone();
    f.sig.generics.params.push(parse_quote!(#s: ::fazang::Real));
    let wc = f.sig.generics.make_where_clause();
    wc.predicates
        .push(parse_quote!(f64: ::fazang::__private::ScalarOps<#s>));
    wc.predicates
        .push(parse_quote!(#s: ::fazang::__private::IntoScalar<#s>));
    wc.predicates.push(parse_quote!(
        for<'__fz> &'__fz #s: ::fazang::__private::RefOps<#s> + ::fazang::__private::RefScalarOps<#s>
    ));
    wc.predicates
        .push(parse_quote!(for<'__fz> &'__fz f64: ::fazang::__private::RefOps<#s>));
    for (arg, p) in f.sig.inputs.iter_mut().filter_map(typed).zip(&m.params) {
        if p.kind.is_active() {
            *arg.ty = scalar_type(arg.ty.as_ref().clone(), &p.kind, s);
        }
    }
    if let ReturnType::Type(_, ty) = &mut f.sig.output {
        let mut rw = Rewrite {
            s: s.clone(),
            active: Default::default(),
            cx,
        };
        syn::visit_mut::VisitMut::visit_type_mut(&mut rw, ty);
    }
    let mut rw = Rewrite {
        s: s.clone(),
        active: m.active().map(|p| p.ident.to_string()).collect(),
        cx,
    };
    rw.body(&mut f.block);
    f
}

fn typed(arg: &mut syn::FnArg) -> Option<&mut syn::PatType> {
    match arg {
        syn::FnArg::Typed(t) => Some(t),
        syn::FnArg::Receiver(_) => None,
    }
}

/// The parameter type with `f64` replaced by `S` (a struct `Bar` becomes `Bar<S>`).
fn scalar_type(mut ty: Type, kind: &Kind, s: &Ident) -> Type {
    if let (Kind::Struct, Type::Path(tp)) = (kind, &mut ty) {
        let seg = tp.path.segments.last_mut().expect("checked: one segment");
        seg.arguments = PathArguments::AngleBracketed(parse_quote!(<#s>));
        return ty;
    }
    struct F64ToS<'a>(&'a Ident);
    impl syn::visit_mut::VisitMut for F64ToS<'_> {
        fn visit_type_mut(&mut self, t: &mut Type) {
            if crate::util::is_f64(t) {
                let s = self.0;
                *t = parse_quote!(#s);
            } else {
                syn::visit_mut::visit_type_mut(self, t);
            }
        }
    }
    syn::visit_mut::VisitMut::visit_type_mut(&mut F64ToS(s), &mut ty);
    ty
}

/// Names of the generated locals of a parameter.
fn active_name(p: &Param) -> Ident {
    format_ident!("__fz_{}", p.ident)
}
fn vars_name(p: &Param) -> Ident {
    format_ident!("__fz_vars_{}", p.ident)
}

/// Statements creating the active copy of each active parameter.
fn activations(m: &Model) -> TokenStream {
    m.active()
        .map(|p| {
            let (x, a, vars) = (&p.ident, active_name(p), vars_name(p));
            match p.kind {
                Kind::Scalar => quote!(let #a = ::fazang::Var::new(#x);),
                Kind::Array => quote!(let #a = #x.map(::fazang::Var::new);),
                Kind::Slice | Kind::Vec | Kind::RefVec => quote! {
                    let #a: ::std::vec::Vec<::fazang::Var> =
                        #x.iter().map(|&v| ::fazang::Var::new(v)).collect();
                },
                Kind::Struct => quote! {
                    let mut #vars: ::std::vec::Vec<::fazang::Var> = ::std::vec::Vec::new();
                    let #a = ::fazang::__private::Composite::activate(&#x, &mut #vars);
                },
                Kind::Data => unreachable!("only active parameters"),
            }
        })
        .collect()
}

/// The call of the generic primal on the active copies.
fn call(m: &Model) -> TokenStream {
    let name = &m.func.sig.ident;
    let args = m.params.iter().map(|p| {
        let (x, a) = (&p.ident, active_name(p));
        match p.kind {
            Kind::Data => quote!(#x),
            Kind::Scalar | Kind::Array | Kind::Struct => quote!(#a),
            Kind::Slice | Kind::RefVec => quote!(&#a),
            Kind::Vec => quote!(::std::clone::Clone::clone(&#a)),
        }
    });
    quote!(#name(#(#args),*))
}

/// The adjoint of one active parameter, in its own shape, and that shape's type.
fn adjoint(p: &Param) -> (TokenStream, TokenStream) {
    let (x, a, vars) = (&p.ident, active_name(p), vars_name(p));
    match p.kind {
        Kind::Scalar => (quote!(#a.adj()), quote!(f64)),
        Kind::Array => {
            let len = match p.ty {
                Type::Array(arr) => &arr.len,
                _ => unreachable!("arrays are Type::Array"),
            };
            (quote!(#a.map(|v| v.adj())), quote!([f64; #len]))
        }
        Kind::Slice | Kind::Vec | Kind::RefVec => (
            quote!(#a.iter().map(::fazang::Var::adj).collect()),
            quote!(::std::vec::Vec<f64>),
        ),
        Kind::Struct => {
            let ty = p.ty;
            (
                quote!(::fazang::__private::Composite::adjoint(
                    &#x,
                    &mut #vars.iter().map(::fazang::Var::adj)
                )),
                quote!(#ty),
            )
        }
        Kind::Data => unreachable!("only active parameters"),
    }
}

/// The gradient expression and its type: `[f64; K]` if every active parameter is a
/// scalar, else the one adjoint shape, else a tuple of them.
fn gradient(m: &Model) -> (TokenStream, TokenStream, String) {
    let active: Vec<&Param> = m.active().collect();
    let names: Vec<String> = active.iter().map(|p| p.ident.to_string()).collect();
    if active.iter().all(|p| matches!(p.kind, Kind::Scalar)) {
        let adj = active.iter().map(|p| adjoint(p).0);
        let k = active.len();
        let doc = format!("`[{}]`", d_names(&names).join(", "));
        return (quote!([#(#adj),*]), quote!([f64; #k]), doc);
    }
    let (exprs, tys): (Vec<_>, Vec<_>) = active.iter().map(|p| adjoint(p)).unzip();
    let doc = d_names(&names).join(", ");
    if active.len() == 1 {
        let (e, t) = (&exprs[0], &tys[0]);
        (
            quote!(#e),
            quote!(#t),
            format!("{doc}, shaped like the parameter"),
        )
    } else {
        (
            quote!((#(#exprs),*)),
            quote!((#(#tys),*)),
            format!("the tuple `({doc})`, each shaped like its parameter"),
        )
    }
}

fn d_names(names: &[String]) -> Vec<String> {
    names.iter().map(|n| format!("d/d{n}")).collect()
}

/// Parameters of the generated functions: the original ones, without `mut` bindings.
fn wrapper_inputs(m: &Model) -> TokenStream {
    let inputs = m.params.iter().map(|p| {
        let (x, ty) = (&p.ident, p.ty);
        quote!(#x: #ty)
    });
    quote!(#(#inputs),*)
}

/// Attributes that must follow the function to its generated siblings: `cfg`, and lint
/// levels (`allow`, `expect`) the user set.
fn carried_attrs(m: &Model) -> TokenStream {
    let attrs = m.func.attrs.iter().filter(|a| {
        let p = a.path();
        p.is_ident("cfg") || p.is_ident("allow") || p.is_ident("expect")
    });
    quote!(#(#attrs)*)
}

/// A generated sibling of the function: its docs, the user's carried attributes, the
/// original parameters, and a body that opens a nested scope and activates the inputs
/// before `rest`.
fn sibling(
    m: &Model,
    name: &Ident,
    docs: [String; 2],
    ret: TokenStream,
    rest: TokenStream,
) -> TokenStream {
    let f = m.func;
    let (vis, generics, wc) = (&f.vis, &f.sig.generics, &f.sig.generics.where_clause);
    let (inputs, acts, attrs) = (wrapper_inputs(m), activations(m), carried_attrs(m));
    let [doc1, doc2] = docs;
    quote! {
        #[doc = #doc1]
        #[doc = ""]
        #[doc = #doc2]
        #attrs
        #[allow(clippy::needless_borrow, clippy::redundant_clone, clippy::too_many_arguments, clippy::type_complexity)]
        #vis fn #name #generics(#inputs) -> #ret #wc {
            let __fz_scope = ::fazang::__private::scope();
            #acts
            #rest
        }
    }
}

fn grad_fn(m: &Model) -> TokenStream {
    let name = &m.func.sig.ident;
    let gname = m
        .options
        .grad
        .clone()
        .unwrap_or_else(|| format_ident!("{}_grad", name));
    let call = call(m);
    let (g, gty, gdoc) = gradient(m);
    let is_result = matches!(m.ret, Some(Ret::ResultScalar));
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
        #done
    };
    sibling(m, &gname, [doc1, doc2], ret, rest)
}

/// `Result<f64, E>` with `f64` replaced by `inner`.
fn result_with(out: &ReturnType, inner: TokenStream) -> TokenStream {
    let ReturnType::Type(_, ty) = out else {
        unreachable!("validated: returns Result<f64, E>")
    };
    let mut ty = (**ty).clone();
    if let Type::Path(tp) = &mut ty {
        if let Some(seg) = tp.path.segments.last_mut() {
            if let PathArguments::AngleBracketed(args) = &mut seg.arguments {
                if let Some(GenericArgument::Type(t)) = args.args.first_mut() {
                    *t = parse_quote!(#inner);
                }
            }
        }
    }
    quote!(#ty)
}

fn jacobian_fn(m: &Model) -> TokenStream {
    let name = &m.func.sig.ident;
    let jname = m
        .options
        .jacobian
        .clone()
        .unwrap_or_else(|| format_ident!("{}_jacobian", name));
    let call = call(m);
    let cols = m.active().map(|p| {
        let (a, vars) = (active_name(p), vars_name(p));
        match p.kind {
            Kind::Scalar => quote!(__fz_cols.push(#a);),
            Kind::Struct => quote!(__fz_cols.extend_from_slice(&#vars);),
            _ => quote!(__fz_cols.extend_from_slice(&#a);),
        }
    });
    let names: Vec<String> = m.active().map(|p| format!("`{}`", p.ident)).collect();
    let doc1 = format!(" Values and Jacobian of [`{name}`] (generated by `#[differentiate]`).");
    let doc2 = format!(
        " Returns `(values, jac)` with `jac[i][j]` = d out_i / d input_j, the inputs being \
         {} flattened in that order. Cost: one recorded evaluation and one backward sweep \
         per 8 outputs.",
        names.join(", ")
    );
    let ret = quote!((::std::vec::Vec<f64>, ::std::vec::Vec<::std::vec::Vec<f64>>));
    let rest = quote! {
        let __fz_out: ::std::vec::Vec<::fazang::Var> =
            ::std::iter::IntoIterator::into_iter(#call).collect();
        let mut __fz_cols: ::std::vec::Vec<::fazang::Var> = ::std::vec::Vec::new();
        #(#cols)*
        ::fazang::__private::jacobian_rows(&__fz_out, &__fz_cols)
    };
    sibling(m, &jname, [doc1, doc2], ret, rest)
}
