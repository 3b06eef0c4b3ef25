//! Every unary elementary function of `Real` on `Var`: value identical to the `f64`
//! method, derivative against a closed form written here (independently of the library's
//! table) and against finite differences, at several points and at the edges.

// Reference values are written with every digit mpmath printed, as their record.
#![allow(clippy::excessive_precision)]

mod runtime_support;

use fazang::prelude::*;
use runtime_support::{assert_close, fd, tape_d1};
use std::f64::consts::{FRAC_2_SQRT_PI, LN_10, LN_2, PI};

/// One unary function: the `Var` version, the `f64` version, its derivative in closed
/// form, and smooth points at which to check it.
struct Case {
    name: &'static str,
    var: fn(Var) -> Var,
    f: fn(f64) -> f64,
    d: fn(f64) -> f64,
    points: &'static [f64],
}

#[rustfmt::skip]
fn cases() -> Vec<Case> {
    vec![
        Case { name: "sin", var: |x| x.sin(), f: f64::sin, d: f64::cos, points: &[-2.0, 0.0, 0.7, 3.0] },
        Case { name: "cos", var: |x| x.cos(), f: f64::cos, d: |x| -x.sin(), points: &[-2.0, 0.0, 0.7, 3.0] },
        Case { name: "tan", var: |x| x.tan(), f: f64::tan, d: |x| 1.0 / (x.cos() * x.cos()), points: &[-1.2, 0.0, 0.7, 1.5] },
        Case { name: "asin", var: |x| x.asin(), f: f64::asin, d: |x| 1.0 / (1.0 - x * x).sqrt(), points: &[-0.9, 0.0, 0.3, 0.99] },
        Case { name: "acos", var: |x| x.acos(), f: f64::acos, d: |x| -1.0 / (1.0 - x * x).sqrt(), points: &[-0.9, 0.0, 0.3, 0.99] },
        Case { name: "atan", var: |x| x.atan(), f: f64::atan, d: |x| 1.0 / (1.0 + x * x), points: &[-30.0, -1.0, 0.0, 2.5] },
        Case { name: "sinh", var: |x| x.sinh(), f: f64::sinh, d: f64::cosh, points: &[-3.0, 0.0, 0.5, 4.0] },
        Case { name: "cosh", var: |x| x.cosh(), f: f64::cosh, d: f64::sinh, points: &[-3.0, 0.0, 0.5, 4.0] },
        Case { name: "tanh", var: |x| x.tanh(), f: f64::tanh, d: |x| 1.0 / (x.cosh() * x.cosh()), points: &[-3.0, 0.0, 0.5, 4.0] },
        Case { name: "asinh", var: |x| x.asinh(), f: f64::asinh, d: |x| 1.0 / (x * x + 1.0).sqrt(), points: &[-5.0, 0.0, 0.5, 40.0] },
        Case { name: "acosh", var: |x| x.acosh(), f: f64::acosh, d: |x| 1.0 / (x * x - 1.0).sqrt(), points: &[1.1, 2.0, 10.0] },
        Case { name: "atanh", var: |x| x.atanh(), f: f64::atanh, d: |x| 1.0 / (1.0 - x * x), points: &[-0.9, 0.0, 0.5] },
        Case { name: "exp", var: |x| x.exp(), f: f64::exp, d: f64::exp, points: &[-5.0, 0.0, 1.0, 20.0] },
        Case { name: "exp2", var: |x| x.exp2(), f: f64::exp2, d: |x| LN_2 * 2f64.powf(x), points: &[-5.0, 0.0, 1.5, 20.0] },
        Case { name: "exp_m1", var: |x| x.exp_m1(), f: f64::exp_m1, d: f64::exp, points: &[-5.0, 0.0, 1e-9, 2.0] },
        Case { name: "ln", var: |x| x.ln(), f: f64::ln, d: |x| 1.0 / x, points: &[0.01, 1.0, 2.5, 1e6] },
        Case { name: "log10", var: |x| x.log10(), f: f64::log10, d: |x| 1.0 / (x * LN_10), points: &[0.01, 1.0, 2.5, 1e6] },
        Case { name: "log2", var: |x| x.log2(), f: f64::log2, d: |x| 1.0 / (x * LN_2), points: &[0.01, 1.0, 2.5, 1e6] },
        Case { name: "ln_1p", var: |x| x.ln_1p(), f: f64::ln_1p, d: |x| 1.0 / (1.0 + x), points: &[-0.5, 0.0, 1e-10, 3.0] },
        Case { name: "sqrt", var: |x| x.sqrt(), f: f64::sqrt, d: |x| 0.5 * x.powf(-0.5), points: &[0.01, 1.0, 4.0, 1e6] },
        Case { name: "cbrt", var: |x| x.cbrt(), f: f64::cbrt, d: |x| (x * x).powf(-1.0 / 3.0) / 3.0, points: &[-8.0, -0.5, 1.0, 27.0] },
        Case { name: "abs", var: |x| x.abs(), f: f64::abs, d: |x| if x > 0.0 { 1.0 } else { -1.0 }, points: &[-3.0, -1e-300, 1e-300, 2.0] },
        Case { name: "recip", var: |x| x.recip(), f: f64::recip, d: |x| -1.0 / (x * x), points: &[-3.0, 0.5, 2.0] },
        Case { name: "fract", var: |x| x.fract(), f: f64::fract, d: |_| 1.0, points: &[-2.5, 0.25, 7.75] },
        Case { name: "signum", var: |x| x.signum(), f: f64::signum, d: |_| 0.0, points: &[-2.0, 3.0] },
        Case { name: "floor", var: |x| x.floor(), f: f64::floor, d: |_| 0.0, points: &[-2.5, 3.7] },
        Case { name: "ceil", var: |x| x.ceil(), f: f64::ceil, d: |_| 0.0, points: &[-2.5, 3.7] },
        Case { name: "round", var: |x| x.round(), f: f64::round, d: |_| 0.0, points: &[-2.3, 3.7] },
        Case { name: "trunc", var: |x| x.trunc(), f: f64::trunc, d: |_| 0.0, points: &[-2.5, 3.7] },
        Case { name: "erf", var: |x| x.erf(), f: erf, d: |x| FRAC_2_SQRT_PI * (-x * x).exp(), points: &[-2.0, 0.0, 0.3, 2.5] },
        Case { name: "erfc", var: |x| x.erfc(), f: erfc, d: |x| -FRAC_2_SQRT_PI * (-x * x).exp(), points: &[-2.0, 0.0, 0.3, 2.5] },
        Case { name: "square", var: |x| x.square(), f: square, d: |x| 2.0 * x, points: &[-3.0, 0.0, 1.5] },
        Case { name: "inv", var: |x| x.inv(), f: inv, d: |x| -1.0 / (x * x), points: &[-3.0, 0.5, 2.0] },
        Case { name: "inv_square", var: |x| x.inv_square(), f: inv_square, d: |x| -2.0 / (x * x * x), points: &[-3.0, 0.5, 2.0] },
        Case { name: "inv_sqrt", var: |x| x.inv_sqrt(), f: inv_sqrt, d: |x| -0.5 * x.powf(-1.5), points: &[0.25, 1.0, 9.0] },
        Case { name: "logit", var: |x| x.logit(), f: logit, d: |x| 1.0 / x + 1.0 / (1.0 - x), points: &[0.01, 0.5, 0.9] },
        Case { name: "inv_logit", var: |x| x.inv_logit(), f: inv_logit, d: |x| (-x).exp() / (1.0 + (-x).exp()).powi(2), points: &[-5.0, 0.0, 0.8, 5.0] },
    ]
}

