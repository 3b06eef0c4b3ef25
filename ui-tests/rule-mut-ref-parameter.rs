use fazang::prelude::*;

#[deriv_rule(x => 2.0)]
fn double_in_place(x: &mut f64) -> f64 {
    *x *= 2.0;
    *x
}

fn main() {}
