//! `reduce_sum` and the hidden `reduce_sum_grad`: the same bits for any number of
//! threads (rayon pools of 1, 2 and 3 threads built explicitly), values and gradients
//! against serial sums and the tape, forward mode and Hessians through it.

#[path = "support/close.rs"]
mod close;

use close::{assert_all_close, assert_close};
use fazang::__private::reduce_sum_grad;
use fazang::prelude::*;
use fazang::{hessian, jvp};

/// Rows of a logistic regression: outcome and three features.
fn data(n: usize) -> Vec<(f64, [f64; 3])> {
    (0..n)
        .map(|i| {
            let t = i as f64;
            let x = [1.0, (t * 0.37).sin(), (t * 0.011).cos() * 2.0];
            let y = if (t * 0.7).sin() + 0.3 * x[1] > 0.0 {
                1.0
            } else {
                0.0
            };
            (y, x)
        })
        .collect()
}

/// The log likelihood of a chunk, generic over the scalar.
fn chunk_ll<S: Real>(beta: &[S], chunk: &[(f64, [f64; 3])]) -> S
where
    f64: fazang::__private::ScalarOps<S>,
{
    let mut s = S::from(0.0);
    for (y, x) in chunk {
        let eta = beta[0] * x[0] + beta[1] * x[1] + beta[2] * x[2];
        s += eta * *y - eta.log1p_exp();
    }
    s
}

fn loglik<S: Real>(beta: &[S], rows: &[(f64, [f64; 3])], grainsize: usize) -> S
where
    f64: fazang::__private::ScalarOps<S>,
{
    reduce_sum(rows, grainsize, |chunk: &[(f64, [f64; 3])], _| {
        chunk_ll(beta, chunk)
    })
}

/// The hand-written gradient of one chunk (what generated adjoint code computes).
fn chunk_grad(beta: &[f64], chunk: &[(f64, [f64; 3])], g: &mut [f64]) -> f64 {
    let mut s = 0.0;
    for (y, x) in chunk {
        let eta = beta[0] * x[0] + beta[1] * x[1] + beta[2] * x[2];
        s += y * eta - eta.log1p_exp();
        let r = y - eta.inv_logit();
        for (gj, xj) in g.iter_mut().zip(x) {
            *gj += r * xj;
        }
    }
    s
}

fn pools() -> Vec<rayon::ThreadPool> {
    (1..=3)
        .map(|n| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .unwrap()
        })
        .collect()
}

const BETA: [f64; 3] = [0.2, -0.7, 0.4];

#[test]
fn the_same_bits_on_one_two_and_three_threads() {
    let rows = data(20_000);
    for grainsize in [0, 1, 7, 1000, 50_000] {
        let mut values = Vec::new();
        let mut grads = Vec::new();
        let mut tape = Vec::new();
        for pool in pools() {
            values.push(pool.install(|| loglik(&BETA, &rows, grainsize)).to_bits());
            let mut g = vec![0.0; 3];
            let v = pool.install(|| {
                reduce_sum_grad(&rows, grainsize, &mut g, |c, _, buf| {
                    chunk_grad(&BETA, c, buf)
                })
            });
            grads.push((
                v.to_bits(),
                g.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            ));
            let (tv, tg) = pool.install(|| gradient(|b| loglik(b, &rows, grainsize), &BETA));
            tape.push((
                tv.to_bits(),
                tg.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            ));
        }
        assert!(
            values.windows(2).all(|w| w[0] == w[1]),
            "values, grainsize {grainsize}"
        );
        assert!(
            grads.windows(2).all(|w| w[0] == w[1]),
            "reduce_sum_grad, grainsize {grainsize}"
        );
        assert!(
            tape.windows(2).all(|w| w[0] == w[1]),
            "tape, grainsize {grainsize}"
        );
        // The value of reduce_sum_grad is reduce_sum's, bit for bit (same chunks, same tree).
        assert_eq!(grads[0].0, values[0], "grainsize {grainsize}");
    }
}

