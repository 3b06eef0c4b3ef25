use fazang::prelude::*;

#[differentiate(wrt(x, n))]
fn power(x: f64, n: i32) -> f64 {
    x.powi(n)
}

fn main() {}
