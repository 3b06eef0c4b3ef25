//! The model of a `#[differentiate]` function: its options, parameters and return kind,
//! each keeping the syntax node it came from for error spans.

use super::attr::Options;
use crate::util::{is_f64, Ctxt};
use syn::{FnArg, GenericArgument, Ident, ItemFn, Pat, PathArguments, ReturnType, Type};

/// How a parameter takes part in differentiation.
#[derive(Clone)]
pub enum Kind {
    /// `f64`.
    Scalar,
    /// `[f64; N]`.
    Array,
    /// `&[f64]`.
    Slice,
    /// `Vec<f64>`.
    Vec,
    /// `&Vec<f64>`.
    RefVec,
    /// A struct registered with `#[deriv_rule]` (by-value, single identifier type).
    Struct,
    /// Passed through unchanged.
    Data,
}

impl Kind {
    pub fn is_active(&self) -> bool {
        !matches!(self, Kind::Data)
    }
}

pub struct Param<'a> {
    pub ident: Ident,
    pub ty: &'a Type,
    pub kind: Kind,
}

/// What the function returns.
pub enum Ret {
    /// `f64`: gets `name_grad`.
    Scalar,
    /// `Result<f64, E>`: gets `name_grad` returning `Result<(f64, G), E>`.
    ResultScalar,
    /// `Vec<f64>` or `[f64; M]`: gets `name_jacobian`.
    Vector,
}

pub struct Model<'a> {
    pub func: &'a ItemFn,
    pub options: Options,
    pub params: Vec<Param<'a>>,
    pub ret: Option<Ret>,
}

impl<'a> Model<'a> {
    /// Build the model; problems found on the way go to `cx`.
    pub fn from_fn(cx: &mut Ctxt, func: &'a ItemFn, options: Options) -> Model<'a> {
        let params = func
            .sig
            .inputs
            .iter()
            .filter_map(|arg| param(cx, arg, &options))
            .collect();
        let ret = return_kind(&func.sig.output);
        Model {
            func,
            options,
            params,
            ret,
        }
    }

    pub fn active(&self) -> impl Iterator<Item = &Param<'a>> {
        self.params.iter().filter(|p| p.kind.is_active())
    }
}

fn param<'a>(cx: &mut Ctxt, arg: &'a FnArg, options: &Options) -> Option<Param<'a>> {
    let FnArg::Typed(pt) = arg else {
        // receivers are reported by validation
        return None;
    };
    let Pat::Ident(pi) = &*pt.pat else {
        cx.error(
            &pt.pat,
            "#[differentiate] needs a plain name for each parameter; bind it by name and \
             destructure inside the body",
        );
        return None;
    };
    let ident = pi.ident.clone();
    let natural = classify(&pt.ty);
    let kind = match &options.wrt {
        Some(list) if !list.contains(&ident) => Kind::Data,
        _ => natural,
    };
    Some(Param {
        ident,
        ty: &pt.ty,
        kind,
    })
}

/// The kind a parameter of type `ty` has when it is not excluded by `wrt(...)`.
pub fn classify(ty: &Type) -> Kind {
    match ty {
        Type::Paren(p) => classify(&p.elem),
        _ if is_f64(ty) => Kind::Scalar,
        Type::Array(a) if is_f64(&a.elem) => Kind::Array,
        Type::Reference(r) if r.mutability.is_none() => match &*r.elem {
            Type::Slice(s) if is_f64(&s.elem) => Kind::Slice,
            inner if vec_of_f64(inner) => Kind::RefVec,
            _ => Kind::Data,
        },
        _ if vec_of_f64(ty) => Kind::Vec,
        _ if struct_candidate(ty) => Kind::Struct,
        _ => Kind::Data,
    }
}

/// Whether `ty` is `Vec<f64>`.
pub fn vec_of_f64(ty: &Type) -> bool {
    single_generic(ty, "Vec").is_some_and(is_f64)
}

/// For a single-segment path type `Name<T>`, `T`.
fn single_generic<'t>(ty: &'t Type, name: &str) -> Option<&'t Type> {
    let Type::Path(tp) = ty else { return None };
    let seg = tp.path.segments.last()?;
    if seg.ident != name {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &seg.arguments else {
        return None;
    };
    match args.args.first()? {
        GenericArgument::Type(t) => Some(t),
        _ => None,
    }
}

/// Types that do not name a registered struct although they look like one.
const DATA_TYPES: &[&str] = &[
    "String", "Vec", "Option", "Box", "Rc", "Arc", "HashMap", "BTreeMap", "HashSet", "BTreeSet",
    "VecDeque", "Cow", "Path", "PathBuf", "Duration", "Instant",
];

/// A by-value single-identifier type in UpperCamelCase with no generic arguments (`Bar`)
/// is taken to be a struct registered with `#[deriv_rule]`; `wrt(...)` excludes others.
fn struct_candidate(ty: &Type) -> bool {
    let Type::Path(tp) = ty else { return false };
    if tp.qself.is_some() || tp.path.segments.len() != 1 {
        return false;
    }
    let seg = &tp.path.segments[0];
    let name = seg.ident.to_string();
    seg.arguments.is_none()
        && name.starts_with(|c: char| c.is_ascii_uppercase())
        && !DATA_TYPES.contains(&name.as_str())
        && name != "Self"
}

fn return_kind(out: &ReturnType) -> Option<Ret> {
    let ReturnType::Type(_, ty) = out else {
        return None;
    };
    if is_f64(ty) {
        Some(Ret::Scalar)
    } else if single_generic(ty, "Result").is_some_and(is_f64) {
        Some(Ret::ResultScalar)
    } else if vec_of_f64(ty) || matches!(&**ty, Type::Array(a) if is_f64(&a.elem)) {
        Some(Ret::Vector)
    } else {
        None
    }
}
