#[allow(clippy::type_complexity)]
fn loss_grad(
    w1: &[Vec<f64>],
    b1: &[f64],
    w2: &[f64],
    b2: &[f64],
    xs: &[[f64; 2]],
    labels: &[usize],
    decay: f64,
) -> (f64, (Vec<Vec<f64>>, Vec<f64>, Vec<f64>, Vec<f64>)) {
    let w = Weights {
        w1: w1.to_vec(),
        b1: b1.to_vec(),
        w2: w2.to_vec(),
        b2: b2.to_vec(),
    };
    let (v, g) = shim_gradient(
        |v| {
            let w = Weights::unflatten(v);
            plain::loss(&w.w1, &w.b1, &w.w2, &w.b2, xs, labels, decay)
        },
        &w.flatten(),
    );
    let g = Weights::unflatten(&g);
    (v, (g.w1, g.b1, g.w2, g.b2))
}

fn probabilities_jacobian(
    w1: &[Vec<f64>],
    b1: &[f64],
    w2: &[f64],
    b2: &[f64],
    x: &[f64; 2],
) -> (Vec<f64>, Vec<Vec<f64>>) {
    shim_jacobian(|v| plain::probabilities(w1, b1, w2, b2, &[v[0], v[1]]), x)
}
