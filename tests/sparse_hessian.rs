//! `name_hessian_sparse` (`#[differentiate(sparse)]`, DESIGN.md "Sparse derivatives"):
//! against hand-written Hessians, central differences of the gradient and the dense
//! `name_hessian` at random points (every entry non-zero there is in the pattern, the
//! values agree); both triangles; branches on active values, on data and on lengths that
//! change the pattern between calls (the kept pattern must be detected again); `wrt`,
//! several parameters, `Result`, impl blocks, modules and threads.

#[path = "sparse_support/mod.rs"]
mod support;

use fazang::prelude::*;
use support::*;

/// Gradients from the sparse and dense Hessians (different sweeps) agree to rounding.
#[track_caller]
fn assert_close_all(a: &[f64], b: &[f64]) {
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(b) {
        assert!((x - y).abs() <= 1e-14 * y.abs().max(1.0), "{x} vs {y}");
    }
}

#[differentiate(sparse)]
fn ext_rosenbrock(x: &[f64]) -> f64 {
    x.windows(2)
        .map(|w| 100.0 * (w[1] - w[0] * w[0]).powi(2) + (1.0 - w[0]).powi(2))
        .sum()
}

/// The tridiagonal Hessian of `ext_rosenbrock`, by hand.
fn ext_rosenbrock_hand(x: &[f64]) -> Triplets {
    let n = x.len();
    let mut h = Vec::new();
    for i in 0..n {
        if i > 0 {
            h.push((i, i - 1, -400.0 * x[i - 1]));
        }
        let mut d = if i > 0 { 200.0 } else { 0.0 };
        if i + 1 < n {
            d += 1200.0 * x[i] * x[i] - 400.0 * x[i + 1] + 2.0;
        }
        h.push((i, i, d));
        if i + 1 < n {
            h.push((i, i + 1, -400.0 * x[i]));
        }
    }
    h
}

#[test]
fn rosenbrock_against_the_hand_written_hessian() {
    let mut p = Points::new(1);
    for n in [2, 3, 10, 101] {
        let x = p.vec(n, -2.0, 2.0);
        let (v, g, h) = ext_rosenbrock_hessian_sparse(&x);
        let want = ext_rosenbrock_hand(&x);
        assert_eq!(
            positions(&h),
            positions(&want),
            "n = {n}: the pattern is tridiagonal"
        );
        for (&(i, j, a), &(_, _, b)) in h.iter().zip(&want) {
            assert!(
                (a - b).abs() <= 1e-12 * b.abs().max(1.0),
                "H[{i}][{j}] = {a}, want {b}"
            );
        }
        let (v0, g0) = ext_rosenbrock_grad(&x);
        assert_eq!(v, v0);
        for (a, b) in g.iter().zip(&g0) {
            assert!((a - b).abs() <= 1e-12 * b.abs().max(1.0));
        }
        assert_symmetric(&h);
    }
}

#[test]
fn rosenbrock_against_central_differences_of_the_gradient() {
    let x = Points::new(2).vec(12, -1.5, 1.5);
    let (_, _, h) = ext_rosenbrock_hessian_sparse(&x);
    let fd = central_jacobian(|x| ext_rosenbrock_grad(x).1, &x);
    assert_close_to_differences(&h, &fd, 1e-6, "ext_rosenbrock");
}

/// An arrowhead: x₀ meets every other input, nothing else meets.
#[differentiate(sparse)]
fn arrowhead(x: &[f64]) -> f64 {
    let (head, rest) = x.split_first().unwrap();
    rest.iter().map(|xi| head * xi * xi + xi.sin()).sum::<f64>()
}

#[test]
fn arrowhead_pattern_and_values() {
    let x = Points::new(3).vec(6, -1.0, 1.0);
    let (_, _, h) = arrowhead_hessian_sparse(&x);
    let mut want = Vec::new();
    for i in 0..6 {
        for j in 0..6 {
            // ∂²/∂x₀² = 0 structurally: f is linear in x₀.
            let on = (i == 0) != (j == 0) || (i == j && i > 0);
            if on {
                let v = match (i, j) {
                    (0, j) => 2.0 * x[j],
                    (i, 0) => 2.0 * x[i],
                    (i, _) => 2.0 * x[0] - x[i].sin(),
                };
                want.push((i, j, v));
            }
        }
    }
    assert_eq!(positions(&h), positions(&want));
    for (&(i, j, a), &(_, _, b)) in h.iter().zip(&want) {
        assert!(
            (a - b).abs() <= 1e-14 * b.abs().max(1.0),
            "H[{i}][{j}] = {a}, want {b}"
        );
    }
}

