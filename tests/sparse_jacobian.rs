//! `name_jacobian_sparse` (`#[differentiate(sparse)]`, DESIGN.md "Sparse derivatives"):
//! against a hand-written Jacobian (the Bratu residual), central differences and the
//! dense `name_jacobian` at random points (every entry non-zero there is in the pattern,
//! the values agree); nested and array results flattened row-major; branches on active
//! values, on data and on lengths that change the pattern between calls; `wrt`, several
//! parameters, impl blocks and modules.

#[path = "sparse_support/mod.rs"]
mod support;

use fazang::prelude::*;
use support::*;

/// The residual of u'' + λ eᵘ = 0 on (0, 1), u(0) = u(1) = 0, by central differences.
#[differentiate(sparse, wrt(u))]
fn bratu(u: &[f64], lambda: f64) -> Vec<f64> {
    let n = u.len();
    let h = 1.0 / (n + 1) as f64;
    (0..n)
        .map(|i| {
            let left = if i > 0 { u[i - 1] } else { 0.0 };
            let right = if i + 1 < n { u[i + 1] } else { 0.0 };
            (left - 2.0 * u[i] + right) / (h * h) + lambda * u[i].exp()
        })
        .collect()
}

/// Its Jacobian, by hand.
fn bratu_hand(u: &[f64], lambda: f64) -> Triplets {
    let n = u.len();
    let ih2 = ((n + 1) as f64).powi(2);
    let mut j = Vec::new();
    for (i, ui) in u.iter().enumerate() {
        if i > 0 {
            j.push((i, i - 1, ih2));
        }
        j.push((i, i, -2.0 * ih2 + lambda * ui.exp()));
        if i + 1 < n {
            j.push((i, i + 1, ih2));
        }
    }
    j
}

#[test]
fn bratu_against_the_hand_written_jacobian() {
    let mut p = Points::new(11);
    for n in [1, 2, 5, 200] {
        let u = p.vec(n, -0.5, 0.5);
        let (f, jac) = bratu_jacobian_sparse(&u, 1.3);
        assert_eq!(f, bratu(&u, 1.3));
        let want = bratu_hand(&u, 1.3);
        assert_eq!(positions(&jac), positions(&want), "n = {n}");
        for (&(i, j, a), &(_, _, b)) in jac.iter().zip(&want) {
            assert!(
                (a - b).abs() <= 1e-12 * b.abs(),
                "J[{i}][{j}] = {a}, want {b}"
            );
        }
    }
}

#[test]
fn bratu_against_central_differences() {
    let u = Points::new(12).vec(15, -0.5, 0.5);
    let (_, jac) = bratu_jacobian_sparse(&u, 2.0);
    let fd = central_jacobian(|u| bratu(u, 2.0), &u);
    assert_close_to_differences(&jac, &fd, 1e-7, "bratu");
}

/// A 3-point stencil with nonlinear flux, written with `windows`.
#[differentiate(sparse)]
fn flux_divergence(u: &[f64]) -> Vec<f64> {
    u.windows(3)
        .map(|w| (w[2] - w[1]).powi(3) - (w[1] - w[0]).atan() + w[1].sqrt())
        .collect()
}

/// Nested outputs, flattened row-major: a 2-vector per point, from two parameters.
#[differentiate(sparse)]
fn velocities(x: &[f64], v: &[f64]) -> Vec<[f64; 2]> {
    x.iter()
        .zip(v)
        .map(|(xi, vi)| [vi * xi.cos(), -xi * vi * vi])
        .collect()
}

/// An array result with a scalar parameter meeting every input.
#[differentiate(sparse)]
fn scaled_head(k: f64, x: [f64; 4]) -> [f64; 3] {
    [k * x[0], x[1] * x[2], (x[3] / k).exp()]
}

#[test]
fn matches_the_dense_jacobian_at_random_points() {
    let mut p = Points::new(13);
    for _ in 0..5 {
        let u = p.vec(9, 0.1, 2.0);
        let (f, jac) = flux_divergence_jacobian_sparse(&u);
        let (f0, d) = flux_divergence_jacobian(&u);
        assert_eq!(f, f0);
        assert_matches_dense(&jac, &d, 1e-14, "flux_divergence");
        assert_eq!(jac.len(), 3 * 7);

        let (f, jac) = velocities_jacobian_sparse(&u[..4], &u[4..8]);
        let (f0, d) = velocities_jacobian(&u[..4], &u[4..8]);
        assert_eq!(f, f0);
        assert_eq!(f.len(), 8, "4 points x 2, row-major");
        assert_matches_dense(&jac, &d, 1e-14, "velocities");
        // Output 2i and 2i + 1 depend on x_i (column i) and v_i (column 4 + i).
        assert_eq!(jac.len(), 16);
        assert!(jac.iter().all(|&(r, c, _)| c % 4 == r / 2));

        let x = [u[0], u[1], u[2], u[3]];
        let (f, jac) = scaled_head_jacobian_sparse(u[4], x);
        let (f0, d) = scaled_head_jacobian(u[4], x);
        assert_eq!(f, f0);
        assert_matches_dense(&jac, &d, 1e-14, "scaled_head");
        assert_eq!(
            positions(&jac),
            [(0, 0), (0, 1), (1, 2), (1, 3), (2, 0), (2, 4)]
        );
    }
}

