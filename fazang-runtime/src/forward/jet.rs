//! [`Jet`]: MESA's `auto_diff_real_Nvar_orderM` numbers, every mixed partial derivative
//! up to total order `M` in `N` variables, with `differentiate(i)` lowering the order.

use super::graded::{graded_real, graded_unary_methods, Graded};
use super::monomials as mono;
use super::ops::{number_ops, Arith};

/// The number of coefficients of a [`Jet`] in `n` variables to total order `m`: the
/// binomial coefficient C(n + m, m) (the value and every partial derivative).
///
/// ```
/// use fazang::jet_len;
/// assert_eq!(jet_len(2, 2), 6); // val, d1val1, d1val2, d2val1, d1val1_d1val2, d2val2
/// assert_eq!(jet_len(33, 1), 34);
/// ```
pub const fn jet_len(n: usize, m: usize) -> usize {
    mono::binomial(n + m, m)
}

/// A number carrying every partial derivative up to total order `M` with respect to `N`
/// independent variables (MESA's `auto_diff_real_2var_order2` is `Jet<2, 2, 6>`): the
/// value, d1val1, d1val2, d2val1, d1val1_d1val2, d2val2. `S` is the number of coefficients,
/// [`jet_len(N, M)`](jet_len), checked at compile time (write `Jet<2, 2, { jet_len(2, 2) }>`
/// if you prefer).
///
/// Partials are read by multi-index ([`Jet::partial`]); [`Jet::differentiate`] turns a
/// number into its derivative with respect to one variable, as a number of one order less
/// whose later arithmetic propagates it (MESA's `differentiate_i`, how Skye gets a
/// pressure from a free energy). It implements [`Real`](crate::Real): generic bodies,
/// distributions and `#[deriv_rule]` functions with partials written in their arguments
/// run on it.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// use fazang::Jet;
/// type J = Jet<2, 2, 6>;
/// let (x, y) = (J::variable(1.5, 0), J::variable(0.5, 1));
/// let f = x * x * y.sin();
/// assert_eq!(f.partial([1, 0]), 2.0 * 1.5 * 0.5_f64.sin());
/// assert!((f.partial([1, 1]) - 2.0 * 1.5 * 0.5_f64.cos()).abs() < 1e-15);
/// assert!((f.partial([0, 2]) + 1.5 * 1.5 * 0.5_f64.sin()).abs() < 1e-15);
/// // ∂f/∂x as a number: its own derivative in y is ∂²f/∂x∂y.
/// let fx = f.differentiate(0);
/// assert_eq!(fx.val(), f.partial([1, 0]));
/// assert_eq!(fx.partial([0, 1]), f.partial([1, 1]));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Jet<const N: usize, const M: usize, const S: usize> {
    /// Coefficients ∂^α f / α! in MESA's order (by total degree, then descending
    /// exponents).
    c: [f64; S],
    /// The total order up to which the coefficients are exact.
    ord: usize,
}

impl<const N: usize, const M: usize, const S: usize> Jet<N, M, S> {
    /// The exponents of each coefficient.
    const EXPS: [[u8; N]; S] = mono::exponents::<N, S>(M);
    /// The total degree of each coefficient.
    const DEG: [u8; S] = mono::degrees::<N, S>(&Self::EXPS);
    /// `MUL[i][j]`: the coefficient of the product of monomials i and j (`NONE` past M).
    const MUL: [[u16; S]; S] = mono::products::<N, S>(&Self::EXPS, M);

    /// A constant (exact to every order).
    ///
    /// ```
    /// use fazang::Jet;
    /// assert_eq!(Jet::<2, 1, 3>::constant(2.0).partial([1, 0]), 0.0);
    /// ```
    pub fn constant(x: f64) -> Self {
        let mut c = [0.0; S];
        c[0] = x;
        Jet { c, ord: M }
    }