#[test]
fn values_and_gradients_against_serial_sums() {
    let rows = data(5_000);
    let serial: f64 = chunk_ll(&BETA, &rows);
    let v: f64 = loglik(&BETA, &rows, 0);
    assert_close(v, serial, 1e-13, "value");
    let (tv, tg) = gradient(|b| loglik(b, &rows, 0), &BETA);
    let (sv, sg) = gradient(|b| chunk_ll(b, &rows), &BETA);
    assert_close(tv, sv, 1e-13, "tape value");
    assert_all_close(&tg, &sg, 1e-12, "tape gradient");
    let mut g = vec![0.0; 3];
    let gv = reduce_sum_grad(&rows, 0, &mut g, |c, _, buf| chunk_grad(&BETA, c, buf));
    assert_close(gv, serial, 1e-13, "reduce_sum_grad value");
    assert_all_close(&g, &sg, 1e-12, "reduce_sum_grad gradient");
    // reduce_sum_grad adds to what the gradient holds already.
    let mut g2 = vec![1.0, 2.0, 3.0];
    reduce_sum_grad(&rows, 0, &mut g2, |c, _, buf| chunk_grad(&BETA, c, buf));
    assert_all_close(
        &g2,
        &[g[0] + 1.0, g[1] + 2.0, g[2] + 3.0],
        1e-15,
        "accumulates",
    );
}

#[test]
fn forward_mode_and_hessians_through_reduce_sum() {
    let rows = data(2_000);
    let dir = [0.3, -1.0, 0.5];
    let (_, g) = gradient(|b| loglik(b, &rows, 0), &BETA);
    let (_, d) = jvp(|b| loglik(b, &rows, 0), &BETA, &dir);
    let want: f64 = g.iter().zip(&dir).map(|(a, b)| a * b).sum();
    assert_close(d, want, 1e-12, "jvp");
    let (_, hg, h) = hessian(|b| loglik(b, &rows, 100), &BETA);
    assert_all_close(&hg, &g, 1e-12, "Hessian's gradient");
    let (_, _, hs) = hessian(|b| chunk_ll(b, &rows), &BETA);
    for (r, s) in h.iter().zip(&hs) {
        assert_all_close(r, s, 1e-12, "Hessian");
    }
}

#[test]
fn chunks_start_where_they_say() {
    let x: Vec<f64> = (0..1000).map(|i| i as f64).collect();
    for grainsize in [0, 1, 3, 64, 999, 1000, 5000] {
        // Σ over each chunk of (element − its index): 0 if `start` is right.
        let off = reduce_sum(&x, grainsize, |c: &[f64], start| {
            c.iter()
                .enumerate()
                .map(|(i, v)| v - (start + i) as f64)
                .sum::<f64>()
        });
        assert_eq!(off, 0.0, "grainsize {grainsize}");
        let count = reduce_sum(&x, grainsize, |c: &[f64], _| c.len() as f64);
        assert_eq!(count, 1000.0);
    }
    let empty: [f64; 0] = [];
    assert_eq!(reduce_sum(&empty, 0, |c: &[f64], _| c.len() as f64), 0.0);
    let mut g = [5.0];
    assert_eq!(reduce_sum_grad(&empty, 0, &mut g, |_, _, _| 1.0), 0.0);
    assert_eq!(g, [5.0]);
}

#[test]
fn reduce_sum_in_a_differentiated_body() {
    trybuild::TestCases::new().pass("tests/bayes_trybuild/reduce_sum_in_body.rs");
}

// ---- reduce_sum inside #[differentiate] bodies: the closure's chunks differentiated in
// parallel by the adjoint code (each chunk by the closure body's own `_grad_into`).

/// The logistic log likelihood as a user writes it.
#[differentiate(wrt(beta))]
fn logistic(beta: &[f64], rows: &[(f64, [f64; 3])], grainsize: usize) -> f64 {
    reduce_sum(
        rows,
        grainsize,
        |chunk: &[(f64, [f64; 3])], _start: usize| {
            let mut s = 0.0;
            for (y, x) in chunk {
                let eta = beta[0] * x[0] + beta[1] * x[1] + beta[2] * x[2];
                s += y * eta - eta.log1p_exp();
            }
            s
        },
    )
}

/// A regression with a prior, outer locals read by the closure (`mu`, `sigma`), a data
/// parameter indexed through `start` (`w`), and terms outside the sum.
#[differentiate(wrt(theta))]
fn weighted_model(theta: &[f64], xs: &[f64], ys: &[f64], w: &[f64]) -> f64 {
    let mu = theta[0];
    let slope = theta[1];
    let sigma = theta[2].exp();
    let prior = -0.5 * (mu * mu + slope * slope) - 0.5 * theta[2] * theta[2];
    let lik = reduce_sum(xs, 40, |chunk: &[f64], start: usize| {
        chunk
            .iter()
            .enumerate()
            .map(|(i, x)| {
                let z = (ys[start + i] - mu - slope * x) / sigma;
                w[start + i] * (-0.5 * z * z - sigma.ln())
            })
            .sum::<f64>()
    });
    prior + lik + theta[2]
}

