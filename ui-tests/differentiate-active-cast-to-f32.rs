use fazang::prelude::*;

// A cast of an active value to a float type would drop its derivative; integer casts
// (`x.floor() as usize`) are fine.
#[differentiate]
fn f(x: &[f64]) -> f64 {
    let bucket = (x[0] * 4.0).floor() as usize;
    let y = (x[1] * x[0]) as f32;
    f64::from(y) + bucket as f64
}

fn main() {}
