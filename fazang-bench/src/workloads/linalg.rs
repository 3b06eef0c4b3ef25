//! Each fused operation of `fazang::linalg` against the same operation taped scalar by
//! scalar through nalgebra on `DMatrix<Var>`, at n = 100: the gradient of a weighted sum
//! of the result with respect to every entry of the (active) arguments.
//!
//! Variants: `primal` the `f64` operation (nalgebra), `fazang_fused` the `linalg`
//! function, `fazang_taped` nalgebra's algorithm on `Var`. The two gradients are checked
//! against each other (each is tested against finite differences in
//! `tests/linalg_fused.rs`).

use crate::data::Rng;
use crate::names::{FAZANG_FUSED, FAZANG_TAPED, PRIMAL};
use crate::{assert_close, Variant, Workload};
use fazang::linalg::{
    cholesky, log_determinant, multiply, quad_form, solve_lower_triangular, Entry,
};
use fazang::prelude::*;
use nalgebra::DMatrix;
use std::rc::Rc;

/// Matrix size.
pub const N: usize = 100;
/// Columns of the right-hand sides of the solve and the quadratic form.
pub const COLS: usize = 10;

/// The operations measured, by workload name.
pub const NAMES: [&str; 5] = [
    "mat_multiply",
    "mat_cholesky",
    "mat_trisolve",
    "mat_logdet",
    "mat_quad_form",
];

/// Weighted sum of a result (one node on the tape, the same in both variants).
fn weighted<T: Entry<Var>>(m: &DMatrix<T>, w: &[f64]) -> Var {
    let v: Vec<Var> = m.iter().map(|&e| e.to_scalar()).collect();
    dot_product(&w[..v.len()], &v)
}

fn weighted_f64(m: &DMatrix<f64>, w: &[f64]) -> f64 {
    dot_product(&w[..m.len()], m.as_slice())
}

/// Inputs of an operation: the entries of its matrices, concatenated, and how to split
/// them back into matrices of the given shapes.
struct Shapes(Vec<(usize, usize)>);

impl Shapes {
    fn split<T: Entry<Var>>(&self, x: &[T]) -> Vec<DMatrix<T>> {
        let mut at = 0;
        self.0
            .iter()
            .map(|&(r, c)| {
                let m = DMatrix::from_column_slice(r, c, &x[at..at + r * c]);
                at += r * c;
                m
            })
            .collect()
    }
}

type Op = fn(&Shapes, &[Var], &[f64]) -> Var;
type Plain = fn(&Shapes, &[f64], &[f64]) -> f64;

/// The inputs, shapes, fused, taped and plain versions of the operation `name`.
fn case(name: &str) -> (Vec<f64>, Shapes, Op, Op, Plain) {
    let mut rng = Rng::new(11);
    let general = |rng: &mut Rng, r, c| DMatrix::from_fn(r, c, |_, _| rng.range(-1.0, 1.0));
    let spd = |rng: &mut Rng| {
        let b = general(rng, N, N);
        &b * b.transpose() + DMatrix::identity(N, N) * N as f64
    };
    let (mats, fused, taped, plain): (Vec<DMatrix<f64>>, Op, Op, Plain) = match name {
        "mat_multiply" => (
            vec![general(&mut rng, N, N), general(&mut rng, N, N)],
            |s, x, w| {
                let m = s.split(x);
                weighted(&multiply(&m[0], &m[1]), w)
            },
            |s, x, w| {
                let m = s.split(x);
                weighted(&(&m[0] * &m[1]), w)
            },
            |s, x, w| {
                let m = s.split(x);
                weighted_f64(&(&m[0] * &m[1]), w)
            },
        ),
        "mat_cholesky" => (
            vec![spd(&mut rng)],
            |s, x, w| weighted(&cholesky(&s.split(x)[0]).unwrap(), w),
            |s, x, w| weighted(&s.split(x).remove(0).cholesky().unwrap().unpack(), w),
            |s, x, w| weighted_f64(&s.split(x).remove(0).cholesky().unwrap().unpack(), w),
        ),
        "mat_trisolve" => (
            vec![
                spd(&mut rng).cholesky().unwrap().unpack(),
                general(&mut rng, N, COLS),
            ],
            |s, x, w| {
                let m = s.split(x);
                weighted(&solve_lower_triangular(&m[0], &m[1]).unwrap(), w)
            },
            |s, x, w| {
                let m = s.split(x);
                weighted(&m[0].solve_lower_triangular(&m[1]).unwrap(), w)
            },
            |s, x, w| {
                let m = s.split(x);
                weighted_f64(&m[0].solve_lower_triangular(&m[1]).unwrap(), w)
            },
        ),
        "mat_logdet" => (
            vec![general(&mut rng, N, N) + DMatrix::identity(N, N) * 10.0],
            |s, x, _| log_determinant(&s.split(x)[0]).unwrap(),
            |s, x, _| s.split(x).remove(0).lu().determinant().abs().ln(),
            |s, x, _| s.split(x).remove(0).lu().determinant().abs().ln(),
        ),
        "mat_quad_form" => (
            vec![general(&mut rng, N, N), general(&mut rng, N, COLS)],
            |s, x, w| {
                let m = s.split(x);
                weighted(&quad_form(&m[0], &m[1]), w)
            },
            |s, x, w| {
                let m = s.split(x);
                weighted(&(m[1].transpose() * &m[0] * &m[1]), w)
            },
            |s, x, w| {
                let m = s.split(x);
                weighted_f64(&(m[1].transpose() * &m[0] * &m[1]), w)
            },
        ),
        _ => panic!("no linalg workload called {name}"),
    };
    let shapes = Shapes(mats.iter().map(|m| m.shape()).collect());
    let x = mats.iter().flat_map(|m| m.iter().copied()).collect();
    (x, shapes, fused, taped, plain)
}

/// The workload `name` (one of [`NAMES`]), checked.
pub fn workload(name: &'static str) -> Workload {
    let (x, shapes, fused, taped, plain) = case(name);
    let mut rng = Rng::new(13);
    let w = rng.vec(N * N, 0.5, 1.5);
    let n = x.len();
    let (mut gf, mut gt) = (vec![0.0; n], vec![0.0; n]);
    let vf = gradient_into(|x| fused(&shapes, x, &w), &x, &mut gf);
    let vt = gradient_into(|x| taped(&shapes, x, &w), &x, &mut gt);
    assert_close(&format!("{name} fused vs taped"), &gf, &gt);
    assert_close(&format!("{name} value"), &[vf], &[plain(&shapes, &x, &w)]);
    assert_close(&format!("{name} taped value"), &[vt], &[vf]);

    let ctx = Rc::new((x, shapes, w));
    let v = |name, run: Box<dyn FnMut() -> f64>| Variant { name, run };
    let (c0, c1, c2) = (ctx.clone(), ctx.clone(), ctx);
    Workload {
        name,
        inputs: n,
        calls: 1,
        variants: vec![
            v(PRIMAL, Box::new(move || plain(&c0.1, &c0.0, &c0.2))),
            v(
                FAZANG_FUSED,
                Box::new(move || gradient_into(|x| fused(&c1.1, x, &c1.2), &c1.0, &mut gf) + gf[0]),
            ),
            v(
                FAZANG_TAPED,
                Box::new(move || gradient_into(|x| taped(&c2.1, x, &c2.2), &c2.0, &mut gt) + gt[0]),
            ),
        ],
    }
}
