use fazang::prelude::*;

// `k: f32` is data, and `f32` does not multiply an `f64` (nor an active `f64`).
#[differentiate]
fn scaled(x: f64, k: f32) -> f64 {
    x * k
}

fn main() {}
