//! Distributions in generic code: a body over `S: Real` (what `#[differentiate]`
//! generates) calls them with `S`, `&[S]`, `f64` and `&[f64]` arguments, the result is
//! `S`, and it runs with `S = f64` and `S = Var`; and through `#[differentiate]` itself,
//! with `?`.

#[macro_use]
mod dist_support;

use dist_support::{assert_all_close, assert_close, check_fd};
use fazang::__private::{RefOps, RefScalarOps, ScalarOps};
use fazang::prelude::*;

/// Every family, with the parameters generic; `y` data. The annotations `: S` check that
/// each result normalises to `S`.
fn all_families<S: Real>(p: &[S], y: &[f64]) -> Result<S, DomainError>
where
    f64: ScalarOps<S>,
    for<'a> &'a S: RefOps<S> + RefScalarOps<S>,
    for<'a> &'a f64: RefOps<S>,
{
    let (mu, sigma, nu, theta) = (p[0], p[1], p[2], p[3]);
    let pos = [0.5, 1.5, 2.5];
    let unit = [0.2, 0.5, 0.9];
    let counts = [0, 3, 7];
    let a: S = normal_lpdf(y, mu, sigma)?;
    let b: S = lognormal_lpdf(&pos, mu, sigma)?;
    let c: S = cauchy_lpdf(y, mu, sigma)?;
    let d: S = student_t_lpdf(y, nu, mu, sigma)?;
    let e: S = logistic_lpdf(y, mu, sigma)?;
    let f: S = double_exponential_lpdf(y, mu, sigma)?;
    let g: S = exponential_lpdf(&pos, sigma)?;
    let h: S = gamma_lpdf(&pos, nu, sigma)?;
    let i: S = inv_gamma_lpdf(&pos, nu, sigma)?;
    let j: S = weibull_lpdf(&pos, nu, sigma)?;
    let k: S = chi_square_lpdf(&pos, nu)?;
    let l: S = beta_lpdf(&unit, nu, sigma)?;
    let m: S = uniform_lpdf(&unit, mu - 1.0, sigma + 1.0)?;
    let n: S = poisson_lpmf(&counts, sigma)?;
    let o: S = poisson_log_lpmf(&counts, mu)?;
    let q: S = neg_binomial_2_lpmf(&counts, sigma, nu)?;
    let r: S = binomial_lpmf(&counts, 10, theta)?;
    let s: S = bernoulli_lpmf(&[0, 1, 1], theta)?;
    let t: S = bernoulli_logit_lpmf(&[0, 1, 1], mu)?;
    Ok(a + b + c + d + e + f + g + h + i + j + k + l + m + n + o + q + r + s + t)
}

/// A hierarchical model: the parameters in `y` position, slices of `S`, literals, and
/// a mix of data and parameter sequences.
fn hierarchical<S: Real>(p: &[S], y: &[f64]) -> Result<S, DomainError>
where
    f64: ScalarOps<S>,
    for<'a> &'a S: RefOps<S> + RefScalarOps<S>,
    for<'a> &'a f64: RefOps<S>,
{
    let (mu, tau, theta) = (p[0], p[1], &p[2..]);
    let se = [1.0, 1.5, 0.8];
    let lp = normal_lpdf(theta, mu, tau)? + normal_lpdf(y, theta, &se)?;
    let prior = normal_lpdf(mu, 0.0, 5.0)? + cauchy_lpdf(tau, 0.0, 2.5)?;
    let pair = normal_lpdf(&[mu, tau], 1.0, tau)?;
    Ok(lp + prior + pair + normal_lpdf(1.3, mu, 2.0)?)
}

/// Float literals in every position: their type is inferred as `f64` (data), never
/// confused with `S` by the where-clause `f64: ScalarOps<S>`.
fn literals<S: Real>(s: S, y: &[f64]) -> Result<S, DomainError>
where
    f64: ScalarOps<S>,
{
    let a: S = normal_lpdf(1.0, 1.0, s)?;
    let b: S = normal_lpdf(y, 1.0, s)?;
    let c: S = normal_lpdf(s, 1.0, 2.0)?;
    let d: S = normal_lpdf(1.0, s, 2.0)?;
    let e: S = exponential_lpdf(&[0.5, 1.5], s)?;
    let f: S = exponential_lpdf(s, 1.0)?;
    let g: f64 = normal_lpdf(y, 1.0, 2.0)?;
    let h: f64 = exponential_lpdf(&[0.5, 1.5], 2.0)?;
    let i: S = student_t_lpdf(1.0, 3.0, 0.0, s)?;
    let j: S = student_t_lpdf(&[s, s], 3.0, y[0], 2.0)?;
    let k: S = gamma_lpdf(2.0, s, 1.0)?;
    let l: S =
        poisson_lpmf(3, s)? + neg_binomial_2_lpmf(3, 2.0, s)? + neg_binomial_2_lpmf(3, s, 2.0)?;
    Ok(a + b + c + d + e + f + g + h + i + j + k + l)
}

