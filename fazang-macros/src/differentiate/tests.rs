//! Expansion tests: `cargo test -p fazang-macros -- --nocapture expansion` prints them.

use quote::quote;

fn expand(attr: proc_macro2::TokenStream, item: proc_macro2::TokenStream) -> String {
    let out = super::expand(attr, item);
    let text = out.to_string();
    println!("{text}");
    text
}

#[test]
fn expansion_of_fazang_example() {
    let text = expand(
        quote!(),
        quote! {
            fn normal_lp(mu: f64, sigma: f64) -> f64 {
                let y = 1.3;
                -0.5 * (2.0 * std::f64::consts::PI).ln() - sigma.ln()
                    - 0.5 * ((y - mu) / sigma).powi(2)
            }
        },
    );
    assert!(text.contains("fn normal_lp < ActiveF64 : :: fazang :: Real >"));
    assert!(text.contains("mu : ActiveF64 , sigma : ActiveF64) -> ActiveF64"));
    // `y` is data: it stays a plain f64.
    assert!(text.contains("let y = 1.3 ;"));
    assert!(text.contains("fn normal_lp_grad (mu : f64 , sigma : f64) -> (f64 , [f64 ; 2usize])"));
    assert!(!text.contains("compile_error"));
}

#[test]
fn expansion_converts_data_meeting_active_values() {
    let text = expand(
        quote!(wrt(x)),
        quote! {
            fn f(x: &[f64], y: &[f64], k: f64) -> f64 {
                let mut s = y[0];
                for p in 0..x.len() {
                    s -= y[p] * x[p];
                }
                let mut acc = k.tanh();
                acc += s;
                let n = x.len() as f64;
                acc / n
            }
        },
    );
    assert!(text.contains("let mut s = :: fazang :: __private :: lit :: < ActiveF64 > (y [0]) ;"));
    assert!(text
        .contains("let mut acc = :: fazang :: __private :: lit :: < ActiveF64 > (k . tanh ()) ;"));
    assert!(text.contains("let n = x . len () as f64 ;"));
    assert!(!text.contains("compile_error"));
}

#[test]
fn errors_keep_the_item() {
    // A function that cannot be differentiated is kept as written beside the error, so
    // its callers see the function they wrote.
    let text = expand(
        quote!(),
        quote!(
            async fn f(x: f64) -> f64 {
                x
            }
        ),
    );
    assert!(text.contains("compile_error"));
    assert!(text.contains("async fn f (x : f64) -> f64"));
}

#[test]
fn a_wrong_option_is_reported_and_the_function_still_expanded() {
    // `bogus` names no option: reported, with the list of options; the function is
    // differentiated without it, so callers of `f` and `f_grad` get no second error.
    let text = expand(
        quote!(bogus),
        quote!(
            fn f(x: f64) -> f64 {
                x
            }
        ),
    );
    assert!(text.contains("compile_error"));
    assert!(text.contains("unknown #[differentiate] option `bogus`"));
    assert!(text.contains("fn f < ActiveF64"), "{text}");
    assert!(text.contains("fn f_grad"), "{text}");
    // A misspelling names the option meant.
    let text = expand(
        quote!(wrtt(x)),
        quote!(
            fn f(x: f64) -> f64 {
                x
            }
        ),
    );
    assert!(text.contains("did you mean `wrt(a, b)`?"), "{text}");
    // A `wrt(..)` naming no parameter: reported, and every f64 parameter stays active.
    let text = expand(
        quote!(wrt(z)),
        quote!(
            fn f(x: f64) -> f64 {
                x
            }
        ),
    );
    assert!(text.contains("compile_error"));
    assert!(text.contains("fn f_grad"), "{text}");
}

#[test]
fn expansion_of_a_module_converts_data_for_its_functions() {
    let text = expand(
        quote!(),
        quote! {
            mod kinetics {
                fn mm(s: f64, vmax: f64) -> f64 {
                    vmax * s
                }
                #[differentiate(wrt(params))]
                pub fn sse(params: &[f64], conc: &[f64]) -> f64 {
                    let mut total = 0.0;
                    for s in conc.iter() {
                        total += mm(*s, params[0]);
                    }
                    total
                }
            }
        },
    );
    assert!(text.contains("mm (:: fazang :: __private :: lit :: < ActiveF64 > (* s) , params [0])"));
}
