//! Decompositions and what is computed from them: [`cholesky`],
//! [`solve_lower_triangular`], [`log_determinant`] and [`log_determinant_spd`].

use super::{
    add_all, add_lower, check_square, lower_operands, operands, values, Entry, LinalgError,
};
use crate::tape::var::{nary_named, vector_named, Var};
use nalgebra::allocator::Allocator;
use nalgebra::{Cholesky, DMatrix, DefaultAllocator, Dim, Dyn, Matrix, OMatrix, RawStorage};

/// The Cholesky factor `L` (lower triangular, `L Lᵀ = A`) of a symmetric positive
/// definite matrix, read from its lower triangle as nalgebra's `Cholesky` reads it.
///
/// One lazy operation: the backward pass computes `S = L⁻ᵀ Φ(Lᵀ L̄) L⁻¹` (Φ takes the
/// lower triangle and halves the diagonal; Murray 2016, as Stan Math) with two triangular
/// solves, and gives each lower entry `Āᵢⱼ = Sᵢⱼ + Sⱼᵢ` (`Sᵢᵢ` on the diagonal).
///
/// Returns [`LinalgError::NotPositiveDefinite`] if the factor does not exist; panics if
/// `A` is not square.
///
/// ```
/// use fazang::prelude::*;
/// use fazang::linalg::cholesky;
/// use nalgebra::DMatrix;
/// // A = [[a, b], [b, c]]: L₂₂ = √(c - b²/a), so dL₂₂/da = b² / (2 a² L₂₂).
/// let (v, g) = gradient(
///     |p| {
///         let a = DMatrix::from_row_slice(2, 2, &[p[0], p[1], p[1], p[2]]);
///         cholesky(&a).unwrap()[(1, 1)]
///     },
///     &[4.0, 2.0, 5.0],
/// );
/// assert_eq!(v, 2.0);
/// assert!((g[0] - 4.0 / (2.0 * 16.0 * 2.0)).abs() < 1e-15);
/// ```
pub fn cholesky<T, D, C, S>(a: &Matrix<T, D, C, S>) -> Result<OMatrix<Var, D, D>, LinalgError>
where
    T: Entry,
    D: Dim,
    C: Dim,
    S: RawStorage<T, D, C>,
    DefaultAllocator: Allocator<D, D>,
{
    let n = a.nrows();
    check_square("cholesky", n, a.ncols());
    // Types spelled out: the `Allocator<D, D>` bound in scope would otherwise win inference.
    let l: DMatrix<f64> = Cholesky::<f64, Dyn>::new(values(a))
        .ok_or(LinalgError::NotPositiveDefinite {
            function: "cholesky",
        })?
        .unpack();
    let mut inputs = Vec::new();
    lower_operands(a, &mut inputs);
    let lower: Vec<f64> = (0..n)
        .flat_map(|j| (j..n).map(move |i| (i, j)))
        .map(|ij| l[ij])
        .collect();
    let outs = vector_named("cholesky", &inputs, &lower, move |ob, ib| {
        let mut lbar = DMatrix::zeros(n, n);
        let mut k = 0;
        for j in 0..n {
            for i in j..n {
                lbar[(i, j)] = ob[k];
                k += 1;
            }
        }
        let mut p = l.transpose() * lbar;
        for j in 0..n {
            p[(j, j)] *= 0.5;
            for i in 0..j {
                p[(i, j)] = 0.0;
            }
        }
        // S = L⁻ᵀ P L⁻¹ with L⁻¹ formed once: two matrix products run much faster than
        // n triangular solves per side.
        let linv = lower_inverse(&l);
        let st = linv.transpose() * (p * &linv);
        add_lower(&st, true, ib);
    });
    Ok(lower_matrix(a, n, outs))
}

