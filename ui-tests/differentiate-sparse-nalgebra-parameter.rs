use fazang::nalgebra::DVector;
use fazang::prelude::*;

#[differentiate(sparse)]
fn f(x: DVector<f64>) -> f64 {
    x.iter().map(|v| v * v).sum()
}

fn main() {}
