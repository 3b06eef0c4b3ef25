//! The arguments of `#[deriv_rule(...)]`: partials `x => expr` and the options
//! `adjoint = path` and `data(..)`.

use proc_macro2::TokenStream;
use syn::parse::{Parse, ParseStream};
use syn::{Expr, Ident, Token};

/// A keyword of the attribute.
#[derive(Clone, Copy)]
pub struct Symbol(pub &'static str);

/// `adjoint = path`: the vector-Jacobian form.
pub const ADJOINT: Symbol = Symbol("adjoint");

/// `data(w, ..)`: f64 parameters that are constants (no partial, never active).
pub const DATA: Symbol = Symbol("data");

/// Every option, for "the options are" in messages.
pub const OPTIONS: &[&str] = &["adjoint = path", "data(param, ..)"];

impl PartialEq<Symbol> for Ident {
    fn eq(&self, word: &Symbol) -> bool {
        self == word.0
    }
}

/// `#[deriv_rule(...)]`, in source order; checked by `valid`.
#[derive(Default)]
pub struct RuleAttr {
    /// `name => partial`.
    pub partials: Vec<Partial>,
    /// Every `adjoint = ..` (more than one is an error).
    pub adjoints: Vec<KeyValue>,
    /// The parameters listed in every `data(..)`.
    pub data: Vec<Ident>,
    /// Options that do not exist (`name = ..` or `name(..)`).
    pub unknown: Vec<Ident>,
    /// The whole argument list, for "takes no arguments" errors.
    pub tokens: TokenStream,
}

/// `name => expr`: the partial derivative with respect to the parameter `name`.
pub struct Partial {
    pub name: Ident,
    pub expr: Expr,
}

/// `key = value`.
pub struct KeyValue {
    pub key: Ident,
    pub value: Expr,
}

impl RuleAttr {
    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }
}

impl Parse for RuleAttr {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut attr = RuleAttr {
            tokens: input.fork().parse()?,
            ..RuleAttr::default()
        };
        while !input.is_empty() {
            parse_entry(input, &mut attr)?;
            if input.is_empty() {
                break;
            }
            input.parse::<Token![,]>()?;
        }
        Ok(attr)
    }
}

fn parse_entry(input: ParseStream, attr: &mut RuleAttr) -> syn::Result<()> {
    let name: Ident = input.parse().map_err(|e| {
        syn::Error::new(
            e.span(),
            "expected a parameter name (`x => partial`), `adjoint = path` or `data(..)` in #[deriv_rule]",
        )
    })?;
    if input.peek(Token![=>]) {
        input.parse::<Token![=>]>()?;
        let expr = input.parse()?;
        attr.partials.push(Partial { name, expr });
    } else if input.peek(Token![=]) {
        input.parse::<Token![=]>()?;
        let value: Expr = input.parse()?;
        if name == ADJOINT {
            attr.adjoints.push(KeyValue { key: name, value });
        } else {
            attr.unknown.push(name);
        }
    } else if input.peek(syn::token::Paren) && name == DATA {
        let content;
        syn::parenthesized!(content in input);
        let names = content.parse_terminated(Ident::parse, Token![,])?;
        attr.data.extend(names);
    } else if input.peek(syn::token::Paren) {
        let _args: proc_macro2::Group = input.parse()?;
        attr.unknown.push(name);
    } else {
        return Err(syn::Error::new(
            name.span(),
            format!("expected `=>` and the partial derivative with respect to `{name}`, as in `{name} => 2.0 * {name}`"),
        ));
    }
    Ok(())
}
