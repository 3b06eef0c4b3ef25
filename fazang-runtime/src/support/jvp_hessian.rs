//! Support for the `_jvp`, `_hessian` and `_hvp` items `#[differentiate]` generates: make
//! the active parameters (of any `f64` shape) into the mode's scalar, seeded along a
//! direction or as Hessian inputs, and read values, tangents, gradients and Hessian rows
//! back. Not a public API: reached through `::fazang::__private`.
//!
//! The inputs of every parameter are flattened row-major in parameter order (the order of
//! `v` for `_jvp`/`_hvp` and of the Hessian's rows and columns), as `Param` does for
//! `_grad`.

use crate::drivers::hessian::{
    symmetrize, HessianFwdScalar, HessianScalar, HvpScalar, HESSIAN_LANES,
};
use crate::forward::Dual;
use crate::tape::scope::NestedScope;
use crate::tape::var::{jacobian_into, Var};

/// A parameter shape made of `f64`s (`f64`, arrays, slices, vectors, nested), rebuilt with
/// another scalar for every `f64`.
///
/// ```
/// use fazang::__private::Seed;
/// let x = vec![[1.0, 2.0], [3.0, 4.0]];
/// assert_eq!(x.count(), 4);
/// let doubled: Vec<[f64; 2]> = x.seed(&mut |v| 2.0 * v);
/// assert_eq!(doubled, vec![[2.0, 4.0], [6.0, 8.0]]);
/// ```
// Only a struct can miss it (every f64 shape has it): the message of `Composite`, so
// that rustc reports an unregistered struct once.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a #[deriv_rule] struct, so #[differentiate] cannot take it as an active parameter",
    label = "#[differentiate] takes a by-value parameter of a single capitalised type name for a #[deriv_rule] struct",
    note = "if it is data, list the active parameters with #[differentiate(wrt(...))]; to \
            differentiate with respect to its f64 fields, put #[deriv_rule] on its definition",
    note = "a type alias taken as a parameter must name a shape of `f64`s \
            (`type State = [f64; 2];`, `type Weights = Vec<f64>;`)"
)]
pub trait Seed {
    /// The same shape with `T` for `f64` (`Vec<T>` for a slice).
    type Of<T>;
    /// The number of `f64`s.
    fn count(&self) -> usize;
    /// Every `f64` made into a `T` by `make`, row-major.
    fn seed<T>(&self, make: &mut dyn FnMut(f64) -> T) -> Self::Of<T>;
    /// This parameter's shape filled, row-major, from `flat` (a gradient given back in
    /// the parameter's shape; zero once `flat` runs out).
    ///
    /// ```
    /// use fazang::__private::Seed;
    /// let x: &[f64] = &[1.0, 2.0];
    /// let g = x.shaped(&mut [0.5, 0.25].into_iter());
    /// assert_eq!(g, vec![0.5, 0.25]);
    /// ```
    fn shaped(&self, flat: &mut dyn Iterator<Item = f64>) -> Self::Of<f64> {
        self.seed(&mut |_| flat.next().unwrap_or(0.0))
    }
}

#[diagnostic::do_not_recommend]
impl Seed for f64 {
    type Of<T> = T;
    #[inline]
    fn count(&self) -> usize {
        1
    }
    #[inline]
    fn seed<T>(&self, make: &mut dyn FnMut(f64) -> T) -> T {
        make(*self)
    }
}

#[diagnostic::do_not_recommend]
impl<P: Seed, const N: usize> Seed for [P; N] {
    type Of<T> = [P::Of<T>; N];
    fn count(&self) -> usize {
        self.iter().map(Seed::count).sum()
    }
    fn seed<T>(&self, make: &mut dyn FnMut(f64) -> T) -> Self::Of<T> {
        let mut it = self.iter();
        std::array::from_fn(|_| it.next().expect("N elements").seed(make))
    }
}

