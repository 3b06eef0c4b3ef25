fn log_marginal_likelihood_grad(a: f64, b: f64, c: f64, xs: &[f64], ys: &[f64]) -> (f64, [f64; 3]) {
    (
        plain::log_marginal_likelihood(a, b, c, xs, ys),
        closed_form_gradient(&[a, b, c], xs, ys),
    )
}

fn posterior_mean_jacobian(
    a: f64,
    b: f64,
    c: f64,
    xs: &[f64],
    ys: &[f64],
    x_new: &[f64],
) -> (Vec<f64>, Vec<Vec<f64>>) {
    shim_jacobian(
        |t| plain::posterior_mean(t[0], t[1], t[2], xs, ys, x_new),
        &[a, b, c],
    )
}
