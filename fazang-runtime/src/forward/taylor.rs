//! [`Taylor`]: univariate truncated Taylor series, for derivatives of any order of a
//! function of one variable (ReverseDiffSource's `rdiff(.., order = k)`).

use super::graded::{graded_real, graded_unary_methods, Graded};
use super::ops::{number_ops, Arith};

/// A Taylor series in one variable truncated after order `K`: the value and the
/// normalised derivatives f⁽ⁱ⁾(x)/i! for i = 1..=K, computed together by Taylor
/// arithmetic. It implements [`Real`](crate::Real): any generic body (a `#[differentiate]`
/// function, a distribution, a `#[deriv_rule]` function whose partials are written in its
/// arguments) gives all its derivatives up to order `K` at once.
///
/// Each value also knows the order up to which it is exact ([`Taylor::order`]; at most
/// `K`): a function of a series needs its derivative to one order less, and fazang
/// computes exactly that.
///
/// # Example
///
/// ReverseDiffSource's `rdiff(:(sin(x)), order = 10)` at x = 2:
///
/// ```
/// use fazang::prelude::*;
/// use fazang::Taylor;
/// let y = Taylor::<10>::variable(2.0).sin();
/// let d = y.derivatives();
/// assert_eq!(d.len(), 11);
/// // sin, cos, -sin, -cos, sin, ...
/// assert!((d[0] - 2.0_f64.sin()).abs() < 1e-15);
/// assert!((d[1] - 2.0_f64.cos()).abs() < 1e-15);
/// assert!((d[10] + 2.0_f64.sin()).abs() < 1e-12);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Taylor<const K: usize> {
    v: f64,
    /// `c[i - 1]` = f⁽ⁱ⁾/i!.
    c: [f64; K],
    /// The order up to which the coefficients are exact.
    ord: usize,
}

impl<const K: usize> Taylor<K> {
    /// The independent variable at `x`: value `x`, first derivative 1.
    ///
    /// ```
    /// use fazang::Taylor;
    /// let x = Taylor::<3>::variable(2.0);
    /// assert_eq!((x * x * x).derivatives(), vec![8.0, 12.0, 12.0, 6.0]);
    /// ```
    pub fn variable(x: f64) -> Self {
        let mut c = [0.0; K];
        if let Some(c1) = c.first_mut() {
            *c1 = 1.0;
        }
        Taylor { v: x, c, ord: K }
    }

    /// A constant (exact to every order).
    ///
    /// ```
    /// use fazang::Taylor;
    /// assert_eq!(Taylor::<2>::constant(4.0).derivatives(), vec![4.0, 0.0, 0.0]);
    /// ```
    pub fn constant(x: f64) -> Self {
        Taylor {
            v: x,
            c: [0.0; K],
            ord: K,
        }
    }

    /// A series from its coefficients f⁽ⁱ⁾/i!, i = 0, 1, ... (missing ones are zero,
    /// extra ones ignored).
    ///
    /// ```
    /// use fazang::Taylor;
    /// let s = Taylor::<2>::from_coeffs(&[1.0, 2.0, 3.0]);
    /// assert_eq!(s.derivatives(), vec![1.0, 2.0, 6.0]);
    /// ```
    pub fn from_coeffs(coeffs: &[f64]) -> Self {
        let mut t = Taylor::constant(coeffs.first().copied().unwrap_or(0.0));
        for (c, &x) in t.c.iter_mut().zip(coeffs.iter().skip(1)) {
            *c = x;
        }
        t
    }

    /// The coefficient of order `i`, f⁽ⁱ⁾/i! (zero past `K`).
    ///
    /// ```
    /// use fazang::Taylor;
    /// assert_eq!(Taylor::<2>::variable(3.0).coeff(1), 1.0);
    /// ```
    pub fn coeff(&self, i: usize) -> f64 {
        match i {
            0 => self.v,
            i => self.c.get(i - 1).copied().unwrap_or(0.0),
        }
    }

    /// The derivative of order `i`, f⁽ⁱ⁾ (zero past `K`).
    ///
    /// ```
    /// use fazang::prelude::*;
    /// use fazang::Taylor;
    /// let y = Taylor::<4>::variable(0.0).exp();
    /// assert_eq!(y.derivative(4), 1.0);
    /// ```
    pub fn derivative(&self, i: usize) -> f64 {
        self.coeff(i) * (1..=i).map(|k| k as f64).product::<f64>()
    }

    /// The derivatives of order 0 to [`Taylor::order`].
    ///
    /// ```
    /// use fazang::prelude::*;
    /// use fazang::Taylor;
    /// let y = Taylor::<2>::variable(1.0).ln();
    /// assert_eq!(y.derivatives(), vec![0.0, 1.0, -1.0]);
    /// ```
    pub fn derivatives(&self) -> Vec<f64> {
        (0..=self.ord).map(|i| self.derivative(i)).collect()
    }

    /// The order up to which the coefficients are exact (`K` unless this number was made
    /// by taking an order off, as functions of series do inside).
    ///
    /// ```
    /// use fazang::Taylor;
    /// assert_eq!(Taylor::<5>::variable(1.0).order(), 5);
    /// ```
    pub fn order(&self) -> usize {
        self.ord
    }

