use fazang::prelude::*;

trait Model {
    fn log_density(&self, theta: &[f64]) -> f64;
}

// The gradients of a trait impl become inherent methods of the type, which Rust allows
// only for a type of this crate: a newtype around the data is the way out.
#[differentiate]
impl Model for Vec<f64> {
    fn log_density(&self, theta: &[f64]) -> f64 {
        self.iter().map(|y| -(y - theta[0]).powi(2)).sum()
    }
}

fn main() {}
