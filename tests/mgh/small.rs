//! The small closed-form problems (MGH 1-7, 13, 14): two to four variables, written as
//! scalar parameters, arrays, destructuring `let`s, a residual vector, a residual helper
//! chosen by `match`, and a branchy helper.
use super::{array_grad_into, slice_problem, Problem};
use fazang::prelude::*;

/// 1. Rosenbrock: f₁ = 10(x₂ − x₁²), f₂ = 1 − x₁.
#[differentiate]
pub fn rosenbrock(x1: f64, x2: f64) -> f64 {
    100.0 * (x2 - x1 * x1).powi(2) + (1.0 - x1).powi(2)
}

/// 2. Freudenstein and Roth, as the residual vector a least-squares solver would want.
#[differentiate]
pub fn freudenstein_roth_residuals(x: &[f64]) -> Vec<f64> {
    let (x1, x2) = (x[0], x[1]);
    vec![
        -13.0 + x1 + ((5.0 - x2) * x2 - 2.0) * x2,
        -29.0 + x1 + ((x2 + 1.0) * x2 - 14.0) * x2,
    ]
}

/// 2. Freudenstein and Roth: the sum of squares of the residual vector.
#[differentiate]
pub fn freudenstein_roth(x: &[f64]) -> f64 {
    freudenstein_roth_residuals(x).iter().map(|r| r * r).sum()
}

/// 3. Powell badly scaled.
#[differentiate]
pub fn powell_badly_scaled(x: &[f64]) -> f64 {
    let [x1, x2] = [x[0], x[1]];
    let f1 = 1e4 * x1 * x2 - 1.0;
    let f2 = (-x1).exp() + (-x2).exp() - 1.0001;
    f1 * f1 + f2 * f2
}

/// 4. Brown badly scaled: residual `i` of three.
#[differentiate]
pub fn brown_residual(x: [f64; 2], i: usize) -> f64 {
    match i {
        0 => x[0] - 1e6,
        1 => x[1] - 2e-6,
        _ => x[0] * x[1] - 2.0,
    }
}

/// 4. Brown badly scaled.
#[differentiate]
pub fn brown_badly_scaled(x: [f64; 2]) -> f64 {
    (0..3).map(|i| brown_residual(x, i).powi(2)).sum()
}

/// 5. Beale's data.
const BEALE_Y: [f64; 3] = [1.5, 2.25, 2.625];

/// 5. Beale: fᵢ = yᵢ − x₁(1 − x₂ⁱ).
#[differentiate]
pub fn beale(x1: f64, x2: f64) -> f64 {
    BEALE_Y
        .iter()
        .enumerate()
        .map(|(i, y)| {
            let r = y - x1 * (1.0 - x2.powi(i as i32 + 1));
            r * r
        })
        .sum()
}

/// 6. Jennrich and Sampson, m = 10: fᵢ = 2 + 2i − (e^{i x₁} + e^{i x₂}).
#[differentiate]
pub fn jennrich_sampson(x: [f64; 2]) -> f64 {
    (1..=10)
        .map(|i| {
            let i = i as f64;
            let r = 2.0 + 2.0 * i - ((i * x[0]).exp() + (i * x[1]).exp());
            r * r
        })
        .sum()
}

/// 7. Helical valley's angle θ(x₁, x₂) in turns, on the branch MGH choose by the sign of x₁.
#[differentiate]
pub fn helical_theta(x1: f64, x2: f64) -> f64 {
    let turns = (x2 / x1).atan() / (2.0 * std::f64::consts::PI);
    if x1 > 0.0 {
        turns
    } else {
        turns + 0.5
    }
}

/// 7. Helical valley.
#[differentiate]
pub fn helical_valley(x: &[f64]) -> f64 {
    let (x1, x2, x3) = (x[0], x[1], x[2]);
    let f1 = 10.0 * (x3 - 10.0 * helical_theta(x1, x2));
    let f2 = 10.0 * ((x1 * x1 + x2 * x2).sqrt() - 1.0);
    f1.powi(2) + f2.powi(2) + x3.powi(2)
}

/// 13. Powell singular.
#[differentiate]
pub fn powell_singular(x: &[f64]) -> f64 {
    let [x1, x2, x3, x4] = [x[0], x[1], x[2], x[3]];
    let f = [
        x1 + 10.0 * x2,
        5f64.sqrt() * (x3 - x4),
        (x2 - 2.0 * x3).powi(2),
        10f64.sqrt() * (x1 - x4).powi(2),
    ];
    f.iter().map(|v| v * v).sum()
}

