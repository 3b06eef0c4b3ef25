fn robust_loss_grad(coef: [f64; 2], xs: &[f64], ys: &[f64], delta: f64) -> (f64, [f64; 2]) {
    let (v, g) = shim_gradient(|c| plain::robust_loss([c[0], c[1]], xs, ys, delta), &coef);
    (v, [g[0], g[1]])
}

fn huber_grad(r: f64, delta: f64) -> (f64, [f64; 2]) {
    // Hand-derived.
    let v = plain::huber(r, delta);
    if r.abs() <= delta {
        (v, [r, 0.0])
    } else {
        (v, [delta * r.signum(), r.abs() - delta])
    }
}

fn clipped_loss_grad(coef: &[f64], clip: f64, xs: &[f64], ys: &[f64]) -> (f64, (Vec<f64>, f64)) {
    let (v, g) = shim_gradient(
        |p| plain::clipped_loss(&p[0..2], p[2], xs, ys),
        &[coef[0], coef[1], clip],
    );
    (v, (g[0..2].to_vec(), g[2]))
}
