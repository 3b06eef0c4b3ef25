//! The attributes of fazang: `#[differentiate]` and `#[deriv_rule]`.
//!
//! Each attribute is parsed into a small model (`ast`), validated with every error
//! collected (`valid`), then expanded (`expand`). Generated code reaches the runtime only
//! through `::fazang::__private` and `::fazang::Var`/`::fazang::Real`.

use proc_macro::TokenStream;

mod differentiate;
mod rule;
mod util;

/// Differentiate an ordinary `f64` function: the function stays as it is, and
/// `name_grad` (for an `f64` or `Result<f64, E>` result) or `name_jacobian` (for a
/// `Vec<f64>` or `[f64; M]` result) appears beside it.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
///
/// #[differentiate]
/// fn normal_lp(mu: f64, sigma: f64) -> f64 {
///     let y = 1.3;
///     -0.5 * (2.0 * std::f64::consts::PI).ln() - sigma.ln() - 0.5 * ((y - mu) / sigma).powi(2)
/// }
///
/// let v = normal_lp(0.5, 1.2); // the primal, as before
/// let (v2, g) = normal_lp_grad(0.5, 1.2); // g = [df/dmu, df/dsigma]
/// assert_eq!(v, v2);
/// assert!((g[0] - 0.8 / 1.44).abs() < 1e-15);
/// ```
///
/// # Parameters and results
///
/// Active parameters are those of type `f64`, `[f64; N]`, `&[f64]`, `Vec<f64>`,
/// `&Vec<f64>`, or a struct registered with `#[deriv_rule]` (a by-value type named by a
/// single UpperCamelCase identifier is taken to be one). Every other parameter is data,
/// passed through unchanged. `#[differentiate(wrt(a, b))]` makes exactly `a` and `b`
/// active.
///
/// `name_grad` takes the same parameters and returns `(value, gradient)`. The gradient is
/// `[f64; K]` (in parameter order) when every active parameter is a scalar; otherwise the
/// one active parameter's own shape (`Vec<f64>` for slices and vectors, `[f64; N]` for
/// arrays, the struct for a struct), or a tuple of those shapes in parameter order.
///
/// ```
/// use fazang::prelude::*;
///
/// #[differentiate(wrt(mu, w))]
/// fn model(mu: f64, w: &[f64], x: &[f64], scale: f64) -> f64 {
///     let pred = dot_product(w, x) + mu;
///     -0.5 * (pred / scale).powi(2)
/// }
///
/// let (v, (dmu, dw)) = model_grad(0.5, &[1.0, 2.0], &[3.0, 4.0], 2.0);
/// let pred = 11.0 + 0.5;
/// assert_eq!(v, -0.5 * (pred / 2.0_f64).powi(2));
/// assert_eq!(dmu, -pred / 4.0);
/// assert_eq!(dw, vec![-pred / 4.0 * 3.0, -pred / 4.0 * 4.0]);
/// ```
///
/// A function returning `Vec<f64>` or `[f64; M]` gets `name_jacobian`, returning
/// `(values, jac)` with `jac[i][j]` = d out_i / d input_j, the inputs being the active
/// parameters flattened in order:
///
/// ```
/// use fazang::prelude::*;
///
/// #[differentiate]
/// fn polar(r: f64, t: f64) -> [f64; 2] {
///     [r * t.cos(), r * t.sin()]
/// }
///
/// let (v, jac) = polar_jacobian(2.0, 0.0);
/// assert_eq!(v, vec![2.0, 0.0]);
/// assert_eq!(jac, vec![vec![1.0, 0.0], vec![0.0, 2.0]]);
/// ```
///
/// Options: `wrt(a, b)`; `grad = other_name`; `jacobian = other_name`.
///
/// # How it works
///
/// The function is made generic over the scalar: `fn normal_lp<S: Real>(mu: S, sigma: S)
/// -> S where f64: ScalarOps<S>, ..`. With `S = f64` (what every existing caller gets) it
/// is the original code, bit for bit; `name_grad` calls it with `S = Var` on a nested
/// tape scope and sweeps backwards. Inside the body, the type `f64` becomes `S`, and a
/// constant float that initialises a binding, is assigned, returned, or starts a `fold`
/// becomes an `S` constant, so accumulators (`let mut acc = 0.0; acc += x;`) work.
/// Calls to other `#[differentiate]` and `#[deriv_rule]` functions need nothing: they are
/// generic too. A branch is differentiated along the path taken.
///
/// # What a body cannot do (yet)
///
/// - Call a plain `f64` function with an active value: rustc reports
///   ``expected `f64`, found type parameter `S` `` pointing at the argument. Put
///   `#[differentiate]` (or `#[deriv_rule]`) on that function, or pass `x.val()` if a
///   constant is really meant.
/// - Annotate a binding of *data* as `f64` (`let yi: f64 = y[i];` with `y: &[f64]` data):
///   annotations become `S`. Leave the annotation out.
/// - `x as f64` on an active value: refused at compile time, since it would drop the
///   derivative.
/// - Methods with `self`, `async`/`const`/`unsafe`/`extern` functions, `&mut f64`
///   parameters: refused with a message.
#[proc_macro_attribute]
pub fn differentiate(attr: TokenStream, item: TokenStream) -> TokenStream {
    differentiate::expand(attr.into(), item.into()).into()
}

/// Give a function hand-written partial derivatives, or register a struct with `f64`
/// fields as differentiable. See the `fazang` crate docs.
#[proc_macro_attribute]
pub fn deriv_rule(attr: TokenStream, item: TokenStream) -> TokenStream {
    rule::expand(attr.into(), item.into()).into()
}