#[diagnostic::do_not_recommend]
impl<P: Seed> Seed for [P] {
    type Of<T> = Vec<P::Of<T>>;
    fn count(&self) -> usize {
        self.iter().map(Seed::count).sum()
    }
    fn seed<T>(&self, make: &mut dyn FnMut(f64) -> T) -> Self::Of<T> {
        self.iter().map(|p| p.seed(make)).collect()
    }
}

#[diagnostic::do_not_recommend]
impl<P: Seed> Seed for Vec<P> {
    type Of<T> = Vec<P::Of<T>>;
    fn count(&self) -> usize {
        self.as_slice().count()
    }
    fn seed<T>(&self, make: &mut dyn FnMut(f64) -> T) -> Self::Of<T> {
        self.as_slice().seed(make)
    }
}

/// A vector result of some scalar `T`, flattened row-major.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a vector result",
    label = "a #[differentiate] function with a Jacobian returns `Vec<f64>`, `[f64; M]` or a nesting of them"
)]
pub trait Flatten<T> {
    /// Push every scalar, row-major.
    fn flatten_into(self, out: &mut Vec<T>);
}

impl<S> Flatten<Dual<S>> for Dual<S> {
    fn flatten_into(self, out: &mut Vec<Dual<S>>) {
        out.push(self);
    }
}

impl<T, F: Flatten<T>, const N: usize> Flatten<T> for [F; N] {
    fn flatten_into(self, out: &mut Vec<T>) {
        for f in self {
            f.flatten_into(out);
        }
    }
}

impl<T, F: Flatten<T>> Flatten<T> for Vec<F> {
    fn flatten_into(self, out: &mut Vec<T>) {
        for f in self {
            f.flatten_into(out);
        }
    }
}

/// The panic of a direction of the wrong length.
#[cold]
#[track_caller]
fn wrong_length(what: &str, got: usize, want: usize) -> ! {
    panic!(
        "fazang: {what}: the direction v has {got} entries, but the function has {want} \
         active inputs (flattened in parameter order); give one entry per input"
    )
}

/// The inputs of a `_jvp`: dual numbers whose tangents are the entries of `v`, in order.
pub struct Direction<'a> {
    v: std::slice::Iter<'a, f64>,
}

impl<'a> Direction<'a> {
    /// Seeds from `v`; panics unless it has one entry per input (`count`).
    #[track_caller]
    pub fn new(v: &'a [f64], count: usize) -> Self {
        if v.len() != count {
            wrong_length("_jvp", v.len(), count);
        }
        Direction { v: v.iter() }
    }

    /// A parameter as dual numbers, tangents taken from `v`.
    pub fn seed<P: Seed + ?Sized>(&mut self, p: &P) -> P::Of<Dual<f64>> {
        let v = &mut self.v;
        p.seed(&mut |x| Dual::new(x, v.next().copied().unwrap_or(0.0)))
    }
}

/// `(value, directional derivative)` of a scalar result.
#[inline]
pub fn jvp_scalar(y: Dual<f64>) -> (f64, f64) {
    (y.re, y.eps)
}

/// `(values, J v)` of a vector result of any shape, flattened row-major.
pub fn jvp_vector<F: Flatten<Dual<f64>>>(y: F) -> (Vec<f64>, Vec<f64>) {
    let mut out = Vec::new();
    y.flatten_into(&mut out);
    out.into_iter().map(|d| (d.re, d.eps)).unzip()
}

/// The inputs of an `_hvp`: dual numbers over `Var` (reverse-over-forward), tangents from
/// `v`, on a nested tape scope that ends with the session.
pub struct Hvp<'a> {
    _scope: NestedScope,
    v: std::slice::Iter<'a, f64>,
    vars: Vec<Var>,
}

impl<'a> Hvp<'a> {
    /// Opens the scope; panics unless `v` has one entry per input (`count`).
    #[track_caller]
    pub fn new(v: &'a [f64], count: usize) -> Self {
        if v.len() != count {
            wrong_length("_hvp", v.len(), count);
        }
        Hvp {
            _scope: NestedScope::begin(),
            v: v.iter(),
            vars: Vec::with_capacity(count),
        }
    }

