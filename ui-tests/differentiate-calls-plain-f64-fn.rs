use fazang::prelude::*;

// A plain f64 function: it cannot take an active value.
fn square(v: f64) -> f64 {
    v * v
}

#[differentiate]
fn f(x: f64) -> f64 {
    square(x) + 1.0
}

fn main() {}
