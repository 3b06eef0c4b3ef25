//! Functions whose body the user's own `macro_rules!` writes, and bodies with an empty
//! statement. The macro hands `#[differentiate]` tokens from two places (the attribute
//! and signature written in the macro, the body passed in as `$body:block`, or the whole
//! item passed in as `$f:item`): generated code must resolve its hidden names as the
//! body does. Both failed to compile under the macro before ("cannot find value
//! `__fzr_l0`", "expected expression, found `;`"). Each `_grad` is adjoint code and is
//! checked against finite differences and the tape; `_hessian` against finite
//! differences of `_grad`.
#![allow(clippy::needless_range_loop, redundant_semicolons)]

mod body_support;
use body_support::check_grad_hessian as check;
use fazang::prelude::*;

#[differentiate]
fn total(v: &[f64]) -> f64 {
    v.iter().sum()
}

/// One log-likelihood per observation model: the user's macro writes the signature, the
/// body is theirs.
macro_rules! log_likelihood {
    ($name:ident, $theta:ident, $body:block) => {
        #[differentiate]
        fn $name($theta: &[f64]) -> f64 $body
    };
}

log_likelihood!(gaussian_ll, theta, {
    let (mu, log_sigma) = (theta[0], theta[1]);
    let ys = [0.3, -1.2, 0.8, 2.1];
    let mut lp = 0.0;
    for y in ys {
        lp += normal_lpdf(y, mu, log_sigma.exp()).unwrap();
    }
    let scaled: Vec<f64> = ys.iter().map(|y| y * mu).collect();
    lp + 0.1 * total(&scaled) - 0.5 * mu * mu
});

log_likelihood!(poisson_ll, theta, {
    let counts = [2.0, 0.0, 5.0];
    counts
        .iter()
        .zip(theta)
        .map(|(k, eta)| k * eta - eta.exp())
        .sum::<f64>()
});

/// A macro that only adds the attribute to an item it is given.
macro_rules! differentiated {
    ($f:item) => {
        #[differentiate]
        $f
    };
}

differentiated! {
    fn smooth_max(x: &[f64]) -> f64 {
        let m = x.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let s: f64 = x.iter().map(|v| (v - m).exp()).sum();
        m + s.ln()
    }
}

/// An empty statement left after an edit (`let mut s = 0.0; ;`; kept from rustfmt).
#[differentiate]
#[rustfmt::skip]
fn sum_of_squares(x: &[f64]) -> f64 {
    let mut s = 0.0; ;
    for v in x {
        s += v * v;
    };
    s * x[0]
}

#[test]
fn bodies_written_through_macro_rules() {
    check!(
        gaussian_ll,
        gaussian_ll_grad,
        __gaussian_ll_grad_tape,
        __gaussian_ll_adjoint,
        gaussian_ll_hessian,
        vec![0.4, -0.3]
    );
    check!(
        poisson_ll,
        poisson_ll_grad,
        __poisson_ll_grad_tape,
        __poisson_ll_adjoint,
        poisson_ll_hessian,
        vec![0.2, -0.5, 1.1]
    );
    check!(
        smooth_max,
        smooth_max_grad,
        __smooth_max_grad_tape,
        __smooth_max_adjoint,
        smooth_max_hessian,
        vec![0.2, 1.5, -0.4]
    );
}

#[test]
fn empty_statements() {
    check!(
        sum_of_squares,
        sum_of_squares_grad,
        __sum_of_squares_grad_tape,
        __sum_of_squares_adjoint,
        sum_of_squares_hessian,
        vec![0.7, -1.3, 0.4]
    );
    // Closed form: d/dx0 = |x|^2 + 2 x0^2, d/dxj = 2 x0 xj.
    let x = [0.7, -1.3, 0.4];
    let n2: f64 = x.iter().map(|v| v * v).sum();
    let (_, g) = sum_of_squares_grad(&x);
    body_support::assert_close(
        &g,
        &[n2 + 2.0 * 0.49, 2.0 * 0.7 * -1.3, 2.0 * 0.7 * 0.4],
        1e-12,
    );
}