/// 14. Wood.
#[differentiate]
pub fn wood(x: [f64; 4]) -> f64 {
    let residuals = [
        10.0 * (x[1] - x[0] * x[0]),
        1.0 - x[0],
        90f64.sqrt() * (x[3] - x[2] * x[2]),
        1.0 - x[2],
        10f64.sqrt() * (x[1] + x[3] - 2.0),
        (x[1] - x[3]) / 10f64.sqrt(),
    ];
    residuals.iter().fold(0.0, |acc, r| acc + r * r)
}

/// The problems of this module.
pub fn problems() -> Vec<Problem> {
    vec![
        Problem {
            number: 1,
            name: "rosenbrock",
            f: |x| rosenbrock(x[0], x[1]),
            grad: |x| {
                let (v, g) = rosenbrock_grad(x[0], x[1]);
                (v, g.to_vec())
            },
            tape: |x| {
                let (v, g) = __rosenbrock_grad_tape(x[0], x[1]);
                (v, g.to_vec())
            },
            grad_into: Some(|x, g| rosenbrock_grad_into(x[0], x[1], g)),
            x0: || vec![-1.2, 1.0],
            other: || vec![0.5, -0.3],
        },
        slice_problem!(
            2,
            freudenstein_roth,
            freudenstein_roth_grad,
            __freudenstein_roth_grad_tape,
            freudenstein_roth_grad_into,
            || vec![0.5, -2.0],
            || vec![4.9, 3.8]
        ),
        slice_problem!(
            3,
            powell_badly_scaled,
            powell_badly_scaled_grad,
            __powell_badly_scaled_grad_tape,
            powell_badly_scaled_grad_into,
            || vec![0.0, 1.0],
            || vec![1.2e-5, 9.0]
        ),
        Problem {
            number: 4,
            name: "brown_badly_scaled",
            f: |x| brown_badly_scaled([x[0], x[1]]),
            grad: |x| {
                let (v, g) = brown_badly_scaled_grad([x[0], x[1]]);
                (v, g.to_vec())
            },
            tape: |x| {
                let (v, g) = __brown_badly_scaled_grad_tape([x[0], x[1]]);
                (v, g.to_vec())
            },
            grad_into: array_grad_into!(|x, g| brown_badly_scaled_grad_into([x[0], x[1]], g)),
            x0: || vec![1.0, 1.0],
            other: || vec![1e6 + 1.0, 2.1e-6],
        },
        Problem {
            number: 5,
            name: "beale",
            f: |x| beale(x[0], x[1]),
            grad: |x| {
                let (v, g) = beale_grad(x[0], x[1]);
                (v, g.to_vec())
            },
            tape: |x| {
                let (v, g) = __beale_grad_tape(x[0], x[1]);
                (v, g.to_vec())
            },
            grad_into: Some(|x, g| beale_grad_into(x[0], x[1], g)),
            x0: || vec![1.0, 1.0],
            other: || vec![2.5, 0.3],
        },
        Problem {
            number: 6,
            name: "jennrich_sampson",
            f: |x| jennrich_sampson([x[0], x[1]]),
            grad: |x| {
                let (v, g) = jennrich_sampson_grad([x[0], x[1]]);
                (v, g.to_vec())
            },
            tape: |x| {
                let (v, g) = __jennrich_sampson_grad_tape([x[0], x[1]]);
                (v, g.to_vec())
            },
            grad_into: array_grad_into!(|x, g| jennrich_sampson_grad_into([x[0], x[1]], g)),
            x0: || vec![0.3, 0.4],
            other: || vec![0.25, 0.26],
        },
        slice_problem!(
            7,
            helical_valley,
            helical_valley_grad,
            __helical_valley_grad_tape,
            helical_valley_grad_into,
            || vec![-1.0, 0.0, 0.0],
            // x₁ > 0: the other branch of θ.
            || vec![0.8, 0.3, 0.5]
        ),
        slice_problem!(
            13,
            powell_singular,
            powell_singular_grad,
            __powell_singular_grad_tape,
            powell_singular_grad_into,
            || vec![3.0, -1.0, 0.0, 1.0],
            || vec![0.1, -0.2, 0.3, 0.4]
        ),
        Problem {
            number: 14,
            name: "wood",
            f: |x| wood([x[0], x[1], x[2], x[3]]),
            grad: |x| {
                let (v, g) = wood_grad([x[0], x[1], x[2], x[3]]);
                (v, g.to_vec())
            },
            tape: |x| {
                let (v, g) = __wood_grad_tape([x[0], x[1], x[2], x[3]]);
                (v, g.to_vec())
            },
            grad_into: array_grad_into!(|x, g| wood_grad_into([x[0], x[1], x[2], x[3]], g)),
            x0: || vec![-3.0, -1.0, -3.0, -1.0],
            other: || vec![1.1, 0.9, 0.8, 1.2],
        },
    ]
}
