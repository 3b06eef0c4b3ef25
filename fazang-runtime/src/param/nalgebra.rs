//! [`Param`] for nalgebra's owned matrices and vectors (`DMatrix`, `DVector`, `SMatrix`,
//! `SVector`, ...): entries in column-major order; the active copy and the gradient have
//! the same dimensions (static where they are static).

use super::{AdjointReader, Inputs, Param};
use crate::tape::var::Var;
use nalgebra::allocator::Allocator;
use nalgebra::{DefaultAllocator, Dim, OMatrix};

/// ```
/// use fazang::prelude::*;
/// use fazang::param::{Inputs, Param};
/// use nalgebra::{DVector, SVector};
/// let (x, s) = (DVector::from_vec(vec![1.0, 2.0]), SVector::<f64, 2>::new(3.0, 4.0));
/// let (gx, gs) = nested(|| {
///     let mut inputs = Inputs::new();
///     let (xv, sv) = (x.activate(&mut inputs), s.activate(&mut inputs));
///     multiply_sum(&xv, &sv).grad();
///     let mut adj = inputs.adjoints();
///     (x.gradient(&mut adj), s.gradient(&mut adj))
/// });
/// fn multiply_sum(x: &DVector<Var>, s: &SVector<Var, 2>) -> Var {
///     x[0] * s[0] + x[1] * s[1]
/// }
/// assert_eq!((gx, gs), (DVector::from_vec(vec![3.0, 4.0]), SVector::<f64, 2>::new(1.0, 2.0)));
/// ```
impl<R: Dim, C: Dim> Param for OMatrix<f64, R, C>
where
    DefaultAllocator: Allocator<R, C>,
{
    type Active = OMatrix<Var, R, C>;
    type Gradient = OMatrix<f64, R, C>;
    fn count(&self) -> usize {
        self.len()
    }
    fn activate(&self, inputs: &mut Inputs) -> OMatrix<Var, R, C> {
        let (r, c) = self.shape_generic();
        let mut out = OMatrix::from_element_generic(r, c, Var::constant(0.0));
        inputs.vars(self.as_slice(), out.as_mut_slice());
        out
    }
    fn gradient(&self, adj: &mut AdjointReader) -> OMatrix<f64, R, C> {
        let (r, c) = self.shape_generic();
        let mut g = OMatrix::zeros_generic(r, c);
        adj.fill(g.as_mut_slice());
        g
    }
}
