//! Support for the code `#[differentiate]` and `#[deriv_rule]` generate, in one place.
//! Not a public API: the facade re-exports this module as the hidden `fazang::__private`,
//! which generated code names with a leading `::`; names may change without notice.
//!
//! - [`real`]: `Real`'s methods as free functions (`real::sin(x)`), what generic bodies
//!   call;
//! - `adjoint`: the adjoint code of `_grad` (stacks, the derivative table as `d1`/`d2`,
//!   calls differentiated on the tape);
//! - `calls`: the loops and calls of adjoint code from the core form (range and window
//!   counts, forward lanes, taped calls, untyped data read as numbers);
//! - `jvp_hessian`: seeding and reading back `_jvp`, `_hessian` and `_hvp`;
//! - from `sparse`: the drivers of `_jacobian_sparse` and `_hessian_sparse`;
//! - `lane_jacobian`: the Jacobian of a call with a vector result on forward lanes;
//! - `nested`: nested arrays (rows) flattened into taped calls and shaped back;
//! - `outputs`: vector results, flattened for `_jacobian`; `shape`: results named by an
//!   alias;
//! - `tangent_code`: the core form's code over dual numbers (`_jvp`, `_hvp`, `_hessian`);
//!   `jacobian_lanes`: `_jacobian` by columns of it;
//! - `rule`: the functions `#[deriv_rule]` writes;
//! - `convert`: `as f64`, literals and data flowing into active places;
//! - `data_arg`: data of types the macro cannot see passed next to active arguments;
//! - [`mixed`]: data meeting active values in operators nalgebra has no mixed impl of;
//! - `catalogue`: [`ELEMENTARY`], every elementary function, for the test that holds the
//!   macros' catalogue in step with the runtime;
//! - here: the bounds of a generic body ([`ScalarOps`], [`RefOps`], [`RefScalarOps`]) and
//!   scopes.
//!
//! Items defined with the types they serve are re-exported here: [`RealInternals`] and
//! [`IntoScalar`] (`math`), [`Param`] and [`Inputs`] (`param`), [`Composite`]
//! (`composite`), [`Partials`].

pub(crate) mod adjoint;
mod calls;
mod catalogue;
mod convert;
mod data_arg;
mod jacobian_lanes;
pub(crate) mod jvp_hessian;
mod lane_jacobian;
pub mod mixed;
mod nested;
pub(crate) mod outputs;
pub mod real;
pub(crate) mod rule;
mod shape;
mod tangent_code;

use crate::math::slice::Mix;
use crate::tape::scope::NestedScope;
use crate::tape::var::Var;
use std::ops::{Add, Div, Mul, Rem, Sub};

pub use crate::tape::scope::NestedScope as Scope;

pub use crate::math::internals::{IntoScalar, RealInternals};
pub use crate::support::adjoint::{
    accumulate, d1, d2, d_clamp, d_powi, fused, no_fusion, recomputed, stacks, vjp_call,
    zeros_like, Accumulate, NoFusion, SaveArray, Stackable, Stacks, ZerosLike,
};
pub use crate::support::calls::{
    check_copy_len, check_grad_len, check_range, check_same_len, chunks_count, chunks_exact_count,
    clear_adjoint, from_vars, lane, lane_t, lanes_out, nth, span, span_inclusive, step_count,
    taped_call, taped_call_result, taped_call_vec, taped_call_vec_result, to_bool, to_f64,
    to_index, to_local, windows_count, ClearAdjoint, FromVars, RangeInt, ToBool, ToF64, ToIndex,
    ToLocal,
};
pub use crate::support::outputs::Outputs;
pub use catalogue::{Elementary, ELEMENTARY, UNARY_DERIVATIVES};
pub use convert::{adapt_ref, lit, pass, promote, AsF64, DataRef, Pass, Promote};
pub use data_arg::{AsItIs, DataArg, DataRefArg, PassData, RefAsItIs};
pub use lane_jacobian::{
    lane_eps, lane_outputs, lane_re, lanes_of, row_lens_of, LaneOutputs, LaneResult,
};
pub use mixed::{
    LiftMatrix, LiftMatrixRef, LiftOther, LiftOtherRef, Mixed, MixedRef, ScaleMatrix, ScaleOther,
};
pub use nested::{
    add_flat, add_row, flat_len, flatten_into, row_lens, rows_from, take_flat, vars_like, Flat,
    RowLens,
};
pub use num_traits::Float;
pub use shape::VectorShape;