    /// Independent variable number `i` (of `N`) at `x`: ∂/∂xᵢ = 1.
    ///
    /// Panics if `i >= N`.
    ///
    /// ```
    /// use fazang::Jet;
    /// let y = Jet::<2, 1, 3>::variable(5.0, 1);
    /// assert_eq!((y.partial([0, 0]), y.partial([0, 1])), (5.0, 1.0));
    /// ```
    pub fn variable(x: f64, i: usize) -> Self {
        assert!(
            i < N,
            "fazang: Jet variable {i} of a number in {N} variables"
        );
        let mut out = Self::constant(x);
        if M > 0 {
            out.c[1 + i] = 1.0;
        }
        out
    }

    /// The partial derivative ∂^α f for the multi-index `alpha` (the number of times each
    /// variable is differentiated): `[0, 0]` is the value, `[1, 1]` is MESA's
    /// `d1val1_d1val2`. Zero past the total order `M`.
    ///
    /// ```
    /// use fazang::Jet;
    /// let x = Jet::<1, 3, 4>::variable(2.0, 0);
    /// assert_eq!((x * x * x).partial([3]), 6.0);
    /// ```
    pub fn partial(&self, alpha: [usize; N]) -> f64 {
        self.partial_of(&alpha)
    }

    /// [`Jet::partial`] with the multi-index as a slice (as long as the number of
    /// variables).
    ///
    /// Panics if `alpha` has the wrong length.
    ///
    /// ```
    /// use fazang::Jet;
    /// let x = Jet::<2, 2, 6>::variable(2.0, 0);
    /// assert_eq!((x * x).partial_of(&[2, 0]), 2.0);
    /// ```
    pub fn partial_of(&self, alpha: &[usize]) -> f64 {
        assert_eq!(
            alpha.len(),
            N,
            "fazang: a multi-index of a Jet in {N} variables"
        );
        match mono::rank::<N>(alpha, M) {
            Some(i) => self.c[i] * mono::factorial_of(alpha),
            None => 0.0,
        }
    }

    /// Every partial derivative with its multi-index, in MESA's order (by total order,
    /// then descending exponents): `([0, 0], val)`, `([1, 0], d1val1)`, ...
    ///
    /// ```
    /// use fazang::Jet;
    /// let p = Jet::<2, 1, 3>::variable(4.0, 0).partials();
    /// assert_eq!(p, vec![(vec![0, 0], 4.0), (vec![1, 0], 1.0), (vec![0, 1], 0.0)]);
    /// ```
    pub fn partials(&self) -> Vec<(Vec<usize>, f64)> {
        Self::EXPS
            .iter()
            .zip(&self.c)
            .map(|(e, c)| {
                let alpha: Vec<usize> = e.iter().map(|&k| usize::from(k)).collect();
                let d = c * mono::factorial_of(&alpha);
                (alpha, d)
            })
            .collect()
    }

    /// The derivative with respect to variable `i` as a number of one total order less
    /// (MESA's `differentiate_i`): its value is ∂f/∂xᵢ and its partials are those of
    /// ∂f/∂xᵢ up to order `M − 1`; the order-`M` ones, which `self` cannot know, read as
    /// zero and [`Jet::order`] says so.
    ///
    /// Panics if `i >= N`.
    ///
    /// ```
    /// use fazang::Jet;
    /// // Skye's pressure from a free energy: p = ρ² ∂F/∂ρ, still carrying derivatives.
    /// type J = Jet<2, 2, 6>;
    /// let (rho, t) = (J::variable(2.0, 0), J::variable(3.0, 1));
    /// let free = rho * rho * t; // F = ρ² T
    /// let p = rho * rho * free.differentiate(0); // ρ² · 2ρT = 2ρ³T
    /// assert_eq!(p.partial([0, 0]), 48.0);
    /// assert_eq!(p.partial([0, 1]), 16.0); // ∂p/∂T = 2ρ³
    /// assert_eq!(p.order(), 1);
    /// ```
    pub fn differentiate(&self, i: usize) -> Self {
        assert!(
            i < N,
            "fazang: differentiate({i}) of a Jet in {N} variables"
        );
        let mut out = Jet {
            c: [0.0; S],
            ord: self.ord.saturating_sub(1),
        };
        for (k, e) in Self::EXPS.iter().enumerate() {
            if e[i] == 0 || usize::from(Self::DEG[k]) > self.ord {
                continue;
            }
            let mut lower = *e;
            lower[i] -= 1;
            let alpha: [usize; N] = lower.map(usize::from);
            if let Some(j) = mono::rank::<N>(&alpha, M) {
                out.c[j] += f64::from(e[i]) * self.c[k];
            }
        }
        out
    }

