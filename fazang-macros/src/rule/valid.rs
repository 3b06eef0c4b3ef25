//! Every rule about what `#[deriv_rule]` accepts, one `check_*` per rule, each saying why
//! it exists. All errors are collected and reported together.

use super::ast::{Form, Role, RuleFn, RuleStruct};
use super::attr::OPTIONS;
use crate::types::{mentions, type_name, RetShape};
use crate::util::Ctxt;
use proc_macro2::TokenStream;
use quote::{quote, ToTokens};
use std::collections::HashSet;
use syn::{Expr, GenericParam, Ident, Item, Type};

/// The generic scalar the generated code introduces.
pub use crate::util::SCALAR;

/// The differentiable parameter types, for messages.
const ACTIVE_TYPES: &str = "f64, &[f64], Vec<f64>, &Vec<f64>, [f64; N], or a #[deriv_rule] \
                            struct named in the rule";

pub fn check_fn(f: &RuleFn) -> syn::Result<()> {
    let mut cx = Ctxt::default();
    check_signature(&mut cx, f);
    check_patterns(&mut cx, f);
    check_options(&mut cx, f);
    check_param_types(&mut cx, f);
    check_named_params_exist(&mut cx, f);
    check_no_duplicate_partials(&mut cx, f);
    check_partials_in_f64(&mut cx, f);
    check_data_has_no_partial(&mut cx, f);
    check_every_active_param_named(&mut cx, f);
    check_has_active_param(&mut cx, f);
    check_return(&mut cx, f);
    check_adjoint_data(&mut cx, f);
    check_scalar_name_free(&mut cx, fn_types(f));
    cx.check()
}

pub fn check_struct(s: &RuleStruct, attr: &TokenStream) -> syn::Result<()> {
    let mut cx = Ctxt::default();
    check_struct_attr_empty(&mut cx, attr);
    check_struct_not_generic(&mut cx, s);
    check_struct_has_f64_field(&mut cx, s);
    let name_clash = (s.item.ident == SCALAR).then_some(&s.item.ident);
    if let Some(ident) = name_clash {
        cx.error(ident, scalar_clash_message());
    }
    check_scalar_name_free(&mut cx, s.fields.iter().map(|f| f.ty));
    cx.check()
}

