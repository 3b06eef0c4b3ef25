//! The 2-layer perceptron of the `gradients` suite: `fazang_bench_models::user_grad::mlp_loss`
//! (weights in one flat vector, split by `split_at`, rows by `chunks_exact`), its
//! hand-written back-propagation, and the same body on the peers' scalars.

use super::{gradient_workload, GradFns};
use crate::data::Rng;
use crate::peers::{num_dual_gradient, Echidna, PeerNum};
use crate::Workload;
use fazang_bench_models::user_grad as m;
use std::rc::Rc;

/// Features per row.
pub const D: usize = 8;
/// Hidden units.
pub const H: usize = 16;
/// Rows.
pub const ROWS: usize = 200;
/// Parameters: W₁ (H × D), b₁ (H), w₂ (H), b₂.
pub const P: usize = H * D + 2 * H + 1;

/// The data (row-major features, targets) and the weights.
pub struct Data {
    /// `ROWS × D`, row-major.
    pub x: Vec<f64>,
    /// Targets.
    pub y: Vec<f64>,
}

fn data() -> (Data, Vec<f64>) {
    let mut rng = Rng::new(12);
    let x: Vec<f64> = (0..ROWS * D).map(|_| rng.normal()).collect();
    let y = x
        .chunks_exact(D)
        .map(|r| r[0].sin() + 0.5 * r[1] * r[2] + 0.1 * rng.normal())
        .collect();
    let w = (0..P).map(|_| rng.range(-0.4, 0.4)).collect();
    (Data { x, y }, w)
}

/// Hand-written back-propagation; returns the loss.
pub fn mlp_hand(params: &[f64], x: &[f64], y: &[f64], g: &mut [f64]) -> f64 {
    let (w1, rest) = params.split_at(H * D);
    let (b1, rest) = rest.split_at(H);
    let (w2, b2) = rest.split_at(H);
    g.iter_mut().for_each(|v| *v = 0.0);
    let (gw1, rest) = g.split_at_mut(H * D);
    let (gb1, rest) = rest.split_at_mut(H);
    let (gw2, gb2) = rest.split_at_mut(H);
    let mut a = [0.0; H];
    let mut loss = 0.0;
    for (xi, &yi) in x.chunks_exact(D).zip(y) {
        let mut out = b2[0];
        for (k, (row, b)) in w1.chunks_exact(D).zip(b1).enumerate() {
            let z: f64 = row.iter().zip(xi).map(|(w, v)| w * v).sum::<f64>() + b;
            a[k] = z.tanh();
            out += w2[k] * a[k];
        }
        let r = out - yi;
        loss += 0.5 * r * r;
        gb2[0] += r;
        for k in 0..H {
            gw2[k] += r * a[k];
            let delta = r * w2[k] * (1.0 - a[k] * a[k]);
            gb1[k] += delta;
            for (gw, v) in gw1[k * D..(k + 1) * D].iter_mut().zip(xi) {
                *gw += delta * v;
            }
        }
    }
    let n = y.len() as f64;
    g.iter_mut().for_each(|v| *v /= n);
    loss / n
}

/// [`m::mlp_loss`] on the peers' scalars.
pub fn mlp_peer<T: PeerNum>(params: &[T], x: &[f64], y: &[f64]) -> T {
    let (w1, rest) = params.split_at(H * D);
    let (b1, rest) = rest.split_at(H);
    let (w2, b2) = rest.split_at(H);
    let mut loss = T::cst(0.0);
    for (xi, &yi) in x.chunks_exact(D).zip(y) {
        let mut out = b2[0];
        for ((row, &b), &v) in w1.chunks_exact(D).zip(b1).zip(w2) {
            let mut z = b;
            for (&w, &xv) in row.iter().zip(xi) {
                z = z + w.scale(xv);
            }
            out = out + v * z.tanh();
        }
        let r = out.shift(-yi);
        loss = loss + (r * r).scale(0.5);
    }
    loss.scale(1.0 / y.len() as f64)
}

/// A 2-layer perceptron, 8 → 16 (tanh) → 1, 161 weights, squared error over 200 rows.
pub fn workload() -> Workload {
    let (d, w) = data();
    let d = Rc::new(d);
    let c = |d: &Rc<Data>| d.clone();
    let (d0, d1, d2, d3, d4, d5, d6) = (c(&d), c(&d), c(&d), c(&d), c(&d), c(&d), d);
    gradient_workload(
        "mlp",
        w,
        P,
        GradFns {
            primal: move |p: &[f64]| m::mlp_loss(p, &d0.x, &d0.y, D, H),
            hand: move |p: &[f64], g: &mut [f64]| mlp_hand(p, &d1.x, &d1.y, g),
            grad: move |p: &[f64]| m::mlp_loss_grad(p, &d2.x, &d2.y, D, H),
            grad_into: move |p: &[f64], g: &mut [f64]| {
                m::mlp_loss_grad_into(p, &d3.x, &d3.y, D, H, g)
            },
            tape: move |p: &[f64]| m::__mlp_loss_grad_tape(p, &d4.x, &d4.y, D, H),
            num_dual: move |p: &[f64], g: &mut [f64]| {
                num_dual_gradient::<P>(|p| mlp_peer(p, &d5.x, &d5.y), p, g)
            },
            echidna: move |p: &[Echidna]| mlp_peer(p, &d6.x, &d6.y),
        },
    )
}
