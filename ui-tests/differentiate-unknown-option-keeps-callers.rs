use fazang::prelude::*;

// An unknown option is reported, and the function is still differentiated without it:
// the function calling it, and the calls of both `_grad`s, give no second wave of errors.
#[differentiate(speed = "max")]
fn square(x: f64) -> f64 {
    x * x
}

#[differentiate]
fn model(x: f64, y: f64) -> f64 {
    square(x) + x * y
}

fn main() {
    let (_, g) = model_grad(1.0, 2.0);
    let (_, h) = square_grad(3.0);
    println!("{g:?} {h:?}");
}
