//! Property tests over random expression trees of 2 to 4 variables: the tape's gradient
//! agrees with central finite differences of the same tree evaluated on `f64`, and the
//! tree evaluated on `f64` and on `Var` gives bit-identical values.

use fazang::prelude::*;
use proptest::prelude::*;
use std::ops::{Div, Sub};

/// An expression over the variables x[0..n] (indices wrap around n).
#[derive(Debug, Clone)]
enum E {
    X(usize),
    C(f64),
    Add(Box<E>, Box<E>),
    Sub(Box<E>, Box<E>),
    Mul(Box<E>, Box<E>),
    /// a / (b² + 0.5): a division whose denominator stays away from zero.
    Div(Box<E>, Box<E>),
    Hypot(Box<E>, Box<E>),
    Sin(Box<E>),
    Exp(Box<E>),
    /// ln(|a| + 1)
    LnAbs1(Box<E>),
    /// √(a² + 1)
    SqrtSq1(Box<E>),
    Tanh(Box<E>),
    Atan(Box<E>),
    Powi(Box<E>, i32),
    /// a · c (Var op f64)
    MulC(Box<E>, f64),
    /// c - a (f64 op Var)
    CSub(f64, Box<E>),
    /// c / (a² + 1) (f64 op Var)
    CDiv(f64, Box<E>),
}

fn eval<S: Real>(e: &E, x: &[S]) -> S
where
    f64: Sub<S, Output = S> + Div<S, Output = S>,
{
    let ev = |a: &E| eval(a, x);
    match e {
        E::X(i) => x[i % x.len()],
        E::C(c) => S::from(*c),
        E::Add(a, b) => ev(a) + ev(b),
        E::Sub(a, b) => ev(a) - ev(b),
        E::Mul(a, b) => ev(a) * ev(b),
        E::Div(a, b) => {
            let d = ev(b);
            ev(a) / (d * d + 0.5)
        }
        E::Hypot(a, b) => ev(a).hypot(ev(b)),
        E::Sin(a) => ev(a).sin(),
        E::Exp(a) => ev(a).exp(),
        E::LnAbs1(a) => (ev(a).abs() + 1.0).ln(),
        E::SqrtSq1(a) => {
            let v = ev(a);
            (v * v + 1.0).sqrt()
        }
        E::Tanh(a) => ev(a).tanh(),
        E::Atan(a) => ev(a).atan(),
        E::Powi(a, n) => ev(a).powi(*n),
        E::MulC(a, c) => ev(a) * *c,
        E::CSub(c, a) => *c - ev(a),
        E::CDiv(c, a) => {
            let v = ev(a);
            *c / (v * v + 1.0)
        }
    }
}

/// The smallest distance of a non-differentiable point (the argument of `abs`, the two
/// arguments of `hypot` at once) from its kink, over the whole tree at `x`.
fn kink_distance(e: &E, x: &[f64]) -> f64 {
    let k = |a: &E| kink_distance(a, x);
    match e {
        E::X(_) | E::C(_) => f64::INFINITY,
        E::LnAbs1(a) => eval(a, x).abs().min(k(a)),
        E::Hypot(a, b) => eval(a, x).hypot(eval(b, x)).min(k(a)).min(k(b)),
        E::Add(a, b) | E::Sub(a, b) | E::Mul(a, b) | E::Div(a, b) => k(a).min(k(b)),
        E::Sin(a) | E::Exp(a) | E::SqrtSq1(a) | E::Tanh(a) | E::Atan(a) => k(a),
        E::Powi(a, _) | E::MulC(a, _) | E::CSub(_, a) | E::CDiv(_, a) => k(a),
    }
}

fn expr() -> impl Strategy<Value = E> {
    let leaf = prop_oneof![(0usize..4).prop_map(E::X), (-2.0..2.0f64).prop_map(E::C)];
    leaf.prop_recursive(5, 40, 2, |inner| {
        let b = |e| Box::new(e);
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| E::Add(b(x), b(y))),
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| E::Sub(b(x), b(y))),
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| E::Mul(b(x), b(y))),
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| E::Div(b(x), b(y))),
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| E::Hypot(b(x), b(y))),
            inner.clone().prop_map(move |x| E::Sin(b(x))),
            inner.clone().prop_map(move |x| E::Exp(b(x))),
            inner.clone().prop_map(move |x| E::LnAbs1(b(x))),
            inner.clone().prop_map(move |x| E::SqrtSq1(b(x))),
            inner.clone().prop_map(move |x| E::Tanh(b(x))),
            inner.clone().prop_map(move |x| E::Atan(b(x))),
            (inner.clone(), 0i32..4).prop_map(move |(x, n)| E::Powi(b(x), n)),
            (inner.clone(), -2.0..2.0f64).prop_map(move |(x, c)| E::MulC(b(x), c)),
            (-2.0..2.0f64, inner.clone()).prop_map(move |(c, x)| E::CSub(c, b(x))),
            (-2.0..2.0f64, inner).prop_map(move |(c, x)| E::CDiv(c, b(x))),
        ]
    })
}

/// ∂f/∂x_i by a fourth-order central difference with step h.
fn fd_partial(e: &E, x: &[f64], i: usize, h: f64) -> f64 {
    let at = |t: f64| {
        let mut y = x.to_vec();
        y[i] = t;
        eval(e, &y)
    };
    let xi = x[i];
    (8.0 * (at(xi + h) - at(xi - h)) - (at(xi + 2.0 * h) - at(xi - 2.0 * h))) / (12.0 * h)
}

fn point() -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(-2.0..2.0f64, 2..=4)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn tape_gradient_matches_finite_differences(e in expr(), x in point()) {
        let v = eval(&e, &x);
        prop_assume!(v.is_finite() && v.abs() < 1e6);
        prop_assume!(kink_distance(&e, &x) > 0.05);
        let (vt, g) = gradient(|xs| eval(&e, xs), &x);
        prop_assert_eq!(vt.to_bits(), v.to_bits());
        for (i, &gi) in g.iter().enumerate() {
            // The difference is only an estimate: where two step sizes disagree the
            // function varies too fast at this scale (sin of a huge argument) and the
            // estimate says nothing; elsewhere the finer one is accurate to ~1e-9.
            let (coarse, fine) = (fd_partial(&e, &x, i, 1e-3), fd_partial(&e, &x, i, 2.5e-4));
            let scale = fine.abs().max(1.0);
            if (coarse - fine).abs() > 1e-6 * scale {
                continue;
            }
            prop_assert!(
                (gi - fine).abs() < 1e-6 * scale,
                "∂/∂x{} = {:e} on the tape, {:e} by finite differences\n{:?} at {:?}",
                i, gi, fine, e, x
            );
        }
    }

    #[test]
    fn f64_and_var_values_are_bit_identical(e in expr(), x in point()) {
        let v = eval(&e, &x);
        let vt = nested(|| {
            let xs: Vec<Var> = x.iter().map(|&t| Var::new(t)).collect();
            eval(&e, &xs).val()
        });
        prop_assert!(
            v.to_bits() == vt.to_bits() || (v.is_nan() && vt.is_nan()),
            "f64 {:e}, Var {:e}", v, vt
        );
    }
}
