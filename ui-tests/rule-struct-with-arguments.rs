use fazang::prelude::*;

#[deriv_rule(x => 1.0)]
struct Bar {
    x: f64,
}

fn main() {}
