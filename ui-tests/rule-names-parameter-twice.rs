use fazang::prelude::*;

#[deriv_rule(a => b, b => a, a => b)]
fn mul2(a: f64, b: f64) -> f64 {
    a * b
}

fn main() {}
