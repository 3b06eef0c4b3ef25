//! FARFEL's two-player game (Radul, Pearlmutter and Siskind): the equilibrium (a*, b*)
//! of two payoffs, a* = argmax_a A(a, argmax_b B(a*, b)), found by Newton's method on a
//! function that itself calls `argmax`, which runs Newton's method on a derivative. The
//! functions pass functions and closures to each other as in the original; fazang's
//! `derivative` nests without perturbation confusion. The analytic equilibrium is
//! a* = b* = 50.
//!
//! `cargo run --release --example equilibrium [-- N]` (N Newton steps at each level)
use fazang::prelude::*;
use fazang::{derivative, value_and_derivative, Fwd};

/// Newton's method for a root of `f` from `x0`, `n` steps (FARFEL's ROOT, with DERIV2).
fn root(f: impl Fn(Fwd) -> Fwd, x0: Fwd, n: usize) -> Fwd {
    let mut x = x0;
    for _ in 0..n {
        let (y, dy) = value_and_derivative(&f, x);
        x -= y / dy;
    }
    x
}

/// The maximiser of `f`: a root of its derivative (FARFEL's ARGMAX, with DERIV1).
fn argmax(f: impl Fn(Fwd) -> Fwd, x0: Fwd, n: usize) -> Fwd {
    root(|x| derivative(&f, x), x0, n)
}

/// FARFEL's EQLBRM.
fn equilibrium(
    big_a: impl Fn(Fwd, Fwd) -> Fwd,
    big_b: impl Fn(Fwd, Fwd) -> Fwd,
    a0: f64,
    b0: f64,
    n: usize,
) -> (Fwd, Fwd) {
    let f = |a_star: Fwd| {
        let g = |a: Fwd| {
            let h = |b: Fwd| big_b(a_star, b);
            big_a(a, argmax(h, b0.into(), n))
        };
        argmax(g, a_star, n) - a_star
    };
    let a_star = root(f, a0.into(), n);
    let b_star = argmax(|b| big_b(a_star, b), b0.into(), n);
    (a_star, b_star)
}

/// Player A's payoff (FARFEL's GMBIGA), an ordinary function: `#[differentiate]` makes
/// its body run on `Fwd` too.
#[differentiate]
fn payoff_a(a: f64, b: f64) -> f64 {
    let price = 20.0 - 0.1 * a - 0.1 * b;
    let costs = a * (10.0 - 0.05 * a);
    a * price - costs
}

/// Player B's payoff (FARFEL's GMBIGB).
#[differentiate]
fn payoff_b(a: f64, b: f64) -> f64 {
    let price = 20.0 - 0.1 * b - 0.0999 * a;
    let costs = b * (10.005 - 0.05 * b);
    b * price - costs
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .map_or(20, |s| s.parse().expect("N, the Newton steps per level"));
    let start = std::time::Instant::now();
    let (a, b) = equilibrium(payoff_a, payoff_b, 0.0, 0.0, n);
    let time = start.elapsed();
    println!("a* = {}, b* = {} (analytic: 50, 50)", a.val(), b.val());
    println!("{n} Newton steps at each level: {time:?}");
}
