use fazang::prelude::*;

#[deriv_rule(x => vec![x.cos()])]
fn foo(x: f64) -> f64 {
    x.sin()
}

fn main() {}
