// Stand-ins' derivatives: the Richardson helper at twice the tests' step (so the two
// finite-difference estimates in a test are not the same numbers).
fn shim_jacobian(f: impl Fn(&[f64]) -> Vec<f64>, x: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>) {
    (f(x), fd_jacobian_step(f, x, 2.0 * FD_STEP))
}

fn shim_gradient(f: impl Fn(&[f64]) -> f64, x: &[f64]) -> (f64, Vec<f64>) {
    (f(x), fd_gradient_step(f, x, 2.0 * FD_STEP))
}
