//! The seeds' examples through `#[differentiate]`, against closed forms.
use fazang::prelude::*;

/// Fazang's log normal density at y = 1.3.
#[differentiate]
fn normal_lp(mu: f64, sigma: f64) -> f64 {
    let y = 1.3;
    -0.5 * (2.0 * std::f64::consts::PI).ln() - sigma.ln() - 0.5 * ((y - mu) / sigma).powi(2)
}

/// ReverseDiffSource's Rosenbrock.
#[differentiate]
fn rosenbrock(x: &[f64]) -> f64 {
    let mut acc = 0.0;
    for i in 0..x.len() - 1 {
        acc += (1.0 - x[i]).powi(2) + 100.0 * (x[i + 1] - x[i] * x[i]).powi(2);
    }
    acc
}

#[test]
fn fazang_log_density() {
    let (mu, sigma, y) = (0.5, 1.2, 1.3_f64);
    let (v, g) = normal_lp_grad(mu, sigma);
    assert_eq!(v, normal_lp(mu, sigma));
    let z = (y - mu) / sigma;
    assert!((g[0] - z / sigma).abs() < 1e-15);
    assert!((g[1] - (-1.0 / sigma + z * z / sigma)).abs() < 1e-15);
}

#[test]
fn rosenbrock_seed_values() {
    let (v, g) = rosenbrock_grad(&[0.5, 2.0]);
    assert_eq!(v, 306.5);
    assert_eq!(g, vec![-351.0, 350.0]);
    assert_eq!(rosenbrock(&[0.5, 2.0]), 306.5);
    let p: fn(&[f64]) -> f64 = rosenbrock;
    let v: Vec<f64> = [0.5, 2.0].to_vec();
    assert_eq!(p(&v), 306.5);
    assert_eq!(rosenbrock(&v), 306.5);
}

/// The same Rosenbrock without the attribute: the primal must be bit-identical.
fn rosenbrock_plain(x: &[f64]) -> f64 {
    let mut acc = 0.0;
    for i in 0..x.len() - 1 {
        acc += (1.0 - x[i]).powi(2) + 100.0 * (x[i + 1] - x[i] * x[i]).powi(2);
    }
    acc
}

#[test]
fn primal_is_bit_identical() {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64 * 4.0 - 2.0
    };
    for _ in 0..1000 {
        let x: Vec<f64> = (0..5).map(|_| next()).collect();
        assert_eq!(rosenbrock(&x).to_bits(), rosenbrock_plain(&x).to_bits());
        assert_eq!(
            rosenbrock_grad(&x).0.to_bits(),
            rosenbrock_plain(&x).to_bits()
        );
        let (mu, sigma) = (x[0], x[1].abs() + 0.1);
        assert_eq!(
            normal_lp(mu, sigma).to_bits(),
            normal_lp_grad(mu, sigma).0.to_bits()
        );
    }
}

mod visibility {
    use fazang::prelude::*;

    /// A documented public function.
    #[inline]
    #[must_use]
    #[differentiate]
    pub fn kept(x: f64) -> f64 {
        x * x
    }
}

#[test]
fn attributes_visibility_and_fn_pointers_kept() {
    // `pub` reaches both the primal and the gradient from outside the module.
    assert_eq!(visibility::kept(3.0), 9.0);
    assert_eq!(visibility::kept_grad(3.0), (9.0, [6.0]));
    let p: fn(f64) -> f64 = visibility::kept;
    assert_eq!(p(2.0), 4.0);
    let q: fn(f64, f64) -> f64 = normal_lp;
    assert_eq!(q(0.5, 1.2), normal_lp(0.5, 1.2));
}
