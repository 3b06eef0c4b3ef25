use fazang::prelude::*;

#[differentiate]
struct Point {
    x: f64,
}

fn main() {}
