//! Hessians: Rosenbrock's function in n = 100 dimensions (tridiagonal Hessian) and
//! DESIGN.md's 2-parameter normal log density at 10 000 points, by fazang's two methods
//! (reverse-over-forward `hessian`, forward-over-forward `hessian_forward`), one
//! Hessian-vector product per column, num-dual's `hessian` (`Dual2` numbers), echidna's
//! forward-over-reverse Hessian (its bytecode tape recorded, then replayed on dual
//! numbers 8 directions at a time: `hessian_vec::<8>`), a hand-written Hessian, and
//! fazang's gradient for the Hessian / gradient ratio, and the `name_hessian` that
//! `#[differentiate]` generates for the same functions.

use super::rosenbrock::rosenbrock_peer;
use super::two_param::normal_lp_peer;
use crate::data::Rng;
use crate::names::*;
use crate::peers::{EchidnaBytecode, PeerNum};
use crate::{assert_close, Variant, Workload};
use fazang::prelude::*;
use fazang::{hessian, hessian_forward, hessian_vector_product};
use fazang_bench_models::{normal_lp, normal_lp_hessian, rosenbrock, rosenbrock_hessian};
use nalgebra::SVector;
use num_dual::{Dual2SVec64, DualNum};
use std::rc::Rc;

/// Inputs of the Rosenbrock Hessian.
pub const N: usize = 100;
/// Points of the 2-parameter Hessian.
pub const CALLS: usize = 10_000;

/// num-dual's second-order number with `K` directions.
pub(crate) type NumDual2<const K: usize> = Dual2SVec64<K>;

impl<const K: usize> PeerNum for NumDual2<K> {
    #[inline]
    fn cst(v: f64) -> Self {
        Dual2SVec64::from_re(v)
    }
    #[inline]
    fn scale(self, k: f64) -> Self {
        self * k
    }
    #[inline]
    fn rsub(self, k: f64) -> Self {
        -self + k
    }
    #[inline]
    fn shift(self, k: f64) -> Self {
        self + k
    }
    #[inline]
    fn exp(self) -> Self {
        DualNum::exp(&self)
    }
    #[inline]
    fn ln(self) -> Self {
        DualNum::ln(&self)
    }
    #[inline]
    fn ln_1p(self) -> Self {
        DualNum::ln_1p(&self)
    }
    #[inline]
    fn tanh(self) -> Self {
        DualNum::tanh(&self)
    }
    #[inline]
    fn cosh(self) -> Self {
        DualNum::cosh(&self)
    }
    #[inline]
    fn sin(self) -> Self {
        DualNum::sin(&self)
    }
}

/// num-dual's Hessian of `f`: value, gradient and rows written into `h`.
pub(crate) fn num_dual_hessian<const K: usize>(
    f: impl Fn(&[NumDual2<K>]) -> NumDual2<K>,
    x: &[f64],
    h: &mut [Vec<f64>],
) -> f64 {
    let v = SVector::<f64, K>::from_column_slice(x);
    let (val, _, hm) = num_dual::hessian(|x: SVector<NumDual2<K>, K>| f(x.as_slice()), &v);
    for (i, row) in h.iter_mut().enumerate() {
        for (j, r) in row.iter_mut().enumerate() {
            *r = hm[(i, j)];
        }
    }
    val
}

/// echidna's forward-over-reverse Hessian: record the bytecode tape, then 8 directions
/// per replay.
pub(crate) fn echidna_hessian(
    f: impl FnOnce(&[EchidnaBytecode]) -> EchidnaBytecode,
    x: &[f64],
) -> Vec<Vec<f64>> {
    let (tape, _) = echidna::record(f, x);
    tape.hessian_vec::<8>(x).2
}

/// Hand-written Hessian of Rosenbrock's function (tridiagonal), into `h`; returns the
/// value.
pub fn rosenbrock_hessian_hand(x: &[f64], h: &mut [Vec<f64>]) -> f64 {
    for row in h.iter_mut() {
        row.iter_mut().for_each(|v| *v = 0.0);
    }
    let mut f = 0.0;
    for i in 0..x.len() - 1 {
        let t = x[i + 1] - x[i] * x[i];
        let u = 1.0 - x[i];
        f += 100.0 * t * t + u * u;
        h[i][i] += 1200.0 * x[i] * x[i] - 400.0 * x[i + 1] + 2.0;
        h[i][i + 1] = -400.0 * x[i];
        h[i + 1][i] = -400.0 * x[i];
        h[i + 1][i + 1] += 200.0;
    }
    f
}