#[test]
fn value_matches_f64_and_derivative_matches_closed_form() {
    for c in cases() {
        for &x in c.points {
            let (v, d) = tape_d1(c.var, x);
            assert_eq!(v.to_bits(), (c.f)(x).to_bits(), "{}({x}) value", c.name);
            assert_close(
                d,
                (c.d)(x),
                1e-13,
                &format!("{}'({x}) vs closed form", c.name),
            );
        }
    }
}

#[test]
fn derivative_matches_finite_differences() {
    for c in cases() {
        for &x in c.points {
            // Skip points near a singularity or jump, where the O(h⁴) error of the
            // difference (not the tape) would dominate; the closed-form test covers them.
            let near = |b: f64| (x - b).abs() < 0.15;
            let skip = match c.name {
                "asin" | "acos" | "atanh" => near(-1.0) || near(1.0),
                "acosh" => near(1.0),
                "ln" | "log10" | "log2" | "sqrt" | "inv_sqrt" | "cbrt" | "abs" | "recip"
                | "inv" | "inv_square" => near(0.0),
                "logit" => near(0.0) || near(1.0),
                "ln_1p" => near(-1.0),
                "tan" => near(PI / 2.0) || near(-PI / 2.0),
                _ => false,
            };
            if skip {
                continue;
            }
            let (_, d) = tape_d1(c.var, x);
            assert_close(
                d,
                fd(c.f, x),
                1e-7,
                &format!("{}'({x}) vs finite differences", c.name),
            );
        }
    }
}

