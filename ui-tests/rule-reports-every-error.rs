use fazang::prelude::*;

#[deriv_rule(a => b, c => 1.0, a => 0.0, bogus = 1)]
fn mul2(a: f64, b: f64) -> Vec<f64> {
    vec![a * b]
}

fn main() {}
