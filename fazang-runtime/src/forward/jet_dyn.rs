//! [`JetDyn`]: MESA's numbers with the number of variables (and the order) chosen at run
//! time, like its `auto_diff_real_star_order1`.

use super::arena::{self, Block};
use super::graded::{graded_real, graded_unary_methods, Graded};
use super::monomials as mono;
use super::ops::{number_ops, Arith};
use std::cell::RefCell;
use std::rc::Rc;

/// The monomials of one (variables, order) pair.
struct Tables {
    n: usize,
    m: usize,
    exps: Vec<Vec<u8>>,
    deg: Vec<u8>,
    /// `mul[i * len + j]`: the product of monomials i and j, `u32::MAX` past the order.
    mul: Vec<u32>,
}

thread_local! {
    /// Tables by id − 1; never freed (one per (variables, order) pair used).
    static TABLES: RefCell<Vec<Rc<Tables>>> = const { RefCell::new(Vec::new()) };
}

fn tables_of(id: u16) -> Rc<Tables> {
    TABLES.with(|t| t.borrow()[usize::from(id) - 1].clone())
}

fn table_id(n: usize, m: usize) -> u16 {
    TABLES.with(|t| {
        let mut t = t.borrow_mut();
        if let Some(i) = t.iter().position(|x| x.n == n && x.m == m) {
            return (i + 1) as u16;
        }
        let exps = mono::exponents_dyn(n, m);
        let len = exps.len();
        assert!(len < u32::MAX as usize, "fazang: JetDyn too large");
        let deg: Vec<u8> = exps.iter().map(|e| e.iter().sum()).collect();
        let mut mul = vec![u32::MAX; len * len];
        for (i, a) in exps.iter().enumerate() {
            for (j, b) in exps.iter().enumerate() {
                let sum: Vec<usize> = a.iter().zip(b).map(|(x, y)| usize::from(x + y)).collect();
                if let Some(r) = mono::rank_of(&sum, m) {
                    mul[i * len + j] = r as u32;
                }
            }
        }
        t.push(Rc::new(Tables {
            n,
            m,
            exps,
            deg,
            mul,
        }));
        assert!(
            t.len() < usize::from(u16::MAX),
            "fazang: too many JetDyn shapes"
        );
        t.len() as u16
    })
}

/// Every mixed partial derivative up to total order `m` in `n` variables, with `n` and
/// `m` chosen at run time (MESA's `auto_diff_real_star_order1` is `m = 1`): the run-time
/// twin of [`Jet`](crate::Jet), with the same multi-index access and
/// [`differentiate`](JetDyn::differentiate). The partials live in the forward arena so
/// that the number stays `Copy` (see [`forward_scope`](crate::forward_scope)).
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// use fazang::{forward_scope, JetDyn};
/// forward_scope(|| {
///     let n = 33; // MESA/star's solver variables
///     let x: Vec<JetDyn> = (0..n).map(|i| JetDyn::variable(n, 1, 1.0 + i as f64, i)).collect();
///     let y = x[4] * x[5].ln();
///     let mut alpha = vec![0; n];
///     alpha[5] = 1;
///     assert!((y.partial(&alpha) - 5.0 / 6.0).abs() < 1e-15);
/// });
/// ```
#[derive(Clone, Copy, Debug)]
pub struct JetDyn {
    v: f64,
    /// The coefficients ∂^α f/α! after the value, or empty if they are all zero.
    hi: Block,
    /// The tables of (variables, order); 0 for a constant, which fits any shape.
    tab: u16,
    /// The total order up to which the coefficients are exact.
    ord: u16,
}

impl JetDyn {
    /// A constant (fits numbers of any shape).
    ///
    /// ```
    /// use fazang::JetDyn;
    /// assert_eq!(JetDyn::constant(2.5).partial(&[0, 0]), 2.5);
    /// ```
    pub fn constant(x: f64) -> JetDyn {
        JetDyn {
            v: x,
            hi: Block::EMPTY,
            tab: 0,
            ord: u16::MAX,
        }
    }

