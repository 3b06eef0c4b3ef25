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

/// Free the reusable operand buffers of `from_partials` and `Sum` on this thread (part of
/// [`release_tape_memory`](crate::release_tape_memory)).
pub(crate) fn release_buffers() {
    elementary::release_buffers();
    slice::release_buffers();
}

/// Fazang's own scalar functions (`erf`, `log_gamma`, `inv_logit`, ...) as free functions,
/// one per row of the [elementary table](elementary) that is not an `f64` method: usable
/// on `f64` without rustc's `unstable_name_collisions` warning (std has unstable
/// `f64::erf`, ...). The crate root and the prelude bring in all of them.
pub mod functions {
    use crate::Real;

    macro_rules! free_fns {
        ($( $(#[$doc:meta])* $name:ident [$k:ident] $fam:ident: |$x:ident, $v:ident| $value:expr, $deriv:expr; )*) => {
            $(free_fns!(@in $fam $name $(#[$doc])*);)*
        };
        (@in fazang $name:ident $(#[$doc:meta])*) => {
            $(#[$doc])*
            ///
            /// Free-function form of the [`Real`] method of the same name.
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
        };
        (@in $other:ident $name:ident $(#[$doc:meta])*) => {};
    }
    super::elementary::with_unary_table!(free_fns);
}
