//! The body language on the adjoint path (issue 18): bodies written the way numeric Rust is
//! written (iterator chains, sub-slices, `windows`, `chunks_exact`, closures, `fold`,
//! `break`/`continue`, `match` with bindings, destructuring, `?`, helper calls). Each
//! function's `_grad` must be adjoint code (its hidden `__name_adjoint` exists: naming it
//! here fails to compile otherwise) and agree with finite differences and the tape.
#![allow(clippy::needless_range_loop)]

mod body_support;
use body_support::{assert_close, fd_grad};
use fazang::prelude::*;

/// Checks a function of one slice: value as the primal, gradient against finite
/// differences and the tape twin.
macro_rules! check_slice {
    ($f:ident, $grad:ident, $tape:ident, $adj:ident, $x:expr) => {{
        let _adjoint_code = $adj;
        let x: Vec<f64> = $x;
        let (v, g) = $grad(&x);
        assert_eq!(v, $f(&x), "value");
        assert_close(&g, &fd_grad(|x| $f(x), &x), 1e-7);
        let (vt, gt) = $tape(&x);
        assert_eq!(v, vt);
        assert_close(&g, &gt, 1e-12);
    }};
}

fn points(n: usize) -> Vec<f64> {
    (0..n).map(|i| ((i * 37 % 11) as f64 - 5.0) / 7.0).collect()
}

#[differentiate]
fn logistic_chain(beta: &[f64]) -> f64 {
    let (xs, ys, d) = (data_x(), data_y(), 3);
    xs.chunks_exact(d)
        .zip(ys.iter())
        .map(|(row, y)| {
            let eta: f64 = row.iter().zip(beta).map(|(a, b)| a * b).sum();
            y * eta - eta.exp().ln_1p()
        })
        .sum()
}

fn data_x() -> Vec<f64> {
    (0..24).map(|i| ((i * 13 % 7) as f64 - 3.0) / 4.0).collect()
}

fn data_y() -> Vec<f64> {
    (0..8).map(|i| (i % 2) as f64).collect()
}

#[test]
fn iterator_chain_over_rows() {
    check_slice!(
        logistic_chain,
        logistic_chain_grad,
        __logistic_chain_grad_tape,
        __logistic_chain_adjoint,
        vec![0.3, -0.7, 1.1]
    );
}

#[differentiate]
fn hierarchical(theta: &[f64]) -> f64 {
    let (mu, log_tau) = (theta[0], theta[1]);
    let eta = &theta[2..];
    let tau = log_tau.exp();
    let mut lp = -0.5 * mu * mu - 0.5 * log_tau * log_tau;
    for (j, e) in eta.iter().enumerate() {
        let x = mu + tau * e;
        lp += -0.5 * e * e - 0.5 * (x - j as f64 * 0.3).powi(2);
    }
    lp
}

#[test]
fn sub_slices_and_enumerate() {
    check_slice!(
        hierarchical,
        hierarchical_grad,
        __hierarchical_grad_tape,
        __hierarchical_adjoint,
        points(7)
    );
}

#[differentiate]
fn ar1(y: &[f64]) -> f64 {
    let phi = 0.6;
    y.windows(2)
        .map(|w| {
            let r = w[1] - phi * w[0];
            -0.5 * r * r
        })
        .sum::<f64>()
        - 0.5 * y[0] * y[0]
}

#[test]
fn windows_of_two() {
    check_slice!(ar1, ar1_grad, __ar1_grad_tape, __ar1_adjoint, points(9));
}

#[differentiate]
fn rosenbrock_sum(x: &[f64]) -> f64 {
    let n = x.len();
    (0..n - 1)
        .map(|i| 100.0 * (x[i + 1] - x[i] * x[i]).powi(2) + (1.0 - x[i]).powi(2))
        .sum()
}

#[test]
fn range_map_sum() {
    check_slice!(
        rosenbrock_sum,
        rosenbrock_sum_grad,
        __rosenbrock_sum_grad_tape,
        __rosenbrock_sum_adjoint,
        points(6)
    );
}

#[differentiate]
fn two_layer(w: &[f64]) -> f64 {
    let (w1, rest) = w.split_at(6);
    let (b1, w2) = rest.split_at(3);
    let input = [0.5, -1.0];
    let hidden: Vec<f64> = (0..3)
        .map(|j| (w1[2 * j] * input[0] + w1[2 * j + 1] * input[1] + b1[j]).tanh())
        .collect();
    let out: f64 = hidden.iter().zip(w2).map(|(h, v)| h * v).sum();
    (out - 0.25).powi(2)
}

#[test]
fn split_at_and_collect() {
    check_slice!(
        two_layer,
        two_layer_grad,
        __two_layer_grad_tape,
        __two_layer_adjoint,
        points(12)
    );
}

#[differentiate]
fn folded(x: &[f64]) -> f64 {
    let m = x.iter().fold(f64::NEG_INFINITY, |a, &b| a.max(b));
    let s = x.iter().map(|v| (v - m).exp()).fold(0.0, |acc, e| acc + e);
    m + s.ln()
}

#[test]
fn fold_and_max() {
    check_slice!(
        folded,
        folded_grad,
        __folded_grad_tape,
        __folded_adjoint,
        points(5)
    );
}

#[differentiate]
fn early_exit(x: &[f64]) -> f64 {
    let mut total = 0.0;
    for (i, v) in x.iter().enumerate() {
        if *v < -0.6 {
            continue;
        }
        total += v * v * (i as f64 + 1.0);
        if total > 2.0 {
            break;
        }
    }
    let mut k = 0;
    let mut p = 1.0;
    while k < x.len() {
        p *= 1.0 + 0.1 * x[k];
        if p > 1.3 {
            return total + p;
        }
        k += 1;
    }
    total * p
}

