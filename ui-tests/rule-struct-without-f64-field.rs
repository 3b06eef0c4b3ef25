use fazang::prelude::*;

#[deriv_rule]
struct Config {
    steps: usize,
    name: String,
}

fn main() {}
