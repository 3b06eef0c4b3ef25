//! The 35 unconstrained test problems of Moré, Garbow and Hillstrom, "Testing unconstrained
//! optimization software", ACM TOMS 7(1), 1981, each f(x) = Σ fᵢ(x)², written as
//! `#[differentiate]` functions in the styles numeric Rust is written in (closed forms on
//! scalars and arrays, index loops, iterator chains, `windows`/`chunks_exact`, sub-slices,
//! `const` data tables, destructuring, `match`, closures, `fold`, residual vectors, helpers
//! that are themselves differentiated, and generic `T: Float` helpers), not bent to what the
//! macro handles best.
//!
//! Every `_grad` here runs adjoint code (`tests/mgh.rs` names each hidden `__name_adjoint`,
//! so a change sending one to the tape stops the test from building). The bodies are as
//! first written; forms that once failed to compile under the macro or gave wrong numbers
//! are kept as regression tests in `findings.rs`.

pub mod data_fit;
pub mod findings;
pub mod scalable;
pub mod small;
pub mod structured;

/// `name_grad_into` seen through `&[f64]`.
pub type GradInto = fn(&[f64], &mut [f64]) -> f64;

/// One test problem and its generated items, seen through `&[f64]`.
pub struct Problem {
    /// MGH number (1 to 35) and name.
    pub number: usize,
    pub name: &'static str,
    /// The primal, as written.
    pub f: fn(&[f64]) -> f64,
    /// `name_grad`.
    pub grad: fn(&[f64]) -> (f64, Vec<f64>),
    /// The tape twin, `__name_grad_tape`.
    pub tape: fn(&[f64]) -> (f64, Vec<f64>),
    /// `name_grad_into`; `None` where it is not generated (see [`array_grad_into`]).
    pub grad_into: Option<GradInto>,
    /// The standard starting point.
    pub x0: fn() -> Vec<f64>,
    /// A second point, away from x0.
    pub other: fn() -> Vec<f64>,
}

/// A [`Problem`] for a function whose one active parameter is `x: &[f64]`.
macro_rules! slice_problem {
    ($number:expr, $f:ident, $grad:ident, $tape:ident, $into:ident, $x0:expr, $other:expr) => {
        $crate::problems::Problem {
            number: $number,
            name: stringify!($f),
            f: $f,
            grad: $grad,
            tape: $tape,
            grad_into: Some($into),
            x0: $x0,
            other: $other,
        }
    };
}
pub(crate) use slice_problem;

/// `name_grad_into` of a function with a `[f64; N]` parameter (DESIGN.md: "slices/vectors/
/// arrays of `f64`").
macro_rules! array_grad_into {
    ($into:expr) => {
        Some($into)
    };
}
pub(crate) use array_grad_into;
