//! The drivers of `name_jacobian_sparse` and `name_hessian_sparse`: fingerprint the
//! body's expressions, find (or detect, colour and keep) the plan, then compute the
//! compressed derivative with one tangent lane per colour and read the entries out.
//!
//! The generated code hands each driver closures that run the body on one scalar each,
//! seeding the active parameters through a seeder (so the drivers never see the
//! parameters' shapes):
//!
//! - `fingerprint` on [`Probe<Fingerprint>`] (values and expression hashes: the cache
//!   key);
//! - `detect` on [`Probe<Record>`] (only when no plan is kept for the key);
//! - the compressed evaluation: `lanes` on `Dual<f64, [f64; K]>` (Jacobians; one pass
//!   per `K` colours), `hvp` on [`HvpLanesScalar`] (Hessians; forward-over-reverse on a
//!   tape of its own, one pass per [`HVP_LANES`] colours). Any code that returns the same numbers can take
//!   their place (generated tangent code, say): a lane's seed is the sum of the unit
//!   directions of its colour ([`LaneSeeder::direction`], [`HvpLanes::direction`]).

use super::fwdrev::{self, FwdRev, HVP_LANES};
use super::pattern;
use super::plan::{Key, Plan, SparseCache};
use super::probe::{Fingerprint, Kind, Mode, Probe, Record};
use crate::forward::Dual;
use crate::support::jvp_hessian::Seed;
use std::marker::PhantomData;

/// Triplets `(row, column, value)`, sorted by row then column, without repeats.
pub type Triplets = Vec<(usize, usize, f64)>;

/// Seeds the active parameters as [`Probe`]s: input `i` (in parameter order, flattened)
/// is independent variable `i`.
pub struct ProbeSeeder<M: Mode> {
    next: usize,
    mode: PhantomData<M>,
}

impl<M: Mode> ProbeSeeder<M> {
    /// A seeder whose first input is number 0.
    pub fn new() -> Self {
        ProbeSeeder {
            next: 0,
            mode: PhantomData,
        }
    }

    /// A parameter as probes, numbering its inputs after those of earlier parameters.
    pub fn seed<P: Seed + ?Sized>(&mut self, p: &P) -> P::Of<Probe<M>> {
        let next = &mut self.next;
        p.seed(&mut |x| {
            *next += 1;
            Probe::input(x, *next - 1)
        })
    }
}

impl<M: Mode> Default for ProbeSeeder<M> {
    fn default() -> Self {
        Self::new()
    }
}

/// Seeds the active parameters of one compressed Jacobian pass: lane `l` of input `j`
/// is 1 if `j` has colour `first + l`, else 0.
pub struct LaneSeeder<'a, const K: usize> {
    colour: &'a [u32],
    first: usize,
    next: usize,
}

impl<const K: usize> LaneSeeder<'_, K> {
    /// The tangent lanes of input `j` in this pass.
    pub fn direction(&self, j: usize) -> [f64; K] {
        lane_seed(self.colour, self.first, j, 0.0, 1.0)
    }

    /// A parameter as dual numbers seeded for this pass.
    pub fn seed<P: Seed + ?Sized>(&mut self, p: &P) -> P::Of<Dual<f64, [f64; K]>> {
        let (colour, first, next) = (self.colour, self.first, &mut self.next);
        p.seed(&mut |x| {
            *next += 1;
            Dual::new(x, lane_seed(colour, first, *next - 1, 0.0, 1.0))
        })
    }
}

/// `K` lanes, `one` in the lane of input `j`'s colour if this pass has it, else `zero`.
fn lane_seed<T: Copy, const K: usize>(
    colour: &[u32],
    first: usize,
    j: usize,
    zero: T,
    one: T,
) -> [T; K] {
    let c = colour.get(j).map_or(usize::MAX, |&c| c as usize);
    // Built lane by lane (not written into a zeroed array): no store-forwarding stall.
    std::array::from_fn(|l| if c == first + l { one } else { zero })
}

/// The lanes of a compressed Jacobian pass.
pub const JACOBIAN_LANES: usize = 4;

/// The scalar of a compressed Hessian pass: forward-over-reverse, a tangent lane per
/// colour ([`FwdRev`]).
pub type HvpLanesScalar = FwdRev;

/// Seeds the active parameters of one compressed Hessian pass: new variables on the
/// pass's forward-over-reverse tape, lane `l` of input `j` being 1 if `j` has colour
/// `first + l`.
pub struct HvpLanes<'a> {
    colour: &'a [u32],
    first: usize,
    inputs: Vec<FwdRev>,
}

