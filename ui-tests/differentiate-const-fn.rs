use fazang::prelude::*;

#[differentiate]
const fn f(x: f64) -> f64 {
    x * x
}

fn main() {}
