use fazang::prelude::*;

#[deriv_rule(adjoin = foo_adjoint)]
fn foo(x: f64) -> f64 {
    x.sin()
}

fn foo_adjoint(x: f64, _out: f64, ds: f64) -> f64 {
    ds * x.cos()
}

fn main() {}
