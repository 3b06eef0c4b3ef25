use fazang::prelude::*;

#[deriv_rule(x => vec![2.0; x.len()])]
fn double(x: &[f64]) -> Vec<f64> {
    x.iter().map(|v| 2.0 * v).collect()
}

fn main() {}
