//! Values and gradients of the multivariate distributions against high-precision
//! references: tests/bayes_support/multi.csv, written by multi_reference.py there (mpmath
//! at 40 digits from the textbook formulas, gradients by `mpmath.diff`, values also
//! checked against SciPy). Each case is evaluated here with every real input active
//! (`Var`) and as plain `f64`, which must agree.

#[path = "support/close.rs"]
mod close;

use close::{assert_all_close, assert_close};
use fazang::prelude::*;

/// One line of multi.csv.
struct Case {
    function: String,
    name: String,
    n: usize,
    k: usize,
    ints: Vec<i64>,
    x: Vec<f64>,
    value: f64,
    grad: Vec<f64>,
}

fn numbers<T: std::str::FromStr>(s: &str) -> Vec<T>
where
    T::Err: std::fmt::Debug,
{
    s.split_whitespace().map(|v| v.parse().unwrap()).collect()
}

fn cases() -> Vec<Case> {
    include_str!("bayes_support/multi.csv")
        .lines()
        .map(|line| {
            let f: Vec<&str> = line.split(';').collect();
            let nk: Vec<usize> = numbers(f[2]);
            Case {
                function: f[0].into(),
                name: f[1].into(),
                n: nk[0],
                k: nk[1],
                ints: numbers(f[3]),
                x: numbers(f[4]),
                value: f[5].parse().unwrap(),
                grad: numbers(f[6]),
            }
        })
        .collect()
}

/// `n` rows of `k` from the front of `x`, and the rest.
fn rows<S: Real>(x: &[S], n: usize, k: usize) -> (Vec<Vec<S>>, &[S]) {
    let r = (0..n).map(|i| x[i * k..(i + 1) * k].to_vec()).collect();
    (r, &x[n * k..])
}

/// The density of a case at `x`, on any scalar.
fn eval<S: Real>(c: &Case, x: &[S]) -> S {
    let (n, k) = (c.n, c.k);
    let r = match (c.function.as_str(), c.name.as_str()) {
        ("multi_normal_lpdf", "rows") => {
            let (y, rest) = rows(x, n, k);
            let (mu, rest) = rest.split_at(k);
            let (s, _) = rows(rest, k, k);
            multi_normal_lpdf(&y, mu, &s)
        }
        ("multi_normal_lpdf", "vector") => {
            let (y, rest) = x.split_at(k);
            let (mu, rest) = rest.split_at(k);
            let (s, _) = rows(rest, k, k);
            multi_normal_lpdf(y, mu, &s)
        }
        ("multi_normal_cholesky_lpdf", _) => {
            let (y, rest) = rows(x, n, k);
            let (mu, rest) = rows(rest, n, k);
            let (l, _) = rows(rest, k, k);
            multi_normal_cholesky_lpdf(&y, &mu, &l)
        }
        ("multi_normal_prec_lpdf", _) => {
            let (y, rest) = x.split_at(k);
            let (mu, rest) = rest.split_at(k);
            let (om, _) = rows(rest, k, k);
            multi_normal_prec_lpdf(y, mu, &om)
        }
        ("multi_student_t_lpdf", _) => {
            let (y, rest) = rows(x, n, k);
            let (mu, rest) = rest[1..].split_at(k);
            let (s, _) = rows(rest, k, k);
            multi_student_t_lpdf(&y, rest_nu(x, n * k), mu, &s)
        }
        ("lkj_corr_lpdf", _) => {
            let (om, rest) = rows(x, k, k);
            lkj_corr_lpdf(&om, rest[0])
        }
        ("lkj_corr_cholesky_lpdf", _) => {
            let (l, rest) = rows(x, k, k);
            lkj_corr_cholesky_lpdf(&l, rest[0])
        }
        ("dirichlet_lpdf", _) => dirichlet_lpdf(&x[..k], &x[k..]),
        ("wishart_lpdf", _) | ("inv_wishart_lpdf", _) => {
            let (w, rest) = rows(x, k, k);
            let (s, _) = rows(&rest[1..], k, k);
            if c.function == "wishart_lpdf" {
                wishart_lpdf(&w, rest[0], &s)
            } else {
                inv_wishart_lpdf(&w, rest[0], &s)
            }
        }
        ("multinomial_lpmf", _) => multinomial_lpmf(&c.ints, x),
        ("categorical_lpmf", _) => categorical_lpmf(&c.ints, x),
        ("categorical_logit_lpmf", _) => categorical_logit_lpmf(&c.ints, x),
        (f, _) => panic!("no case for {f}"),
    };
    r.unwrap_or_else(|e| panic!("{} {}: {e}", c.function, c.name))
}

fn rest_nu<S: Real>(x: &[S], at: usize) -> S {
    x[at]
}

#[test]
fn every_family_against_mpmath() {
    let all = cases();
    assert_eq!(all.len(), 15, "every case of multi.csv");
    for c in &all {
        let what = format!("{} {}", c.function, c.name);
        let (v, g) = gradient(|x| eval(c, x), &c.x);
        let p: f64 = eval(c, &c.x);
        assert_eq!(v, p, "{what}: the Var value differs from the f64 value");
        assert_close(v, c.value, 1e-13, &format!("{what}: value"));
        assert_all_close(&g, &c.grad, 1e-11, &format!("{what}: gradient"));
    }
}
