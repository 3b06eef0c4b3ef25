//! Dense LU factorisation with partial pivoting, for the Newton matrices `I - c J` of the
//! BDF method (small systems: the matrices are `n × n` for `n` states).

/// An LU factorisation of a row-major `n × n` matrix, `P A = L U`.
pub(crate) struct Lu {
    n: usize,
    lu: Vec<f64>,
    perm: Vec<usize>,
}

impl Lu {
    /// Factorise `I - c J` (`J` row-major `n × n`); `None` if it is singular.
    pub fn of_newton_matrix(c: f64, j: &[f64], n: usize) -> Option<Lu> {
        let mut a: Vec<f64> = j.iter().map(|&x| -c * x).collect();
        for i in 0..n {
            a[i * n + i] += 1.0;
        }
        Lu::factor(a, n)
    }

    fn factor(mut a: Vec<f64>, n: usize) -> Option<Lu> {
        let mut perm: Vec<usize> = (0..n).collect();
        for k in 0..n {
            let p = (k..n)
                .max_by(|&r, &s| a[r * n + k].abs().total_cmp(&a[s * n + k].abs()))
                .expect("k < n");
            let pivot = a[p * n + k];
            if pivot == 0.0 || !pivot.is_finite() {
                return None;
            }
            if p != k {
                for c in 0..n {
                    a.swap(p * n + c, k * n + c);
                }
                perm.swap(p, k);
            }
            for r in k + 1..n {
                let m = a[r * n + k] / pivot;
                a[r * n + k] = m;
                if m != 0.0 {
                    for c in k + 1..n {
                        a[r * n + c] -= m * a[k * n + c];
                    }
                }
            }
        }
        Some(Lu { n, lu: a, perm })
    }

    /// Solve `A x = b` in place (`b` becomes `x`); `tmp` is scratch of length `n`.
    pub fn solve(&self, b: &mut [f64], tmp: &mut [f64]) {
        let (n, a) = (self.n, &self.lu);
        for (t, &p) in tmp.iter_mut().zip(&self.perm) {
            *t = b[p];
        }
        for r in 0..n {
            let s: f64 = (0..r).map(|c| a[r * n + c] * tmp[c]).sum();
            tmp[r] -= s;
        }
        for r in (0..n).rev() {
            let s: f64 = (r + 1..n).map(|c| a[r * n + c] * tmp[c]).sum();
            tmp[r] = (tmp[r] - s) / a[r * n + r];
        }
        b.copy_from_slice(&tmp[..n]);
    }
}

#[cfg(test)]
mod tests {
    use super::Lu;

    #[test]
    fn solves_a_pivoting_system() {
        // I - c J with c = 1 and J = I - A, so the matrix is A = [[0, 2, 1], [1, 1, 0], [3, 0, 1]].
        let a = [0.0, 2.0, 1.0, 1.0, 1.0, 0.0, 3.0, 0.0, 1.0];
        let j: Vec<f64> = (0..9)
            .map(|i| f64::from(u8::from(i % 4 == 0)) - a[i])
            .collect();
        let lu = Lu::of_newton_matrix(1.0, &j, 3).expect("nonsingular");
        let x = [1.0, -2.0, 0.5];
        let mut b: Vec<f64> = (0..3)
            .map(|r| (0..3).map(|c| a[r * 3 + c] * x[c]).sum())
            .collect();
        lu.solve(&mut b, &mut [0.0; 3]);
        for (bi, xi) in b.iter().zip(x) {
            assert!((bi - xi).abs() < 1e-14, "{b:?}");
        }
        assert!(Lu::of_newton_matrix(1.0, &[1.0, 0.0, 0.0, 1.0], 2).is_none());
    }
}