/// A spring chain with data stiffnesses, a helper per bond and a nonlinear potential.
#[differentiate]
fn bond(a: f64, b: f64, k: f64) -> f64 {
    0.5 * k * (b - a - 1.0).powi(2)
}

#[differentiate(sparse, wrt(x))]
fn chain_energy(x: &[f64], k: &[f64]) -> f64 {
    let bonds: f64 = x
        .windows(2)
        .zip(k)
        .map(|(w, &ki)| bond(w[0], w[1], ki))
        .sum();
    bonds + x.iter().map(|xi| xi.cosh().ln()).sum::<f64>()
}

/// Several parameters of several shapes; the gradient is a tuple.
#[differentiate(sparse)]
fn mixed(a: f64, x: &[f64], b: [f64; 2]) -> f64 {
    let inner: f64 = x.iter().map(|xi| (a * xi).sin()).sum();
    inner * b[0] + b[1].exp() * x[0] + a.powi(3)
}

/// Pairs of inputs meet only through `exp`: a sum of pairwise terms.
#[differentiate(sparse)]
fn pairs_every_third(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in (0..x.len()).step_by(3) {
        if let Some(&y) = x.get(i + 2) {
            s += (x[i] - y).exp() / (1.0 + x[i + 1] * x[i + 1]);
        }
    }
    s
}

/// Every input meets every other (a dense Hessian: the pattern says so, it is not a
/// fallback).
#[differentiate(sparse)]
fn log_cosh_pairs(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for (i, xi) in x.iter().enumerate() {
        for xj in &x[i + 1..] {
            s += (xi - xj).cosh().ln();
        }
    }
    s + 0.5 * x.iter().map(|v| v * v).sum::<f64>()
}

#[test]
fn matches_the_dense_hessian_at_random_points() {
    let mut p = Points::new(4);
    for _ in 0..5 {
        let x = p.vec(9, -1.2, 1.2);
        let k = p.vec(8, 0.5, 2.0);
        let (v, g, h) = chain_energy_hessian_sparse(&x, &k);
        let (v0, g0, d) = chain_energy_hessian(&x, &k);
        assert_eq!(v, v0);
        assert_close_all(&g, &g0);
        assert_matches_dense(&h, &d, 1e-13, "chain_energy");
        assert_symmetric(&h);
        assert_eq!(h.len(), 9 + 2 * 8, "tridiagonal");

        let (v, (ga, gx, gb), h) = mixed_hessian_sparse(x[0], &x[1..5], [x[5], x[6]]);
        let (v0, (ga0, gx0, gb0), d) = mixed_hessian(x[0], &x[1..5], [x[5], x[6]]);
        assert_eq!(v, v0);
        assert_close_all(&[ga], &[ga0]);
        assert_close_all(&gx, &gx0);
        assert_close_all(&gb, &gb0);
        assert_matches_dense(&h, &d, 1e-13, "mixed");

        let (_, _, h) = pairs_every_third_hessian_sparse(&x);
        let (_, _, d) = pairs_every_third_hessian(&x);
        assert_matches_dense(&h, &d, 1e-13, "pairs_every_third");
        assert_eq!(h.len(), 3 * 9, "three dense 3 x 3 blocks");

        let (_, _, h) = log_cosh_pairs_hessian_sparse(&x[..6]);
        let (_, _, d) = log_cosh_pairs_hessian(&x[..6]);
        assert_matches_dense(&h, &d, 1e-13, "log_cosh_pairs");
        assert_eq!(h.len(), 36);
    }
}

/// A branch on an active value picks which inputs meet.
#[differentiate(sparse)]
fn switch(x: &[f64]) -> f64 {
    let coupled = if x[0] > 0.0 { x[1] * x[2] } else { x[1] * x[3] };
    coupled + x[0].powi(2)
}

#[test]
fn a_branch_on_an_active_value_changes_the_pattern_between_calls() {
    let up = [0.5, 1.0, 2.0, 3.0];
    let down = [-0.5, 1.0, 2.0, 3.0];
    for x in [up, down, up, down] {
        let (_, _, h) = switch_hessian_sparse(&x);
        let (_, _, d) = switch_hessian(&x);
        assert_matches_dense(&h, &d, 0.0, "switch");
        let other = if x[0] > 0.0 { 2 } else { 3 };
        assert_eq!(positions(&h), {
            let mut p = vec![(0, 0), (1, other), (other, 1)];
            p.sort();
            p
        });
    }
}

