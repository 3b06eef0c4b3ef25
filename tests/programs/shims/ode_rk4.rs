fn sse_grad(
    theta: &[f64; 4],
    u0: [f64; 2],
    obs: &[[f64; 2]],
    dt: f64,
    steps: usize,
) -> (f64, [f64; 4]) {
    let (v, g) = shim_gradient(
        |t| plain::sse(&[t[0], t[1], t[2], t[3]], u0, obs, dt, steps),
        theta,
    );
    (v, [g[0], g[1], g[2], g[3]])
}

fn final_state_jacobian(
    theta: &[f64; 4],
    u0: [f64; 2],
    t_end: f64,
    steps: usize,
) -> (Vec<f64>, Vec<Vec<f64>>) {
    shim_jacobian(
        |t| plain::final_state(&[t[0], t[1], t[2], t[3]], u0, t_end, steps),
        theta,
    )
}

fn decay_grad(lambda: f64, u0: f64, h: f64, n: usize) -> (f64, [f64; 2]) {
    // Hand-derived: u_n = u0 R(z)^n, z = -lambda h.
    let z = -lambda * h;
    let r = 1.0 + z + z * z / 2.0 + z * z * z / 6.0 + z * z * z * z / 24.0;
    let dr = 1.0 + z + z * z / 2.0 + z * z * z / 6.0;
    let k = n as i32;
    (
        plain::decay(lambda, u0, h, n),
        [u0 * n as f64 * r.powi(k - 1) * dr * -h, r.powi(k)],
    )
}
