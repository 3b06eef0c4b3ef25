fn log_likelihood_grad(
    theta: &[f64],
    xs: &[f64],
    ys: &[f64],
) -> Result<(f64, Vec<f64>), DomainError> {
    let v = plain::log_likelihood(theta, xs, ys)?;
    let (_, g) = shim_gradient(|t| plain::log_likelihood(t, xs, ys).unwrap(), theta);
    Ok((v, g))
}

fn gate_grad(z: f64) -> (f64, [f64; 1]) {
    let (v, g) = shim_gradient(|t| plain::gate(t[0]), &[z]);
    (v, [g[0]])
}
