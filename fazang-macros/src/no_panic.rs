//! The attributes never panic, whatever they are given: valid items with random types,
//! attributes and junk mutated in, fed to both expansion functions, must give an error
//! or an expansion, and no error message may name what the user did not write (the
//! generated scalar `S`, `__private`, a `__fz..` identifier). `FAZANG_MACRO_FUZZ_SEED`
//! and `FAZANG_MACRO_FUZZ_CASES` choose another run than the fixed one of `cargo test`.

use proc_macro2::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};
use quote::quote;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A small deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

/// Items the mutations start from: every construct the attributes handle.
fn corpus() -> Vec<TokenStream> {
    vec![
        quote! {
            fn f(x: f64, y: &[f64], k: usize) -> f64 {
                let mut s = y[0];
                for i in 0..k { s -= y[i] * x; }
                if s > 0.0 { s.sqrt() } else { x.powf(2.0) }
            }
        },
        quote! {
            fn g(a: [[f64; 3]; 3], x: &[f64; 3], v: Vec<Vec<f64>>) -> Vec<f64> {
                let t = |u: f64| u * u;
                x.iter().zip(&a).map(|(p, q)| t(*p) + q[0] + v[0][0]).collect()
            }
        },
        quote! {
            fn h(p: Bar, z: ([f64; 2]), w: (f64)) -> Result<f64, E> {
                let q = normal_lpdf(z[0], p.x, 1.0)?;
                Ok(q + w as f64 + z.iter().fold(f64::NEG_INFINITY, f64::max))
            }
        },
        quote! {
            impl Model {
                fn new(d: &[f64]) -> Self { Model { d: d.to_vec() } }
                fn lp(&self, t: &[f64]) -> f64 { self.d.iter().map(|x| (x - t[0]).powi(2)).sum() }
            }
        },
        quote! {
            mod m {
                fn sq(v: f64) -> f64 { v * v }
                #[differentiate(wrt(x))]
                pub fn loss(x: &[f64], c: f64) -> f64 { let mut t = 0f64; for v in x { t += sq(*v - c); } t }
            }
        },
        quote! {
            struct Bar { x: f64, y: [f64; 2], label: String }
        },
        quote! {
            fn r(x: f64, w: &[f64]) -> f64 { x * w.len() as f64 }
        },
        // Only scalars: the partials form and `adjoint = ..` take other paths than above.
        quote! {
            fn e(x: f64) -> f64 { x.exp() }
        },
        quote! {
            fn e2(x: f64, y: f64) -> f64 { x.exp() * y }
        },
    ]
}

/// Attribute arguments, valid and not.
fn attrs() -> Vec<TokenStream> {
    vec![
        quote!(),
        quote!(wrt(x)),
        quote!(wrt(x, y), grad = other),
        quote!(jacobian = j),
        quote!(wrt()),
        quote!(x => x.cos(), y => y),
        quote!(adjoint = path::to),
        quote!(data(w), x => 1.0),
        quote!(=> , ,),
        quote!(wrt(1.0)),
        quote!(grad = 3),
        quote!(x =>),
    ]
}

