use fazang::prelude::*;

#[deriv_rule]
struct Pair<T> {
    x: f64,
    tag: T,
}

fn main() {}
