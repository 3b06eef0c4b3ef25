//! `name_hessian_sparse` on the tangent of the generated adjoint code: each pass seeds
//! `K` colour groups as tangent lanes of `Dual<f64, [f64; K]>` and runs
//! `__name_adjoint_t` (forward over reverse, plain Rust), whose gradient lanes are the
//! compressed Hessian's columns. Used when the body has adjoint code whose tangent the
//! macro can write; other bodies take [`hessian_sparse`](super::driver::hessian_sparse)
//! (the same on the sparse driver's own forward-over-reverse tape).

use super::driver::{colour_lanes, hessian_plan, ProbeSeeder, Triplets};
use super::plan::SparseCache;
use super::probe::{Fingerprint, Probe, Record};
use crate::forward::Dual;
use crate::support::jvp_hessian::Seed;

/// Colour groups per pass of the generated forward-over-reverse code.
pub const COLOUR_LANES: usize = 4;

/// The seeder of one pass: input `j`'s tangent lane `l` is 1 when its colour is
/// `first + l`.
pub struct ColourLanes<'a, const K: usize> {
    colour: &'a [u32],
    first: usize,
    next: usize,
}

impl<const K: usize> ColourLanes<'_, K> {
    /// A parameter as dual numbers seeded for this pass (parameters in order).
    pub fn seed<P: Seed + ?Sized>(&mut self, p: &P) -> P::Of<Dual<f64, [f64; K]>> {
        let (colour, first, next) = (self.colour, self.first, &mut self.next);
        p.seed(&mut |x| {
            let d = Dual::new(x, colour_lanes::<K>(colour, first, *next));
            *next += 1;
            d
        })
    }
}

/// Value, gradient and Hessian triplets, the compressed Hessian computed by `lanes`:
/// given a pass's seeder, it returns the value and the flattened gradient buffers of
/// the generated adjoint code run on the seeded dual numbers.
///
/// # Panics
///
/// If `lanes` returns another number of gradient entries than `n` (a bug of the
/// generated code).
pub fn hessian_sparse_lanes<E, const K: usize>(
    cache: &SparseCache,
    n: usize,
    fingerprint: impl FnOnce(&mut ProbeSeeder<Fingerprint>) -> Result<Probe<Fingerprint>, E>,
    detect: impl FnOnce(&mut ProbeSeeder<Record>) -> Result<Probe<Record>, E>,
    mut lanes: impl FnMut(
        &mut ColourLanes<'_, K>,
    ) -> Result<(Dual<f64, [f64; K]>, Vec<Dual<f64, [f64; K]>>), E>,
) -> Result<(f64, Vec<f64>, Triplets), E> {
    let plan = hessian_plan(cache, n, fingerprint, detect)?;
    let k = plan.colours();
    let mut b = vec![0.0; n * k];
    let (mut value, mut grad) = (f64::NAN, vec![0.0; n]);
    for first in (0..k.max(1)).step_by(K) {
        let mut s = ColourLanes {
            colour: &plan.colouring.colour,
            first,
            next: 0,
        };
        let (v, g) = lanes(&mut s)?;
        assert_eq!(
            g.len(),
            n,
            "fazang internal error: the gradient of a sparse Hessian pass has {} entries, \
             not {n}",
            g.len()
        );
        if first == 0 {
            value = v.re;
            for (gi, d) in grad.iter_mut().zip(&g) {
                *gi = d.re;
            }
        }
        for (i, d) in g.iter().enumerate() {
            for (l, &e) in d.eps.iter().enumerate().take(k.saturating_sub(first)) {
                b[i * k + first + l] = e;
            }
        }
    }
    Ok((value, grad, plan.triplets(&b)))
}
