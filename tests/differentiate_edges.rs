//! Parameter types as macros hand them over: parenthesised (`([f64; 2])`) and inside
//! the invisible groups of `macro_rules!` (`x: $t` with `$t = f64`). Both once broke the
//! macro (a panic, and a silently dropped derivative).

use fazang::prelude::*;

#[differentiate]
#[allow(unused_parens)]
fn parenthesised(x: ([f64; 2]), y: (f64)) -> f64 {
    x[0] * x[1] + y
}

#[test]
fn parenthesised_types_are_recognised() {
    let (v, (dx, dy)) = parenthesised_grad([2.0, 3.0], 0.5);
    assert_eq!((v, dx, dy), (6.5, [3.0, 2.0], 1.0));
}

macro_rules! scaled_square {
    ($name:ident, $t:ty, $s:ty) => {
        #[differentiate]
        fn $name(x: $t, w: $s) -> $t {
            w.iter().map(|wi| wi * x * x).sum()
        }
    };
}

scaled_square!(from_macro, f64, &[f64]);

#[test]
fn types_from_macro_rules_are_recognised() {
    let (v, (dx, dw)) = from_macro_grad(3.0, &[1.0, 2.0]);
    assert_eq!(v, 27.0);
    assert_eq!(dx, 18.0);
    assert_eq!(dw, vec![9.0, 9.0]);
}

#[differentiate]
fn mean(x: &[f64]) -> f64 {
    x.iter().sum::<f64>() / x.len() as f64
}

#[differentiate]
fn sq(v: f64) -> f64 {
    v * v
}

/// What callers of the primal write keeps compiling: literals, `f64` values, references
/// that coerce (`&Vec<f64>`, `&[f64; N]`), function pointers, iterator adaptors; an
/// argument whose type only the parameter decides needs the scalar named.
#[test]
fn callers_of_the_primal() {
    let v = vec![1.0, 2.0, 6.0];
    assert_eq!(mean(&v), 3.0);
    assert_eq!(mean(&[1.0, 3.0]), 2.0);
    assert_eq!(sq(1.5), 2.25);
    let f: fn(f64) -> f64 = sq;
    assert_eq!(f(3.0), 9.0);
    let squares: Vec<f64> = v.iter().copied().map(sq).collect();
    assert_eq!(squares, [1.0, 4.0, 36.0]);
    let a = 2.0f32;
    assert_eq!(sq::<f64>(a.into()), 4.0);
}

#[differentiate]
fn first_times(p: &[f64], s: f64) -> f64 {
    p[0] * s
}

#[differentiate]
fn product(a: f64, b: f64) -> f64 {
    a * b
}

/// An `if` whose one arm calls a differentiated function on data only and whose other
/// arm calls one with an active argument (found by the fuzzer: `if` and `else` had
/// incompatible types).
#[differentiate(wrt(x))]
fn branch_of_calls(x: f64, data: &[f64]) -> f64 {
    let a = if x > 0.0 {
        first_times(data, data[1].max(0.1))
    } else {
        product(data[1] / (1.0 + x * x), 2.0)
    };
    a * x
}

#[test]
fn data_and_active_call_results_in_the_arms_of_an_if() {
    let data = [0.5, 0.8];
    for x in [0.7, -0.6] {
        let (v, [g]) = branch_of_calls_grad(x, &data);
        assert_eq!(v, branch_of_calls(x, &data));
        let h = 1e-6;
        let fd = (branch_of_calls(x + h, &data) - branch_of_calls(x - h, &data)) / (2.0 * h);
        assert!((g - fd).abs() < 1e-6, "{g} vs {fd}");
    }
}