    /// Independent variable number `i` of `n` at `x`, carrying partials to total order
    /// `order`.
    ///
    /// Panics if `i >= n`.
    ///
    /// ```
    /// use fazang::{forward_scope, JetDyn};
    /// forward_scope(|| {
    ///     let y = JetDyn::variable(2, 2, 3.0, 1);
    ///     assert_eq!((y * y).partial(&[0, 2]), 2.0);
    /// });
    /// ```
    pub fn variable(n: usize, order: usize, x: f64, i: usize) -> JetDyn {
        assert!(
            i < n,
            "fazang: JetDyn variable {i} of a number in {n} variables"
        );
        let tab = table_id(n, order);
        let len = mono::binomial(n + order, order);
        let mut hi = vec![0.0; len - 1];
        if order > 0 {
            hi[i] = 1.0;
        }
        JetDyn {
            v: x,
            hi: arena::alloc(&hi),
            tab,
            ord: order as u16,
        }
    }

    /// The partial derivative ∂^α f for the multi-index `alpha` (one entry per variable;
    /// a constant accepts any length). Zero past the total order.
    ///
    /// Panics if `alpha` has the wrong length.
    ///
    /// ```
    /// use fazang::{forward_scope, JetDyn};
    /// forward_scope(|| {
    ///     let x = JetDyn::variable(1, 3, 2.0, 0);
    ///     assert_eq!((x * x * x).partial(&[2]), 12.0);
    /// });
    /// ```
    pub fn partial(&self, alpha: &[usize]) -> f64 {
        if self.tab == 0 {
            return if alpha.iter().all(|&a| a == 0) {
                self.v
            } else {
                0.0
            };
        }
        let t = tables_of(self.tab);
        assert_eq!(
            alpha.len(),
            t.n,
            "fazang: a multi-index of a JetDyn in {} variables",
            t.n
        );
        match mono::rank_of(alpha, t.m) {
            Some(0) => self.v,
            Some(i) => {
                arena::read(self.hi, |c| c.get(i - 1).copied().unwrap_or(0.0))
                    * mono::factorial_of(alpha)
            }
            None => 0.0,
        }
    }

    /// Every partial with its multi-index, in MESA's order (a constant: its value).
    ///
    /// ```
    /// use fazang::{forward_scope, JetDyn};
    /// forward_scope(|| {
    ///     let p = JetDyn::variable(2, 1, 4.0, 1).partials();
    ///     assert_eq!(p, vec![(vec![0, 0], 4.0), (vec![1, 0], 0.0), (vec![0, 1], 1.0)]);
    /// });
    /// ```
    pub fn partials(&self) -> Vec<(Vec<usize>, f64)> {
        if self.tab == 0 {
            return vec![(Vec::new(), self.v)];
        }
        let t = tables_of(self.tab);
        let d = self.dense(&t);
        t.exps
            .iter()
            .zip(d)
            .map(|(e, c)| {
                let alpha: Vec<usize> = e.iter().map(|&k| usize::from(k)).collect();
                let x = c * mono::factorial_of(&alpha);
                (alpha, x)
            })
            .collect()
    }

    /// The derivative with respect to variable `i` as a number of one order less
    /// (MESA's `differentiate_i`; see [`Jet::differentiate`](crate::Jet::differentiate)).
    ///
    /// Panics if `i` is not a variable of this number.
    ///
    /// ```
    /// use fazang::{forward_scope, JetDyn};
    /// forward_scope(|| {
    ///     let x = JetDyn::variable(1, 2, 3.0, 0);
    ///     let d = (x * x).differentiate(0); // 2x
    ///     assert_eq!((d.partial(&[0]), d.partial(&[1]), d.order()), (6.0, 2.0, 1));
    /// });
    /// ```
    pub fn differentiate(&self, i: usize) -> JetDyn {
        if self.tab == 0 {
            return JetDyn::constant(0.0);
        }
        let t = tables_of(self.tab);
        assert!(
            i < t.n,
            "fazang: differentiate({i}) of a JetDyn in {} variables",
            t.n
        );
        let c = self.dense(&t);
        let ord = self.ord.saturating_sub(1);
        let mut d = vec![0.0; c.len()];
        for (k, e) in t.exps.iter().enumerate() {
            if e[i] == 0 || t.deg[k] as u16 > self.ord {
                continue;
            }
            let mut lower: Vec<usize> = e.iter().map(|&x| usize::from(x)).collect();
            lower[i] -= 1;
            if let Some(j) = mono::rank_of(&lower, t.m) {
                d[j] += f64::from(e[i]) * c[k];
            }
        }
        JetDyn::from_dense(self.tab, ord, &d)
    }

