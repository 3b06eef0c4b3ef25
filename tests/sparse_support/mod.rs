//! Checks shared by the sparse derivative tests: the triplets' form (sorted, no repeats,
//! symmetric for a Hessian), the pattern against a dense derivative computed
//! independently (every entry non-zero there must be in the pattern, every value must
//! agree), and central differences.

#![allow(dead_code)]

/// Triplets `(row, column, value)`.
pub type Triplets = Vec<(usize, usize, f64)>;

/// A reproducible stream of points in `[lo, hi)` (a linear congruential generator).
pub struct Points(u64);

impl Points {
    pub fn new(seed: u64) -> Self {
        Points(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    pub fn next(&mut self, lo: f64, hi: f64) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        lo + (hi - lo) * ((self.0 >> 11) as f64 / (1u64 << 53) as f64)
    }

    pub fn vec(&mut self, n: usize, lo: f64, hi: f64) -> Vec<f64> {
        (0..n).map(|_| self.next(lo, hi)).collect()
    }
}

/// Sorted by (row, column), no repeats, inside `rows × cols`.
#[track_caller]
pub fn assert_well_formed(t: &Triplets, rows: usize, cols: usize) {
    for w in t.windows(2) {
        assert!(
            (w[0].0, w[0].1) < (w[1].0, w[1].1),
            "triplets not sorted or repeated: {:?} then {:?}",
            w[0],
            w[1]
        );
    }
    for &(i, j, _) in t {
        assert!(i < rows && j < cols, "({i}, {j}) outside {rows} x {cols}");
    }
}

/// A Hessian's triplets hold both triangles with equal values.
#[track_caller]
pub fn assert_symmetric(t: &Triplets) {
    for &(i, j, v) in t {
        let mirror = t
            .binary_search_by(|e| (e.0, e.1).cmp(&(j, i)))
            .unwrap_or_else(|_| panic!("({i}, {j}) present but not ({j}, {i})"));
        assert_eq!(t[mirror].2, v, "H[{i}][{j}] != H[{j}][{i}]");
    }
}

/// The triplets against dense rows: every non-zero entry of `dense` is a triplet, and
/// every triplet agrees with `dense` to `tol` relative to the largest entry of its row
/// (the sparse and dense derivatives round differently). Triplets absent from `dense`'s
/// non-zeros are allowed (structurally non-zero, zero at this point) but must be ~0.
#[track_caller]
pub fn assert_matches_dense(t: &Triplets, dense: &[Vec<f64>], tol: f64, what: &str) {
    assert_well_formed(t, dense.len(), dense.first().map_or(0, Vec::len));
    for (i, row) in dense.iter().enumerate() {
        let scale = row.iter().fold(1.0_f64, |m, v| m.max(v.abs()));
        for (j, &d) in row.iter().enumerate() {
            let s = t.binary_search_by(|e| (e.0, e.1).cmp(&(i, j)));
            match s {
                Ok(k) => assert!(
                    (t[k].2 - d).abs() <= tol * scale,
                    "{what}: entry ({i}, {j}) is {} sparse, {d} dense",
                    t[k].2
                ),
                Err(_) => assert!(
                    d == 0.0,
                    "{what}: entry ({i}, {j}) = {d} is missing from the sparse pattern"
                ),
            }
        }
    }
}

/// The triplets as dense rows.
pub fn dense(t: &Triplets, rows: usize, cols: usize) -> Vec<Vec<f64>> {
    let mut d = vec![vec![0.0; cols]; rows];
    for &(i, j, v) in t {
        d[i][j] = v;
    }
    d
}

/// The positions of the triplets.
pub fn positions(t: &Triplets) -> Vec<(usize, usize)> {
    t.iter().map(|&(i, j, _)| (i, j)).collect()
}

/// Central differences of `f: ℝⁿ → ℝᵐ` at `x`: rows `d f_r / d x_j`.
pub fn central_jacobian(f: impl Fn(&[f64]) -> Vec<f64>, x: &[f64]) -> Vec<Vec<f64>> {
    let m = f(x).len();
    let mut rows = vec![vec![0.0; x.len()]; m];
    for j in 0..x.len() {
        let h = 1e-6 * x[j].abs().max(1.0);
        let (mut xp, mut xm) = (x.to_vec(), x.to_vec());
        xp[j] += h;
        xm[j] -= h;
        let (fp, fm) = (f(&xp), f(&xm));
        for r in 0..m {
            rows[r][j] = (fp[r] - fm[r]) / (2.0 * h);
        }
    }
    rows
}

/// The triplets against central differences, to `tol` relative to the row's scale.
#[track_caller]
pub fn assert_close_to_differences(t: &Triplets, fd: &[Vec<f64>], tol: f64, what: &str) {
    let d = dense(t, fd.len(), fd.first().map_or(0, Vec::len));
    for (i, (row, fdrow)) in d.iter().zip(fd).enumerate() {
        let scale = fdrow.iter().fold(1.0_f64, |m, v| m.max(v.abs()));
        for (j, (&a, &b)) in row.iter().zip(fdrow).enumerate() {
            assert!(
                (a - b).abs() <= tol * scale,
                "{what}: entry ({i}, {j}) is {a}, central differences give {b}"
            );
        }
    }
}