/// What a generic body needs of its scalar besides [`Real`](crate::Real) (`S: Real +
/// BodyScalar`): `num_traits::Float`, so that `T: Float` helpers take active values, and
/// with the `nalgebra` feature simba's `RealField`, so that nalgebra's decompositions
/// (`.cholesky()`, `.lu()`, solves, ..) run on matrices of it, and `fazang::linalg`'s
/// fused operations accept it. Every fazang scalar implements it (and no other type: see
/// `bound_alias`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a number fazang can differentiate",
    label = "expected `f64` here, found `{Self}`",
    note = "#[differentiate] functions take `f64` values and arrays, slices and vectors of them; write `2.0` for a number rather than `2`, and convert other types with `f64::from(..)` or `as f64`"
)]
pub trait BodyScalar: BodyScalarBounds {}

/// The bounds of [`BodyScalar`].
#[cfg(feature = "nalgebra")]
#[doc(hidden)]
pub trait BodyScalarBounds: Float + simba::scalar::RealField + crate::linalg::Scalar {}
#[cfg(feature = "nalgebra")]
impl<T: Float + simba::scalar::RealField + crate::linalg::Scalar> BodyScalarBounds for T {}

/// The bounds of [`BodyScalar`].
#[cfg(not(feature = "nalgebra"))]
#[doc(hidden)]
pub trait BodyScalarBounds: Float {}
#[cfg(not(feature = "nalgebra"))]
impl<T: Float> BodyScalarBounds for T {}

// For the _jvp, _hessian and _hvp items of #[differentiate].
pub use crate::support::jvp_hessian::{
    jvp_scalar, jvp_vector, Direction, Flatten, Forward, HessianMode, HessianPass, HessianSession,
    Hvp, Reverse, Seed, FORWARD_HESSIAN_MAX,
};

// For the _jacobian_sparse and _hessian_sparse items of #[differentiate(sparse)].
pub use crate::sparse::driver::{
    flat, hessian_sparse, jacobian_sparse, HvpLanes, HvpLanesScalar, LaneSeeder, ProbeSeeder,
    Triplets, JACOBIAN_LANES,
};
pub use crate::sparse::fwdrev::{FwdRev, HVP_LANES};
pub use crate::sparse::hessian_lanes::{hessian_sparse_lanes, ColourLanes, COLOUR_LANES};
pub use crate::sparse::plan::SparseCache;
pub use crate::sparse::probe::{Fingerprint, Kind, Mode, Probe, Record};

// For the tangent code and the tangent of the adjoint code (generic over the scalar).
pub use crate::support::jacobian_lanes::JacobianLanes;
pub use crate::support::tangent_code::{
    flat_duals, lift_vec, nonzero, val, vals, AdjointScalar, HessianLanes, RestoreArray, TStacks,
    TangentSeed, Vals,
};

// For #[deriv_rule] functions and structs.
pub use crate::composite::{Composite, CompositeOf};
pub use crate::math::real::Partials;
pub use crate::support::rule::{
    add_slice, apply_rule, as_array, check_field_len, new_var, next_adjoint, push_slice,
    rule_first_order_only, to_array, AsOutputs, RulePartials,
};

// Parameters of every shape as one run of inputs (`fazang::param`).
pub use crate::param::{AdjointReader, Inputs, Param};

