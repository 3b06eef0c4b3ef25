use fazang::prelude::*;

#[differentiate]
extern "C" fn f(x: f64) -> f64 {
    x * x
}

fn main() {}
