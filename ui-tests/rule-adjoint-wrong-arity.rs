use fazang::prelude::*;

#[deriv_rule(adjoint = scale_adjoint)]
fn scale(a: f64, x: &[f64]) -> Vec<f64> {
    x.iter().map(|v| a * v).collect()
}

// Missing the output adjoint `ds`: should be
// fn(a: f64, x: &[f64], out: &[f64], ds: &[f64]) -> (f64, Vec<f64>)
fn scale_adjoint(a: f64, x: &[f64], out: &[f64]) -> (f64, Vec<f64>) {
    let _ = out;
    (x.iter().sum(), vec![a; x.len()])
}

fn main() {}
