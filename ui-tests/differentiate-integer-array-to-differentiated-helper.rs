use fazang::prelude::*;

#[differentiate]
fn rotation(angles: &[f64; 2]) -> f64 {
    angles[0].sin() * angles[1].cos()
}

// The angles are given as integers (degrees) by mistake: the error is at the call.
#[differentiate]
fn rotate(angles: &[i32; 2], p: [f64; 2]) -> f64 {
    let r = rotation(angles);
    r * p[0] + p[1]
}

fn main() {}
