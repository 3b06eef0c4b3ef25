//! Parameters and results in the shapes numeric code uses for small vectors and matrices:
//! `&[f64; 3]`, `[f64; 3]`, `[[f64; 3]; 3]`, `&[Vec<f64>]`, `Vec<Vec<f64>>`. Gradients come
//! back in the parameter's own shape; Jacobians have one column per active input, inputs
//! flattened in parameter order (nested ones row by row), and one row per output (a
//! `[[f64; 3]; 3]` result flattened row by row).
//!
//! Closed forms: ∂(Rp)/∂p = R; ∇_A xᵀAx = x xᵀ, ∇_x = (A + Aᵀ)x; Lennard-Jones forces;
//! ∂H/∂z_k = −p_k (log p_k + H) for the entropy H of a softmax row.
#![allow(clippy::needless_range_loop)]
use fazang::prelude::*;

mod program_support;
use program_support::*;

/// Rotation Rz(γ) Ry(β) Rx(α) for `angles` = [α, β, γ].
#[differentiate]
fn rotation_matrix(angles: &[f64; 3]) -> [[f64; 3]; 3] {
    let (sa, ca) = angles[0].sin_cos();
    let (sb, cb) = angles[1].sin_cos();
    let (sg, cg) = angles[2].sin_cos();
    [
        [cg * cb, cg * sb * sa - sg * ca, cg * sb * ca + sg * sa],
        [sg * cb, sg * sb * sa + cg * ca, sg * sb * ca - cg * sa],
        [-sb, cb * sa, cb * ca],
    ]
}

/// The point `p` rotated by `angles`.
#[differentiate]
fn rotate(angles: &[f64; 3], p: [f64; 3]) -> Vec<f64> {
    let r = rotation_matrix(angles);
    let mut out = vec![0.0; 3];
    for i in 0..3 {
        for j in 0..3 {
            out[i] += r[i][j] * p[j];
        }
    }
    out
}

#[differentiate]
fn quad_form(a: [[f64; 3]; 3], x: &[f64; 3]) -> f64 {
    let mut s = 0.0;
    for i in 0..3 {
        for j in 0..3 {
            s += x[i] * a[i][j] * x[j];
        }
    }
    s
}

/// Lennard-Jones energy (ε = σ = 1) of a cluster of atoms at `positions` (each a Vec of 3).
#[differentiate]
fn lennard_jones(positions: &[Vec<f64>]) -> f64 {
    let mut energy = 0.0;
    for i in 0..positions.len() {
        for j in i + 1..positions.len() {
            let r2: f64 = positions[i]
                .iter()
                .zip(&positions[j])
                .map(|(a, b)| (a - b) * (a - b))
                .sum();
            let s6 = 1.0 / (r2 * r2 * r2);
            energy += 4.0 * (s6 * s6 - s6);
        }
    }
    energy
}

/// Total entropy of the softmax of each row of `logits`.
#[differentiate]
fn row_entropy(logits: Vec<Vec<f64>>) -> f64 {
    let mut total = 0.0;
    for row in &logits {
        let m = row.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let z: f64 = row.iter().map(|v| (v - m).exp()).sum();
        for v in row {
            let log_p = v - m - z.ln();
            total -= log_p.exp() * log_p;
        }
    }
    total
}

/// Distance of each point from the centroid.
#[differentiate]
fn centroid_distances(points: &[Vec<f64>]) -> Vec<f64> {
    let n = points.len() as f64;
    let dim = points[0].len();
    let mut centre = vec![0.0; dim];
    for p in points {
        for k in 0..dim {
            centre[k] += p[k] / n;
        }
    }
    points
        .iter()
        .map(|p| {
            p.iter()
                .zip(&centre)
                .map(|(a, c)| (a - c).powi(2))
                .sum::<f64>()
                .sqrt()
        })
        .collect()
}

/// The same code without the attributes.
mod plain {
    pub fn rotation_matrix(angles: &[f64; 3]) -> [[f64; 3]; 3] {
        let (sa, ca) = angles[0].sin_cos();
        let (sb, cb) = angles[1].sin_cos();
        let (sg, cg) = angles[2].sin_cos();
        [
            [cg * cb, cg * sb * sa - sg * ca, cg * sb * ca + sg * sa],
            [sg * cb, sg * sb * sa + cg * ca, sg * sb * ca - cg * sa],
            [-sb, cb * sa, cb * ca],
        ]
    }

