//! Fitting a model with argmin's L-BFGS through a `#[differentiate]` gradient.
//!
//! A logistic regression, `P(yᵢ = 1) = σ(β₀ + β₁ xᵢ₁ + β₂ xᵢ₂)`, fitted by maximum
//! likelihood to 500 simulated rows: argmin minimises the negative log-likelihood, asking
//! for its value (`CostFunction`) and its gradient (`Gradient`, from `_grad`).
//!
//! Run with `cargo run --example optimize`.

use argmin::core::{CostFunction, Error, Executor, Gradient, State};
use argmin::solver::linesearch::MoreThuenteLineSearch;
use argmin::solver::quasinewton::LBFGS;
use fazang::prelude::*;

/// Negative log-likelihood of the coefficients `beta` (intercept first) for row-major
/// features `x` (two per row) and 0/1 outcomes `y`.
#[differentiate(wrt(beta))]
fn neg_log_lik(beta: &[f64], x: &[f64], y: &[f64]) -> f64 {
    let mut nll = 0.0;
    for (row, &yi) in x.chunks(2).zip(y) {
        let eta = beta[0] + beta[1] * row[0] + beta[2] * row[1];
        // -[y η - ln(1 + e^η)]
        nll += eta.exp().ln_1p() - yi * eta;
    }
    nll
}

/// The problem argmin sees: the data, and the cost and gradient of `neg_log_lik`.
struct Logistic {
    x: Vec<f64>,
    y: Vec<f64>,
}

impl CostFunction for Logistic {
    type Param = Vec<f64>;
    type Output = f64;
    fn cost(&self, beta: &Vec<f64>) -> Result<f64, Error> {
        Ok(neg_log_lik(beta, &self.x, &self.y))
    }
}

impl Gradient for Logistic {
    type Param = Vec<f64>;
    type Gradient = Vec<f64>;
    fn gradient(&self, beta: &Vec<f64>) -> Result<Vec<f64>, Error> {
        // One recorded evaluation and one backward sweep.
        let (_, g) = neg_log_lik_grad(beta, &self.x, &self.y);
        Ok(g)
    }
}

/// 500 rows from known coefficients (a small deterministic generator, so the example
/// needs no randomness crate).
fn simulate(beta: [f64; 3]) -> Logistic {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut uniform = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let (mut x, mut y) = (Vec::new(), Vec::new());
    for _ in 0..500 {
        let (x1, x2) = (4.0 * uniform() - 2.0, 4.0 * uniform() - 2.0);
        let p = 1.0 / (1.0 + (-(beta[0] + beta[1] * x1 + beta[2] * x2)).exp());
        x.extend([x1, x2]);
        y.push(f64::from(uniform() < p));
    }
    Logistic { x, y }
}

fn main() -> Result<(), Error> {
    let truth = [-0.5, 1.5, -2.0];
    let problem = simulate(truth);
    let solver = LBFGS::new(MoreThuenteLineSearch::new(), 7)
        .with_tolerance_grad(1e-10)?
        .with_tolerance_cost(1e-14)?;
    let result = Executor::new(problem, solver)
        .configure(|state| state.param(vec![0.0; 3]).max_iters(100))
        .run()?;
    let state = result.state();
    let beta = state.get_best_param().expect("L-BFGS keeps its best point");
    println!("true coefficients:   {truth:?}");
    println!("fitted coefficients: {beta:.4?}");
    let counts = &result.problem.counts;
    println!(
        "negative log-likelihood {:.6} after {} iterations ({} costs, {} gradients)",
        state.get_best_cost(),
        state.get_iter(),
        counts.get("cost_count").unwrap_or(&0),
        counts.get("gradient_count").unwrap_or(&0)
    );
    let problem = result
        .problem
        .problem
        .as_ref()
        .expect("the problem is returned");
    let (_, g) = neg_log_lik_grad(beta, &problem.x, &problem.y);
    let norm = g.iter().map(|gi| gi * gi).sum::<f64>().sqrt();
    println!("gradient norm at the fit: {norm:.1e}");
    Ok(())
}
