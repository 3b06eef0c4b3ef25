use fazang::prelude::*;

pub struct Fit {
    pub value: f64,
    pub iterations: usize,
}

// A result named by a capitalised type is taken for an alias of an f64 array or vector
// (`type State = [f64; 2];`); a body that builds a `Fit { .. }` shows it is a struct,
// which has no gradient or Jacobian: refused at the result type, with the way out.
#[differentiate]
fn fit(x: f64) -> Fit {
    let v = x.exp();
    Fit {
        value: v * 2.0,
        iterations: 3,
    }
}

fn main() {}