/// A branch on data (no comparison of an active value at all) picks the pattern.
#[differentiate(sparse, wrt(x))]
fn masked(x: &[f64], mask: &[bool]) -> f64 {
    x.windows(2)
        .zip(mask)
        .map(|(w, &m)| if m { w[0] * w[1] } else { w[0] + w[1] })
        .sum()
}

#[test]
fn a_branch_on_data_changes_the_pattern_between_calls() {
    let x = [0.3, -1.1, 2.0, 0.7, 1.5];
    let a = [true, false, false, true];
    let b = [false, true, true, false];
    for mask in [a, b, a, b] {
        let (_, _, h) = masked_hessian_sparse(&x, &mask);
        let (_, _, d) = masked_hessian(&x, &mask);
        assert_matches_dense(&h, &d, 0.0, "masked");
        let want: usize = mask.iter().filter(|&&m| m).count() * 2;
        assert_eq!(h.len(), want, "{mask:?}: {h:?}");
    }
}

#[test]
fn a_different_length_changes_the_pattern_between_calls() {
    let mut p = Points::new(5);
    for n in [4, 7, 4, 30, 7] {
        let x = p.vec(n, -1.0, 1.0);
        let (_, _, h) = ext_rosenbrock_hessian_sparse(&x);
        let (_, _, d) = ext_rosenbrock_hessian(&x);
        assert_matches_dense(&h, &d, 1e-13, "ext_rosenbrock");
        assert_eq!(h.len(), 3 * n - 2);
    }
}

/// A product only compared, never used: it adds nothing to the pattern.
#[differentiate(sparse)]
fn compared_only(x: &[f64]) -> f64 {
    let t = x[0] * x[1];
    let y = if t > 0.0 { x[2] } else { x[3] };
    y.sin() + x[0]
}

#[test]
fn operations_the_result_does_not_depend_on_add_nothing() {
    let (_, _, h) = compared_only_hessian_sparse(&[1.0, 2.0, 0.5, 0.25]);
    assert_eq!(h, vec![(2, 2, -0.5_f64.sin())]);
    let (_, _, h) = compared_only_hessian_sparse(&[-1.0, 2.0, 0.5, 0.25]);
    assert_eq!(h, vec![(3, 3, -0.25_f64.sin())]);
}

/// A random walk prior through a distribution (partials from the distribution, not from
/// elementary operations), with an error for a bad scale.
#[differentiate(sparse, wrt(mu))]
fn walk_lp(mu: &[f64], sigma: f64) -> Result<f64, DomainError> {
    let mut lp = normal_lpdf(mu[0], 0.0, 10.0)?;
    for w in mu.windows(2) {
        lp += normal_lpdf(w[1], w[0], sigma)?;
    }
    Ok(lp)
}

#[test]
fn result_functions_wrap_the_tuple() {
    let mu = Points::new(6).vec(7, -1.0, 1.0);
    let (v, g, h) = walk_lp_hessian_sparse(&mu, 0.7).unwrap();
    let (v0, g0, d) = walk_lp_hessian(&mu, 0.7).unwrap();
    assert_eq!(v, v0);
    assert_close_all(&g, &g0);
    assert_matches_dense(&h, &d, 1e-13, "walk_lp");
    assert_eq!(h.len(), 3 * 7 - 2);
    // By hand: ∂²/∂μᵢ∂μᵢ₊₁ of -(μᵢ₊₁ - μᵢ)²/(2σ²) is 1/σ².
    assert!(h
        .iter()
        .filter(|t| t.0 != t.1)
        .all(|t| (t.2 - 1.0 / 0.49).abs() < 1e-12));
    let e = walk_lp_hessian_sparse(&mu, -1.0).unwrap_err();
    assert!(e.to_string().contains("Scale parameter is -1"), "{e}");
}

/// Springs as a user's model type: `self` is data.
struct Springs {
    stiffness: Vec<f64>,
}

#[differentiate(sparse)]
impl Springs {
    fn energy(&self, x: &[f64]) -> f64 {
        x.windows(2)
            .zip(&self.stiffness)
            .map(|(w, k)| 0.5 * k * (w[1] - w[0]).powi(2) + w[0].powi(4))
            .sum()
    }
}

