//! The one loop every density runs: Stan's operands-and-partials.
//!
//! A density supplies a *kernel*, the log density of element `i` and its partials with
//! respect to each argument, computed on `f64`. [`density`] sums the kernel over the
//! elements and records one result with the partials of the active arguments:
//!
//! - a scalar argument's partial is accumulated over the elements and pushed once;
//! - a sequence argument gets one partial per element, pushed straight into the
//!   [`Partials`] (a second walk over the elements, only when such an argument is active);
//! - on `f64` results, or for `f64` arguments, no partial is asked for.
//!
//! [`Hoist`] computes terms that depend on one parameter (`ln σ`, `1/σ`, `ln Γ(α)`) once
//! per call when the parameter is a scalar, per element when it is a sequence.

use super::args::{is_active, Arg, Args};
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

/// Σᵢ `kernel(i)` over `n` elements, recorded as one result of type `R` with the summed
/// partials of the active arguments in `ops`.
#[inline(always)]
pub(crate) fn density<O: Args, const K: usize>(
    n: usize,
    ops: O,
    kernel: impl Fn(usize, Need<K>) -> (f64, [f64; K]),
) -> O::Ret {
    // Checked by the caller (`check_consistent_sizes`); stating it lets the compiler drop
    // the bounds checks of the element loop.
    assert!(
        ops.lengths_are(n),
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
    // Four interleaved sums: the additions of consecutive elements do not wait on each
    // other (the loop is bound by throughput, not by the latency of one chain).
    let mut lp4 = [0.0; LANES];
    let mut acc4 = [[0.0; K]; LANES];
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
    let acc: [f64; K] =
        std::array::from_fn(|k| (acc4[0][k] + acc4[1][k]) + (acc4[2][k] + acc4[3][k]));
    O::Ret::from_partials(logp, |p| {
        if vectors.d.contains(&true) {
            for i in 0..n {
                let (_, d) = kernel(i, vectors);
                for (k, &dk) in d.iter().enumerate() {
                    if vectors.d[k] {
                        ops.push(p, k, i, dk);
                    }
                }
            }
        }
        for (k, &a) in acc.iter().enumerate() {
            if scalars.d[k] {
                ops.push(p, k, 0, a);
            }
        }
    })
}

/// (Σᵢ f(i), Σᵢ f(i)²) over `n` elements, in interleaved partial sums.
#[inline(always)]
pub(crate) fn sum_and_squares(n: usize, f: impl Fn(usize) -> f64) -> (f64, f64) {
    let mut s1 = [0.0; LANES];
    let mut s2 = [0.0; LANES];
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

/// Terms `f(x)` of a parameter `x`: computed once if `x` is a scalar, per element if a
/// sequence.
pub(crate) struct Hoist<A, T, F> {
    arg: A,
    fixed: T,
    f: F,
}

impl<A: Arg, T: Copy + Default, F: Fn(f64) -> T> Hoist<A, T, F> {
    /// Precompute `f` for a scalar `arg`.
    #[inline(always)]
    pub(crate) fn new(arg: A, f: F) -> Self {
        let fixed = if A::VECTOR {
            T::default()
        } else {
            f(arg.value(0))
        };
        Hoist { arg, fixed, f }
    }

    /// `f(arg[i])`.
    #[inline(always)]
    pub(crate) fn at(&self, i: usize) -> T {
        if A::VECTOR {
            (self.f)(self.arg.value(i))
        } else {
            self.fixed
        }
    }
}

/// Terms `f(x, y)` of two parameters: computed once if both are scalars.
pub(crate) struct Hoist2<A, B, T, F> {
    a: A,
    b: B,
    fixed: T,
    f: F,
}

impl<A: Arg, B: Arg, T: Copy + Default, F: Fn(f64, f64) -> T> Hoist2<A, B, T, F> {
    /// Precompute `f` when both arguments are scalars.
    #[inline(always)]
    pub(crate) fn new(a: A, b: B, f: F) -> Self {
        let fixed = if A::VECTOR || B::VECTOR {
            T::default()
        } else {
            f(a.value(0), b.value(0))
        };
        Hoist2 { a, b, fixed, f }
    }

    /// `f(a[i], b[i])`.
    #[inline(always)]
    pub(crate) fn at(&self, i: usize) -> T {
        if A::VECTOR || B::VECTOR {
            (self.f)(self.a.value(i), self.b.value(i))
        } else {
            self.fixed
        }
    }
}
