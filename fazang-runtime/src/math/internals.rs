//! What the runtime's generic code and the code `#[differentiate]` and `#[deriv_rule]`
//! generate need of a scalar beyond its math: [`RealInternals`], a hidden supertrait of
//! [`Real`], and [`IntoScalar`]. Not a public API: generated code reaches them as
//! `::fazang::__private::RealInternals` and `::fazang::__private::IntoScalar`.
//!
//! `RealInternals` is a supertrait of `Real`, so `S: Real` implies it: a user's generic
//! helper `fn h<S: Real>(x: S)` may call a differentiated function, whose generated code
//! uses these methods, without naming them. It is defined here, beside `Real`, rather than
//! in `support`, because `Real` names it (so `math` never points up at `support`). It is
//! sealed: only fazang's number types implement it, and so `Real`.

use super::real::{Partials, Real};
use crate::tape::var::Var;

/// Seals [`RealInternals`] (and so [`Real`]): implemented by fazang's number types only.
pub(crate) mod sealed {
    /// The seal.
    pub trait Sealed {}
}

/// The hidden part of a scalar: derivative orders, operand contexts, data conversions and
/// lazy vector-Jacobian products (see the module documentation of `math::internals`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a number fazang can differentiate",
    label = "expected `f64` here, found `{Self}`",
    note = "#[differentiate] functions take `f64` values and arrays, slices and vectors of them; write `2.0` for a number rather than `2`, and convert other types with `f64::from(..)` or `as f64`"
)]
pub trait RealInternals: sealed::Sealed + Sized + 'static {
    /// The scalar one derivative order below `Self`, in which a result's value and partial
    /// derivatives are computed so that they can be differentiated again: `f64` for `f64`
    /// and [`Var`](crate::Var), `S` for [`Dual<S, _>`](crate::Dual), and the same type at
    /// one order less for the truncated series ([`Taylor`](crate::Taylor),
    /// [`Jet`](crate::Jet)) and nested numbers ([`Fwd`](crate::Fwd)).
    type Inner: Real;

    /// What a group of operands must agree on before their [`RealInternals::Inner`] parts are taken
    /// (the innermost perturbation of nested numbers; nothing for the other types).
    type __Ctx: Copy + Default;

    /// Fold this operand into the context of its group.
    fn __ctx(&self, ctx: &mut Self::__Ctx);

    /// This operand one derivative order lower (its value for `Var`, the real part of a
    /// dual number, the series truncated by one order).
    fn __inner(&self, ctx: &Self::__Ctx) -> Self::Inner;

    /// Whether this is a constant zero that records nothing (a zero tangent lane of a
    /// reverse-over-forward Hessian): arithmetic on tangents skips it. A hint: `false` is
    /// always allowed (and is what `f64` says, whose arithmetic is cheaper than a test).
    #[inline(always)]
    fn __is_const_zero(&self) -> bool {
        false
    }

    /// Whether this number carries no derivative at all (a constant of its type, whatever
    /// its value). A hint: `false` is always allowed, and means "perhaps not".
    #[inline(always)]
    fn __is_constant(&self) -> bool {
        false
    }

    /// `self · a + o · b`, the tangent of a product (one node on the tape for `Var`,
    /// rather than three).
    #[inline(always)]
    fn __dot2(self, a: Self, o: Self, b: Self) -> Self
    where
        Self: Real,
    {
        self * a + o * b
    }

    /// Whether `f64` partials give every derivative this number carries (`f64`, `Var`,
    /// first-order dual numbers, series of order at most 1). When false, partials must be
    /// computed in [`RealInternals::Inner`] and [`Real::from_partials`] panics.
    fn __f64_partials_suffice(&self) -> bool;

    /// Whether `f64` partials give every derivative of a result whose operands, each
    /// passing [`RealInternals::__f64_partials_suffice`], were folded into `ctx`: false
    /// when they carry different perturbations between them (nested [`Fwd`](crate::Fwd)
    /// numbers of two `derivative` calls), whose cross derivative `f64` partials would
    /// lose. True for every type whose context is empty.
    #[inline(always)]
    fn __f64_partials_suffice_jointly(_ctx: &Self::__Ctx) -> bool {
        true
    }

    /// Build a result from its value and partials computed in [`RealInternals::Inner`] on the
    /// operands' inner parts (taken with the same `ctx`): exact to every order `Self`
    /// carries. On `f64` and `Var` this is [`Real::from_partials`].
    fn __from_partials_in(
        ctx: &Self::__Ctx,
        value: Self::Inner,
        partials: impl FnOnce(&mut Partials<Self, Self::Inner>),
    ) -> Self;

    /// A slice of data as a slice of `Self`: borrowed when `Self` is `f64` (no copy),
    /// converted otherwise. For differentiated bodies passing data where a function
    /// takes an active slice.
    fn __from_data(x: &[f64]) -> std::borrow::Cow<'_, [Self]>
    where
        Self: Real,
    {
        std::borrow::Cow::Owned(x.iter().map(|&v| Self::from(v)).collect())
    }

    /// An array of data as an array of `Self`, borrowed when `Self` is `f64`.
    fn __from_data_array<const N: usize>(x: &[f64; N]) -> std::borrow::Cow<'_, [Self; N]>
    where
        Self: Real,
    {
        std::borrow::Cow::Owned(x.map(Self::from))
    }

    /// A vector of data as a vector of `Self`, borrowed when `Self` is `f64`: what
    /// `&*adapt_ref(v)` passes for a `&Vec<f64>` (it derefs to a slice as well).
    #[allow(clippy::ptr_arg)]
    fn __from_data_vec(x: &Vec<f64>) -> std::borrow::Cow<'_, Vec<Self>>
    where
        Self: Real,
    {
        std::borrow::Cow::Owned(x.iter().map(|&v| Self::from(v)).collect())
    }

    /// A vector of rows of data as one of `Self`, borrowed when `Self` is `f64`.
    #[allow(clippy::ptr_arg)]
    fn __from_data_vec_rows(x: &Vec<Vec<f64>>) -> std::borrow::Cow<'_, Vec<Vec<Self>>>
    where
        Self: Real,
    {
        std::borrow::Cow::Owned(
            x.iter()
                .map(|r| r.iter().map(|&v| Self::from(v)).collect())
                .collect(),
        )
    }

    /// Rows of data as rows of `Self`, borrowed when `Self` is `f64`.
    fn __from_data_rows(x: &[Vec<f64>]) -> std::borrow::Cow<'_, [Vec<Self>]>
    where
        Self: Real,
    {
        std::borrow::Cow::Owned(
            x.iter()
                .map(|r| r.iter().map(|&v| Self::from(v)).collect())
                .collect(),
        )
    }

    /// Rows of fixed length as rows of `Self`, borrowed when `Self` is `f64`.
    fn __from_data_array_rows<const N: usize>(x: &[[f64; N]]) -> std::borrow::Cow<'_, [[Self; N]]>
    where
        Self: Real,
    {
        std::borrow::Cow::Owned(x.iter().map(|r| r.map(Self::from)).collect())
    }

    /// The values of a slice, borrowed when `Self` is `f64` (no copy) and collected
    /// otherwise. For `#[deriv_rule]` bodies, which see `&[f64]`.
    fn __vals(x: &[Self]) -> std::borrow::Cow<'_, [f64]>
    where
        Self: Real,
    {
        std::borrow::Cow::Owned(x.iter().map(Self::val).collect())
    }

    /// The values of a vector and the operands to record partials for: `(x, vec![])`
    /// when `Self` is `f64` (no copy; no partials are ever recorded), `(values, x)`
    /// otherwise. For `#[deriv_rule]` bodies taking `Vec<f64>`.
    fn __into_vals(x: Vec<Self>) -> (Vec<f64>, Vec<Self>)
    where
        Self: Real,
    {
        (x.iter().map(Self::val).collect(), x)
    }

    /// Record `values` as the outputs of an operation whose input adjoints are computed
    /// lazily by a vector-Jacobian product (`#[deriv_rule(adjoint = ..)]`). `record`
    /// pushes the operands and returns the product (see [`vector_op`](crate::vector_op));
    /// it is called only when `Self` is active. `None` on `f64`: the caller keeps its
    /// values.
    fn __from_vjp<V>(values: &[f64], record: impl FnOnce(&mut Vec<Self>) -> V) -> Option<Vec<Self>>
    where
        V: Fn(&[f64], &mut [f64]) + 'static;

    /// The polygamma function ψ⁽ⁿ⁾(x) for n ≥ 1 (trigamma, tetragamma, ...), the
    /// derivatives of [`Real::digamma`]. d/dx = ψ⁽ⁿ⁺¹⁾(x).
    fn __polygamma(self, n: u32) -> Self;
}

/// The value of a binding annotated `f64` in a differentiated body, which becomes `S`:
/// data (`f64`) turns into an `S` constant, an active value stays as it is. Implemented
/// per concrete pair, so that the source type picks the conversion.
#[diagnostic::on_unimplemented(
    message = "expected `f64`, found `{Self}`",
    label = "expected `f64`, found `{Self}`",
    note = "#[differentiate] functions take `f64` values and arrays, slices and vectors of them; write `2.0` for a number rather than `2`, and convert other types with `f64::from(..)` or `as f64`"
)]
pub trait IntoScalar<S> {
    /// `self` as an `S`.
    fn into_scalar(self) -> S;
}
impl IntoScalar<f64> for f64 {
    #[inline(always)]
    fn into_scalar(self) -> f64 {
        self
    }
}
impl IntoScalar<Var> for f64 {
    #[inline(always)]
    fn into_scalar(self) -> Var {
        Var::constant(self)
    }
}
impl IntoScalar<Var> for Var {
    #[inline(always)]
    fn into_scalar(self) -> Var {
        self
    }
}
