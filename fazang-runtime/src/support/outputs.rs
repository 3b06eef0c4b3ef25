//! Vector results of differentiated functions, in every shape they come in (`Vec<f64>`,
//! `[f64; M]`, nested): `_jacobian` flattens them row-major into the Jacobian's rows.
//! (Parameters go through [`crate::param::Param`].)
//!
//! Not a public API: reached through `::fazang::__private`.

use crate::tape::var::Var;

/// A vector result of a differentiated function, flattened row-major into its outputs
/// (the rows of the Jacobian).
///
/// ```
/// use fazang::__private::Outputs;
/// use fazang::prelude::*;
///
/// let y = vec![[Var::new(1.0), Var::new(2.0)], [Var::new(3.0), Var::new(4.0)]];
/// let mut out = Vec::new();
/// y.push_outputs(&mut out);
/// assert_eq!(out.iter().map(|v| v.val()).collect::<Vec<_>>(), [1.0, 2.0, 3.0, 4.0]);
/// # fazang::clear_tape();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a vector result",
    label = "a #[differentiate] function with a Jacobian returns `Vec<f64>`, `[f64; M]` or a nesting of them"
)]
pub trait Outputs {
    /// Push every scalar, row-major.
    fn push_outputs(self, out: &mut Vec<Var>);
}

impl Outputs for Var {
    #[inline]
    fn push_outputs(self, out: &mut Vec<Var>) {
        out.push(self);
    }
}

/// No result (a function that only writes through `&mut` floats).
impl Outputs for () {
    #[inline]
    fn push_outputs(self, _: &mut Vec<Var>) {}
}

impl<T: Outputs, const N: usize> Outputs for [T; N] {
    fn push_outputs(self, out: &mut Vec<Var>) {
        for t in self {
            t.push_outputs(out);
        }
    }
}

impl<T: Outputs> Outputs for Vec<T> {
    fn push_outputs(self, out: &mut Vec<Var>) {
        for t in self {
            t.push_outputs(out);
        }
    }
}

/// A nalgebra vector or matrix result, in storage (column-major) order.
#[cfg(feature = "nalgebra")]
impl<R, C, St> Outputs for nalgebra::Matrix<Var, R, C, St>
where
    R: nalgebra::Dim,
    C: nalgebra::Dim,
    St: nalgebra::RawStorage<Var, R, C>,
{
    fn push_outputs(self, out: &mut Vec<Var>) {
        out.extend(self.iter().copied());
    }
}

/// An ndarray result, in logical (row-major) order.
#[cfg(feature = "ndarray")]
impl<St, D> Outputs for ndarray::ArrayBase<St, D>
where
    St: ndarray::Data<Elem = Var>,
    D: ndarray::Dimension,
{
    fn push_outputs(self, out: &mut Vec<Var>) {
        out.extend(self.iter().copied());
    }
}
