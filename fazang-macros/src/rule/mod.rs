//! `#[deriv_rule]`: hand-written partials for a fn, or a differentiable struct.
//!
//! Parse (`attr`: the attribute's arguments; `ast`: a model of the item that keeps the
//! original syntax for spans) -> validate (`valid`: every rule in one place, all errors
//! collected) -> expand (`expand_fn`, `expand_struct`: quote, assuming valid input).
//! On error the original item is emitted next to the errors, so its callers do not get a
//! second wave of "cannot find" errors.

mod ast;
mod attr;
mod expand_fn;
mod expand_struct;
mod generic;
mod valid;

use proc_macro2::TokenStream;
use syn::Item;

pub fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    match try_expand(attr, item.clone()) {
        Ok(out) => out,
        Err(err) => crate::util::with_item(err, item),
    }
}

fn try_expand(attr_tokens: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let attr = syn::parse2::<attr::RuleAttr>(attr_tokens.clone());
    let item = match syn::parse2::<Item>(item) {
        Ok(item) => item,
        Err(err) => return Err(join(attr.err(), Some(valid::not_an_item(err)))),
    };
    let attr = match attr {
        Ok(attr) => attr,
        Err(err) => return Err(join(Some(err), valid::check_item_kind(&item).err())),
    };
    match &item {
        Item::Fn(f) => {
            let model = ast::RuleFn::from_syn(f, &attr);
            valid::check_fn(&model)?;
            Ok(expand_fn::expand(&model))
        }
        Item::Struct(s) => {
            let model = ast::RuleStruct::from_syn(s);
            valid::check_struct(&model, &attr_tokens)?;
            Ok(expand_struct::expand(&model))
        }
        other => Err(valid::check_item_kind(other).expect_err("not a fn or struct")),
    }
}

fn join(a: Option<syn::Error>, b: Option<syn::Error>) -> syn::Error {
    match (a, b) {
        (Some(mut a), Some(b)) => {
            a.combine(b);
            a
        }
        (Some(e), None) | (None, Some(e)) => e,
        (None, None) => syn::Error::new(proc_macro2::Span::call_site(), "invalid #[deriv_rule]"),
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    /// Prints the expansion (`cargo test -p fazang-macros -- --nocapture rule`) and checks
    /// its shape: a generic fn whose partials, written in the argument, are evaluated on
    /// any scalar by `apply_rule`, and whose body runs on f64.
    #[test]
    fn rule_expansion_of_foo() {
        let out = super::expand(
            quote!(x => x.cos() / (1.0 + x.sin())),
            quote! {
                fn foo(x: f64) -> f64 {
                    (1.0 + x.sin()).ln()
                }
            },
        );
        let text = out.to_string();
        println!("{text}");
        assert!(
            text.contains("fn foo < ActiveF64 : :: fazang :: Real > (x : ActiveF64) -> ActiveF64")
        );
        assert!(text
            .contains("impl :: fazang :: __private :: RulePartials < 1usize > for __FzPartials"));
        assert!(text.contains("lit :: < ActiveF64 > (1.0) + x . sin ()"));
        assert!(text.contains("apply_rule :: < ActiveF64 , __FzPartials , 1usize >"));
        assert!(!text.contains("compile_error"));
    }

    /// A partial that calls a plain f64 function keeps the f64 path, behind a check that
    /// the scalar needs no more than first derivatives.
    #[test]
    fn rule_expansion_with_f64_partials() {
        let out = super::expand(
            quote!(x => helper(x)),
            quote! {
                fn foo(x: f64) -> f64 {
                    x.sin()
                }
            },
        );
        let text = out.to_string();
        println!("{text}");
        assert!(
            text.contains("let x : f64 = < ActiveF64 as :: fazang :: Real > :: val (& __fz_arg_x)")
        );
        assert!(text.contains(":: from_partials (__fz_value"));
        assert!(text.contains("rule_first_order_only (\"foo\" , \"its partial for `x` is computed on f64 (it calls `helper`)\")"));
    }

    #[test]
    fn rule_expansion_of_a_struct() {
        let out = super::expand(
            quote!(),
            quote!(
                struct Bar {
                    x: f64,
                    label: String,
                }
            ),
        );
        let text = out.to_string();
        println!("{text}");
        assert!(text.contains("struct Bar < ActiveF64 = f64 > { x : ActiveF64 , label : String"));
        assert!(text.contains("impl :: fazang :: __private :: Composite for Bar < f64 >"));
        assert!(text.contains("CompositeOf < ActiveF64 > for Bar < ActiveF64 >"));
    }

    #[test]
    fn rule_errors_keep_the_item() {
        let item = quote!(
            fn foo(x: f64) -> f64 {
                x
            }
        );
        let text = super::expand(quote!(y => 1.0), item.clone()).to_string();
        assert!(text.contains("compile_error"));
        assert!(text.ends_with(&item.to_string()));
    }
}
