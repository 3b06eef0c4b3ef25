//! Interval bounds on generated values, so that bodies stay numerically tame by
//! construction: every `f64` expression carries an interval that contains its value for
//! every input in the generator's input box, and a function is only applied where its
//! domain allows (`ln` of a positive interval, `exp` of a bounded one, ...).

/// A closed interval `[lo, hi]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Iv {
    pub lo: f64,
    pub hi: f64,
}

/// Values larger than this are not generated: they would make finite differences noisy.
pub const LIMIT: f64 = 1e4;

impl Iv {
    pub fn new(lo: f64, hi: f64) -> Iv {
        Iv { lo, hi }
    }

    /// `[-m, m]`.
    pub fn sym(m: f64) -> Iv {
        Iv::new(-m, m)
    }

    pub fn point(c: f64) -> Iv {
        Iv::new(c, c)
    }

    /// The largest magnitude.
    pub fn mag(self) -> f64 {
        self.lo.abs().max(self.hi.abs())
    }

    /// Within [`LIMIT`] and not NaN.
    pub fn tame(self) -> bool {
        self.mag() <= LIMIT && self.lo <= self.hi
    }

    /// Every value at least `m` (strictly positive domains).
    pub fn above(self, m: f64) -> bool {
        self.lo >= m
    }

    /// Every value at least `m` away from zero.
    pub fn away_from_zero(self, m: f64) -> bool {
        self.lo >= m || self.hi <= -m
    }

    pub fn hull(self, o: Iv) -> Iv {
        Iv::new(self.lo.min(o.lo), self.hi.max(o.hi))
    }

    pub fn add(self, o: Iv) -> Iv {
        Iv::new(self.lo + o.lo, self.hi + o.hi)
    }

    pub fn sub(self, o: Iv) -> Iv {
        Iv::new(self.lo - o.hi, self.hi - o.lo)
    }

    pub fn neg(self) -> Iv {
        Iv::new(-self.hi, -self.lo)
    }

    pub fn mul(self, o: Iv) -> Iv {
        let c = [
            self.lo * o.lo,
            self.lo * o.hi,
            self.hi * o.lo,
            self.hi * o.hi,
        ];
        Iv::new(
            c.iter().copied().fold(f64::INFINITY, f64::min),
            c.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        )
    }

    /// `self / o`; the caller has checked `o.away_from_zero(..)`.
    pub fn div(self, o: Iv) -> Iv {
        self.mul(Iv::new(1.0 / o.hi, 1.0 / o.lo))
    }

    /// The image under a monotone function (increasing or decreasing).
    pub fn monotone(self, f: impl Fn(f64) -> f64) -> Iv {
        let (a, b) = (f(self.lo), f(self.hi));
        Iv::new(a.min(b), a.max(b))
    }

    pub fn abs(self) -> Iv {
        if self.lo >= 0.0 {
            self
        } else if self.hi <= 0.0 {
            self.neg()
        } else {
            Iv::new(0.0, self.mag())
        }
    }

    pub fn square(self) -> Iv {
        let a = self.abs();
        Iv::new(a.lo * a.lo, a.hi * a.hi)
    }

    /// `self.powi(n)` for `n` in 1..=3, or negative `n` on an interval away from zero.
    pub fn powi(self, n: i32) -> Iv {
        match n {
            2 => self.square(),
            n if n > 0 && n % 2 == 1 => self.monotone(|v| v.powi(n)),
            n if n < 0 => {
                let p = self.powi(-n);
                Iv::point(1.0).div(p)
            }
            _ => Iv::point(1.0),
        }
    }

    /// `self.powf(e)` for a positive base: the extremes are at the corners.
    pub fn powf(self, e: Iv) -> Iv {
        let c = [
            self.lo.powf(e.lo),
            self.lo.powf(e.hi),
            self.hi.powf(e.lo),
            self.hi.powf(e.hi),
        ];
        Iv::new(
            c.iter().copied().fold(f64::INFINITY, f64::min),
            c.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        )
    }

    /// Rounded to integers (`floor`, `ceil`, `round`, `trunc`).
    pub fn rounded(self) -> Iv {
        Iv::new(self.lo.floor(), self.hi.ceil())
    }

    pub fn min(self, o: Iv) -> Iv {
        Iv::new(self.lo.min(o.lo), self.hi.min(o.hi))
    }

    pub fn max(self, o: Iv) -> Iv {
        Iv::new(self.lo.max(o.lo), self.hi.max(o.hi))
    }

    /// The interval of a sum of up to `n` terms, each in `self` (an empty sum is 0).
    pub fn sum_of(self, n: usize) -> Iv {
        let n = n as f64;
        Iv::new((n * self.lo).min(0.0), (n * self.hi).max(0.0))
    }

    /// The interval of a product of up to `n` factors, each in `self`.
    pub fn product_of(self, n: usize) -> Iv {
        let m = self.mag().max(1.0).powi(n as i32);
        Iv::sym(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_contains_samples() {
        let (a, b) = (Iv::new(-1.5, 2.0), Iv::new(0.5, 3.0));
        for x in [-1.5, -0.3, 0.0, 1.1, 2.0] {
            for y in [0.5, 1.0, 2.2, 3.0] {
                let has = |iv: Iv, v: f64| iv.lo - 1e-12 <= v && v <= iv.hi + 1e-12;
                assert!(has(a.add(b), x + y));
                assert!(has(a.sub(b), x - y));
                assert!(has(a.mul(b), x * y));
                assert!(has(a.div(b), x / y));
                assert!(has(b.powf(a), y.powf(x)));
                assert!(has(a.powi(3), x.powi(3)));
                assert!(has(b.powi(-2), y.powi(-2)));
                assert!(has(a.square(), x * x));
            }
        }
    }
}
