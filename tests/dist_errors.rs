//! Every argument check of every distribution, with Stan's message word for word;
//! out-of-support data; inconsistent sizes; the accessors of `DomainError`.
//!
//! The messages follow Stan Math's `prim/err` (`check_positive`, `check_finite`,
//! `check_not_nan`, `check_nonnegative`, `check_positive_finite`, `check_bounded`,
//! `check_greater`, `check_consistent_sizes`), with numbers printed as C++ streams print
//! them (`%g`: six significant digits, `nan`, `inf`) and elements numbered from 1.

use fazang::dist::Constraint;
use fazang::prelude::*;

const NAN: f64 = f64::NAN;
const INF: f64 = f64::INFINITY;

/// The message of the error `$e` (which must be an error).
macro_rules! message {
    ($e:expr) => {
        match $e {
            Ok(v) => panic!("expected an error, got {v:?}"),
            Err(e) => e.to_string(),
        }
    };
}

macro_rules! assert_errors {
    ($($call:expr => $msg:expr;)*) => {$(
        assert_eq!(message!($call), $msg, "{}", stringify!($call));
    )*};
}

#[test]
fn normal() {
    assert_errors! {
        normal_lpdf(NAN, 0.0, 1.0) => "normal_lpdf: Random variable is nan, but must be not nan!";
        normal_lpdf(&[1.0, NAN], 0.0, 1.0) => "normal_lpdf: Random variable[2] is nan, but must be not nan!";
        normal_lpdf(1.0, INF, 1.0) => "normal_lpdf: Location parameter is inf, but must be finite!";
        normal_lpdf(1.0, &[0.0, 0.0, -INF], 1.0) => "normal_lpdf: Location parameter[3] is -inf, but must be finite!";
        normal_lpdf(1.0, 0.0, -1.0) => "normal_lpdf: Scale parameter is -1, but must be positive!";
        normal_lpdf(1.0, 0.0, 0.0) => "normal_lpdf: Scale parameter is 0, but must be positive!";
        normal_lpdf(1.0, 0.0, NAN) => "normal_lpdf: Scale parameter is nan, but must be positive!";
        normal_lpdf(&[1.0, 2.0, 3.0], &[0.0, 0.0], 1.0) => "normal_lpdf: Random variable has size = 3, but Location parameter has size 2; and they must be the same size.";
        normal_lpdf(1.0, &[0.0, 0.0], &[1.0, 1.0, 1.0]) => "normal_lpdf: Location parameter has size = 2, but Scale parameter has size 3; and they must be the same size.";
    }
}

#[test]
fn active_arguments_give_the_same_errors() {
    let (mu, sigma) = (Var::new(0.0), Var::new(-1.0));
    assert_eq!(
        message!(normal_lpdf(&[1.0, 2.0], mu, sigma)),
        "normal_lpdf: Scale parameter is -1, but must be positive!"
    );
    let ys = [Var::new(1.0), Var::new(-2.0)];
    assert_eq!(
        message!(lognormal_lpdf(&ys, mu, 1.0)),
        "lognormal_lpdf: Random variable[2] is -2, but must be positive!"
    );
    // Checks record nothing on the tape.
    let before = tape_stats();
    let _ = normal_lpdf(&ys, mu, sigma);
    assert_eq!(tape_stats(), before);
    clear_tape();
}

#[test]
fn lognormal() {
    assert_errors! {
        lognormal_lpdf(0.0, 0.0, 1.0) => "lognormal_lpdf: Random variable is 0, but must be positive!";
        lognormal_lpdf(&[1.0, -2.5], 0.0, 1.0) => "lognormal_lpdf: Random variable[2] is -2.5, but must be positive!";
        lognormal_lpdf(NAN, 0.0, 1.0) => "lognormal_lpdf: Random variable is nan, but must be positive!";
        lognormal_lpdf(1.0, NAN, 1.0) => "lognormal_lpdf: Location parameter is nan, but must be finite!";
        lognormal_lpdf(1.0, 0.0, INF) => "lognormal_lpdf: Scale parameter is inf, but must be positive finite!";
        lognormal_lpdf(1.0, 0.0, -0.5) => "lognormal_lpdf: Scale parameter is -0.5, but must be positive finite!";
        lognormal_lpdf(&[1.0], &[0.0, 1.0], 1.0) => "lognormal_lpdf: Random variable has size = 1, but Location parameter has size 2; and they must be the same size.";
    }
}

