//! ReverseDiffSource's `@deriv_rule` example: teach fazang the derivative of
//! `foo(x) = log(1 + sin(x))`, then differentiate `2^foo(x)`.
//!
//! Run with `cargo run --example custom_rule`.
use fazang::check_deriv_rule;
use fazang::prelude::*;

/// The body computes the value only; the tape records the rule's partial.
#[deriv_rule(x => x.cos() / (1.0 + x.sin()))]
fn foo(x: f64) -> f64 {
    (1.0 + x.sin()).ln()
}

/// `2^foo(x)`; `foo` is called like any other function.
#[differentiate]
fn two_to_the_foo(x: f64) -> f64 {
    (foo(x) * std::f64::consts::LN_2).exp()
}

fn main() {
    let x = 0.8;
    println!("foo({x})           = {}", foo(x));

    // Through #[differentiate]:
    let (v, g) = two_to_the_foo_grad(x);
    println!("2^foo({x})         = {v}");
    println!("d/dx 2^foo(x)     = {}", g[0]);
    let closed = v * std::f64::consts::LN_2 * x.cos() / (1.0 + x.sin());
    println!("closed form       = {closed}");

    // With the runtime API: one node on the tape per call.
    let xv = Var::new(x);
    let y = foo(xv);
    y.grad();
    println!("d foo/dx (Var)    = {}", xv.adj());
    println!("nodes on the tape = {} (x and foo(x))", tape_stats().nodes);
    clear_tape();

    // Check the rule against finite differences before trusting it.
    let check = check_deriv_rule(|x| foo(x[0]), |x| foo(x[0]), &[[-0.5], [0.3], [x]]);
    check.assert_ok(1e-8);
    println!("rule check        : {check}");
}
