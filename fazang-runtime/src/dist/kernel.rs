//! The one loop every density runs: Stan's operands-and-partials.
//!
//! A density supplies a *kernel*, the log density of element `i` and its partials with
//! respect to each argument, computed on the arguments one derivative order below the
//! result ([`Vals`]: `f64` for `f64` and `Var` results, so the first-order tape keeps its
//! `f64` kernels; the inner scalar for dual numbers and series, so that Hessians and
//! higher derivatives through a density are exact). [`density`] sums the kernel over the
//! elements and records one result with the partials of the active arguments:
//!
//! - a scalar argument's partial is accumulated over the elements and pushed once;
//! - a sequence argument gets one partial per element, pushed straight into the
//!   [`Partials`] (a second walk over the elements, only when such an argument is active);
//! - on `f64` results, or for `f64` arguments, no partial is asked for.
//!
//! [`Hoist`] computes terms that depend on one parameter (`ln σ`, `1/σ`, `ln Γ(α)`) once
//! per call when the parameter is a scalar, per element when it is a sequence.

use super::args::{is_active, Args, Inner};
use crate::math::internals::RealInternals;
use crate::Real;

/// What the kernel is asked for: the value, and the partial with respect to each argument.
///
/// Kernels may compute everything cheap unconditionally (the unused part is optimised
/// away) and test `d[k]` only for expensive terms (digamma).
#[derive(Clone, Copy)]
pub(crate) struct Need<const K: usize> {
    /// The log density term.
    pub value: bool,
    /// The partial with respect to argument `k`.
    pub d: [bool; K],
}

/// Number of interleaved partial sums in [`density`].
const LANES: usize = 4;

/// The arguments of a density, read one derivative order below the result: `f64` values
/// for `f64` and `Var` results (the first-order fast path), the inner scalar of a dual
/// number, a series one order lower. Kernels compute on these, so the partials of a
/// Hessian or of a Taylor series are exact.
pub(crate) struct Vals<O: Args> {
    pub(crate) ops: O,
    pub(crate) ctx: <O::Ret as RealInternals>::__Ctx,
}

impl<O: Args> Vals<O> {
    #[inline(always)]
    pub(crate) fn new(ops: O) -> Self {
        Vals {
            ctx: ops.ctx(),
            ops,
        }
    }

    /// Element `i` of argument `k`.
    #[inline(always)]
    pub(crate) fn get(&self, k: usize, i: usize) -> Inner<O> {
        self.ops.inner(&self.ctx, k, i)
    }

    /// Terms `f(x)` of argument `k`: computed once if it is a scalar, per element if a
    /// sequence.
    #[inline(always)]
    pub(crate) fn hoist<V: Copy + Default, F: Fn(Inner<O>) -> V>(
        &self,
        k: usize,
        f: F,
    ) -> Hoist<'_, O, V, F> {
        let vector = O::VECTOR[k];
        let fixed = if vector {
            V::default()
        } else {
            f(self.get(k, 0))
        };
        Hoist {
            x: self,
            k,
            vector,
            fixed,
            f,
        }
    }

    /// Terms `f(x, y)` of arguments `k` and `l`: computed once if both are scalars.
    #[inline(always)]
    pub(crate) fn hoist2<V: Copy + Default, F: Fn(Inner<O>, Inner<O>) -> V>(
        &self,
        k: usize,
        l: usize,
        f: F,
    ) -> Hoist2<'_, O, V, F> {
        let vector = O::VECTOR[k] || O::VECTOR[l];
        let fixed = if vector {
            V::default()
        } else {
            f(self.get(k, 0), self.get(l, 0))
        };
        Hoist2 {
            x: self,
            k,
            l,
            vector,
            fixed,
            f,
        }
    }
}

