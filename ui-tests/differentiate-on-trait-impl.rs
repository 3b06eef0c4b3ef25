use fazang::prelude::*;

trait Model {
    fn log_density(&self, theta: &[f64]) -> f64;
}

struct Line;

// The methods of a trait impl keep the trait's signatures: they cannot become generic.
#[differentiate]
impl Model for Line {
    fn log_density(&self, theta: &[f64]) -> f64 {
        -theta[0] * theta[0]
    }
}

fn main() {}
