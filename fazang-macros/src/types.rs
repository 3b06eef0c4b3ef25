//! Read-only questions about types, by their syntax (a macro sees no type information).

use proc_macro2::Span;
use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{Expr, GenericArgument, Ident, PathArguments, Type, TypePath};

/// What a parameter's type looks like to `#[deriv_rule]`.
#[derive(Clone, Copy)]
pub enum Shape<'a> {
    /// `f64`.
    F64,
    /// `&[f64]`.
    Slice,
    /// `&Vec<f64>`.
    VecRef,
    /// `Vec<f64>`.
    Vec,
    /// `[f64; N]`.
    Array(&'a Expr),
    /// `&mut` to one of the above: never allowed.
    MutRef,
    /// A path such as `Bar` or `&Bar`: a struct if the rule names it, data otherwise.
    Path { by_ref: bool, path: &'a TypePath },
    /// Anything else: data.
    Other,
}

impl<'a> Shape<'a> {
    pub fn of(ty: &'a Type) -> Shape<'a> {
        match strip(ty) {
            t if is_f64(t) => Shape::F64,
            Type::Path(p) if is_vec_f64(p) => Shape::Vec,
            Type::Array(a) if is_f64(&a.elem) => Shape::Array(&a.len),
            Type::Path(p) => Shape::Path {
                by_ref: false,
                path: p,
            },
            Type::Reference(r) => {
                let inner = strip(&r.elem);
                let f64_like = match inner {
                    Type::Slice(s) => is_f64(&s.elem),
                    Type::Array(a) => is_f64(&a.elem),
                    Type::Path(p) => is_f64(inner) || is_vec_f64(p),
                    _ => false,
                };
                match (r.mutability.is_some(), inner) {
                    (true, _) if f64_like => Shape::MutRef,
                    (true, _) => Shape::Other,
                    (false, Type::Slice(s)) if is_f64(&s.elem) => Shape::Slice,
                    (false, Type::Path(p)) if is_vec_f64(p) => Shape::VecRef,
                    (false, Type::Path(p)) if !is_f64(inner) => Shape::Path {
                        by_ref: true,
                        path: p,
                    },
                    _ => Shape::Other,
                }
            }
            _ => Shape::Other,
        }
    }
}

/// What a return type looks like.
#[derive(Clone, Copy)]
pub enum RetShape<'a> {
    F64,
    Vec,
    Array(&'a Expr),
    Other,
}

impl<'a> RetShape<'a> {
    pub fn of(ty: &'a Type) -> RetShape<'a> {
        match strip(ty) {
            t if is_f64(t) => RetShape::F64,
            Type::Path(p) if is_vec_f64(p) => RetShape::Vec,
            Type::Array(a) if is_f64(&a.elem) => RetShape::Array(&a.len),
            _ => RetShape::Other,
        }
    }
}

/// Without invisible groups and parentheses, mutably.
pub fn strip_mut(ty: &mut Type) -> &mut Type {
    match ty {
        Type::Group(g) => strip_mut(&mut g.elem),
        Type::Paren(p) => strip_mut(&mut p.elem),
        t => t,
    }
}

/// Without invisible groups and parentheses.
pub fn strip(ty: &Type) -> &Type {
    match ty {
        Type::Group(g) => strip(&g.elem),
        Type::Paren(p) => strip(&p.elem),
        t => t,
    }
}

pub use crate::util::is_f64;

/// `Vec<f64>` (or `std::vec::Vec<f64>`).
fn is_vec_f64(p: &TypePath) -> bool {
    let Some(last) = p.path.segments.last() else {
        return false;
    };
    last.ident == "Vec" && single_arg(&last.arguments).is_some_and(is_f64)
}

/// The only type argument of `<T>`.
fn single_arg(args: &PathArguments) -> Option<&Type> {
    let PathArguments::AngleBracketed(a) = args else {
        return None;
    };
    match a.args.iter().collect::<Vec<_>>().as_slice() {
        [GenericArgument::Type(t)] => Some(t),
        _ => None,
    }
}

/// Why a path type cannot be a `#[deriv_rule]` struct, if it visibly cannot: a
/// primitive or std type, or generic arguments other than `<f64>`.
pub fn not_a_struct(p: &TypePath) -> Option<&'static str> {
    const NOT_STRUCTS: &[&str] = &[
        "f32", "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128",
        "usize", "bool", "char", "str", "String", "Vec", "Option", "Result", "Box", "HashMap",
        "BTreeMap",
    ];
    let last = p.path.segments.last()?;
    if p.qself.is_some() || NOT_STRUCTS.iter().any(|n| last.ident == n) {
        return Some("is not a #[deriv_rule] struct");
    }
    match &last.arguments {
        PathArguments::None => None,
        args if single_arg(args).is_some_and(is_f64) => None,
        _ => Some("has generic arguments; #[deriv_rule] structs have none"),
    }
}

/// The first path segment named `name` in `ty` (a user type that would clash with the
/// generic scalar `S`).
pub fn mentions<'a>(ty: &'a Type, name: &str) -> Option<&'a Ident> {
    struct Find<'a, 'n> {
        name: &'n str,
        found: Option<&'a Ident>,
    }
    impl<'a> Visit<'a> for Find<'a, '_> {
        fn visit_path_segment(&mut self, seg: &'a syn::PathSegment) {
            if self.found.is_none() && seg.ident == self.name {
                self.found = Some(&seg.ident);
            }
            syn::visit::visit_path_segment(self, seg);
        }
    }
    let mut f = Find { name, found: None };
    f.visit_type(ty);
    f.found
}

