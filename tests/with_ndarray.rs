//! A crate that links ndarray must still be able to call differentiated functions, with
//! float literals and through `_grad` (ndarray's recursive `Neg for &ArrayBase` made such
//! calls overflow the trait solver, E0275, while a `Neg` bound on `&S` existed).
use fazang::prelude::*;
use ndarray::Array1;

#[differentiate]
fn f(x: f64, y: f64) -> f64 {
    -x * y.sin()
}

#[differentiate]
fn g(x: &[f64]) -> f64 {
    x.iter().map(|v| v * v).sum::<f64>()
}

#[test]
fn differentiated_calls_beside_ndarray() {
    let a = Array1::from(vec![1.0, 2.0]);
    assert_eq!(f(2.0, 0.5), -2.0 * 0.5_f64.sin());
    assert_eq!(
        f_grad(2.0, 0.5),
        (f(2.0, 0.5), [-(0.5_f64.sin()), -2.0 * 0.5_f64.cos()])
    );
    let v = a.to_vec();
    assert_eq!(g_grad(&v), (5.0, vec![2.0, 4.0]));
    assert_eq!(-&a, Array1::from(vec![-1.0, -2.0]));
}
