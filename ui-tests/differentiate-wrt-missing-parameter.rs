use fazang::prelude::*;

#[differentiate(wrt(mu, sgima))]
fn lp(mu: f64, sigma: f64) -> f64 {
    -mu * mu / (sigma * sigma)
}

fn main() {}
