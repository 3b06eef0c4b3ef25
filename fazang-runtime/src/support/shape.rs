//! Results named through a type alias the macro cannot see into (`-> State` after
//! `type State = [f64; 2];`): the generic function returns `<State as VectorShape>::Of<S>`.

/// The result type of a differentiated function written through a name the macro cannot
/// see into (`-> State` after `type State = [f64; 2];`): an `f64` array or vector (nested
/// too), or `f64` itself. `Of<S>` is the same shape with the body's scalar, the generic
/// function's result.
///
/// ```
/// use fazang::__private::VectorShape;
/// type State = [f64; 2];
/// let s: <State as VectorShape>::Of<fazang::Var> = [fazang::Var::new(1.0), fazang::Var::new(2.0)];
/// assert_eq!(s.len(), 2);
/// # fazang::clear_tape();
/// ```
#[diagnostic::on_unimplemented(
    message = "#[differentiate] cannot differentiate a function returning `{Self}`",
    label = "the result of this function",
    note = "#[differentiate] functions return `f64` or `Result<f64, E>` (for a gradient), \
            or arrays and vectors of `f64` such as `[f64; 2]`, `Vec<f64>`, `Vec<[f64; 3]>` \
            (for a Jacobian), written out or through a type alias",
    note = "a struct has no gradient: return the `f64` to differentiate, or the values of its \
            fields as an array, and build `{Self}` outside"
)]
pub trait VectorShape {
    /// The same shape with `S` for `f64`.
    type Of<S>;
}

impl VectorShape for f64 {
    type Of<S> = S;
}

impl<T: VectorShape, const N: usize> VectorShape for [T; N] {
    type Of<S> = [T::Of<S>; N];
}

impl<T: VectorShape> VectorShape for Vec<T> {
    type Of<S> = Vec<T::Of<S>>;
}
