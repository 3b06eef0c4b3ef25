use fazang::prelude::*;
#[differentiate]
fn sq(v: f64) -> f64 {
    v * v
}
#[differentiate(wrt(x))]
fn uses(x: f64, data: &[f64], mean: f64) -> f64 {
    let total: f64 = data.iter().map(|&r| sq(r - mean)).sum();
    total * sq(x)
}
#[test]
fn t() {
    let (v, g) = uses_grad(2.0, &[3.0], 1.0);
    assert_eq!(v, 4.0 * 4.0);
    assert_eq!(g[0], 4.0 * 4.0);
}
