use fazang::prelude::*;

#[differentiate(order = 2)]
fn f(x: f64) -> f64 {
    x * x
}

fn main() {}
