fn loo_cv_grad(l: f64, xs: &[f64], ys: &[f64]) -> (f64, [f64; 1]) {
    let (v, g) = shim_gradient(|t| plain::loo_cv(t[0], xs, ys), &[l]);
    (v, [g[0]])
}

fn rbf_predict_grad(x: f64, l: f64, c: &[f64], w: &[f64]) -> (f64, [f64; 2]) {
    let (v, g) = shim_gradient(|t| plain::rbf_predict(t[0], t[1], c, w), &[x, l]);
    (v, [g[0], g[1]])
}

fn upper_band_grad(ys: &[f64]) -> (f64, Vec<f64>) {
    shim_gradient(plain::upper_band, ys)
}
