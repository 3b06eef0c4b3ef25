//! The attributes of fazang: `#[differentiate]` and `#[deriv_rule]`.
//!
//! Each attribute is parsed into a small model (`ast`), validated with every error
//! collected (`valid`), then expanded (`expand`). Generated code reaches the runtime only
//! through `::fazang::__private` and `::fazang::Var`/`::fazang::Real`.

use proc_macro::TokenStream;

mod activity;
mod catalogue;
mod codegen;
mod differentiate;
mod ir;
mod model;
mod rule;
mod types;
mod util;

#[cfg(test)]
mod no_panic;

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
/// # Impl blocks and modules
///
/// On an inherent `impl` block, every method with an active parameter becomes
/// differentiable (`self` is data) and gets its `_grad` method; on an inline `mod`, every
/// function does, helpers included, so they can call each other with active values. A
/// function inside may carry its own `#[differentiate(wrt(..))]`; constructors returning
/// `Self` and functions without an active parameter are left as they are.
///
/// ```
/// use fazang::prelude::*;
///
/// struct Line {
///     xs: Vec<f64>,
///     ys: Vec<f64>,
/// }
///
/// #[differentiate]
/// impl Line {
///     fn sse(&self, theta: &[f64]) -> f64 {
///         let mut s = 0.0;
///         for (x, y) in self.xs.iter().zip(&self.ys) {
///             s += (y - theta[0] - theta[1] * x).powi(2);
///         }
///         s
///     }
/// }
///
/// let line = Line { xs: vec![0.0, 1.0], ys: vec![1.0, 3.0] };
/// let (v, g) = line.sse_grad(&[1.0, 1.0]);
/// assert_eq!((v, g), (1.0, vec![-2.0, -2.0]));
/// ```
///
/// On one method of a plain `impl` block (one that takes `self` or names `Self`), the
/// attribute does the same for that method alone: its siblings are added beside it.
///
/// On a trait impl (`impl Model for StudentT`), each method with an active parameter
/// keeps the trait's signature and computes with a generic copy of itself, added under the
/// same name to an inherent `impl StudentT` together with its `pub` siblings: so
/// `model.log_density_grad(&theta)` works with no trait to import, and the methods call
/// each other with active values as written. The type must be one of the crate (inherent
/// impls are not allowed on `Vec<f64>`); generic code over `M: Model` sees the trait's
/// methods only.
///
/// ```
/// use fazang::prelude::*;
///
/// trait Model {
///     fn log_density(&self, theta: &[f64]) -> f64;
/// }
///
/// struct Normal {
///     y: Vec<f64>,
/// }
///
/// #[differentiate]
/// impl Model for Normal {
///     fn log_density(&self, theta: &[f64]) -> f64 {
///         self.y.iter().map(|y| -0.5 * (y - theta[0]).powi(2)).sum()
///     }
/// }
///
/// let m = Normal { y: vec![1.0, 2.0] };
/// let (v, g) = m.log_density_grad(&[1.0]);
/// assert_eq!(v, <Normal as Model>::log_density(&m, &[1.0]));
/// assert_eq!(g, vec![1.0]);
/// ```
///
/// # How it works
///
/// The body is lowered into a model of its own, and an activity analysis (a dataflow
/// fixed point) decides which values depend on an active parameter. The function becomes
/// generic over the scalar, `fn normal_lp<S: Real>(mu: S, sigma: S) -> S where f64:
/// ScalarOps<S>, ..`: data stays plain `f64` code as written, active values get `S`, and
/// where data flows into an active place (`let mut s = y[i]; s -= a * x[i];`, `k.powf(x)`,
/// an `if` arm, a return) it is converted there. With `S = f64` (what every existing
/// caller gets) it is the original code, bit for bit; `name_grad` calls it with `S = Var`
/// on a nested tape scope and sweeps backwards. A branch is differentiated along the
/// path taken. `FAZANG_MACRO_DEBUG=1 cargo build` prints what the analysis found.
///
/// # What a body cannot do
///
/// - Call a plain `f64` function (one without the attribute) with an active value: the
///   macro cannot see other functions, so rustc reports ``expected `f64`, found type
///   parameter `S` `` at the argument. Put `#[differentiate]` on that function or on the
///   `mod` around both (or pass `x.val()` if a constant is really meant).
/// - `x as f64` (or `as f32`) on an active value: refused at compile time, since it would
///   drop the derivative. Integer casts (`x.floor() as usize`) are fine.
/// - `async`/`const`/`unsafe`/`extern` functions, `&mut f64` parameters of a standalone
///   function, destructured parameters, trait impls for types of other crates: refused
///   with a message. On one method of a trait impl, or on an associated function that
///   neither takes `self` nor names `Self`, the attribute cannot see where it stands (rustc
///   then reports the generated items as not members of the trait, or `name` as not
///   found): put it on the `impl` block.
/// - A by-value parameter of a single capitalised type name is taken for a
///   `#[deriv_rule]` struct unless the body names its variants (`Orbit::Circular`); for a
///   data struct list the active parameters with `wrt(..)`.
#[proc_macro_attribute]
pub fn differentiate(attr: TokenStream, item: TokenStream) -> TokenStream {
    differentiate::expand(attr.into(), item.into()).into()
}

