//! Gradients of every distribution against central finite differences, for a
//! representative set of argument combinations: every argument an active scalar; the
//! variate an active sequence with scalar parameters; sequences of active parameters
//! with data; scalars broadcast against sequences. Plus closed forms for special cases.

#[macro_use]
mod dist_support;

use dist_support::{assert_all_close, assert_close, check_fd};
use fazang::prelude::*;

/// Data for the integer families.
const COUNTS: [i64; 4] = [0, 3, 7, 1];

#[test]
fn normal_and_lognormal() {
    let (fv, ff) = both!(|x| normal_lpdf(x[0], x[1], x[2]).unwrap());
    check_fd(fv, ff, &[1.3, 0.5, 1.2]);
    let (fv, ff) = both!(|x| normal_lpdf(&x[0..3], &x[3..6], x[6]).unwrap());
    check_fd(fv, ff, &[1.3, -0.4, 2.7, 0.5, 0.1, -1.0, 0.8]);
    let (fv, ff) = both!(|x| lognormal_lpdf(x[0], x[1], x[2]).unwrap());
    check_fd(fv, ff, &[1.3, 0.5, 1.2]);
    let (fv, ff) = both!(|x| lognormal_lpdf(&x[0..3], x[3], &x[4..7]).unwrap());
    check_fd(fv, ff, &[1.3, 0.4, 2.7, 0.5, 1.2, 0.7, 2.5]);
}

#[test]
fn cauchy() {
    let (fv, ff) = both!(|x| cauchy_lpdf(x[0], x[1], x[2]).unwrap());
    check_fd(fv, ff, &[1.3, 0.5, 1.2]);
    let (fv, ff) = both!(|x| cauchy_lpdf(&x[0..3], x[3], &x[4..7]).unwrap());
    check_fd(fv, ff, &[1.3, -0.4, 9.7, 0.5, 1.2, 0.7, 2.5]);
}

#[test]
fn student_t() {
    let (fv, ff) = both!(|x| student_t_lpdf(x[0], x[1], x[2], x[3]).unwrap());
    check_fd(fv, ff, &[1.3, 4.5, 0.5, 1.2]);
    let (fv, ff) = both!(|x| student_t_lpdf(&x[0..3], &x[3..6], x[6], x[7]).unwrap());
    check_fd(fv, ff, &[1.3, -0.4, 9.7, 0.8, 3.0, 25.0, 0.5, 1.2]);
    let (fv, ff) = both!(|x| student_t_lpdf(&[1.3, -0.4], x[0], &x[1..3], &x[3..5]).unwrap());
    check_fd(fv, ff, &[2.5, 0.5, 0.1, 1.2, 0.3]);
}

#[test]
fn logistic_and_double_exponential() {
    let (fv, ff) = both!(|x| logistic_lpdf(x[0], x[1], x[2]).unwrap());
    check_fd(fv, ff, &[1.3, 0.5, 1.2]);
    let (fv, ff) = both!(|x| logistic_lpdf(&x[0..3], &x[3..6], x[6]).unwrap());
    check_fd(fv, ff, &[1.3, -40.0, 2.7, 0.5, 0.1, -1.0, 0.8]);
    let (fv, ff) = both!(|x| double_exponential_lpdf(x[0], x[1], x[2]).unwrap());
    check_fd(fv, ff, &[1.3, 0.5, 1.2]);
    let (fv, ff) = both!(|x| double_exponential_lpdf(&x[0..3], x[3], &x[4..7]).unwrap());
    check_fd(fv, ff, &[1.3, -0.4, 2.7, 0.5, 1.2, 0.7, 2.5]);
}

#[test]
fn double_exponential_at_its_kink() {
    // d/dy |y - mu| at y = mu: the conventional 0.
    let (_, g) = gradient(
        |x| double_exponential_lpdf(x[0], x[1], 2.0).unwrap(),
        &[0.5, 0.5],
    );
    assert_eq!(g, vec![0.0, 0.0]);
}

#[test]
fn exponential_gamma_inv_gamma() {
    let (fv, ff) = both!(|x| exponential_lpdf(x[0], x[1]).unwrap());
    check_fd(fv, ff, &[1.3, 0.5]);
    let (fv, ff) = both!(|x| exponential_lpdf(&x[0..3], &x[3..6]).unwrap());
    check_fd(fv, ff, &[1.3, 0.4, 2.7, 0.5, 1.2, 3.0]);
    let (fv, ff) = both!(|x| gamma_lpdf(x[0], x[1], x[2]).unwrap());
    check_fd(fv, ff, &[1.3, 2.5, 1.2]);
    let (fv, ff) = both!(|x| gamma_lpdf(&x[0..3], &x[3..6], x[6]).unwrap());
    check_fd(fv, ff, &[1.3, 0.4, 2.7, 0.5, 1.2, 7.0, 0.8]);
    let (fv, ff) = both!(|x| inv_gamma_lpdf(x[0], x[1], x[2]).unwrap());
    check_fd(fv, ff, &[1.3, 2.5, 1.2]);
    let (fv, ff) = both!(|x| inv_gamma_lpdf(&x[0..3], x[3], &x[4..7]).unwrap());
    check_fd(fv, ff, &[1.3, 0.4, 2.7, 2.5, 1.2, 0.7, 3.0]);
}

