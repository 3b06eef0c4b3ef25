//! Hessians: ReverseDiffSource's Rosenbrock example; every distribution and slice
//! function against central differences of its gradient (reverse-over-forward and
//! forward-over-forward, which must also agree with each other); `#[deriv_rule]`
//! functions, whose partials are differentiated again, and the rules that cannot be,
//! which refuse with a message naming them.

#[allow(dead_code)]
#[path = "support/close.rs"]
mod close;

use close::{assert_all_close, assert_close};
use fazang::prelude::*;
use fazang::{hessian, hessian_forward, hessian_vector_product, Dual, HessianScalar, Taylor};

/// The same closure for the gradient (`Var`), `hessian`, `hessian_forward::<8>` and
/// `hessian_vector_product`.
macro_rules! four {
    (|$x:ident| $body:expr) => {
        (
            |$x: &[Var]| $body,
            |$x: &[HessianScalar]| $body,
            |$x: &[fazang::HessianFwdScalar<8>]| $body,
            |$x: &[fazang::HvpScalar]| $body,
        )
    };
}

/// H from both methods against central differences of the gradient, and H v from
/// `hessian_vector_product`.
fn check<G, H, F, V>((g, h, fwd, hvp): (G, H, F, V), x: &[f64])
where
    G: Fn(&[Var]) -> Var,
    H: Fn(&[HessianScalar]) -> HessianScalar,
    F: Fn(&[fazang::HessianFwdScalar<8>]) -> fazang::HessianFwdScalar<8>,
    V: Fn(&[fazang::HvpScalar]) -> fazang::HvpScalar,
{
    let n = x.len();
    let (v, grad, rows) = hessian(&h, x);
    let (v0, g0) = gradient(&g, x);
    assert_close(v, v0, 1e-14, "value");
    assert_all_close(&grad, &g0, 1e-13, "gradient");
    let scale = rows.iter().flatten().fold(1.0_f64, |m, r| m.max(r.abs()));
    for i in 0..n {
        let step = 1e-5 * x[i].abs().max(1.0);
        let mut xp = x.to_vec();
        xp[i] += step;
        let mut xm = x.to_vec();
        xm[i] -= step;
        let (gp, gm) = (gradient(&g, &xp).1, gradient(&g, &xm).1);
        for j in 0..n {
            let fd = (gp[j] - gm[j]) / (2.0 * step);
            assert!(
                (rows[i][j] - fd).abs() <= 1e-6 * scale,
                "H[{i}][{j}] = {} but the gradient's central difference is {fd}",
                rows[i][j]
            );
        }
    }
    let (_, _, fwd_rows) = hessian_forward::<8, _>(&fwd, x);
    for (a, b) in rows.iter().zip(&fwd_rows) {
        assert_all_close(a, b, 1e-12, "forward-over-forward");
    }
    let dir: Vec<f64> = (0..n).map(|i| 1.0 - 0.3 * i as f64).collect();
    let (_, hv) = hessian_vector_product(&hvp, x, &dir);
    let want: Vec<f64> = rows
        .iter()
        .map(|r| r.iter().zip(&dir).map(|(a, b)| a * b).sum())
        .collect();
    assert_all_close(&hv, &want, 1e-12, "H v");
}

#[differentiate]
fn rosenbrock(x: &[f64]) -> f64 {
    (1.0 - x[0]).powi(2) + 100.0 * (x[1] - x[0].powi(2)).powi(2)
}

#[test]
fn rosenbrock_as_reverse_diff_source() {
    // rdiff(ex, x = Vector{Float64}, order = 2) at [0.5, 2.0]:
    // (306.5, [-351.0, 350.0], [-498.0 -200.0; -200.0 200.0]).
    let (v, g, h) = hessian(rosenbrock, &[0.5, 2.0]);
    assert_eq!((v, g), (306.5, vec![-351.0, 350.0]));
    assert_eq!(h, vec![vec![-498.0, -200.0], vec![-200.0, 200.0]]);
    let (v, g, h) = hessian_forward::<2, _>(rosenbrock, &[0.5, 2.0]);
    assert_eq!((v, g), (306.5, vec![-351.0, 350.0]));
    assert_eq!(h, vec![vec![-498.0, -200.0], vec![-200.0, 200.0]]);
    let (_, hv) = hessian_vector_product(rosenbrock, &[0.5, 2.0], &[1.0, 0.0]);
    assert_eq!(hv, vec![-498.0, -200.0]);
}

