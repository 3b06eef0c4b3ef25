//! Small dense linear algebra on any [`Real`], matrices row-major in flat slices: what
//! the multivariate densities compute their values and partials with, one derivative
//! order below their result (`f64` for `f64` and `Var` results; the inner scalar for
//! dual numbers, so that their Hessians are exact).

use crate::Real;

/// The `n × n` matrix read from `get(i, j)`, symmetrised: entry `(i, j)` is the mean of
/// `(i, j)` and `(j, i)` (the density of a symmetric matrix argument is a function of
/// `(A + Aᵀ)/2`, so that its partials are symmetric at every order).
pub(crate) fn symmetric<T: Real>(n: usize, get: impl Fn(usize, usize) -> T) -> Vec<T> {
    let mut a = vec![T::from(0.0); n * n];
    for i in 0..n {
        a[i * n + i] = get(i, i);
        for j in 0..i {
            let v = (get(i, j) + get(j, i)) * 0.5;
            a[i * n + j] = v;
            a[j * n + i] = v;
        }
    }
    a
}

/// The lower triangle of the `n × n` matrix read from `get(i, j)` (zeros above).
pub(crate) fn lower<T: Real>(n: usize, get: impl Fn(usize, usize) -> T) -> Vec<T> {
    let mut l = vec![T::from(0.0); n * n];
    for i in 0..n {
        for j in 0..=i {
            l[i * n + j] = get(i, j);
        }
    }
    l
}

/// The Cholesky factor `L` (lower, `L Lᵀ = A`) of the symmetric `n × n` matrix `a`, read
/// from its lower triangle; `None` if `a` is not positive definite (a pivot not > 0, or
/// NaN).
pub(crate) fn cholesky<T: Real>(a: &[T], n: usize) -> Option<Vec<T>> {
    let mut l = vec![T::from(0.0); n * n];
    for j in 0..n {
        let (lj, rest) = l.split_at_mut((j + 1) * n);
        let lj = &mut lj[j * n..];
        let d = a[j * n + j] - dot(&lj[..j], &lj[..j]);
        if d.val().partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
            return None;
        }
        let djj = d.sqrt();
        lj[j] = djj;
        let inv = djj.recip();
        for (i, li) in (j + 1..n).zip(rest.chunks_exact_mut(n)) {
            li[j] = (a[i * n + j] - dot(&li[..j], &lj[..j])) * inv;
        }
    }
    Some(l)
}

/// Σ aᵢ bᵢ.
#[inline]
pub(crate) fn dot<T: Real>(a: &[T], b: &[T]) -> T {
    let mut s = T::from(0.0);
    for (x, y) in a.iter().zip(b) {
        s += *x * *y;
    }
    s
}

/// Solve `L x = b` in place (`L` lower triangular, `n × n`).
pub(crate) fn solve_lower<T: Real>(l: &[T], n: usize, b: &mut [T]) {
    for i in 0..n {
        let row = &l[i * n..i * n + i];
        let s = b[i] - dot(row, &b[..i]);
        b[i] = s / l[i * n + i];
    }
}

/// Solve `Lᵀ x = b` in place (`L` lower triangular, `n × n`).
pub(crate) fn solve_lower_transposed<T: Real>(l: &[T], n: usize, b: &mut [T]) {
    for i in (0..n).rev() {
        let xi = b[i] / l[i * n + i];
        b[i] = xi;
        // Column i of Lᵀ's rows above: b[j] -= L[i][j] x[i] for j < i.
        for (bj, lij) in b[..i].iter_mut().zip(&l[i * n..i * n + i]) {
            *bj -= *lij * xi;
        }
    }
}

/// `A⁻¹ = L⁻ᵀ L⁻¹` from the Cholesky factor `L` of `A` (a full symmetric matrix).
pub(crate) fn inverse_from_cholesky<T: Real>(l: &[T], n: usize) -> Vec<T> {
    // Rows of L⁻¹ are not needed: its columns, each by a forward solve, are.
    let zero = T::from(0.0);
    let mut linv = vec![zero; n * n]; // column-major columns of L⁻¹: linv[j * n + i] = L⁻¹[i][j]
    for j in 0..n {
        let col = &mut linv[j * n..(j + 1) * n];
        col[j] = T::from(1.0);
        solve_lower(l, n, col);
    }
    let mut inv = vec![zero; n * n];
    for i in 0..n {
        for j in 0..=i {
            // (L⁻ᵀ L⁻¹)[i][j] = Σ_k L⁻¹[k][i] L⁻¹[k][j], k ≥ i (L⁻¹ is lower).
            let (ci, cj) = (&linv[i * n..(i + 1) * n], &linv[j * n..(j + 1) * n]);
            let v = dot(&ci[i..], &cj[i..]);
            inv[i * n + j] = v;
            inv[j * n + i] = v;
        }
    }
    inv
}

/// ln det A = 2 Σ ln Lᵢᵢ from the Cholesky factor `L` of `A`.
pub(crate) fn log_det_from_cholesky<T: Real>(l: &[T], n: usize) -> T {
    let mut s = T::from(0.0);
    for i in 0..n {
        s += l[i * n + i].ln();
    }
    s * 2.0
}

/// tr(A B) for `n × n` matrices: Σᵢⱼ Aᵢⱼ Bⱼᵢ.
pub(crate) fn trace_of_product<T: Real>(a: &[T], b: &[T], n: usize) -> T {
    let mut s = T::from(0.0);
    for i in 0..n {
        for j in 0..n {
            s += a[i * n + j] * b[j * n + i];
        }
    }
    s
}

/// The product `A B` of `n × n` matrices.
pub(crate) fn product<T: Real>(a: &[T], b: &[T], n: usize) -> Vec<T> {
    let mut c = vec![T::from(0.0); n * n];
    for i in 0..n {
        for k in 0..n {
            let aik = a[i * n + k];
            for (cij, bkj) in c[i * n..(i + 1) * n].iter_mut().zip(&b[k * n..(k + 1) * n]) {
                *cij += aik * *bkj;
            }
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cholesky_solves_and_inverse() {
        let a = [4.0, 2.0, 0.4, 2.0, 5.0, 1.0, 0.4, 1.0, 3.0];
        let l = cholesky(&a, 3).unwrap();
        let back = product(&l, &transpose(&l, 3), 3);
        for (x, y) in back.iter().zip(&a) {
            assert!((x - y).abs() < 1e-14);
        }
        let inv = inverse_from_cholesky(&l, 3);
        let id = product(&a, &inv, 3);
        for i in 0..3 {
            for j in 0..3 {
                let want = if i == j { 1.0 } else { 0.0 };
                assert!((id[i * 3 + j] - want).abs() < 1e-14);
            }
        }
        let mut b = [1.0, -2.0, 0.5];
        solve_lower(&l, 3, &mut b);
        solve_lower_transposed(&l, 3, &mut b);
        let x = [
            inv[0] - 2.0 * inv[1] + 0.5 * inv[2],
            inv[3] - 2.0 * inv[4] + 0.5 * inv[5],
            inv[6] - 2.0 * inv[7] + 0.5 * inv[8],
        ];
        for (u, v) in b.iter().zip(&x) {
            assert!((u - v).abs() < 1e-14);
        }
        assert!(cholesky(&[1.0, 2.0, 2.0, 1.0], 2).is_none());
    }

    fn transpose(a: &[f64], n: usize) -> Vec<f64> {
        (0..n * n).map(|k| a[(k % n) * n + k / n]).collect()
    }
}
