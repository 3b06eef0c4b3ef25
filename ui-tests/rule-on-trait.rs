use fazang::prelude::*;

#[deriv_rule]
trait Density {
    fn log_density(&self, x: f64) -> f64;
}

fn main() {}