#[test]
fn location_scale() {
    assert_errors! {
        cauchy_lpdf(NAN, 0.0, 1.0) => "cauchy_lpdf: Random variable is nan, but must be not nan!";
        cauchy_lpdf(1.0, -INF, 1.0) => "cauchy_lpdf: Location parameter is -inf, but must be finite!";
        cauchy_lpdf(1.0, 0.0, 0.0) => "cauchy_lpdf: Scale parameter is 0, but must be positive finite!";
        cauchy_lpdf(1.0, 0.0, INF) => "cauchy_lpdf: Scale parameter is inf, but must be positive finite!";
        student_t_lpdf(NAN, 1.0, 0.0, 1.0) => "student_t_lpdf: Random variable is nan, but must be not nan!";
        student_t_lpdf(1.0, 0.0, 0.0, 1.0) => "student_t_lpdf: Degrees of freedom parameter is 0, but must be positive finite!";
        student_t_lpdf(1.0, INF, 0.0, 1.0) => "student_t_lpdf: Degrees of freedom parameter is inf, but must be positive finite!";
        student_t_lpdf(1.0, 3.0, NAN, 1.0) => "student_t_lpdf: Location parameter is nan, but must be finite!";
        student_t_lpdf(1.0, 3.0, 0.0, -2.0) => "student_t_lpdf: Scale parameter is -2, but must be positive finite!";
        student_t_lpdf(&[1.0, 2.0], &[3.0, 3.0, 3.0], 0.0, 1.0) => "student_t_lpdf: Random variable has size = 2, but Degrees of freedom parameter has size 3; and they must be the same size.";
        student_t_lpdf(1.0, 3.0, &[0.0], &[1.0, 1.0]) => "student_t_lpdf: Location parameter has size = 1, but Scale parameter has size 2; and they must be the same size.";
        logistic_lpdf(INF, 0.0, 1.0) => "logistic_lpdf: Random variable is inf, but must be finite!";
        logistic_lpdf(1.0, NAN, 1.0) => "logistic_lpdf: Location parameter is nan, but must be finite!";
        logistic_lpdf(1.0, 0.0, 0.0) => "logistic_lpdf: Scale parameter is 0, but must be positive finite!";
        double_exponential_lpdf(-INF, 0.0, 1.0) => "double_exponential_lpdf: Random variable is -inf, but must be finite!";
        double_exponential_lpdf(1.0, INF, 1.0) => "double_exponential_lpdf: Location parameter is inf, but must be finite!";
        double_exponential_lpdf(1.0, 0.0, -0.25) => "double_exponential_lpdf: Scale parameter is -0.25, but must be positive finite!";
    }
}

