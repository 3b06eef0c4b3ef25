//! Support for the adjoint code `#[differentiate]` writes (issue 10): a `_grad` in plain
//! `f64` Rust, a forward sweep that computes the value and keeps what the reverse sweep
//! needs, then the reverse sweep.
//!
//! - [`Stacks`]: what the forward sweep keeps: values a later statement overwrites (`f64`)
//!   and control decisions (branches taken, loop bounds and trip counts, as `i64`),
//!   reused across calls from a per-thread pool, so a gradient in steady state allocates
//!   nothing for them;
//! - derivatives of the elementary functions, taken from the one table that defines them
//!   ([`crate::math::elementary`]), plus those the table has no row for (`powi`, `max`,
//!   ...);
//! - [`ZerosLike`]: the adjoint of a local array or vector, shaped like it;
//! - [`vjp_call`]: a call the adjoint code cannot see into (a `#[deriv_rule]` function,
//!   a distribution, another differentiated function), differentiated on the tape at
//!   the point of the reverse sweep where its adjoint is known.
//!
//! Not a public API: reached through `::fazang::__private`.

use crate::tape::scope::NestedScope;
use crate::tape::var::Var;
use std::cell::RefCell;

pub use crate::math::elementary::deriv as d1;
pub use crate::math::elementary::deriv2 as d2;

#[derive(Default)]
struct Buffers {
    vals: Vec<f64>,
    ctrl: Vec<i64>,
    /// Gradients of taped calls, kept for the reverse sweep.
    kept: Vec<Vec<f64>>,
    /// Buffers to reuse.
    spare: Vec<Vec<f64>>,
}

thread_local! {
    static POOL: RefCell<Vec<Buffers>> = const { RefCell::new(Vec::new()) };
}

/// The stacks of one adjoint computation; returned to the thread's pool when dropped
/// (also during a panic), so nested and repeated gradients reuse the same memory.
///
/// ```
/// let mut st = fazang::__private::stacks();
/// st.push(1.5);
/// st.push_ctrl(3);
/// assert_eq!((st.pop_ctrl(), st.pop()), (3, 1.5));
/// ```
pub struct Stacks {
    buf: Buffers,
}

/// Take stacks from the pool.
#[inline]
pub fn stacks() -> Stacks {
    let buf = POOL
        .try_with(|p| p.borrow_mut().pop())
        .ok()
        .flatten()
        .unwrap_or_default();
    Stacks { buf }
}

impl Drop for Stacks {
    fn drop(&mut self) {
        let mut buf = std::mem::take(&mut self.buf);
        buf.vals.clear();
        buf.ctrl.clear();
        while let Some(b) = buf.kept.pop() {
            buf.spare.push(b);
        }
        let _ = POOL.try_with(|p| p.borrow_mut().push(buf));
    }
}

impl Stacks {
    /// Keep a value the forward sweep is about to overwrite.
    #[inline(always)]
    pub fn push(&mut self, v: f64) {
        self.buf.vals.push(v);
    }
    /// The value kept last.
    #[inline(always)]
    pub fn pop(&mut self) -> f64 {
        self.buf.vals.pop().expect(POP)
    }
    /// Keep a control decision (a branch, a loop bound or trip count).
    #[inline(always)]
    pub fn push_ctrl(&mut self, c: i64) {
        self.buf.ctrl.push(c);
    }
    /// The decision kept last.
    #[inline(always)]
    pub fn pop_ctrl(&mut self) -> i64 {
        self.buf.ctrl.pop().expect(POP)
    }

    /// Keep an integer or a boolean.
    #[inline(always)]
    pub fn push_any<T: Stackable>(&mut self, v: T) {
        self.buf.ctrl.push(v.to_bits());
    }

    /// The integer or boolean kept last.
    #[inline(always)]
    pub fn pop_any<T: Stackable>(&mut self) -> T {
        T::from_bits(self.buf.ctrl.pop().expect(POP))
    }

