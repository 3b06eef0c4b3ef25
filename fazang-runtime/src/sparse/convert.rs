//! Triplets into nalgebra-sparse matrices (feature `nalgebra-sparse`).

use nalgebra_sparse::{CooMatrix, SparseFormatError};

/// The triplets `(row, column, value)` of a `_jacobian_sparse` or `_hessian_sparse` as an
/// `nrows × ncols` nalgebra-sparse [`CooMatrix`]; convert it with `CsrMatrix::from(&coo)`
/// or `CscMatrix::from(&coo)` (repeated entries would be summed; fazang's have none).
///
/// # Errors
///
/// `Err` if a triplet lies outside `nrows × ncols`.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// // `fazang::nalgebra_sparse` with fazang's feature `nalgebra-sparse`.
/// use fazang_runtime::nalgebra_sparse::CscMatrix;
///
/// #[differentiate(sparse)]
/// fn chain(x: &[f64]) -> f64 {
///     x.windows(2).map(|w| (w[1] - w[0]).powi(2)).sum::<f64>()
/// }
/// let x = [1.0, 2.0, 4.0];
/// let (_, _, h) = chain_hessian_sparse(&x);
/// let coo = fazang::sparse::coo_matrix(3, 3, &h).unwrap();
/// let csc = CscMatrix::from(&coo);
/// assert_eq!(csc.nnz(), 7);
/// assert_eq!(csc.get_entry(1, 1).unwrap().into_value(), 4.0);
/// ```
pub fn coo_matrix(
    nrows: usize,
    ncols: usize,
    triplets: &[(usize, usize, f64)],
) -> Result<CooMatrix<f64>, SparseFormatError> {
    let rows = triplets.iter().map(|t| t.0).collect();
    let cols = triplets.iter().map(|t| t.1).collect();
    let vals = triplets.iter().map(|t| t.2).collect();
    CooMatrix::try_from_triplets(nrows, ncols, rows, cols, vals)
}
