//! Fazang's quick-start example: the log of a normal density at y = 1.3 and its gradient
//! with respect to mu and sigma, written as an ordinary f64 function.
use fazang::prelude::*;

#[differentiate]
fn normal_lp(mu: f64, sigma: f64) -> f64 {
    let y = 1.3;
    -0.5 * (2.0 * std::f64::consts::PI).ln() - sigma.ln() - 0.5 * ((y - mu) / sigma).powi(2)
}

fn main() {
    // The primal: the function as written, on f64.
    let v = normal_lp(0.5, 1.2);
    // Value and gradient [df/dmu, df/dsigma]: adjoint code the macro generated from the
    // body (a forward and a reverse sweep in plain f64, no tape).
    let (v2, g) = normal_lp_grad(0.5, 1.2);
    assert_eq!(v, v2);
    println!("f(mu = 0.5, sigma = 1.2) = {v}");
    println!("df/dmu    = {}", g[0]);
    println!("df/dsigma = {}", g[1]);
    // Second derivatives: the tangent of that adjoint code, on dual numbers.
    let (_, _, h) = normal_lp_hessian(0.5, 1.2);
    println!("Hessian   = {h:?}");

    // The same with Fazang's runtime API: Vars, a tape, and a backward sweep.
    let mu = Var::new(0.5);
    let sigma = Var::new(1.2);
    let f =
        -0.5 * (2.0 * std::f64::consts::PI).ln() - sigma.ln() - 0.5 * ((1.3 - mu) / sigma).powi(2);
    f.grad();
    println!(
        "runtime API: f = {f}, df/dmu = {}, df/dsigma = {}",
        mu.adj(),
        sigma.adj()
    );
}
