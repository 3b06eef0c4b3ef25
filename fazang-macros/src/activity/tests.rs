//! The analysis on small bodies: which bindings it finds active.

use crate::activity::{analyse, Abs};
use crate::model::lower::{lower_body, ParamDecl};
use quote::format_ident;

/// The analysis of `body` with parameters `x` (an active f64), `y` (a data slice) and
/// `k` (a data f64), printed one binding per line.
fn describe(body: syn::Block) -> String {
    let params = ["x", "y", "k"].map(|n| ParamDecl {
        ident: format_ident!("{}", n),
    });
    let model = lower_body(&params, &body);
    let abs = vec![
        Abs::Float(true),
        Abs::Ref(Box::new(Abs::Seq(Box::new(Abs::Float(false))))),
        Abs::Float(false),
    ];
    let act = analyse(&model, abs, Abs::Float(true), &Default::default());
    let text = act.describe(&model);
    println!("{text}");
    text
}

#[test]
fn data_later_given_an_active_value_is_active() {
    let text = describe(syn::parse_quote!({
        let mut s = y[0];
        let t = k * 2.0;
        for i in 0..y.len() {
            s -= y[i] * x;
        }
        s + t
    }));
    assert!(text.contains("s: Float(true)"));
    assert!(text.contains("t: Float(false)"));
    assert!(text.contains("i: Int"));
}

#[test]
fn loops_reach_a_fixed_point() {
    // `b` becomes active only through `a`, which is assigned after `b` reads it.
    let text = describe(syn::parse_quote!({
        let mut a = 0.0;
        let mut b = 0.0;
        for _ in 0..3 {
            b += a;
            a = x;
        }
        b
    }));
    assert!(text.contains("a: Float(true)"));
    assert!(text.contains("b: Float(true)"));
}

#[test]
fn closures_and_iterators_carry_activity() {
    let text = describe(syn::parse_quote!({
        let sq = |t: f64| t * t;
        let d = sq(k);
        let e = sq(x);
        let m = y.iter().fold(f64::NEG_INFINITY, |a, &b| a.max(b));
        let w: Vec<f64> = y.iter().map(|v| v * x).collect();
        d + e + m + w[0]
    }));
    assert!(text.contains("t: Float(true)"));
    assert!(text.contains("d: Float(true)"));
    assert!(text.contains("m: Float(false)"));
    assert!(text.contains("w: Seq(Float(true))"));
}
