use fazang::prelude::*;

#[derive(Clone)]
struct Bar {
    x: f64,
    y: f64,
}

#[deriv_rule(z => Bar { x: 2.0 * z.x, y: 2.0 * z.y })]
fn norm(z: Bar) -> f64 {
    z.x * z.x + z.y * z.y
}

fn main() {}
