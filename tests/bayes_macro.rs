//! Constraining transforms, multivariate densities and `reduce_sum` inside
//! `#[differentiate]` bodies, written the Stan way.

use fazang::prelude::*;

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

#[test]
fn eight_schools_compiles() {
    let y = [28.0, 8.0, -3.0, 7.0, -1.0, 1.0, 18.0, 12.0];
    let sigma = [15.0, 10.0, 16.0, 11.0, 9.0, 11.0, 10.0, 18.0];
    let theta = [4.0, 1.0, 0.1, -0.2, 0.0, 0.3, 0.5, -0.1, 0.2, 0.0];
    let (lp, g) = eight_schools_grad(&theta, &y, &sigma).unwrap();
    assert!(lp.is_finite() && g.len() == 10);
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
fn lkj_model_compiles() {
    let y = vec![vec![0.1, 0.5, -0.2], vec![1.0, 0.3, 0.2]];
    let p = [0.1, -0.2, 0.3, 0.0, 0.1, -0.1, 0.2, 0.0, 0.1];
    let (v, g) = lkj_model_grad(&p, &y).unwrap();
    let (v2, _, h) = lkj_model_hessian(&p, &y).unwrap();
    assert!(v.is_finite() && g.len() == 9 && v == v2 && h.len() == 9);
}

#[differentiate(wrt(beta))]
fn logistic(beta: &[f64], rows: &[(f64, [f64; 2])]) -> f64 {
    reduce_sum(rows, 0, |chunk: &[(f64, [f64; 2])], _start: usize| {
        let mut s = 0.0;
        for (y, x) in chunk {
            let eta = beta[0] * x[0] + beta[1] * x[1];
            s += y * eta - eta.log1p_exp();
        }
        s
    })
}

#[test]
fn logistic_compiles() {
    let rows: Vec<(f64, [f64; 2])> = (0..300)
        .map(|i| (f64::from(i % 2), [1.0, (f64::from(i) * 0.37).sin()]))
        .collect();
    let (v, g) = logistic_grad(&[0.1, -0.3], &rows);
    assert!(v.is_finite() && g.len() == 2);
}