/// `ty` with `f64` replaced by `S`, and with `<S>` given to the struct path of a
/// composite shape (`Bar` -> `Bar<S>`, `&Bar<f64>` -> `&Bar<S>`).
pub fn generic_over(ty: &Type, s: &Ident, shape: Shape) -> Type {
    struct Replace<'s>(&'s Ident);
    impl VisitMut for Replace<'_> {
        fn visit_type_mut(&mut self, ty: &mut Type) {
            if is_f64(ty) {
                let s = self.0;
                *ty = syn::parse_quote_spanned!(span_of(ty) => #s);
            } else {
                syn::visit_mut::visit_type_mut(self, ty);
            }
        }
    }
    let mut ty = ty.clone();
    Replace(s).visit_type_mut(&mut ty);
    if let Shape::Path { .. } = shape {
        with_scalar_arg(&mut ty, s);
    }
    ty
}

fn span_of(ty: &Type) -> Span {
    syn::spanned::Spanned::span(ty)
}

/// Give the last segment of the (possibly referenced) path `<s>`, unless it has it.
fn with_scalar_arg(ty: &mut Type, s: &Ident) {
    match ty {
        Type::Reference(r) => with_scalar_arg(&mut r.elem, s),
        Type::Group(g) => with_scalar_arg(&mut g.elem, s),
        Type::Paren(p) => with_scalar_arg(&mut p.elem, s),
        Type::Path(p) => {
            if let Some(last) = p.path.segments.last_mut() {
                if last.arguments.is_empty() {
                    last.arguments = PathArguments::AngleBracketed(syn::parse_quote!(<#s>));
                }
            }
        }
        _ => {}
    }
}

/// `ty` with the lifetimes of references removed (`&'a str` -> `&str`), for fn pointer
/// types that must not name the function's lifetimes.
pub fn without_ref_lifetimes(ty: &Type) -> Type {
    struct Strip;
    impl VisitMut for Strip {
        fn visit_type_reference_mut(&mut self, r: &mut syn::TypeReference) {
            r.lifetime = None;
            syn::visit_mut::visit_type_reference_mut(self, r);
        }
    }
    let mut ty = ty.clone();
    Strip.visit_type_mut(&mut ty);
    ty
}

/// A type as a user writes it, for messages (`Vec<f64>`, not `Vec < f64 >`).
pub fn type_name(ty: &Type) -> String {
    source_text(ty)
}

/// Tokens as a user writes them, for messages (`x[i]`, not `x [i]`).
pub fn source_text(tokens: &impl quote::ToTokens) -> String {
    let s = tokens.to_token_stream().to_string();
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        let next = chars.peek().copied();
        let prev = out.chars().last();
        let drop_space = c == ' '
            && (matches!(
                next,
                Some('<' | '>' | ',' | ']' | ';' | ')' | ':' | '.' | '[' | '(')
            ) || matches!(prev, Some('<' | '&' | '[' | '(' | ':' | '.')));
        if !drop_space {
            out.push(c);
        }
    }
    out
}

/// The `f64`-shaped types `#[differentiate]` can make active, nested to any depth:
/// `f64`, `[T; N]`, `[T]` (behind a reference), `Vec<T>`.
#[derive(Clone)]
pub enum Nested {
    F64,
    Array(Box<Nested>, Expr),
    Slice(Box<Nested>),
    Vec(Box<Nested>),
}

impl Nested {
    /// `ty` if it is `f64`-shaped.
    pub fn of(ty: &Type) -> Option<Nested> {
        match strip(ty) {
            t if is_f64(t) => Some(Nested::F64),
            Type::Array(a) => Some(Nested::Array(Box::new(Nested::of(&a.elem)?), a.len.clone())),
            Type::Slice(s) => Some(Nested::Slice(Box::new(Nested::of(&s.elem)?))),
            Type::Path(p) if p.qself.is_none() => {
                let last = p.path.segments.last()?;
                if last.ident != "Vec" {
                    return None;
                }
                Some(Nested::Vec(Box::new(Nested::of(single_arg(
                    &last.arguments,
                )?)?)))
            }
            _ => None,
        }
    }

    /// The type of the gradient of a value of this shape: arrays stay arrays, slices
    /// and vectors become `Vec`s.
    pub fn grad_type(&self) -> proc_macro2::TokenStream {
        match self {
            Nested::F64 => quote::quote!(f64),
            Nested::Array(e, n) => {
                let e = e.grad_type();
                quote::quote!([#e; #n])
            }
            Nested::Slice(e) | Nested::Vec(e) => {
                let e = e.grad_type();
                quote::quote!(::std::vec::Vec<#e>)
            }
        }
    }
}

/// How a parameter of `#[differentiate]` takes part, judged by its type alone.
#[derive(Clone)]
pub enum ParamKind {
    /// `f64`.
    Scalar,
    /// An `f64`-shaped array, vector or slice, by value or behind `&`: `[f64; N]`,
    /// `&[f64]`, `Vec<Vec<f64>>`, `&[f64; N]`, ...
    Nested { by_ref: bool, shape: Nested },
    /// A nalgebra or ndarray array of `f64` (`DVector<f64>`, `&DMatrix<f64>`,
    /// `ArrayView1<f64>`, ...): activated through `fazang::param::Param`.
    Container { by_ref: bool, view: bool },
    /// A by-value single-identifier UpperCamelCase type: a `#[deriv_rule]` struct.
    Struct,
    /// `&mut` to an `f64`-shaped type: written through, so never a differentiable input.
    MutRef,
    /// Anything else: data, passed through unchanged.
    Data,
}

impl ParamKind {
    pub fn of(ty: &Type) -> ParamKind {
        match strip(ty) {
            t if is_f64(t) => ParamKind::Scalar,
            Type::Reference(r) => match Nested::of(&r.elem) {
                Some(_) if r.mutability.is_some() => ParamKind::MutRef,
                Some(shape) => ParamKind::Nested {
                    by_ref: true,
                    shape,
                },
                None if r.mutability.is_none() && container(&r.elem).is_some() => {
                    ParamKind::Container {
                        by_ref: true,
                        view: false,
                    }
                }
                None => ParamKind::Data,
            },
            t => match Nested::of(t) {
                Some(shape) => ParamKind::Nested {
                    by_ref: false,
                    shape,
                },
                None => match container(t) {
                    Some(view) => ParamKind::Container {
                        by_ref: false,
                        view,
                    },
                    None if struct_candidate(t) => ParamKind::Struct,
                    None => ParamKind::Data,
                },
            },
        }
    }

    pub fn can_be_active(&self) -> bool {
        matches!(
            self,
            ParamKind::Scalar
                | ParamKind::Nested { .. }
                | ParamKind::Container { .. }
                | ParamKind::Struct
        )
    }
}

/// nalgebra's and ndarray's array types.
const CONTAINERS: &[&str] = &[
    "DVector",
    "DMatrix",
    "SVector",
    "SMatrix",
    "OMatrix",
    "RowDVector",
    "RowSVector",
    "Array",
    "Array1",
    "Array2",
    "Array3",
    "ArrayD",
];

/// ndarray's views: passed by value, activated as owned arrays.
const VIEWS: &[&str] = &[
    "ArrayView",
    "ArrayView1",
    "ArrayView2",
    "ArrayView3",
    "ArrayViewD",
];

/// The gradient type of a nalgebra or ndarray parameter: the same type, owned (a view's
/// gradient is the owned array: `ArrayView1<'a, f64>` -> `Array1<f64>`).
pub fn container_grad_type(ty: &Type) -> Type {
    let mut t = match strip(ty) {
        Type::Reference(r) => strip(&r.elem).clone(),
        t => t.clone(),
    };
    if let Type::Path(p) = &mut t {
        if let Some(last) = p.path.segments.last_mut() {
            let name = last.ident.to_string();
            if let Some(owned) = name.strip_prefix("ArrayView") {
                last.ident = Ident::new(&format!("Array{owned}"), last.ident.span());
                if let PathArguments::AngleBracketed(a) = &mut last.arguments {
                    a.args = a
                        .args
                        .iter()
                        .filter(|g| !matches!(g, GenericArgument::Lifetime(_)))
                        .cloned()
                        .collect();
                }
            }
        }
    }
    t
}

/// For a nalgebra or ndarray array of `f64`, whether it is a view.
pub fn container(ty: &Type) -> Option<bool> {
    let Type::Path(p) = strip(ty) else {
        return None;
    };
    let last = p.path.segments.last()?;
    let name = last.ident.to_string();
    let view = VIEWS.contains(&name.as_str());
    if !view && !CONTAINERS.contains(&name.as_str()) {
        return None;
    }
    let PathArguments::AngleBracketed(a) = &last.arguments else {
        return None;
    };
    let first_type = a.args.iter().find_map(|g| match g {
        GenericArgument::Type(t) => Some(t),
        _ => None,
    })?;
    is_f64(first_type).then_some(view)
}

/// Types that do not name a registered struct although they look like one.
const DATA_TYPES: &[&str] = &[
    "String", "Vec", "Option", "Box", "Rc", "Arc", "HashMap", "BTreeMap", "HashSet", "BTreeSet",
    "VecDeque", "Cow", "Path", "PathBuf", "Duration", "Instant", "Self", "Ordering", "Range",
    "RefCell", "Cell", "Mutex",
];

/// A name the macro cannot see into (`State`), or arrays and vectors of one
/// (`Vec<State>`): maybe an alias of an `f64` shape.
fn through_alias(ty: &Type) -> bool {
    match strip(ty) {
        Type::Array(a) => through_alias(&a.elem),
        Type::Path(p) if p.qself.is_none() && p.path.segments.len() == 1 => {
            let seg = &p.path.segments[0];
            match single_arg(&seg.arguments) {
                Some(inner) if seg.ident == "Vec" => through_alias(inner),
                _ => struct_candidate(ty),
            }
        }
        _ => false,
    }
}

/// The name a result through an alias is written with (`State` in `-> State`,
/// `Vec<State>`, `[State; 3]`).
pub fn alias_name(ty: &Type) -> Option<&Ident> {
    match strip(ty) {
        Type::Array(a) => alias_name(&a.elem),
        Type::Path(p) if p.qself.is_none() && p.path.segments.len() == 1 => {
            let seg = &p.path.segments[0];
            match single_arg(&seg.arguments) {
                Some(inner) if seg.ident == "Vec" => alias_name(inner),
                _ => struct_candidate(ty).then_some(&seg.ident),
            }
        }
        _ => None,
    }
}

/// A by-value single-identifier type in UpperCamelCase with no generic arguments (`Bar`)
/// is taken to be a struct registered with `#[deriv_rule]`; `wrt(...)` excludes others.
pub fn struct_candidate(ty: &Type) -> bool {
    let Type::Path(tp) = ty else { return false };
    if tp.qself.is_some() || tp.path.segments.len() != 1 {
        return false;
    }
    let seg = &tp.path.segments[0];
    let name = seg.ident.to_string();
    seg.arguments.is_none()
        && name.starts_with(|c: char| c.is_ascii_uppercase())
        && !DATA_TYPES.contains(&name.as_str())
}

/// The written type of a function result, as `#[differentiate]` sees it.
pub enum ResultKind {
    /// `f64`: gets `name_grad`.
    Scalar,
    /// `Result<f64, E>`: gets `name_grad` returning `Result<(f64, G), E>`.
    ResultScalar,
    /// An `f64`-shaped vector, array or nesting of them: gets `name_jacobian`.
    Vector,
    /// A single capitalised name the macro cannot see into (`State` after `type State =
    /// [f64; 2];`): taken for an alias of an `f64` array or vector, which rustc checks
    /// (`VectorShape`, with a message in the user's terms otherwise); gets
    /// `name_jacobian` from the tape.
    Aliased,
}

impl ResultKind {
    pub fn of(out: &syn::ReturnType) -> Option<ResultKind> {
        let syn::ReturnType::Type(_, ty) = out else {
            return None;
        };
        let ty = strip(ty);
        if is_f64(ty) {
            return Some(ResultKind::Scalar);
        }
        if let Type::Path(p) = ty {
            let last = p.path.segments.last()?;
            if last.ident == "Result" {
                return match &last.arguments {
                    PathArguments::AngleBracketed(a) => match a.args.first()? {
                        GenericArgument::Type(t) if is_f64(t) => Some(ResultKind::ResultScalar),
                        _ => None,
                    },
                    _ => None,
                };
            }
        }
        if container(ty) == Some(false) {
            return Some(ResultKind::Vector);
        }
        if through_alias(ty) {
            return Some(ResultKind::Aliased);
        }
        match Nested::of(ty)? {
            Nested::F64 | Nested::Slice(_) => None,
            Nested::Array(..) | Nested::Vec(_) => Some(ResultKind::Vector),
        }
    }

    /// Whether the result is a vector (`name_jacobian`, not `name_grad`).
    pub fn is_vector(&self) -> bool {
        matches!(self, ResultKind::Vector | ResultKind::Aliased)
    }
}

/// `ty` with every `f64` replaced by `s`, through parentheses and invisible groups.
pub fn replace_f64(ty: &Type, s: &Ident) -> Type {
    struct Replace<'s>(&'s Ident);
    impl VisitMut for Replace<'_> {
        fn visit_type_mut(&mut self, ty: &mut Type) {
            if is_f64(ty) {
                let s = self.0;
                *ty = syn::parse_quote_spanned!(span_of(ty) => #s);
            } else {
                syn::visit_mut::visit_type_mut(self, ty);
            }
        }
    }
    let mut ty = ty.clone();
    Replace(s).visit_type_mut(&mut ty);
    ty
}
