//! [`Lanes`]: a tangent with a number of lanes chosen at run time, for `Dual<f64, Lanes>`.

use super::arena::{self, Block};
use super::tangent::Tangent;

/// The tangent of a dual number with a number of lanes chosen at run time
/// (`Dual<f64, Lanes>`): one directional derivative per lane, kept in the forward arena
/// so that the number stays `Copy` (see [`forward_scope`](crate::forward_scope)). All-zero
/// tangents take no space.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// use fazang::{forward_scope, Dual, Lanes};
/// let n = 3; // known at run time only
/// let g = forward_scope(|| {
///     let x: Vec<Dual<f64, Lanes>> = (0..n)
///         .map(|i| Dual::new(1.0 + i as f64, Lanes::unit(n, i)))
///         .collect();
///     let y = x[0] * x[1] * x[2];
///     y.eps.to_vec()
/// });
/// assert_eq!(g, vec![6.0, 3.0, 2.0]);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Lanes {
    blk: Block,
}

impl Lanes {
    /// Lane `i` of `n` set to 1, the others 0 (the tangent of the i-th input).
    ///
    /// Panics if `i >= n`.
    ///
    /// ```
    /// use fazang::{forward_scope, Lanes, Tangent};
    /// forward_scope(|| assert_eq!(Lanes::unit(3, 1).to_vec(), vec![0.0, 1.0, 0.0]));
    /// ```
    pub fn unit(n: usize, i: usize) -> Lanes {
        assert!(i < n, "fazang: lane {i} of {n}");
        let mut v = vec![0.0; n];
        v[i] = 1.0;
        Lanes::from_slice(&v)
    }

    /// A tangent with the given lanes.
    ///
    /// ```
    /// use fazang::{forward_scope, Lanes, Tangent};
    /// forward_scope(|| assert_eq!(Lanes::from_slice(&[1.0, 2.0]).lane(1), 2.0));
    /// ```
    pub fn from_slice(v: &[f64]) -> Lanes {
        Lanes {
            blk: arena::alloc(v),
        }
    }

    /// The lanes (empty for a tangent that is all zero).
    ///
    /// ```
    /// use fazang::{forward_scope, Lanes, Tangent};
    /// forward_scope(|| assert!(Lanes::zero().to_vec().is_empty()));
    /// ```
    pub fn to_vec(&self) -> Vec<f64> {
        arena::read(self.blk, <[f64]>::to_vec)
    }

    fn map(&self, f: impl Fn(f64) -> f64) -> Lanes {
        let blk = arena::compute(self.blk.len(), [self.blk], |out, [a]| {
            for (o, x) in out.iter_mut().zip(a) {
                *o = f(*x);
            }
        });
        Lanes { blk }
    }

    fn zip(&self, o: &Lanes, f: impl Fn(f64, f64) -> f64) -> Lanes {
        let n = self.blk.len().max(o.blk.len());
        let blk = arena::compute(n, [self.blk, o.blk], |out, [a, b]| {
            for (i, y) in out.iter_mut().enumerate() {
                let (x, z) = (a.get(i).copied(), b.get(i).copied());
                *y = f(x.unwrap_or(0.0), z.unwrap_or(0.0));
            }
        });
        Lanes { blk }
    }
}

impl Tangent<f64> for Lanes {
    fn zero() -> Lanes {
        Lanes { blk: Block::EMPTY }
    }
    fn lanes(&self) -> usize {
        self.blk.len()
    }
    fn lane(&self, i: usize) -> f64 {
        arena::read(self.blk, |a| a.get(i).copied().unwrap_or(0.0))
    }
    fn is_zero(&self) -> bool {
        arena::read(self.blk, |a| a.iter().all(|&x| x == 0.0))
    }
    fn scale(&self, k: f64) -> Lanes {
        self.map(|x| x * k)
    }
    fn scale_f64(&self, k: f64) -> Lanes {
        self.map(|x| x * k)
    }
    fn add(&self, o: &Lanes) -> Lanes {
        self.zip(o, |a, b| a + b)
    }
    fn sub(&self, o: &Lanes) -> Lanes {
        self.zip(o, |a, b| a - b)
    }
    fn neg(&self) -> Lanes {
        self.map(|x| -x)
    }
    fn lincomb(&self, a: f64, o: &Lanes, b: f64) -> Lanes {
        self.zip(o, |x, y| x * a + y * b)
    }
    fn add_scaled(&self, o: &Lanes, b: f64) -> Lanes {
        self.zip(o, |x, y| x + y * b)
    }
}