/// A trait standing for a list of bounds (a trait alias), the list written once.
///
/// It is implemented for fazang's scalars alone ([`bound_alias_impls`]), not by a blanket
/// impl over every type meeting the bounds: given another type (`i32`, `f32`), rustc then
/// finds no impl and reports the trait once, in its `on_unimplemented` words, instead of
/// one error per operator bound of the blanket impl (35 errors for an `&[i32; 3]` passed
/// to a differentiated function before, 8 now). The bounds themselves are the supertraits
/// of a hidden trait with the blanket impl (`$bounds`), which the impls require.
macro_rules! bound_alias {
    ($(#[$doc:meta])* $name:ident<S>, $bounds:ident: $($bound:tt)+) => {
        #[doc(hidden)]
        pub trait $bounds<S>: $($bound)+ {}
        impl<S, T> $bounds<S> for T where T: $($bound)+ {}
        $(#[$doc])*
        pub trait $name<S>: $bounds<S> {}
    };
}

/// The impls of [`BodyScalar`] and the operator traits below for each scalar family of
/// fazang (its generics in brackets): `S: BodyScalar`, `f64: ScalarOps<S>`,
/// `&S: RefOps<S> + RefScalarOps<S>`, `&f64: RefOps<S>`.
macro_rules! bound_alias_impls {
    ($([$($g:tt)*] $s:ty;)*) => {$(
        impl<$($g)*> BodyScalar for $s where $s: BodyScalarBounds {}
        impl<$($g)*> ScalarOps<$s> for f64 where f64: ScalarOpsBounds<$s> {}
        impl<'a, $($g)*> RefOps<$s> for &'a $s where &'a $s: RefOpsBounds<$s> {}
        impl<'a, $($g)*> RefOps<$s> for &'a f64 where &'a f64: RefOpsBounds<$s> {}
        impl<'a, $($g)*> RefScalarOps<$s> for &'a $s where &'a $s: RefScalarOpsBounds<$s> {}
    )*};
}

impl BodyScalar for f64 {}
impl ScalarOps<f64> for f64 {}
impl RefOps<f64> for &f64 {}
impl RefScalarOps<f64> for &f64 {}

bound_alias_impls! {
    [] Var;
    [] crate::forward::Fwd;
    [] crate::forward::JetDyn;
    [] crate::sparse::fwdrev::FwdRev;
    [S, T] crate::forward::Dual<S, T>;
    [const N: usize, const M: usize, const K: usize] crate::forward::Jet<N, M, K>;
    [const K: usize] crate::forward::Taylor<K>;
    [M: crate::sparse::probe::Mode] crate::sparse::probe::Probe<M>;
}

bound_alias! {
    /// Operators with `f64` on the left of an `S`: `where f64: ScalarOps<S>`.
    ///
    /// The same operators between two `f64`s are listed too, although they always hold:
    /// a where-clause is preferred to std's impls when rustc infers an operand, so with
    /// `f64: PartialOrd<S>` alone, data code like `k > 0.0` would take the literal for an
    /// `S`. With both listed, the literal falls back to `f64`, as in plain code.
    #[diagnostic::on_unimplemented(
        message = "`{S}` is not a number fazang can differentiate",
        label = "expected `f64` here, found `{S}`",
        note = "#[differentiate] functions take `f64` values and arrays, slices and vectors of them; write `2.0` for a number rather than `2`, and convert other types with `f64::from(..)` or `as f64`"
    )]
    ScalarOps<S>, ScalarOpsBounds:
    Add<f64, Output = f64>
        + Sub<f64, Output = f64>
        + Mul<f64, Output = f64>
        + Div<f64, Output = f64>
        + Rem<f64, Output = f64>
        + Rem<S, Output = S>
        + PartialEq<f64>
        + PartialOrd<f64>
        + Add<S, Output = S>
        + Sub<S, Output = S>
        + Mul<S, Output = S>
        + Div<S, Output = S>
        + PartialEq<S>
        + PartialOrd<S>
        + Mix<S, Output = S>
        + IntoScalar<S>
        + for<'a> Add<&'a S, Output = S>
        + for<'a> Sub<&'a S, Output = S>
        + for<'a> Mul<&'a S, Output = S>
        + for<'a> Div<&'a S, Output = S>
}

bound_alias! {
    /// Operators on a reference to an `S` or an `f64` (iterator closures): `for<'a> &'a S:
    /// RefOps<S>` and `for<'a> &'a f64: RefOps<S>`.
    #[diagnostic::on_unimplemented(
        message = "`{S}` is not a number fazang can differentiate",
        label = "expected `f64` here, found `{S}`",
        note = "#[differentiate] functions take `f64` values and arrays, slices and vectors of them; write `2.0` for a number rather than `2`, and convert other types with `f64::from(..)` or `as f64`"
    )]
    RefOps<S>, RefOpsBounds:
    Add<S, Output = S>
        + Sub<S, Output = S>
        + Mul<S, Output = S>
        + Div<S, Output = S>
        + Rem<S, Output = S>
        + for<'b> Add<&'b S, Output = S>
        + for<'b> Sub<&'b S, Output = S>
        + for<'b> Mul<&'b S, Output = S>
        + for<'b> Div<&'b S, Output = S>
}

bound_alias! {
    /// Operators of `&S` with `f64`: `for<'a> &'a S: RefScalarOps<S>`.
    ///
    /// Negation of a reference (`-&x`) is deliberately not among them: with a `Neg` bound
    /// on `&S`, crates that also link ndarray fail to compile any call of a differentiated
    /// function (E0275: ndarray's `Neg for &ArrayBase` recurses through `&A: Neg` while the
    /// scalar is still being inferred). Bodies write `-*x` instead.
    #[diagnostic::on_unimplemented(
        message = "`{S}` is not a number fazang can differentiate",
        label = "expected `f64` here, found `{S}`",
        note = "#[differentiate] functions take `f64` values and arrays, slices and vectors of them; write `2.0` for a number rather than `2`, and convert other types with `f64::from(..)` or `as f64`"
    )]
    RefScalarOps<S>, RefScalarOpsBounds:
    Add<f64, Output = S>
        + Sub<f64, Output = S>
        + Mul<f64, Output = S>
        + Div<f64, Output = S>
        + Rem<f64, Output = S>
        + for<'b> Add<&'b f64, Output = S>
        + for<'b> Sub<&'b f64, Output = S>
        + for<'b> Mul<&'b f64, Output = S>
        + for<'b> Div<&'b f64, Output = S>
}

