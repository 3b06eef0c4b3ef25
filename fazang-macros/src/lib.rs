//! The attributes of fazang: `#[differentiate]` and `#[deriv_rule]`.
//!
//! Each attribute is parsed into a small model (`ast`), validated with every error
//! collected (`valid`), then expanded (`expand`). Generated code reaches the runtime only
//! through `::fazang::__private` and `::fazang::Var`/`::fazang::Real`.

use proc_macro::TokenStream;

mod differentiate;
mod rule;
mod util;

/// Differentiate an ordinary `f64` function: keeps it, and adds `name_grad` (scalar
/// return) or `name_jacobian` (vector return). See the `fazang` crate docs.
#[proc_macro_attribute]
pub fn differentiate(attr: TokenStream, item: TokenStream) -> TokenStream {
    differentiate::expand(attr.into(), item.into()).into()
}

/// Give a function hand-written partial derivatives, or register a struct with `f64`
/// fields as differentiable. See the `fazang` crate docs.
#[proc_macro_attribute]
pub fn deriv_rule(attr: TokenStream, item: TokenStream) -> TokenStream {
    rule::expand(attr.into(), item.into()).into()
}