/// Upwinding: the sign of an active value picks the neighbour each output reads.
#[differentiate(sparse)]
fn upwind(u: &[f64]) -> Vec<f64> {
    let n = u.len();
    (0..n)
        .map(|i| {
            let neighbour = if u[i] > 0.0 {
                u[(i + n - 1) % n]
            } else {
                u[(i + 1) % n]
            };
            u[i] * (u[i] - neighbour)
        })
        .collect()
}

#[test]
fn a_branch_on_an_active_value_changes_the_pattern_between_calls() {
    let right = [0.5, 1.0, 2.0, 0.7, 0.3];
    let left: Vec<f64> = right.iter().map(|v| -v).collect();
    for u in [&right[..], &left, &right, &left] {
        let (_, jac) = upwind_jacobian_sparse(u);
        let (_, d) = upwind_jacobian(u);
        assert_matches_dense(&jac, &d, 0.0, "upwind");
        let step = if u[0] > 0.0 { 4 } else { 1 };
        assert!(jac.contains(&(0, step, d[0][step])), "{jac:?}");
    }
}

/// Data decides which inputs each output reads (no comparison of an active value).
#[differentiate(sparse, wrt(x))]
fn gather(x: &[f64], index: &[usize]) -> Vec<f64> {
    index.iter().map(|&i| x[i] * x[i] + x[0]).collect()
}

#[test]
fn data_changes_the_pattern_between_calls() {
    let x = [1.0, 2.0, 3.0, 4.0];
    let a = [1, 2, 3];
    let b = [3, 3, 1];
    for idx in [a, b, a, b] {
        let (_, jac) = gather_jacobian_sparse(&x, &idx);
        let (_, d) = gather_jacobian(&x, &idx);
        assert_matches_dense(&jac, &d, 0.0, "gather");
        let want: Vec<(usize, usize)> = idx
            .iter()
            .enumerate()
            .flat_map(|(r, &i)| [(r, 0), (r, i)])
            .collect();
        assert_eq!(positions(&jac), want);
    }
}

/// Impl blocks and modules.
struct Grid {
    spacing: f64,
}

#[differentiate(sparse)]
impl Grid {
    fn laplacian(&self, u: &[f64]) -> Vec<f64> {
        let h2 = self.spacing * self.spacing;
        u.windows(3)
            .map(|w| (w[0] - 2.0 * w[1] + w[2]) / h2)
            .collect()
    }
}

#[differentiate(sparse)]
mod chemistry {
    /// Two species on a line, each reacting with its neighbours.
    pub fn rates(c: &[f64]) -> Vec<f64> {
        (1..c.len() - 1)
            .map(|i| reaction(c[i - 1], c[i], c[i + 1]))
            .collect()
    }

    fn reaction(a: f64, b: f64, c: f64) -> f64 {
        a * b - b * c.powi(2)
    }
}

#[test]
fn impl_blocks_and_modules() {
    let u = Points::new(14).vec(7, -1.0, 1.0);
    let g = Grid { spacing: 0.1 };
    let (f, jac) = g.laplacian_jacobian_sparse(&u);
    assert_eq!(f, g.laplacian(&u));
    for &(i, j, v) in &jac {
        let want = if j == i + 1 { -200.0 } else { 100.0 };
        assert!((v - want).abs() < 1e-10, "({i}, {j}) = {v}");
    }
    assert_eq!(jac.len(), 15);
    let (_, jac) = chemistry::rates_jacobian_sparse(&u);
    let (_, d) = chemistry::rates_jacobian(&u);
    assert_matches_dense(&jac, &d, 1e-14, "rates");
    assert_eq!(jac.len(), 15);
}

#[test]
fn no_outputs_and_constant_outputs() {
    let (f, jac) = flux_divergence_jacobian_sparse(&[1.0, 2.0]);
    assert!(f.is_empty() && jac.is_empty());
    let (f, jac) = gather_jacobian_sparse(&[1.0], &[]);
    assert!(f.is_empty() && jac.is_empty());
}
