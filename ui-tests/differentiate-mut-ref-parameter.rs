use fazang::prelude::*;

#[differentiate]
fn scale(x: &mut f64, k: f64) -> f64 {
    *x *= k;
    *x
}

fn main() {}