    pub fn rotate(angles: &[f64; 3], p: [f64; 3]) -> Vec<f64> {
        let r = rotation_matrix(angles);
        let mut out = vec![0.0; 3];
        for i in 0..3 {
            for j in 0..3 {
                out[i] += r[i][j] * p[j];
            }
        }
        out
    }

    pub fn quad_form(a: [[f64; 3]; 3], x: &[f64; 3]) -> f64 {
        let mut s = 0.0;
        for i in 0..3 {
            for j in 0..3 {
                s += x[i] * a[i][j] * x[j];
            }
        }
        s
    }

    pub fn lennard_jones(positions: &[Vec<f64>]) -> f64 {
        let mut energy = 0.0;
        for i in 0..positions.len() {
            for j in i + 1..positions.len() {
                let r2: f64 = positions[i]
                    .iter()
                    .zip(&positions[j])
                    .map(|(a, b)| (a - b) * (a - b))
                    .sum();
                let s6 = 1.0 / (r2 * r2 * r2);
                energy += 4.0 * (s6 * s6 - s6);
            }
        }
        energy
    }

    pub fn row_entropy(logits: Vec<Vec<f64>>) -> f64 {
        let mut total = 0.0;
        for row in &logits {
            let m = row.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            let z: f64 = row.iter().map(|v| (v - m).exp()).sum();
            for v in row {
                let log_p = v - m - z.ln();
                total -= log_p.exp() * log_p;
            }
        }
        total
    }

    pub fn centroid_distances(points: &[Vec<f64>]) -> Vec<f64> {
        let n = points.len() as f64;
        let dim = points[0].len();
        let mut centre = vec![0.0; dim];
        for p in points {
            for k in 0..dim {
                centre[k] += p[k] / n;
            }
        }
        points
            .iter()
            .map(|p| {
                p.iter()
                    .zip(&centre)
                    .map(|(a, c)| (a - c).powi(2))
                    .sum::<f64>()
                    .sqrt()
            })
            .collect()
    }
}

const ANGLES: [f64; 3] = [0.3, -0.7, 1.9];
const POINT: [f64; 3] = [1.0, -2.0, 0.5];

/// Seven atoms near a compact cluster (spacing about the pair minimum 2^(1/6)).
fn cluster() -> Vec<Vec<f64>> {
    let mut rng = Rng::new(77);
    let sites = [
        [0.0, 0.0, 0.0],
        [1.1, 0.0, 0.0],
        [0.55, 0.95, 0.0],
        [0.55, 0.32, 0.9],
        [-0.55, 0.95, 0.0],
        [1.65, 0.95, 0.0],
        [0.55, -0.95, 0.0],
    ];
    sites
        .iter()
        .map(|s| s.iter().map(|c| c + 0.05 * rng.normal()).collect())
        .collect()
}

fn flatten(rows: &[Vec<f64>]) -> Vec<f64> {
    rows.iter().flatten().copied().collect()
}

fn unflatten(v: &[f64], width: usize) -> Vec<Vec<f64>> {
    v.chunks(width).map(|c| c.to_vec()).collect()
}

#[test]
fn primal_is_the_plain_code() {
    let r = rotation_matrix(&ANGLES);
    let want = plain::rotation_matrix(&ANGLES);
    for i in 0..3 {
        assert_all_same_bits(&r[i], &want[i], "rotation row");
    }
    assert_all_same_bits(
        &rotate(&ANGLES, POINT),
        &plain::rotate(&ANGLES, POINT),
        "rotate",
    );
    let a = [[2.0, 0.3, -0.1], [0.5, 1.0, 0.2], [0.0, -0.4, 3.0]];
    assert_same_bits(
        quad_form(a, &POINT),
        plain::quad_form(a, &POINT),
        "quad form",
    );
    let atoms = cluster();
    assert_same_bits(lennard_jones(&atoms), plain::lennard_jones(&atoms), "LJ");
    assert_same_bits(
        row_entropy(atoms.clone()),
        plain::row_entropy(atoms.clone()),
        "entropy",
    );
    assert_all_same_bits(
        &centroid_distances(&atoms),
        &plain::centroid_distances(&atoms),
        "distances",
    );
}

#[test]
fn rotation_matrix_jacobian_is_flattened_row_by_row() {
    let (values, jac) = rotation_matrix_jacobian(&ANGLES);
    let r = plain::rotation_matrix(&ANGLES);
    assert_all_close(&values, &r.concat(), 1e-15, "values");
    assert_eq!((jac.len(), jac[0].len()), (9, 3));
    let fd = fd_jacobian(
        |a| plain::rotation_matrix(&[a[0], a[1], a[2]]).concat(),
        &ANGLES,
    );
    assert_rows_close(&jac, &fd, 1e-6, "finite differences");
}

