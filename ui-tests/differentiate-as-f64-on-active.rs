use fazang::prelude::*;

#[differentiate]
fn f(x: f64) -> f64 {
    let y = x as f64;
    y * y
}

fn main() {}