#[test]
fn break_continue_return() {
    for x in [points(6), vec![0.9, 0.9, 0.9, 0.9], vec![-0.9, 0.1, -0.2]] {
        check_slice!(
            early_exit,
            early_exit_grad,
            __early_exit_grad_tape,
            __early_exit_adjoint,
            x
        );
    }
}

#[differentiate]
fn matched(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for (i, v) in x.iter().enumerate() {
        let w = match i % 3 {
            0 => 2.0 * v,
            1 => v.sin(),
            k => v * k as f64,
        };
        s += match x.get(i + 1) {
            Some(next) => w * next,
            None => w,
        };
    }
    s
}

#[test]
fn match_with_bindings() {
    check_slice!(
        matched,
        matched_grad,
        __matched_grad_tape,
        __matched_adjoint,
        points(7)
    );
}

#[differentiate]
fn closures(x: &[f64]) -> f64 {
    let scale = 1.5;
    let f = |v: f64| (v * scale).sin() + v;
    let sq = |v: f64| v * v;
    let mut acc = 0.0;
    for v in x {
        acc += sq(f(*v));
    }
    acc
}

#[test]
fn local_closures() {
    check_slice!(
        closures,
        closures_grad,
        __closures_grad_tape,
        __closures_adjoint,
        points(4)
    );
}

#[differentiate]
fn destructured(p: [f64; 4]) -> f64 {
    let [a, b, c, d] = p;
    let (u, v) = (a * b, c - d);
    let (s, co) = u.sin_cos();
    s * v + co * u
}

#[test]
fn destructuring_patterns() {
    let _adjoint_code = __destructured_adjoint;
    let p = [0.3, -0.8, 1.2, 0.4];
    let (v, g) = destructured_grad(p);
    assert_eq!(v, destructured(p));
    let f = |q: &[f64]| destructured([q[0], q[1], q[2], q[3]]);
    assert_close(&g, &fd_grad(f, &p), 1e-8);
}

#[differentiate]
fn softplus(v: f64) -> f64 {
    v.exp().ln_1p()
}

#[differentiate(wrt(mu, sigma))]
fn with_helpers(mu: f64, sigma: f64, y: &[f64]) -> Result<f64, DomainError> {
    let lp = normal_lpdf(y, mu, sigma)?;
    let prior = softplus(mu) + normal_lpdf(sigma, 1.0, 2.0).unwrap();
    Ok(lp - prior)
}

#[test]
fn calls_of_helpers_and_distributions() {
    let _adjoint_code = __with_helpers_adjoint;
    let y = [0.5, 1.5, -0.25];
    let (v, g) = with_helpers_grad(0.3, 1.4, &y).unwrap();
    let f = |q: &[f64]| with_helpers(q[0], q[1], &y).unwrap();
    assert_eq!(v, f(&[0.3, 1.4]));
    assert_close(&g, &fd_grad(f, &[0.3, 1.4]), 1e-7);
    // A domain error comes back as the primal's.
    assert!(with_helpers_grad(0.3, -1.0, &y).is_err());
}

#[differentiate]
fn mutated_arrays(x: &[f64]) -> f64 {
    let mut buf = vec![0.0; x.len()];
    for (o, v) in buf.iter_mut().zip(x) {
        *o += 2.0 * v;
    }
    buf.swap(0, 1);
    let mut acc = vec![];
    for w in buf.windows(2) {
        acc.push(w[0] * w[1]);
    }
    acc.iter().sum::<f64>() + buf[0]
}

#[test]
fn iter_mut_swap_push() {
    check_slice!(
        mutated_arrays,
        mutated_arrays_grad,
        __mutated_arrays_grad_tape,
        __mutated_arrays_adjoint,
        points(5)
    );
}

#[differentiate]
fn grad_into_target(x: &[f64], k: f64) -> f64 {
    x.iter().map(|v| (v * k).sin()).sum::<f64>() * k
}

#[test]
fn grad_into_is_the_adjoint() {
    let x = points(4);
    let mut g = vec![f64::NAN; 5];
    let v = grad_into_target_grad_into(&x, 1.3, &mut g);
    let (v2, (gx, gk)) = grad_into_target_grad(&x, 1.3);
    assert_eq!(v, v2);
    assert_eq!(&g[..4], &gx[..]);
    assert_eq!(g[4], gk);
    let mut all = x.clone();
    all.push(1.3);
    assert_close(
        &g,
        &fd_grad(|q| grad_into_target(&q[..4], q[4]), &all),
        1e-8,
    );
}

#[differentiate]
fn residuals(x: &[f64]) -> Vec<f64> {
    let t = [0.0, 0.5, 1.0, 1.5, 2.0];
    t.iter()
        .map(|ti| x[0] * (x[1] * ti).exp() - (1.0 + ti))
        .collect()
}

#[differentiate]
fn polar(r: f64, theta: f64) -> [f64; 2] {
    [r * theta.cos(), r * theta.sin()]
}

#[differentiate]
fn least_squares(x: &[f64]) -> f64 {
    let r = residuals(x);
    let p = polar(x[0], x[1]);
    0.5 * r.iter().map(|v| v * v).sum::<f64>() + p[0] * p[1]
}

#[test]
fn calls_with_vector_results() {
    check_slice!(
        least_squares,
        least_squares_grad,
        __least_squares_grad_tape,
        __least_squares_adjoint,
        vec![0.7, -0.3]
    );
}
