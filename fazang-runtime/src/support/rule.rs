//! Helpers for the functions `#[deriv_rule]` generates, reached as `::fazang::__private`.
//! Each one checks a length the rule or adjoint function got wrong and says so.

use crate::math::real::{Partials, Real};
use crate::tape::var::Var;

/// Record partials `d` (a rule's gradient for the slice parameter `name`) for `xs`.
///
/// Panics if the lengths differ: the rule is wrong, and silently truncating would hide it.
pub fn push_slice<S: Real>(p: &mut Partials<S>, xs: &[S], d: impl AsRef<[f64]>, name: &str) {
    let d = d.as_ref();
    check_len(d.len(), xs.len(), "partial", name);
    for (&x, &g) in xs.iter().zip(d) {
        p.push(x, g);
    }
}

/// Add the adjoint `d` of the slice parameter `name` (returned by an adjoint function)
/// to `ib`, the adjoint buffer of its elements.
pub fn add_slice(ib: &mut [f64], d: impl AsRef<[f64]>, name: &str) {
    let d = d.as_ref();
    check_len(d.len(), ib.len(), "adjoint", name);
    for (a, &g) in ib.iter_mut().zip(d) {
        *a += g;
    }
}

fn check_len(got: usize, want: usize, what: &str, name: &str) {
    assert!(
        got == want,
        "fazang: the #[deriv_rule] {what} for `{name}` has {got} elements, but `{name}` has \
         {want}; it must have one per element"
    );
}

/// The outputs of a vector operation as an array (lengths agree by construction).
pub fn to_array<S, const M: usize>(v: Vec<S>) -> [S; M] {
    match v.try_into() {
        Ok(a) => a,
        Err(v) => panic!("fazang: expected {M} outputs, got {}", v.len()),
    }
}

/// The adjoints of the outputs, as an array reference (lengths agree by construction).
pub fn as_array<const M: usize>(v: &[f64]) -> &[f64; M] {
    match v.try_into() {
        Ok(a) => a,
        Err(_) => panic!("fazang: expected {M} output adjoints, got {}", v.len()),
    }
}

/// Let a vector value be seen as the slice of outputs (for `RealInternals::__from_vjp`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a vector result",
    label = "an `adjoint = ..` rule returns `f64`, `Vec<f64>` or `[f64; M]`"
)]
pub trait AsOutputs {
    /// The output values.
    fn as_outputs(&self) -> &[f64];
}

impl AsOutputs for f64 {
    fn as_outputs(&self) -> &[f64] {
        std::slice::from_ref(self)
    }
}

impl AsOutputs for Vec<f64> {
    fn as_outputs(&self) -> &[f64] {
        self
    }
}

impl<const M: usize> AsOutputs for [f64; M] {
    fn as_outputs(&self) -> &[f64] {
        self
    }
}

/// The partials of a `#[deriv_rule]` function with `N` scalar arguments, written once and
/// evaluated on any scalar (what the rule macro generates when every partial is an
/// expression in the arguments).
#[diagnostic::on_unimplemented(message = "`{Self}` does not hold the partials of a #[deriv_rule]")]
pub trait RulePartials<const N: usize> {
    /// The partial derivatives at `x`.
    fn partials<T: Real>(&self, x: [T; N]) -> [T; N];
}

/// A rule applied to `x`: the body (`value`, on `f64`) runs once; the partials are
/// evaluated on `f64` for first-order scalars (`f64`, `Var`, `Dual<f64>`), and otherwise
/// on the scalar one derivative order below, whose value is the same rule applied one
/// order lower, so every derivative the scalar carries is exact.
pub fn apply_rule<S: Real, R: RulePartials<N>, const N: usize>(
    rule: &R,
    x: [S; N],
    value: impl FnOnce([f64; N]) -> f64,
) -> S {
    let mut ctx = S::__Ctx::default();
    for v in &x {
        v.__ctx(&mut ctx);
    }
    if x.iter().all(S::__f64_partials_suffice) && S::__f64_partials_suffice_jointly(&ctx) {
        let v = x.map(|x| x.val());
        let value = value(v);
        return S::from_partials(value, |p| {
            for (x, d) in x.iter().zip(rule.partials(v)) {
                p.push(*x, d);
            }
        });
    }
    let inner = x.map(|v| v.__inner(&ctx));
    let value = apply_rule::<S::Inner, R, N>(rule, inner, value);
    S::__from_partials_in(&ctx, value, |p| {
        for (x, d) in x.iter().zip(rule.partials(inner)) {
            p.push(*x, d);
        }
    })
}

/// The panic of a first-order rule asked for a second derivative.
#[cold]
#[inline(never)]
#[track_caller]
pub fn rule_first_order_only(name: &str, why: &str) -> ! {
    panic!(
        "fazang: the #[deriv_rule] function `{name}` is first-order only ({why}), so a \
         second-order derivative (`_hessian`, `_hvp`, a Taylor series, a nested derivative) \
         cannot go through a call of `{name}`. Write its partials as expressions in its f64 \
         arguments (arithmetic, literals and the scalar methods, as in \
         `x => x.cos() / (1.0 + x.sin())`), which are evaluated on the scalar itself, or \
         make `{name}` a #[differentiate] function so that its body is differentiated"
    )
}

/// Take the next adjoint (0 once the iterator is exhausted). For the `adjoint` of a
/// `#[deriv_rule]` struct.
#[inline]
pub fn next_adjoint(adj: &mut dyn Iterator<Item = f64>) -> f64 {
    adj.next().unwrap_or(0.0)
}

/// A `#[deriv_rule]` struct's partials must have the struct's shape: a vector field of
/// partials of another length than the field is a wrong rule (never truncated).
#[inline]
pub fn check_field_len(field: &str, len: usize, partials: usize) {
    if len != partials {
        field_len_mismatch(field, len, partials);
    }
}

#[cold]
#[inline(never)]
fn field_len_mismatch(field: &str, len: usize, partials: usize) -> ! {
    panic!(
        "fazang: a #[deriv_rule] returned partials whose field {field} has {partials} \
         entries, but the argument's has {len}: the partials of a struct have its shape, one \
         entry per entry"
    )
}

/// A new independent variable for a field, also pushed onto `vars`. For the `activate` of
/// a `#[deriv_rule]` struct.
#[inline]
pub fn new_var(v: f64, vars: &mut Vec<Var>) -> Var {
    let x = Var::new(v);
    vars.push(x);
    x
}
