//! Parameters of any shape as inputs of a gradient: [`Param`] makes the active copy of a
//! parameter (one independent variable per `f64` entry, recorded through [`Inputs`]) and
//! reads its gradient back in the parameter's own shape (through an [`AdjointReader`]).
//!
//! One trait for every shape, so that code taking parameters of any type (what
//! `#[differentiate]` generates, or a driver written by hand) activates and reads them
//! uniformly: `f64`, arrays, slices, `Vec`s of any `Param` (so `Vec<Vec<f64>>`),
//! structs registered with `#[deriv_rule]`, nalgebra matrices and vectors (feature
//! `nalgebra`: `DVector`, `DMatrix`, `SVector`, `SMatrix`) and ndarray arrays and views
//! (feature `ndarray`: `Array1`, `Array2`, `ArrayView1`, ...).
//!
//! | parameter | `Active` | `Gradient` |
//! | --- | --- | --- |
//! | `f64` | `Var` | `f64` |
//! | `[T; N]` | `[T::Active; N]` | `[T::Gradient; N]` |
//! | `[T]`, `Vec<T>` | `Vec<T::Active>` | `Vec<T::Gradient>` |
//! | `#[deriv_rule]` struct `Bar` | `Bar<Var>` | `Bar` |
//! | `OMatrix<f64, R, C>` (nalgebra) | `OMatrix<Var, R, C>` | `OMatrix<f64, R, C>` |
//! | `ArrayBase<S, D>` with `f64` entries (ndarray) | `Array<Var, D>` | `Array<f64, D>` |
//!
//! Entries are taken in a fixed order (element order; column-major for nalgebra, logical
//! row-major order for ndarray, field order for structs), and every `Param` records its
//! variables consecutively, so the inputs of a call, activated one parameter after the
//! other, are one run of tape nodes: their adjoints are read back in one pass, into the
//! parameters' shapes or flat into a caller's buffer ([`Inputs::adjoints_into`]).
//!
//! # Example
//!
//! A gradient driver for a function of a matrix and a nested vector:
//!
//! ```
//! use fazang::prelude::*;
//! use fazang::param::{Inputs, Param};
//! use nalgebra::DMatrix;
//!
//! let a = DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 3.0, 4.0]);
//! let w = vec![vec![0.5], vec![1.5, 2.0]];
//! let (ga, gw) = nested(|| {
//!     let mut inputs = Inputs::new();
//!     let av = a.activate(&mut inputs);
//!     let wv = w.activate(&mut inputs);
//!     let y = av[(0, 1)] * wv[1][1] + av.sum() * wv[0][0];
//!     y.grad();
//!     let mut adj = inputs.adjoints();
//!     (a.gradient(&mut adj), w.gradient(&mut adj))
//! });
//! assert_eq!(ga, DMatrix::from_row_slice(2, 2, &[0.5, 2.5, 0.5, 0.5]));
//! assert_eq!(gw, vec![vec![10.0], vec![0.0, 2.0]]);
//! ```

#[cfg(feature = "nalgebra")]
mod nalgebra;
#[cfg(feature = "ndarray")]
mod ndarray;

use crate::composite::Composite;
use crate::tape::var::{nth_after, read_run, Var};

/// A parameter shape whose `f64` entries can be made active and whose gradient comes
/// back in the same shape. See the [module documentation](self) for the shapes.
///
/// ```
/// use fazang::prelude::*;
/// use fazang::param::{Inputs, Param};
/// let x = [1.0, 2.0];
/// let g = nested(|| {
///     let mut inputs = Inputs::new();
///     let xv = x.activate(&mut inputs);
///     (xv[0] * xv[1]).grad();
///     x.gradient(&mut inputs.adjoints())
/// });
/// assert_eq!(g, [2.0, 1.0]);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be an active parameter",
    label = "#[differentiate] differentiates `f64`s and arrays, slices and vectors of them",
    note = "if it is data, name the active parameters with #[differentiate(wrt(..))]"
)]
pub trait Param {
    /// The same shape with [`Var`] entries, owned (what a generic body is called with).
    type Active;
    /// The gradient: the same shape with `f64` entries, owned.
    type Gradient;

