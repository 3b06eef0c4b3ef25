//! Every rule a `#[differentiate]` function must follow, one `check_*` each.

use super::ast::{classify, vec_of_f64, Model, Ret};
use crate::util::{is_f64, Ctxt};
use syn::{FnArg, Type};

pub fn check(cx: &mut Ctxt, m: &Model) {
    check_qualifiers(cx, m);
    check_receiver(cx, m);
    check_mut_refs(cx, m);
    check_wrt(cx, m);
    check_some_active(cx, m);
    check_return(cx, m);
    check_renames(cx, m);
}

/// `async`, `const`, `unsafe` and `extern` change what the function is; the generated
/// gradient could not keep those promises (a tape is not const, not async-aware).
fn check_qualifiers(cx: &mut Ctxt, m: &Model) {
    let sig = &m.func.sig;
    if let Some(t) = &sig.asyncness {
        cx.error(
            t,
            "#[differentiate] cannot differentiate an `async fn`; make it a plain fn",
        );
    }
    if let Some(t) = &sig.constness {
        cx.error(t, "#[differentiate] cannot differentiate a `const fn`: recording a gradient is not const; remove `const`");
    }
    if let Some(t) = &sig.unsafety {
        cx.error(t, "#[differentiate] does not support `unsafe fn`; keep the unsafe part in a plain helper and differentiate a safe wrapper");
    }
    if let Some(abi) = &sig.abi {
        cx.error(abi, "#[differentiate] does not support `extern` functions; differentiate a plain Rust fn and call it from the extern one");
    }
    if let Some(v) = &sig.variadic {
        cx.error(v, "#[differentiate] does not support variadic functions");
    }
}

/// Methods would need the gradient with respect to `self`'s fields; not supported yet.
fn check_receiver(cx: &mut Ctxt, m: &Model) {
    for arg in &m.func.sig.inputs {
        if let FnArg::Receiver(r) = arg {
            cx.error(
                r,
                "#[differentiate] does not support methods with `self` yet; make it a free \
                 function taking the fields it needs as parameters",
            );
        }
    }
}

/// An active output parameter would be written with values whose derivatives are lost.
fn check_mut_refs(cx: &mut Ctxt, m: &Model) {
    for p in &m.params {
        if let Type::Reference(r) = p.ty {
            if r.mutability.is_some() && numeric(&r.elem) {
                cx.error(
                    p.ty,
                    "#[differentiate] parameters cannot be `&mut` numbers: the gradient would \
                     lose what is written through them; take the value and return the result",
                );
            }
        }
    }
}

/// `wrt(...)` must name parameters that exist and can be active.
fn check_wrt(cx: &mut Ctxt, m: &Model) {
    let Some(list) = &m.options.wrt else { return };
    let names: Vec<String> = m.params.iter().map(|p| p.ident.to_string()).collect();
    for (i, w) in list.iter().enumerate() {
        if list[..i].contains(w) {
            cx.error(
                w,
                format!("`{w}` is listed twice in #[differentiate(wrt(...))]"),
            );
            continue;
        }
        match m.params.iter().find(|p| p.ident == *w) {
            None => cx.error(
                w,
                format!(
                    "#[differentiate(wrt(...))] names `{w}`, but `{}` has no parameter `{w}`; \
                     its parameters are: {}",
                    m.func.sig.ident,
                    names.join(", ")
                ),
            ),
            Some(p) if !classify(p.ty).is_active() => cx.error(
                w,
                format!(
                    "#[differentiate(wrt(...))] names `{w}`, which cannot be differentiated: \
                     active parameters are `f64`, `[f64; N]`, `&[f64]`, `Vec<f64>`, \
                     `&Vec<f64>` or a #[deriv_rule] struct"
                ),
            ),
            Some(_) => {}
        }
    }
}

/// Without an active parameter there is nothing to differentiate.
fn check_some_active(cx: &mut Ctxt, m: &Model) {
    if m.options.wrt.is_none() && m.active().next().is_none() && !has_receiver(m) {
        cx.error(
            &m.func.sig.ident,
            format!(
                "#[differentiate] found no parameter to differentiate in `{}`: give it a \
                 parameter of type `f64`, `[f64; N]`, `&[f64]`, `Vec<f64>`, `&Vec<f64>` or a \
                 #[deriv_rule] struct",
                m.func.sig.ident
            ),
        );
    }
}

fn has_receiver(m: &Model) -> bool {
    matches!(m.func.sig.inputs.first(), Some(FnArg::Receiver(_)))
}

/// Only scalar and vector results have a gradient or a Jacobian.
fn check_return(cx: &mut Ctxt, m: &Model) {
    if m.ret.is_some() {
        return;
    }
    let msg = "#[differentiate] functions must return `f64` or `Result<f64, E>` (for a \
               gradient) or `Vec<f64>` or `[f64; M]` (for a Jacobian)";
    match &m.func.sig.output {
        syn::ReturnType::Type(_, ty) => cx.error(ty, msg),
        syn::ReturnType::Default => cx.error(&m.func.sig, msg),
    }
}

/// `grad = ..` only makes sense for scalar results, `jacobian = ..` for vector ones.
fn check_renames(cx: &mut Ctxt, m: &Model) {
    let vector = matches!(m.ret, Some(Ret::Vector));
    let scalar = matches!(m.ret, Some(Ret::Scalar | Ret::ResultScalar));
    if let (Some(g), true) = (&m.options.grad, vector) {
        cx.error(g, "`grad = ..` renames the gradient, but this function returns a vector and gets a Jacobian; use `jacobian = ..`");
    }
    if let (Some(j), true) = (&m.options.jacobian, scalar) {
        cx.error(j, "`jacobian = ..` renames the Jacobian, but this function returns a scalar and gets a gradient; use `grad = ..`");
    }
}

/// `f64`, `[f64]`, `[f64; N]` or `Vec<f64>`.
fn numeric(ty: &Type) -> bool {
    match ty {
        Type::Slice(s) => is_f64(&s.elem),
        Type::Array(a) => is_f64(&a.elem),
        _ => is_f64(ty) || vec_of_f64(ty),
    }
}
