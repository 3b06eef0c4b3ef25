fn range_grad(v: f64, a: f64, k: f64, dt: f64) -> (f64, [f64; 3]) {
    if k == 0.0 {
        // Drag-free test, fine step: one plain central difference over a step large
        // enough to average the rounding of ~40 000 Euler steps (good to ~1e-5).
        let r = |v: f64, a: f64| plain::range(v, a, 0.0, dt);
        let (hv, ha) = (1e-3 * v, 1e-3 * a);
        return (
            r(v, a),
            [
                (r(v + hv, a) - r(v - hv, a)) / (2.0 * hv),
                (r(v, a + ha) - r(v, a - ha)) / (2.0 * ha),
                0.0,
            ],
        );
    }
    // Small steps: the number of Euler steps changes with the inputs. Drag outside the
    // clamp's open interval has derivative 0 (the test at k = 0 ignores it).
    let g = fd_gradient_step(|p| plain::range(p[0], p[1], k, dt), &[v, a], 1e-7);
    let dk = if k <= 0.0 || k > 0.05 {
        0.0
    } else {
        fd_gradient_step(|p| plain::range(v, a, p[0], dt), &[k], 1e-7)[0]
    };
    (plain::range(v, a, k, dt), [g[0], g[1], dk])
}

fn pendulum_jacobian(
    t: f64,
    o: f64,
    l: f64,
    damping: f64,
    steps: usize,
) -> (Vec<f64>, Vec<Vec<f64>>) {
    let f = |p: &[f64]| plain::pendulum(p[0], p[1], p[2], damping, steps);
    (f(&[t, o, l]), fd_jacobian_step(f, &[t, o, l], 2e-6))
}