#[test]
fn positive_families() {
    assert_errors! {
        exponential_lpdf(-1.0, 1.0) => "exponential_lpdf: Random variable is -1, but must be nonnegative!";
        exponential_lpdf(&[1.0, 2.0, NAN], 1.0) => "exponential_lpdf: Random variable[3] is nan, but must be nonnegative!";
        exponential_lpdf(1.0, 0.0) => "exponential_lpdf: Inverse scale parameter is 0, but must be positive finite!";
        exponential_lpdf(&[1.0, 2.0], &[1.0, 2.0, 3.0]) => "exponential_lpdf: Random variable has size = 2, but Inverse scale parameter has size 3; and they must be the same size.";
        gamma_lpdf(0.0, 1.0, 1.0) => "gamma_lpdf: Random variable is 0, but must be positive finite!";
        gamma_lpdf(INF, 1.0, 1.0) => "gamma_lpdf: Random variable is inf, but must be positive finite!";
        gamma_lpdf(1.0, -1.0, 1.0) => "gamma_lpdf: Shape parameter is -1, but must be positive finite!";
        gamma_lpdf(1.0, 1.0, NAN) => "gamma_lpdf: Inverse scale parameter is nan, but must be positive finite!";
        gamma_lpdf(1.0, &[1.0, 2.0], &[1.0]) => "gamma_lpdf: Shape parameter has size = 2, but Inverse scale parameter has size 1; and they must be the same size.";
        inv_gamma_lpdf(-1.0, 1.0, 1.0) => "inv_gamma_lpdf: Random variable is -1, but must be positive finite!";
        inv_gamma_lpdf(1.0, 0.0, 1.0) => "inv_gamma_lpdf: Shape parameter is 0, but must be positive finite!";
        inv_gamma_lpdf(1.0, 1.0, INF) => "inv_gamma_lpdf: Scale parameter is inf, but must be positive finite!";
        weibull_lpdf(INF, 1.0, 1.0) => "weibull_lpdf: Random variable is inf, but must be finite!";
        weibull_lpdf(&[0.0, -1.0], 1.0, 1.0) => "weibull_lpdf: Random variable[2] is -1, but must be nonnegative!";
        weibull_lpdf(1.0, 0.0, 1.0) => "weibull_lpdf: Shape parameter is 0, but must be positive finite!";
        weibull_lpdf(1.0, 1.0, -3.0) => "weibull_lpdf: Scale parameter is -3, but must be positive finite!";
        chi_square_lpdf(-0.5, 1.0) => "chi_square_lpdf: Random variable is -0.5, but must be nonnegative!";
        chi_square_lpdf(1.0, 0.0) => "chi_square_lpdf: Degrees of freedom parameter is 0, but must be positive finite!";
        chi_square_lpdf(&[1.0], &[1.0, 2.0]) => "chi_square_lpdf: Random variable has size = 1, but Degrees of freedom parameter has size 2; and they must be the same size.";
    }
}

#[test]
fn interval_families() {
    assert_errors! {
        beta_lpdf(1.5, 1.0, 1.0) => "beta_lpdf: Random variable is 1.5, but must be in the interval [0, 1]";
        beta_lpdf(&[0.5, -0.1], 1.0, 1.0) => "beta_lpdf: Random variable[2] is -0.1, but must be in the interval [0, 1]";
        beta_lpdf(NAN, 1.0, 1.0) => "beta_lpdf: Random variable is nan, but must be in the interval [0, 1]";
        beta_lpdf(0.5, 0.0, 1.0) => "beta_lpdf: First shape parameter is 0, but must be positive finite!";
        beta_lpdf(0.5, 1.0, INF) => "beta_lpdf: Second shape parameter is inf, but must be positive finite!";
        beta_lpdf(&[0.5, 0.5], &[1.0, 1.0, 1.0], 1.0) => "beta_lpdf: Random variable has size = 2, but First shape parameter has size 3; and they must be the same size.";
        uniform_lpdf(NAN, 0.0, 1.0) => "uniform_lpdf: Random variable is nan, but must be not nan!";
        uniform_lpdf(0.5, -INF, 1.0) => "uniform_lpdf: Lower bound parameter is -inf, but must be finite!";
        uniform_lpdf(0.5, 0.0, INF) => "uniform_lpdf: Upper bound parameter is inf, but must be finite!";
        uniform_lpdf(0.5, 1.0, 0.0) => "uniform_lpdf: Upper bound parameter is 0, but must be greater than 1.000000";
        uniform_lpdf(0.5, 1.0, 1.0) => "uniform_lpdf: Upper bound parameter is 1, but must be greater than 1.000000";
        uniform_lpdf(0.5, &[0.0, 2.5], 2.0) => "uniform_lpdf: Upper bound parameter is 2, but must be greater than 2.500000";
        uniform_lpdf(0.5, 0.0, &[1.0, -0.5]) => "uniform_lpdf: Upper bound parameter[2] is -0.5, but must be greater than 0.000000";
    }
}

