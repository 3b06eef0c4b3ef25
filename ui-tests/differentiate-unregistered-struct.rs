use fazang::prelude::*;

#[derive(Clone)]
struct Config {
    scale: f64,
}

#[differentiate]
fn f(x: f64, cfg: Config) -> f64 {
    x * cfg.scale
}

fn main() {}
