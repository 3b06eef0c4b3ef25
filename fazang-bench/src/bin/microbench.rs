//! Nanoseconds per recorded operation and per swept record, for tuning the tape:
//! `microbench`.

use fazang::prelude::*;
use std::hint::black_box;
use std::time::Instant;

fn time(label: &str, per: f64, mut f: impl FnMut() -> f64) {
    let mut best = f64::INFINITY;
    for _ in 0..30 {
        let t = Instant::now();
        black_box(f());
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!("{label:40} {:8.2} ns", best / per * 1e9);
}

fn main() {
    let n = 100_000;
    let x = [1.000_001, 0.999_999];
    let mut g = [0.0; 2];
    time("binary a*b: record + sweep, per op", n as f64, || {
        gradient_into(
            |x| {
                let mut a = x[0];
                for _ in 0..n {
                    a *= x[1];
                }
                a
            },
            &x,
            &mut g,
        )
    });
    time("unary a*2: record + sweep, per op", n as f64, || {
        gradient_into(
            |x| {
                let mut a = x[0];
                for _ in 0..n {
                    a *= 1.000_001;
                }
                a
            },
            &x,
            &mut g,
        )
    });
    time("binary a*b: record only, per op", n as f64, || {
        nested(|| {
            let (a0, b) = (Var::new(x[0]), Var::new(x[1]));
            let mut a = a0;
            for _ in 0..n {
                a *= b;
            }
            a.val()
        })
    });
    time("primal a*b (f64), per op", n as f64, || {
        let mut a = black_box(x[0]);
        for _ in 0..n {
            a *= black_box(x[1]);
        }
        a
    });
    let m = 10_000;
    time("gradient_into(x0*x1), per call", m as f64, || {
        (0..m)
            .map(|_| gradient_into(|x| x[0] * x[1], &x, &mut g))
            .sum()
    });
    time("nested(|| 0.0), per call", m as f64, || {
        (0..m).map(|_| nested(|| 0.0)).sum()
    });
    time("Var::new + nested, per call", m as f64, || {
        (0..m).map(|_| nested(|| Var::new(1.0).val())).sum()
    });
}
