//! `#[differentiate]`: parse (`attr`, `ast`) -> validate (`valid`) -> expand (`expand`,
//! with the body rewriting in `body`).

mod ast;
mod attr;
mod body;
mod expand;
mod valid;

use crate::util::{with_item, Ctxt};
use proc_macro2::TokenStream;
use syn::{Item, ItemFn};

pub fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let func = match syn::parse2::<Item>(item.clone()) {
        Ok(Item::Fn(f)) => f,
        Ok(other) => return with_item(not_a_fn(&other), item),
        Err(e) => return with_item(e, item),
    };
    match expand_fn(attr, &func) {
        Ok(tokens) => tokens,
        Err(e) => with_item(e, item),
    }
}

fn expand_fn(attr: TokenStream, func: &ItemFn) -> syn::Result<TokenStream> {
    let mut cx = Ctxt::default();
    let options = attr::parse(&mut cx, attr);
    let model = ast::Model::from_fn(&mut cx, func, options);
    valid::check(&mut cx, &model);
    let tokens = expand::expand(&mut cx, &model);
    cx.check()?;
    Ok(tokens)
}

/// `#[differentiate] can only be applied to a fn, not a struct`, at the item's keyword.
fn not_a_fn(item: &Item) -> syn::Error {
    let (what, span): (&str, &dyn quote::ToTokens) = match item {
        Item::Struct(s) => ("a struct", &s.struct_token),
        Item::Enum(e) => ("an enum", &e.enum_token),
        Item::Union(u) => ("a union", &u.union_token),
        Item::Trait(t) => ("a trait", &t.trait_token),
        Item::Impl(i) => ("an impl block (put it on a free function)", &i.impl_token),
        Item::Const(c) => ("a const", &c.const_token),
        Item::Static(s) => ("a static", &s.static_token),
        Item::Mod(m) => ("a module", &m.mod_token),
        Item::Type(t) => ("a type alias", &t.type_token),
        _ => ("this item", item),
    };
    syn::Error::new_spanned(
        span,
        format!("#[differentiate] can only be applied to a fn, not {what}"),
    )
}

#[cfg(test)]
mod tests {
    use quote::quote;

    /// Prints the expansion (`cargo test -p fazang-macros -- --nocapture expansion`) and
    /// checks its shape: a generic primal and a `_grad` on a nested scope.
    #[test]
    fn expansion_of_fazang_example() {
        let out = super::expand(
            quote!(),
            quote! {
                fn normal_lp(mu: f64, sigma: f64) -> f64 {
                    let y = 1.3;
                    -0.5 * (2.0 * std::f64::consts::PI).ln() - sigma.ln()
                        - 0.5 * ((y - mu) / sigma).powi(2)
                }
            },
        );
        let text = out.to_string();
        println!("{text}");
        assert!(text.contains("fn normal_lp < S : :: fazang :: Real >"));
        assert!(text.contains("mu : S , sigma : S) -> S"));
        assert!(text.contains("let y = :: fazang :: __private :: lit :: < S > (1.3)"));
        assert!(
            text.contains("fn normal_lp_grad (mu : f64 , sigma : f64) -> (f64 , [f64 ; 2usize])")
        );
        assert!(!text.contains("compile_error"));
    }

    #[test]
    fn errors_keep_the_item() {
        let out = super::expand(
            quote!(bogus),
            quote!(
                fn f(x: f64) -> f64 {
                    x
                }
            ),
        )
        .to_string();
        assert!(out.contains("compile_error"));
        assert!(out.contains("fn f (x : f64) -> f64"));
    }
}