    /// Keep a whole local array (its elements and length).
    pub fn push_array<A: SaveArray + ?Sized>(&mut self, a: &A) {
        a.save(&mut self.buf.vals, &mut self.buf.ctrl);
    }

    /// The array kept last, back into `a`.
    pub fn pop_array<A: SaveArray + ?Sized>(&mut self, a: &mut A) {
        a.restore(&mut self.buf.vals, &mut self.buf.ctrl);
    }

    /// An empty buffer (reused).
    #[inline]
    pub fn take_buf(&mut self) -> Vec<f64> {
        let mut b = self.buf.spare.pop().unwrap_or_default();
        b.clear();
        b
    }

    /// A buffer no longer needed, to reuse.
    #[inline]
    pub fn give_buf(&mut self, b: Vec<f64>) {
        self.buf.spare.push(b);
    }

    /// Keep a buffer (a call's gradient) for the reverse sweep.
    #[inline]
    pub fn push_buf(&mut self, b: Vec<f64>) {
        self.buf.kept.push(b);
    }

    /// The buffer kept last.
    #[inline]
    pub fn pop_buf(&mut self) -> Vec<f64> {
        self.buf.kept.pop().expect(POP)
    }
}

/// Integers and booleans kept on the stacks as 64 bits.
#[diagnostic::on_unimplemented(
    message = "expected an integer or `bool`, found `{Self}`",
    label = "expected an integer or `bool`, found `{Self}`"
)]
pub trait Stackable: Copy {
    /// The bits kept.
    fn to_bits(self) -> i64;
    /// The value back.
    fn from_bits(b: i64) -> Self;
}

macro_rules! stackable_int {
    ($($t:ty),*) => {$(
        impl Stackable for $t {
            #[inline(always)]
            fn to_bits(self) -> i64 {
                self as i64
            }
            #[inline(always)]
            fn from_bits(b: i64) -> Self {
                b as $t
            }
        }
    )*};
}
stackable_int!(usize, isize, u8, u16, u32, u64, i8, i16, i32, i64);

impl Stackable for bool {
    #[inline(always)]
    fn to_bits(self) -> i64 {
        i64::from(self)
    }
    #[inline(always)]
    fn from_bits(b: i64) -> Self {
        b != 0
    }
}

/// A local array of floats the stacks can keep whole.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an array of numbers",
    label = "expected an array or vector of `f64`, found `{Self}`"
)]
pub trait SaveArray {
    /// Push its floats onto `vals` and its shape onto `ctrl`.
    fn save(&self, vals: &mut Vec<f64>, ctrl: &mut Vec<i64>);
    /// Back to what [`SaveArray::save`] pushed last (popping it).
    fn restore(&mut self, vals: &mut Vec<f64>, ctrl: &mut Vec<i64>);
}

/// The last `n` floats kept, `n` popped from `ctrl`: `(start, end)` in `vals`.
fn kept(vals: &[f64], ctrl: &mut Vec<i64>) -> (usize, usize) {
    let n = ctrl.pop().expect(POP) as usize;
    (vals.len().checked_sub(n).expect(POP), vals.len())
}

impl SaveArray for Vec<f64> {
    fn save(&self, vals: &mut Vec<f64>, ctrl: &mut Vec<i64>) {
        vals.extend_from_slice(self);
        ctrl.push(self.len() as i64);
    }
    fn restore(&mut self, vals: &mut Vec<f64>, ctrl: &mut Vec<i64>) {
        let (at, end) = kept(vals, ctrl);
        self.clear();
        self.extend_from_slice(&vals[at..end]);
        vals.truncate(at);
    }
}

impl<const N: usize> SaveArray for [f64; N] {
    fn save(&self, vals: &mut Vec<f64>, ctrl: &mut Vec<i64>) {
        vals.extend_from_slice(self);
        ctrl.push(N as i64);
    }
    fn restore(&mut self, vals: &mut Vec<f64>, ctrl: &mut Vec<i64>) {
        let (at, end) = kept(vals, ctrl);
        self.copy_from_slice(&vals[at..end]);
        vals.truncate(at);
    }
}

