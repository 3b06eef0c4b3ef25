//! Constraining transforms and multivariate densities inside `#[differentiate]` bodies,
//! written the Stan way (`let mut lp = 0.0; .. &mut lp ..`): `_grad`, `_grad_into`,
//! `_hessian` and `_jvp` against finite differences of the primal. (`reduce_sum` inside a
//! body: tests/bayes_reduce_sum.rs.)

#[path = "support/close.rs"]
mod close;

use close::{assert_all_close, assert_close};
use fazang::prelude::*;

fn fd_gradient(f: impl Fn(&[f64]) -> f64, x: &[f64]) -> Vec<f64> {
    (0..x.len())
        .map(|i| {
            let h = 1e-4 * x[i].abs().max(1.0);
            let at = |d: f64| {
                let mut z = x.to_vec();
                z[i] += d;
                f(&z)
            };
            (at(-2.0 * h) - 8.0 * at(-h) + 8.0 * at(h) - at(2.0 * h)) / (12.0 * h)
        })
        .collect()
}

#[differentiate(wrt(theta))]
fn eight_schools(theta: &[f64], y: &[f64], sigma: &[f64]) -> Result<f64, DomainError> {
    let mut lp = 0.0;
    let mu = theta[0];
    let tau = lb_constrain(theta[1], 0.0, &mut lp);
    let eta = &theta[2..];
    let means: Vec<f64> = eta.iter().map(|e| mu + tau * e).collect();
    lp += normal_lpdf(mu, 0.0, 5.0)? + cauchy_lpdf(tau, 0.0, 5.0)?;
    lp += normal_lpdf(eta, 0.0, 1.0)? + normal_lpdf(y, &means, sigma)?;
    Ok(lp)
}

const Y: [f64; 8] = [28.0, 8.0, -3.0, 7.0, -1.0, 1.0, 18.0, 12.0];
const SIGMA: [f64; 8] = [15.0, 10.0, 16.0, 11.0, 9.0, 11.0, 10.0, 18.0];

#[test]
fn eight_schools_every_derivative() {
    let theta = [4.0, 1.0, 0.1, -0.2, 0.0, 0.3, 0.5, -0.1, 0.2, 0.0];
    let f = |t: &[f64]| eight_schools(t, &Y, &SIGMA).unwrap();
    let (lp, g) = eight_schools_grad(&theta, &Y, &SIGMA).unwrap();
    assert_eq!(lp, f(&theta));
    assert_all_close(&g, &fd_gradient(f, &theta), 1e-8, "_grad");
    let mut buf = [0.0; 10];
    let v = eight_schools_grad_into(&theta, &Y, &SIGMA, &mut buf).unwrap();
    assert_eq!((v, buf.to_vec()), (lp, g.clone()), "_grad_into");
    let (hv, hg, h) = eight_schools_hessian(&theta, &Y, &SIGMA).unwrap();
    assert_close(hv, lp, 1e-15, "_hessian value");
    assert_all_close(&hg, &g, 1e-13, "_hessian gradient");
    for (i, hi) in h.iter().enumerate() {
        let row = fd_gradient(|t| eight_schools_grad(t, &Y, &SIGMA).unwrap().1[i], &theta);
        assert_all_close(hi, &row, 1e-7, &format!("_hessian row {i}"));
    }
    let dir: Vec<f64> = (0..10).map(|i| 0.1 * i as f64 - 0.4).collect();
    let (jv, d) = eight_schools_jvp(&theta, &Y, &SIGMA, &dir).unwrap();
    let want: f64 = g.iter().zip(&dir).map(|(a, b)| a * b).sum();
    assert_eq!(jv, lp);
    assert_close(d, want, 1e-12, "_jvp");
    // A domain error comes back through every item.
    assert!(eight_schools_grad(&theta, &Y, &[-1.0; 8]).is_err());
}

