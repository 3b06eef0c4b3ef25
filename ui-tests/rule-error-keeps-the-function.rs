use fazang::prelude::*;

// The rule names a parameter that does not exist; the function is still emitted, so the
// call in main gives no second "cannot find function" error.
#[deriv_rule(y => 1.0)]
fn foo(x: f64) -> f64 {
    x.sin()
}

fn main() {
    let _ = foo(0.5);
}
