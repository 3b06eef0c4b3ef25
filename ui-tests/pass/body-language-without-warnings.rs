#![deny(warnings)]
//! The body language of issue 15 under `#![deny(warnings)]`: data meeting active values,
//! impl blocks and modules, nested shapes; nothing generated may warn.
use fazang::prelude::*;

#[differentiate(wrt(x))]
fn solve(x: &[f64], y: &[f64], k: f64) -> f64 {
    let mut s = y[0];
    for (i, v) in x.iter().enumerate() {
        if k > 0.0 && y[i] < 100.0 {
            s -= v * y[i];
        }
    }
    let n = x.len() as f64;
    f64::max(0.0, s) / n + k.powf(x[0])
}

pub struct Model {
    pub data: Vec<f64>,
}

#[differentiate]
impl Model {
    pub fn new(data: &[f64]) -> Self {
        Model { data: data.to_vec() }
    }

    pub fn log_density(&self, theta: &[f64]) -> f64 {
        self.data.iter().map(|d| -(d - theta[0]).powi(2)).sum()
    }
}

#[differentiate]
pub mod helpers {
    fn sq(v: f64) -> f64 {
        v * v
    }

    pub fn norm(x: &[[f64; 2]]) -> f64 {
        x.iter().map(|p| sq(p[0]) + sq(p[1])).sum::<f64>().sqrt()
    }
}

fn main() {
    let _ = solve_grad(&[1.0], &[2.0], 0.5);
    let m = Model::new(&[1.0, 2.0]);
    let _ = m.log_density_grad(&[0.5]);
    let _ = helpers::norm_grad(&[[3.0, 4.0]]);
}