#[test]
fn real_methods_on_f64_are_the_std_methods() {
    for c in cases() {
        for &x in c.points {
            let via_var = Var::constant(x);
            assert_eq!(
                (c.var)(via_var).val().to_bits(),
                (c.f)(x).to_bits(),
                "{}",
                c.name
            );
        }
    }
    let x = 0.7_f64;
    assert_eq!(<f64 as Real>::sin(x), x.sin());
    assert_eq!(<f64 as Real>::powf(x, 2.5), x.powf(2.5));
    assert_eq!(<f64 as Real>::hypot(x, 3.0), x.hypot(3.0));
}

#[test]
fn abs_at_zero_has_derivative_zero() {
    for x in [0.0, -0.0] {
        let (v, d) = tape_d1(|x| x.abs(), x);
        assert_eq!((v, d), (0.0, 0.0), "abs at {x:?}");
    }
}

#[test]
fn erf_far_in_the_tails_has_derivative_zero_not_nan() {
    // erf(-100) = -1 and erfc(-100) = 2 to every digit (mpmath, 30 digits).
    let (v, d) = tape_d1(|x| x.erf(), -100.0);
    assert_eq!((v, d), (-1.0, 0.0));
    let (v, d) = tape_d1(|x| x.erfc(), -100.0);
    assert_eq!((v, d), (2.0, 0.0));
    let (v, d) = tape_d1(|x| x.erf(), 100.0);
    assert_eq!((v, d), (1.0, 0.0));
}

#[test]
fn erf_and_erfc_match_reference_values() {
    // Reference values from mpmath 1.3 at 30 significant digits (mp.dps = 30).
    let table = [
        (-2.0, -0.99532226501895273416, 1.9953222650189527342),
        (-0.5, -0.52049987781304653768, 1.5204998778130465377),
        (0.3, 0.32862675945912742764, 0.67137324054087257236),
        (1.0, 0.84270079294971486934, 0.15729920705028513066),
        (2.5, 0.99959304798255504106, 0.00040695201744495893956),
        (6.0, 0.99999999999999997848, 2.1519736712498913117e-17),
    ];
    for (x, e, ec) in table {
        assert_close(erf(x), e, 1e-15, &format!("erf({x})"));
        let rel = (erfc(x) - ec).abs() / ec;
        assert!(rel < 1e-14, "erfc({x}) = {:e}, want {ec:e}", erfc(x));
    }
}

#[test]
fn acosh_just_above_one() {
    let x = 1.0 + 1e-10;
    let (v, d) = tape_d1(|x| x.acosh(), x);
    // With e = x - 1 (exact by Sterbenz), acosh'(x) = 1/√(e(2+e)) = (2e)^(-1/2)(1 - e/4 + ..).
    let e = x - 1.0;
    let want = (2.0 * e).powf(-0.5) * (1.0 - e / 4.0);
    assert_close(d, want, 1e-12 * want, "acosh' near 1");
    assert!(d.is_finite() && d > 7e4);
    // acosh(1 + e) = √(2e)(1 - e/12 + ..).
    assert_close(v, (2.0 * e).sqrt(), 1e-15, "acosh near 1");
}

#[test]
fn sqrt_at_zero_and_positive_points() {
    let (v, d) = tape_d1(|x| x.sqrt(), 4.0);
    assert_eq!((v, d), (2.0, 0.25));
    let (v, d) = tape_d1(|x| x.sqrt(), 0.0);
    assert_eq!(v, 0.0);
    assert_eq!(
        d,
        f64::INFINITY,
        "the one-sided derivative of √x at 0 is +∞"
    );
}

#[test]
fn log_gamma_derivative_is_digamma() {
    // ln|Γ(x)| and ψ(x) from mpmath 1.3 (mp.dps = 30): log(fabs(gamma(x))), digamma(x).
    let table = [
        (0.5, 0.57236494292470008707, -1.9635100260214235),
        (1.0, 0.0, -0.5772156649015329),
        (10.0, 12.801827480081469611, 2.251752589066721),
        (3.7, 1.4280723266653879219, 1.1671535393615113859),
        (1e-8, 18.420680738180208905, -100000000.57721564845),
        (-0.5, 1.2655121234846453965, 0.036489973978576520559),
        (-1.5, 0.86004701537648101451, 0.70315664064524318723),
        (-2.5, -0.056243716497674050673, 1.1031566406452431872),
        (-3.3, -0.82435580501742710325, 3.6203534605921231536),
    ];
    for (x, lg, psi) in table {
        let (v, d) = tape_d1(|x| x.log_gamma(), x);
        assert_close(v, lg, 1e-14, &format!("log_gamma({x})"));
        assert_close(d, psi, 2e-15, &format!("digamma({x})"));
        assert_eq!(log_gamma(x), v, "f64 and Var values agree at {x}");
    }
    // Closed forms: ψ(1/2) = -γ - 2 ln 2, ψ(-1/2) = ψ(3/2) = 2 - γ - 2 ln 2.
    let gamma = 0.5772156649015329;
    assert_close(
        tape_d1(|x| x.log_gamma(), 0.5).1,
        -gamma - 2.0 * LN_2,
        1e-15,
        "ψ(1/2)",
    );
    assert_close(
        tape_d1(|x| x.log_gamma(), -0.5).1,
        2.0 - gamma - 2.0 * LN_2,
        1e-14,
        "ψ(-1/2)",
    );
}

