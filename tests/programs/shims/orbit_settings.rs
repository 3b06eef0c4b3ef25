fn final_radius_grad(r0: f64, boost: f64, cfg: &Settings, kind: Orbit) -> (f64, [f64; 2]) {
    let f = |p: &[f64]| plain::final_radius(p[0], p[1], cfg, kind);
    let g = fd_gradient_step(f, &[r0, boost], 2e-5);
    (f(&[r0, boost]), [g[0], g[1]])
}

fn hohmann_delta_v_grad(r1: f64, r2: f64, cfg: &Settings) -> (f64, [f64; 2]) {
    let (v, g) = shim_gradient(|r| plain::hohmann_delta_v(r[0], r[1], cfg), &[r1, r2]);
    (v, [g[0], g[1]])
}
