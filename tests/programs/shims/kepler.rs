fn eccentric_anomaly_grad(m: f64, ecc: f64) -> (f64, [f64; 2]) {
    // The tangent carried by hand (exact for the iterates).
    let (e, dm, decc) = iterate_with_tangents(m, ecc);
    (e, [dm, decc])
}

fn true_anomaly_grad(m: f64, ecc: f64) -> (f64, [f64; 2]) {
    let (v, g) = shim_gradient(|v| plain::true_anomaly(v[0], v[1]), &[m, ecc]);
    (v, [g[0], g[1]])
}

fn position_jacobian(a: f64, ecc: f64, m0: f64, t: f64, period: f64) -> (Vec<f64>, Vec<Vec<f64>>) {
    shim_jacobian(
        |v| plain::position(v[0], v[1], v[2], t, period).to_vec(),
        &[a, ecc, m0],
    )
}
