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