#[differentiate(wrt(p))]
fn lkj_model(p: &[f64], y: &[Vec<f64>]) -> Result<f64, DomainError> {
    let mut lp = 0.0;
    let l_corr = cholesky_corr_constrain(&p[0..3], 3, &mut lp);
    let tau: Vec<f64> = p[3..6]
        .iter()
        .map(|&t| lb_constrain(t, 0.0, &mut lp))
        .collect();
    let l: Vec<Vec<f64>> = (0..3)
        .map(|i| l_corr[i].iter().map(|&v| tau[i] * v).collect())
        .collect();
    lp += lkj_corr_cholesky_lpdf(&l_corr, 2.0)? + cauchy_lpdf(&tau, 0.0, 2.5)?;
    lp += multi_normal_cholesky_lpdf(y, &p[6..9], &l)?;
    Ok(lp)
}

#[test]
fn lkj_hierarchical_model_every_derivative() {
    let y = vec![
        vec![0.1, 0.5, -0.2],
        vec![1.0, 0.3, 0.2],
        vec![-0.4, 0.1, 0.9],
    ];
    let p = [0.1, -0.2, 0.3, 0.0, 0.1, -0.1, 0.2, 0.0, 0.1];
    let f = |p: &[f64]| lkj_model(p, &y).unwrap();
    // The gradient is adjoint code (naming the hidden `__lkj_model_adjoint` fails to
    // compile otherwise): rows in the core form, the factor's Jacobian on forward lanes.
    let _adjoint_code = __lkj_model_adjoint;
    for q in [p, [1.5, -2.0, 0.7, -1.0, 2.0, 0.5, -0.3, 0.4, 1.2]] {
        let (v, g) = lkj_model_grad(&q, &y).unwrap();
        assert_eq!(v, f(&q));
        assert_all_close(&g, &fd_gradient(f, &q), 1e-8, "_grad");
        let (vt, gt) = __lkj_model_grad_tape(&q, &y).unwrap();
        assert_eq!(v, vt);
        assert_all_close(&g, &gt, 1e-12, "_grad against the tape");
    }
    // A domain error comes back from the adjoint code.
    assert!(lkj_model_grad(&p, &[vec![0.1, 0.5]]).is_err());
    let (_, _, h) = lkj_model_hessian(&p, &y).unwrap();
    for (i, hi) in h.iter().enumerate() {
        let row = fd_gradient(|p| lkj_model_grad(p, &y).unwrap().1[i], &p);
        assert_all_close(hi, &row, 1e-6, &format!("_hessian row {i}"));
    }
}

/// A mixture of counts: a simplex with a Dirichlet prior, ordered cut points, a
/// covariance matrix with a Wishart prior, all through transforms.
#[differentiate(wrt(p))]
fn constrained_zoo(p: &[f64], counts: &[i64]) -> Result<f64, DomainError> {
    let mut lp = 0.0;
    let theta = simplex_constrain(&p[0..3], &mut lp);
    let cuts = ordered_constrain(&p[3..5], &mut lp);
    let sigma = cov_matrix_constrain(&p[5..8], 2, &mut lp);
    let scale = lub_constrain(p[8], 0.5, 3.0, &mut lp);
    lp += dirichlet_lpdf(&theta, &[2.0, 2.0, 2.0, 2.0])?;
    lp += multinomial_lpmf(counts, &theta)?;
    lp += normal_lpdf(&cuts, 0.0, scale)?;
    lp += wishart_lpdf(&sigma, 4.0, &[vec![1.0, 0.0], vec![0.0, 1.0]])?;
    Ok(lp)
}

#[test]
fn transforms_of_every_shape_in_one_body() {
    let p = [0.2, -0.4, 0.1, -1.0, 0.3, 0.1, -0.2, 0.3, 0.5];
    let counts = [3, 1, 0, 6];
    let f = |p: &[f64]| constrained_zoo(p, &counts).unwrap();
    let (v, g) = constrained_zoo_grad(&p, &counts).unwrap();
    assert_eq!(v, f(&p));
    assert_all_close(&g, &fd_gradient(f, &p), 1e-8, "_grad");
    let (_, _, h) = constrained_zoo_hessian(&p, &counts).unwrap();
    for (i, hi) in h.iter().enumerate() {
        let row = fd_gradient(|p| constrained_zoo_grad(p, &counts).unwrap().1[i], &p);
        assert_all_close(hi, &row, 1e-6, &format!("_hessian row {i}"));
    }
}
