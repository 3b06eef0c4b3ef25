use fazang::prelude::*;

// A by-value UpperCamelCase parameter is taken to be a #[deriv_rule] struct. rustc first
// reports the generic argument the macro gives it (E0107), then fazang's explanation
// (E0277): register the struct, or leave the parameter out with wrt(...).
#[derive(Clone)]
struct Config {
    scale: f64,
}

#[differentiate]
fn f(x: f64, cfg: Config) -> f64 {
    x * cfg.scale
}

fn main() {}
