//! Compile-time adjoints: `name_grad` written as plain `f64` Rust (issue 10).
//!
//! For a body in the supported subset ([`check`]), the gradient is a forward sweep and a
//! reverse sweep printed from the model:
//!
//! - every binding of the body is *hoisted*: declared once at the top of the generated
//!   function under a unique name (shadowing and scopes are resolved by the model), so
//!   the reverse sweep, printed after the forward one, sees every variable;
//! - the forward sweep ([`forward`]) is the primal on `f64`, plus: before a statement
//!   overwrites a variable whose value the reverse sweep needs ([`tbr`]: it is read
//!   inside a nonlinear operation or an index), the old value is pushed on a reused
//!   stack; branch decisions, loop bounds and trip counts are pushed too;
//! - the reverse sweep ([`reverse`]) runs the statements backwards: each pops what its
//!   forward counterpart pushed (so every variable holds the value it had there),
//!   recomputes the intermediate values of its right-hand side and propagates the
//!   adjoint through them ([`deriv`], with the derivatives of fazang's elementary table);
//!   accumulations (`s += e`) reverse without storing anything.
//!
//! Anything outside the subset makes the whole function take the tape, with the reason
//! in the generated docs ([`Unsupported`]).

mod check;
mod deriv;
mod forward;
mod normalize;
mod recompute;
mod reverse;
mod tbr;

use crate::activity::{Abs, Activity};
use crate::differentiate::ast::Model;
use crate::model::{BindId, Body};
use crate::types::ParamKind;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use std::collections::HashSet;
use syn::Ident;

/// Why a body takes the tape instead.
pub struct Unsupported {
    pub why: String,
}

impl Unsupported {
    pub fn new(why: impl Into<String>) -> Self {
        Unsupported { why: why.into() }
    }
}

/// What the printers share: the body (normalised), its activity, and names.
pub struct Cx<'a> {
    pub body: &'a Body,
    pub act: &'a Activity,
    /// Bindings declared at the top of the generated function (all but the parameters
    /// that are only read).
    pub hoisted: Vec<bool>,
    /// Parameters: binding id -> the parameter's name.
    pub params: Vec<Option<Ident>>,
    /// Bindings whose overwritten values the reverse sweep needs.
    pub tbr: HashSet<BindId>,
    /// Bindings assigned after their declaration.
    pub assigned: HashSet<BindId>,
    /// Lets recomputed in reverse and accumulations that save nothing.
    pub plan: recompute::Plan,
    /// Counter for fresh temporaries.
    pub fresh: std::cell::Cell<usize>,
}

impl Cx<'_> {
    /// The name of a binding in generated code.
    pub fn name(&self, id: BindId) -> Ident {
        match &self.params[id] {
            Some(p) if !self.hoisted[id] => p.clone(),
            _ => format_ident!("__fz_{}_{}", self.body.bindings[id].name, id),
        }
    }

    /// The name of a binding's adjoint.
    pub fn adj(&self, id: BindId) -> Ident {
        format_ident!("__fz_a_{}_{}", self.body.bindings[id].name, id)
    }

    pub fn abs(&self, id: BindId) -> &Abs {
        self.act.of_bind(id)
    }

    /// A fresh temporary name.
    pub fn tmp(&self, what: &str) -> Ident {
        let n = self.fresh.get();
        self.fresh.set(n + 1);
        format_ident!("__fz_{}{}", what, n)
    }
}

/// The body of `name_grad` in adjoint code, or why not. `grad` is the expression
/// assembling the gradient from the adjoints (given per active parameter).
pub fn grad_body(m: &Model, body: &Body, act: &Activity) -> Result<TokenStream, Unsupported> {
    let result = matches!(m.ret, Some(crate::types::ResultKind::ResultScalar));
    let body = normalize::returns(body, result)?;
    let params: Vec<Option<Ident>> = (0..body.bindings.len())
        .map(|id| m.params.get(id).map(|p| p.ident.clone()))
        .collect();
    check::params(m)?;
    let assigned = check::body(&body, act)?;
    let hoisted: Vec<bool> = (0..body.bindings.len())
        .map(|id| match m.params.get(id) {
            Some(p) => assigned.contains(&id) || (p.active && matches!(p.kind, ParamKind::Scalar)),
            None => true,
        })
        .collect();
    let plan = recompute::plan(&body, act, &assigned);
    let mut needed = tbr::needed(&body, act);
    needed.extend(plan.reads.iter().copied());
    let cx = Cx {
        body: &body,
        act,
        hoisted,
        params,
        tbr: needed,
        assigned,
        plan,
        fresh: std::cell::Cell::new(0),
    };
    Ok(emit(m, &cx))
}

fn emit(m: &Model, cx: &Cx) -> TokenStream {
    let decls = (0..cx.body.bindings.len())
        .filter(|&id| cx.hoisted[id])
        .map(|id| {
            let n = cx.name(id);
            match m.params.get(id) {
                Some(p) => {
                    let x = &p.ident;
                    quote!(let mut #n = #x;)
                }
                None => quote!(let mut #n = ::core::default::Default::default();),
            }
        });
    let fwd = forward::block(cx, &cx.body.block);
    let adjs = (0..cx.body.bindings.len())
        .filter(|&id| needs_adjoint(cx, id))
        .map(|id| {
            let (a, n) = (cx.adj(id), cx.name(id));
            match cx.abs(id).deref() {
                Abs::Float(_) => quote!(let mut #a: f64 = 0.0;),
                _ => quote!(let mut #a = ::fazang::__private::zeros_like(&#n);),
            }
        });
    let rev = reverse::block(cx, &cx.body.block);
    let grad = gradient(m, cx);
    quote! {
        let mut __fz_st = ::fazang::__private::stacks();
        let mut __fz_ret: f64 = 0.0;
        #(#decls)*
        #fwd
        let __fz_value = __fz_ret;
        #(#adjs)*
        let mut __fz_a_ret: f64 = 1.0;
        #rev
        let _ = &mut __fz_a_ret;
        (__fz_value, #grad)
    }
}

/// Active bindings get an adjoint.
fn needs_adjoint(cx: &Cx, id: BindId) -> bool {
    let a = cx.abs(id);
    a.active() && matches!(a.deref(), Abs::Float(true) | Abs::Seq(_))
}

/// The gradient in the shapes `_grad` promises (see `siblings::gradient`).
fn gradient(m: &Model, cx: &Cx) -> TokenStream {
    let adjs: Vec<TokenStream> = m
        .params
        .iter()
        .enumerate()
        .filter(|(_, p)| p.active)
        .map(|(id, _)| {
            let a = cx.adj(id);
            if needs_adjoint(cx, id) {
                quote!(#a)
            } else {
                quote!(::fazang::__private::zeros_like(&#a))
            }
        })
        .collect();
    let all_scalar = m.active().all(|p| matches!(p.kind, ParamKind::Scalar));
    if all_scalar {
        quote!([#(#adjs),*])
    } else if adjs.len() == 1 {
        quote!(#(#adjs)*)
    } else {
        quote!((#(#adjs),*))
    }
}