impl HvpLanes<'_> {
    /// The tangent lanes of input `j` in this pass.
    pub fn direction(&self, j: usize) -> [f64; HVP_LANES] {
        lane_seed(self.colour, self.first, j, 0.0, 1.0)
    }

    /// A parameter as [`HvpLanesScalar`]s seeded for this pass.
    pub fn seed<P: Seed + ?Sized>(&mut self, p: &P) -> P::Of<HvpLanesScalar> {
        let (colour, first, inputs) = (self.colour, self.first, &mut self.inputs);
        p.seed(&mut |x| {
            let t = lane_seed(colour, first, inputs.len(), 0.0, 1.0);
            let v = FwdRev::input(x, t);
            inputs.push(v);
            v
        })
    }
}

/// The key of the outputs a fingerprint run gave.
fn key_of(n: usize, outs: &[u64]) -> Key {
    Key::new(n, outs.iter().copied())
}

/// The fingerprints of the outputs `outs` of a recorded graph, recomputed from the
/// graph: they must be the fingerprint run's.
fn check_same_expressions(g: &pattern::Graph, n: usize, outs: &[u64], key: Key) {
    let hashes = g.fingerprints(|kind, ops| match kind {
        Kind::Input => Fingerprint::input(ops[0] as usize),
        _ => Fingerprint::node(kind, ops),
    });
    let fp: Vec<u64> = outs
        .iter()
        .map(|&h| if h == 0 { 0 } else { hashes[h as usize - 1] })
        .collect();
    assert!(
        key_of(n, &fp) == key,
        "fazang: a #[differentiate(sparse)] function computed different operations in two \
         runs at the same input, so its sparsity pattern cannot be trusted; does its body \
         read state that changes between calls (a counter, a random number generator)?"
    );
}

