//! Hessians: ReverseDiffSource's Rosenbrock example; every distribution and slice
//! function, and `#[deriv_rule]` functions whose partials are differentiated again, against
//! exact values, gradients and Hessians (sympy, `forward_support/hessian_reference.py`),
//! entry by entry at each entry's own scale, for reverse-over-forward, forward-over-forward,
//! Hessian-vector products and the tape's gradient; and the rules that cannot be
//! differentiated twice, which refuse with a message naming them.

#[allow(dead_code)]
#[path = "support/close.rs"]
mod close;
#[path = "forward_support/hessian_values.rs"]
mod hessian_values;

use close::{assert_all_close, assert_close};
use fazang::prelude::*;
use fazang::{hessian, hessian_forward, hessian_vector_product, Dual, HessianScalar, Taylor};
use hessian_values::{Reference, REFERENCE};

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

/// Every entry within `REL` of its own magnitude, plus `ABS`: a 1 % error in any entry
/// that is not tiny fails (checked for each reference below).
const REL: f64 = 1e-11;
const ABS: f64 = 1e-13;

/// The reference of `case` at `x` (exactly this point).
fn reference(case: &str, x: &[f64]) -> &'static Reference {
    REFERENCE
        .iter()
        .find(|r| r.case == case && r.x == x)
        .unwrap_or_else(|| panic!("no reference for {case} at {x:?}: run hessian_reference.py"))
}

/// `got` against `want`, entry by entry at its own scale.
#[track_caller]
fn assert_entries(got: &[f64], want: &[f64], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: lengths differ");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let allowed = REL * w.abs() + ABS;
        // The tolerance could not hide a 1 % error in this entry.
        assert!(
            w.abs() * 0.01 > allowed || w.abs() < 1e-9,
            "{what}[{i}]: reference too small"
        );
        assert!(
            (g - w).abs() <= allowed,
            "{what}[{i}]: got {g:e}, want {w:e} (error {:e}, allowed {allowed:e})",
            (g - w).abs()
        );
    }
}

/// Value, gradient and Hessian from both methods, H v and the tape's gradient, each
/// against the exact reference of `case` (sympy, `forward_support/hessian_reference.py`).
fn check<G, H, F, V>(case: &str, (g, h, fwd, hvp): (G, H, F, V), x: &[f64])
where
    G: Fn(&[Var]) -> Var,
    H: Fn(&[HessianScalar]) -> HessianScalar,
    F: Fn(&[fazang::HessianFwdScalar<8>]) -> fazang::HessianFwdScalar<8>,
    V: Fn(&[fazang::HvpScalar]) -> fazang::HvpScalar,
{
    let Reference {
        value, grad, hess, ..
    } = reference(case, x);
    let value = *value;
    let (v, gr, rows) = hessian(&h, x);
    assert_entries(&[v], &[value], &format!("{case}: value"));
    assert_entries(&gr, grad, &format!("{case}: gradient"));
    assert_entries(&rows.concat(), hess, &format!("{case}: hessian"));
    let (v, gr) = gradient(&g, x);
    assert_entries(&[v], &[value], &format!("{case}: tape value"));
    assert_entries(&gr, grad, &format!("{case}: tape gradient"));
    let (_, gr, fwd_rows) = hessian_forward::<8, _>(&fwd, x);
    assert_entries(&gr, grad, &format!("{case}: forward-over-forward gradient"));
    assert_entries(
        &fwd_rows.concat(),
        hess,
        &format!("{case}: forward-over-forward"),
    );
    let n = x.len();
    let dir: Vec<f64> = (0..n).map(|i| 1.0 - 0.3 * i as f64).collect();
    let (_, hv) = hessian_vector_product(&hvp, x, &dir);
    let want: Vec<f64> = hess
        .chunks(n)
        .map(|r| r.iter().zip(&dir).map(|(a, b)| a * b).sum())
        .collect();
    assert_entries(&hv, &want, &format!("{case}: H v"));
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
    check("chain", four!(|x| chain(x)), &x);
}

#[test]
fn location_scale_families() {
    check(
        "normal_lpdf(x0, x1, x2)",
        four!(|x| normal_lpdf(x[0], x[1], x[2]).unwrap()),
        &[1.3, 0.5, 1.2],
    );
    check(
        "normal_lpdf(&x[0..3], x3, x4)",
        four!(|x| normal_lpdf(&x[0..3], x[3], x[4]).unwrap()),
        &[1.3, -0.4, 2.7, 0.5, 1.2],
    );
    check(
        "normal_lpdf(&[1.3, -0.4], &x[0..2], &x[2..4])",
        four!(|x| normal_lpdf(&[1.3, -0.4], &x[0..2], &x[2..4]).unwrap()),
        &[0.5, 0.1, 1.2, 0.7],
    );
    check(
        "lognormal_lpdf",
        four!(|x| lognormal_lpdf(x[0], x[1], x[2]).unwrap()),
        &[1.3, 0.5, 1.2],
    );
    check(
        "cauchy_lpdf",
        four!(|x| cauchy_lpdf(x[0], x[1], x[2]).unwrap()),
        &[1.3, 0.5, 1.2],
    );
    check(
        "student_t_lpdf",
        four!(|x| student_t_lpdf(x[0], x[1], x[2], x[3]).unwrap()),
        &[1.3, 4.5, 0.5, 1.2],
    );
    check(
        "logistic_lpdf",
        four!(|x| logistic_lpdf(x[0], x[1], x[2]).unwrap()),
        &[1.3, 0.5, 1.2],
    );
    check(
        "double_exponential_lpdf",
        four!(|x| double_exponential_lpdf(x[0], x[1], x[2]).unwrap()),
        &[1.3, 0.5, 1.2],
    );
}

