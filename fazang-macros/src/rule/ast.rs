//! The model of a `#[deriv_rule]` item: the original syntax plus what each part is.

use super::attr::{KeyValue, Partial, RuleAttr};
use crate::types::{Nested, RetShape, Shape};
use syn::{Expr, FnArg, Ident, ItemFn, ItemStruct, Member, Pat, PatType, Type};

/// A function with a rule.
pub struct RuleFn<'a> {
    pub item: &'a ItemFn,
    pub attr: &'a RuleAttr,
    pub params: Vec<Param<'a>>,
    /// `self`, `&self`, ...: not supported.
    pub receiver: Option<&'a syn::Receiver>,
    /// `None` for `-> ()`.
    pub ret: Option<(&'a Type, RetShape<'a>)>,
}

/// One typed parameter.
pub struct Param<'a> {
    pub arg: &'a PatType,
    /// The binding, if the pattern is `x` or `mut x`.
    pub ident: Option<&'a Ident>,
    pub mutable: bool,
    pub shape: Shape<'a>,
}

/// What a parameter is, once the rule is known.
#[derive(Clone, Copy)]
pub enum Role<'a> {
    /// Differentiated; partials or adjoints are computed for it.
    Active(Active),
    /// Passed through unchanged.
    Data,
    /// Named by the rule but of a type that cannot be differentiated.
    Invalid(&'a str),
}

/// The kinds of active parameter.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Active {
    Scalar,
    Slice,
    VecRef,
    Vec,
    Array,
    Struct { by_ref: bool },
}

/// The two forms of rule.
pub enum Form<'a> {
    /// `x => expr, ..`.
    Partials,
    /// `adjoint = path`.
    Adjoint(&'a Expr),
}

impl<'a> RuleFn<'a> {
    pub fn from_syn(item: &'a ItemFn, attr: &'a RuleAttr) -> Self {
        let mut params = Vec::new();
        let mut receiver = None;
        for arg in &item.sig.inputs {
            match arg {
                FnArg::Receiver(r) => receiver = Some(r),
                FnArg::Typed(t) => params.push(Param::from_syn(t)),
            }
        }
        let ret = match &item.sig.output {
            syn::ReturnType::Default => None,
            syn::ReturnType::Type(_, ty) => Some((&**ty, RetShape::of(ty))),
        };
        RuleFn {
            item,
            attr,
            params,
            receiver,
            ret,
        }
    }

    pub fn name(&self) -> &Ident {
        &self.item.sig.ident
    }

    pub fn form(&self) -> Form<'a> {
        match self.attr.adjoints.first() {
            Some(KeyValue { value, .. }) => Form::Adjoint(value),
            None => Form::Partials,
        }
    }

    /// The rule's partial for `param`, if it names it.
    pub fn partial(&self, param: &Param) -> Option<&'a Partial> {
        let ident = param.ident?;
        self.attr.partials.iter().find(|p| p.name == *ident)
    }

    /// Whether `data(..)` lists `param`.
    pub fn is_data(&self, param: &Param) -> bool {
        param
            .ident
            .is_some_and(|id| self.attr.data.iter().any(|d| d == id))
    }

    /// What `param` is: f64 shapes are active unless listed in `data(..)`; a path type is
    /// a struct when the rule names it; anything else named by the rule is invalid.
    pub fn role(&self, param: &Param) -> Role<'a> {
        let named = self.partial(param).is_some();
        match param.shape {
            Shape::MutRef => Role::Invalid("is a mutable reference"),
            _ if self.is_data(param) && !named => Role::Data,
            Shape::F64 => Role::Active(Active::Scalar),
            Shape::Slice => Role::Active(Active::Slice),
            Shape::VecRef => Role::Active(Active::VecRef),
            Shape::Vec => Role::Active(Active::Vec),
            Shape::Array(_) => Role::Active(Active::Array),
            Shape::Path { by_ref, path } if named => match crate::types::not_a_struct(path) {
                None => Role::Active(Active::Struct { by_ref }),
                Some(why) => Role::Invalid(why),
            },
            Shape::Path { .. } | Shape::Other if named => Role::Invalid("cannot be differentiated"),
            Shape::Path { .. } | Shape::Other => Role::Data,
        }
    }

    /// The parameters with their roles.
    pub fn roles(&self) -> impl Iterator<Item = (&Param<'a>, Role<'a>)> {
        self.params.iter().map(|p| (p, self.role(p)))
    }

    /// The active parameters with their kinds.
    pub fn active(&self) -> impl Iterator<Item = (&Param<'a>, Active)> {
        self.roles().filter_map(|(p, r)| match r {
            Role::Active(a) => Some((p, a)),
            _ => None,
        })
    }
}

impl<'a> Param<'a> {
    fn from_syn(arg: &'a PatType) -> Self {
        let (ident, mutable) = match &*arg.pat {
            Pat::Ident(p) if p.by_ref.is_none() && p.subpat.is_none() => {
                (Some(&p.ident), p.mutability.is_some())
            }
            _ => (None, false),
        };
        Param {
            arg,
            ident,
            mutable,
            shape: Shape::of(&arg.ty),
        }
    }

    /// The binding name (validated to exist before expansion).
    pub fn name(&self) -> &'a Ident {
        self.ident.expect("validated: parameters are identifiers")
    }
}

/// A struct to make differentiable.
pub struct RuleStruct<'a> {
    pub item: &'a ItemStruct,
    pub fields: Vec<Field<'a>>,
}

/// One field of the struct.
pub struct Field<'a> {
    pub member: Member,
    pub ty: &'a Type,
    pub kind: FieldKind,
}

/// Which fields are differentiable.
#[derive(Clone)]
pub enum FieldKind {
    /// `f64`.
    Scalar,
    /// An array or vector of `f64`, nested to any depth (`[f64; N]`, `Vec<f64>`,
    /// `Vec<[f64; 3]>`, `Vec<Vec<f64>>`): every entry is differentiable, in element order.
    Shaped(Nested),
    /// Anything else: cloned.
    Data,
}

impl<'a> RuleStruct<'a> {
    pub fn from_syn(item: &'a ItemStruct) -> Self {
        let fields = item
            .fields
            .iter()
            .enumerate()
            .map(|(i, f)| Field {
                member: match &f.ident {
                    Some(id) => Member::Named(id.clone()),
                    None => Member::Unnamed(i.into()),
                },
                ty: &f.ty,
                kind: match Nested::of(&f.ty) {
                    Some(Nested::F64) => FieldKind::Scalar,
                    Some(shape @ (Nested::Array(..) | Nested::Vec(_))) => FieldKind::Shaped(shape),
                    _ => FieldKind::Data,
                },
            })
            .collect();
        RuleStruct { item, fields }
    }

    pub fn differentiable(&self) -> impl Iterator<Item = &Field<'a>> {
        self.fields
            .iter()
            .filter(|f| !matches!(f.kind, FieldKind::Data))
    }
}