    /// The total order up to which the partials are exact (`M` unless the number came
    /// from [`Jet::differentiate`]).
    ///
    /// ```
    /// use fazang::Jet;
    /// assert_eq!(Jet::<2, 3, 10>::variable(1.0, 0).order(), 3);
    /// ```
    pub fn order(&self) -> usize {
        self.ord
    }

    /// The product, exact to total order `ord`.
    #[inline]
    fn product(&self, o: &Self, ord: usize) -> Self {
        let mul = &Self::MUL;
        let mut c = [0.0; S];
        for (i, &a) in self.c.iter().enumerate() {
            if a == 0.0 {
                continue;
            }
            for (j, &b) in o.c.iter().enumerate() {
                let k = mul[i][j];
                if k != mono::NONE {
                    c[usize::from(k)] += a * b;
                }
            }
        }
        Jet { c, ord }.truncate(ord)
    }

    #[inline]
    fn zip(&self, o: &Self, f: impl Fn(f64, f64) -> f64) -> Self {
        let ord = self.ord.min(o.ord);
        Jet {
            c: std::array::from_fn(|i| f(self.c[i], o.c[i])),
            ord,
        }
        .truncate(ord)
    }

    #[inline]
    fn map(&self, f: impl Fn(f64) -> f64) -> Self {
        Jet {
            c: self.c.map(f),
            ord: self.ord,
        }
    }

    /// Each coefficient times `f(its degree)`.
    #[inline]
    fn scale_by_degree(&self, f: impl Fn(f64) -> f64) -> Self {
        let mut out = *self;
        for (c, &d) in out.c.iter_mut().zip(&Self::DEG) {
            *c *= f(f64::from(d));
        }
        out.c[0] = 0.0;
        out
    }
}

impl<const N: usize, const M: usize, const S: usize> Arith for Jet<N, M, S> {
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
        let mut out = self;
        out.c[0] += f;
        out
    }
    #[inline]
    fn f_sub(self, f: f64) -> Self {
        let mut out = self.neg_();
        out.c[0] = f - self.c[0];
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
        self.c[0]
    }
}

impl<const N: usize, const M: usize, const S: usize> Graded for Jet<N, M, S> {
    #[inline]
    fn order(&self) -> usize {
        self.ord
    }
    #[inline]
    fn truncate(&self, k: usize) -> Self {
        let mut out = *self;
        out.ord = out.ord.min(k);
        for (c, &d) in out.c.iter_mut().zip(&Self::DEG) {
            if usize::from(d) > out.ord {
                *c = 0.0;
            }
        }
        out
    }
    #[inline]
    fn euler(&self) -> Self {
        self.scale_by_degree(|d| d)
    }
    #[inline]
    fn euler_inv(&self) -> Self {
        self.scale_by_degree(|d| if d == 0.0 { 0.0 } else { 1.0 / d })
    }
    #[inline]
    fn mul_nilpotent(&self, h: &Self) -> Self {
        self.product(h, (self.ord + 1).min(h.ord))
    }
    #[inline]
    fn constant_to(v: f64, k: usize) -> Self {
        let mut out = Self::constant(v);
        out.ord = k.min(M);
        out
    }
    #[inline]
    fn is_flat(&self) -> bool {
        self.c[1..].iter().all(|&c| c == 0.0)
    }
    #[inline]
    fn with_value(&self, v: f64) -> Self {
        let mut out = *self;
        out.c[0] = v;
        out
    }
}

number_ops!([const N: usize, const M: usize, const S: usize] Jet<N, M, S>, []);
graded_real!([const N: usize, const M: usize, const S: usize] Jet<N, M, S>, []);
crate::math::interop::num_traits_for!(@generic [const N: usize, const M: usize, const S: usize] Jet<N, M, S>);
crate::math::interop::inherent_math!(@generic [const N: usize, const M: usize, const S: usize] Jet<N, M, S>);