/// The attribute only makes sense on functions (partials) and structs (composite types).
pub fn check_item_kind(item: &Item) -> syn::Result<()> {
    let (head, what) = match item {
        Item::Fn(_) | Item::Struct(_) => return Ok(()),
        Item::Enum(e) => (head(&e.enum_token, &e.ident), "an enum"),
        Item::Union(u) => (head(&u.union_token, &u.ident), "a union"),
        Item::Trait(t) => (head(&t.trait_token, &t.ident), "a trait"),
        Item::Type(t) => (head(&t.type_token, &t.ident), "a type alias"),
        Item::Mod(m) => (head(&m.mod_token, &m.ident), "a module"),
        Item::Const(c) => (head(&c.const_token, &c.ident), "a const"),
        Item::Static(s) => (head(&s.static_token, &s.ident), "a static"),
        Item::Impl(i) => (i.impl_token.to_token_stream(), "an impl block"),
        other => (quote!(#other), "this item"),
    };
    Err(syn::Error::new_spanned(
        head,
        format!(
            "#[deriv_rule] can only be applied to a fn or a struct, not {what}; put it on a fn \
             with f64 parameters to give its partial derivatives, or on a struct with f64 \
             fields to make them differentiable"
        ),
    ))
}

/// The keyword and name of an item: the span of item errors, not the whole body.
fn head(keyword: &impl ToTokens, name: &Ident) -> TokenStream {
    quote!(#keyword #name)
}

/// An item syn cannot parse (such as a fn without a body in a trait).
pub fn not_an_item(err: syn::Error) -> syn::Error {
    syn::Error::new(
        err.span(),
        "#[deriv_rule] can only be applied to a fn with a body or a struct",
    )
}

/// The generated function is an ordinary generic fn; qualifiers change what it may do.
fn check_signature(cx: &mut Ctxt, f: &RuleFn) {
    let sig = &f.item.sig;
    let name = f.name();
    let unsupported = [
        (sig.asyncness.as_ref().map(|t| quote!(#t)), "async"),
        (sig.constness.as_ref().map(|t| quote!(#t)), "const"),
        (sig.unsafety.as_ref().map(|t| quote!(#t)), "unsafe"),
        (sig.abi.as_ref().map(|t| quote!(#t)), "extern"),
        (sig.variadic.as_ref().map(|t| quote!(#t)), "variadic"),
    ];
    for (tokens, what) in unsupported {
        if let Some(tokens) = tokens {
            cx.error(
                tokens,
                format!("#[deriv_rule] cannot be applied to {what} fns; make `{name}` a plain fn"),
            );
        }
    }
    if let Some(r) = f.receiver {
        cx.error(
            r,
            format!(
                "#[deriv_rule] does not support methods with `self` yet; make `{name}` an \
                 associated fn and pass the value as a parameter"
            ),
        );
    }
    for param in &sig.generics.params {
        if !matches!(param, GenericParam::Lifetime(_)) {
            cx.error(
                param,
                format!(
                    "#[deriv_rule] fns cannot have type or const parameters; `{name}` is made \
                     generic over its scalar by the attribute, remove this parameter"
                ),
            );
        }
    }
}

/// Rules refer to parameters by name, so every parameter needs one.
fn check_patterns(cx: &mut Ctxt, f: &RuleFn) {
    for p in f.params.iter().filter(|p| p.ident.is_none()) {
        cx.error(
            &p.arg.pat,
            "#[deriv_rule] needs a plain name for each parameter (`x: f64`), not a pattern; \
             destructure inside the body",
        );
    }
}

/// A misspelled option must not be silently ignored; the two forms exclude each other.
fn check_options(cx: &mut Ctxt, f: &RuleFn) {
    let attr = f.attr;
    let options = OPTIONS.iter().map(|s| format!("`{s}`"));
    let options = options.collect::<Vec<_>>().join(", ");
    for name in &attr.unknown {
        cx.error(
            name,
            format!(
                "unknown #[deriv_rule] option `{name}`; the options are: {options} (partials \
                 are written `x => expr`)"
            ),
        );
    }
    for extra in attr.adjoints.iter().skip(1) {
        cx.error(&extra.key, "#[deriv_rule] option `adjoint` is given twice");
    }
    if let (Some(adj), Some(_)) = (attr.adjoints.first(), attr.partials.first()) {
        cx.error(
            &adj.key,
            "#[deriv_rule] takes either partials (`x => expr`) or `adjoint = path`, not both; \
             the adjoint function gives every parameter's adjoint",
        );
    }
    for adj in &attr.adjoints {
        if !matches!(adj.value, Expr::Path(_)) {
            cx.error(
                &adj.value,
                "`adjoint = ...` takes the path of a function, as in `adjoint = foo_adjoint`",
            );
        }
    }
    if attr.is_empty() {
        let name = f.name();
        cx.error(
            name,
            format!(
                "#[deriv_rule] on a fn needs the partial derivative for each f64 parameter, as \
                 in #[deriv_rule(x => 2.0 * x)], or an adjoint function, as in \
                 #[deriv_rule(adjoint = {name}_adjoint)]"
            ),
        );
    }
}

/// Parameters the rule names must be differentiable; `&mut` ones never are (the value
/// would change behind the tape's back).
fn check_param_types(cx: &mut Ctxt, f: &RuleFn) {
    for (p, role) in f.roles() {
        let Role::Invalid(why) = role else { continue };
        let ty = &p.arg.ty;
        let msg = match p.ident {
            Some(name) if f.partial(p).is_some() => format!(
                "#[deriv_rule] gives a partial for `{name}`, but its type `{}` {why}; the \
                 differentiable types are {ACTIVE_TYPES}",
                type_name(ty)
            ),
            _ => format!(
                "#[deriv_rule] cannot differentiate through `{}`; take the value (f64, &[f64], \
                 ...) and return the result",
                type_name(ty)
            ),
        };
        cx.error(ty, msg);
    }
}

/// A partial for a parameter that does not exist is a typo or a stale rule.
fn check_named_params_exist(cx: &mut Ctxt, f: &RuleFn) {
    let names: Vec<String> = f
        .params
        .iter()
        .filter_map(|p| p.ident.map(ToString::to_string))
        .collect();
    let list = if names.is_empty() {
        format!("`{}` has no parameters", f.name())
    } else {
        format!("the parameters are: {}", names.join(", "))
    };
    let unnamed = unnamed_active(f);
    let hint = if unnamed.is_empty() {
        String::new()
    } else {
        format!(" (no partial is given for: {})", unnamed.join(", "))
    };
    for name in unknown_names(f) {
        cx.error(
            name,
            format!(
                "#[deriv_rule] names `{name}`, but `{}` has no parameter `{name}`; {list}{hint}",
                f.name(),
            ),
        );
    }
}

/// The names in the attribute that are not parameters.
fn unknown_names<'a>(f: &'a RuleFn) -> impl Iterator<Item = &'a Ident> {
    let named = f.attr.partials.iter().map(|p| &p.name);
    named
        .chain(&f.attr.data)
        .filter(|name| !f.params.iter().any(|p| p.ident == Some(*name)))
}

/// The active parameters without a partial, in the partials form.
fn unnamed_active(f: &RuleFn) -> Vec<String> {
    if !matches!(f.form(), Form::Partials) {
        return Vec::new();
    }
    f.active()
        .filter(|(p, _)| f.partial(p).is_none())
        .filter_map(|(p, _)| p.ident.map(ToString::to_string))
        .collect()
}

/// A parameter is either differentiated (has a partial) or data, not both.
fn check_data_has_no_partial(cx: &mut Ctxt, f: &RuleFn) {
    for name in &f.attr.data {
        if f.attr.partials.iter().any(|p| p.name == *name) {
            cx.error(
                name,
                format!(
                    "#[deriv_rule] lists `{name}` in `data(..)` but also gives its partial; \
                     remove one of the two"
                ),
            );
        }
    }
}

/// Two partials for one parameter: which one is meant is ambiguous.
fn check_no_duplicate_partials(cx: &mut Ctxt, f: &RuleFn) {
    let mut seen = HashSet::new();
    for partial in &f.attr.partials {
        if !seen.insert(partial.name.to_string()) {
            cx.error(
                &partial.name,
                format!(
                    "#[deriv_rule] names `{}` twice; give each parameter one partial",
                    partial.name
                ),
            );
        }
    }
}

/// A partial is a derivative with respect to an `f64`, computed on the scalar of the
/// arguments: an `f32` in it (`1_f32 + x.exp()`, `x as f32`) cannot meet them, and rustc
/// would say so in terms of the generated scalar.
fn check_partials_in_f64(cx: &mut Ctxt, f: &RuleFn) {
    fn scan(cx: &mut Ctxt, ts: TokenStream) {
        for tt in ts {
            match tt {
                proc_macro2::TokenTree::Group(g) => scan(cx, g.stream()),
                proc_macro2::TokenTree::Ident(i) if i == "f32" => cx.error(
                    &i,
                    "#[deriv_rule] partials are `f64`s, computed from the `f64` arguments; \
                     use `f64` here, not `f32`",
                ),
                proc_macro2::TokenTree::Literal(l) if l.to_string().ends_with("f32") => {
                    let text = l.to_string();
                    let mut plain = text
                        .trim_end_matches("f32")
                        .trim_end_matches('_')
                        .to_string();
                    if !plain.contains(['.', 'e', 'E']) {
                        plain.push_str(".0");
                    }
                    cx.error(
                        &l,
                        format!(
                            "#[deriv_rule] partials are `f64`s, computed from the `f64` \
                             arguments; write `{plain}` (or `{plain}_f64`), not `{text}`"
                        ),
                    );
                }
                _ => {}
            }
        }
    }
    for p in &f.attr.partials {
        scan(cx, p.expr.to_token_stream());
    }
}

/// A missing partial would silently be zero: every f64 parameter needs one. (Not
/// reported next to a misspelled option or parameter name, which already explains it.)
fn check_every_active_param_named(cx: &mut Ctxt, f: &RuleFn) {
    let misspelled = !f.attr.unknown.is_empty() || unknown_names(f).next().is_some();
    if !matches!(f.form(), Form::Partials) || f.attr.is_empty() || misspelled {
        return;
    }
    for (p, _) in f.active() {
        if f.partial(p).is_none() {
            if let Some(name) = p.ident {
                cx.error(
                    name,
                    format!(
                        "#[deriv_rule] gives no partial for `{name}`; add `{name} => ...` (the \
                         derivative of `{}` with respect to `{name}`) to the attribute, or \
                         `data({name})` if it is a constant",
                        f.name()
                    ),
                );
            }
        }
    }
}

/// A rule for a function of no differentiable input records nothing: likely a mistake.
fn check_has_active_param(cx: &mut Ctxt, f: &RuleFn) {
    let any_invalid = f.roles().any(|(_, r)| matches!(r, Role::Invalid(_)));
    if f.active().next().is_some() || any_invalid {
        return;
    }
    let sig = &f.item.sig;
    let span_tokens = if sig.inputs.is_empty() {
        quote!(#sig)
    } else {
        let inputs = &sig.inputs;
        quote!(#inputs)
    };
    cx.error(
        span_tokens,
        format!(
            "#[deriv_rule] needs a parameter to differentiate, but `{}` has none; the \
             differentiable types are {ACTIVE_TYPES}",
            f.name()
        ),
    );
}

/// Partials describe a scalar result; the adjoint form also handles vectors.
fn check_return(cx: &mut Ctxt, f: &RuleFn) {
    let name = f.name();
    let Some((ty, shape)) = f.ret else {
        cx.error(
            &f.item.sig,
            format!("#[deriv_rule] fn `{name}` must return f64 (or, with `adjoint = ...`, Vec<f64> or [f64; M])"),
        );
        return;
    };
    let msg = match (f.form(), shape) {
        (_, RetShape::F64) | (Form::Adjoint(_), RetShape::Vec | RetShape::Array(_)) => return,
        (Form::Partials, RetShape::Vec | RetShape::Array(_)) => format!(
            "#[deriv_rule(x => ...)] gives the partials of a scalar result, but `{name}` returns \
             `{}`; for a vector result use #[deriv_rule(adjoint = path)]",
            type_name(ty)
        ),
        (_, RetShape::Other) => format!(
            "#[deriv_rule] fns return f64 (or, with `adjoint = ...`, Vec<f64> or [f64; M]), \
             not `{}`",
            type_name(ty)
        ),
    };
    cx.error(ty, msg);
}

/// The adjoint function runs during the backward sweep, after the call returned: data
/// parameters are kept (cloned) until then, which a `&mut` cannot be.
fn check_adjoint_data(cx: &mut Ctxt, f: &RuleFn) {
    if !matches!(f.form(), Form::Adjoint(_)) {
        return;
    }
    for (p, role) in f.roles() {
        if let (Role::Data, Type::Reference(r)) = (role, &*p.arg.ty) {
            if r.mutability.is_some() {
                cx.error(
                    &p.arg.ty,
                    "#[deriv_rule(adjoint = ...)] keeps every parameter for the backward \
                     sweep, which a `&mut` reference cannot be; pass it by value or by `&`",
                );
            }
        }
    }
}

fn fn_types<'a>(f: &'a RuleFn) -> impl Iterator<Item = &'a Type> {
    let ret = f.ret.map(|(ty, _)| ty);
    f.params.iter().map(|p| &*p.arg.ty).chain(ret)
}

/// The generated code is generic over a scalar named [`SCALAR`]; a user type of that name in
/// the signature would be shadowed by it.
fn check_scalar_name_free<'a>(cx: &mut Ctxt, types: impl Iterator<Item = &'a Type>) {
    for ty in types {
        if let Some(ident) = mentions(ty, SCALAR) {
            cx.error(ident, scalar_clash_message());
        }
    }
}

fn scalar_clash_message() -> String {
    format!(
        "#[deriv_rule] makes this item generic over a scalar named `{SCALAR}`, which would \
         shadow this type; rename it or import it under another name"
    )
}

/// On a struct, the attribute only registers it; rules go on functions.
fn check_struct_attr_empty(cx: &mut Ctxt, attr: &TokenStream) {
    if !attr.is_empty() {
        cx.error(
            attr,
            "#[deriv_rule] on a struct takes no arguments; write #[deriv_rule] alone, and give \
             partials on the functions that take the struct",
        );
    }
}

/// The struct gains the scalar as its only generic parameter.
fn check_struct_not_generic(cx: &mut Ctxt, s: &RuleStruct) {
    let generics = &s.item.generics;
    if !generics.params.is_empty() || generics.where_clause.is_some() {
        cx.error(
            generics,
            format!(
                "#[deriv_rule] cannot register a generic struct; `{}` becomes generic over its \
                 scalar (`{}<S = f64>`), remove these parameters",
                s.item.ident, s.item.ident
            ),
        );
    }
}

/// A struct without f64 fields has nothing to differentiate.
fn check_struct_has_f64_field(cx: &mut Ctxt, s: &RuleStruct) {
    if s.differentiable().next().is_none() {
        cx.error(
            &s.item.ident,
            format!(
                "#[deriv_rule] struct `{}` has no f64 field to differentiate; give it a field \
                 of type f64, [f64; N] or Vec<f64>",
                s.item.ident
            ),
        );
    }
}
