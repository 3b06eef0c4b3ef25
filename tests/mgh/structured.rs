//! The structured systems (MGH 28-35), run at n = 10 (Chebyquad: 8) and m = 20 for the
//! linear functions: boundary neighbours read with `if` and `get(..).unwrap_or`, cached
//! values collected into a local `Vec` and read through sub-slices, a padded copy walked by
//! `windows(3)`, a band loop with `continue`, a data parameter `m`, `zip(1..)`, and a generic
//! `T: Float` polynomial helper.
use super::{slice_problem, Problem};
use fazang::prelude::*;
use num_traits::Float;

/// 28. Discrete boundary value, h = 1/(n + 1), tᵢ = ih, x₀ = x_{n+1} = 0:
/// fᵢ = 2xᵢ − x_{i−1} − x_{i+1} + h²(xᵢ + tᵢ + 1)³/2.
#[differentiate]
pub fn discrete_boundary_value(x: &[f64]) -> f64 {
    let n = x.len();
    let h = 1.0 / (n + 1) as f64;
    let mut f = 0.0;
    for i in 0..n {
        let t = (i + 1) as f64 * h;
        let left = if i == 0 { 0.0 } else { x[i - 1] };
        let right = x.get(i + 1).copied().unwrap_or(0.0);
        let r = 2.0 * x[i] - left - right + h * h * (x[i] + t + 1.0).powi(3) / 2.0;
        f += r * r;
    }
    f
}

/// 29. Discrete integral equation: fᵢ = xᵢ + h[(1 − tᵢ) Σ_{j≤i} tⱼ(xⱼ + tⱼ + 1)³
/// + tᵢ Σ_{j>i} (1 − tⱼ)(xⱼ + tⱼ + 1)³]/2.
#[differentiate]
pub fn discrete_integral_equation(x: &[f64]) -> f64 {
    let n = x.len();
    let h = 1.0 / (n + 1) as f64;
    let t: Vec<f64> = (1..=n).map(|j| j as f64 * h).collect();
    let cubes: Vec<f64> = x
        .iter()
        .zip(&t)
        .map(|(xj, tj)| (xj + tj + 1.0).powi(3))
        .collect();
    let mut f = 0.0;
    for i in 0..n {
        let lower: f64 = t[..=i].iter().zip(&cubes[..=i]).map(|(tj, c)| tj * c).sum();
        let upper: f64 = t[i + 1..]
            .iter()
            .zip(&cubes[i + 1..])
            .map(|(tj, c)| (1.0 - tj) * c)
            .sum();
        let r = x[i] + h * ((1.0 - t[i]) * lower + t[i] * upper) / 2.0;
        f += r * r;
    }
    f
}

/// 30. Broyden tridiagonal, x₀ = x_{n+1} = 0: fᵢ = (3 − 2xᵢ)xᵢ − x_{i−1} − 2x_{i+1} + 1.
#[differentiate]
pub fn broyden_tridiagonal(x: &[f64]) -> f64 {
    let padded: Vec<f64> = std::iter::once(0.0)
        .chain(x.iter().copied())
        .chain(std::iter::once(0.0))
        .collect();
    padded
        .windows(3)
        .map(|w| ((3.0 - 2.0 * w[1]) * w[1] - w[0] - 2.0 * w[2] + 1.0).powi(2))
        .sum()
}

/// 31. Broyden banded, band 5 below and 1 above:
/// fᵢ = xᵢ(2 + 5xᵢ²) + 1 − Σ_{j ∈ band, j ≠ i} xⱼ(1 + xⱼ).
#[differentiate]
pub fn broyden_banded(x: &[f64]) -> f64 {
    let n = x.len();
    let (below, above) = (5, 1);
    let mut f = 0.0;
    for i in 0..n {
        let mut r = x[i] * (2.0 + 5.0 * x[i] * x[i]) + 1.0;
        for j in i.saturating_sub(below)..=(i + above).min(n - 1) {
            if j == i {
                continue;
            }
            r -= x[j] * (1.0 + x[j]);
        }
        f += r * r;
    }
    f
}

/// 32. Linear function, full rank, m ≥ n residuals: fᵢ = xᵢ − (2/m)Σxⱼ − 1 (i ≤ n),
/// fᵢ = −(2/m)Σxⱼ − 1 (i > n).
#[differentiate]
pub fn linear_full_rank(x: &[f64], m: usize) -> f64 {
    let n = x.len();
    let shift = 2.0 * x.iter().sum::<f64>() / m as f64 + 1.0;
    (0..m)
        .map(|i| {
            let xi = if i < n { x[i] } else { 0.0 };
            (xi - shift).powi(2)
        })
        .sum()
}

/// 33. Linear function, rank 1: fᵢ = i Σ j xⱼ − 1.
#[differentiate]
pub fn linear_rank1(x: &[f64], m: usize) -> f64 {
    let s: f64 = x.iter().zip(1..).map(|(v, j)| j as f64 * v).sum();
    (1..=m).map(|i| (i as f64 * s - 1.0).powi(2)).sum()
}

