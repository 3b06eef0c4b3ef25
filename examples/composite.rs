//! ReverseDiffSource's composite-type example: a struct `Bar` whose fields are
//! differentiable, a rule for `norm(z::Bar)`, and `z = Bar(2^a, sin(a)); norm(z)`.
//!
//! Run with `cargo run --example composite`.
use fazang::prelude::*;

/// `Bar` still means the plain struct; `Bar<Var>` records.
#[deriv_rule]
#[derive(Debug, Clone, PartialEq)]
struct Bar {
    x: f64,
    y: f64,
}

/// The partial of `norm` with respect to `z` is a `Bar`.
#[deriv_rule(z => Bar { x: 2.0 * z.x, y: 2.0 * z.y })]
fn norm(z: Bar) -> f64 {
    z.x * z.x + z.y * z.y
}

/// ReverseDiffSource's `ex = :(z = Bar(2^a, sin(a)); norm(z))`.
#[differentiate]
fn ex(a: f64) -> f64 {
    let z = Bar {
        x: (a * std::f64::consts::LN_2).exp(),
        y: a.sin(),
    };
    norm(z)
}

/// A `Bar` parameter: the gradient comes back as a `Bar`.
#[differentiate]
fn norm_plus(z: Bar, c: f64) -> f64 {
    norm(z) + c
}

fn main() {
    let a = 1.5;
    let (v, g) = ex_grad(a);
    println!("norm(Bar(2^a, sin a)) at a = {a}: {v}");
    println!("d/da = {}", g[0]);
    let two_a = 2.0_f64.powf(a);
    let closed = 2.0 * two_a * two_a * std::f64::consts::LN_2 + 2.0 * a.sin() * a.cos();
    println!("closed form = {closed}");

    let z = Bar { x: 3.0, y: 4.0 };
    println!("norm({z:?}) = {}", norm(z.clone()));
    let (v, (gz, gc)) = norm_plus_grad(z, 1.0);
    println!("norm_plus = {v}, gradient: z -> {gz:?}, c -> {gc}");
}
