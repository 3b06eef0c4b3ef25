//! Nested derivatives: no perturbation confusion, derivatives of functions that take
//! derivatives through closures, FARFEL's two-player equilibrium, and numbers that
//! escape their derivative call.

#[allow(dead_code)]
#[path = "support/close.rs"]
mod close;

use close::assert_close;
use fazang::prelude::*;
use fazang::{derivative, value_and_derivative, Fwd};

#[test]
fn no_perturbation_confusion() {
    // d/dx [x · (d/dy (x + y) at y = 1)] at x = 1: the inner derivative is 1, so 1.
    let d = derivative(|x: Fwd| x * derivative(|y| x + y, 1.0), 1.0);
    assert_eq!(d.val(), 1.0);
    // d/dx [x · (d/dy (x y) at y = 1)] = d/dx x² = 2x = 2.
    let d = derivative(|x: Fwd| x * derivative(|y| x * y, 1.0), 1.0);
    assert_eq!(d.val(), 2.0);
    // Three levels, each closure capturing the ones outside:
    // d/dx d/dy d/dz (x y² z³) at (1, 2, 3) = 2y · 3z² = 2·2·27.
    let d = derivative(
        |x: Fwd| {
            derivative(
                |y: Fwd| derivative(|z: Fwd| x * y * y * z.powi(3), 3.0),
                2.0,
            )
        },
        1.0,
    );
    assert_eq!(d.val(), 108.0);
}

#[test]
fn derivatives_of_derivatives() {
    let f = |x: Fwd| (x * x).sin();
    let d2 = derivative(|x| derivative(f, x), 0.7);
    let want = 2.0 * (0.49_f64).cos() - 4.0 * 0.49 * (0.49_f64).sin();
    assert_close(d2.val(), want, 1e-15, "d²/dx² sin x²");
    // Through a distribution and a generic function: d²/dμ² of a normal log density is
    // -n/σ².
    let y = [1.0, 2.0, 0.5];
    let d2 = derivative(
        |mu| derivative(|m: Fwd| normal_lpdf(&y, m, 0.8).unwrap(), mu),
        0.3,
    );
    assert_close(d2.val(), -3.0 / 0.64, 1e-14, "normal");
}

/// FARFEL's root: Newton's method, with the derivative by forward mode.
fn root(f: impl Fn(Fwd) -> Fwd, x0: Fwd, n: usize) -> Fwd {
    let mut x = x0;
    for _ in 0..n {
        let (y, dy) = value_and_derivative(&f, x);
        x -= y / dy;
    }
    x
}

/// FARFEL's argmax: the root of the derivative.
fn argmax(f: impl Fn(Fwd) -> Fwd, x0: Fwd, n: usize) -> Fwd {
    root(|x| derivative(&f, x), x0, n)
}

/// The equilibrium of a two-player game: a* = argmax_a A(a, argmax_b B(a*, b)).
fn equilibrium(
    pa: impl Fn(Fwd, Fwd) -> Fwd,
    pb: impl Fn(Fwd, Fwd) -> Fwd,
    a0: f64,
    b0: f64,
    n: usize,
) -> (f64, f64) {
    let a_star = root(
        |a_star| {
            argmax(
                |a| pa(a, argmax(|b| pb(a_star, b), b0.into(), n)),
                a_star,
                n,
            ) - a_star
        },
        a0.into(),
        n,
    );
    let b_star = argmax(|b| pb(a_star, b), b0.into(), n);
    (a_star.val(), b_star.val())
}

#[test]
fn farfel_equilibrium() {
    let pa = |a: Fwd, b: Fwd| a * (20.0 - 0.1 * a - 0.1 * b) - a * (10.0 - 0.05 * a);
    let pb = |a: Fwd, b: Fwd| b * (20.0 - 0.1 * b - 0.0999 * a) - b * (10.005 - 0.05 * b);
    // Analytic: B's best response b = (9.995 - 0.0999 a)/0.1; A's best response to b is
    // a = (10 - 0.1 b)/0.1 ... the fixed point is a* = b* = 50.
    let (a, b) = equilibrium(pa, pb, 0.0, 0.0, 6);
    assert_close(a, 50.0, 1e-9, "a*");
    assert_close(b, 50.0, 1e-9, "b*");
}

#[test]
fn a_number_that_escapes_its_derivative_call_panics() {
    let mut kept = None;
    let d = derivative(
        |x: Fwd| {
            kept = Some(x * 2.0);
            x * x
        },
        3.0,
    );
    assert_eq!(d.val(), 6.0);
    let escaped = kept.unwrap();
    let r = std::panic::catch_unwind(move || escaped + 1.0);
    let err = r.unwrap_err();
    let msg = err
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| err.downcast_ref::<String>().cloned())
        .unwrap();
    assert!(
        msg.contains("used after the scope it was made in ended"),
        "{msg}"
    );
}

/// a b with hand-written partials in its arguments.
#[deriv_rule(a => b, b => a)]
fn mul2(a: f64, b: f64) -> f64 {
    a * b
}

/// a b with a vector-Jacobian product on f64: first-order only.
#[deriv_rule(adjoint = mul2_adjoint)]
fn mul2_vjp(ab: &[f64]) -> Vec<f64> {
    vec![ab[0] * ab[1]]
}

fn mul2_adjoint(ab: &[f64], _out: &[f64], ds: &[f64]) -> Vec<f64> {
    vec![ds[0] * ab[1], ds[0] * ab[0]]
}

#[test]
fn operands_of_different_levels_keep_their_cross_derivative() {
    // x of the outer call and y of the inner one, each first-order on its own:
    // d/dx d/dy (x y) = 1 at any point. f64 partials lost it (0) before.
    let d = derivative(|x: Fwd| derivative(|y: Fwd| mul2(x, y), 2.0), 3.0);
    assert_eq!(d.val(), 1.0);
    let d = derivative(|x: Fwd| derivative(|y: Fwd| mul2(y, x * x), 2.0), 3.0);
    assert_eq!(d.val(), 6.0);
    // A custom operation with f64 partials, and an adjoint rule, refuse instead.
    fn mul_custom<S: Real>(a: S, b: S) -> S {
        let (av, bv) = (a.val(), b.val());
        S::from_partials(av * bv, |p| {
            p.push(a, bv);
            p.push(b, av);
        })
    }
    let msg = |r: std::thread::Result<Fwd>| match r.unwrap_err().downcast::<String>() {
        Ok(s) => *s,
        Err(e) => e.downcast::<&str>().unwrap().to_string(),
    };
    let custom = std::panic::catch_unwind(|| {
        derivative(|x: Fwd| derivative(|y: Fwd| mul_custom(x, y), 2.0), 3.0)
    });
    let m = msg(custom);
    assert!(m.contains("`from_partials`, called at"), "{m}");
    assert!(m.contains(file!()), "{m}");
    let vjp = std::panic::catch_unwind(|| {
        derivative(|x: Fwd| derivative(|y: Fwd| mul2_vjp(&[x, y])[0], 2.0), 3.0)
    });
    let m = msg(vjp);
    assert!(m.contains("cannot be differentiated twice"), "{m}");
    // One level at a time, both are fine.
    assert_eq!(
        derivative(|y: Fwd| mul_custom(Fwd::from(3.0), y), 2.0).val(),
        3.0
    );
    assert_eq!(derivative(|y: Fwd| mul2_vjp(&[y, y])[0], 2.0).val(), 4.0);
}