/// Value and sparse Jacobian of the function the closures run (see the module
/// documentation): `(values, triplets)`, the outputs flattened. `n` is the number of
/// active inputs.
///
/// ```
/// use fazang::__private::{jacobian_sparse, SparseCache};
/// use fazang::prelude::*;
///
/// fn f<S: Real>(x: &[S]) -> Vec<S> {
///     x.windows(2).map(|w| w[0] * w[1]).collect()
/// }
/// static CACHE: SparseCache = SparseCache::new();
/// let x = [1.0, 2.0, 3.0];
/// let (v, jac) = jacobian_sparse::<std::convert::Infallible, 4>(
///     &CACHE,
///     3,
///     |s| Ok(f(&s.seed(&x[..]))),
///     |s| Ok(f(&s.seed(&x[..]))),
///     |s| Ok(f(&s.seed(&x[..]))),
/// )
/// .unwrap();
/// assert_eq!(v, vec![2.0, 6.0]);
/// assert_eq!(jac, vec![(0, 0, 2.0), (0, 1, 1.0), (1, 1, 3.0), (1, 2, 2.0)]);
/// ```
pub fn jacobian_sparse<E, const K: usize>(
    cache: &SparseCache,
    n: usize,
    fingerprint: impl FnOnce(&mut ProbeSeeder<Fingerprint>) -> Result<Vec<Probe<Fingerprint>>, E>,
    detect: impl FnOnce(&mut ProbeSeeder<Record>) -> Result<Vec<Probe<Record>>, E>,
    mut lanes: impl FnMut(&mut LaneSeeder<'_, K>) -> Result<Vec<Dual<f64, [f64; K]>>, E>,
) -> Result<(Vec<f64>, Triplets), E> {
    let hs: Vec<u64> = fingerprint(&mut ProbeSeeder::new())?
        .iter()
        .map(Probe::handle)
        .collect();
    let key = key_of(n, &hs);
    let plan = match cache.get(key) {
        Some(p) => p,
        None => {
            let (outs, g) = pattern::record(|| detect(&mut ProbeSeeder::new()));
            let outs: Vec<u64> = outs?.iter().map(Probe::handle).collect();
            check_same_expressions(&g, n, &outs, key);
            let rows = pattern::jacobian_rows(&g, &outs);
            cache.insert(key, Plan::jacobian(rows, n))
        }
    };
    let (k, m) = (plan.colours(), plan.rows);
    let mut b = vec![0.0; m * k];
    let mut values = Vec::new();
    for first in (0..k.max(1)).step_by(K) {
        let mut seeder = LaneSeeder {
            colour: &plan.colouring.colour,
            first,
            next: 0,
        };
        let out = lanes(&mut seeder)?;
        assert_eq!(
            out.len(),
            m,
            "fazang internal error: outputs changed between runs"
        );
        for (r, y) in out.iter().enumerate() {
            for (l, &d) in y.eps.iter().enumerate().take(k.saturating_sub(first)) {
                b[r * k + first + l] = d;
            }
        }
        if first == 0 {
            values = out.iter().map(|y| y.re).collect();
        }
    }
    Ok((values, plan.triplets(&b)))
}

/// Value, gradient (flat) and sparse Hessian of the scalar function the closures run
/// (see the module documentation). `n` is the number of active inputs.
///
/// ```
/// use fazang::__private::{hessian_sparse, SparseCache};
/// use fazang::prelude::*;
///
/// fn f<S: Real>(x: &[S]) -> S {
///     x.windows(2).map(|w| w[0] * w[1]).sum()
/// }
/// static CACHE: SparseCache = SparseCache::new();
/// let x = [1.0, 2.0, 3.0];
/// let (v, g, h) = hessian_sparse::<std::convert::Infallible>(
///     &CACHE,
///     3,
///     |s| Ok(f(&s.seed(&x[..]))),
///     |s| Ok(f(&s.seed(&x[..]))),
///     |s| Ok(f(&s.seed(&x[..]))),
/// )
/// .unwrap();
/// assert_eq!((v, g), (8.0, vec![2.0, 4.0, 2.0]));
/// assert_eq!(h, vec![(0, 1, 1.0), (1, 0, 1.0), (1, 2, 1.0), (2, 1, 1.0)]);
/// ```
pub fn hessian_sparse<E>(
    cache: &SparseCache,
    n: usize,
    fingerprint: impl FnOnce(&mut ProbeSeeder<Fingerprint>) -> Result<Probe<Fingerprint>, E>,
    detect: impl FnOnce(&mut ProbeSeeder<Record>) -> Result<Probe<Record>, E>,
    mut hvp: impl FnMut(&mut HvpLanes<'_>) -> Result<HvpLanesScalar, E>,
) -> Result<(f64, Vec<f64>, Triplets), E> {
    let plan = hessian_plan(cache, n, fingerprint, detect)?;
    let k = plan.colours();
    let mut b = vec![0.0; n * k];
    let (mut value, mut grad) = (f64::NAN, vec![0.0; n]);
    let mut g = vec![0.0; n];
    let mut lanes = vec![[0.0; HVP_LANES]; n];
    for first in (0..k.max(1)).step_by(HVP_LANES) {
        let v = fwdrev::on_tape(|| {
            let mut s = HvpLanes {
                colour: &plan.colouring.colour,
                first,
                inputs: Vec::with_capacity(n),
            };
            let y = hvp(&mut s)?;
            assert_eq!(
                s.inputs.len(),
                n,
                "fazang internal error: inputs changed between runs"
            );
            fwdrev::sweep(y, &s.inputs, &mut g, &mut lanes);
            Ok(y.value())
        })?;
        if first == 0 {
            value = v;
            grad.copy_from_slice(&g);
        }
        for (i, row) in lanes.iter().enumerate() {
            for (l, &d) in row.iter().enumerate().take(k.saturating_sub(first)) {
                b[i * k + first + l] = d;
            }
        }
    }
    Ok((value, grad, plan.triplets(&b)))
}

/// The plan of a sparse Hessian: from the cache when the fingerprint run's outputs are
/// known, else detected (the pattern of the recorded graph, coloured) and cached.
pub(super) fn hessian_plan<E>(
    cache: &SparseCache,
    n: usize,
    fingerprint: impl FnOnce(&mut ProbeSeeder<Fingerprint>) -> Result<Probe<Fingerprint>, E>,
    detect: impl FnOnce(&mut ProbeSeeder<Record>) -> Result<Probe<Record>, E>,
) -> Result<std::sync::Arc<Plan>, E> {
    let key = key_of(n, &[fingerprint(&mut ProbeSeeder::new())?.handle()]);
    Ok(match cache.get(key) {
        Some(p) => p,
        None => {
            let (out, g) = pattern::record(|| detect(&mut ProbeSeeder::new()));
            let out = out?.handle();
            check_same_expressions(&g, n, &[out], key);
            cache.insert(key, Plan::hessian(pattern::hessian_rows(&g, out, n)))
        }
    })
}

/// The tangent lanes of input `j` in the pass whose first colour is `first`.
pub(super) fn colour_lanes<const K: usize>(colour: &[u32], first: usize, j: usize) -> [f64; K] {
    lane_seed(colour, first, j, 0.0, 1.0)
}

impl<M: Mode> crate::support::jvp_hessian::Flatten<Probe<M>> for Probe<M> {
    fn flatten_into(self, out: &mut Vec<Probe<M>>) {
        out.push(self);
    }
}

/// A vector result of any shape, flattened row-major.
///
/// ```
/// let v: Vec<fazang::Dual> = fazang::__private::flat(vec![[fazang::Dual::new(1.0, 0.0)]]);
/// assert_eq!(v.len(), 1);
/// ```
pub fn flat<T, F: crate::support::jvp_hessian::Flatten<T>>(y: F) -> Vec<T> {
    let mut out = Vec::new();
    y.flatten_into(&mut out);
    out
}
