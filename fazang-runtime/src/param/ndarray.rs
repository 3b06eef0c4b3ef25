//! [`Param`] for ndarray's arrays and views of `f64` (`Array1`, `Array2`, `ArrayD`,
//! `ArrayView1`, ...): entries in logical (row-major) order whatever the memory layout;
//! the active copy and the gradient are owned arrays of the same shape.

use super::{AdjointReader, Inputs, Param};
use crate::tape::var::Var;
use ndarray::{Array, ArrayBase, Data, Dimension};

/// ```
/// use fazang::prelude::*;
/// use fazang::param::{Inputs, Param};
/// use ndarray::{array, Array2};
/// let a = array![[1.0, 2.0], [3.0, 4.0]];
/// let v = a.t(); // a transposed view: logical order, not memory order
/// let g: Array2<f64> = nested(|| {
///     let mut inputs = Inputs::new();
///     let av = v.activate(&mut inputs);
///     (av[[0, 1]] * 10.0 + av[[1, 0]]).grad();
///     v.gradient(&mut inputs.adjoints())
/// });
/// assert_eq!(g, array![[0.0, 10.0], [1.0, 0.0]]);
/// ```
impl<S, D> Param for ArrayBase<S, D>
where
    S: Data<Elem = f64>,
    D: Dimension,
{
    type Active = Array<Var, D>;
    type Gradient = Array<f64, D>;
    fn count(&self) -> usize {
        self.len()
    }
    fn activate(&self, inputs: &mut Inputs) -> Array<Var, D> {
        let mut vars = vec![Var::constant(0.0); self.len()];
        match self.as_slice() {
            Some(values) => inputs.vars(values, &mut vars),
            None => inputs.vars(&self.iter().copied().collect::<Vec<_>>(), &mut vars),
        }
        Array::from_shape_vec(self.raw_dim(), vars).expect("as many entries as the shape")
    }
    fn gradient(&self, adj: &mut AdjointReader) -> Array<f64, D> {
        let mut g = Array::zeros(self.raw_dim());
        adj.fill(g.as_slice_mut().expect("a new array is contiguous"));
        g
    }
}
