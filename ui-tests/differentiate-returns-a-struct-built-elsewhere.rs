use fazang::prelude::*;

pub struct Fit {
    pub value: f64,
    pub iterations: usize,
}

fn summary(value: f64) -> Fit {
    Fit {
        value,
        iterations: 3,
    }
}

// The struct is built by a plain helper, out of the macro's sight: rustc refuses the
// result type (it is not an alias of an f64 array or vector) in fazang's words.
#[differentiate]
fn fit(x: f64) -> Fit {
    let scale = 2.0;
    let _ = x;
    summary(scale)
}

fn main() {}