#[test]
fn many_inputs_take_several_passes() {
    // 20 inputs: three reverse passes, three forward blocks per side.
    #[differentiate]
    fn chain(x: &[f64]) -> f64 {
        let mut acc = 0.0;
        for i in 0..x.len() - 1 {
            acc += (x[i] * x[i + 1]).sin() + x[i].exp() * 0.1;
        }
        acc * acc.cos()
    }
    let x: Vec<f64> = (0..20).map(|i| 0.1 * i as f64 - 0.7).collect();
    check(four!(|x| chain(x)), &x);
}

#[test]
fn location_scale_families() {
    check(
        four!(|x| normal_lpdf(x[0], x[1], x[2]).unwrap()),
        &[1.3, 0.5, 1.2],
    );
    check(
        four!(|x| normal_lpdf(&x[0..3], x[3], x[4]).unwrap()),
        &[1.3, -0.4, 2.7, 0.5, 1.2],
    );
    check(
        four!(|x| normal_lpdf(&[1.3, -0.4], &x[0..2], &x[2..4]).unwrap()),
        &[0.5, 0.1, 1.2, 0.7],
    );
    check(
        four!(|x| lognormal_lpdf(x[0], x[1], x[2]).unwrap()),
        &[1.3, 0.5, 1.2],
    );
    check(
        four!(|x| cauchy_lpdf(x[0], x[1], x[2]).unwrap()),
        &[1.3, 0.5, 1.2],
    );
    check(
        four!(|x| student_t_lpdf(x[0], x[1], x[2], x[3]).unwrap()),
        &[1.3, 4.5, 0.5, 1.2],
    );
    check(
        four!(|x| logistic_lpdf(x[0], x[1], x[2]).unwrap()),
        &[1.3, 0.5, 1.2],
    );
    check(
        four!(|x| double_exponential_lpdf(x[0], x[1], x[2]).unwrap()),
        &[1.3, 0.5, 1.2],
    );
}

#[test]
fn positive_and_bounded_families() {
    check(
        four!(|x| exponential_lpdf(x[0], x[1]).unwrap()),
        &[0.7, 1.5],
    );
    check(
        four!(|x| gamma_lpdf(x[0], x[1], x[2]).unwrap()),
        &[1.3, 2.5, 0.8],
    );
    check(
        four!(|x| inv_gamma_lpdf(x[0], x[1], x[2]).unwrap()),
        &[1.3, 2.5, 0.8],
    );
    check(
        four!(|x| weibull_lpdf(x[0], x[1], x[2]).unwrap()),
        &[1.3, 2.5, 0.8],
    );
    check(four!(|x| chi_square_lpdf(x[0], x[1]).unwrap()), &[1.3, 3.5]);
    check(
        four!(|x| beta_lpdf(x[0], x[1], x[2]).unwrap()),
        &[0.3, 2.5, 1.8],
    );
    check(
        four!(|x| uniform_lpdf(0.5, x[0], x[1]).unwrap()),
        &[0.1, 2.0],
    );
}

#[test]
fn count_families() {
    let counts: [i64; 3] = [2, 0, 5];
    check(four!(|x| poisson_lpmf(&counts, x[0]).unwrap()), &[1.7]);
    check(four!(|x| poisson_log_lpmf(&counts, x[0]).unwrap()), &[0.4]);
    check(
        four!(|x| neg_binomial_2_lpmf(&counts, x[0], x[1]).unwrap()),
        &[1.7, 3.2],
    );
    check(four!(|x| binomial_lpmf(&counts, 6, x[0]).unwrap()), &[0.35]);
    check(
        four!(|x| bernoulli_lpmf(&[0, 1, 1], x[0]).unwrap()),
        &[0.35],
    );
    check(
        four!(|x| bernoulli_logit_lpmf(&[0, 1, 1], x[0]).unwrap()),
        &[0.35],
    );
}