    /// Number of `f64` entries (independent variables this parameter makes).
    ///
    /// ```
    /// use fazang::param::Param;
    /// assert_eq!(vec![vec![1.0, 2.0], vec![3.0]].count(), 3);
    /// ```
    fn count(&self) -> usize;

    /// The active copy: a new independent variable per entry, in order, recorded through
    /// `inputs`.
    ///
    /// ```
    /// use fazang::prelude::*;
    /// use fazang::param::{Inputs, Param};
    /// let mut inputs = Inputs::new();
    /// let v = [2.0, 3.0].activate(&mut inputs);
    /// assert_eq!((v[1].val(), inputs.len()), (3.0, 2));
    /// # fazang::clear_tape();
    /// ```
    fn activate(&self, inputs: &mut Inputs) -> Self::Active;

    /// The adjoints of this parameter's variables, read from `adj` in the order
    /// [`activate`](Param::activate) made them, in this parameter's shape.
    ///
    /// ```
    /// use fazang::prelude::*;
    /// use fazang::param::{Inputs, Param};
    /// let x = 3.0;
    /// let g = nested(|| {
    ///     let mut inputs = Inputs::new();
    ///     let v = x.activate(&mut inputs);
    ///     (v * v).grad();
    ///     x.gradient(&mut inputs.adjoints())
    /// });
    /// assert_eq!(g, 6.0);
    /// ```
    fn gradient(&self, adj: &mut AdjointReader) -> Self::Gradient;

    /// [`activate`](Param::activate) of every element of a slice (a hook so that `f64`
    /// slices record in one visit to the tape).
    #[doc(hidden)]
    fn activate_slice(xs: &[Self], inputs: &mut Inputs) -> Vec<Self::Active>
    where
        Self: Sized,
    {
        xs.iter().map(|x| x.activate(inputs)).collect()
    }

    /// [`gradient`](Param::gradient) of every element of a slice (read in one visit for
    /// `f64`).
    #[doc(hidden)]
    fn gradient_slice(xs: &[Self], adj: &mut AdjointReader) -> Vec<Self::Gradient>
    where
        Self: Sized,
    {
        xs.iter().map(|x| x.gradient(adj)).collect()
    }
}

/// The independent variables of one gradient, recorded one parameter after the other:
/// a run of consecutive tape nodes.
///
/// ```
/// use fazang::prelude::*;
/// use fazang::param::{Inputs, Param};
/// let (x, y) = (2.0, vec![1.0, 5.0]);
/// let mut g = [0.0; 3];
/// nested(|| {
///     let mut inputs = Inputs::new();
///     let (xv, yv) = (x.activate(&mut inputs), y.activate(&mut inputs));
///     (xv * yv[1] - yv[0]).grad();
///     inputs.adjoints_into(&mut g);
/// });
/// assert_eq!(g, [5.0, -1.0, 2.0]);
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct Inputs {
    first: Option<Var>,
    len: u32,
}

impl Inputs {
    /// No inputs yet (records nothing).
    ///
    /// ```
    /// let inputs = fazang::param::Inputs::new();
    /// assert!(inputs.is_empty());
    /// ```
    pub fn new() -> Inputs {
        Inputs::default()
    }

    /// Record a new independent variable with value `v` as the next input.
    ///
    /// Panics if anything else was recorded since the previous input (the inputs must be
    /// one run of nodes: activate every parameter before computing with any).
    ///
    /// ```
    /// use fazang::param::Inputs;
    /// let mut inputs = Inputs::new();
    /// let x = inputs.var(1.5);
    /// assert_eq!((x.val(), inputs.len()), (1.5, 1));
    /// # fazang::clear_tape();
    /// ```
    pub fn var(&mut self, v: f64) -> crate::Var {
        let x = Var::new(v);
        self.adopt(std::slice::from_ref(&x));
        x
    }

