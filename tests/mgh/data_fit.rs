//! The data-fitting problems (MGH 8-12, 15-19): models fitted to `const` data tables or to
//! data computed on the fly, written as an index loop, iterator chains over the tables, a
//! generic `T: Float` model helper, a differentiated residual helper, a residual vector
//! built by `collect`, local closures, and sub-slices from `split_at`.
use super::{slice_problem, Problem};
use fazang::prelude::*;
use num_traits::Float;

/// 8. Bard's data.
const BARD_Y: [f64; 15] = [
    0.14, 0.18, 0.22, 0.25, 0.29, 0.32, 0.35, 0.39, 0.37, 0.58, 0.73, 0.96, 1.34, 2.10, 4.39,
];

/// 8. Bard: fᵢ = yᵢ − (x₁ + uᵢ / (vᵢ x₂ + wᵢ x₃)), uᵢ = i, vᵢ = 16 − i, wᵢ = min(uᵢ, vᵢ).
#[differentiate]
pub fn bard(x: &[f64]) -> f64 {
    let mut sum = 0.0;
    for i in 0..15 {
        let u = (i + 1) as f64;
        let v = (15 - i) as f64;
        let w = u.min(v);
        let r = BARD_Y[i] - (x[0] + u / (v * x[1] + w * x[2]));
        sum += r * r;
    }
    sum
}

/// 9. Gaussian's data.
const GAUSSIAN_Y: [f64; 15] = [
    0.0009, 0.0044, 0.0175, 0.0540, 0.1295, 0.2420, 0.3521, 0.3989, 0.3521, 0.2420, 0.1295, 0.0540,
    0.0175, 0.0044, 0.0009,
];

/// A Gaussian bump, for any float type.
fn gaussian_bump<T: Float>(height: T, width: T, centre: T, t: T) -> T {
    let two = T::from(2.0).unwrap();
    height * (-width * (t - centre).powi(2) / two).exp()
}

/// 9. Gaussian: fᵢ = x₁ exp(−x₂(tᵢ − x₃)²/2) − yᵢ, tᵢ = (8 − i)/2.
#[differentiate]
pub fn gaussian(x: &[f64]) -> f64 {
    GAUSSIAN_Y
        .iter()
        .enumerate()
        .map(|(i, y)| {
            let t = (8.0 - (i + 1) as f64) / 2.0;
            let r = gaussian_bump(x[0], x[1], x[2], t) - y;
            r * r
        })
        .sum()
}

/// 10. Meyer's data.
const MEYER_Y: [f64; 16] = [
    34780.0, 28610.0, 23650.0, 19630.0, 16370.0, 13720.0, 11540.0, 9744.0, 8261.0, 7030.0, 6005.0,
    5147.0, 4427.0, 3820.0, 3307.0, 2872.0,
];

/// 10. Meyer: fᵢ = x₁ exp(x₂/(tᵢ + x₃)) − yᵢ, tᵢ = 45 + 5i.
#[differentiate]
pub fn meyer(x: &[f64]) -> f64 {
    let (x1, x2, x3) = (x[0], x[1], x[2]);
    MEYER_Y
        .iter()
        .zip((1..=16).map(|i| 45.0 + 5.0 * i as f64))
        .map(|(y, t)| {
            let r = x1 * (x2 / (t + x3)).exp() - y;
            r * r
        })
        .sum()
}

/// 11. Gulf research and development, m = 99: fᵢ = exp(−|yᵢ − x₂|^x₃ / x₁) − tᵢ,
/// tᵢ = i/100, yᵢ = 25 + (−50 ln tᵢ)^{2/3}.
#[differentiate]
pub fn gulf(x: &[f64]) -> f64 {
    let m = 99;
    let mut total = 0.0;
    for i in 1..=m {
        let t = i as f64 / 100.0;
        let y = 25.0 + (-50.0 * t.ln()).powf(2.0 / 3.0);
        let r = (-(y - x[1]).abs().powf(x[2]) / x[0]).exp() - t;
        total += r * r;
    }
    total
}

/// 12. Box three-dimensional, residual `i` (1-based): tᵢ = i/10.
#[differentiate]
pub fn box_residual(x: &[f64], i: usize) -> f64 {
    let t = 0.1 * i as f64;
    (-t * x[0]).exp() - (-t * x[1]).exp() - x[2] * ((-t).exp() - (-10.0 * t).exp())
}