/// Hand-written Hessian of the 2-parameter normal log density (y = 1.3).
pub fn normal_lp_hessian_hand(mu: f64, sigma: f64, h: &mut [[f64; 2]; 2]) -> f64 {
    let inv = 1.0 / sigma;
    let z = (1.3 - mu) * inv;
    let inv2 = inv * inv;
    h[0][0] = -inv2;
    h[0][1] = -2.0 * z * inv2;
    h[1][0] = h[0][1];
    h[1][1] = (1.0 - 3.0 * z * z) * inv2;
    -0.5 * (2.0 * std::f64::consts::PI).ln() - sigma.ln() - 0.5 * z * z
}

fn flat(h: &[Vec<f64>]) -> Vec<f64> {
    h.iter().flatten().copied().collect()
}

/// The Hessian by one Hessian-vector product per column (reverse-over-forward with one
/// direction per pass), for comparison with `hessian`'s eight.
fn hessian_by_columns(x: &[f64], h: &mut [Vec<f64>]) -> f64 {
    let mut e = vec![0.0; x.len()];
    let mut v = 0.0;
    for (j, row) in h.iter_mut().enumerate() {
        e[j] = 1.0;
        let (val, hv) = hessian_vector_product(rosenbrock, x, &e);
        e[j] = 0.0;
        row.copy_from_slice(&hv);
        v = val;
    }
    v
}

/// Rosenbrock, n = 100, checked.
pub fn rosenbrock_workload() -> Workload {
    let mut rng = Rng::new(7);
    let x = Rc::new(rng.vec(N, -1.5, 1.5));
    let mut want = vec![vec![0.0; N]; N];
    rosenbrock_hessian_hand(&x, &mut want);
    let want = flat(&want);
    let (_, _, h) = hessian(rosenbrock, &x);
    assert_close("hessian rosenbrock fazang", &flat(&h), &want);
    let (_, _, h) = hessian_forward::<8, _>(rosenbrock, &x);
    assert_close("hessian rosenbrock forward", &flat(&h), &want);
    let (_, _, h) = rosenbrock_hessian(&x);
    assert_close("hessian rosenbrock generated", &flat(&h), &want);
    let mut h = vec![vec![0.0; N]; N];
    hessian_by_columns(&x, &mut h);
    assert_close("hessian rosenbrock columns", &flat(&h), &want);
    num_dual_hessian::<N>(rosenbrock_peer, &x, &mut h);
    assert_close("hessian rosenbrock num-dual", &flat(&h), &want);
    let h = echidna_hessian(rosenbrock_peer, &x);
    assert_close("hessian rosenbrock echidna", &flat(&h), &want);

    let v = |name, run| Variant { name, run };
    let xs: Vec<Rc<Vec<f64>>> = (0..9).map(|_| x.clone()).collect();
    let mut hand = vec![vec![0.0; N]; N];
    let mut cols = vec![vec![0.0; N]; N];
    let mut nd = vec![vec![0.0; N]; N];
    let mut g = vec![0.0; N];
    let x_ = xs.clone();
    Workload {
        name: "hessian_rosenbrock",
        inputs: N,
        calls: 1,
        variants: vec![
            v(PRIMAL, {
                let x = x_[0].clone();
                Box::new(move || rosenbrock::<f64>(&x))
            }),
            v(HAND, {
                let x = x_[1].clone();
                Box::new(move || rosenbrock_hessian_hand(&x, &mut hand) + hand[0][0])
            }),
            v(GRADIENT, {
                let x = x_[2].clone();
                Box::new(move || gradient_into(rosenbrock, &x, &mut g) + g[0])
            }),
            v(HESSIAN, {
                let x = x_[3].clone();
                Box::new(move || hessian(rosenbrock, &x).2[0][0])
            }),
            v(HESSIAN_FWD, {
                let x = x_[4].clone();
                Box::new(move || hessian_forward::<8, _>(rosenbrock, &x).2[0][0])
            }),
            v(HESSIAN_COLUMNS, {
                let x = x_[5].clone();
                Box::new(move || hessian_by_columns(&x, &mut cols) + cols[0][0])
            }),
            v(NUM_DUAL, {
                let x = x_[6].clone();
                Box::new(move || num_dual_hessian::<N>(rosenbrock_peer, &x, &mut nd) + nd[0][0])
            }),
            v(ECHIDNA, {
                let x = x_[7].clone();
                Box::new(move || echidna_hessian(rosenbrock_peer, &x)[0][0])
            }),
            v(HESSIAN_GENERATED, {
                let x = x_[8].clone();
                Box::new(move || rosenbrock_hessian(&x).2[0][0])
            }),
        ],
    }
}