    /// Record one independent variable per value, as the next inputs, into `out`.
    ///
    /// ```
    /// use fazang::prelude::*;
    /// use fazang::param::Inputs;
    /// let mut inputs = Inputs::new();
    /// let mut v = [Var::constant(0.0); 2];
    /// inputs.vars(&[1.0, 2.0], &mut v);
    /// assert_eq!(v[0].index().unwrap() + 1, v[1].index().unwrap());
    /// # fazang::clear_tape();
    /// ```
    pub fn vars(&mut self, values: &[f64], out: &mut [Var]) {
        assert_eq!(
            values.len(),
            out.len(),
            "fazang: Inputs::vars needs one slot per value"
        );
        crate::tape::var::new_vars(values, out);
        self.adopt(out);
    }

    /// Activate an `f64` slice as the next inputs in a reused buffer (on the stack for up
    /// to 16 entries, else from a thread-local pool: nothing is allocated in steady state)
    /// and run `f` with the inputs and the active slice. For gradients into a caller's
    /// buffer that must not allocate; several slices nest.
    ///
    /// ```
    /// use fazang::prelude::*;
    /// use fazang::param::Inputs;
    /// let (x, y) = ([1.0, 2.0], [3.0]);
    /// let mut g = [0.0; 3];
    /// let v = nested(|| {
    ///     let mut inputs = Inputs::new();
    ///     inputs.with_slice(&x, |inputs, xv| {
    ///         inputs.with_slice(&y, |inputs, yv| {
    ///             let out = (xv[0] + xv[1]) * yv[0];
    ///             out.grad();
    ///             inputs.adjoints_into(&mut g);
    ///             out.val()
    ///         })
    ///     })
    /// });
    /// assert_eq!((v, g), (9.0, [3.0, 3.0, 3.0]));
    /// ```
    pub fn with_slice<R>(&mut self, x: &[f64], f: impl FnOnce(&mut Inputs, &[Var]) -> R) -> R {
        crate::drivers::reverse::with_vars(x, |xv| {
            self.adopt(xv);
            f(self, xv)
        })
    }

    /// Count variables recorded elsewhere (by `Var::new`, in order, nothing recorded
    /// between them) as the next inputs. Panics if they do not continue the run.
    ///
    /// ```
    /// use fazang::prelude::*;
    /// use fazang::param::Inputs;
    /// let mut inputs = Inputs::new();
    /// let xs = [Var::new(1.0), Var::new(2.0)];
    /// inputs.adopt(&xs);
    /// assert_eq!(inputs.len(), 2);
    /// # fazang::clear_tape();
    /// ```
    pub fn adopt(&mut self, vars: &[Var]) {
        let Some(&head) = vars.first() else { return };
        let first = *self.first.get_or_insert(head);
        for (k, v) in (self.len..).zip(vars) {
            assert!(
                v.index().is_some() && v.index() == first.index().map(|i| i + k),
                "fazang: the inputs of a gradient must be recorded one after the other, \
                 nothing in between; activate every parameter before computing with any"
            );
        }
        self.len += u32::try_from(vars.len()).expect("fewer than 2^32 inputs");
    }

    /// The number of inputs.
    ///
    /// ```
    /// assert_eq!(fazang::param::Inputs::new().len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether there are no inputs.
    ///
    /// ```
    /// assert!(fazang::param::Inputs::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// A reader of the inputs' adjoints, from the first (after a sweep).
    ///
    /// ```
    /// use fazang::prelude::*;
    /// use fazang::param::Inputs;
    /// nested(|| {
    ///     let mut inputs = Inputs::new();
    ///     let x = inputs.var(4.0);
    ///     x.sqrt().grad();
    ///     assert_eq!(inputs.adjoints().next(), Some(0.25));
    /// });
    /// ```
    pub fn adjoints(&self) -> AdjointReader {
        AdjointReader {
            first: self.first,
            next: 0,
            len: self.len,
        }
    }