/// 12. Box three-dimensional, m = 10.
#[differentiate]
pub fn box_3d(x: &[f64]) -> f64 {
    (1..=10).map(|i| box_residual(x, i).powi(2)).sum()
}

/// 15. Kowalik and Osborne's data.
const KOWALIK_Y: [f64; 11] = [
    0.1957, 0.1947, 0.1735, 0.1600, 0.0844, 0.0627, 0.0456, 0.0342, 0.0323, 0.0235, 0.0246,
];
const KOWALIK_U: [f64; 11] = [
    4.0, 2.0, 1.0, 0.5, 0.25, 0.167, 0.125, 0.1, 0.0833, 0.0714, 0.0625,
];

/// 15. Kowalik and Osborne: fᵢ = yᵢ − x₁(uᵢ² + uᵢx₂)/(uᵢ² + uᵢx₃ + x₄).
#[differentiate]
pub fn kowalik_osborne(x: &[f64]) -> f64 {
    KOWALIK_U
        .iter()
        .zip(KOWALIK_Y.iter())
        .map(|(u, y)| {
            let r = y - x[0] * (u * u + u * x[1]) / (u * u + u * x[2] + x[3]);
            r * r
        })
        .sum()
}

/// 16. Brown and Dennis, m = 20: fᵢ = (x₁ + tᵢx₂ − e^{tᵢ})² + (x₃ + x₄ sin tᵢ − cos tᵢ)²,
/// tᵢ = i/5.
#[differentiate]
pub fn brown_dennis(x: &[f64]) -> f64 {
    let mut f = 0.0;
    for i in 1..=20 {
        let t = i as f64 / 5.0;
        let a = x[0] + t * x[1] - t.exp();
        let b = x[2] + x[3] * t.sin() - t.cos();
        let r = a * a + b * b;
        f += r * r;
    }
    f
}

/// 17. Osborne 1's data.
const OSBORNE1_Y: [f64; 33] = [
    0.844, 0.908, 0.932, 0.936, 0.925, 0.908, 0.881, 0.850, 0.818, 0.784, 0.751, 0.718, 0.685,
    0.658, 0.628, 0.603, 0.580, 0.558, 0.538, 0.522, 0.506, 0.490, 0.478, 0.467, 0.457, 0.448,
    0.438, 0.431, 0.424, 0.420, 0.414, 0.411, 0.406,
];

/// 17. Osborne 1's residuals: yᵢ − (x₁ + x₂e^{−tᵢx₄} + x₃e^{−tᵢx₅}), tᵢ = 10(i − 1).
#[differentiate]
pub fn osborne1_residuals(x: &[f64]) -> Vec<f64> {
    OSBORNE1_Y
        .iter()
        .enumerate()
        .map(|(i, y)| {
            let t = 10.0 * i as f64;
            y - (x[0] + x[1] * (-t * x[3]).exp() + x[2] * (-t * x[4]).exp())
        })
        .collect()
}

/// 17. Osborne 1.
#[differentiate]
pub fn osborne1(x: &[f64]) -> f64 {
    let r = osborne1_residuals(x);
    r.iter().map(|r| r * r).sum()
}

/// 18. Biggs EXP6, m = 13: fᵢ = x₃e^{−tᵢx₁} − x₄e^{−tᵢx₂} + x₆e^{−tᵢx₅} − yᵢ, tᵢ = i/10,
/// yᵢ = e^{−tᵢ} − 5e^{−10tᵢ} + 3e^{−4tᵢ}.
#[differentiate]
pub fn biggs_exp6(x: &[f64]) -> f64 {
    let model =
        |t: f64| x[2] * (-t * x[0]).exp() - x[3] * (-t * x[1]).exp() + x[5] * (-t * x[4]).exp();
    let data = |t: f64| (-t).exp() - 5.0 * (-10.0 * t).exp() + 3.0 * (-4.0 * t).exp();
    let mut f = 0.0;
    for i in 1..=13 {
        let t = 0.1 * i as f64;
        let r = model(t) - data(t);
        f += r * r;
    }
    f
}