    /// A parameter as [`HvpScalar`]s: new variables, tangents taken from `v`.
    pub fn seed<P: Seed + ?Sized>(&mut self, p: &P) -> P::Of<HvpScalar> {
        let (v, vars) = (&mut self.v, &mut self.vars);
        p.seed(&mut |x| {
            let var = Var::new(x);
            vars.push(var);
            Dual::new(var, Var::constant(v.next().copied().unwrap_or(0.0)))
        })
    }

    /// `(value, H v)`: one backward sweep of the tangent.
    pub fn finish(self, y: HvpScalar) -> (f64, Vec<f64>) {
        let mut hv = vec![0.0; self.vars.len()];
        crate::tape::var::grad_in_scope_into(y.eps, &self.vars, &mut hv);
        (y.re.val(), hv)
    }
}

/// How an `_hessian` seeds its inputs and reads its passes: reverse-over-forward
/// ([`Reverse`], any number of inputs) or forward-over-forward ([`Forward`], a few).
#[diagnostic::on_unimplemented(message = "`{Self}` is not a way to compute a Hessian")]
pub trait HessianMode {
    /// The scalar the function runs on.
    type Scalar: Copy;
    /// The number of passes for `n` inputs.
    fn passes(n: usize) -> usize;
}

/// Reverse-over-forward: [`HessianScalar`], 8 directions per pass, one block sweep.
pub enum Reverse {}

impl HessianMode for Reverse {
    type Scalar = HessianScalar;
    fn passes(n: usize) -> usize {
        n.div_ceil(HESSIAN_LANES).max(1)
    }
}

/// Forward-over-forward with `L` lanes: [`HessianFwdScalar<L>`], one `L × L` block of
/// the Hessian per pass (one pass for up to `L` inputs).
pub enum Forward<const L: usize> {}

impl<const L: usize> HessianMode for Forward<L> {
    type Scalar = HessianFwdScalar<L>;
    fn passes(n: usize) -> usize {
        let b = n.div_ceil(L).max(1);
        b * (b + 1) / 2
    }
}

/// Up to this many inputs, an `_hessian` is fastest by forward-over-forward with this
/// many lanes (the Hessian tables of `docs/performance.md`); above, by reverse-over-forward.
pub const FORWARD_HESSIAN_MAX: usize = 4;

/// The passes of an `_hessian`: each seeds the inputs ([`HessianPass::seed`]), runs the
/// function and hands its result to [`HessianPass::finish`]; then
/// [`HessianSession::finish`] gives the value, the gradient (flat) and the rows.
pub struct HessianSession<M: HessianMode> {
    n: usize,
    pass: usize,
    value: f64,
    grad: Vec<f64>,
    rows: Vec<Vec<f64>>,
    mode: std::marker::PhantomData<M>,
}

/// One pass of a [`HessianSession`].
pub struct HessianPass<'a, M: HessianMode> {
    session: &'a mut HessianSession<M>,
    /// The reverse mode's nested tape scope (ends with the pass).
    _scope: Option<NestedScope>,
    vars: Vec<Var>,
    next: usize,
}

impl<M: HessianMode> HessianSession<M> {
    /// A session for a function of `n` inputs.
    pub fn new(n: usize) -> Self {
        HessianSession {
            n,
            pass: 0,
            value: f64::NAN,
            grad: vec![0.0; n],
            rows: vec![vec![0.0; n]; n],
            mode: std::marker::PhantomData,
        }
    }

    /// `(value, gradient, rows)`, the gradient flat in input order (give it its
    /// parameters' shapes with `Param::grad`).
    pub fn finish(mut self) -> (f64, Vec<f64>, Vec<Vec<f64>>) {
        symmetrize(&mut self.rows);
        (self.value, self.grad, self.rows)
    }
}

impl HessianSession<Reverse> {
    /// The next pass, or `None` when every direction has been seeded.
    pub fn next_pass(&mut self) -> Option<HessianPass<'_, Reverse>> {
        if self.pass >= Reverse::passes(self.n) {
            return None;
        }
        Some(HessianPass {
            _scope: Some(NestedScope::begin()),
            vars: Vec::with_capacity(self.n),
            next: 0,
            session: self,
        })
    }
}

