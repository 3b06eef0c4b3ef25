//! `#[differentiate]` on a trait implementation and on one method of a plain `impl`
//! block, as models are written: a `Model` trait implemented by a Student-t likelihood,
//! methods calling each other, the trait used from generic code. Derivatives are
//! checked against closed forms and finite differences.

mod body_support;
use body_support::{assert_close, fd_grad, fd_jacobian};
use fazang::prelude::*;

trait Model {
    fn log_density(&self, theta: &[f64]) -> f64;
    fn dim(&self) -> usize;
}

/// y_i ~ Student-t(nu, mu, sigma), theta = (mu, log sigma); constants dropped.
struct StudentT {
    y: Vec<f64>,
    nu: f64,
}

#[differentiate]
impl Model for StudentT {
    fn log_density(&self, theta: &[f64]) -> f64 {
        let (mu, log_sigma) = (theta[0], theta[1]);
        let sigma = log_sigma.exp();
        let mut lp = 0.0;
        for y in &self.y {
            let z = (y - mu) / sigma;
            lp -= 0.5 * (self.nu + 1.0) * (z * z / self.nu).ln_1p() + log_sigma;
        }
        lp
    }

    fn dim(&self) -> usize {
        2
    }
}

fn student() -> StudentT {
    StudentT {
        y: vec![0.3, -1.2, 2.5, 0.8, 1.1],
        nu: 4.0,
    }
}

/// Generic code sees the trait, with the user's f64 signature.
fn evaluate<M: Model>(m: &M, theta: &[f64]) -> (usize, f64) {
    (m.dim(), m.log_density(theta))
}

/// d lp / d mu = Σ (nu + 1) z / (sigma (nu + z²)), d lp / d log sigma = Σ ((nu + 1) z² /
/// (nu + z²) - 1).
fn student_grad(m: &StudentT, theta: &[f64]) -> Vec<f64> {
    let sigma = theta[1].exp();
    let mut g = vec![0.0, 0.0];
    for y in &m.y {
        let z = (y - theta[0]) / sigma;
        g[0] += (m.nu + 1.0) * z / (sigma * (m.nu + z * z));
        g[1] += (m.nu + 1.0) * z * z / (m.nu + z * z) - 1.0;
    }
    g
}

#[test]
fn a_trait_impl_keeps_the_trait_and_gains_gradients() {
    let m = student();
    let theta = [0.4, -0.3];
    let (d, v) = evaluate(&m, &theta);
    assert_eq!(d, 2);
    assert_eq!(v, <StudentT as Model>::log_density(&m, &theta));
    let (vg, g) = m.log_density_grad(&theta);
    assert_eq!(vg, v);
    assert_close(&g, &student_grad(&m, &theta), 1e-13);
    assert_close(&g, &fd_grad(|t| m.log_density(t), &theta), 1e-8);
    let (vh, gh, h) = m.log_density_hessian(&theta);
    assert_eq!(vh, v);
    assert_close(&gh, &g, 1e-13);
    let fd_h = fd_jacobian(|t| student_grad(&m, t), &theta);
    for (row, want) in h.iter().zip(&fd_h) {
        assert_close(row, want, 1e-7);
    }
    let mut buf = [0.0; 2];
    assert_eq!(m.log_density_grad_into(&theta, &mut buf), v);
    assert_close(&buf, &g, 1e-15);
    let (_, dv) = m.log_density_jvp(&theta, &[1.0, -2.0]);
    assert!((dv - (g[0] - 2.0 * g[1])).abs() < 1e-12);
}

/// A posterior: the methods of the trait impl call each other with active values.
trait Posterior {
    fn log_prior(&self, theta: &[f64]) -> f64;
    fn log_likelihood(&self, theta: &[f64]) -> f64;
    fn log_posterior(&self, theta: &[f64]) -> f64;
}

struct Regression {
    x: Vec<f64>,
    y: Vec<f64>,
}