#[test]
fn out_of_support_data_with_parameter_dependent_support_is_minus_infinity() {
    // The uniform's support moves with its parameters: as in Stan, -inf and no error.
    assert_eq!(uniform_lpdf(1.5, 0.0, 1.0).unwrap(), f64::NEG_INFINITY);
    assert_eq!(
        uniform_lpdf(&[0.5, -0.5], 0.0, 1.0).unwrap(),
        f64::NEG_INFINITY
    );
    // Impossible counts given the rate: -inf, as in Stan.
    assert_eq!(poisson_lpmf(3, 0.0).unwrap(), f64::NEG_INFINITY);
    assert_eq!(poisson_lpmf(3, INF).unwrap(), f64::NEG_INFINITY);
    assert_eq!(poisson_log_lpmf(3, -INF).unwrap(), f64::NEG_INFINITY);
    assert_eq!(poisson_log_lpmf(0, INF).unwrap(), f64::NEG_INFINITY);
    assert_eq!(poisson_log_lpmf(0, -INF).unwrap(), 0.0);
    assert_eq!(poisson_lpmf(0, 0.0).unwrap(), 0.0);
}

#[test]
fn count_families() {
    let neg: [i64; 3] = [1, 2, -3];
    assert_errors! {
        poisson_lpmf(-1, 1.0) => "poisson_lpmf: Random variable is -1, but must be nonnegative!";
        poisson_lpmf(&neg, 1.0) => "poisson_lpmf: Random variable[3] is -3, but must be nonnegative!";
        poisson_lpmf(1, -0.5) => "poisson_lpmf: Rate parameter is -0.5, but must be nonnegative!";
        poisson_lpmf(1, NAN) => "poisson_lpmf: Rate parameter is nan, but must be nonnegative!";
        poisson_lpmf(&[1, 2], &[1.0, 2.0, 3.0]) => "poisson_lpmf: Random variable has size = 2, but Rate parameter has size 3; and they must be the same size.";
        poisson_log_lpmf(-2, 1.0) => "poisson_log_lpmf: Random variable is -2, but must be nonnegative!";
        poisson_log_lpmf(1, NAN) => "poisson_log_lpmf: Log rate parameter is nan, but must be not nan!";
        neg_binomial_2_lpmf(-2, 1.0, 1.0) => "neg_binomial_2_lpmf: Failures variable is -2, but must be nonnegative!";
        neg_binomial_2_lpmf(2, 0.0, 1.0) => "neg_binomial_2_lpmf: Location parameter is 0, but must be positive finite!";
        neg_binomial_2_lpmf(2, 1.0, INF) => "neg_binomial_2_lpmf: Precision parameter is inf, but must be positive finite!";
        neg_binomial_2_lpmf(&[1, 2], &[1.0], 1.0) => "neg_binomial_2_lpmf: Failures variable has size = 2, but Location parameter has size 1; and they must be the same size.";
    }
}

#[test]
fn success_families() {
    assert_errors! {
        binomial_lpmf(11, 10, 0.5) => "binomial_lpmf: Successes variable is 11, but must be in the interval [0, 10]";
        binomial_lpmf(&[3, -1], 10, 0.5) => "binomial_lpmf: Successes variable[2] is -1, but must be in the interval [0, 10]";
        binomial_lpmf(&[3, 5], &[4, 4], 0.5) => "binomial_lpmf: Successes variable[2] is 5, but must be in the interval [0, 4]";
        // N is checked before n against [0, N] (Stan does it the other way round, and
        // then blames n for a negative N).
        binomial_lpmf(0, -1, 0.5) => "binomial_lpmf: Population size parameter is -1, but must be nonnegative!";
        binomial_lpmf(2_000_000, 1_000_000, 0.5) => "binomial_lpmf: Successes variable is 2000000, but must be in the interval [0, 1000000]";
        binomial_lpmf(1, 3, 1.5) => "binomial_lpmf: Probability parameter is 1.5, but must be in the interval [0, 1]";
        binomial_lpmf(1, 3, NAN) => "binomial_lpmf: Probability parameter is nan, but must be in the interval [0, 1]";
        binomial_lpmf(&[1, 2], &[3, 3, 3], 0.5) => "binomial_lpmf: Successes variable has size = 2, but Population size parameter has size 3; and they must be the same size.";
        bernoulli_lpmf(2, 0.5) => "bernoulli_lpmf: n is 2, but must be in the interval [0, 1]";
        bernoulli_lpmf(&[0, 1, -1], 0.5) => "bernoulli_lpmf: n[3] is -1, but must be in the interval [0, 1]";
        bernoulli_lpmf(1, -0.1) => "bernoulli_lpmf: Probability parameter is -0.1, but must be in the interval [0, 1]";
        bernoulli_lpmf(&[1, 0], &[0.5]) => "bernoulli_lpmf: Random variable has size = 2, but Probability parameter has size 1; and they must be the same size.";
        bernoulli_logit_lpmf(&[0, 2], 0.5) => "bernoulli_logit_lpmf: n[2] is 2, but must be in the interval [0, 1]";
        bernoulli_logit_lpmf(1, NAN) => "bernoulli_logit_lpmf: Logit transformed probability parameter is nan, but must be not nan!";
        bernoulli_logit_lpmf(&[1, 0], &[0.5, 0.1, 0.2]) => "bernoulli_logit_lpmf: Random variable has size = 2, but Probability parameter has size 3; and they must be the same size.";
    }
}

