fn grad_of(f: fn(&[f64]) -> f64, xs: &[f64]) -> (f64, Vec<f64>) {
    (f(xs), fd_gradient_step(f, xs, 2e-7))
}

fn trimmed_mean_grad(xs: &[f64]) -> (f64, Vec<f64>) {
    grad_of(plain::trimmed_mean, xs)
}

fn median_grad(xs: &[f64]) -> (f64, Vec<f64>) {
    grad_of(plain::median, xs)
}

fn winsorized_variance_grad(xs: &[f64]) -> (f64, Vec<f64>) {
    grad_of(plain::winsorized_variance, xs)
}

fn mad_grad(xs: &[f64]) -> (f64, Vec<f64>) {
    grad_of(plain::mad, xs)
}
