//! The decompositions on [`Var`]: each one fused node or lazy operation with its
//! analytic adjoint (the table of the module documentation), computed on `f64` values.

use super::{add_all, add_lower, lower_operands, operands, values, Entry, LinalgError};
use crate::tape::var::{nary_named, vector_named, Var};
use nalgebra::{Cholesky, DMatrix, Dyn};

/// `L` with `L Lᵀ = A` read from the lower triangle: one lazy operation whose backward
/// pass computes `S = L⁻ᵀ Φ(Lᵀ L̄) L⁻¹` (Φ takes the lower triangle and halves the
/// diagonal; Murray 2016, as Stan Math) and gives each lower entry `Āᵢⱼ = Sᵢⱼ + Sⱼᵢ`.
pub(super) fn cholesky(a: DMatrix<Var>) -> Result<DMatrix<Var>, LinalgError> {
    let n = a.nrows();
    let l: DMatrix<f64> = Cholesky::<f64, Dyn>::new(values::<Var, _>(&a))
        .ok_or(LinalgError::NotPositiveDefinite {
            function: "cholesky",
        })?
        .unpack();
    let mut inputs = Vec::new();
    lower_operands(&a, &mut inputs);
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
    Ok(lower_matrix(n, outs))
}

/// `X = L⁻¹ B` by forward substitution on values, as one lazy operation: `B̄ = L⁻ᵀ X̄`,
/// and `L̄ = -B̄ Xᵀ` on the lower triangle (Stan's `mdivide_left_tri_low`).
pub(super) fn solve_lower_triangular<A: Entry<Var>, B: Entry<Var>>(
    l: DMatrix<A>,
    b: DMatrix<B>,
) -> Result<DMatrix<Var>, LinalgError> {
    let (lv, bv) = (values::<Var, _>(&l), values::<Var, _>(&b));
    let x: DMatrix<f64> =
        lv.solve_lower_triangular::<Dyn, Dyn, _>(&bv)
            .ok_or(LinalgError::Singular {
                function: "solve_lower_triangular",
            })?;
    let mut inputs = Vec::new();
    lower_operands(&l, &mut inputs);
    let nl = inputs.len();
    operands(&b, &mut inputs);
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
    Ok(DMatrix::from_vec(r, c, outs))
}

/// `ln |det A|` through the LU decomposition of the values, one node with partials
/// `A⁻ᵀ` (Stan's `log_determinant`).
pub(super) fn log_determinant(a: DMatrix<Var>) -> Result<Var, LinalgError> {
    let singular = LinalgError::Singular {
        function: "log_determinant",
    };
    let lu = values::<Var, _>(&a).lu();
    let value: f64 = lu.u().diagonal().iter().map(|d| d.abs().ln()).sum();
    let inv = lu.try_inverse().ok_or(singular)?;
    if !value.is_finite() {
        return Err(singular);
    }
    Ok(record_scalar(
        "log_determinant",
        value,
        &a,
        &inv.transpose(),
    ))
}

/// `ln det A` of a symmetric positive definite matrix read from its lower triangle, as
/// `2 Σ ln Lᵢᵢ` of the values' Cholesky factor: one node with partials `A⁻¹` folded onto
/// the lower triangle (Stan's `log_determinant_spd`).
pub(super) fn log_determinant_spd(a: DMatrix<Var>) -> Result<Var, LinalgError> {
    let n = a.nrows();
    let chol = Cholesky::<f64, Dyn>::new(values::<Var, _>(&a)).ok_or(
        LinalgError::NotPositiveDefinite {
            function: "log_determinant_spd",
        },
    )?;
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
    Ok(record_scalar("log_determinant_spd", value, &a, &folded))
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
fn record_scalar(name: &'static str, value: f64, a: &DMatrix<Var>, partials: &DMatrix<f64>) -> Var {
    nary_named(name, value, a.iter().copied().zip(partials.iter().copied()))
}

/// The n×n matrix whose lower triangle is `lower` (column by column) and whose strict
/// upper triangle is zero.
fn lower_matrix(n: usize, lower: Vec<Var>) -> DMatrix<Var> {
    let mut out = DMatrix::from_element(n, n, Var::constant(0.0));
    let mut it = lower.into_iter();
    for j in 0..n {
        for i in j..n {
            out[(i, j)] = it.next().expect("one output per lower entry");
        }
    }
    out
}