#[test]
fn log_gamma_at_poles_is_not_a_silent_number() {
    // Γ has poles at 0, -1, -2: ln|Γ| is +∞ there and the derivative is undefined.
    let (v, d) = tape_d1(|x| x.log_gamma(), -2.0);
    assert_eq!(v, f64::INFINITY);
    assert!(d.is_nan());
}

#[test]
fn logistic_functions_stay_finite_in_the_tails() {
    for x in [-800.0, 800.0] {
        let (v, d) = tape_d1(|x| x.inv_logit(), x);
        assert_eq!(v, if x < 0.0 { 0.0 } else { 1.0 });
        assert_eq!(d, 0.0, "inv_logit'({x})");
    }
    let (v, d) = tape_d1(|x| x.logit(), 0.5);
    assert_eq!((v, d), (0.0, 4.0));
    // tanh'(30) = 1/cosh²(30), tiny but not 0 (mpmath: 3.502604305078608e-26).
    let (v, d) = tape_d1(|x| x.tanh(), 30.0);
    assert_eq!(v, 1.0);
    assert_close(d, 3.502604305078608e-26, 1e-15 * 3.5e-26, "tanh'(30)");
}

#[test]
fn piecewise_constant_functions_record_nothing() {
    let x = Var::new(2.5);
    let before = tape_stats();
    let ys = [x.floor(), x.ceil(), x.round(), x.trunc(), x.signum()];
    assert_eq!(tape_stats(), before);
    assert_eq!(ys.map(|y| y.val()), [2.0, 3.0, 3.0, 2.0, 1.0]);
    assert!(ys.iter().all(Var::is_constant));
}

#[test]
fn sin_cos_gives_both_derivatives() {
    let x = 0.9;
    let (vs, ds) = tape_d1(|x| x.sin_cos().0, x);
    let (vc, dc) = tape_d1(|x| x.sin_cos().1, x);
    assert_eq!((vs, vc), x.sin_cos());
    assert_close(ds, x.cos(), 1e-15, "d sin");
    assert_close(dc, -x.sin(), 1e-15, "d cos");
    // Both halves in one sweep: d/dx (sin x + 2 cos x) = cos x - 2 sin x.
    let (_, d) = tape_d1(
        |x| {
            let (s, c) = x.sin_cos();
            s + 2.0 * c
        },
        x,
    );
    assert_close(d, x.cos() - 2.0 * x.sin(), 1e-15, "d (sin + 2 cos)");
}

#[test]
fn clamp_passes_the_derivative_inside_only() {
    let f = |x: Var| x.clamp(-1.0, 2.0) * 3.0;
    assert_eq!(tape_d1(f, 0.5), (1.5, 3.0));
    assert_eq!(tape_d1(f, -4.0), (-3.0, 0.0));
    assert_eq!(tape_d1(f, 7.0), (6.0, 0.0));
    // The value is f64::clamp's.
    assert_eq!(
        Var::new(7.0).clamp(-1.0, 2.0).val(),
        7.0_f64.clamp(-1.0, 2.0)
    );
}

#[test]
fn functions_at_negative_non_integer_arguments() {
    // cbrt(-8) = -2, cbrt'(-8) = 1/(3·4); abs'(-2.5) = -1; fract(-2.25) = -0.25.
    assert_eq!(tape_d1(|x| x.cbrt(), -8.0), (-2.0, 1.0 / 12.0));
    assert_eq!(tape_d1(|x| x.abs(), -2.5), (2.5, -1.0));
    assert_eq!(tape_d1(|x| x.fract(), -2.25), (-0.25, 1.0));
    // powi of a negative base: d/dx x³ = 3x² at -1.5.
    assert_eq!(tape_d1(|x| x.powi(3), -1.5), (-3.375, 6.75));
    // ln of a negative number: NaN value, as f64.
    assert!(tape_d1(|x| x.ln(), -PI).0.is_nan());
}
