//! The model of one `#[differentiate]` function: where it stands (a free function, a
//! method, a function of a differentiated module), its options, parameters and result,
//! each keeping the syntax node it came from for error spans.

use super::attr::Options;
use crate::types::{ParamKind, ResultKind};
use crate::util::Ctxt;
use syn::{Attribute, Block, FnArg, Ident, ImplItemFn, ItemFn, Pat, Signature, Type, Visibility};

/// Where the function stands: decides what is an error and how its siblings call it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// `#[differentiate] fn f`: everything must be right.
    Free,
    /// A function of a `#[differentiate] mod`: helpers that cannot have a gradient are
    /// still made generic, so other functions can call them with active values.
    InMod,
    /// A method of a `#[differentiate] impl` block (`self` is data).
    Method,
}

/// The parts of a function, whether an item or an impl item.
pub struct Func<'a> {
    pub attrs: &'a [Attribute],
    pub vis: &'a Visibility,
    pub sig: &'a Signature,
    pub block: &'a Block,
}

impl<'a> From<&'a ItemFn> for Func<'a> {
    fn from(f: &'a ItemFn) -> Self {
        Func {
            attrs: &f.attrs,
            vis: &f.vis,
            sig: &f.sig,
            block: &f.block,
        }
    }
}

impl<'a> From<&'a ImplItemFn> for Func<'a> {
    fn from(f: &'a ImplItemFn) -> Self {
        Func {
            attrs: &f.attrs,
            vis: &f.vis,
            sig: &f.sig,
            block: &f.block,
        }
    }
}

pub struct Param<'a> {
    pub ident: Ident,
    pub ty: &'a Type,
    /// What the type makes it.
    pub kind: ParamKind,
    /// Differentiated (its kind allows it and `wrt(...)` does not leave it out).
    pub active: bool,
}

pub struct Model<'a> {
    pub func: Func<'a>,
    pub place: Place,
    pub options: Options,
    pub params: Vec<Param<'a>>,
    pub ret: Option<ResultKind>,
    /// Parameters bound by a pattern other than a name (refused).
    pub pattern_params: Vec<&'a Pat>,
}

impl<'a> Model<'a> {
    /// Build the model; problems found on the way go to `cx`.
    pub fn new(_cx: &mut Ctxt, func: Func<'a>, place: Place, options: Options) -> Model<'a> {
        let mut params = Vec::new();
        let mut pattern_params = Vec::new();
        for arg in &func.sig.inputs {
            let FnArg::Typed(pt) = arg else { continue };
            let Pat::Ident(pi) = &*pt.pat else {
                pattern_params.push(&*pt.pat);
                continue;
            };
            let mut kind = ParamKind::of(&pt.ty);
            let named = options.wrt.as_ref().is_some_and(|w| w.contains(&pi.ident));
            if matches!(kind, ParamKind::Struct) && !named && names_variants(&pt.ty, func.block) {
                // `kind: Orbit` with `Orbit::Circular` in the body: an enum, so data.
                kind = ParamKind::Data;
            }
            let listed = options.wrt.as_ref().is_none_or(|w| w.contains(&pi.ident));
            params.push(Param {
                ident: pi.ident.clone(),
                ty: &pt.ty,
                active: listed && kind.can_be_active(),
                kind,
            });
        }
        let mut ret = ResultKind::of(&func.sig.output);
        if place != Place::Free && matches!(ret, Some(ResultKind::Aliased)) {
            // In a module or impl block, a helper returning a struct of the user's is made
            // generic with its result as written (aliases of the module are resolved
            // before: `items::resolve_aliases`).
            ret = None;
        }
        Model {
            func,
            place,
            options,
            params,
            ret,
            pattern_params,
        }
    }

    pub fn active(&self) -> impl Iterator<Item = &Param<'a>> {
        self.params.iter().filter(|p| p.active)
    }

    pub fn name(&self) -> &Ident {
        &self.func.sig.ident
    }

    /// The receiver (`self`, `&self`, ...), for methods.
    pub fn receiver(&self) -> Option<&syn::Receiver> {
        match self.func.sig.inputs.first() {
            Some(FnArg::Receiver(r)) => Some(r),
            _ => None,
        }
    }

    /// Whether the function becomes generic over the scalar: it has an active
    /// parameter, or (in a module or impl block) an `&mut` one it writes through.
    pub fn is_generic(&self) -> bool {
        self.active().next().is_some()
            || (self.place != Place::Free
                && self
                    .params
                    .iter()
                    .any(|p| matches!(p.kind, ParamKind::MutRef)))
    }

    /// Whether `_grad`/`_jacobian` are generated.
    pub fn has_siblings(&self) -> bool {
        self.ret.is_some() && self.active().next().is_some()
    }
}

/// Whether the body writes paths through the type (`Orbit::Circular`, `Mode::from(..)`):
/// then it is an enum or a type with associated items, not a `#[deriv_rule]` struct
/// (those are only built and read field by field).
fn names_variants(ty: &Type, block: &Block) -> bool {
    let Type::Path(tp) = crate::types::strip(ty) else {
        return false;
    };
    let Some(name) = tp.path.get_ident() else {
        return false;
    };
    fn scan(ts: proc_macro2::TokenStream, name: &Ident) -> bool {
        let tokens: Vec<proc_macro2::TokenTree> = ts.into_iter().collect();
        tokens.iter().enumerate().any(|(i, t)| match t {
            proc_macro2::TokenTree::Ident(id) => {
                id == name
                    && matches!(tokens.get(i + 1), Some(proc_macro2::TokenTree::Punct(p)) if p.as_char() == ':')
                    && matches!(tokens.get(i + 2), Some(proc_macro2::TokenTree::Punct(p)) if p.as_char() == ':')
            }
            proc_macro2::TokenTree::Group(g) => scan(g.stream(), name),
            _ => false,
        })
    }
    scan(quote::ToTokens::to_token_stream(block), name)
}
