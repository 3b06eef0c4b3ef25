//! Operands and partials for the multivariate densities: the arguments read one
//! derivative order below the result into dense buffers, and one result recorded with the
//! partials of the active ones (the univariate families' [`Vals`], with whole buffers).

use crate::dist::args::{is_active, Args, Inner};
use crate::dist::kernel::Vals;
use crate::math::internals::RealInternals;
use crate::Real;

/// The arguments of a density (a tuple of [`Flat`](super::Flat) views and scalars).
pub(crate) struct Operands<O: Args> {
    x: Vals<O>,
}

impl<O: Args> Operands<O> {
    #[inline]
    pub(crate) fn new(ops: O) -> Self {
        // The context is a fold over every entry; for the scalars whose context is `()`
        // (all but nested forward numbers) there is nothing to fold, and a matrix's
        // entries need not be visited.
        if std::mem::size_of::<<O::Ret as crate::math::internals::RealInternals>::__Ctx>() == 0 {
            Operands {
                x: Vals {
                    ops,
                    ctx: Default::default(),
                },
            }
        } else {
            Operands { x: Vals::new(ops) }
        }
    }

    /// Whether argument `k` needs partials (the result is active and so is it).
    #[inline]
    pub(crate) fn needs(&self, k: usize) -> bool {
        is_active::<O::Ret>() && O::active()[k]
    }

    /// Argument `k`'s entries `0..len` (row-major), one order below the result.
    pub(crate) fn read(&self, k: usize, len: usize) -> Vec<Inner<O>> {
        (0..len).map(|i| self.x.get(k, i)).collect()
    }

    /// Entry `i` of argument `k` (a scalar argument ignores `i`), one order below the
    /// result.
    #[inline]
    pub(crate) fn read_at(&self, k: usize, i: usize) -> Inner<O> {
        self.x.get(k, i)
    }

    /// The result: `value`, with the partials `push` gives (`Push::all`, `Push::one`).
    pub(crate) fn record(&self, value: Inner<O>, push: impl FnOnce(&mut Push<'_, O>)) -> O::Ret {
        O::Ret::__from_partials_in(&self.x.ctx, value, |p| {
            push(&mut Push {
                ops: &self.x.ops,
                p,
            });
        })
    }
}

/// Collects the partials of one recorded result.
pub(crate) struct Push<'a, O: Args> {
    ops: &'a O,
    p: &'a mut crate::Partials<O::Ret, Inner<O>>,
}

impl<O: Args> Push<'_, O> {
    /// Partial `d` with respect to entry `i` of argument `k`.
    #[inline]
    pub(crate) fn one(&mut self, k: usize, i: usize, d: Inner<O>) {
        self.ops.push_in(self.p, k, i, d);
    }

    /// Partials `d[i]` with respect to every entry of argument `k`, if `d` is `Some`.
    pub(crate) fn all(&mut self, k: usize, d: Option<Vec<Inner<O>>>) {
        if let Some(d) = d {
            for (i, di) in d.into_iter().enumerate() {
                self.ops.push_in(self.p, k, i, di);
            }
        }
    }

    /// Partials of the lower triangle (diagonal included) of the `n × n` argument `k`.
    pub(crate) fn lower(&mut self, k: usize, n: usize, d: Option<Vec<Inner<O>>>) {
        if let Some(d) = d {
            for i in 0..n {
                for j in 0..=i {
                    self.ops.push_in(self.p, k, i * n + j, d[i * n + j]);
                }
            }
        }
    }
}

/// `Some(vec![0; len])` if `needed`.
pub(crate) fn zeros_if<T: Real>(needed: bool, len: usize) -> Option<Vec<T>> {
    needed.then(|| vec![T::from(0.0); len])
}
