fn rotation_matrix_jacobian(angles: &[f64; 3]) -> (Vec<f64>, Vec<Vec<f64>>) {
    shim_jacobian(
        |a| plain::rotation_matrix(&[a[0], a[1], a[2]]).concat(),
        angles,
    )
}

fn rotate_jacobian(angles: &[f64; 3], p: [f64; 3]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let x: Vec<f64> = [*angles, p].concat();
    shim_jacobian(
        |v| plain::rotate(&[v[0], v[1], v[2]], [v[3], v[4], v[5]]),
        &x,
    )
}

fn quad_form_grad(a: [[f64; 3]; 3], x: &[f64; 3]) -> (f64, ([[f64; 3]; 3], [f64; 3])) {
    let args: Vec<f64> = [a.concat(), x.to_vec()].concat();
    let (v, g) = shim_gradient(
        |t| {
            let m = [[t[0], t[1], t[2]], [t[3], t[4], t[5]], [t[6], t[7], t[8]]];
            plain::quad_form(m, &[t[9], t[10], t[11]])
        },
        &args,
    );
    (
        v,
        (
            [[g[0], g[1], g[2]], [g[3], g[4], g[5]], [g[6], g[7], g[8]]],
            [g[9], g[10], g[11]],
        ),
    )
}

fn lennard_jones_grad(atoms: &[Vec<f64>]) -> (f64, Vec<Vec<f64>>) {
    let (v, g) = shim_gradient(|v| plain::lennard_jones(&unflatten(v, 3)), &flatten(atoms));
    (v, unflatten(&g, 3))
}

fn row_entropy_grad(logits: Vec<Vec<f64>>) -> (f64, Vec<Vec<f64>>) {
    let w = logits[0].len();
    let (v, g) = shim_gradient(|v| plain::row_entropy(unflatten(v, w)), &flatten(&logits));
    (v, unflatten(&g, w))
}

fn centroid_distances_jacobian(atoms: &[Vec<f64>]) -> (Vec<f64>, Vec<Vec<f64>>) {
    shim_jacobian(
        |v| plain::centroid_distances(&unflatten(v, 3)),
        &flatten(atoms),
    )
}
