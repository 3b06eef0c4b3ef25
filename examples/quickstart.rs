//! Fazang's quick-start example: the log of a normal density and its gradient.
use fazang::prelude::*;

fn main() {
    let y = 1.3;
    let mu = Var::new(0.5);
    let sigma = Var::new(1.2);
    let f =
        -0.5 * (2.0 * std::f64::consts::PI).ln() - sigma.ln() - 0.5 * ((y - mu) / sigma).powi(2);
    f.grad();
    println!("f          = {f}");
    println!("df/d(mu)   = {}", mu.adj());
    println!("df/d(sigma)= {}", sigma.adj());
}
