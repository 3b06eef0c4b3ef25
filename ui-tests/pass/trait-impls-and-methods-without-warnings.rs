// #[differentiate] on a trait impl and on one method of an impl block: no warning in the
// user's crate (the trait's methods called only from each other stay used), and the
// generated items work.
#![deny(warnings)]

use fazang::prelude::*;

trait Posterior {
    fn log_prior(&self, theta: &[f64]) -> f64;
    fn log_likelihood(&self, theta: &[f64]) -> f64;
    fn log_posterior(&self, theta: &[f64]) -> f64;
    fn name(&self) -> &str;
}

struct Normal {
    y: Vec<f64>,
}

#[differentiate]
impl Posterior for Normal {
    fn log_prior(&self, theta: &[f64]) -> f64 {
        -0.5 * theta[0] * theta[0]
    }

    fn log_likelihood(&self, theta: &[f64]) -> f64 {
        self.y.iter().map(|y| -0.5 * (y - theta[0]).powi(2)).sum()
    }

    fn log_posterior(&self, theta: &[f64]) -> f64 {
        self.log_prior(theta) + self.log_likelihood(theta)
    }

    fn name(&self) -> &str {
        "normal"
    }
}

struct Spring {
    k: f64,
}

impl Spring {
    #[differentiate]
    fn energy(&self, x: f64) -> f64 {
        0.5 * self.k * x * x
    }
}

fn main() {
    let m = Normal { y: vec![1.0, 2.0] };
    let (v, g) = m.log_posterior_grad(&[0.5]);
    assert_eq!(v, -0.125 - 0.125 - 1.125);
    assert_eq!(g, vec![-0.5 + 0.5 + 1.5]);
    assert_eq!(m.name(), "normal");
    let (e, de) = Spring { k: 2.0 }.energy_grad(3.0);
    assert_eq!((e, de), (9.0, [6.0]));
}
