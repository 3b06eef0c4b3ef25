use fazang::prelude::*;

#[differentiate]
fn pair(x: f64) -> (f64, f64) {
    (x, x * x)
}

fn main() {}