/// The same model written as one serial loop, for the tape.
fn weighted_serial<S: Real>(theta: &[S], xs: &[f64], ys: &[f64], w: &[f64]) -> S
where
    f64: fazang::__private::ScalarOps<S>,
{
    let (mu, slope, sigma) = (theta[0], theta[1], theta[2].exp());
    let mut lik = S::from(0.0);
    for i in 0..xs.len() {
        let z = (S::from(ys[i]) - mu - slope * xs[i]) / sigma;
        lik += (z * z * -0.5 - sigma.ln()) * w[i];
    }
    -0.5 * (mu * mu + slope * slope) - 0.5 * theta[2] * theta[2] + lik + theta[2]
}

fn regression_data(n: usize) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let xs: Vec<f64> = (0..n).map(|i| (i as f64 * 0.13).sin() * 2.0).collect();
    let ys: Vec<f64> = xs
        .iter()
        .enumerate()
        .map(|(i, x)| 0.3 + 1.2 * x + (i as f64 * 0.71).cos() * 0.4)
        .collect();
    let w: Vec<f64> = (0..n).map(|i| 1.0 + (i % 3) as f64 * 0.5).collect();
    (xs, ys, w)
}

/// Central differences of `f` at `x`.
fn finite_diff(f: impl Fn(&[f64]) -> f64, x: &[f64]) -> Vec<f64> {
    (0..x.len())
        .map(|i| {
            let h = 1e-5 * x[i].abs().max(1.0);
            let (mut a, mut b) = (x.to_vec(), x.to_vec());
            a[i] += h;
            b[i] -= h;
            (f(&a) - f(&b)) / (2.0 * h)
        })
        .collect()
}

#[test]
fn differentiated_reduce_sum_against_closed_form_tape_and_finite_differences() {
    let rows = data(5_000);
    for grainsize in [0, 1, 333, 10_000] {
        let (v, g) = logistic_grad(&BETA, &rows, grainsize);
        // The closed form: Σ (y − inv_logit(η)) x.
        let mut want = vec![0.0; 3];
        let serial = chunk_grad(&BETA, &rows, &mut want);
        assert_close(v, serial, 1e-12, "value");
        assert_all_close(&g, &want, 1e-11, "gradient against the closed form");
        let (tv, tg) = gradient(|b| loglik(b, &rows, grainsize), &BETA);
        assert_close(v, tv, 1e-12, "value against the tape");
        assert_all_close(&g, &tg, 1e-11, "gradient against the tape");
        let fd = finite_diff(|b| logistic(b, &rows, grainsize), &BETA);
        assert_all_close(&g, &fd, 1e-6, "gradient against finite differences");
        // The value is the primal's, bit for bit (same chunks, same tree).
        assert_eq!(v.to_bits(), logistic(&BETA, &rows, grainsize).to_bits());
    }
    // Empty data: 0 and a zero gradient.
    let (v, g) = logistic_grad(&BETA, &[], 0);
    assert_eq!((v, g), (0.0, vec![0.0; 3]));
}

#[test]
fn differentiated_reduce_sum_gives_the_same_bits_on_one_two_and_three_threads() {
    let rows = data(20_000);
    let (xs, ys, w) = regression_data(3_000);
    let theta = [0.2, 1.1, -0.3];
    let mut seen = Vec::new();
    for pool in pools() {
        let (v, g) = pool.install(|| logistic_grad(&BETA, &rows, 0));
        let mut buf = [0.0; 3];
        let vi = pool.install(|| logistic_grad_into(&BETA, &rows, 7, &mut buf));
        let (mv, mg) = pool.install(|| weighted_model_grad(&theta, &xs, &ys, &w));
        let bits = |x: &[f64]| x.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        seen.push((
            v.to_bits(),
            bits(&g),
            vi.to_bits(),
            bits(&buf),
            mv.to_bits(),
            bits(&mg),
        ));
    }
    assert!(seen.windows(2).all(|w| w[0] == w[1]), "{seen:?}");
}

#[test]
fn differentiated_reduce_sum_with_outer_locals_and_other_terms() {
    let (xs, ys, w) = regression_data(1_000);
    let theta = [0.2, 1.1, -0.3];
    let (v, g) = weighted_model_grad(&theta, &xs, &ys, &w);
    let (tv, tg) = gradient(|t| weighted_serial(t, &xs, &ys, &w), &theta);
    assert_close(v, tv, 1e-12, "value against the tape");
    assert_all_close(&g, &tg, 1e-11, "gradient against the tape");
    let fd = finite_diff(|t| weighted_model(t, &xs, &ys, &w), &theta);
    assert_all_close(&g, &fd, 1e-6, "gradient against finite differences");
}

