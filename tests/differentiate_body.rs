//! The body language of `#[differentiate]`: each construct a primal may use, checked on
//! f64 (the primal) and through `_grad` against closed forms or finite differences.
// The bodies are written the way users write them, including what clippy would rewrite
// (`&Vec<f64>` parameters, early `return`, index loops): the macro must accept them all.
#![allow(
    clippy::needless_return,
    clippy::redundant_closure,
    clippy::ptr_arg,
    clippy::double_ended_iterator_last,
    clippy::needless_range_loop
)]
use fazang::prelude::*;

/// Central finite differences of `f` at `x`.
fn fd(f: impl Fn(&[f64]) -> f64, x: &[f64]) -> Vec<f64> {
    (0..x.len())
        .map(|i| {
            let h = 1e-6 * x[i].abs().max(1.0);
            let (mut a, mut b) = (x.to_vec(), x.to_vec());
            a[i] += h;
            b[i] -= h;
            (f(&a) - f(&b)) / (2.0 * h)
        })
        .collect()
}

fn close(a: &[f64], b: &[f64], tol: f64) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| (x - y).abs() <= tol * (1.0 + y.abs()))
}

#[differentiate]
fn lets_and_loops(x: f64, y: f64) -> f64 {
    let a: f64 = x * y;
    let mut acc = 0.0;
    let mut i = 0;
    while i < 3 {
        acc += a;
        i += 1;
    }
    let mut k = 0;
    loop {
        k += 1;
        acc -= 0.5 * x;
        if k == 2 {
            break;
        }
    }
    for j in 0..2 {
        acc *= 1.0 + j as f64 * 0.1;
    }
    let acc = acc / 2.0; // shadowing
    let b = {
        let t = acc.exp();
        t / (1.0 + t)
    };
    b + f64::EPSILON + std::f64::consts::PI
}

#[test]
fn lets_loops_shadowing_blocks() {
    let x = [0.3, -0.7];
    let f = |v: &[f64]| lets_and_loops(v[0], v[1]);
    let (v, g) = lets_and_loops_grad(x[0], x[1]);
    assert_eq!(v, f(&x));
    assert!(close(&g, &fd(f, &x), 1e-7), "{g:?}");
}

#[differentiate]
fn branches(x: f64) -> f64 {
    if x > 0.0 {
        x * x
    } else if 2.0 < -x {
        return 0.0;
    } else {
        match x {
            v if v < -1.0 => v.sin(),
            _ => 3.0 * x,
        }
    }
}

#[test]
fn control_flow_along_each_branch() {
    assert_eq!(branches_grad(1.5), (2.25, [3.0]));
    assert_eq!(branches_grad(-3.0), (0.0, [0.0]));
    assert_eq!(branches_grad(-1.5), ((-1.5f64).sin(), [(-1.5f64).cos()]));
    assert_eq!(branches_grad(-0.5), (-1.5, [3.0]));
}

#[differentiate]
fn literals_everywhere(x: &[f64]) -> f64 {
    let zeros = vec![0.0; x.len()];
    let mut buf = [0.0; 3];
    buf[0] = x[0];
    buf[1] = 2.0f64.powf(x[1]);
    buf[2] = zeros[0] + x.iter().fold(0.0, |a, b| a + b * b);
    let w = vec![1.0, 2.0, 3.0];
    let dot = buf.iter().zip(&w).map(|(a, b)| a * b).sum::<f64>();
    let n = x.len() as f64;
    let s: f64 = x.iter().sum();
    dot + s / n + f64::NEG_INFINITY.max(x[0])
}

#[test]
fn float_literals_arrays_vecs_iterators() {
    let x = [0.4, 1.3];
    let (v, g) = literals_everywhere_grad(&x);
    assert_eq!(v, literals_everywhere(&x));
    assert!(
        close(&g, &fd(|v| literals_everywhere(v), &x), 1e-7),
        "{g:?}"
    );
}

#[differentiate]
fn formats(x: f64) -> f64 {
    let s = format!("{x:.3}");
    assert_eq!(s.len(), 5);
    x * 2.0
}

#[test]
fn format_of_active_values() {
    assert_eq!(formats_grad(1.25), (2.5, [2.0]));
}

#[derive(Debug, PartialEq)]
struct Negative(f64);

#[differentiate]
fn checked_log(x: f64) -> Result<f64, Negative> {
    if x <= 0.0 {
        return Err(Negative(x.val()));
    }
    let y = helper(x)?;
    Ok(y.ln())
}

#[differentiate]
fn helper(x: f64) -> Result<f64, Negative> {
    Ok(x * x)
}

#[test]
fn result_and_question_mark() {
    assert_eq!(checked_log_grad(-1.0), Err(Negative(-1.0)));
    let (v, g) = checked_log_grad(3.0).unwrap();
    assert_eq!(v, 9.0_f64.ln());
    assert!((g[0] - 2.0 / 3.0).abs() < 1e-15);
    assert_eq!(checked_log(3.0), Ok(9.0_f64.ln()));
}

#[differentiate]
fn inner(a: f64, b: f64) -> f64 {
    a * b.exp()
}

#[differentiate]
fn outer(x: f64, y: &[f64]) -> f64 {
    inner(x, y[0]) + inner(y[1], x) + dot_product(y, y) + log_sum_exp(y)
}

#[test]
fn calls_between_differentiated_functions() {
    let x = [0.2, 0.5, -0.3];
    let f = |v: &[f64]| outer(v[0], &v[1..]);
    let (v, (gx, gy)) = outer_grad(x[0], &x[1..]);
    assert_eq!(v, f(&x));
    let want = fd(f, &x);
    assert!(close(&[gx], &want[..1], 1e-7));
    assert!(close(&gy, &want[1..], 1e-7));
}

