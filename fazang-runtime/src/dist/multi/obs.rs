//! Observations of the multivariate normal family and the multivariate Student's t: `y`
//! and `mu` each one vector or several (rows), a vector broadcast against rows.

use super::args::MultiArg;
use super::check::{check_rectangular, check_size_match};
use crate::dist::check::{check_consistent_sizes, check_finite, check_not_nan};
use crate::dist::DomainError;
use crate::Real;

/// `n` observations of dimension `k`; which of `y` and `mu` are rows (else broadcast).
#[derive(Clone, Copy)]
pub(crate) struct Obs {
    pub n: usize,
    pub k: usize,
    y_rows: bool,
    mu_rows: bool,
}

impl Obs {
    /// Check `y` and `mu` (Stan's sizes, `y` not NaN, `mu` finite) and the matrix's
    /// dimensions (`matrix_rows`/`matrix_cols` name them in messages).
    pub(crate) fn check<Y: MultiArg, M: MultiArg, A: MultiArg>(
        function: &'static str,
        y: Y,
        mu: M,
        (matrix, rows_name, cols_name): (A, &'static str, &'static str),
    ) -> Result<Obs, DomainError> {
        let (ny, ky) = check_rectangular(function, "Random variable", y)?;
        let (nm, km) = check_rectangular(function, "Location parameter", mu)?;
        if Y::MATRIX && M::MATRIX {
            check_consistent_sizes(function, &[("y", Some(ny)), ("mu", Some(nm))])?;
        }
        let n = if Y::MATRIX {
            ny
        } else if M::MATRIX {
            nm
        } else {
            1
        };
        if n == 0 {
            return Ok(Obs {
                n,
                k: 0,
                y_rows: Y::MATRIX,
                mu_rows: M::MATRIX,
            });
        }
        check_size_match(
            function,
            "Size of random variable",
            ky,
            "size of location parameter",
            km,
        )?;
        let (rows, cols) = check_rectangular(function, rows_name, matrix)?;
        check_size_match(function, "Size of random variable", ky, rows_name, rows)?;
        check_size_match(function, "Size of random variable", ky, cols_name, cols)?;
        check_finite(function, "Location parameter", super::Flat::new(mu))?;
        check_not_nan(function, "Random variable", super::Flat::new(y))?;
        Ok(Obs {
            n,
            k: ky,
            y_rows: Y::MATRIX,
            mu_rows: M::MATRIX,
        })
    }

    /// The flat lengths of `y` and `mu`.
    pub(crate) fn lens(&self) -> (usize, usize) {
        let len = |rows: bool| if rows { self.n * self.k } else { self.k };
        (len(self.y_rows), len(self.mu_rows))
    }

    /// The residual `y_i − mu_i` of observation `i`, into `r`.
    pub(crate) fn residual<T: Real>(&self, i: usize, y: &[T], mu: &[T], r: &mut [T]) {
        let (yi, mi) = (self.y_at(i), self.mu_at(i));
        for (j, rj) in r.iter_mut().enumerate() {
            *rj = y[yi + j] - mu[mi + j];
        }
    }

    /// Add `s · a` to the partials of `y` (`dy`) and `-s · a` to those of `mu` (`dmu`)
    /// for observation `i`.
    pub(crate) fn scatter<T: Real>(
        &self,
        i: usize,
        a: &[T],
        s: T,
        dy: &mut Option<Vec<T>>,
        dmu: &mut Option<Vec<T>>,
    ) {
        if let Some(dy) = dy {
            let yi = self.y_at(i);
            for (d, aj) in dy[yi..yi + self.k].iter_mut().zip(a) {
                *d += s * *aj;
            }
        }
        if let Some(dmu) = dmu {
            let mi = self.mu_at(i);
            for (d, aj) in dmu[mi..mi + self.k].iter_mut().zip(a) {
                *d -= s * *aj;
            }
        }
    }

    fn y_at(&self, i: usize) -> usize {
        if self.y_rows {
            i * self.k
        } else {
            0
        }
    }

    fn mu_at(&self, i: usize) -> usize {
        if self.mu_rows {
            i * self.k
        } else {
            0
        }
    }
}
