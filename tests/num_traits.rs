//! `Var` as a `num_traits` number: generic `T: Float` code runs on the tape with correct
//! gradients (against closed forms and finite differences), every `Float` method agrees
//! with `f64`'s in value, and method calls stay unambiguous with both `Real` (the prelude)
//! and `Float` in scope.

mod runtime_support;

use fazang::prelude::*;
use num_traits::{Float, FloatConst, FromPrimitive, NumCast, Signed};
use runtime_support::{assert_close, fd, fd_grad, tape_d1, tape_d2};

/// A helper written the usual generic way, as in crates that know nothing of fazang.
fn h<T: Float>(x: T) -> T {
    let two = T::from(2.0).unwrap();
    (x * x + T::one()).ln() * x.sin() + x.powf(two.recip()) - x.max(two) / (T::one() + x.exp())
}

#[test]
fn a_generic_float_function_runs_on_var_with_correct_gradients() {
    for x in [0.3, 1.7, 2.5, 4.0] {
        let (v, d) = tape_d1(h, x);
        assert_eq!(v, h(x), "value at {x}");
        // Closed form, term by term.
        let t1 = 2.0 * x / (x * x + 1.0) * x.sin() + (x * x + 1.0).ln() * x.cos();
        let t2 = 0.5 / x.sqrt();
        let (m, dm) = if x >= 2.0 { (x, 1.0) } else { (2.0, 0.0) };
        let e = x.exp();
        let t3 = (dm * (1.0 + e) - m * e) / ((1.0 + e) * (1.0 + e));
        assert_close(d, t1 + t2 - t3, 1e-14, "closed form");
        assert_close(d, fd(h, x), 1e-9, "finite differences");
    }
}

/// A log density written against `Float + FloatConst`, as a statistics crate would.
fn normal_lpdf_generic<T: Float + FloatConst>(y: &[T], mu: T, sigma: T) -> T {
    let half = T::from(0.5).unwrap();
    let n = T::from(y.len()).unwrap();
    let ss = y
        .iter()
        .fold(T::zero(), |acc, &yi| acc + ((yi - mu) / sigma).powi(2));
    -n * (sigma.ln() + half * (T::TAU()).ln()) - half * ss
}

#[test]
fn generic_float_code_matches_the_hand_written_gradient() {
    let y = [0.3, 1.9, 2.4, -0.5];
    let (mu, sigma) = (0.8, 1.3);
    let (v, g) = gradient(
        |p| {
            let yv: Vec<Var> = y.iter().map(|&v| Var::constant(v)).collect();
            normal_lpdf_generic(&yv, p[0], p[1])
        },
        &[mu, sigma],
    );
    assert_close(v, normal_lpdf_generic(&y, mu, sigma), 1e-15, "value");
    let dmu: f64 = y.iter().map(|yi| (yi - mu) / (sigma * sigma)).sum();
    let dsigma: f64 =
        -4.0 / sigma + y.iter().map(|yi| (yi - mu).powi(2)).sum::<f64>() / sigma.powi(3);
    assert_close(g[0], dmu, 1e-14, "d/dmu");
    assert_close(g[1], dsigma, 1e-14, "d/dsigma");
}

#[test]
fn method_calls_are_unambiguous_with_real_and_float_in_scope() {
    // `Real` comes with the prelude, `Float` and `Signed` are imported above: without
    // Var's inherent methods each call below is E0034.
    let (v, dx, dy) = tape_d2(
        |x, y| x.sin() + x.powf(y) + x.max(y) + x.abs() + y.hypot(x) + x.clamp(0.0, 2.0) + x.log(y),
        1.5,
        2.5,
    );
    let f = |x: f64, y: f64| {
        x.sin() + x.powf(y) + x.max(y) + x.abs() + y.hypot(x) + x.clamp(0.0, 2.0) + x.ln() / y.ln()
    };
    assert_close(v, f(1.5, 2.5), 1e-15, "value");
    assert_close(dx, fd(|x| f(x, 2.5), 1.5), 1e-9, "d/dx");
    assert_close(dy, fd(|y| f(1.5, y), 2.5), 1e-9, "d/dy");
}