/// Σᵢ `kernel(i)` over `n` elements, recorded as one result with the summed partials of
/// the active arguments. The kernel computes on the arguments' inner parts (`x.get`).
#[inline(always)]
pub(crate) fn density<O: Args, const K: usize>(
    n: usize,
    x: &Vals<O>,
    kernel: impl Fn(usize, Need<K>) -> (Inner<O>, [Inner<O>; K]),
) -> O::Ret {
    // Checked by the caller (`check_consistent_sizes`); stating it lets the compiler drop
    // the bounds checks of the element loop.
    assert!(
        x.ops.lengths_are(n),
        "fazang: density arguments of inconsistent sizes"
    );
    let active: [bool; K] = if is_active::<O::Ret>() {
        let a = O::active();
        std::array::from_fn(|k| a[k])
    } else {
        [false; K]
    };
    let scalars = Need {
        value: true,
        d: std::array::from_fn(|k| active[k] && !O::VECTOR[k]),
    };
    let vectors = Need {
        value: false,
        d: std::array::from_fn(|k| active[k] && O::VECTOR[k]),
    };
    let zero = Inner::<O>::from(0.0);
    // Four interleaved sums: the additions of consecutive elements do not wait on each
    // other (the loop is bound by throughput, not by the latency of one chain).
    let mut lp4 = [zero; LANES];
    let mut acc4 = [[zero; K]; LANES];
    let mut add = |lane: usize, i: usize| {
        let (lp, d) = kernel(i, scalars);
        lp4[lane] += lp;
        for k in 0..K {
            if scalars.d[k] {
                acc4[lane][k] += d[k];
            }
        }
    };
    let full = n - n % LANES;
    for i in (0..full).step_by(LANES) {
        for lane in 0..LANES {
            add(lane, i + lane);
        }
    }
    for i in full..n {
        add(0, i);
    }
    let logp = (lp4[0] + lp4[1]) + (lp4[2] + lp4[3]);
    let acc: [Inner<O>; K] =
        std::array::from_fn(|k| (acc4[0][k] + acc4[1][k]) + (acc4[2][k] + acc4[3][k]));
    O::Ret::__from_partials_in(&x.ctx, logp, |p| {
        if vectors.d.contains(&true) {
            for i in 0..n {
                let (_, d) = kernel(i, vectors);
                for (k, &dk) in d.iter().enumerate() {
                    if vectors.d[k] {
                        x.ops.push_in(p, k, i, dk);
                    }
                }
            }
        }
        for (k, &a) in acc.iter().enumerate() {
            if scalars.d[k] {
                x.ops.push_in(p, k, 0, a);
            }
        }
    })
}

/// (Σᵢ f(i), Σᵢ f(i)²) over `n` elements, in interleaved partial sums.
#[inline(always)]
pub(crate) fn sum_and_squares<T: Real>(n: usize, f: impl Fn(usize) -> T) -> (T, T) {
    let zero = T::from(0.0);
    let mut s1 = [zero; LANES];
    let mut s2 = [zero; LANES];
    let full = n - n % LANES;
    for i in (0..full).step_by(LANES) {
        for lane in 0..LANES {
            let x = f(i + lane);
            s1[lane] += x;
            s2[lane] += x * x;
        }
    }
    for i in full..n {
        let x = f(i);
        s1[0] += x;
        s2[0] += x * x;
    }
    (
        (s1[0] + s1[1]) + (s1[2] + s1[3]),
        (s2[0] + s2[1]) + (s2[2] + s2[3]),
    )
}

/// Terms of one argument, hoisted out of the element loop when it is a scalar
/// ([`Vals::hoist`]).
pub(crate) struct Hoist<'a, O: Args, V, F> {
    x: &'a Vals<O>,
    k: usize,
    vector: bool,
    fixed: V,
    f: F,
}

impl<O: Args, V: Copy, F: Fn(Inner<O>) -> V> Hoist<'_, O, V, F> {
    /// `f(x[i])`.
    #[inline(always)]
    pub(crate) fn at(&self, i: usize) -> V {
        if self.vector {
            (self.f)(self.x.get(self.k, i))
        } else {
            self.fixed
        }
    }
}

/// Terms of two arguments, hoisted when both are scalars ([`Vals::hoist2`]).
pub(crate) struct Hoist2<'a, O: Args, V, F> {
    x: &'a Vals<O>,
    k: usize,
    l: usize,
    vector: bool,
    fixed: V,
    f: F,
}

impl<O: Args, V: Copy, F: Fn(Inner<O>, Inner<O>) -> V> Hoist2<'_, O, V, F> {
    /// `f(x[i], y[i])`.
    #[inline(always)]
    pub(crate) fn at(&self, i: usize) -> V {
        if self.vector {
            (self.f)(self.x.get(self.k, i), self.x.get(self.l, i))
        } else {
            self.fixed
        }
    }
}
