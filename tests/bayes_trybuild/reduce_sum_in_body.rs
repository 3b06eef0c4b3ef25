//! `reduce_sum` inside a `#[differentiate]` body, the closure reading active values: the
//! natural form, which must compile and give the tape's gradient.

use fazang::prelude::*;

#[differentiate(wrt(beta))]
fn logistic(beta: &[f64], rows: &[(f64, [f64; 2])]) -> f64 {
    reduce_sum(rows, 0, |chunk: &[(f64, [f64; 2])], _start: usize| {
        let mut s = 0.0;
        for (y, x) in chunk {
            let eta = beta[0] * x[0] + beta[1] * x[1];
            s += y * eta - eta.log1p_exp();
        }
        s
    })
}

fn main() {
    let rows: Vec<(f64, [f64; 2])> = (0..3000)
        .map(|i| (f64::from(i % 2), [1.0, (f64::from(i) * 0.37).sin()]))
        .collect();
    let (v, g) = logistic_grad(&[0.1, -0.3], &rows);
    let (tv, tg) = gradient(
        |b| {
            rows.iter()
                .map(|(y, x)| {
                    let eta = b[0] * x[0] + b[1] * x[1];
                    *y * eta - eta.log1p_exp()
                })
                .sum::<Var>()
        },
        &[0.1, -0.3],
    );
    assert!((v - tv).abs() < 1e-10 * tv.abs());
    for (a, b) in g.iter().zip(&tg) {
        assert!((a - b).abs() < 1e-10 * b.abs().max(1.0));
    }
}
