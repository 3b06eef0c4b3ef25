//! The problems of any dimension n (MGH 20-27), run at n = 6 (Watson), 8 (extended Powell)
//! or 10: nested index loops with running products, `chunks`, `chunks_exact` with a slice
//! `match`, sums of iterator chains, `windows(2)` with `enumerate`, a local closure,
//! sub-slices, `fold` and `product`.
use super::{slice_problem, Problem};
use fazang::prelude::*;

/// 20. Watson, m = 31: for tᵢ = i/29, i = 1..29,
/// fᵢ = Σ_{j≥2} (j − 1)xⱼtᵢ^{j−2} − (Σ_j xⱼtᵢ^{j−1})² − 1; f₃₀ = x₁, f₃₁ = x₂ − x₁² − 1.
#[differentiate]
pub fn watson(x: &[f64]) -> f64 {
    let n = x.len();
    let mut f = 0.0;
    for i in 1..=29 {
        let t = i as f64 / 29.0;
        let mut slope = 0.0;
        let mut value = x[0];
        let mut power = 1.0;
        for j in 1..n {
            slope += j as f64 * power * x[j];
            power *= t;
            value += power * x[j];
        }
        let r = slope - value * value - 1.0;
        f += r * r;
    }
    f + x[0] * x[0] + (x[1] - x[0] * x[0] - 1.0).powi(2)
}

/// 21. Extended Rosenbrock: Rosenbrock on each consecutive pair.
#[differentiate]
pub fn extended_rosenbrock(x: &[f64]) -> f64 {
    x.chunks(2)
        .map(|p| 100.0 * (p[1] - p[0] * p[0]).powi(2) + (1.0 - p[0]).powi(2))
        .sum()
}

/// 22. Extended Powell singular: Powell singular on each block of four.
#[differentiate]
pub fn extended_powell(x: &[f64]) -> f64 {
    let mut f = 0.0;
    for block in x.chunks_exact(4) {
        f += match block {
            [a, b, c, d] => {
                (a + 10.0 * b).powi(2)
                    + 5.0 * (c - d).powi(2)
                    + (b - 2.0 * c).powi(4)
                    + 10.0 * (a - d).powi(4)
            }
            _ => unreachable!("chunks_exact(4) gives blocks of four"),
        };
    }
    f
}

/// 23. Penalty I, m = n + 1: fᵢ = √a (xᵢ − 1), f_{n+1} = Σxⱼ² − 1/4, a = 10⁻⁵.
#[differentiate]
pub fn penalty1(x: &[f64]) -> f64 {
    let a = 1e-5;
    let squares: f64 = x.iter().map(|v| v * v).sum();
    a * x.iter().map(|v| (v - 1.0).powi(2)).sum::<f64>() + (squares - 0.25).powi(2)
}

/// 24. Penalty II, m = 2n, a = 10⁻⁵: f₁ = x₁ − 0.2;
/// fᵢ = √a (e^{xᵢ/10} + e^{x_{i−1}/10} − yᵢ) for 2 ≤ i ≤ n, yᵢ = e^{i/10} + e^{(i−1)/10};
/// fᵢ = √a (e^{x_{i−n+1}/10} − e^{−1/10}) for n < i < 2n; f₂ₙ = Σ (n − j + 1)xⱼ² − 1.
#[differentiate]
pub fn penalty2(x: &[f64]) -> f64 {
    let n = x.len();
    let a = 1e-5;
    let e = |v: f64| (v / 10.0).exp();
    let mut f = (x[0] - 0.2).powi(2);
    for (i, w) in x.windows(2).enumerate() {
        let k = (i + 2) as f64;
        let y = (k / 10.0).exp() + ((k - 1.0) / 10.0).exp();
        f += a * (e(w[1]) + e(w[0]) - y).powi(2);
    }
    for v in &x[1..] {
        f += a * (e(*v) - (-0.1f64).exp()).powi(2);
    }
    let weighted: f64 = x
        .iter()
        .enumerate()
        .map(|(j, v)| (n - j) as f64 * v * v)
        .sum();
    f + (weighted - 1.0).powi(2)
}