#[differentiate(sparse)]
mod lattice {
    /// Nearest neighbours on a ring: a cyclic band.
    pub fn ring(x: &[f64]) -> f64 {
        let n = x.len();
        (0..n).map(|i| pair(x[i], x[(i + 1) % n])).sum()
    }

    fn pair(a: f64, b: f64) -> f64 {
        (a * b).cos()
    }
}

#[test]
fn impl_blocks_and_modules() {
    let x = Points::new(7).vec(8, -1.0, 1.0);
    let s = Springs {
        stiffness: (1..8).map(f64::from).collect(),
    };
    let (_, _, h) = s.energy_hessian_sparse(&x);
    let (_, _, d) = s.energy_hessian(&x);
    assert_matches_dense(&h, &d, 1e-13, "Springs::energy");
    assert_eq!(h.len(), 3 * 8 - 2);
    let (_, _, h) = lattice::ring_hessian_sparse(&x);
    let (_, _, d) = lattice::ring_hessian(&x);
    assert_matches_dense(&h, &d, 1e-13, "ring");
    assert_eq!(h.len(), 3 * 8, "tridiagonal plus the corners");
    assert!(h.contains(&(0, 7, d[0][7])));
}

#[test]
fn threads_share_the_kept_patterns() {
    let handles: Vec<_> = (0..4)
        .map(|t| {
            std::thread::spawn(move || {
                let mut p = Points::new(100 + t);
                for k in 0..20 {
                    let n = 3 + (t as usize + k) % 5;
                    let x = p.vec(n, -1.0, 1.0);
                    let (_, _, h) = ext_rosenbrock_hessian_sparse(&x);
                    let (_, _, d) = ext_rosenbrock_hessian(&x);
                    assert_matches_dense(&h, &d, 1e-13, "threads");
                    let y = [x[0] - 0.5, 1.0, 2.0, 3.0];
                    let (_, _, h) = switch_hessian_sparse(&y);
                    assert_matches_dense(&h, &switch_hessian(&y).2, 0.0, "threads");
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
}

/// Neighbours meet through many elementary functions, with more colours than one pass
/// carries (a band of half-width 3: seven colours, two passes): every second derivative
/// of the compressed pass comes from its operations' partials taken on dual numbers.
#[differentiate(sparse)]
fn many_operations(x: &[f64]) -> f64 {
    let terms = x.windows(4).map(|w| {
        let (a, b, c, d) = (w[0], w[1], w[2], w[3]);
        let r = a.hypot(b);
        (a * b).tanh() + b.atan2(c + 2.0) + (1.0 + c * c).sqrt() / (2.0 + a.sin())
            - (r + 1.0).ln() * (0.5 * c).exp()
            + (b * b + 1.0).powf(0.3 * d)
            + a.mul_add(d, c).asinh()
            + 1.0 / (2.0 + d.cos())
            + (a - d).max(b * c)
            + (c * d).cbrt()
            + (0.1 * b * d).exp_m1()
            + (c * c).ln_1p()
    });
    terms.sum::<f64>() + x.iter().map(|v| v.powi(3) / 3.0).sum::<f64>()
}

#[test]
fn many_operations_against_the_dense_hessian_and_differences() {
    let mut p = Points::new(11);
    for _ in 0..4 {
        let x = p.vec(13, -1.0, 1.0);
        let (v, g, h) = many_operations_hessian_sparse(&x);
        let (v0, g0, d) = many_operations_hessian(&x);
        assert_eq!(v, v0);
        assert_close_all(&g, &g0);
        assert_matches_dense(&h, &d, 1e-13, "many_operations");
        assert_symmetric(&h);
        // Entry by entry too: a small entry is not hidden by its row's largest one.
        for &(i, j, a) in &h {
            let b = d[i][j];
            assert!(
                (a - b).abs() <= 1e-11 * b.abs() + 1e-15,
                "many_operations: entry ({i}, {j}) is {a} sparse, {b} dense"
            );
        }
        assert_eq!(h.len(), 7 * 13 - 2 * (1 + 2 + 3), "a band of half-width 3");
        let fd = central_jacobian(|x| many_operations_grad(x).1, &x);
        assert_close_to_differences(&h, &fd, 1e-6, "many_operations");
    }
}
