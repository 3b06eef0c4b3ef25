//! Sparse Jacobians and Hessians: what `#[differentiate(sparse)]` generates
//! `name_jacobian_sparse` and `name_hessian_sparse` with, and how to turn their triplets
//! into the sparse matrices of the Rust ecosystem.
//!
//! A sparse derivative is computed in three steps:
//!
//! 1. **Detection.** The body runs once on a scalar that records which operations it
//!    executes (`probe`, `pattern`): the Jacobian's pattern is the inputs each output
//!    depends on; the Hessian's, the pairs of inputs that the nonlinear operations the
//!    output depends on couple (SparseConnectivityTracer.jl's rules). The pattern is that
//!    of the operations executed at this input: branches taken decide it.
//! 2. **Colouring.** The pattern is coloured (`colour`): distance-2 colouring of a
//!    Jacobian's columns, star colouring of a Hessian (Gebremedhin, Manne and Pothen, as
//!    ColPack and SparseDiffTools do), so that a few directions (one per colour) give
//!    every entry (`plan`).
//! 3. **Compressed evaluation.** One tangent lane per colour: forward-mode dual numbers
//!    for a Jacobian, Hessian-vector products (forward-over-reverse on a tape of its own,
//!    `fwdrev`) for a Hessian; each entry is read from the compressed matrix (`driver`).
//!
//! Steps 1 and 2 are kept per generated function (a thread-safe cache) and redone only
//! when the body computes different expressions: every call first runs the body on a
//! scalar that hashes each value's expression (the kind of each operation and its
//! operands, Merkle-style), and the hash of the outputs is the cache key. A branch on
//! data or on an active value, a different index or length, anything that changes the
//! operations executed changes the key, so a kept pattern is only reused for the same
//! expressions.
//!
//! # Triplets into sparse matrices
//!
//! The generated functions return `Vec<(usize, usize, f64)>` (row, column, value), sorted
//! by row then column, both triangles for a Hessian. Each crate builds its matrices from
//! triplets:
//!
//! ```
//! let triplets = vec![(0, 0, 2.0), (0, 1, -1.0), (1, 0, -1.0), (1, 1, 2.0)];
//! // Dense, by hand:
//! let mut dense = vec![vec![0.0; 2]; 2];
//! for &(i, j, v) in &triplets {
//!     dense[i][j] = v;
//! }
//! assert_eq!(dense, vec![vec![2.0, -1.0], vec![-1.0, 2.0]]);
//! // nalgebra-sparse (feature `nalgebra-sparse`): fazang::sparse::coo_matrix(2, 2, &triplets)
//! // faer: SparseColMat::try_new_from_triplets(2, 2, &[Triplet::new(0, 0, 2.0), ..])
//! // sprs: TriMat::from_triplets((2, 2), rows, cols, vals).to_csc()
//! ```
//!
//! See `docs/sparse.md` for each crate in full.

pub(crate) mod colour;
pub(crate) mod driver;
pub(crate) mod fwdrev;
mod fwdrev_real;
pub(crate) mod hessian_lanes;
pub(crate) mod pattern;
pub(crate) mod plan;
pub(crate) mod probe;

#[cfg(feature = "nalgebra-sparse")]
mod convert;
#[cfg(feature = "nalgebra-sparse")]
pub use convert::coo_matrix;