#[test]
fn literals_are_data() {
    let y = [1.3, -0.4];
    let v: f64 = literals(1.5, &y).unwrap();
    let (w, g) = gradient(|x| literals(x[0], &y).unwrap(), &[1.5]);
    assert_close(w, v, 1e-15, "value");
    let fd = dist_support::finite_diff(|x| literals(x[0], &y).unwrap(), &[1.5]);
    assert_all_close(&g, &fd, 1e-7, "gradient");
}

#[test]
fn generic_bodies_run_on_f64_and_var() {
    let y = [1.3, -0.4, 2.7];
    let p = [0.3, 1.2, 2.5, 0.35];
    let v: f64 = all_families(&p, &y).unwrap();
    let (w, _) = gradient(|x| all_families(x, &y).unwrap(), &p);
    assert_close(w, v, 1e-15, "all families");
    check_fd(
        |x| all_families(x, &y).unwrap(),
        |x| all_families(x, &y).unwrap(),
        &p,
    );

    let q = [0.3, 1.2, 0.9, -0.2, 1.7];
    let v: f64 = hierarchical(&q, &y).unwrap();
    let (w, _) = gradient(|x| hierarchical(x, &y).unwrap(), &q);
    assert_close(w, v, 1e-15, "hierarchical");
    check_fd(
        |x| hierarchical(x, &y).unwrap(),
        |x| hierarchical(x, &y).unwrap(),
        &q,
    );
}

#[test]
fn generic_bodies_propagate_errors() {
    let y = [1.3, -0.4, 2.7];
    let e = all_families(&[0.3, -1.2, 2.5, 0.35], &y).unwrap_err();
    assert_eq!(
        e.to_string(),
        "normal_lpdf: Scale parameter is -1.2, but must be positive!"
    );
    let e = gradient(
        |x| hierarchical(x, &[1.0, 2.0]).map_or(Var::from(0.0), |v| v),
        &[0.0; 5],
    );
    assert_eq!(
        e.0, 0.0,
        "size mismatch (y has 2, theta 3) returns an error, not a panic"
    );
    assert!(hierarchical(&[0.3, 1.2, 0.9, -0.2, 1.7], &[1.0, 2.0]).is_err());
}

#[differentiate(wrt(mu, sigma))]
fn normal_model(mu: f64, sigma: f64, y: &[f64]) -> Result<f64, DomainError> {
    let lp = normal_lpdf(y, mu, sigma)? + normal_lpdf(mu, 0.0, 10.0)?;
    Ok(lp + exponential_lpdf(sigma, 1.0)?)
}

/// In a module to allow clippy's `type_complexity` on the generated `eight_schools_grad`,
/// which returns `Result<(f64, (f64, f64, Vec<f64>)), _>` (#[differentiate] does not
/// pass `allow` attributes on to the functions it generates).
#[allow(clippy::type_complexity)]
mod schools {
    use fazang::prelude::*;

    #[differentiate(wrt(mu, tau, theta))]
    pub fn eight_schools(
        mu: f64,
        tau: f64,
        theta: &[f64],
        y: &[f64],
        se: &[f64],
    ) -> Result<f64, DomainError> {
        Ok(normal_lpdf(theta, mu, tau)? + normal_lpdf(y, theta, se)? + cauchy_lpdf(tau, 0.0, 5.0)?)
    }
}
use schools::{eight_schools, eight_schools_grad};

#[test]
fn differentiate_with_question_mark() {
    let y = [1.0, 2.0, 0.5];
    let (mu, sigma) = (0.3, 1.1);
    let v = normal_model(mu, sigma, &y).unwrap();
    let (w, g) = normal_model_grad(mu, sigma, &y).unwrap();
    assert_eq!(v, w);
    // Closed form.
    let dmu: f64 = y.iter().map(|yi| (yi - mu) / (sigma * sigma)).sum::<f64>() - mu / 100.0;
    let dsigma: f64 = y
        .iter()
        .map(|yi| ((yi - mu) * (yi - mu) / (sigma * sigma) - 1.0) / sigma)
        .sum::<f64>()
        - 1.0;
    assert_all_close(&g, &[dmu, dsigma], 1e-14, "gradient");
    assert_eq!(
        normal_model_grad(mu, -1.0, &y).unwrap_err().to_string(),
        "normal_lpdf: Scale parameter is -1, but must be positive!"
    );
}

#[test]
fn differentiate_with_sequence_parameters() {
    let (y, se) = ([28.0, 8.0, -3.0], [15.0, 10.0, 16.0]);
    let theta = [10.0, 7.0, 1.0];
    let (v, (dmu, dtau, dtheta)) = eight_schools_grad(4.0, 3.0, &theta, &y, &se).unwrap();
    assert_eq!(v, eight_schools(4.0, 3.0, &theta, &y, &se).unwrap());
    let flat = |x: &[f64]| eight_schools(x[0], x[1], &x[2..], &y, &se).unwrap();
    let fd = dist_support::finite_diff(flat, &[4.0, 3.0, 10.0, 7.0, 1.0]);
    let mut g = vec![dmu, dtau];
    g.extend(dtheta);
    assert_all_close(&g, &fd, 1e-7, "gradient vs finite differences");
}
