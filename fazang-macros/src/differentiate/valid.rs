//! Every rule a `#[differentiate]` function must follow, one `check_*` each.

use super::ast::{Model, Place};
use crate::types::{ParamKind, ResultKind};
use crate::util::Ctxt;
use syn::FnArg;

/// The rules of a function that is differentiated on its own (`#[differentiate] fn`):
/// every one must hold.
pub fn check(cx: &mut Ctxt, m: &Model) {
    check_qualifiers(cx, m);
    check_patterns(cx, m);
    check_receiver(cx, m);
    check_mut_refs(cx, m);
    check_some_active(cx, m);
    check_return(cx, m);
    check_struct_result(cx, m);
    check_sparse(cx, m);
}

/// The rules of the options of a free function, which do not stop its expansion (see
/// `differentiate::expand`); whether `wrt(..)` was wrong.
pub fn check_options(cx: &mut Ctxt, m: &Model) -> bool {
    let mut wrt = Ctxt::default();
    check_wrt(&mut wrt, m);
    let bad = wrt.check().map_err(|e| cx.push(e)).is_err();
    check_renames(cx, m);
    bad
}

/// Whether a function of a `#[differentiate]` module or impl block can be made generic:
/// functions that cannot (`async`, `const`, destructured parameters, no active
/// parameter) are left as they are, since a module holds more than its models.
pub fn eligible(m: &Model) -> bool {
    let mut cx = Ctxt::default();
    check_qualifiers(&mut cx, m);
    check_patterns(&mut cx, m);
    cx.check().is_ok() && m.is_generic()
}

/// The rules of a function of a module or impl block that is made generic: only the
/// options it was given must make sense.
pub fn check_member(cx: &mut Ctxt, m: &Model) {
    check_wrt(cx, m);
    check_renames(cx, m);
    check_sparse(cx, m);
}

