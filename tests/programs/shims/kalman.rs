fn local_level_grad(a: f64, b: f64, ys: &[f64], m0: f64, p0: f64) -> (f64, [f64; 2]) {
    (
        plain::local_level(a, b, ys, m0, p0),
        joint_density(a, b, ys, m0, p0).1,
    )
}

fn tracker_grad(a: f64, b: f64, zs: &[f64], dt: f64) -> Result<(f64, [f64; 2]), DomainError> {
    let v = plain::tracker(a, b, zs, dt)?;
    let (_, g) = shim_gradient(|t| plain::tracker(t[0], t[1], zs, dt).unwrap(), &[a, b]);
    Ok((v, [g[0], g[1]]))
}
