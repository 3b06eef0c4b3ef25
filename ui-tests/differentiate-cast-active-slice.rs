use fazang::prelude::*;

// `as` on a whole active slice: it is not one number.
#[differentiate]
fn largest(x: &[f64]) -> f64 {
    let m = (x as f32).max(0.0);
    m as f64
}

fn main() {}