#[test]
fn weibull_and_chi_square() {
    let (fv, ff) = both!(|x| weibull_lpdf(x[0], x[1], x[2]).unwrap());
    check_fd(fv, ff, &[1.3, 2.5, 1.2]);
    let (fv, ff) = both!(|x| weibull_lpdf(&x[0..3], &x[3..6], x[6]).unwrap());
    check_fd(fv, ff, &[1.3, 0.4, 2.7, 0.5, 1.2, 3.0, 1.7]);
    let (fv, ff) = both!(|x| chi_square_lpdf(x[0], x[1]).unwrap());
    check_fd(fv, ff, &[1.3, 2.5]);
    let (fv, ff) = both!(|x| chi_square_lpdf(&x[0..3], &x[3..6]).unwrap());
    check_fd(fv, ff, &[1.3, 0.4, 2.7, 0.5, 1.2, 7.0]);
}

#[test]
fn beta_and_uniform() {
    let (fv, ff) = both!(|x| beta_lpdf(x[0], x[1], x[2]).unwrap());
    check_fd(fv, ff, &[0.3, 2.5, 1.2]);
    let (fv, ff) = both!(|x| beta_lpdf(&x[0..3], &x[3..6], x[6]).unwrap());
    check_fd(fv, ff, &[0.3, 0.15, 0.9, 0.5, 1.2, 7.0, 1.7]);
    let (fv, ff) = both!(|x| beta_lpdf(&[0.3, 0.6], x[0], &x[1..3]).unwrap());
    check_fd(fv, ff, &[2.5, 0.7, 3.0]);
    let (fv, ff) = both!(|x| uniform_lpdf(x[0], x[1], x[2]).unwrap());
    check_fd(fv, ff, &[0.3, -0.5, 1.2]);
    let (fv, ff) = both!(|x| uniform_lpdf(&x[0..3], x[3], &x[4..7]).unwrap());
    check_fd(fv, ff, &[0.3, 0.05, 0.9, -0.5, 1.2, 0.7, 3.0]);
}

#[test]
fn poisson_families() {
    let (fv, ff) = both!(|x| poisson_lpmf(&COUNTS, x[0]).unwrap());
    check_fd(fv, ff, &[2.5]);
    let (fv, ff) = both!(|x| poisson_lpmf(&COUNTS, x).unwrap());
    check_fd(fv, ff, &[2.5, 0.3, 9.0, 1.0]);
    let (fv, ff) = both!(|x| poisson_lpmf(4, x).unwrap());
    check_fd(fv, ff, &[2.5, 0.3]);
    let (fv, ff) = both!(|x| poisson_log_lpmf(&COUNTS, x[0]).unwrap());
    check_fd(fv, ff, &[0.9]);
    let (fv, ff) = both!(|x| poisson_log_lpmf(&COUNTS, x).unwrap());
    check_fd(fv, ff, &[0.9, -2.0, 2.2, 0.0]);
}

#[test]
fn poisson_rate_zero() {
    // n = 0, λ = 0: probability 1, d/dλ = -1 (one-sided), not 0/0.
    let (v, g) = gradient(|x| poisson_lpmf(0, x[0]).unwrap(), &[0.0]);
    assert_eq!((v, g), (0.0, vec![-1.0]));
}

#[test]
fn neg_binomial_2() {
    let (fv, ff) = both!(|x| neg_binomial_2_lpmf(&COUNTS, x[0], x[1]).unwrap());
    check_fd(fv, ff, &[2.5, 1.7]);
    let (fv, ff) = both!(|x| neg_binomial_2_lpmf(&COUNTS, &x[0..4], &x[4..8]).unwrap());
    check_fd(fv, ff, &[2.5, 0.3, 9.0, 1.0, 1.7, 40.0, 0.2, 5.0]);
    // Many failures: the ψ difference takes the digamma branch.
    let (fv, ff) = both!(|x| neg_binomial_2_lpmf(&[250, 90], x[0], x[1]).unwrap());
    check_fd(fv, ff, &[120.0, 3.5]);
}

