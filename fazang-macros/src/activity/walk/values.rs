//! Abstract values read off the syntax alone: literals, paths, fields, casts, types, and
//! the result of arithmetic on two values.

use super::super::Abs;
use crate::model::known::*;
use syn::Lit;

pub(super) fn lit(l: &Lit) -> Abs {
    match l {
        Lit::Float(_) => Abs::Float(false),
        Lit::Int(i) if matches!(i.suffix(), "f64" | "f32") => Abs::Float(false),
        Lit::Int(_) => Abs::Int,
        Lit::Bool(_) => Abs::Bool,
        _ => Abs::Unknown(false),
    }
}

pub(super) fn path_value(p: &syn::ExprPath) -> Abs {
    let segs: Vec<String> = crate::util::path_names(&p.path);
    if is_float_const(&segs) && !(segs.len() == 2 && segs[0] != "f64" && segs[0] != "consts") {
        return Abs::Float(false);
    }
    if segs.len() == 1 && segs[0] == "None" {
        return Abs::Never;
    }
    Abs::Unknown(false)
}

pub(super) fn field(b: &Abs, member: &syn::Member) -> Abs {
    match (b.deref(), member) {
        (Abs::Tuple(xs), syn::Member::Unnamed(i)) => xs
            .get(i.index as usize)
            .cloned()
            .unwrap_or(Abs::Unknown(false)),
        (Abs::Never, _) => Abs::Never,
        (x, _) => Abs::Unknown(x.active()),
    }
}

pub(super) fn arith(a: &Abs, b: &Abs) -> Abs {
    match (a.deref(), b.deref()) {
        (Abs::Float(x), Abs::Float(y)) => Abs::Float(*x || *y),
        (Abs::Int, Abs::Int) => Abs::Int,
        (Abs::Never, x) | (x, Abs::Never) => x.clone(),
        (Abs::Float(x), Abs::Unknown(y)) | (Abs::Unknown(y), Abs::Float(x)) => Abs::Float(*x || *y),
        (x, y) => Abs::Unknown(x.active() || y.active()),
    }
}

pub(super) fn cast_value(ty: &syn::Type) -> Abs {
    let t = crate::types::strip(ty);
    if crate::util::is_f64(t) || matches!(t, syn::Type::Path(p) if p.path.is_ident("f32")) {
        return Abs::Float(false);
    }
    if let syn::Type::Path(p) = t {
        if INT_TYPES.iter().any(|n| p.path.is_ident(n)) {
            return Abs::Int;
        }
    }
    Abs::Unknown(false)
}

/// The abstract value of a value of type `ty` (floats active if `active`).
pub fn abs_of_type(ty: &syn::Type, active: bool) -> Abs {
    use syn::Type;
    let t = crate::types::strip(ty);
    if crate::util::is_f64(t) {
        return Abs::Float(active);
    }
    match t {
        Type::Array(a) => Abs::Seq(Box::new(abs_of_type(&a.elem, active))),
        Type::Slice(s) => Abs::Seq(Box::new(abs_of_type(&s.elem, active))),
        Type::Reference(r) => Abs::Ref(Box::new(abs_of_type(&r.elem, active))),
        Type::Tuple(tt) if tt.elems.is_empty() => Abs::Unknown(false),
        Type::Tuple(tt) => Abs::Tuple(tt.elems.iter().map(|e| abs_of_type(e, active)).collect()),
        Type::Infer(_) => Abs::Never,
        Type::Path(p) if p.qself.is_none() => {
            let Some(last) = p.path.segments.last() else {
                return Abs::Unknown(false);
            };
            let name = last.ident.to_string();
            let arg = match &last.arguments {
                syn::PathArguments::AngleBracketed(a) => a.args.iter().find_map(|g| match g {
                    syn::GenericArgument::Type(t) => Some(t),
                    _ => None,
                }),
                _ => None,
            };
            match (name.as_str(), arg) {
                ("bool", None) => Abs::Bool,
                (n, None) if INT_TYPES.contains(&n) => Abs::Int,
                ("f32", None) => Abs::Float(false),
                ("Vec" | "VecDeque", Some(t)) => Abs::Seq(Box::new(abs_of_type(t, active))),
                _ if crate::types::container(t).is_some() => Abs::Seq(Box::new(Abs::Float(active))),
                ("Option" | "Result" | "Box" | "Rc" | "Arc", Some(t)) => abs_of_type(t, active),
                _ => Abs::Unknown(active),
            }
        }
        _ => Abs::Unknown(false),
    }
}