/// 25. Variably dimensioned, m = n + 2: fᵢ = xᵢ − 1, f_{n+1} = Σ j(xⱼ − 1), f_{n+2} = f_{n+1}².
#[differentiate]
pub fn variably_dimensioned(x: &[f64]) -> f64 {
    let s = x
        .iter()
        .enumerate()
        .fold(0.0, |acc, (j, v)| acc + (j + 1) as f64 * (v - 1.0));
    x.iter().map(|v| (v - 1.0).powi(2)).sum::<f64>() + s.powi(2) + s.powi(4)
}

/// 26. Trigonometric, m = n: fᵢ = n − Σ cos xⱼ + i(1 − cos xᵢ) − sin xᵢ.
#[differentiate]
pub fn trigonometric(x: &[f64]) -> f64 {
    let n = x.len() as f64;
    let cos_sum: f64 = x.iter().map(|v| v.cos()).sum();
    let mut f = 0.0;
    for (i, xi) in x.iter().enumerate() {
        let r = n - cos_sum + (i + 1) as f64 * (1.0 - xi.cos()) - xi.sin();
        f += r * r;
    }
    f
}

/// 27. Brown almost-linear, m = n: fᵢ = xᵢ + Σxⱼ − (n + 1) for i < n, fₙ = Πxⱼ − 1.
#[differentiate]
pub fn brown_almost_linear(x: &[f64]) -> f64 {
    let n = x.len();
    let sum: f64 = x.iter().sum();
    let product: f64 = x.iter().product();
    let linear: f64 = x[..n - 1]
        .iter()
        .map(|xi| (xi + sum - (n + 1) as f64).powi(2))
        .sum();
    linear + (product - 1.0).powi(2)
}

/// `n` values `g(j)`, j = 0..n.
fn point(n: usize, g: impl Fn(f64) -> f64) -> Vec<f64> {
    (0..n).map(|j| g(j as f64)).collect()
}

/// The problems of this module.
pub fn problems() -> Vec<Problem> {
    vec![
        slice_problem!(
            20,
            watson,
            watson_grad,
            __watson_grad_tape,
            watson_grad_into,
            || vec![0.0; 6],
            || vec![-0.0157, 1.012, -0.233, 1.26, -1.51, 0.993]
        ),
        slice_problem!(
            21,
            extended_rosenbrock,
            extended_rosenbrock_grad,
            __extended_rosenbrock_grad_tape,
            extended_rosenbrock_grad_into,
            || point(10, |j| if j % 2.0 == 0.0 { -1.2 } else { 1.0 }),
            || point(10, |j| 0.9 + 0.03 * j)
        ),
        slice_problem!(
            22,
            extended_powell,
            extended_powell_grad,
            __extended_powell_grad_tape,
            extended_powell_grad_into,
            || [3.0, -1.0, 0.0, 1.0].repeat(2),
            || point(8, |j| 0.1
                * (j + 1.0)
                * if j % 2.0 == 0.0 { 1.0 } else { -1.0 })
        ),
        slice_problem!(
            23,
            penalty1,
            penalty1_grad,
            __penalty1_grad_tape,
            penalty1_grad_into,
            || point(10, |j| j + 1.0),
            || point(10, |j| 0.15 + 0.01 * j)
        ),
        slice_problem!(
            24,
            penalty2,
            penalty2_grad,
            __penalty2_grad_tape,
            penalty2_grad_into,
            || vec![0.5; 10],
            || point(10, |j| 0.2
                + 0.05 * j * if j % 2.0 == 0.0 { 1.0 } else { -1.0 })
        ),
        slice_problem!(
            25,
            variably_dimensioned,
            variably_dimensioned_grad,
            __variably_dimensioned_grad_tape,
            variably_dimensioned_grad_into,
            || point(10, |j| 1.0 - (j + 1.0) / 10.0),
            || point(10, |j| 1.0 + 0.1 * j.sin())
        ),
        slice_problem!(
            26,
            trigonometric,
            trigonometric_grad,
            __trigonometric_grad_tape,
            trigonometric_grad_into,
            || vec![0.1; 10],
            || point(10, |j| 0.05 * (j + 1.0))
        ),
        slice_problem!(
            27,
            brown_almost_linear,
            brown_almost_linear_grad,
            __brown_almost_linear_grad_tape,
            brown_almost_linear_grad_into,
            || vec![0.5; 10],
            || point(10, |j| 1.0 + 0.05 * (j - 5.0))
        ),
    ]
}
