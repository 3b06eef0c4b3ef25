use fazang::prelude::*;

// A partial written with an `f32` literal: partials are `f64`s.
#[deriv_rule(x => 1_f32 + x.exp())]
fn softplus_ish(x: f64) -> f64 {
    x + x.exp()
}

fn main() {}
