//! A small multilayer perceptron classifier: one tanh hidden layer whose weights are rows
//! `&[Vec<f64>]`, an output layer stored flat and row-major (`w2[c * hidden + h]`),
//! softmax cross-entropy with the usual max-subtraction (`fold(f64::NEG_INFINITY,
//! f64::max)`), and L2 weight decay. The loss is differentiated with respect to all four
//! weight arrays (gradient in their own shapes); the class probabilities with respect to
//! the input point `&[f64; 2]` (a Jacobian).
#![allow(clippy::needless_range_loop)]
use fazang::prelude::*;

mod program_support;
use program_support::*;

/// Logits for one input.
#[differentiate(wrt(w1, b1, w2, b2, x))]
fn forward(w1: &[Vec<f64>], b1: &[f64], w2: &[f64], b2: &[f64], x: &[f64; 2]) -> Vec<f64> {
    let hidden: Vec<f64> = w1
        .iter()
        .zip(b1)
        .map(|(row, b)| (row[0] * x[0] + row[1] * x[1] + b).tanh())
        .collect();
    let n_hidden = hidden.len();
    let mut logits = b2.to_vec();
    for c in 0..logits.len() {
        for h in 0..n_hidden {
            logits[c] += w2[c * n_hidden + h] * hidden[h];
        }
    }
    logits
}

/// Mean cross-entropy over the batch plus ½·decay·‖w‖².
#[differentiate(wrt(w1, b1, w2, b2))]
fn loss(
    w1: &[Vec<f64>],
    b1: &[f64],
    w2: &[f64],
    b2: &[f64],
    xs: &[[f64; 2]],
    labels: &[usize],
    decay: f64,
) -> f64 {
    let mut total = 0.0;
    for (x, &label) in xs.iter().zip(labels) {
        let logits = forward(w1, b1, w2, b2, x);
        let max = logits.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let log_norm = max + logits.iter().map(|z| (z - max).exp()).sum::<f64>().ln();
        total += log_norm - logits[label];
    }
    let mut penalty = 0.0;
    for row in w1 {
        penalty += row.iter().map(|w| w * w).sum::<f64>();
    }
    penalty += w2.iter().map(|w| w * w).sum::<f64>();
    total / xs.len() as f64 + 0.5 * decay * penalty
}

/// Softmax of the logits.
#[differentiate(wrt(x))]
fn probabilities(w1: &[Vec<f64>], b1: &[f64], w2: &[f64], b2: &[f64], x: &[f64; 2]) -> Vec<f64> {
    let logits = forward(w1, b1, w2, b2, x);
    let max = logits.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let exps: Vec<f64> = logits.iter().map(|z| (z - max).exp()).collect();
    let sum: f64 = exps.iter().sum();
    exps.iter().map(|e| e / sum).collect()
}

/// The same code without the attributes.
mod plain {
    pub fn forward(w1: &[Vec<f64>], b1: &[f64], w2: &[f64], b2: &[f64], x: &[f64; 2]) -> Vec<f64> {
        let hidden: Vec<f64> = w1
            .iter()
            .zip(b1)
            .map(|(row, b)| (row[0] * x[0] + row[1] * x[1] + b).tanh())
            .collect();
        let n_hidden = hidden.len();
        let mut logits = b2.to_vec();
        for c in 0..logits.len() {
            for h in 0..n_hidden {
                logits[c] += w2[c * n_hidden + h] * hidden[h];
            }
        }
        logits
    }

    pub fn loss(
        w1: &[Vec<f64>],
        b1: &[f64],
        w2: &[f64],
        b2: &[f64],
        xs: &[[f64; 2]],
        labels: &[usize],
        decay: f64,
    ) -> f64 {
        let mut total = 0.0;
        for (x, &label) in xs.iter().zip(labels) {
            let logits = forward(w1, b1, w2, b2, x);
            let max = logits.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            let log_norm = max + logits.iter().map(|z| (z - max).exp()).sum::<f64>().ln();
            total += log_norm - logits[label];
        }
        let mut penalty = 0.0;
        for row in w1 {
            penalty += row.iter().map(|w| w * w).sum::<f64>();
        }
        penalty += w2.iter().map(|w| w * w).sum::<f64>();
        total / xs.len() as f64 + 0.5 * decay * penalty
    }

    pub fn probabilities(
        w1: &[Vec<f64>],
        b1: &[f64],
        w2: &[f64],
        b2: &[f64],
        x: &[f64; 2],
    ) -> Vec<f64> {
        let logits = forward(w1, b1, w2, b2, x);
        let max = logits.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let exps: Vec<f64> = logits.iter().map(|z| (z - max).exp()).collect();
        let sum: f64 = exps.iter().sum();
        exps.iter().map(|e| e / sum).collect()
    }
}

const HIDDEN: usize = 5;
const CLASSES: usize = 3;

/// Randomly initialised weights (Glorot-style scale).
struct Weights {
    w1: Vec<Vec<f64>>,
    b1: Vec<f64>,
    w2: Vec<f64>,
    b2: Vec<f64>,
}

impl Weights {
    fn init(seed: u64) -> Self {
        let mut rng = Rng::new(seed);
        let w1 = (0..HIDDEN)
            .map(|_| vec![0.8 * rng.normal(), 0.8 * rng.normal()])
            .collect();
        let b1 = (0..HIDDEN).map(|_| 0.1 * rng.normal()).collect();
        let w2 = (0..CLASSES * HIDDEN).map(|_| 0.6 * rng.normal()).collect();
        let b2 = (0..CLASSES).map(|_| 0.1 * rng.normal()).collect();
        Weights { w1, b1, w2, b2 }
    }