#[test]
fn rotate_jacobian_columns_for_the_point_are_the_rotation() {
    let (values, jac) = rotate_jacobian(&ANGLES, POINT);
    assert_all_close(&values, &plain::rotate(&ANGLES, POINT), 1e-15, "values");
    assert_eq!((jac.len(), jac[0].len()), (3, 6));
    let r = plain::rotation_matrix(&ANGLES);
    for i in 0..3 {
        assert_all_close(&jac[i][3..], &r[i], 1e-9, "dRp/dp = R");
    }
    let x: Vec<f64> = [ANGLES, POINT].concat();
    let fd = fd_jacobian(
        |v| plain::rotate(&[v[0], v[1], v[2]], [v[3], v[4], v[5]]),
        &x,
    );
    assert_rows_close(&jac, &fd, 1e-6, "finite differences");
}

#[test]
fn quad_form_gradients_have_the_parameters_shapes() {
    let a = [[2.0, 0.3, -0.1], [0.5, 1.0, 0.2], [0.0, -0.4, 3.0]];
    let (v, (g_a, g_x)) = quad_form_grad(a, &POINT);
    let (g_a, g_x): ([[f64; 3]; 3], [f64; 3]) = (g_a, g_x);
    assert_close(v, plain::quad_form(a, &POINT), 1e-15, "value");
    for i in 0..3 {
        for j in 0..3 {
            assert_close(g_a[i][j], POINT[i] * POINT[j], 1e-9, "x x^T");
        }
        let want: f64 = (0..3).map(|j| (a[i][j] + a[j][i]) * POINT[j]).sum();
        assert_close(g_x[i], want, 1e-9, "(A + A^T) x");
    }
}

#[test]
fn lennard_jones_gradient_is_minus_the_forces() {
    let atoms = cluster();
    let (e, g) = lennard_jones_grad(&atoms);
    let g: Vec<Vec<f64>> = g;
    assert_close(e, plain::lennard_jones(&atoms), 1e-14, "energy");
    assert_eq!(g.len(), atoms.len());
    // dE/dxᵢ = Σⱼ 4 (−12 r⁻¹⁴ + 6 r⁻⁸) (xᵢ − xⱼ).
    for i in 0..atoms.len() {
        let mut want = vec![0.0; 3];
        for j in 0..atoms.len() {
            if i == j {
                continue;
            }
            let d: Vec<f64> = (0..3).map(|k| atoms[i][k] - atoms[j][k]).collect();
            let r2: f64 = d.iter().map(|v| v * v).sum();
            let coef = 4.0 * (-12.0 / r2.powi(7) + 6.0 / r2.powi(4));
            for k in 0..3 {
                want[k] += coef * d[k];
            }
        }
        assert_all_close(&g[i], &want, 1e-9, &format!("atom {i}"));
    }
    let fd = fd_gradient(|v| plain::lennard_jones(&unflatten(v, 3)), &flatten(&atoms));
    assert_all_close(&flatten(&g), &fd, 1e-6, "finite differences");
}

#[test]
fn row_entropy_gradient_matches_closed_form() {
    let mut rng = Rng::new(4);
    let logits: Vec<Vec<f64>> = (0..4)
        .map(|_| (0..5).map(|_| 1.5 * rng.normal()).collect())
        .collect();
    let (h, g) = row_entropy_grad(logits.clone());
    let g: Vec<Vec<f64>> = g;
    assert_close(h, plain::row_entropy(logits.clone()), 1e-14, "value");
    for (row, g_row) in logits.iter().zip(&g) {
        let z: f64 = row.iter().map(|v| v.exp()).sum();
        let p: Vec<f64> = row.iter().map(|v| v.exp() / z).collect();
        let h_row: f64 = -p.iter().map(|p| p * p.ln()).sum::<f64>();
        let want: Vec<f64> = p.iter().map(|p| -p * (p.ln() + h_row)).collect();
        assert_all_close(g_row, &want, 1e-9, "closed form");
    }
}

#[test]
fn centroid_distances_jacobian_matches_finite_differences() {
    let atoms = cluster();
    let (values, jac) = centroid_distances_jacobian(&atoms);
    assert_all_close(&values, &plain::centroid_distances(&atoms), 1e-15, "values");
    assert_eq!((jac.len(), jac[0].len()), (7, 21));
    let fd = fd_jacobian(
        |v| plain::centroid_distances(&unflatten(v, 3)),
        &flatten(&atoms),
    );
    assert_rows_close(&jac, &fd, 1e-6, "finite differences");
}