/// Sweep the innermost scope seeded at `y` (what `_grad` functions do).
#[inline]
pub fn grad_in_scope(y: Var) {
    y.grad_in_scope();
}

/// Values of `ys` and the rows `d ys[i] / d xs[j]` (what `_jacobian` functions return):
/// one backward sweep of the innermost scope per output.
pub fn jacobian_rows(ys: &[Var], xs: &[Var]) -> (Vec<f64>, Vec<Vec<f64>>) {
    crate::drivers::reverse::jacobian_rows(ys, xs)
}

/// Open a nested scope (the guard ends it).
#[inline]
pub fn scope() -> NestedScope {
    NestedScope::begin()
}

/// The parallel primitive of the gradient code `#[differentiate]` generates for a body
/// calling [`reduce_sum`](crate::reduce_sum): value and gradient of Σ over the chunks of
/// `data`, each chunk differentiated on its own rayon thread.
///
/// `chunk(data_chunk, start, buf)` is the generated forward and reverse sweep of the
/// closure's body on one chunk, in plain `f64` code: it returns the chunk's value and
/// *adds* the chunk's gradient with respect to the body's active inputs (flattened in the
/// order of `grad`) to `buf`, a zeroed buffer of `grad.len()` entries that belongs to this
/// chunk alone (so the closure needs no synchronisation). The chunks are those of
/// `reduce_sum(data, grainsize, ..)` (a function of `data.len()` and `grainsize` only);
/// values and buffers are combined by the same fixed binary tree over the chunks, and the
/// total is *added* to `grad` (adjoints accumulate, as in the rest of the reverse sweep);
/// the value is returned. The value is bit-identical to `reduce_sum`'s on `f64`, and value
/// and gradient are bit-identical for any number of threads. Memory: one buffer per chunk
/// in flight (about the tree's depth times the number of threads).
///
/// ```
/// // d/dθ Σᵢ -(θ xᵢ - 1)² / 2, by hand, per chunk.
/// let x: Vec<f64> = (0..10_000).map(|i| (i as f64 * 1e-3).cos()).collect();
/// let theta = 0.7;
/// let mut grad = [0.0];
/// let v = fazang::__private::reduce_sum_grad(&x, 0, &mut grad, |c: &[f64], _start, buf: &mut [f64]| {
///     let mut v = 0.0;
///     for xi in c {
///         let r = theta * xi - 1.0;
///         v -= 0.5 * r * r;
///         buf[0] -= r * xi;
///     }
///     v
/// });
/// let (v2, g2) = fazang::gradient(
///     |t| fazang::reduce_sum(&x, 0, |c: &[f64], _| c.iter().map(|xi| -(t[0] * *xi - 1.0).powi(2) * 0.5).sum()),
///     &[theta],
/// );
/// assert!((v - v2).abs() < 1e-9 * v.abs() && (grad[0] - g2[0]).abs() < 1e-9 * g2[0].abs());
/// ```
pub fn reduce_sum_grad<T, F>(data: &[T], grainsize: usize, grad: &mut [f64], chunk: F) -> f64
where
    T: Sync,
    F: Fn(&[T], usize, &mut [f64]) -> f64 + Sync,
{
    crate::parallel::reduce_sum_grad(data, grainsize, grad, chunk)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Real;

    // Compiles only if the where-clauses elaborate to every operator a body uses.
    #[allow(dead_code, clippy::op_ref, clippy::redundant_comparisons)]
    fn generic_body<S: Real>(x: &[S], w: &[f64], c: S) -> S
    where
        f64: ScalarOps<S>,
        for<'a> &'a S: RefOps<S> + RefScalarOps<S>,
        for<'a> &'a f64: RefOps<S>,
    {
        let a: S = x.iter().zip(w).map(|(a, b)| a * b).sum::<S>();
        let b: S = w.iter().zip(x).map(|(a, b)| a * b).sum::<S>();
        let d = 2.0 * c - c / 3.0 + (1.0 - c) * &c + &c * 2.0 - -c;
        let lt = 2.0 < c && c > 1.0;
        let dp = crate::dot_product(w, x) + crate::dot_product(x, w);
        if lt {
            a + b + d + dp
        } else {
            a
        }
    }

    #[test]
    fn generic_body_runs_on_both() {
        let v = generic_body(&[1.0, 2.0], &[3.0, 4.0], 2.5);
        let _scope = scope();
        let xs = [Var::new(1.0), Var::new(2.0)];
        let y = generic_body(&xs, &[3.0, 4.0], Var::new(2.5));
        assert_eq!(y.val(), v);
    }
}