/// `X = L⁻¹ B` for a lower triangular `L` (only its lower triangle is read), by forward
/// substitution, as one lazy operation: `B̄ = L⁻ᵀ X̄`, and `L̄ = -B̄ Xᵀ` on the lower
/// triangle (Stan's `mdivide_left_tri_low`).
///
/// Returns [`LinalgError::Singular`] if a diagonal entry of `L` is zero; panics unless `L`
/// is square with as many rows as `B`.
///
/// ```
/// use fazang::prelude::*;
/// use fazang::linalg::solve_lower_triangular;
/// use nalgebra::{DMatrix, DVector};
/// let l = DMatrix::from_row_slice(2, 2, &[2.0, 0.0, 1.0, 4.0]);
/// // x = L⁻¹ b; d(x₁ + x₂)/db = L⁻ᵀ [1, 1]
/// let (v, g) = gradient(|b| solve_lower_triangular(&l, &DVector::from_column_slice(b)).unwrap().sum(), &[2.0, 9.0]);
/// assert_eq!(v, 1.0 + 2.0);
/// assert_eq!(g, vec![0.375, 0.25]);
/// ```
pub fn solve_lower_triangular<A, B, D, C1, R2, C2, S1, S2>(
    l: &Matrix<A, D, C1, S1>,
    b: &Matrix<B, R2, C2, S2>,
) -> Result<OMatrix<Var, R2, C2>, LinalgError>
where
    A: Entry,
    B: Entry,
    D: Dim,
    C1: Dim,
    R2: Dim,
    C2: Dim,
    S1: RawStorage<A, D, C1>,
    S2: RawStorage<B, R2, C2>,
    DefaultAllocator: Allocator<R2, C2>,
{
    let n = l.nrows();
    check_square("solve_lower_triangular", n, l.ncols());
    assert_eq!(
        n,
        b.nrows(),
        "fazang: linalg::solve_lower_triangular of a {n}x{n} L and a B with {} rows",
        b.nrows()
    );
    let (lv, bv) = (values(l), values(b));
    let x: DMatrix<f64> =
        lv.solve_lower_triangular::<Dyn, Dyn, _>(&bv)
            .ok_or(LinalgError::Singular {
                function: "solve_lower_triangular",
            })?;
    let mut inputs = Vec::new();
    lower_operands(l, &mut inputs);
    let nl = inputs.len();
    operands(b, &mut inputs);
    let (r, c) = x.shape();
    let xs = x.as_slice().to_vec();
    let outs = vector_named("solve_lower_triangular", &inputs, &xs, move |ob, ib| {
        let mut bbar = DMatrix::from_column_slice(r, c, ob);
        lv.tr_solve_lower_triangular_mut(&mut bbar);
        if A::ACTIVE {
            add_lower(&(-(&bbar * x.transpose())), false, &mut ib[..nl]);
        }
        if B::ACTIVE {
            add_all(&bbar, &mut ib[nl..]);
        }
    });
    let (rg, cg) = b.shape_generic();
    Ok(OMatrix::from_iterator_generic(rg, cg, outs))
}

/// `ln |det A|` of a square matrix, through its LU decomposition, as one node with
/// partials `A⁻ᵀ` (Stan's `log_determinant`).
///
/// Returns [`LinalgError::Singular`] if `A` is singular; panics if it is not square.
///
/// ```
/// use fazang::prelude::*;
/// use fazang::linalg::log_determinant;
/// use nalgebra::DMatrix;
/// let (v, g) = gradient(|a| log_determinant(&DMatrix::from_column_slice(2, 2, a)).unwrap(), &[2.0, 0.0, 0.0, -4.0]);
/// assert_eq!(v, 8.0_f64.ln());
/// assert_eq!(g, vec![0.5, 0.0, 0.0, -0.25]);
/// ```
pub fn log_determinant<T, R, C, S>(a: &Matrix<T, R, C, S>) -> Result<Var, LinalgError>
where
    T: Entry,
    R: Dim,
    C: Dim,
    S: RawStorage<T, R, C>,
{
    check_square("log_determinant", a.nrows(), a.ncols());
    let singular = LinalgError::Singular {
        function: "log_determinant",
    };
    let lu = values(a).lu();
    let value: f64 = lu.u().diagonal().iter().map(|d| d.abs().ln()).sum();
    let inv = lu.try_inverse().ok_or(singular)?;
    if !value.is_finite() {
        return Err(singular);
    }
    let partials = inv.transpose();
    Ok(record_scalar("log_determinant", value, a, &partials))
}