/// `sparse` needs a scalar or vector result and active parameters of `f64` shapes (or
/// `#[deriv_rule]` structs); given on a module or impl block, it applies to the
/// functions it fits.
fn check_sparse(cx: &mut Ctxt, m: &Model) {
    let Some(span) = m.options.sparse else { return };
    if m.options.sparse_inherited {
        return;
    }
    let err = |cx: &mut Ctxt, msg: String| cx.push(syn::Error::new(span, msg));
    if m.ret.is_none() {
        // A free function with another result is reported by `check_return`.
        if m.place != Place::Free {
            err(
                cx,
                format!(
                    "#[differentiate(sparse)] on `{}`, which has no sparse derivative: \
                     `sparse` needs a result of `f64` or `Result<f64, E>` (for \
                     `_hessian_sparse`) or `Vec<f64>`, `[f64; M]` or a nesting of them \
                     (for `_jacobian_sparse`)",
                    m.name()
                ),
            );
        }
        return;
    }
    if m.active().next().is_none() && m.place != Place::Free {
        err(
            cx,
            format!(
                "#[differentiate(sparse)] on `{}`, which has no active parameter: there \
                 is nothing to differentiate",
                m.name()
            ),
        );
    }
    for p in m.active() {
        if matches!(p.kind, ParamKind::Container { .. }) {
            err(
                cx,
                format!(
                    "#[differentiate(sparse)] does not take nalgebra or ndarray parameters \
                     yet: `{}` is one; pass it as a slice (`&[f64]`, `x.as_slice()`) or \
                     leave it out with `wrt(..)`",
                    p.ident
                ),
            );
        }
    }
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

/// Parameters are referred to by name in the generated code and in `wrt(...)`.
fn check_patterns(cx: &mut Ctxt, m: &Model) {
    for p in &m.pattern_params {
        cx.error(
            p,
            "#[differentiate] needs a plain name for each parameter; bind it by name and \
             destructure inside the body",
        );
    }
}

/// A method needs its impl block: the generated `_grad` is a method beside it.
fn check_receiver(cx: &mut Ctxt, m: &Model) {
    if m.place != Place::Free {
        return;
    }
    for arg in &m.func.sig.inputs {
        if let FnArg::Receiver(r) = arg {
            cx.error(
                r,
                "#[differentiate] on a method goes on its `impl` block: put \
                 #[differentiate] on the `impl` (methods take `self` as data), or make this a \
                 free function",
            );
        }
    }
}

/// An active output parameter would be written with values whose derivatives are lost.
fn check_mut_refs(cx: &mut Ctxt, m: &Model) {
    for p in &m.params {
        if matches!(p.kind, ParamKind::MutRef) {
            {
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
            Some(p) if !p.kind.can_be_active() => cx.error(
                w,
                format!(
                    "#[differentiate(wrt(...))] names `{w}`, which cannot be differentiated: \
                     active parameters are `f64`, arrays, slices and vectors of them \
                     (`[f64; N]`, `&[f64]`, `Vec<Vec<f64>>`, ...) or a #[deriv_rule] struct"
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
                 parameter of type `f64`, an array, slice or vector of them (`[f64; N]`, \
                 `&[f64]`, `Vec<f64>`, ...) or a #[deriv_rule] struct",
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
               gradient) or `Vec<f64>`, `[f64; M]` or a nesting of them (for a Jacobian)";
    match &m.func.sig.output {
        syn::ReturnType::Type(_, ty) => cx.error(ty, msg),
        syn::ReturnType::Default => cx.error(m.func.sig, msg),
    }
}

/// A result through a name the macro cannot see into (`-> Fit`) is taken for an alias of
/// an `f64` array or vector; a body that builds a `Fit { .. }` (or `Fit(..)`) shows it is a
/// struct, which has no gradient or Jacobian: refused at the result type, with the way out,
/// before rustc would speak about the generic copy of the body.
fn check_struct_result(cx: &mut Ctxt, m: &Model) {
    if !matches!(m.ret, Some(ResultKind::Aliased)) {
        return;
    }
    let syn::ReturnType::Type(_, ty) = &m.func.sig.output else {
        return;
    };
    let Some(name) = crate::types::alias_name(ty) else {
        return;
    };
    let mut built = BuildsStruct { name, found: false };
    syn::visit::Visit::visit_block(&mut built, m.func.block);
    if built.found {
        cx.error(
            ty,
            format!(
                "#[differentiate] cannot differentiate a function returning the struct \
                 `{name}`: a gradient needs an `f64` (or `Result<f64, E>`) result, a \
                 Jacobian an array or vector of `f64` (`[f64; 2]`, `Vec<f64>`, ..); return \
                 the `f64` to differentiate (one function per field you need), or the \
                 fields' values as an array, and build `{name}` outside"
            ),
        );
    }
}

/// Whether a body builds a value of the struct `name`: a literal `name { .. }` or a call
/// of `name(..)` (an alias of an array or vector cannot be built either way).
struct BuildsStruct<'a> {
    name: &'a syn::Ident,
    found: bool,
}

impl<'ast> syn::visit::Visit<'ast> for BuildsStruct<'_> {
    fn visit_expr_struct(&mut self, e: &'ast syn::ExprStruct) {
        if e.qself.is_none() && e.path.is_ident(self.name) {
            self.found = true;
        }
        syn::visit::visit_expr_struct(self, e);
    }

    fn visit_expr_call(&mut self, e: &'ast syn::ExprCall) {
        if let syn::Expr::Path(p) = &*e.func {
            if p.qself.is_none() && p.path.is_ident(self.name) {
                self.found = true;
            }
        }
        syn::visit::visit_expr_call(self, e);
    }

    // Items inside the body (a nested fn or struct) are not the result.
    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

/// `grad = ..` only makes sense for scalar results, `jacobian = ..` for vector ones.
fn check_renames(cx: &mut Ctxt, m: &Model) {
    let vector = m.ret.as_ref().is_some_and(ResultKind::is_vector);
    let scalar = matches!(m.ret, Some(ResultKind::Scalar | ResultKind::ResultScalar));
    if let (Some(g), true) = (&m.options.grad, vector) {
        cx.error(g, "`grad = ..` renames the gradient, but this function returns a vector and gets a Jacobian; use `jacobian = ..`");
    }
    if let (Some(j), true) = (&m.options.jacobian, scalar) {
        cx.error(j, "`jacobian = ..` renames the Jacobian, but this function returns a scalar and gets a gradient; use `grad = ..`");
    }
}
