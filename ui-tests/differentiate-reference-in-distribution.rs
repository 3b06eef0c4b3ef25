use fazang::prelude::*;

// A reference to a number given to a distribution: it takes the number (`*scale`).
#[differentiate(wrt(beta))]
fn log_prior(beta: &[f64], scale: &f64) -> Result<f64, DomainError> {
    normal_lpdf(beta, 0.0, scale)
}

fn main() {}