/// `ln det A` of a symmetric positive definite matrix, read from its lower triangle,
/// through its Cholesky factor (`2 Σ ln Lᵢᵢ`), as one node with partials `A⁻¹` folded
/// onto the lower triangle (Stan's `log_determinant_spd`).
///
/// Returns [`LinalgError::NotPositiveDefinite`] if `A` is not positive definite; panics if
/// it is not square.
///
/// ```
/// use fazang::prelude::*;
/// use fazang::linalg::log_determinant_spd;
/// use nalgebra::DMatrix;
/// // d ln det / dA = A⁻¹; the off-diagonal entry below the diagonal gets both halves.
/// let (v, g) = gradient(|a| log_determinant_spd(&DMatrix::from_column_slice(2, 2, a)).unwrap(), &[2.0, 1.0, 1.0, 2.0]);
/// assert!((v - 3.0_f64.ln()).abs() < 1e-15);
/// let want = [2.0 / 3.0, -2.0 / 3.0, 0.0, 2.0 / 3.0];
/// assert!(g.iter().zip(want).all(|(g, w)| (g - w).abs() < 1e-15));
/// ```
pub fn log_determinant_spd<T, R, C, S>(a: &Matrix<T, R, C, S>) -> Result<Var, LinalgError>
where
    T: Entry,
    R: Dim,
    C: Dim,
    S: RawStorage<T, R, C>,
{
    let n = a.nrows();
    check_square("log_determinant_spd", n, a.ncols());
    let chol = Cholesky::<f64, Dyn>::new(values(a)).ok_or(LinalgError::NotPositiveDefinite {
        function: "log_determinant_spd",
    })?;
    let value = 2.0
        * chol
            .l_dirty()
            .diagonal()
            .iter()
            .map(|d| d.ln())
            .sum::<f64>();
    let inv = chol.inverse();
    let mut folded = DMatrix::zeros(n, n);
    for j in 0..n {
        folded[(j, j)] = inv[(j, j)];
        for i in j + 1..n {
            folded[(i, j)] = inv[(i, j)] + inv[(j, i)];
        }
    }
    Ok(record_scalar("log_determinant_spd", value, a, &folded))
}

/// The inverse of a lower triangular matrix with nonzero diagonal, column by column:
/// column j is zero above row j, so each is a forward substitution from row j down
/// (n³/6 multiply-adds, each an axpy over a contiguous column of `l`).
fn lower_inverse(l: &DMatrix<f64>) -> DMatrix<f64> {
    let n = l.nrows();
    let mut inv = DMatrix::zeros(n, n);
    for (j, x) in inv.as_mut_slice().chunks_exact_mut(n).enumerate() {
        x[j] = 1.0;
        for (k, lk) in l.as_slice().chunks_exact(n).enumerate().skip(j) {
            let xk = x[k] / lk[k];
            x[k] = xk;
            for (xi, li) in x[k + 1..].iter_mut().zip(&lk[k + 1..]) {
                *xi -= xk * li;
            }
        }
    }
    inv
}

/// One node: `value` with partial `partials[(i, j)]` for each entry `a[(i, j)]`.
fn record_scalar<T: Entry, R: Dim, C: Dim, S: RawStorage<T, R, C>>(
    name: &'static str,
    value: f64,
    a: &Matrix<T, R, C, S>,
    partials: &DMatrix<f64>,
) -> Var {
    if !T::ACTIVE {
        return Var::constant(value);
    }
    nary_named(
        name,
        value,
        a.iter().map(Entry::var).zip(partials.iter().copied()),
    )
}

/// The n×n matrix whose lower triangle is `lower` (column by column) and whose strict
/// upper triangle is zero, with `a`'s row dimension.
fn lower_matrix<T, D: Dim, C: Dim, S: RawStorage<T, D, C>>(
    a: &Matrix<T, D, C, S>,
    n: usize,
    lower: Vec<Var>,
) -> OMatrix<Var, D, D>
where
    DefaultAllocator: Allocator<D, D>,
{
    let (d, _) = a.shape_generic();
    let mut out = OMatrix::from_element_generic(d, d, Var::constant(0.0));
    let mut it = lower.into_iter();
    for j in 0..n {
        for i in j..n {
            out[(i, j)] = it.next().expect("one output per lower entry");
        }
    }
    out
}