    /// Write the adjoints of every input, in order, into `g` (as long as the inputs), in
    /// one visit to the tape: a flat gradient into a caller's buffer, nothing allocated.
    ///
    /// Panics if `g` is not as long as the inputs.
    ///
    /// ```
    /// use fazang::prelude::*;
    /// use fazang::param::Inputs;
    /// let mut g = [0.0; 2];
    /// nested(|| {
    ///     let mut inputs = Inputs::new();
    ///     let (a, b) = (inputs.var(2.0), inputs.var(3.0));
    ///     (a * b).grad();
    ///     inputs.adjoints_into(&mut g);
    /// });
    /// assert_eq!(g, [3.0, 2.0]);
    /// ```
    pub fn adjoints_into(&self, g: &mut [f64]) {
        assert_eq!(
            g.len(),
            self.len(),
            "fazang: a gradient buffer of length {} for {} inputs",
            g.len(),
            self.len()
        );
        self.adjoints().fill(g);
    }

    /// The input variables, in order, as handles for their tape nodes (for Jacobian
    /// columns: their [`index`](Var::index) and [`adj`](Var::adj) are those of the
    /// inputs; their values are not kept and read NaN).
    ///
    /// ```
    /// use fazang::prelude::*;
    /// use fazang::param::{Inputs, Param};
    /// nested(|| {
    ///     let mut inputs = Inputs::new();
    ///     let x = [1.0, 2.0].activate(&mut inputs);
    ///     (x[0] * x[1]).grad();
    ///     let v = inputs.to_vars();
    ///     assert_eq!((v[1].index(), v[1].adj()), (x[1].index(), 1.0));
    /// });
    /// ```
    pub fn to_vars(&self) -> Vec<Var> {
        match self.first {
            Some(f) => (0..self.len).map(|k| nth_after(f, k)).collect(),
            None => Vec::new(),
        }
    }
}

/// Reads the adjoints of a run of [`Inputs`] in order (see [`Param::gradient`]); also an
/// iterator over them.
///
/// ```
/// use fazang::prelude::*;
/// use fazang::param::Inputs;
/// let all: Vec<f64> = nested(|| {
///     let mut inputs = Inputs::new();
///     let (a, b) = (inputs.var(2.0), inputs.var(3.0));
///     (a * b).grad();
///     inputs.adjoints().collect()
/// });
/// assert_eq!(all, vec![3.0, 2.0]);
/// ```
#[derive(Debug, Clone)]
pub struct AdjointReader {
    first: Option<Var>,
    next: u32,
    len: u32,
}

impl AdjointReader {
    /// The next `out.len()` adjoints, in one visit to the tape.
    ///
    /// Panics if fewer remain.
    ///
    /// ```
    /// use fazang::prelude::*;
    /// use fazang::param::Inputs;
    /// nested(|| {
    ///     let mut inputs = Inputs::new();
    ///     let (a, b) = (inputs.var(2.0), inputs.var(3.0));
    ///     (a + 2.0 * b).grad();
    ///     let mut g = [0.0; 2];
    ///     inputs.adjoints().fill(&mut g);
    ///     assert_eq!(g, [1.0, 2.0]);
    /// });
    /// ```
    pub fn fill(&mut self, out: &mut [f64]) {
        let k = u32::try_from(out.len()).unwrap_or(u32::MAX);
        assert!(
            k <= self.len - self.next,
            "fazang: reading {} adjoints where {} inputs remain",
            out.len(),
            self.len - self.next
        );
        if let Some(f) = self.first.filter(|_| k > 0) {
            read_run(nth_after(f, self.next), out);
        }
        self.next += k;
    }

