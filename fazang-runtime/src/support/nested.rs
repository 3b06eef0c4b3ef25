//! Nested arrays of floats (`Vec<Vec<f64>>`, rows) in adjoint code: flattened into a
//! taped call's inputs and shaped back as the callee takes them, a call's rows of results
//! rebuilt from its flat outputs, and the adjoints of rows pushed onto a nested local.
//!
//! Not a public API: reached through `::fazang::__private`.

use crate::tape::var::Var;

/// An array of floats nested to any depth, as generated code flattens it (row-major).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an array of numbers",
    label = "expected `f64`, or an array or vector of them (nested), found `{Self}`"
)]
pub trait Flat {
    /// The same shape holding tape variables.
    type Vars;
    /// Push every float, row-major.
    fn flat_into(&self, out: &mut Vec<f64>);
    /// `vars[*at..]` in this value's shape (advancing `at`).
    fn vars_like(&self, vars: &[Var], at: &mut usize) -> Self::Vars;
    /// Add `g * src[*at..]` into the floats, row-major (advancing `at`).
    fn add_flat(&mut self, src: &[f64], g: f64, at: &mut usize);
    /// Push every float and zero it (an adjoint taken).
    fn take_flat(&mut self, out: &mut Vec<f64>);
    /// How many floats it holds.
    fn flat_len(&self) -> usize;
}

impl Flat for f64 {
    type Vars = Var;
    #[inline]
    fn flat_into(&self, out: &mut Vec<f64>) {
        out.push(*self);
    }
    #[inline]
    fn vars_like(&self, vars: &[Var], at: &mut usize) -> Var {
        let v = vars[*at];
        *at += 1;
        v
    }
    #[inline]
    fn add_flat(&mut self, src: &[f64], g: f64, at: &mut usize) {
        *self += g * src[*at];
        *at += 1;
    }
    #[inline]
    fn take_flat(&mut self, out: &mut Vec<f64>) {
        out.push(*self);
        *self = 0.0;
    }
    #[inline]
    fn flat_len(&self) -> usize {
        1
    }
}

impl<T: Flat> Flat for [T] {
    type Vars = Vec<T::Vars>;
    fn flat_into(&self, out: &mut Vec<f64>) {
        self.iter().for_each(|x| x.flat_into(out));
    }
    fn vars_like(&self, vars: &[Var], at: &mut usize) -> Vec<T::Vars> {
        self.iter().map(|x| x.vars_like(vars, at)).collect()
    }
    fn add_flat(&mut self, src: &[f64], g: f64, at: &mut usize) {
        self.iter_mut().for_each(|x| x.add_flat(src, g, at));
    }
    fn take_flat(&mut self, out: &mut Vec<f64>) {
        self.iter_mut().for_each(|x| x.take_flat(out));
    }
    fn flat_len(&self) -> usize {
        self.iter().map(T::flat_len).sum()
    }
}

impl<T: Flat> Flat for Vec<T> {
    type Vars = Vec<T::Vars>;
    fn flat_into(&self, out: &mut Vec<f64>) {
        self.as_slice().flat_into(out);
    }
    fn vars_like(&self, vars: &[Var], at: &mut usize) -> Vec<T::Vars> {
        self.as_slice().vars_like(vars, at)
    }
    fn add_flat(&mut self, src: &[f64], g: f64, at: &mut usize) {
        self.as_mut_slice().add_flat(src, g, at);
    }
    fn take_flat(&mut self, out: &mut Vec<f64>) {
        self.as_mut_slice().take_flat(out);
    }
    fn flat_len(&self) -> usize {
        self.as_slice().flat_len()
    }
}

impl<T: Flat, const N: usize> Flat for [T; N] {
    type Vars = [T::Vars; N];
    fn flat_into(&self, out: &mut Vec<f64>) {
        self.as_slice().flat_into(out);
    }
    fn vars_like(&self, vars: &[Var], at: &mut usize) -> [T::Vars; N] {
        let mut it = self.iter();
        std::array::from_fn(|_| it.next().expect("N elements").vars_like(vars, at))
    }
    fn add_flat(&mut self, src: &[f64], g: f64, at: &mut usize) {
        self.as_mut_slice().add_flat(src, g, at);
    }
    fn take_flat(&mut self, out: &mut Vec<f64>) {
        self.as_mut_slice().take_flat(out);
    }
    fn flat_len(&self) -> usize {
        self.as_slice().flat_len()
    }
}

/// Push the floats of `x` onto `out`, row-major.
///
/// ```
/// let mut xs = vec![0.5];
/// fazang::__private::flatten_into(&mut xs, &[vec![1.0, 2.0], vec![3.0]][..]);
/// assert_eq!(xs, [0.5, 1.0, 2.0, 3.0]);
/// ```
#[inline]
pub fn flatten_into<T: Flat + ?Sized>(out: &mut Vec<f64>, x: &T) {
    x.flat_into(out);
}