#[differentiate(wrt(mu))]
fn data_parameters(mu: f64, sigma: f64, y: &[f64], n: usize) -> f64 {
    let mut s = 0.0;
    for yi in y.iter().take(n) {
        s += -0.5 * ((yi - mu) / sigma).powi(2);
    }
    s
}

#[test]
fn wrt_and_data_parameters() {
    let y = [1.0, 2.0, 4.0];
    let (v, g) = data_parameters_grad(1.5, 2.0, &y, 3);
    assert_eq!(v, data_parameters(1.5, 2.0, &y, 3));
    let want: f64 = y.iter().map(|yi| (yi - 1.5) / 4.0).sum();
    assert!((g[0] - want).abs() < 1e-15);
}

#[differentiate(grad = shapes_gradient)]
fn shapes(a: [f64; 2], v: Vec<f64>, r: &Vec<f64>, s: f64) -> f64 {
    a[0] * a[1] + v.iter().sum::<f64>() * s + r[0] * r[1]
}

#[test]
fn parameter_shapes_and_rename() {
    let (v, (ga, gv, gr, gs)) = shapes_gradient([2.0, 3.0], vec![1.0, 4.0], &vec![5.0, 6.0], 0.5);
    assert_eq!(v, 6.0 + 2.5 + 30.0);
    assert_eq!(ga, [3.0, 2.0]);
    assert_eq!(gv, vec![0.5, 0.5]);
    assert_eq!(gr, vec![6.0, 5.0]);
    assert_eq!(gs, 5.0);
}

#[differentiate]
fn softmax(x: &[f64]) -> Vec<f64> {
    let m = x.iter().fold(f64::NEG_INFINITY, |a, &b| a.max(b));
    let e: Vec<f64> = x.iter().map(|v| (*v - m).exp()).collect();
    let z: f64 = e.iter().sum();
    e.iter().map(|v| *v / z).collect()
}

#[test]
fn softmax_jacobian_closed_form() {
    let x = [0.1, -0.4, 1.2];
    let (v, jac) = softmax_jacobian(&x);
    assert_eq!(v, softmax(&x));
    for i in 0..3 {
        for j in 0..3 {
            let want = v[i] * (if i == j { 1.0 } else { 0.0 } - v[j]);
            assert!((jac[i][j] - want).abs() < 1e-15);
        }
    }
}

#[differentiate]
fn polar(r: f64, t: f64) -> [f64; 2] {
    [r * t.cos(), r * t.sin()]
}

#[test]
fn array_return_jacobian() {
    let (v, jac) = polar_jacobian(2.0, 0.5);
    assert_eq!(v, polar(2.0, 0.5).to_vec());
    assert_eq!(jac[0], vec![0.5f64.cos(), -2.0 * 0.5f64.sin()]);
    assert_eq!(jac[1], vec![0.5f64.sin(), 2.0 * 0.5f64.cos()]);
}

#[test]
fn gradients_from_several_threads() {
    let handles: Vec<_> = (0..4)
        .map(|k| {
            std::thread::spawn(move || {
                let x = [0.5 + k as f64, 2.0];
                (0..200).map(|_| rosen_grad(&x)).last().unwrap()
            })
        })
        .collect();
    for (k, h) in handles.into_iter().enumerate() {
        let (v, g) = h.join().unwrap();
        let x0 = 0.5 + k as f64;
        let want_g0 = -2.0 * (1.0 - x0) - 400.0 * x0 * (2.0 - x0 * x0);
        assert_eq!(v, rosen(&[x0, 2.0]));
        assert!((g[0] - want_g0).abs() < 1e-9 && (g[1] - 200.0 * (2.0 - x0 * x0)).abs() < 1e-9);
    }
}

#[differentiate]
fn rosen(x: &[f64]) -> f64 {
    (0..x.len() - 1)
        .map(|i| (1.0 - x[i]).powi(2) + 100.0 * (x[i + 1] - x[i].powi(2)).powi(2))
        .sum()
}

#[differentiate(wrt(mu))]
fn data_bindings(mu: f64, y: &[f64]) -> f64 {
    let n: f64 = y.len() as f64;
    let total: f64 = y.iter().sum();
    let mut acc = 0.0;
    for i in 0..y.len() {
        let yi: f64 = y[i];
        let d: f64 = yi - mu;
        acc += d * d;
    }
    let m: f64 = mu;
    acc / n + total * 0.0 + m
}

#[test]
fn f64_annotated_bindings_of_data_and_active_values() {
    let y = [1.0, 2.0, 6.0];
    let (v, g) = data_bindings_grad(2.0, &y);
    assert_eq!(v, data_bindings(2.0, &y));
    let want = y.iter().map(|yi| -2.0 * (yi - 2.0)).sum::<f64>() / 3.0 + 1.0;
    assert!((g[0] - want).abs() < 1e-15);
}

#[differentiate]
fn ufcs_calls(x: f64, y: f64) -> f64 {
    f64::max(x, 0.0) + f64::powf(y, 2.0) + f64::hypot(x, y) + f64::max(1.0, 2.0)
}

#[test]
fn f64_path_calls_of_math_methods() {
    let (x, y) = (1.5_f64, -2.0_f64);
    let (v, g) = ufcs_calls_grad(x, y);
    assert_eq!(v, ufcs_calls(x, y));
    let h = x.hypot(y);
    assert!((g[0] - (1.0 + x / h)).abs() < 1e-15);
    assert!((g[1] - (2.0 * y + y / h)).abs() < 1e-15);
    assert_eq!(ufcs_calls_grad(-1.0, 0.0).1[0], -1.0);
}
