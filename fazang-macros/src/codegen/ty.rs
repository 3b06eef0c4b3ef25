//! Types written in a body, rewritten by activity: `f64` becomes the scalar `S` where
//! the value it describes is active, and stays `f64` where it is data.

use crate::activity::Abs;
use crate::types::replace_f64;
use crate::util::is_f64;
use syn::{GenericArgument, Ident, PathArguments, Type};

/// `ty` describing a value of abstract value `a`, with `f64` -> `s` where active.
pub fn rewrite(ty: &Type, a: &Abs, s: &Ident) -> Type {
    if is_f64(ty) {
        return if a.deref().active() {
            // At the written `f64` (an error about the scalar points there). A type
            // parameter resolves alike from any hygiene context.
            let mut s = s.clone();
            s.set_span(syn::spanned::Spanned::span(ty));
            syn::parse_quote!(#s)
        } else {
            ty.clone()
        };
    }
    if a.active() && crate::types::struct_candidate(ty) {
        // `let s: State = ..` with `type State = [f64; 2];` (or a #[deriv_rule] struct):
        // the same shape with the scalar, through the trait every f64 shape has.
        return syn::parse_quote_spanned!(syn::spanned::Spanned::span(ty) =>
            <#ty as ::fazang::__private::Seed>::Of<#s>);
    }
    let mut out = ty.clone();
    match &mut out {
        Type::Array(arr) => *arr.elem = rewrite(&arr.elem, &a.elem(), s),
        Type::Slice(sl) => *sl.elem = rewrite(&sl.elem, &a.elem(), s),
        Type::Reference(r) => *r.elem = rewrite(&r.elem, a.deref(), s),
        Type::Paren(p) => *p.elem = rewrite(&p.elem, a, s),
        Type::Group(g) => *g.elem = rewrite(&g.elem, a, s),
        Type::Tuple(t) => {
            let parts: Vec<Abs> = match a.deref() {
                Abs::Tuple(xs) if xs.len() == t.elems.len() => xs.clone(),
                x => vec![Abs::Unknown(x.active()); t.elems.len()],
            };
            for (e, p) in t.elems.iter_mut().zip(&parts) {
                *e = rewrite(e, p, s);
            }
        }
        Type::Path(p) if p.qself.is_none() => {
            let Some(last) = p.path.segments.last_mut() else {
                return out;
            };
            let inner = match last.ident.to_string().as_str() {
                "Vec" | "VecDeque" => a.elem(),
                "Option" | "Result" | "Box" | "Rc" | "Arc" => a.clone(),
                _ if a.active() && matches!(a, Abs::Unknown(_)) => return replace_f64(ty, s),
                _ => return out,
            };
            if let PathArguments::AngleBracketed(args) = &mut last.arguments {
                if let Some(GenericArgument::Type(t)) = args.args.first_mut() {
                    *t = rewrite(t, &inner, s);
                }
            }
        }
        _ => {}
    }
    out
}