#[test]
fn integer_kinds() {
    // i32 data (literals default to it) and i64 data give the same results and errors.
    let a: [i32; 3] = [0, 3, 7];
    let b: Vec<i64> = vec![0, 3, 7];
    assert_eq!(
        poisson_lpmf(&a, 2.5).unwrap(),
        poisson_lpmf(&b, 2.5).unwrap()
    );
    assert_eq!(poisson_lpmf(-1_i32, 2.5), poisson_lpmf(-1_i64, 2.5));
}

#[test]
fn numbers_are_printed_as_cpp_streams_print_them() {
    assert_errors! {
        normal_lpdf(1.0, 0.0, -1.23456789) => "normal_lpdf: Scale parameter is -1.23457, but must be positive!";
        normal_lpdf(1.0, 0.0, -1e-10) => "normal_lpdf: Scale parameter is -1e-10, but must be positive!";
        normal_lpdf(1.0, 0.0, -123456789.0) => "normal_lpdf: Scale parameter is -1.23457e+08, but must be positive!";
        normal_lpdf(1.0, 0.0, -0.0001) => "normal_lpdf: Scale parameter is -0.0001, but must be positive!";
        normal_lpdf(1.0, 0.0, -100000.0) => "normal_lpdf: Scale parameter is -100000, but must be positive!";
    }
}

#[test]
fn accessors() {
    let e = normal_lpdf(&[1.0, 2.0], 0.0, &[1.0, -2.5]).unwrap_err();
    assert_eq!(e.function(), "normal_lpdf");
    assert_eq!(e.argument(), "Scale parameter");
    assert_eq!(e.index(), Some(1));
    assert_eq!(e.value(), -2.5);
    assert_eq!(e.constraint(), Constraint::Positive);

    let e = normal_lpdf(1.0, 0.0, -1.0).unwrap_err();
    assert_eq!(e.index(), None);

    let e = beta_lpdf(1.5, 1.0, 1.0).unwrap_err();
    assert_eq!(
        e.constraint(),
        Constraint::Bounded {
            low: 0.0,
            high: 1.0
        }
    );

    let e = normal_lpdf(&[1.0, 2.0, 3.0], &[0.0, 0.0], 1.0).unwrap_err();
    assert_eq!((e.argument(), e.value()), ("Random variable", 3.0));
    assert_eq!(
        e.constraint(),
        Constraint::ConsistentSize {
            other: "Location parameter",
            other_size: 2
        }
    );
}

#[test]
fn is_a_std_error_usable_with_question_mark() {
    fn model(sigma: f64) -> Result<f64, Box<dyn std::error::Error>> {
        Ok(normal_lpdf(&[1.0, 2.0], 0.0, sigma)? + exponential_lpdf(sigma, 1.0)?)
    }
    assert!(model(1.0).is_ok());
    let e = model(-1.0).unwrap_err();
    assert_eq!(
        e.to_string(),
        "normal_lpdf: Scale parameter is -1, but must be positive!"
    );
    assert!(e.downcast_ref::<DomainError>().is_some());
    let e: &dyn std::error::Error = &normal_lpdf(1.0, 0.0, 0.0).unwrap_err();
    assert!(e.source().is_none());
}