/// Tokens spliced in as junk, and types swapped in for types.
fn junk() -> Vec<TokenStream> {
    vec![
        quote!(f64),
        quote!(([f64; 2])),
        quote!((f64)),
        quote!(&mut [f64]),
        quote!(impl Fn(f64) -> f64),
        quote!(dyn Tr),
        quote!(!),
        quote!(_),
        quote!(Vec<Vec<f64>>),
        quote!(<T as Tr>::Out),
        quote!(#[differentiate]),
        quote!(async),
        quote!(self),
        quote!(as f64),
        quote!(?),
        quote!(..),
        quote!(;),
        quote!(return),
        quote!('a),
        quote!(&),
    ]
}

fn mutate(ts: TokenStream, rng: &mut Rng, rate: u64) -> TokenStream {
    let junk = junk();
    let mut out = Vec::new();
    for tt in ts {
        if rng.next() % rate != 0 {
            out.push(match tt {
                TokenTree::Group(g) => {
                    let inner = mutate(g.stream(), rng, rate);
                    let mut ng = Group::new(g.delimiter(), inner);
                    ng.set_span(g.span());
                    TokenTree::Group(ng)
                }
                other => other,
            });
            continue;
        }
        match rng.below(7) {
            0 => {}
            1 => {
                out.push(tt.clone());
                out.push(tt);
            }
            2 => out.extend(rng.pick(&junk).clone()),
            3 => out.push(TokenTree::Ident(Ident::new("S", Span::call_site()))),
            4 => out.push(TokenTree::Literal(Literal::f64_unsuffixed(1.5))),
            5 => out.push(TokenTree::Group(Group::new(
                *rng.pick(&[Delimiter::None, Delimiter::Parenthesis, Delimiter::Bracket]),
                TokenStream::from(tt),
            ))),
            _ => out.push(TokenTree::Punct(Punct::new(
                *rng.pick(&[',', ':', '<', '>', '=', '#', '-']),
                Spacing::Alone,
            ))),
        }
    }
    out.into_iter().collect()
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn attributes_never_panic() {
    let seed = env("FAZANG_MACRO_FUZZ_SEED", 2026);
    let cases = env("FAZANG_MACRO_FUZZ_CASES", 1500);
    let mut rng = Rng(seed);
    let (corpus, attrs) = (corpus(), attrs());
    for case in 0..cases {
        let rate = 4 + rng.next() % 60;
        let item = mutate(rng.pick(&corpus).clone(), &mut rng, rate);
        let attr = mutate(rng.pick(&attrs).clone(), &mut rng, 8);
        for (name, f) in [
            (
                "differentiate",
                crate::differentiate::expand as fn(_, _) -> _,
            ),
            ("deriv_rule", crate::rule::expand as fn(_, _) -> _),
        ] {
            let (a, i) = (attr.clone(), item.clone());
            let r = catch_unwind(AssertUnwindSafe(|| f(a, i)));
            let Ok(out) = r else {
                panic!("#[{name}({attr})] panicked on case {case} (seed {seed}):\n{item}");
            };
            let wrote_s = mentions_s(&item) || mentions_s(&attr);
            for msg in messages(out) {
                assert!(
                    !speaks_of_generated_code(&msg, wrote_s),
                    "#[{name}({attr})] on case {case} (seed {seed}) names what the user did \
                     not write: {msg}\n{item}"
                );
            }
        }
    }
}

/// The texts of the `compile_error!`s of an expansion.
fn messages(ts: TokenStream) -> Vec<String> {
    let mut out = Vec::new();
    let mut after_compile_error = false;
    for tt in ts {
        match tt {
            TokenTree::Ident(i) => after_compile_error = i == "compile_error",
            TokenTree::Group(g) if after_compile_error => {
                out.extend(g.stream().into_iter().find_map(|t| match t {
                    TokenTree::Literal(l) => Some(l.to_string()),
                    _ => None,
                }));
                after_compile_error = false;
            }
            TokenTree::Group(g) => out.extend(messages(g.stream())),
            TokenTree::Punct(_) | TokenTree::Literal(_) => {}
        }
    }
    out
}

fn mentions_s(ts: &TokenStream) -> bool {
    ts.clone().into_iter().any(|t| match t {
        TokenTree::Ident(i) => i == "S",
        TokenTree::Group(g) => mentions_s(&g.stream()),
        _ => false,
    })
}

/// Whether a message names the generated scalar `S` (when the user wrote none), the hidden
/// module or a generated `__fz..` identifier.
fn speaks_of_generated_code(msg: &str, wrote_s: bool) -> bool {
    let code = msg.split('`').skip(1).step_by(2);
    let words: Vec<&str> = code
        .flat_map(|c| c.split(|ch: char| !(ch.is_alphanumeric() || ch == '_')))
        .collect();
    words
        .iter()
        .any(|w| *w == "__private" || w.starts_with("__fz") || w.starts_with("__Fz"))
        || (!wrote_s && words.contains(&"S"))
}

#[test]
fn the_message_check_finds_generated_names() {
    assert!(speaks_of_generated_code("found `&[S]`", false));
    assert!(!speaks_of_generated_code("found `&[S]`", true));
    assert!(speaks_of_generated_code(
        "`fazang::__private::Seed` is missing",
        true
    ));
    assert!(speaks_of_generated_code(
        "`__fza_beta` does not live long enough",
        true
    ));
    assert!(!speaks_of_generated_code(
        "S is a letter; `x` is fine",
        false
    ));
    let out = quote!(fn f() {}, ::core::compile_error! { "no `x`" });
    assert_eq!(messages(out), ["\"no `x`\""]);
}