    /// All weights in one vector: w1 row by row, b1, w2, b2.
    fn flatten(&self) -> Vec<f64> {
        let mut v: Vec<f64> = self.w1.iter().flatten().copied().collect();
        v.extend(&self.b1);
        v.extend(&self.w2);
        v.extend(&self.b2);
        v
    }

    fn unflatten(v: &[f64]) -> Self {
        let (w1, rest) = v.split_at(2 * HIDDEN);
        let (b1, rest) = rest.split_at(HIDDEN);
        let (w2, b2) = rest.split_at(CLASSES * HIDDEN);
        Weights {
            w1: w1.chunks(2).map(|c| c.to_vec()).collect(),
            b1: b1.to_vec(),
            w2: w2.to_vec(),
            b2: b2.to_vec(),
        }
    }
}

/// Three Gaussian blobs in the plane, 30 points.
fn data() -> (Vec<[f64; 2]>, Vec<usize>) {
    let centres = [[0.0, 1.5], [-1.3, -0.8], [1.3, -0.8]];
    let mut rng = Rng::new(5);
    (0..30)
        .map(|i| {
            let c = i % CLASSES;
            let x = [
                centres[c][0] + 0.7 * rng.normal(),
                centres[c][1] + 0.7 * rng.normal(),
            ];
            (x, c)
        })
        .unzip()
}

#[test]
fn primal_is_the_plain_code() {
    let w = Weights::init(1);
    let (xs, labels) = data();
    assert_same_bits(
        loss(&w.w1, &w.b1, &w.w2, &w.b2, &xs, &labels, 1e-3),
        plain::loss(&w.w1, &w.b1, &w.w2, &w.b2, &xs, &labels, 1e-3),
        "loss",
    );
    assert_all_same_bits(
        &probabilities(&w.w1, &w.b1, &w.w2, &w.b2, &[0.3, -0.2]),
        &plain::probabilities(&w.w1, &w.b1, &w.w2, &w.b2, &[0.3, -0.2]),
        "probabilities",
    );
}

#[test]
fn loss_gradient_has_the_weights_shapes_and_matches_finite_differences() {
    let w = Weights::init(1);
    let (xs, labels) = data();
    let (v, (g_w1, g_b1, g_w2, g_b2)) = loss_grad(&w.w1, &w.b1, &w.w2, &w.b2, &xs, &labels, 1e-3);
    assert_close(
        v,
        plain::loss(&w.w1, &w.b1, &w.w2, &w.b2, &xs, &labels, 1e-3),
        1e-14,
        "value",
    );
    let g_w1: Vec<Vec<f64>> = g_w1;
    assert_eq!(g_w1.len(), HIDDEN);
    assert!(g_w1.iter().all(|row| row.len() == 2));
    assert_eq!(
        (g_b1.len(), g_w2.len(), g_b2.len()),
        (HIDDEN, CLASSES * HIDDEN, CLASSES)
    );
    let g = Weights {
        w1: g_w1,
        b1: g_b1,
        w2: g_w2,
        b2: g_b2,
    }
    .flatten();
    let fd = fd_gradient(
        |v| {
            let w = Weights::unflatten(v);
            plain::loss(&w.w1, &w.b1, &w.w2, &w.b2, &xs, &labels, 1e-3)
        },
        &w.flatten(),
    );
    assert_all_close(&g, &fd, 1e-6, "finite differences");
}

#[test]
fn output_bias_gradient_is_mean_probability_minus_one_hot() {
    // d loss / d b2[c] = mean over the batch of (p_c − [label = c]), no weight decay on b2.
    let w = Weights::init(3);
    let (xs, labels) = data();
    let (_, (_, _, _, g_b2)) = loss_grad(&w.w1, &w.b1, &w.w2, &w.b2, &xs, &labels, 0.01);
    let mut want = vec![0.0; CLASSES];
    for (x, &label) in xs.iter().zip(&labels) {
        let p = plain::probabilities(&w.w1, &w.b1, &w.w2, &w.b2, x);
        for c in 0..CLASSES {
            want[c] += (p[c] - if c == label { 1.0 } else { 0.0 }) / xs.len() as f64;
        }
    }
    assert_all_close(&g_b2, &want, 1e-9, "closed form");
}

#[test]
fn probabilities_jacobian_matches_finite_differences() {
    let w = Weights::init(1);
    for x in [[0.3, -0.2], [-1.0, 1.4], [2.0, 0.5]] {
        let (p, jac) = probabilities_jacobian(&w.w1, &w.b1, &w.w2, &w.b2, &x);
        assert_all_close(
            &p,
            &plain::probabilities(&w.w1, &w.b1, &w.w2, &w.b2, &x),
            1e-14,
            "p",
        );
        assert_eq!((jac.len(), jac[0].len()), (CLASSES, 2));
        // Probabilities sum to one, so every column of the Jacobian sums to zero.
        for j in 0..2 {
            let s: f64 = jac.iter().map(|row| row[j]).sum();
            assert!(s.abs() < 1e-10, "column {j} sums to {s}");
        }
        let fd = fd_jacobian(
            |v| plain::probabilities(&w.w1, &w.b1, &w.w2, &w.b2, &[v[0], v[1]]),
            &x,
        );
        assert_rows_close(&jac, &fd, 1e-6, "jacobian");
    }
}