#[test]
fn binomial_and_bernoulli() {
    let (fv, ff) = both!(|x| binomial_lpmf(&[0, 3, 10, 2], &[5, 10, 10, 4], x[0]).unwrap());
    check_fd(fv, ff, &[0.35]);
    let (fv, ff) = both!(|x| binomial_lpmf(&[0, 3, 10, 2], 10, x).unwrap());
    check_fd(fv, ff, &[0.35, 0.1, 0.8, 0.5]);
    let (fv, ff) = both!(|x| bernoulli_lpmf(&[0, 1, 1], x[0]).unwrap());
    check_fd(fv, ff, &[0.35]);
    let (fv, ff) = both!(|x| bernoulli_lpmf(&[0, 1, 1], x).unwrap());
    check_fd(fv, ff, &[0.35, 0.1, 0.8]);
    let (fv, ff) = both!(|x| bernoulli_logit_lpmf(&[0, 1, 1], x[0]).unwrap());
    check_fd(fv, ff, &[0.35]);
    let (fv, ff) = both!(|x| bernoulli_logit_lpmf(&[0, 1, 1, 0], x).unwrap());
    check_fd(fv, ff, &[0.35, -3.0, 8.0, 2.0]);
}

#[test]
fn binomial_edges_have_finite_gradients() {
    // n = 0 and n = N at θ on the boundary: 0·ln 0 = 0, and the partial drops the term.
    let (v, g) = gradient(|x| binomial_lpmf(&[0, 0], &[3, 0], x[0]).unwrap(), &[0.0]);
    assert_eq!((v, g), (0.0, vec![-3.0]));
    let (v, g) = gradient(|x| binomial_lpmf(4, 4, x[0]).unwrap(), &[1.0]);
    assert_eq!((v, g), (0.0, vec![4.0]));
    assert_eq!(bernoulli_lpmf(1, 1.0).unwrap(), 0.0);
    assert_eq!(bernoulli_lpmf(1, 0.0).unwrap(), f64::NEG_INFINITY);
}

#[test]
fn bernoulli_logit_extremes() {
    // Far tails: no overflow, value and partial exact to rounding.
    let (v, g) = gradient(
        |x| bernoulli_logit_lpmf(&[1, 0], x).unwrap(),
        &[800.0, -800.0],
    );
    assert_eq!(v, 0.0);
    assert_eq!(g, vec![0.0, 0.0]);
    let (v, g) = gradient(
        |x| bernoulli_logit_lpmf(&[0, 1], x).unwrap(),
        &[800.0, -800.0],
    );
    assert_eq!(v, -1600.0);
    assert_eq!(g, vec![-1.0, 1.0]);
    assert_eq!(
        bernoulli_logit_lpmf(1, f64::INFINITY).unwrap(),
        0.0,
        "certain success"
    );
}

#[test]
fn gamma_at_shape_one_is_exponential() {
    // Closed form: Gamma(y | 1, β) = β e^{-βy}, so d/dβ = Σ (1/β - y).
    let y = [0.5, 1.5, 3.0];
    let (v, g) = gradient(|x| gamma_lpdf(&y, 1.0, x[0]).unwrap(), &[2.0]);
    let (ve, ge) = gradient(|x| exponential_lpdf(&y, x[0]).unwrap(), &[2.0]);
    assert_close(v, ve, 1e-15, "value");
    assert_all_close(&g, &ge, 1e-15, "d/dbeta");
    assert_close(g[0], 3.0 / 2.0 - 5.0, 1e-15, "closed form");
}

#[test]
fn weibull_at_zero_with_shape_one() {
    // y = 0 is in the support; with α = 1 the (α - 1) ln y term is 0, not NaN.
    let v = weibull_lpdf(0.0, 1.0, 2.0).unwrap();
    assert_close(v, -(2.0_f64.ln()), 1e-15, "value");
    let (_, g) = gradient(|x| weibull_lpdf(0.0, 1.0, x[0]).unwrap(), &[2.0]);
    assert_close(g[0], -0.5, 1e-15, "d/dsigma");
}

#[test]
fn uniform_outside_is_minus_infinity_and_constant() {
    let (v, g) = gradient(
        |x| uniform_lpdf(&[0.5, 2.5], x[0], x[1]).unwrap(),
        &[0.0, 2.0],
    );
    assert_eq!(v, f64::NEG_INFINITY);
    assert_eq!(g, vec![0.0, 0.0]);
}

#[test]
fn mixed_active_and_data_parameters() {
    // The same density with one parameter data and one active, each way round.
    let y = [1.3, -0.4, 2.7];
    let (_, both) = gradient(
        |x| student_t_lpdf(&y, x[0], x[1], x[2]).unwrap(),
        &[4.0, 0.5, 1.2],
    );
    let (_, nu) = gradient(|x| student_t_lpdf(&y, x[0], 0.5, 1.2).unwrap(), &[4.0]);
    let (_, sigma) = gradient(|x| student_t_lpdf(&y, 4.0, 0.5, x[0]).unwrap(), &[1.2]);
    assert_close(nu[0], both[0], 1e-15, "nu");
    assert_close(sigma[0], both[2], 1e-15, "sigma");
}
