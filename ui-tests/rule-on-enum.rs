use fazang::prelude::*;

#[deriv_rule]
enum Shape {
    Circle { r: f64 },
    Square { side: f64 },
}

fn main() {}
