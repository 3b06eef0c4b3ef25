use fazang::prelude::*;

#[differentiate]
fn count(n: usize, name: &str) -> f64 {
    n as f64 + name.len() as f64
}

fn main() {}
