use fazang::prelude::*;

#[deriv_rule(x => x.cos() / (1.0 + x.sin()), z => 1.0)]
fn foo(x: f64) -> f64 {
    (1.0 + x.sin()).ln()
}

fn main() {}
