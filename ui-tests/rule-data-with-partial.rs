use fazang::prelude::*;

#[deriv_rule(x => w, w => x, data(w))]
fn weighted(x: f64, w: f64) -> f64 {
    x * w
}

fn main() {}
