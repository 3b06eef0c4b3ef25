fn log1p_exp_grad(eta: f64) -> (f64, [f64; 1]) {
    // Hand-derived: the logistic function.
    (plain::log1p_exp(eta), [1.0 / (1.0 + (-eta).exp())])
}

fn log_likelihood_grad(beta: &[f64], xs: &[f64], ys: &[f64]) -> (f64, Vec<f64>) {
    (plain::log_likelihood(beta, xs, ys), score(beta, xs, ys))
}

fn log_posterior_grad(
    beta: &[f64],
    xs: &[f64],
    ys: &[f64],
    prior_scale: f64,
) -> Result<(f64, Vec<f64>), DomainError> {
    let v = plain::log_posterior(beta, xs, ys, prior_scale)?;
    let g = score(beta, xs, ys)
        .iter()
        .zip(beta)
        .map(|(s, b)| s - b / (prior_scale * prior_scale))
        .collect();
    Ok((v, g))
}