/// One call at one point.
type OneCall = Box<dyn FnMut(&[f64; 2]) -> f64>;

/// The 2-parameter normal log density at 10 000 points, checked at every point.
pub fn two_param_workload() -> Workload {
    let mut rng = Rng::new(5);
    let pts: Rc<Vec<[f64; 2]>> = Rc::new(
        (0..CALLS)
            .map(|_| [rng.range(-1.0, 3.0), rng.range(0.5, 2.0)])
            .collect(),
    );
    for p in pts.iter() {
        let mut hw = [[0.0; 2]; 2];
        normal_lp_hessian_hand(p[0], p[1], &mut hw);
        let want: Vec<f64> = hw.iter().flatten().copied().collect();
        let (_, _, h) = hessian(|x| normal_lp(x[0], x[1]), p);
        assert_close("hessian two_param fazang", &flat(&h), &want);
        let (_, _, h) = hessian_forward::<2, _>(|x| normal_lp(x[0], x[1]), p);
        assert_close("hessian two_param forward", &flat(&h), &want);
        let (_, _, h) = normal_lp_hessian(p[0], p[1]);
        assert_close("hessian two_param generated", &flat(&h), &want);
        let mut h = vec![vec![0.0; 2]; 2];
        num_dual_hessian::<2>(|x| normal_lp_peer(x[0], x[1]), p, &mut h);
        assert_close("hessian two_param num-dual", &flat(&h), &want);
        let h = echidna_hessian(|x| normal_lp_peer(x[0], x[1]), p);
        assert_close("hessian two_param echidna", &flat(&h), &want);
    }
    let each = |pts: &Rc<Vec<[f64; 2]>>, mut one: OneCall| {
        let pts = pts.clone();
        Box::new(move || pts.iter().map(&mut one).sum::<f64>()) as Box<dyn FnMut() -> f64>
    };
    let v = |name, run| Variant { name, run };
    Workload {
        name: "hessian_two_param",
        inputs: 2,
        calls: CALLS,
        variants: vec![
            v(
                PRIMAL,
                each(&pts, Box::new(|p| normal_lp::<f64>(p[0], p[1]))),
            ),
            v(
                HAND,
                each(
                    &pts,
                    Box::new(|p| {
                        let mut h = [[0.0; 2]; 2];
                        normal_lp_hessian_hand(p[0], p[1], &mut h) + h[0][1]
                    }),
                ),
            ),
            v(
                GRADIENT,
                each(
                    &pts,
                    Box::new(|p| {
                        let mut g = [0.0; 2];
                        gradient_into(|x| normal_lp(x[0], x[1]), p, &mut g) + g[1]
                    }),
                ),
            ),
            v(
                HESSIAN,
                each(
                    &pts,
                    Box::new(|p| hessian(|x| normal_lp(x[0], x[1]), p).2[0][1]),
                ),
            ),
            v(
                HESSIAN_FWD,
                each(
                    &pts,
                    Box::new(|p| hessian_forward::<2, _>(|x| normal_lp(x[0], x[1]), p).2[0][1]),
                ),
            ),
            v(
                NUM_DUAL,
                each(
                    &pts,
                    Box::new(|p| {
                        let v = SVector::<f64, 2>::from_column_slice(p);
                        let (val, _, h) = num_dual::hessian(
                            |x: SVector<NumDual2<2>, 2>| normal_lp_peer(x[0], x[1]),
                            &v,
                        );
                        val + h[(0, 1)]
                    }),
                ),
            ),
            v(
                ECHIDNA,
                each(
                    &pts,
                    Box::new(|p| echidna_hessian(|x| normal_lp_peer(x[0], x[1]), p)[0][1]),
                ),
            ),
            v(
                HESSIAN_GENERATED,
                each(&pts, Box::new(|p| normal_lp_hessian(p[0], p[1]).2[0][1])),
            ),
        ],
    }
}