/// Points in the accurate forms of the densities (Stirling differences for large shapes
/// and counts, the forms for shapes below 1, the far tail of Student's t, the ratio form of
/// the Weibull exponent) and of powf's partial: computed on the inner scalar like the
/// plain forms, so their Hessians agree with differences of the gradient too.
#[test]
fn accurate_forms_differentiate_twice() {
    let pts: [&[f64]; 2] = [&[20.0, 25.0, 1.2], &[0.3, 0.4, 1.5]];
    for x in pts {
        check(four!(|x| gamma_lpdf(x[0], x[1], x[2]).unwrap()), x);
    }
    let pts: [&[f64]; 2] = [&[0.9, 30.0, 25.0], &[0.5, 0.3, 0.8]];
    for x in pts {
        check(four!(|x| inv_gamma_lpdf(x[0], x[1], x[2]).unwrap()), x);
    }
    for x in [[40.0, 42.0], [0.4, 1.2]] {
        check(four!(|x| chi_square_lpdf(x[0], x[1]).unwrap()), &x);
    }
    for x in [[1.1, 30.0, 1.0], [2.5, 1.5, 0.8]] {
        check(four!(|x| weibull_lpdf(x[0], x[1], x[2]).unwrap()), &x);
    }
    for x in [[0.4, 0.5, 2.5], [0.3, 0.5, 15.0], [0.45, 20.0, 25.0]] {
        check(four!(|x| beta_lpdf(x[0], x[1], x[2]).unwrap()), &x);
    }
    check(
        four!(|x| student_t_lpdf(x[0], x[1], x[2], x[3]).unwrap()),
        &[5.0, 4.5, 0.5, 1.2],
    );
    let counts: [i64; 3] = [12, 15, 30];
    check(four!(|x| poisson_lpmf(&counts, x[0]).unwrap()), &[14.0]);
    check(four!(|x| poisson_log_lpmf(&counts, x[0]).unwrap()), &[2.6]);
    check(
        four!(|x| binomial_lpmf(&[12, 25], 40, x[0]).unwrap()),
        &[0.4],
    );
    // φ ≥ 10 with n ≥ 10 (and n > 32 for the φ-partial); n ≥ 10 with φ < 10 and n < 10
    // with φ ≥ 1; φ < 1 with n < 10 and n = 0.
    let cases: [(&[i64], [f64; 2]); 3] = [
        (&[12, 15, 40], [14.0, 12.0]),
        (&[12, 3, 40], [14.0, 3.5]),
        (&[3, 0], [1.5, 0.6]),
    ];
    for (counts, x) in cases {
        check(
            four!(|x| neg_binomial_2_lpmf(counts, x[0], x[1]).unwrap()),
            &x,
        );
    }
    check(four!(|x| x[0].powf(x[1])), &[2.3, 1.7]);
}

#[test]
fn slice_functions() {
    let w = [0.5, -1.0, 2.0];
    check(
        four!(|x| log_sum_exp(x) * norm2(x) + dot_product(&w, x) * sum(x) + dot_product(x, x)),
        &[0.3, -1.2, 0.8],
    );
}

/// log(1 + sin x), with its derivative as a rule written in the argument.
#[deriv_rule(x => x.cos() / (1.0 + x.sin()))]
fn foo(x: f64) -> f64 {
    (1.0 + x.sin()).ln()
}

/// a b², two arguments.
#[deriv_rule(a => b * b, b => 2.0 * a * b)]
fn ab2(a: f64, b: f64) -> f64 {
    a * b * b
}

fn foo_partial(x: f64) -> f64 {
    x.cos() / (1.0 + x.sin())
}

/// The same function whose partial calls a plain f64 helper: first-order only.
#[deriv_rule(x => foo_partial(x))]
fn foo_f64(x: f64) -> f64 {
    (1.0 + x.sin()).ln()
}

#[deriv_rule(adjoint = scale_adjoint)]
fn scale2(x: &[f64]) -> Vec<f64> {
    x.iter().map(|v| 2.0 * v).collect()
}

fn scale_adjoint(_x: &[f64], _out: &[f64], ds: &[f64]) -> Vec<f64> {
    ds.iter().map(|d| 2.0 * d).collect()
}

