use fazang::prelude::*;

#[differentiate(unknown)]
fn f(x: f64) -> f64 {
    x * x
}

fn main() {
    // Only the attribute's error is reported: `f` itself still exists.
    let _ = f(2.0);
}
