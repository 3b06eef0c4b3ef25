use fazang::prelude::*;

#[differentiate(sparse(colours = 3))]
fn f(x: &[f64]) -> f64 {
    x.windows(2).map(|w| w[0] * w[1]).sum()
}

fn main() {}