    /// The total order up to which the partials are exact.
    ///
    /// ```
    /// use fazang::{forward_scope, JetDyn};
    /// forward_scope(|| assert_eq!(JetDyn::variable(3, 2, 1.0, 0).order(), 2));
    /// ```
    pub fn order(&self) -> usize {
        if self.tab == 0 {
            usize::from(self.ord)
        } else {
            usize::from(self.ord).min(tables_of(self.tab).m)
        }
    }

    /// All coefficients, the value first.
    fn dense(&self, t: &Tables) -> Vec<f64> {
        let mut d = vec![0.0; t.exps.len()];
        d[0] = self.v;
        arena::read(self.hi, |c| d[1..1 + c.len()].copy_from_slice(c));
        d
    }

    fn from_dense(tab: u16, ord: u16, d: &[f64]) -> JetDyn {
        let hi = if d[1..].iter().all(|&x| x == 0.0) {
            Block::EMPTY
        } else {
            arena::alloc(&d[1..])
        };
        JetDyn {
            v: d[0],
            hi,
            tab,
            ord,
        }
    }

    /// The shape both operands share (a constant fits any).
    fn shape(&self, o: &JetDyn) -> u16 {
        match (self.tab, o.tab) {
            (0, t) | (t, 0) => t,
            (a, b) if a == b => a,
            (a, b) => {
                let (ta, tb) = (tables_of(a), tables_of(b));
                panic!(
                    "fazang: JetDyn numbers of different shapes combined ({} variables to \
                     order {} and {} to order {})",
                    ta.n, ta.m, tb.n, tb.m
                )
            }
        }
    }

    fn zip(&self, o: &JetDyn, f: impl Fn(f64, f64) -> f64) -> JetDyn {
        let tab = self.shape(o);
        let ord = self.ord.min(o.ord);
        if tab == 0 {
            return JetDyn {
                v: f(self.v, o.v),
                ord,
                ..JetDyn::constant(0.0)
            };
        }
        let t = tables_of(tab);
        let (a, b) = (self.dense(&t), o.dense(&t));
        let d: Vec<f64> = a.iter().zip(&b).map(|(x, y)| f(*x, *y)).collect();
        JetDyn::from_dense(tab, ord, &d).truncate(usize::from(ord))
    }

    fn map(&self, f: impl Fn(f64) -> f64) -> JetDyn {
        if self.tab == 0 {
            return JetDyn {
                v: f(self.v),
                ..*self
            };
        }
        let t = tables_of(self.tab);
        let d: Vec<f64> = self.dense(&t).into_iter().map(f).collect();
        JetDyn::from_dense(self.tab, self.ord, &d)
    }

    /// The product, exact to total order `ord`.
    fn product(&self, o: &JetDyn, ord: u16) -> JetDyn {
        let tab = self.shape(o);
        if tab == 0 {
            return JetDyn {
                v: self.v * o.v,
                ord,
                ..JetDyn::constant(0.0)
            };
        }
        let t = tables_of(tab);
        let (a, b) = (self.dense(&t), o.dense(&t));
        let len = a.len();
        let mut d = vec![0.0; len];
        for (i, &x) in a.iter().enumerate() {
            if x == 0.0 {
                continue;
            }
            for (j, &y) in b.iter().enumerate() {
                let k = t.mul[i * len + j];
                if k != u32::MAX {
                    d[k as usize] += x * y;
                }
            }
        }
        JetDyn::from_dense(tab, ord, &d).truncate(usize::from(ord))
    }