#[test]
fn differentiated_reduce_sum_second_order_and_forward_mode() {
    let (xs, ys, w) = regression_data(400);
    let theta = [0.2, 1.1, -0.3];
    let (v, g, h) = weighted_model_hessian(&theta, &xs, &ys, &w);
    let (tv, tg, th) = hessian(|t| weighted_serial(t, &xs, &ys, &w), &theta);
    assert_close(v, tv, 1e-12, "Hessian's value");
    assert_all_close(&g, &tg, 1e-11, "Hessian's gradient");
    for (r, t) in h.iter().zip(&th) {
        assert_all_close(r, t, 1e-10, "Hessian");
    }
    let dir = [0.3, -1.0, 0.5];
    let (_, d) = weighted_model_jvp(&theta, &xs, &ys, &w, &dir);
    let want: f64 = tg.iter().zip(&dir).map(|(a, b)| a * b).sum();
    assert_close(d, want, 1e-11, "jvp");
    let (_, hv) = logistic_hvp(&BETA, &data(500), 0, &dir);
    let (_, _, lh) = hessian(|b| loglik(b, &data(500), 0), &BETA);
    let want: Vec<f64> = lh
        .iter()
        .map(|r| r.iter().zip(&dir).map(|(a, b)| a * b).sum())
        .collect();
    assert_all_close(&hv, &want, 1e-10, "hvp");
}

/// Two sums in one body, one in a loop; a closure without types; an active local vector
/// captured.
#[differentiate(wrt(beta))]
fn two_sums(beta: &[f64], rows: &[(f64, [f64; 3])], scales: &[f64]) -> f64 {
    let doubled: Vec<f64> = beta.iter().map(|b| 2.0 * b).collect();
    let mut total = reduce_sum(rows, 100, |chunk, _| {
        chunk
            .iter()
            .map(|(y, x)| {
                let eta = doubled[0] * x[0] + beta[1] * x[1];
                y * eta - eta.log1p_exp()
            })
            .sum::<f64>()
    });
    for s in scales {
        let k = *s;
        total += reduce_sum(rows, 0, |chunk: &[(f64, [f64; 3])], _start: usize| {
            chunk
                .iter()
                .map(|(_, x)| (k * beta[2] * x[2]).sin())
                .sum::<f64>()
        });
    }
    total
}

/// A closure reading an integer local (a type the macro cannot name for the chunk's
/// function): the tape takes it, with the same numbers.
#[differentiate(wrt(beta))]
fn int_capture(beta: &[f64], rows: &[(f64, [f64; 3])]) -> f64 {
    let n = rows.len();
    reduce_sum(rows, 64, |chunk: &[(f64, [f64; 3])], start: usize| {
        let mut s = 0.0;
        for (i, (_, x)) in chunk.iter().enumerate() {
            s += beta[0] * x[1] * ((start + i) as f64 / n as f64);
        }
        s
    })
}

#[test]
fn differentiated_reduce_sum_twice_untyped_and_taped() {
    let rows = data(2_000);
    let scales = [0.5, -1.5];
    let serial = |b: &[f64]| {
        let mut t = 0.0;
        for (y, x) in &rows {
            let eta = 2.0 * b[0] * x[0] + b[1] * x[1];
            t += y * eta - eta.log1p_exp();
        }
        for k in scales {
            for (_, x) in &rows {
                t += (k * b[2] * x[2]).sin();
            }
        }
        t
    };
    let (v, g) = two_sums_grad(&BETA, &rows, &scales);
    assert_close(v, serial(&BETA), 1e-12, "value");
    let fd = finite_diff(serial, &BETA);
    assert_all_close(&g, &fd, 1e-6, "gradient against finite differences");
    let (tv, tg) = gradient(
        |b| {
            let mut t = Var::from(0.0);
            for (y, x) in &rows {
                let eta = b[0] * 2.0 * x[0] + b[1] * x[1];
                t += eta * *y - eta.log1p_exp();
            }
            for k in scales {
                for (_, x) in &rows {
                    t += (b[2] * k * x[2]).sin();
                }
            }
            t
        },
        &BETA,
    );
    assert_close(v, tv, 1e-12, "value against the tape");
    assert_all_close(&g, &tg, 1e-11, "gradient against the tape");
    let n = rows.len() as f64;
    let want: f64 = rows
        .iter()
        .enumerate()
        .map(|(i, (_, x))| x[1] * i as f64 / n)
        .sum();
    let (iv, ig) = int_capture_grad(&BETA, &rows);
    assert_close(iv, BETA[0] * want, 1e-12, "value (tape)");
    assert_all_close(&ig, &[want, 0.0, 0.0], 1e-12, "gradient (tape)");
}
