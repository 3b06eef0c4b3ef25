use fazang::prelude::*;

// `wrt` takes a list: `wrt(x)`.
#[differentiate(wrt = x)]
fn f(x: f64, y: f64) -> f64 {
    x * y
}

fn main() {}
