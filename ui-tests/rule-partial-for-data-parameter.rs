use fazang::prelude::*;

#[deriv_rule(x => n as f64 * x.powi(n as i32 - 1), n => 0.0)]
fn power(x: f64, n: usize) -> f64 {
    x.powi(n as i32)
}

fn main() {}