/// Rows (`Vec<Vec<f64>>`): each row, then their count.
impl SaveArray for Vec<Vec<f64>> {
    fn save(&self, vals: &mut Vec<f64>, ctrl: &mut Vec<i64>) {
        for r in self {
            r.save(vals, ctrl);
        }
        ctrl.push(self.len() as i64);
    }
    fn restore(&mut self, vals: &mut Vec<f64>, ctrl: &mut Vec<i64>) {
        let m = ctrl.pop().expect(POP) as usize;
        self.resize_with(m, Vec::new);
        for r in self.iter_mut().rev() {
            r.restore(vals, ctrl);
        }
    }
}

const POP: &str = "fazang: the reverse sweep of generated adjoint code read more than its \
                   forward sweep kept; this is a bug of #[differentiate], please report it \
                   (use #[differentiate(tape)] meanwhile)";

/// d/dx xⁿ, as `Var::powi` records it.
#[inline]
pub fn d_powi(x: f64, n: i32) -> f64 {
    match n.checked_sub(1) {
        _ if n == 0 => 0.0,
        Some(m) => f64::from(n) * x.powi(m),
        None => f64::from(n) * (x.powi(n) / x),
    }
}

/// Which value `x.clamp(lo, hi)` returns, as `Real::clamp` decides: 0 for `x`, 1 for
/// `lo`, 2 for `hi` (the derivative goes to that one).
#[inline]
pub fn d_clamp(x: f64, lo: f64, hi: f64) -> u8 {
    if x < lo {
        1
    } else if x > hi {
        2
    } else {
        0
    }
}

/// A call the forward sweep already made successfully, made again in the reverse sweep.
#[inline]
pub fn recomputed<T, E>(r: Result<T, E>) -> T {
    match r {
        Ok(v) => v,
        Err(_) => panic!(
            "fazang: a call that succeeded in the forward sweep failed when the reverse sweep \
             made it again (is it deterministic?); use #[differentiate(tape)] for this function"
        ),
    }
}

/// `dst += src` elementwise, for adjoints of arrays and vectors copied from one another.
#[diagnostic::on_unimplemented(
    message = "`{Src}` cannot be copied into `{Self}`",
    label = "expected an array or vector of `f64` of the same shape"
)]
pub trait Accumulate<Src: ?Sized> {
    /// Add `src` into `self`.
    fn accumulate(&mut self, src: &Src);
}

impl Accumulate<f64> for f64 {
    #[inline]
    fn accumulate(&mut self, src: &f64) {
        *self += src;
    }
}

impl<A: Accumulate<B>, B> Accumulate<[B]> for [A] {
    fn accumulate(&mut self, src: &[B]) {
        for (d, s) in self.iter_mut().zip(src) {
            d.accumulate(s);
        }
    }
}

impl<A: Accumulate<B>, B> Accumulate<Vec<B>> for Vec<A> {
    fn accumulate(&mut self, src: &Vec<B>) {
        self.as_mut_slice().accumulate(src.as_slice());
    }
}

impl<A: Accumulate<B>, B, const N: usize> Accumulate<[B; N]> for [A; N] {
    fn accumulate(&mut self, src: &[B; N]) {
        self.as_mut_slice().accumulate(src.as_slice());
    }
}

impl<A: Accumulate<B>, B, const N: usize> Accumulate<[B; N]> for Vec<A> {
    fn accumulate(&mut self, src: &[B; N]) {
        self.as_mut_slice().accumulate(src.as_slice());
    }
}

impl<A: Accumulate<B>, B, const N: usize> Accumulate<Vec<B>> for [A; N] {
    fn accumulate(&mut self, src: &Vec<B>) {
        self.as_mut_slice().accumulate(src.as_slice());
    }
}

/// `dst += src` for adjoints (see [`Accumulate`]).
#[inline]
pub fn accumulate<D: Accumulate<S> + ?Sized, S: ?Sized>(dst: &mut D, src: &S) {
    dst.accumulate(src);
}