/// Every `Float` method of `Var`: the value is `f64`'s, bit for bit, and the derivative
/// agrees with finite differences of `f64`'s method.
#[test]
#[rustfmt::skip]
fn every_float_method_agrees_with_f64() {
    type U = (&'static str, fn(Var) -> Var, fn(f64) -> f64, f64);
    let unary: &[U] = &[
        ("sin", Float::sin, Float::sin, 0.7), ("cos", Float::cos, Float::cos, 0.7),
        ("tan", Float::tan, Float::tan, 0.7), ("asin", Float::asin, Float::asin, 0.3),
        ("acos", Float::acos, Float::acos, 0.3), ("atan", Float::atan, Float::atan, 2.0),
        ("sinh", Float::sinh, Float::sinh, 0.7), ("cosh", Float::cosh, Float::cosh, 0.7),
        ("tanh", Float::tanh, Float::tanh, 0.7), ("asinh", Float::asinh, Float::asinh, 0.7),
        ("acosh", Float::acosh, Float::acosh, 1.7), ("atanh", Float::atanh, Float::atanh, 0.3),
        ("exp", Float::exp, Float::exp, 0.7), ("exp2", Float::exp2, Float::exp2, 0.7),
        ("exp_m1", Float::exp_m1, Float::exp_m1, 0.7), ("ln", Float::ln, Float::ln, 0.7),
        ("log10", Float::log10, Float::log10, 0.7), ("log2", Float::log2, Float::log2, 0.7),
        ("ln_1p", Float::ln_1p, Float::ln_1p, 0.7), ("sqrt", Float::sqrt, Float::sqrt, 0.7),
        ("cbrt", Float::cbrt, Float::cbrt, 0.7), ("abs", Float::abs, Float::abs, -0.7),
        ("recip", Float::recip, Float::recip, 0.7), ("signum", Float::signum, Float::signum, -0.7),
        ("floor", Float::floor, Float::floor, 2.7), ("ceil", Float::ceil, Float::ceil, 2.7),
        ("round", Float::round, Float::round, 2.7), ("trunc", Float::trunc, Float::trunc, 2.7),
        ("fract", Float::fract, Float::fract, 2.7), ("to_degrees", Float::to_degrees, Float::to_degrees, 0.7),
        ("to_radians", Float::to_radians, Float::to_radians, 40.0),
        ("powi", |x| x.powi(3), |x| x.powi(3), 0.7),
        ("sin_cos", |x| { let (s, c) = Float::sin_cos(x); s * c }, |x| { let (s, c) = x.sin_cos(); s * c }, 0.7),
        ("abs (Signed)", |x| Signed::abs(&x), |x| Signed::abs(&x), -0.7),
    ];
    for &(name, fv, ff, x) in unary {
        let (v, d) = tape_d1(fv, x);
        assert_eq!(v.to_bits(), ff(x).to_bits(), "{name}: value");
        assert_close(d, fd(ff, x), 1e-9, name);
    }
    type B = (&'static str, fn(Var, Var) -> Var, fn(f64, f64) -> f64, f64, f64);
    let binary: &[B] = &[
        ("atan2", Float::atan2, Float::atan2, 0.7, -1.2), ("log", Float::log, Float::log, 3.0, 2.5),
        ("powf", Float::powf, Float::powf, 1.7, 2.5), ("hypot", Float::hypot, Float::hypot, 0.7, -1.2),
        ("min", Float::min, Float::min, 0.7, -1.2), ("max", Float::max, Float::max, 0.7, -1.2),
        ("abs_sub", Float::abs_sub, |a, b| (a - b).max(0.0), 0.7, -1.2),
        ("copysign", Float::copysign, Float::copysign, 0.7, -1.2),
        ("mul_add", |a, b| Float::mul_add(a, b, a), |a, b| a.mul_add(b, a), 0.7, -1.2),
        ("rem", |a, b| a % b, |a, b| a % b, 7.3, 2.1),
        ("rem (negative)", |a, b| a % b, |a, b| a % b, -7.3, 2.1),
    ];
    for &(name, fv, ff, a, b) in binary {
        let (v, da, db) = tape_d2(fv, a, b);
        assert_eq!(v.to_bits(), ff(a, b).to_bits(), "{name}: value");
        let g = fd_grad(|p| ff(p[0], p[1]), &[a, b]);
        assert_close(da, g[0], 1e-9, &format!("{name}: d/da"));
        assert_close(db, g[1], 1e-9, &format!("{name}: d/db"));
    }
}

#[test]
fn remainder_partials_are_one_and_minus_the_quotient() {
    // a % b = a - trunc(a/b) b: d/da = 1, d/db = -trunc(a/b).
    for (a, b) in [(7.3, 2.1), (-7.3, 2.1), (7.3, -2.1), (0.5, 3.0)] {
        let (v, da, db) = tape_d2(|x, y| x % y, a, b);
        assert_eq!(v, a % b);
        assert_eq!((da, db), (1.0, -(a / b).trunc()), "{a} % {b}");
        let (_, dr) = tape_d1(|y| a % y, b);
        assert_eq!(dr, -(a / b).trunc());
        let (_, dl) = tape_d1(|x| x % b, a);
        assert_eq!(dl, 1.0);
        let (v2, d2) = tape_d1(
            |x| {
                let mut r = x;
                r %= b;
                r
            },
            a,
        );
        assert_eq!((v2, d2), (a % b, 1.0));
    }
}

#[test]
fn conversions_make_constants() {
    let before = tape_stats();
    let c: Var = NumCast::from(3_i32).unwrap();
    let d = Var::from_f32(0.5).unwrap();
    assert!(c.is_constant() && d.is_constant());
    assert_eq!((c.val(), d.val()), (3.0, 0.5));
    assert_eq!(<Var as FloatConst>::PI().val(), std::f64::consts::PI);
    assert_eq!(tape_stats(), before);
}