    /// The Cauchy product, exact to order `ord`.
    #[inline]
    fn product(&self, o: &Self, ord: usize) -> Self {
        let a = |i: usize| self.coeff(i);
        let b = |i: usize| o.coeff(i);
        let mut out = Taylor {
            v: self.v * o.v,
            c: [0.0; K],
            ord,
        };
        for (n, c) in out.c.iter_mut().enumerate().take(ord) {
            let n = n + 1;
            *c = (0..=n).map(|j| a(j) * b(n - j)).sum();
        }
        out
    }

    #[inline]
    fn zip(&self, o: &Self, f: impl Fn(f64, f64) -> f64) -> Self {
        let mut out = Taylor {
            v: f(self.v, o.v),
            c: std::array::from_fn(|i| f(self.c[i], o.c[i])),
            ord: self.ord.min(o.ord),
        };
        out.clear_above();
        out
    }

    /// Zero the coefficients past the order.
    #[inline]
    fn clear_above(&mut self) {
        for c in self.c.iter_mut().skip(self.ord) {
            *c = 0.0;
        }
    }

    #[inline]
    fn map(&self, f: impl Fn(f64) -> f64) -> Self {
        Taylor {
            v: f(self.v),
            c: self.c.map(&f),
            ord: self.ord,
        }
    }
}

impl<const K: usize> Arith for Taylor<K> {
    #[inline]
    fn add_(self, o: Self) -> Self {
        self.zip(&o, |a, b| a + b)
    }
    #[inline]
    fn sub_(self, o: Self) -> Self {
        self.zip(&o, |a, b| a - b)
    }
    #[inline]
    fn mul_(self, o: Self) -> Self {
        self.product(&o, self.ord.min(o.ord))
    }
    #[inline]
    fn div_(self, o: Self) -> Self {
        super::graded::div(self, o)
    }
    #[inline]
    fn neg_(self) -> Self {
        self.map(|a| -a)
    }
    #[inline]
    fn add_f(self, f: f64) -> Self {
        Taylor {
            v: self.v + f,
            ..self
        }
    }
    #[inline]
    fn f_sub(self, f: f64) -> Self {
        let mut out = self.neg_();
        out.v = f - self.v;
        out
    }
    #[inline]
    fn mul_f(self, f: f64) -> Self {
        self.map(|a| a * f)
    }
    #[inline]
    fn div_f(self, f: f64) -> Self {
        self.map(|a| a / f)
    }
    #[inline]
    fn f_div(self, f: f64) -> Self {
        super::graded::div(Self::constant(f), self)
    }
    #[inline]
    fn rem_(self, o: Self) -> Self {
        let r = self.value() % o.value();
        let (_, db) = crate::math::elementary::deriv2::rem(self.value(), o.value(), r);
        super::graded::shifted(self, o, db, r)
    }
    #[inline]
    fn rem_f(self, f: f64) -> Self {
        self.with_value(self.value() % f)
    }
    #[inline]
    fn f_rem(self, f: f64) -> Self {
        let r = f % self.value();
        let (_, db) = crate::math::elementary::deriv2::rem(f, self.value(), r);
        (self * db).with_value(r)
    }
    #[inline]
    fn cst(f: f64) -> Self {
        Self::constant(f)
    }
    #[inline]
    fn value(&self) -> f64 {
        self.v
    }
}

impl<const K: usize> Graded for Taylor<K> {
    #[inline]
    fn order(&self) -> usize {
        self.ord
    }
    #[inline]
    fn truncate(&self, k: usize) -> Self {
        let mut out = *self;
        out.ord = out.ord.min(k);
        out.clear_above();
        out
    }
    #[inline]
    fn euler(&self) -> Self {
        let mut out = *self;
        out.v = 0.0;
        for (i, c) in out.c.iter_mut().enumerate() {
            *c *= (i + 1) as f64;
        }
        out
    }
    #[inline]
    fn euler_inv(&self) -> Self {
        let mut out = *self;
        out.v = 0.0;
        for (i, c) in out.c.iter_mut().enumerate() {
            *c /= (i + 1) as f64;
        }
        out
    }
    #[inline]
    fn mul_nilpotent(&self, h: &Self) -> Self {
        self.product(h, (self.ord + 1).min(h.ord))
    }
    #[inline]
    fn constant_to(v: f64, k: usize) -> Self {
        Taylor {
            v,
            c: [0.0; K],
            ord: k.min(K),
        }
    }
    #[inline]
    fn is_flat(&self) -> bool {
        self.c.iter().all(|&c| c == 0.0)
    }
    #[inline]
    fn with_value(&self, v: f64) -> Self {
        Taylor { v, ..*self }
    }
}

number_ops!([const K: usize] Taylor<K>, []);
graded_real!([const K: usize] Taylor<K>, []);
crate::math::interop::num_traits_for!(@generic [const K: usize] Taylor<K>);
crate::math::interop::inherent_math!(@generic [const K: usize] Taylor<K>);
