use fazang::prelude::*;

#[deriv_rule]
fn foo(x: f64) -> f64 {
    (1.0 + x.sin()).ln()
}

fn main() {}