    /// The next adjoint; panics if none remains (use the `Iterator` impl to get `None`).
    ///
    /// ```
    /// use fazang::prelude::*;
    /// use fazang::param::Inputs;
    /// nested(|| {
    ///     let mut inputs = Inputs::new();
    ///     let a = inputs.var(2.0);
    ///     (a * a).grad();
    ///     assert_eq!(inputs.adjoints().take_one(), 4.0);
    /// });
    /// ```
    pub fn take_one(&mut self) -> f64 {
        let mut v = [0.0];
        self.fill(&mut v);
        v[0]
    }
}

impl Iterator for AdjointReader {
    type Item = f64;
    fn next(&mut self) -> Option<f64> {
        (self.next < self.len).then(|| self.take_one())
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.len - self.next) as usize;
        (n, Some(n))
    }
}

impl Param for f64 {
    type Active = Var;
    type Gradient = f64;
    #[inline]
    fn count(&self) -> usize {
        1
    }
    #[inline]
    fn activate(&self, inputs: &mut Inputs) -> Var {
        inputs.var(*self)
    }
    #[inline]
    fn gradient(&self, adj: &mut AdjointReader) -> f64 {
        adj.take_one()
    }
    fn activate_slice(xs: &[f64], inputs: &mut Inputs) -> Vec<Var> {
        let mut out = vec![Var::constant(0.0); xs.len()];
        inputs.vars(xs, &mut out);
        out
    }
    fn gradient_slice(xs: &[f64], adj: &mut AdjointReader) -> Vec<f64> {
        let mut out = vec![0.0; xs.len()];
        adj.fill(&mut out);
        out
    }
}

impl<T: Param> Param for [T] {
    type Active = Vec<T::Active>;
    type Gradient = Vec<T::Gradient>;
    fn count(&self) -> usize {
        self.iter().map(Param::count).sum()
    }
    fn activate(&self, inputs: &mut Inputs) -> Vec<T::Active> {
        T::activate_slice(self, inputs)
    }
    fn gradient(&self, adj: &mut AdjointReader) -> Vec<T::Gradient> {
        T::gradient_slice(self, adj)
    }
}

impl<T: Param> Param for Vec<T> {
    type Active = Vec<T::Active>;
    type Gradient = Vec<T::Gradient>;
    fn count(&self) -> usize {
        self.as_slice().count()
    }
    fn activate(&self, inputs: &mut Inputs) -> Vec<T::Active> {
        T::activate_slice(self, inputs)
    }
    fn gradient(&self, adj: &mut AdjointReader) -> Vec<T::Gradient> {
        T::gradient_slice(self, adj)
    }
}

impl<T: Param, const N: usize> Param for [T; N] {
    type Active = [T::Active; N];
    type Gradient = [T::Gradient; N];
    fn count(&self) -> usize {
        self.as_slice().count()
    }
    fn activate(&self, inputs: &mut Inputs) -> [T::Active; N] {
        self.each_ref().map(|x| x.activate(inputs))
    }
    fn gradient(&self, adj: &mut AdjointReader) -> [T::Gradient; N] {
        self.each_ref().map(|x| x.gradient(adj))
    }
}

/// A struct registered with `#[deriv_rule]`: its `f64` fields, in field order.
impl<T: Composite> Param for T {
    type Active = T::Active;
    type Gradient = T;
    fn count(&self) -> usize {
        Composite::count(self)
    }
    fn activate(&self, inputs: &mut Inputs) -> T::Active {
        let mut vars = Vec::with_capacity(Composite::count(self));
        let active = Composite::activate(self, &mut vars);
        inputs.adopt(&vars);
        active
    }
    fn gradient(&self, adj: &mut AdjointReader) -> T {
        Composite::adjoint(self, &mut adj.by_ref().take(Composite::count(self)))
    }
}