    /// Each coefficient times `f(its degree)`, the value dropped.
    fn scale_by_degree(&self, f: impl Fn(f64) -> f64) -> JetDyn {
        if self.tab == 0 {
            return JetDyn { v: 0.0, ..*self };
        }
        let t = tables_of(self.tab);
        let mut d = self.dense(&t);
        for (c, &g) in d.iter_mut().zip(&t.deg) {
            *c *= f(f64::from(g));
        }
        d[0] = 0.0;
        JetDyn::from_dense(self.tab, self.ord, &d)
    }
}

impl Arith for JetDyn {
    fn add_(self, o: Self) -> Self {
        self.zip(&o, |a, b| a + b)
    }
    fn sub_(self, o: Self) -> Self {
        self.zip(&o, |a, b| a - b)
    }
    fn mul_(self, o: Self) -> Self {
        self.product(&o, self.ord.min(o.ord))
    }
    fn div_(self, o: Self) -> Self {
        super::graded::div(self, o)
    }
    fn neg_(self) -> Self {
        self.map(|a| -a)
    }
    fn add_f(self, f: f64) -> Self {
        arena::check(self.hi);
        JetDyn {
            v: self.v + f,
            ..self
        }
    }
    fn f_sub(self, f: f64) -> Self {
        JetDyn {
            v: f - self.v,
            ..self.neg_()
        }
    }
    fn mul_f(self, f: f64) -> Self {
        self.map(|a| a * f)
    }
    fn div_f(self, f: f64) -> Self {
        self.map(|a| a / f)
    }
    fn f_div(self, f: f64) -> Self {
        super::graded::div(JetDyn::constant(f), self)
    }
    fn rem_(self, o: Self) -> Self {
        let r = self.v % o.v;
        let (_, db) = crate::math::elementary::deriv2::rem(self.v, o.v, r);
        super::graded::shifted(self, o, db, r)
    }
    fn rem_f(self, f: f64) -> Self {
        arena::check(self.hi);
        JetDyn {
            v: self.v % f,
            ..self
        }
    }
    fn f_rem(self, f: f64) -> Self {
        let r = f % self.v;
        let (_, db) = crate::math::elementary::deriv2::rem(f, self.v, r);
        (self * db).with_value(r)
    }
    fn cst(f: f64) -> Self {
        JetDyn::constant(f)
    }
    fn value(&self) -> f64 {
        self.v
    }
}

impl Graded for JetDyn {
    fn order(&self) -> usize {
        JetDyn::order(self)
    }
    fn truncate(&self, k: usize) -> Self {
        let ord = self.ord.min(k.min(usize::from(u16::MAX)) as u16);
        if self.tab == 0 || arena::read(self.hi, <[f64]>::is_empty) {
            return JetDyn { ord, ..*self };
        }
        let t = tables_of(self.tab);
        let mut d = self.dense(&t);
        for (c, &g) in d.iter_mut().zip(&t.deg) {
            if u16::from(g) > ord {
                *c = 0.0;
            }
        }
        JetDyn::from_dense(self.tab, ord, &d)
    }
    fn euler(&self) -> Self {
        self.scale_by_degree(|d| d)
    }
    fn euler_inv(&self) -> Self {
        self.scale_by_degree(|d| if d == 0.0 { 0.0 } else { 1.0 / d })
    }
    fn mul_nilpotent(&self, h: &Self) -> Self {
        self.product(h, self.ord.saturating_add(1).min(h.ord))
    }
    fn constant_to(v: f64, k: usize) -> Self {
        JetDyn {
            ord: k.min(usize::from(u16::MAX)) as u16,
            ..JetDyn::constant(v)
        }
    }
    fn is_flat(&self) -> bool {
        arena::read(self.hi, |c| c.iter().all(|&x| x == 0.0))
    }
    fn with_value(&self, v: f64) -> Self {
        arena::check(self.hi);
        JetDyn { v, ..*self }
    }
}

number_ops!([] JetDyn, []);
graded_real!([] JetDyn, []);
crate::math::interop::num_traits_for!(JetDyn);
crate::math::interop::inherent_math!(JetDyn);
