//! Parallel sums: Stan's `reduce_sum`, on rayon's thread pool, with results that do not
//! depend on the number of threads.
//!
//! A sum over a large data set (the log likelihood of a million rows) is cut into
//! consecutive chunks; `partial(chunk, start)` is evaluated on each, and the chunk sums
//! are combined by a fixed binary tree over the chunks (the left half's sum plus the
//! right half's, recursively). The chunk length depends only on the length of the data
//! and the grainsize, never on the thread count, and the tree's shape only on the number
//! of chunks, so the value (and, through [`reduce_sum_grad`](crate::support::reduce_sum_grad),
//! the gradient) is the same, bit for bit, on 1, 2 or 64 threads.
//!
//! # Which scalars run in parallel
//!
//! - `f64` (the primal of a `#[differentiate]` function): the chunks run on rayon's
//!   current pool (`ThreadPool::install` chooses one).
//! - The gradient code `#[differentiate]` generates for such a body calls the hidden
//!   primitive [`reduce_sum_grad`](crate::support::reduce_sum_grad): each chunk runs its
//!   forward and reverse sweep on its own thread into its own gradient buffer, and the
//!   buffers are combined by the same tree.
//! - [`Var`](crate::Var) and the forward-mode scalars: chunk by chunk on the calling
//!   thread, combined by the same tree. A closure capturing active values of the calling
//!   thread (its tape's variables, or forward numbers tied to its arenas) cannot record
//!   on another thread's tape, and a `Var` is only valid on its own thread; running such
//!   a closure elsewhere would panic. The result and its derivatives are still
//!   independent of the thread count.
//!
//! # Beyond one machine
//!
//! The same decomposition extends to a cluster: the chunking and the combination tree
//! are functions of the data length alone, so each node can evaluate a range of chunks
//! (value and gradient buffer), and the combination, done in the tree's order, gives the
//! same bits as on one machine. Only the transport (MPI, or a job queue) would change.
//!
//! # Example
//!
//! ```
//! use fazang::prelude::*;
//! let x: Vec<f64> = (0..1000).map(|i| (i as f64 * 0.01).sin()).collect();
//! let ss = reduce_sum(&x, 0, |chunk: &[f64], _start| chunk.iter().map(|v| v * v).sum::<f64>());
//! let serial: f64 = x.iter().map(|v| v * v).sum();
//! assert!((ss - serial).abs() < 1e-12);
//! // The same bits on any pool.
//! let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
//! let again = one.install(|| reduce_sum(&x, 0, |c: &[f64], _| c.iter().map(|v| v * v).sum::<f64>()));
//! assert_eq!(ss.to_bits(), again.to_bits());
//! ```

use crate::Real;
use std::any::{Any, TypeId};

/// The number of chunks the automatic grainsize aims at: enough to balance the load of
/// many threads, few enough that a chunk's fixed cost is nothing.
const AUTO_CHUNKS: usize = 256;

/// The shortest chunk the automatic grainsize makes.
const AUTO_MIN_CHUNK: usize = 64;

/// The length of the chunks for `n` elements and `grainsize` (`0`: automatic, from `n`
/// alone: ⌈n/256⌉, at least 64; 3907 for a million elements).
pub(crate) fn chunk_len(n: usize, grainsize: usize) -> usize {
    if grainsize > 0 {
        grainsize
    } else {
        n.div_ceil(AUTO_CHUNKS).max(AUTO_MIN_CHUNK)
    }
}

/// Σ `partial(chunk, start)` over consecutive chunks of `data` of at most `grainsize`
/// elements (`0`: chosen from `data.len()` alone), `start` being the index of the chunk's
/// first element; 0 for empty `data`. On `f64` the chunks run in parallel on rayon's
/// current thread pool; the chunk sums are combined by a fixed binary tree, so the result
/// is the same, bit for bit, for any number of threads (the automatic grainsize depends
/// on `data.len()` only). On active scalars (`Var`, forward-mode numbers) the chunks run
/// in order on the calling thread, combined by the same tree: a closure capturing the
/// calling thread's active values cannot record them on another thread's tape (a `Var`
/// is only valid on its own thread). The gradient code `#[differentiate]` generates for
/// such a body differentiates the chunks in parallel instead, each on its own thread, with
/// the same chunks and tree. The design and its measurements: `docs/bayes.md`.
///
/// Inside a `#[differentiate]` body the closure may read active values; its chunk of
/// data is a sub-slice, as with `data.chunks(grainsize)`.
///
/// # Example
///
/// A logistic regression log likelihood, over rows of data:
///
/// ```
/// use fazang::prelude::*;
/// let rows: Vec<(f64, [f64; 2])> = (0..500)
///     .map(|i| (f64::from(i % 2), [1.0, (i as f64 * 0.37).sin()]))
///     .collect();
/// let loglik = |beta: &[f64]| {
///     reduce_sum(&rows, 0, |chunk: &[(f64, [f64; 2])], _| {
///         chunk
///             .iter()
///             .map(|(y, x)| {
///                 let eta = beta[0] * x[0] + beta[1] * x[1];
///                 y * eta - eta.log1p_exp()
///             })
///             .sum::<f64>()
///     })
/// };
/// assert!(loglik(&[0.1, -0.3]) < 0.0);
/// ```
pub fn reduce_sum<T, S, F>(data: &[T], grainsize: usize, partial: F) -> S
where
    T: Sync,
    S: Real,
    F: Fn(&[T], usize) -> S + Sync,
{
    if data.is_empty() {
        return S::from(0.0);
    }
    let len = chunk_len(data.len(), grainsize);
    let chunks = data.len().div_ceil(len);
    let chunk = |c: usize| {
        let start = c * len;
        partial(&data[start..(start + len).min(data.len())], start)
    };
    if TypeId::of::<S>() == TypeId::of::<f64>() {
        // S is f64 (known after monomorphisation): the chunks run in parallel.
        let leaf = |c: usize| -> f64 {
            let v = chunk(c);
            *(&v as &dyn Any).downcast_ref::<f64>().expect("S is f64")
        };
        return S::from(tree_parallel(0, chunks, &leaf));
    }
    let leaves: Vec<S> = (0..chunks).map(chunk).collect();
    tree(&leaves)
}