/// `vars` (as many as `like` holds floats) in the shape of `like`.
///
/// ```
/// use fazang::Var;
/// let vs: Vec<Var> = (0..3).map(|i| Var::new(i as f64)).collect();
/// let rows = fazang::__private::vars_like(&vs, &[vec![0.0, 0.0], vec![0.0]][..]);
/// assert_eq!(rows[1][0].val(), 2.0);
/// # fazang::clear_tape();
/// ```
#[inline]
pub fn vars_like<T: Flat + ?Sized>(vars: &[Var], like: &T) -> T::Vars {
    like.vars_like(vars, &mut 0)
}

/// `dst += g * src[..]`, row-major; returns how many floats were read.
///
/// ```
/// let mut a = vec![vec![1.0], vec![0.0, 0.0]];
/// let n = fazang::__private::add_flat(&mut a[..], &[1.0, 2.0, 3.0], 2.0);
/// assert_eq!((n, a), (3, vec![vec![3.0], vec![4.0, 6.0]]));
/// ```
#[inline]
pub fn add_flat<T: Flat + ?Sized>(dst: &mut T, src: &[f64], g: f64) -> usize {
    let mut at = 0;
    dst.add_flat(src, g, &mut at);
    at
}

/// How many floats `x` holds.
///
/// ```
/// assert_eq!(fazang::__private::flat_len(&[vec![1.0, 2.0], vec![3.0]][..]), 3);
/// ```
#[inline]
pub fn flat_len<T: Flat + ?Sized>(x: &T) -> usize {
    x.flat_len()
}

/// Push the floats of an adjoint onto `out` and zero them.
///
/// ```
/// let (mut a, mut out) = (vec![vec![1.0], vec![2.0]], Vec::new());
/// fazang::__private::take_flat(&mut a, &mut out);
/// assert_eq!((a, out), (vec![vec![0.0], vec![0.0]], vec![1.0, 2.0]));
/// ```
#[inline]
pub fn take_flat<T: Flat + ?Sized>(adj: &mut T, out: &mut Vec<f64>) {
    adj.take_flat(out);
}

/// Rows of tape variables: a call's result whose row lengths shape its outputs again.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a matrix of numbers",
    label = "expected rows of numbers (`Vec<Vec<f64>>`), found `{Self}`"
)]
pub trait RowLens {
    /// Push each row's length.
    fn row_lens(&self, lens: &mut Vec<usize>);
}

impl<R: AsRef<[Var]>> RowLens for Vec<R> {
    fn row_lens(&self, lens: &mut Vec<usize>) {
        lens.extend(self.iter().map(|r| r.as_ref().len()));
    }
}

impl<R: AsRef<[Var]>, const N: usize> RowLens for [R; N] {
    fn row_lens(&self, lens: &mut Vec<usize>) {
        lens.extend(self.iter().map(|r| r.as_ref().len()));
    }
}

impl<R: RowLens, E> RowLens for Result<R, E> {
    fn row_lens(&self, lens: &mut Vec<usize>) {
        if let Ok(r) = self {
            r.row_lens(lens);
        }
    }
}

/// The row lengths of a call's result, kept to shape its flat outputs again.
#[inline]
pub fn row_lens<R: RowLens + ?Sized>(r: &R, lens: &mut Vec<usize>) {
    r.row_lens(lens);
}

/// `flat` cut into rows of the given lengths.
///
/// ```
/// let rows = fazang::__private::rows_from(&[1.0, 2.0, 3.0], &[1, 2]);
/// assert_eq!(rows, vec![vec![1.0], vec![2.0, 3.0]]);
/// ```
pub fn rows_from(flat: &[f64], lens: &[usize]) -> Vec<Vec<f64>> {
    let mut at = 0;
    lens.iter()
        .map(|&n| {
            let r = flat[at..at + n].to_vec();
            at += n;
            r
        })
        .collect()
}

/// The reverse of pushing a copy of a row onto a nested local: the pushed row's adjoint
/// (`popped`) added into the row's (which may be shorter: its entries past its end are
/// zero).
///
/// ```
/// let mut adj = vec![1.0];
/// fazang::__private::add_row(&mut adj, Some(vec![0.5, 2.0]));
/// assert_eq!(adj, [1.5, 2.0]);
/// ```
pub fn add_row<T: Copy + std::ops::AddAssign>(adj: &mut Vec<T>, popped: Option<Vec<T>>) {
    let Some(src) = popped else { return };
    for (d, s) in adj.iter_mut().zip(&src) {
        *d += *s;
    }
    if src.len() > adj.len() {
        let n = adj.len();
        adj.extend_from_slice(&src[n..]);
    }
}