#[differentiate]
impl Posterior for Regression {
    fn log_prior(&self, theta: &[f64]) -> f64 {
        -0.5 * theta.iter().map(|t| t * t).sum::<f64>()
    }

    fn log_likelihood(&self, theta: &[f64]) -> f64 {
        self.x
            .iter()
            .zip(&self.y)
            .map(|(x, y)| {
                let r = y - theta[0] - theta[1] * x;
                -0.5 * r * r
            })
            .sum()
    }

    fn log_posterior(&self, theta: &[f64]) -> f64 {
        self.log_prior(theta) + self.log_likelihood(theta)
    }
}

#[test]
fn trait_methods_call_each_other_with_active_values() {
    let r = Regression {
        x: vec![0.0, 1.0, 2.0, 3.0],
        y: vec![0.9, 3.1, 4.8, 7.2],
    };
    let theta = [1.0, 1.8];
    let (v, g) = r.log_posterior_grad(&theta);
    assert_eq!(v, Posterior::log_posterior(&r, &theta));
    // d/da = -a + Σ r, d/db = -b + Σ r x.
    let res: Vec<f64> =
        r.x.iter()
            .zip(&r.y)
            .map(|(x, y)| y - 1.0 - 1.8 * x)
            .collect();
    let want = [
        -1.0 + res.iter().sum::<f64>(),
        -1.8 + res.iter().zip(&r.x).map(|(e, x)| e * x).sum::<f64>(),
    ];
    assert_close(&g, &want, 1e-13);
    let (_, _, h) = r.log_posterior_hessian(&theta);
    let sx: f64 = r.x.iter().sum();
    let sxx: f64 = r.x.iter().map(|x| x * x).sum();
    assert_close(&h[0], &[-1.0 - 4.0, -sx], 1e-13);
    assert_close(&h[1], &[-sx, -1.0 - sxx], 1e-13);
    // Called through a trait object too.
    let dynamic: &dyn Posterior = &r;
    assert_eq!(dynamic.log_posterior(&theta), v);
}

/// One method of a plain impl block carries the attribute; the others are untouched.
struct Pendulum {
    g: f64,
    l: f64,
}

impl Pendulum {
    fn new(g: f64, l: f64) -> Self {
        Pendulum { g, l }
    }

    /// Energy per unit mass at angle `theta` and angular velocity `omega`.
    #[differentiate]
    pub fn energy(&self, theta: f64, omega: f64) -> f64 {
        0.5 * self.l * self.l * omega * omega - self.g * self.l * theta.cos()
    }

    fn describe(&self) -> String {
        format!("pendulum of length {}", self.l)
    }

    const SCALE: f64 = 0.5;

    /// An associated function naming `Self`.
    #[differentiate]
    fn scaled_norm(x: &[f64]) -> f64 {
        Self::SCALE * x.iter().map(|v| v * v).sum::<f64>()
    }
}

#[test]
fn one_method_of_an_impl_block() {
    let p = Pendulum::new(9.81, 0.7);
    assert_eq!(p.describe(), "pendulum of length 0.7");
    let (theta, omega) = (0.3, -1.1);
    let (v, g) = p.energy_grad(theta, omega);
    assert_eq!(v, p.energy(theta, omega));
    assert_close(&g, &[9.81 * 0.7 * theta.sin(), 0.7 * 0.7 * omega], 1e-15);
    let (_, _, h) = p.energy_hessian(theta, omega);
    assert_close(&h[0], &[9.81 * 0.7 * theta.cos(), 0.0], 1e-14);
    assert_close(&h[1], &[0.0, 0.49], 1e-15);
    let x = [1.0, -2.0, 0.5];
    let (v, g) = Pendulum::scaled_norm_grad(&x);
    assert_eq!(v, Pendulum::scaled_norm(&x));
    assert_close(&g, &[1.0, -2.0, 0.5], 1e-15);
}