/// The adjoint of a local array or vector: the same shape, zero.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an array of numbers",
    label = "expected an array or vector of `f64`, found `{Self}`"
)]
pub trait ZerosLike {
    /// The shape of the adjoint.
    type Out;
    /// Zeros in this value's shape.
    fn zeros_like(&self) -> Self::Out;
}

impl ZerosLike for f64 {
    type Out = f64;
    #[inline]
    fn zeros_like(&self) -> f64 {
        0.0
    }
}

impl<T: ZerosLike + ?Sized> ZerosLike for &T {
    type Out = T::Out;
    #[inline]
    fn zeros_like(&self) -> T::Out {
        (**self).zeros_like()
    }
}

impl<T: ZerosLike> ZerosLike for [T] {
    type Out = Vec<T::Out>;
    fn zeros_like(&self) -> Vec<T::Out> {
        self.iter().map(T::zeros_like).collect()
    }
}

impl<T: ZerosLike> ZerosLike for Vec<T> {
    type Out = Vec<T::Out>;
    fn zeros_like(&self) -> Vec<T::Out> {
        self.as_slice().zeros_like()
    }
}

impl<T: ZerosLike, const N: usize> ZerosLike for [T; N] {
    type Out = [T::Out; N];
    fn zeros_like(&self) -> [T::Out; N] {
        let mut it = self.iter();
        std::array::from_fn(|_| it.next().expect("N elements").zeros_like())
    }
}

/// Zeros shaped like `x`.
#[inline]
pub fn zeros_like<T: ZerosLike + ?Sized>(x: &T) -> T::Out {
    x.zeros_like()
}

/// Differentiate one call on the tape, in the reverse sweep: `f` receives the call's
/// active scalar arguments as new variables (`args`), `seed` is the adjoint of its
/// result; returns the adjoints of `args` in `adj`.
///
/// ```
/// let mut adj = [0.0; 2];
/// fazang::__private::vjp_call(&[2.0, 3.0], 1.5, &mut adj, |v| v[0] * v[1]);
/// assert_eq!(adj, [4.5, 3.0]);
/// ```
pub fn vjp_call(args: &[f64], seed: f64, adj: &mut [f64], f: impl FnOnce(&[Var]) -> Var) {
    if seed == 0.0 {
        // Nothing flows back (and 0 · ∞ must not become NaN).
        adj.iter_mut().for_each(|a| *a = 0.0);
        return;
    }
    let _scope = NestedScope::begin();
    let vars: Vec<Var> = args.iter().map(|&v| Var::new(v)).collect();
    let out = f(&vars);
    out.grad_in_scope();
    for (a, v) in adj.iter_mut().zip(&vars) {
        *a = seed * v.adj();
    }
}

thread_local! {
    /// Depth of `no_fusion` guards on this thread.
    static NO_FUSION: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Whether a differentiated function called with scalar `S` records one node whose
/// partials its adjoint code computes (Stan's precomputed-gradient node): for the tape's
/// `Var`, unless a [`no_fusion`] guard is alive. The type test is decided at compile time.
#[inline(always)]
pub fn fused<S: 'static>() -> bool {
    std::any::TypeId::of::<S>() == std::any::TypeId::of::<Var>()
        && NO_FUSION.try_with(|c| c.get() == 0).unwrap_or(true)
}

/// While alive, differentiated functions record their operations on the tape one by one
/// (the hidden `__name_grad_tape` twins use it, so that they stay the tape).
pub struct NoFusion(());

/// A [`NoFusion`] guard.
pub fn no_fusion() -> NoFusion {
    let _ = NO_FUSION.try_with(|c| c.set(c.get() + 1));
    NoFusion(())
}

impl Drop for NoFusion {
    fn drop(&mut self) {
        let _ = NO_FUSION.try_with(|c| c.set(c.get().saturating_sub(1)));
    }
}