/// 34. Linear function, rank 1 with zero columns and rows: f₁ = f_m = −1,
/// fᵢ = (i − 1) Σ_{j=2}^{n−1} j xⱼ − 1 otherwise.
#[differentiate]
pub fn linear_rank1_zero(x: &[f64], m: usize) -> f64 {
    let n = x.len();
    let mut s = 0.0;
    for j in 1..n - 1 {
        s += (j + 1) as f64 * x[j];
    }
    let mut f = 2.0;
    for i in 2..m {
        let r = (i - 1) as f64 * s - 1.0;
        f += r * r;
    }
    f
}

/// The shifted Chebyshev polynomial of degree ≥ 1 on [0, 1], by the three-term recurrence.
fn shifted_chebyshev<T: Float>(degree: usize, x: T) -> T {
    let two = T::from(2.0).unwrap();
    let y = two * x - T::one();
    let (mut previous, mut current) = (T::one(), y);
    for _ in 1..degree {
        let next = two * y * current - previous;
        previous = current;
        current = next;
    }
    current
}

/// 35. Chebyquad, m = n: fᵢ = (1/n) Σⱼ Tᵢ(xⱼ) − ∫₀¹ Tᵢ, the integral 0 for odd i and
/// −1/(i² − 1) for even i.
#[differentiate]
pub fn chebyquad(x: &[f64]) -> f64 {
    let n = x.len();
    (1..=n)
        .map(|i| {
            let mean = x.iter().map(|&xj| shifted_chebyshev(i, xj)).sum::<f64>() / n as f64;
            let exact = if i % 2 == 0 {
                -1.0 / ((i * i) as f64 - 1.0)
            } else {
                0.0
            };
            (mean - exact).powi(2)
        })
        .sum()
}

/// Residual count of the linear functions (MGH allow any m ≥ n).
const M: usize = 20;

/// `n` values `g(j)`, j = 0..n.
fn point(n: usize, g: impl Fn(f64) -> f64) -> Vec<f64> {
    (0..n).map(|j| g(j as f64)).collect()
}

/// tⱼ(tⱼ − 1), tⱼ = j/(n + 1): the starting point of problems 28 and 29.
fn parabola(n: usize) -> Vec<f64> {
    let h = 1.0 / (n + 1) as f64;
    point(n, |j| (j + 1.0) * h * ((j + 1.0) * h - 1.0))
}

/// The problems of this module.
pub fn problems() -> Vec<Problem> {
    vec![
        slice_problem!(
            28,
            discrete_boundary_value,
            discrete_boundary_value_grad,
            __discrete_boundary_value_grad_tape,
            discrete_boundary_value_grad_into,
            || parabola(10),
            || point(10, |j| -0.05 - 0.02 * (j - 4.5).abs())
        ),
        slice_problem!(
            29,
            discrete_integral_equation,
            discrete_integral_equation_grad,
            __discrete_integral_equation_grad_tape,
            discrete_integral_equation_grad_into,
            || parabola(10),
            || point(10, |j| -0.05 - 0.02 * (j - 4.5).abs())
        ),
        slice_problem!(
            30,
            broyden_tridiagonal,
            broyden_tridiagonal_grad,
            __broyden_tridiagonal_grad_tape,
            broyden_tridiagonal_grad_into,
            || vec![-1.0; 10],
            || point(10, |j| -0.6 + 0.02 * j)
        ),
        slice_problem!(
            31,
            broyden_banded,
            broyden_banded_grad,
            __broyden_banded_grad_tape,
            broyden_banded_grad_into,
            || vec![-1.0; 10],
            || point(10, |j| -0.4 - 0.01 * j)
        ),
        Problem {
            number: 32,
            name: "linear_full_rank",
            f: |x| linear_full_rank(x, M),
            grad: |x| linear_full_rank_grad(x, M),
            tape: |x| __linear_full_rank_grad_tape(x, M),
            grad_into: Some(|x, g| linear_full_rank_grad_into(x, M, g)),
            x0: || vec![1.0; 10],
            other: || point(10, |j| -1.0 + 0.1 * j.sin()),
        },
        Problem {
            number: 33,
            name: "linear_rank1",
            f: |x| linear_rank1(x, M),
            grad: |x| linear_rank1_grad(x, M),
            tape: |x| __linear_rank1_grad_tape(x, M),
            grad_into: Some(|x, g| linear_rank1_grad_into(x, M, g)),
            x0: || vec![1.0; 10],
            other: || point(10, |j| 0.1 * j.cos()),
        },
        Problem {
            number: 34,
            name: "linear_rank1_zero",
            f: |x| linear_rank1_zero(x, M),
            grad: |x| linear_rank1_zero_grad(x, M),
            tape: |x| __linear_rank1_zero_grad_tape(x, M),
            grad_into: Some(|x, g| linear_rank1_zero_grad_into(x, M, g)),
            x0: || vec![1.0; 10],
            other: || point(10, |j| 0.1 * j.cos()),
        },
        slice_problem!(
            35,
            chebyquad,
            chebyquad_grad,
            __chebyquad_grad_tape,
            chebyquad_grad_into,
            || point(8, |j| (j + 1.0) / 9.0),
            || point(8, |j| (j + 1.0) / 9.0 + 0.02 * j.sin())
        ),
    ]
}