/// 19. Osborne 2's data.
const OSBORNE2_Y: [f64; 65] = [
    1.366, 1.191, 1.112, 1.013, 0.991, 0.885, 0.831, 0.847, 0.786, 0.725, 0.746, 0.679, 0.608,
    0.655, 0.616, 0.606, 0.602, 0.626, 0.651, 0.724, 0.649, 0.649, 0.694, 0.644, 0.624, 0.661,
    0.612, 0.558, 0.533, 0.495, 0.500, 0.423, 0.395, 0.375, 0.372, 0.391, 0.396, 0.405, 0.428,
    0.429, 0.523, 0.562, 0.607, 0.653, 0.672, 0.708, 0.633, 0.668, 0.645, 0.632, 0.591, 0.559,
    0.597, 0.625, 0.739, 0.710, 0.729, 0.720, 0.636, 0.581, 0.428, 0.292, 0.162, 0.098, 0.054,
];

/// 19. Osborne 2: an exponential decay plus three Gaussian peaks, tᵢ = (i − 1)/10; the
/// parameters are four amplitudes, four rates and three centres.
#[differentiate]
pub fn osborne2(x: &[f64]) -> f64 {
    let (amplitude, rest) = x.split_at(4);
    let (rate, centre) = rest.split_at(4);
    let mut f = 0.0;
    for (i, y) in OSBORNE2_Y.iter().enumerate() {
        let t = i as f64 / 10.0;
        let peaks: f64 = (1..4)
            .map(|k| amplitude[k] * (-(t - centre[k - 1]).powi(2) * rate[k]).exp())
            .sum();
        let r = y - (amplitude[0] * (-t * rate[0]).exp() + peaks);
        f += r * r;
    }
    f
}

/// The problems of this module.
pub fn problems() -> Vec<Problem> {
    vec![
        slice_problem!(
            8,
            bard,
            bard_grad,
            __bard_grad_tape,
            bard_grad_into,
            || vec![1.0, 1.0, 1.0],
            || vec![0.08, 1.1, 2.3]
        ),
        slice_problem!(
            9,
            gaussian,
            gaussian_grad,
            __gaussian_grad_tape,
            gaussian_grad_into,
            || vec![0.4, 1.0, 0.0],
            || vec![0.35, 0.9, 0.1]
        ),
        slice_problem!(
            10,
            meyer,
            meyer_grad,
            __meyer_grad_tape,
            meyer_grad_into,
            || vec![0.02, 4000.0, 250.0],
            || vec![0.0056, 6181.0, 345.0]
        ),
        slice_problem!(
            11,
            gulf,
            gulf_grad,
            __gulf_grad_tape,
            gulf_grad_into,
            || vec![5.0, 2.5, 0.15],
            || vec![40.0, 20.0, 1.2]
        ),
        slice_problem!(
            12,
            box_3d,
            box_3d_grad,
            __box_3d_grad_tape,
            box_3d_grad_into,
            || vec![0.0, 10.0, 20.0],
            || vec![1.2, 9.0, 1.5]
        ),
        slice_problem!(
            15,
            kowalik_osborne,
            kowalik_osborne_grad,
            __kowalik_osborne_grad_tape,
            kowalik_osborne_grad_into,
            || vec![0.25, 0.39, 0.415, 0.39],
            || vec![0.19, 0.19, 0.12, 0.14]
        ),
        slice_problem!(
            16,
            brown_dennis,
            brown_dennis_grad,
            __brown_dennis_grad_tape,
            brown_dennis_grad_into,
            || vec![25.0, 5.0, -5.0, -1.0],
            || vec![-11.6, 13.2, -0.4, 0.24]
        ),
        slice_problem!(
            17,
            osborne1,
            osborne1_grad,
            __osborne1_grad_tape,
            osborne1_grad_into,
            || vec![0.5, 1.5, -1.0, 0.01, 0.02],
            || vec![0.375, 1.94, -1.46, 0.0129, 0.0221]
        ),
        slice_problem!(
            18,
            biggs_exp6,
            biggs_exp6_grad,
            __biggs_exp6_grad_tape,
            biggs_exp6_grad_into,
            || vec![1.0, 2.0, 1.0, 1.0, 1.0, 1.0],
            || vec![1.1, 9.5, 0.9, 4.8, 4.2, 3.1]
        ),
        slice_problem!(
            19,
            osborne2,
            osborne2_grad,
            __osborne2_grad_tape,
            osborne2_grad_into,
            || vec![1.3, 0.65, 0.65, 0.7, 0.6, 3.0, 5.0, 7.0, 2.0, 4.5, 5.5],
            || vec![1.31, 0.43, 0.63, 0.6, 0.75, 0.9, 1.4, 4.8, 2.4, 4.6, 5.7]
        ),
    ]
}
