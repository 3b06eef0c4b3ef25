fn interp_linear_grad(kx: &[f64], ky: &[f64], x: f64) -> (f64, (Vec<f64>, Vec<f64>, f64)) {
    let args: Vec<f64> = [kx, ky, &[x]].concat();
    let n = kx.len();
    let (v, g) = shim_gradient(
        |a| plain::interp_linear(&a[0..n], &a[n..2 * n], a[2 * n]),
        &args,
    );
    (v, (g[0..n].to_vec(), g[n..2 * n].to_vec(), g[2 * n]))
}

fn spline_eval_jacobian(xs: &[f64], ys: &[f64], q: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>) {
    shim_jacobian(|y| plain::spline_eval(xs, y, q), ys)
}
