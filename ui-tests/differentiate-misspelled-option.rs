use fazang::prelude::*;

#[differentiate(wrtt(x))]
fn f(x: f64, y: f64) -> f64 {
    x * y
}

fn main() {}