#[test]
fn rules_with_partials_in_their_arguments_differentiate_twice() {
    check(four!(|x| foo(x[0]) * ab2(x[1], x[0])), &[0.4, 1.3]);
    // The rule and the traced expression have the same Taylor series.
    let t = foo(Taylor::<5>::variable(0.4)).derivatives();
    let u = (Taylor::<5>::variable(0.4).sin() + 1.0).ln().derivatives();
    assert_all_close(&t, &u, 1e-14, "Taylor series of the rule");
}

#[test]
fn first_order_rules_work_forward_and_refuse_second_derivatives() {
    // First order (a gradient, a dual number) is fine.
    let d = foo_f64(Dual::variable(0.4));
    assert_close(d.eps, foo_partial(0.4), 1e-15, "Dual<f64>");
    let (_, g) = gradient(|x| foo_f64(x[0]), &[0.4]);
    assert_close(g[0], foo_partial(0.4), 1e-15, "gradient");
    // A second derivative is a clear error naming the rule.
    let r = std::panic::catch_unwind(|| hessian(|x| foo_f64(x[0]), &[0.4]));
    let msg = *r.unwrap_err().downcast::<String>().unwrap();
    assert!(msg.contains("`foo_f64` is first-order only"), "{msg}");
    assert!(msg.contains("it calls `foo_partial`"), "{msg}");
}

#[test]
fn adjoint_rules_refuse_second_derivatives() {
    // Forward mode through a vector-Jacobian product: J v from one product per output.
    let y = scale2(&[Dual::variable(1.5), Dual::constant(2.0)]);
    assert_eq!((y[0].eps, y[1].eps), (2.0, 0.0));
    let r = std::panic::catch_unwind(|| hessian(|x| scale2(x)[0] * x[1], &[1.5, 2.0]));
    let msg = *r.unwrap_err().downcast::<String>().unwrap();
    assert!(msg.contains("`scale2` is first-order only"), "{msg}");
    assert!(msg.contains("adjoint"), "{msg}");
}

#[test]
fn custom_operations_with_f64_partials_refuse_second_derivatives() {
    fn cube<S: Real>(x: S) -> S {
        let v = x.val();
        S::from_partials(v * v * v, |p| p.push(x, 3.0 * v * v))
    }
    assert_eq!(cube(Dual::variable(2.0)).eps, 12.0);
    let r = std::panic::catch_unwind(|| hessian(|x| cube(x[0]), &[2.0]));
    let msg = *r.unwrap_err().downcast::<String>().unwrap();
    assert!(
        msg.contains("built with `Real::from_partials`") && msg.contains("first-order only"),
        "{msg}"
    );
}

struct Model;

impl Model {
    /// An associated rule function: x² c.
    #[deriv_rule(x => 2.0 * x * c, c => x * x)]
    fn scaled_square(x: f64, c: f64) -> f64 {
        x * x * c
    }
}

/// A `mut` parameter changed by the body, and a data parameter.
#[deriv_rule(x => (x * 3.0).cos() * 3.0)]
fn sin3(mut x: f64, k: i32) -> f64 {
    x *= 3.0;
    x.sin() + f64::from(k)
}

#[test]
fn rules_in_impl_blocks_with_mut_and_data_parameters() {
    // f = sin(3x) + 2 + x² c: H = [[-9 sin 3x + 2c, 2x], [2x, 0]].
    let f = |v: &[HessianScalar]| sin3(v[0], 2) + Model::scaled_square(v[0], v[1]);
    let (val, g, h) = hessian(f, &[0.4, 1.5]);
    assert_close(val, (1.2_f64).sin() + 2.0 + 0.16 * 1.5, 1e-15, "value");
    assert_all_close(
        &g,
        &[3.0 * 1.2_f64.cos() + 2.0 * 0.4 * 1.5, 0.16],
        1e-14,
        "gradient",
    );
    assert_all_close(&h[0], &[-9.0 * 1.2_f64.sin() + 3.0, 0.8], 1e-14, "H row 0");
    assert_all_close(&h[1], &[0.8, 0.0], 1e-14, "H row 1");
}
