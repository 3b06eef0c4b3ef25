//! The function library: elementary functions (one table of values and derivatives),
//! special functions, and slice functions.

#[doc = include_str!("accuracy.md")]
pub mod accuracy {}
pub mod elementary;
pub(crate) mod internals;
pub(crate) mod interop;
pub(crate) mod real;
pub mod slice;
pub mod special;
mod var_ops;

use crate::Real;

/// Free the reusable operand buffers of `from_partials` and `Sum` on this thread (part of
/// [`release_tape_memory`](crate::release_tape_memory)).
pub(crate) fn release_buffers() {
    elementary::release_buffers();
    slice::release_buffers();
}

macro_rules! free_fns {
    ($($name:ident: $doc:literal;)*) => {$(
        #[doc = $doc]
        ///
        /// Free-function form of the [`Real`] method of the same name, usable on `f64` without
        /// rustc's `unstable_name_collisions` warning (std has unstable `f64::erf`).
        ///
        /// ```
        #[doc = concat!("let (x, y) = (0.5_f64, fazang::", stringify!($name), "(0.5_f64));")]
        #[doc = concat!("assert_eq!(y, fazang::Real::", stringify!($name), "(x));")]
        #[doc = concat!("let (_, g) = fazang::gradient(|v| fazang::", stringify!($name), "(v[0]), &[x]);")]
        /// assert!(g[0].is_finite());
        /// ```
        #[inline]
        pub fn $name<T: Real>(x: T) -> T {
            Real::$name(x)
        }
    )*};
}

free_fns! {
    erf: "Error function erf(x). d/dx = 2/√π e^(-x²).";
    erfc: "Complementary error function 1 - erf(x). d/dx = -2/√π e^(-x²).";
    log_gamma: "ln |Γ(x)|. d/dx = ψ(x).";
    square: "x². d/dx = 2x.";
    inv: "1/x. d/dx = -1/x².";
    inv_square: "1/x². d/dx = -2/x³.";
    inv_sqrt: "1/√x. d/dx = -1/(2 x^{3/2}).";
    logit: "ln(x/(1-x)). d/dx = 1/(x(1-x)).";
    inv_logit: "1/(1+e^(-x)). d/dx = σ(x)(1-σ(x)).";
    log1p_exp: "ln(1+eˣ) (softplus), stable for large x. d/dx = 1/(1+e^(-x)).";
}