impl HessianPass<'_, Reverse> {
    /// A parameter as [`HessianScalar`]s: new variables, the pass's directions seeded.
    pub fn seed<P: Seed + ?Sized>(&mut self, p: &P) -> P::Of<HessianScalar> {
        let start = self.session.pass * HESSIAN_LANES;
        let (vars, next) = (&mut self.vars, &mut self.next);
        p.seed(&mut |x| {
            let var = Var::new(x);
            vars.push(var);
            let mut eps = [Var::constant(0.0); HESSIAN_LANES];
            if let Some(e) = next.checked_sub(start).and_then(|l| eps.get_mut(l)) {
                *e = Var::constant(1.0);
            }
            *next += 1;
            Dual::new(var, eps)
        })
    }

    /// Read the pass's value, gradient entries and Hessian rows.
    pub fn finish(self, y: HessianScalar) {
        let s = self.session;
        let start = s.pass * HESSIAN_LANES;
        let lanes = HESSIAN_LANES.min(s.n.saturating_sub(start));
        s.value = y.re.val();
        for l in 0..lanes {
            s.grad[start + l] = y.eps[l].val();
        }
        jacobian_into(
            &y.eps[..lanes],
            &self.vars,
            &mut s.rows[start..start + lanes],
        );
        s.pass += 1;
    }
}

impl<const L: usize> HessianSession<Forward<L>> {
    /// The next pass (block of the Hessian), or `None` when every block is done.
    pub fn next_pass(&mut self) -> Option<HessianPass<'_, Forward<L>>> {
        if self.pass >= Forward::<L>::passes(self.n) {
            return None;
        }
        Some(HessianPass {
            _scope: None,
            vars: Vec::new(),
            next: 0,
            session: self,
        })
    }
}

impl<const L: usize> HessianPass<'_, Forward<L>> {
    /// The pass's block (bi, bj), bi ≤ bj, row by row.
    fn block(&self) -> (usize, usize) {
        let b = self.session.n.div_ceil(L).max(1);
        let mut k = self.session.pass;
        for bi in 0..b {
            if k < b - bi {
                return (bi, bi + k);
            }
            k -= b - bi;
        }
        unreachable!("pass past the last block")
    }

    /// A parameter as [`HessianFwdScalar<L>`]s, the block's directions seeded.
    pub fn seed<P: Seed + ?Sized>(&mut self, p: &P) -> P::Of<HessianFwdScalar<L>> {
        let (bi, bj) = self.block();
        let (si, sj) = (bi * L, bj * L);
        let next = &mut self.next;
        p.seed(&mut |x| {
            let k = *next;
            *next += 1;
            let mut inner = [0.0; L];
            if let Some(e) = k.checked_sub(si).and_then(|l| inner.get_mut(l)) {
                *e = 1.0;
            }
            let mut outer = [Dual::constant(0.0); L];
            if let Some(e) = k.checked_sub(sj).and_then(|l| outer.get_mut(l)) {
                *e = Dual::constant(1.0);
            }
            Dual::new(Dual::new(x, inner), outer)
        })
    }

    /// Read the pass's value, gradient entries and Hessian block.
    pub fn finish(self, y: HessianFwdScalar<L>) {
        let (bi, bj) = self.block();
        let (si, sj) = (bi * L, bj * L);
        let s = self.session;
        let n = s.n;
        s.value = y.re.re;
        for (l, &d) in y.re.eps.iter().enumerate().take(n.saturating_sub(si)) {
            s.grad[si + l] = d;
        }
        for (lj, col) in y.eps.iter().enumerate().take(n.saturating_sub(sj)) {
            for (li, &h) in col.eps.iter().enumerate().take(n.saturating_sub(si)) {
                s.rows[si + li][sj + lj] = h;
                s.rows[sj + lj][si + li] = h;
            }
        }
        s.pass += 1;
    }
}
