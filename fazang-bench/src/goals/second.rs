//! The dense part of the `second` suite (issue 21): a dense 20-input Hessian, its
//! Hessian-vector product, a 6-input closed-form Hessian per call and the Jacobian of a
//! 50 → 50 tanh layer. The sparse workloads are in [`super::sparse`].

use super::rows::*;
use super::{returned, returned_dense};
use crate::checked::{flat, rows as dense_rows, Checked};
use crate::data::Rng;
use crate::peers::{num_dual_jacobian, EchidnaBytecode, PeerNum};
use crate::workloads::hessian::{num_dual_hessian, NumDual2};
use crate::workloads::jacobian::{self as layer, Layer};
use crate::Workload;
use fazang_bench_models::layer_jacobian;
use fazang_bench_models::user_second as m;
use nalgebra::{Const, SMatrix};
use num_dual::{Derivative, DualNum, HyperDualSVec64};
use std::hint::black_box;
use std::rc::Rc;

/// The workloads, in table order.
pub const NAMES: [&str; 6] = [
    "hessian_dense20",
    "hvp_dense20",
    "hessian_six",
    "hessian_ext_rosenbrock",
    "jacobian_bratu",
    "jacobian_layer",
];

/// The workload called `name`, checked.
pub fn by_name(name: &str) -> Option<Workload> {
    Some(match name {
        "hessian_dense20" => dense20(),
        "hvp_dense20" => hvp20(),
        "hessian_six" => six(),
        "hessian_ext_rosenbrock" => super::sparse::ext_rosenbrock(),
        "jacobian_bratu" => super::sparse::bratu(),
        "jacobian_layer" => jacobian_layer(),
        _ => return None,
    })
}

/// Inputs of the dense Hessian.
pub const N20: usize = 20;

/// Hand-written value, gradient and Hessian of [`m::log_cosh_pairs`].
pub fn log_cosh_hand(x: &[f64], g: &mut [f64], h: &mut [Vec<f64>]) -> f64 {
    let mut v = 0.0;
    for (i, row) in h.iter_mut().enumerate() {
        row.iter_mut().for_each(|e| *e = 0.0);
        row[i] = 1.0;
        g[i] = x[i];
        v += 0.5 * x[i] * x[i];
    }
    for i in 0..x.len() {
        for j in i + 1..x.len() {
            let d = x[i] - x[j];
            let t = d.tanh();
            let s = 1.0 - t * t;
            v += d.cosh().ln();
            g[i] += t;
            g[j] -= t;
            h[i][i] += s;
            h[j][j] += s;
            h[i][j] -= s;
            h[j][i] -= s;
        }
    }
    v
}

/// Hand-written value and Hessian-vector product of [`m::log_cosh_pairs`].
pub fn log_cosh_hvp_hand(x: &[f64], v: &[f64], hv: &mut [f64]) -> f64 {
    hv.copy_from_slice(v);
    let mut val = 0.5 * x.iter().map(|a| a * a).sum::<f64>();
    for i in 0..x.len() {
        for j in i + 1..x.len() {
            let d = x[i] - x[j];
            let t = d.tanh();
            let s = (1.0 - t * t) * (v[i] - v[j]);
            val += d.cosh().ln();
            hv[i] += s;
            hv[j] -= s;
        }
    }
    val
}

/// [`m::log_cosh_pairs`] on the peers' scalars.
pub fn log_cosh_peer<T: PeerNum>(x: &[T]) -> T {
    let mut s = T::cst(0.0);
    for i in 0..x.len() {
        for j in i + 1..x.len() {
            s = s + (x[i] - x[j]).cosh().ln();
        }
    }
    x.iter().fold(s, |s, &v| s + (v * v).scale(0.5))
}

/// A Hessian output: gradient and rows.
type Hess = (Vec<f64>, Vec<Vec<f64>>);

fn hess_dense(o: &Hess) -> Vec<f64> {
    o.0.iter().copied().chain(dense_rows(&o.1)).collect()
}

fn point20() -> Vec<f64> {
    Rng::new(20).vec(N20, -1.0, 1.0)
}

