use fazang::prelude::*;

// `wrt(...)` names one function's parameters: it goes on that function.
#[differentiate(wrt(x))]
mod model {
    pub fn f(x: f64, k: f64) -> f64 {
        x * k
    }
}

fn main() {}