/// The sum of `leaves` by the fixed binary tree: left half plus right half.
pub(crate) fn tree<S: Real>(leaves: &[S]) -> S {
    match leaves {
        [] => S::from(0.0),
        [x] => *x,
        _ => {
            let mid = leaves.len() / 2;
            tree(&leaves[..mid]) + tree(&leaves[mid..])
        }
    }
}

/// The tree sum of `leaf(c)` for chunks `lo..hi` (not empty), halves in parallel.
fn tree_parallel(lo: usize, hi: usize, leaf: &(impl Fn(usize) -> f64 + Sync)) -> f64 {
    if hi - lo == 1 {
        return leaf(lo);
    }
    let mid = lo + (hi - lo) / 2;
    let (a, b) = rayon::join(
        || tree_parallel(lo, mid, leaf),
        || tree_parallel(mid, hi, leaf),
    );
    a + b
}

/// Value and gradient of a sum over chunks of `data`, each chunk differentiated on its
/// own thread: `chunk(data_chunk, start, buf)` returns the chunk's value and *adds* its
/// gradient to `buf` (a zeroed buffer as long as `grad`, owned by that chunk). Values and
/// buffers are combined by the fixed tree of [`reduce_sum`] (same chunks for the same
/// `data.len()` and `grainsize`), and the total gradient is added to `grad`; the value is
/// returned. Bit-identical for any number of threads.
pub(crate) fn reduce_sum_grad<T, F>(data: &[T], grainsize: usize, grad: &mut [f64], chunk: F) -> f64
where
    T: Sync,
    F: Fn(&[T], usize, &mut [f64]) -> f64 + Sync,
{
    if data.is_empty() {
        return 0.0;
    }
    let len = chunk_len(data.len(), grainsize);
    let chunks = data.len().div_ceil(len);
    let n = grad.len();
    let leaf = |c: usize| {
        let start = c * len;
        let mut buf = vec![0.0; n];
        let v = chunk(&data[start..(start + len).min(data.len())], start, &mut buf);
        (v, buf)
    };
    let (value, total) = tree_grad(0, chunks, &leaf);
    for (g, t) in grad.iter_mut().zip(&total) {
        *g += t;
    }
    value
}

/// The tree combination of values and gradient buffers for chunks `lo..hi`.
fn tree_grad(
    lo: usize,
    hi: usize,
    leaf: &(impl Fn(usize) -> (f64, Vec<f64>) + Sync),
) -> (f64, Vec<f64>) {
    if hi - lo == 1 {
        return leaf(lo);
    }
    let mid = lo + (hi - lo) / 2;
    let ((va, mut ga), (vb, gb)) =
        rayon::join(|| tree_grad(lo, mid, leaf), || tree_grad(mid, hi, leaf));
    for (a, b) in ga.iter_mut().zip(&gb) {
        *a += b;
    }
    (va + vb, ga)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn automatic_chunks() {
        assert_eq!(chunk_len(1_000_000, 0), 3907);
        assert_eq!(chunk_len(100, 0), 64);
        assert_eq!(chunk_len(100, 10), 10);
    }

    #[test]
    fn tree_shapes_agree() {
        let leaf = |c: usize| (c as f64 + 0.1).ln();
        for chunks in 1..40 {
            let leaves: Vec<f64> = (0..chunks).map(leaf).collect();
            assert_eq!(
                tree(&leaves).to_bits(),
                tree_parallel(0, chunks, &leaf).to_bits()
            );
        }
    }
}