/// Dense Hessian, 20 inputs: log-cosh of pairwise differences plus a quadratic.
fn dense20() -> Workload {
    let n = N20;
    let hess = || (vec![0.0; n], vec![vec![0.0; n]; n]);
    Checked::new("hessian_dense20", n, point20(), n, m::log_cosh_pairs)
        .hand(
            hess(),
            |x, o| log_cosh_hand(x, &mut o.0, &mut o.1),
            hess_dense,
        )
        .variant_part(
            GRAD,
            0..n,
            None,
            returned(m::log_cosh_pairs_grad),
            returned_dense,
        )
        .variant(
            HESSIAN,
            hess(),
            |x, o| {
                let (v, g, h) = m::log_cosh_pairs_hessian(x);
                *o = (g, h);
                v
            },
            hess_dense,
        )
        .variant_part(
            NUM_DUAL,
            n..n + n * n,
            vec![vec![0.0; n]; n],
            |x, h| num_dual_hessian::<N20>(log_cosh_peer::<NumDual2<N20>>, x, h),
            dense_rows,
        )
        .variant(
            ECHIDNA_HESSIAN,
            hess(),
            |x, o| {
                let (v, g, h) = echidna::hessian_vec::<f64, 8>(log_cosh_peer::<EchidnaBytecode>, x);
                *o = (g, h);
                v
            },
            hess_dense,
        )
        .build()
}

/// num-dual's hyper-dual number: gradient lanes (`eps1`) and one direction (`eps2`).
type HyperDual<const K: usize> = HyperDualSVec64<K, 1>;

