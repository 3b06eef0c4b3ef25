//! Traits of the numeric ecosystem for fazang's scalars, so generic code written against
//! them runs on the tape:
//!
//! - `num_traits`: [`Zero`](num_traits::Zero), [`One`](num_traits::One),
//!   [`Num`](num_traits::Num), [`NumCast`](num_traits::NumCast),
//!   [`ToPrimitive`](num_traits::ToPrimitive), [`FromPrimitive`](num_traits::FromPrimitive),
//!   [`Signed`](num_traits::Signed), [`Float`](num_traits::Float) and
//!   [`FloatConst`](num_traits::FloatConst) (module `num`), with every math method forwarded
//!   to [`Real`](crate::Real), so each derivative is still defined once, in
//!   [`math::elementary`](crate::math::elementary);
//! - inherent math methods on [`Var`](crate::Var) (module `inherent`), so that `x.sin()` is
//!   not ambiguous when both `Real` and `Float` are in scope;
//! - `approx`'s comparisons (module `approx`), on values;
//! - with the `nalgebra` feature, simba's `RealField` and `ComplexField` (module
//!   `nalgebra`), so nalgebra's decompositions run on `Var` matrices.
//!
//! The `num_traits` impls and the inherent methods are each written by one macro over the
//! scalar type (`num_traits_for!`, `inherent_math!`), for every scalar fazang has.

mod approx;
mod inherent;
#[cfg(feature = "nalgebra")]
mod nalgebra;
mod num;

pub(crate) use inherent::inherent_math;
pub(crate) use num::num_traits_for;
