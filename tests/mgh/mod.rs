//! The 35 unconstrained test problems of Moré, Garbow and Hillstrom, "Testing unconstrained
//! optimization software", ACM TOMS 7(1), 1981, each f(x) = Σ fᵢ(x)², written as
//! `#[differentiate]` functions in the styles numeric Rust is written in (closed forms on
//! scalars and arrays, index loops, iterator chains, `windows`/`chunks_exact`, sub-slices,
//! `const` data tables, destructuring, `match`, closures, `fold`, residual vectors, helpers
//! that are themselves differentiated, and generic `T: Float` helpers), not bent to what the
//! macro handles best.
//!
//! Code that compiles without `#[differentiate]` but not with it is kept as written under
//! `#[cfg(mgh_as_written)]` (build it with `cargo rustc --test mgh -- --cfg mgh_as_written`),
//! next to the smallest change that compiles, marked `WORKAROUND`; each is reported to the
//! lead with a minimal reproducer. No workaround changes which path `_grad` takes.
//!
//! Which path each `_grad` takes (`FAZANG_MACRO_DEBUG=1 cargo test --test mgh --no-run`;
//! `tests/mgh.rs` pins the adjoint ones): 27 of 35 run adjoint code. The other 8 record on
//! the tape, for the reason the macro gives:
//!
//! | problem | style | the adjoint code lacks |
//! | --- | --- | --- |
//! | 2 Freudenstein-Roth | `residuals(x).iter().map(..).sum()` | a call returning something other than a float |
//! | 9 Gaussian | generic `T: Float` helper | a call returning something other than a float |
//! | 17 Osborne 1 | `let r = residuals(x);` (`collect`ed `Vec`) | a call returning something other than a float |
//! | 22 extended Powell | `match block { [a, b, c, d] => .. }` | a `match` on an array |
//! | 28 discrete boundary value | `x.get(i + 1).copied().unwrap_or_default()` | a loop over an `Option` |
//! | 30 Broyden tridiagonal | `[&[0.0][..], x, &[0.0][..]].concat()` | an array element that is not a number (an array) |
//! | 33 linear rank 1 | `x.iter().zip(1..)` | an unbounded range |
//! | 35 Chebyquad | generic `T: Float` helper | a call returning something other than a float |
//!
//! [`Problem`] ties each one to its generated items through `f64`-slice wrappers, so one
//! checker in `tests/mgh.rs` runs them all.

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

/// `name_grad_into` of a function with a `[f64; N]` parameter. DESIGN.md promises it for
/// "slices/vectors/arrays of `f64`", but the macro generates it only for `f64`s and `&[f64]`s
/// (reported); `--cfg mgh_as_written` calls it anyway.
#[cfg(mgh_as_written)]
macro_rules! array_grad_into {
    ($into:expr) => {
        Some($into)
    };
}
#[cfg(not(mgh_as_written))]
macro_rules! array_grad_into {
    ($into:expr) => {
        None
    };
}
pub(crate) use array_grad_into;