impl<const K: usize> PeerNum for HyperDual<K> {
    #[inline]
    fn cst(v: f64) -> Self {
        HyperDual::from_re(v)
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

/// num-dual forward-over-forward Hessian-vector product: one lane per input for the
/// gradient, the direction `v` as the second tangent; H v is the mixed part. Writes it
/// into `hv`, returns the value.
pub fn num_dual_hvp<const K: usize>(
    f: impl Fn(&[HyperDual<K>]) -> HyperDual<K>,
    x: &[f64],
    v: &[f64],
    hv: &mut [f64],
) -> f64 {
    let xs: Vec<HyperDual<K>> = x
        .iter()
        .zip(v)
        .enumerate()
        .map(|(i, (&xi, &vi))| {
            let mut d = HyperDual::<K>::from_re(xi).derivative1(i);
            d.eps2 = Derivative::some(SMatrix::<f64, 1, 1>::new(vi));
            d
        })
        .collect();
    let y = f(&xs);
    let m = y.eps1eps2.unwrap_generic(Const::<K>, Const::<1>);
    hv.copy_from_slice(m.as_slice());
    y.re
}

/// Hessian-vector product of the 20-input function, beside its gradient.
fn hvp20() -> Workload {
    let n = N20;
    let v = Rc::new(Rng::new(22).vec(n, -1.0, 1.0));
    let (v1, v2, v3, v4) = (v.clone(), v.clone(), v.clone(), v);
    let buf = || vec![0.0; n];
    let hand_gradient = move |x: &[f64]| {
        let (mut g, mut h) = (vec![0.0; n], vec![vec![0.0; n]; n]);
        log_cosh_hand(x, &mut g, &mut h);
        g
    };
    Checked::new("hvp_dense20", n, point20(), n, m::log_cosh_pairs)
        .hand(buf(), move |x, hv| log_cosh_hvp_hand(x, &v1, hv), flat)
        .variant_against(
            GRAD,
            hand_gradient,
            None,
            returned(m::log_cosh_pairs_grad),
            returned_dense,
        )
        .variant(
            HVP,
            None,
            returned(move |x: &[f64]| m::log_cosh_pairs_hvp(x, &v2)),
            returned_dense,
        )
        .variant(
            NUM_DUAL_FOF,
            buf(),
            move |x, hv| num_dual_hvp::<N20>(log_cosh_peer, x, &v3, hv),
            flat,
        )
        .variant_without_value(
            ECHIDNA_HVP,
            buf(),
            move |x, hv| {
                *hv = echidna::hvp(log_cosh_peer::<EchidnaBytecode>, x, &v4).1;
                hv[0]
            },
            flat,
        )
        .build()
}

/// Points of the per-call Hessian.
pub const CALLS: usize = 10_000;

/// The 6-input point as the array [`m::six_closed`] takes.
fn arr6(p: &[f64]) -> [f64; 6] {
    p.try_into().expect("6 inputs")
}

/// Hand-written value, gradient and Hessian of [`m::six_closed`].
pub fn six_hand(x: &[f64], g: &mut [f64; 6], h: &mut [[f64; 6]; 6]) -> f64 {
    let [a, b, c, d, e, f] = arr6(x);
    let p = a * b + c;
    let (sp, cp) = p.sin_cos();
    let eq = (e - f).exp();
    let r = 1.0 + a * a + f * f;
    let (ir, ir2) = (1.0 / r, 1.0 / (r * r));
    *g = [
        cp * b + 2.0 * a * ir,
        cp * a,
        cp,
        eq,
        d * eq,
        -d * eq + 2.0 * f * ir,
    ];
    let dp = [b, a, 1.0, 0.0, 0.0, 0.0];
    for i in 0..6 {
        for j in 0..6 {
            h[i][j] = -sp * dp[i] * dp[j];
        }
    }
    h[0][1] += cp;
    h[1][0] += cp;
    h[3][4] += eq;
    h[4][3] += eq;
    h[3][5] -= eq;
    h[5][3] -= eq;
    h[4][4] += d * eq;
    h[4][5] -= d * eq;
    h[5][4] -= d * eq;
    h[5][5] += d * eq;
    h[0][0] += 2.0 * ir - 4.0 * a * a * ir2;
    h[0][5] -= 4.0 * a * f * ir2;
    h[5][0] -= 4.0 * a * f * ir2;
    h[5][5] += 2.0 * ir - 4.0 * f * f * ir2;
    sp + d * eq + r.ln()
}

/// [`m::six_closed`] on the peers' scalars.
pub fn six_peer<T: PeerNum>(p: &[T]) -> T {
    let (a, b, c, d, e, f) = (p[0], p[1], p[2], p[3], p[4], p[5]);
    (a * b + c).sin() + d * (e - f).exp() + (a * a + f * f).shift(1.0).ln()
}

/// A 6-input closed-form Hessian at 10 000 points, one call each.
fn six() -> Workload {
    let mut rng = Rng::new(6);
    let pts = rng.vec(6 * CALLS, -1.0, 1.0);
    let hand_out = ([0.0; 6], [[0.0; 6]; 6]);
    let hand_dense = |o: &([f64; 6], [[f64; 6]; 6])| -> Vec<f64> {
        o.0.iter().chain(o.1.iter().flatten()).copied().collect()
    };
    let hess = || (vec![0.0; 6], vec![vec![0.0; 6]; 6]);
    Checked::new("hessian_six", 6, pts, 6, |p| m::six_closed(arr6(p)))
        .hand(hand_out, |p, o| six_hand(p, &mut o.0, &mut o.1), hand_dense)
        .variant_part(
            GRAD,
            0..6,
            None,
            returned(|p: &[f64]| m::six_closed_grad(arr6(p))),
            returned_dense,
        )
        .variant(
            HESSIAN,
            hess(),
            |p, o| {
                let (v, g, h) = m::six_closed_hessian(arr6(p));
                *o = (g.to_vec(), h);
                v
            },
            hess_dense,
        )
        .variant_part(
            NUM_DUAL,
            6..42,
            vec![vec![0.0; 6]; 6],
            |p, h| num_dual_hessian::<6>(six_peer::<NumDual2<6>>, p, h),
            dense_rows,
        )
        .variant(
            ECHIDNA_HESSIAN,
            hess(),
            |p, o| {
                let (v, g, h) = echidna::hessian_vec::<f64, 8>(six_peer::<EchidnaBytecode>, p);
                *o = (g, h);
                v
            },
            hess_dense,
        )
        .build()
}

/// Dense Jacobian of one tanh layer, 50 → 50 (the classic suite's `jacobian` layer).
fn jacobian_layer() -> Workload {
    let n = layer::N;
    let mut rng = Rng::new(5);
    let scale = 1.0 / (n as f64).sqrt();
    let l = Rc::new(Layer {
        w: (0..n).map(|_| rng.vec(n, -scale, scale)).collect(),
        b: rng.vec(n, -0.5, 0.5),
    });
    let x = rng.vec(n, -1.0, 1.0);
    let (l0, l1, l2, l3, l4) = (l.clone(), l.clone(), l.clone(), l.clone(), l);
    let jac = || vec![vec![0.0; n]; n];
    // The whole output escapes: else, with LTO, only its first entry need be computed.
    Checked::new("jacobian_layer", n, x, n, move |x| {
        black_box(fazang_bench_models::layer(x, &l0.w, &l0.b))[0]
    })
    .hand(jac(), move |x, j| layer::layer_hand(x, &l1, j), dense_rows)
    .variant(
        JACOBIAN,
        jac(),
        move |x, j| {
            let (v, rows) = layer_jacobian(x, &l2.w, &l2.b);
            *j = rows;
            v[0]
        },
        dense_rows,
    )
    .variant(
        NUM_DUAL,
        jac(),
        move |x, j| num_dual_jacobian::<{ layer::N }>(|x| layer::layer_peer(x, &l3), x, j),
        dense_rows,
    )
    .variant(
        ECHIDNA,
        jac(),
        move |x, j| {
            let (v, rows) = echidna::jacobian(|x| layer::layer_peer_dual(x, &l4), x);
            *j = rows;
            v[0]
        },
        dense_rows,
    )
    .build()
}