/// Give a function hand-written derivatives (its body is then never traced), or make the
/// `f64` fields of a struct differentiable (ReverseDiffSource's `@deriv_rule`).
///
/// # Partials: `#[deriv_rule(x => expr, ..)]`
///
/// One expression per differentiable parameter: the partial derivative of the result with
/// respect to that parameter, written in terms of the parameters (as `f64` values). For a
/// slice, vector or array parameter the partial is its gradient (a `Vec<f64>`, array or
/// anything `AsRef<[f64]>`, one entry per element); for a `#[deriv_rule]` struct, a
/// struct of partials.
///
/// ```
/// use fazang::prelude::*;
///
/// #[deriv_rule(x => x.cos() / (1.0 + x.sin()))]
/// fn foo(x: f64) -> f64 {
///     (1.0 + x.sin()).ln()
/// }
///
/// assert_eq!(foo(0.3), (1.0 + 0.3_f64.sin()).ln()); // with f64, as before
///
/// let x = Var::new(0.3); // with Var: one node on the tape, holding the rule's partial
/// foo(x).grad();
/// assert_eq!(x.adj(), 0.3_f64.cos() / (1.0 + 0.3_f64.sin()));
/// # fazang::clear_tape();
///
/// // From a #[differentiate] body, like any other function: 2^foo(x).
/// #[differentiate]
/// fn two_to_the_foo(x: f64) -> f64 {
///     (foo(x) * std::f64::consts::LN_2).exp()
/// }
/// let (v, g) = two_to_the_foo_grad(0.3);
/// assert!((g[0] - v * std::f64::consts::LN_2 * 0.3_f64.cos() / (1.0 + 0.3_f64.sin())).abs() < 1e-15);
/// ```
///
/// Every parameter of type `f64`, `&[f64]`, `Vec<f64>`, `&Vec<f64>` or `[f64; N]` needs a
/// partial, unless listed in `data(..)` (a constant: it keeps its `f64` type). A
/// parameter of another type is a `#[deriv_rule]` struct if the rule names it, and data
/// (passed through unchanged) otherwise.
///
/// ```
/// use fazang::prelude::*;
///
/// // w · x + c, with w data.
/// #[deriv_rule(x => w, c => 1.0, data(w))]
/// fn affine(w: &[f64], x: &[f64], c: f64) -> f64 {
///     w.iter().zip(x).map(|(a, b)| a * b).sum::<f64>() + c
/// }
///
/// let (v, g) = gradient(|p| affine(&[2.0, 3.0], &p[..2], p[2]), &[1.0, 1.0, 0.5]);
/// assert_eq!((v, g), (5.5, vec![2.0, 3.0, 1.0]));
/// ```
///
/// # Structs: `#[deriv_rule] struct Bar { .. }`
///
/// The struct becomes `struct Bar<S = f64>`, its `f64` fields of type `S` (and arrays and
/// vectors of `f64`, nested too, of `S` entries: `w: Vec<Vec<f64>>` becomes
/// `Vec<Vec<S>>`, every entry differentiable), every other field unchanged (data). `Bar` and `Bar { x: 1.0, y: 2.0 }`
/// still mean the plain struct; derives and attributes are kept. `#[differentiate]`
/// functions may take and build a `Bar`, and their `_grad` returns a `Bar` of adjoints;
/// a rule names a `Bar` parameter to give its partials as a `Bar`. Generic structs,
/// enums and unions are refused; tuple structs work.
///
/// ```
/// use fazang::prelude::*;
///
/// #[deriv_rule]
/// #[derive(Debug, Clone, PartialEq)]
/// struct Bar {
///     x: f64,
///     y: f64,
/// }
///
/// #[deriv_rule(z => Bar { x: 2.0 * z.x, y: 2.0 * z.y })]
/// fn norm(z: Bar) -> f64 {
///     z.x * z.x + z.y * z.y
/// }
///
/// #[differentiate]
/// fn scaled(z: Bar, k: f64) -> f64 {
///     k * norm(z)
/// }
///
/// let (v, (dz, dk)) = scaled_grad(Bar { x: 1.0, y: 2.0 }, 3.0);
/// assert_eq!((v, dk), (15.0, 5.0));
/// assert_eq!(dz, Bar { x: 6.0, y: 12.0 });
/// ```
///
/// # Vector-Jacobian products: `#[deriv_rule(adjoint = path)]`
///
/// For vector results (`Vec<f64>`, `[f64; M]`), or when input adjoints are cheaper to
/// compute on demand than partials up front. `path` is called during the backward sweep
/// (not while recording; not at all if the result's adjoints are zero) with:
///
/// ```text
/// path(inputs.., out, ds) -> adjoints
/// ```
///
/// - `inputs`: every parameter in order, as the body sees it: `f64`; `&[f64]` for
///   slices and vectors; `&[f64; N]` for arrays; data parameters with their own type
///   (kept for the sweep: references by `ToOwned`, values by `Clone`);
/// - `out`: the result, `f64`, `&[f64]` or `&[f64; M]`;
/// - `ds`: the result's adjoint, of the same type as `out`;
/// - `adjoints`: `ds` pulled back to each differentiable parameter (`f64`, `Vec<f64>`, or
///   `[f64; N]` for arrays), a tuple of them in parameter order when there are several.
///
/// The expected signature is checked when the function is compiled: a mismatch is a
/// type error at `path` naming the expected `fn(..)` type. Struct parameters are data in
/// this form.
///
/// ```
/// use fazang::prelude::*;
///
/// #[deriv_rule(adjoint = scale_adjoint)]
/// fn scale(a: f64, x: &[f64]) -> Vec<f64> {
///     x.iter().map(|v| a * v).collect()
/// }
///
/// /// y = a x: ā = x · ȳ, x̄ = a ȳ.
/// fn scale_adjoint(a: f64, x: &[f64], _y: &[f64], dy: &[f64]) -> (f64, Vec<f64>) {
///     let da = x.iter().zip(dy).map(|(v, d)| v * d).sum();
///     (da, dy.iter().map(|d| a * d).collect())
/// }
///
/// assert_eq!(scale(2.0, &[1.0, 3.0]), vec![2.0, 6.0]);
/// let (_, jac) = jacobian(|p| scale(p[0], &p[1..]), &[2.0, 1.0, 3.0]);
/// assert_eq!(jac, vec![vec![1.0, 2.0, 0.0], vec![3.0, 0.0, 2.0]]);
/// ```
///
/// # Checking a rule
///
/// A wrong rule gives wrong gradients. [`check_deriv_rule`] compares the recorded
/// derivatives with finite differences (and [`check_deriv_rule_vec`] for vector
/// results); use it in tests.
///
/// ```
/// use fazang::prelude::*;
/// use fazang::check_deriv_rule;
///
/// #[deriv_rule(x => 2.0 * x.cos())] // wrong: the body is sin(x)
/// fn f(x: f64) -> f64 {
///     x.sin()
/// }
/// let check = check_deriv_rule(|x| f(x[0]), |x| f(x[0]), &[[0.5], [1.0]]);
/// assert!(!check.is_ok(1e-6)); // check.assert_ok(1e-6) would panic, saying where
/// ```
///
/// [`check_deriv_rule`]: ../fazang/fn.check_deriv_rule.html
/// [`check_deriv_rule_vec`]: ../fazang/fn.check_deriv_rule_vec.html
///
/// # How it works
///
/// A rule function becomes generic over the scalar, `fn foo<S: Real>(x: S) -> S`, and
/// runs its body once on the `f64` values (`&[f64]` for slices, no copy when `S = f64`;
/// a `Vec<f64>` parameter is moved, not copied). With `S = f64` the result is returned
/// as is; otherwise it is recorded with `Real::from_partials` (one node, the rule's
/// partials computed only then) or, for the adjoint form, as outputs whose adjoints
/// `path` computes in the sweep. `mut` parameters are rebound in the body, so the rule
/// sees the arguments as passed.
///
/// Misuse is a compile error at the offending token: a rule naming a missing parameter,
/// omitting one or naming one twice; an unknown option; a function without a
/// differentiable parameter or returning something else than `f64` (`Vec<f64>`,
/// `[f64; M]` with `adjoint`); `async`, `const`, `unsafe`, `extern` functions, methods
/// with `self`, generic functions (lifetimes are fine), `&mut f64` parameters; on structs,
/// arguments, generics, or no `f64` field; any other item.
#[proc_macro_attribute]
pub fn deriv_rule(attr: TokenStream, item: TokenStream) -> TokenStream {
    rule::expand(attr.into(), item.into()).into()
}