#[test]
fn positive_and_bounded_families() {
    check(
        "exponential_lpdf",
        four!(|x| exponential_lpdf(x[0], x[1]).unwrap()),
        &[0.7, 1.5],
    );
    check(
        "gamma_lpdf",
        four!(|x| gamma_lpdf(x[0], x[1], x[2]).unwrap()),
        &[1.3, 2.5, 0.8],
    );
    check(
        "inv_gamma_lpdf",
        four!(|x| inv_gamma_lpdf(x[0], x[1], x[2]).unwrap()),
        &[1.3, 2.5, 0.8],
    );
    check(
        "weibull_lpdf",
        four!(|x| weibull_lpdf(x[0], x[1], x[2]).unwrap()),
        &[1.3, 2.5, 0.8],
    );
    check(
        "chi_square_lpdf",
        four!(|x| chi_square_lpdf(x[0], x[1]).unwrap()),
        &[1.3, 3.5],
    );
    check(
        "beta_lpdf",
        four!(|x| beta_lpdf(x[0], x[1], x[2]).unwrap()),
        &[0.3, 2.5, 1.8],
    );
    check(
        "uniform_lpdf(0.5, x0, x1)",
        four!(|x| uniform_lpdf(0.5, x[0], x[1]).unwrap()),
        &[0.1, 2.0],
    );
}

#[test]
fn count_families() {
    let counts: [i64; 3] = [2, 0, 5];
    check(
        "poisson_lpmf(&[2, 0, 5], x0)",
        four!(|x| poisson_lpmf(&counts, x[0]).unwrap()),
        &[1.7],
    );
    check(
        "poisson_log_lpmf(&[2, 0, 5], x0)",
        four!(|x| poisson_log_lpmf(&counts, x[0]).unwrap()),
        &[0.4],
    );
    check(
        "neg_binomial_2_lpmf(&[2, 0, 5], x0, x1)",
        four!(|x| neg_binomial_2_lpmf(&counts, x[0], x[1]).unwrap()),
        &[1.7, 3.2],
    );
    check(
        "binomial_lpmf(&[2, 0, 5], 6, x0)",
        four!(|x| binomial_lpmf(&counts, 6, x[0]).unwrap()),
        &[0.35],
    );
    check(
        "bernoulli_lpmf(&[0, 1, 1], x0)",
        four!(|x| bernoulli_lpmf(&[0, 1, 1], x[0]).unwrap()),
        &[0.35],
    );
    check(
        "bernoulli_logit_lpmf(&[0, 1, 1], x0)",
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
        check(
            "gamma_lpdf",
            four!(|x| gamma_lpdf(x[0], x[1], x[2]).unwrap()),
            x,
        );
    }
    let pts: [&[f64]; 2] = [&[0.9, 30.0, 25.0], &[0.5, 0.3, 0.8]];
    for x in pts {
        check(
            "inv_gamma_lpdf",
            four!(|x| inv_gamma_lpdf(x[0], x[1], x[2]).unwrap()),
            x,
        );
    }
    for x in [[40.0, 42.0], [0.4, 1.2]] {
        check(
            "chi_square_lpdf",
            four!(|x| chi_square_lpdf(x[0], x[1]).unwrap()),
            &x,
        );
    }
    for x in [[1.1, 30.0, 1.0], [2.5, 1.5, 0.8]] {
        check(
            "weibull_lpdf",
            four!(|x| weibull_lpdf(x[0], x[1], x[2]).unwrap()),
            &x,
        );
    }
    for x in [[0.4, 0.5, 2.5], [0.3, 0.5, 15.0], [0.45, 20.0, 25.0]] {
        check(
            "beta_lpdf",
            four!(|x| beta_lpdf(x[0], x[1], x[2]).unwrap()),
            &x,
        );
    }
    check(
        "student_t_lpdf",
        four!(|x| student_t_lpdf(x[0], x[1], x[2], x[3]).unwrap()),
        &[5.0, 4.5, 0.5, 1.2],
    );
    let counts: [i64; 3] = [12, 15, 30];
    check(
        "poisson_lpmf(&[12, 15, 30], x0)",
        four!(|x| poisson_lpmf(&counts, x[0]).unwrap()),
        &[14.0],
    );
    check(
        "poisson_log_lpmf(&[12, 15, 30], x0)",
        four!(|x| poisson_log_lpmf(&counts, x[0]).unwrap()),
        &[2.6],
    );
    check(
        "binomial_lpmf(&[12, 25], 40, x0)",
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
            &format!("neg_binomial_2_lpmf(&{counts:?}, x0, x1)"),
            four!(|x| neg_binomial_2_lpmf(counts, x[0], x[1]).unwrap()),
            &x,
        );
    }
    check("powf", four!(|x| x[0].powf(x[1])), &[2.3, 1.7]);
}

#[test]
fn slice_functions() {
    let w = [0.5, -1.0, 2.0];
    check(
        "slice_functions",
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
    check(
        "foo_ab2",
        four!(|x| foo(x[0]) * ab2(x[1], x[0])),
        &[0.4, 1.3],
    );
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
    // It names the call that gave f64 partials: `cube`'s `from_partials`, in this file.
    let at = format!("`from_partials`, called at {}:", file!());
    assert!(msg.contains(&at), "{msg}");
    assert!(msg.contains("gave partial derivatives as f64"), "{msg}");
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
