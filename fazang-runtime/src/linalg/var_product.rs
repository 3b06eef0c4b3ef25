//! The products on [`Var`]: [`multiply`], [`quad_form`] and [`quad_form_vec`], each one
//! lazy operation or node whose backward pass is a few `f64` matrix products.

use super::{add_all, operands, values, Entry};
use crate::tape::var::{nary_named, vector_named, Var};
use nalgebra::DMatrix;

/// `C = A B`: the forward pass one `f64` product, the backward pass two (`Ā += C̄ Bᵀ`,
/// `B̄ += Aᵀ C̄`); the tape holds the two value matrices instead of one node per
/// multiply-add.
pub(super) fn multiply<A: Entry<Var>, B: Entry<Var>>(a: DMatrix<A>, b: DMatrix<B>) -> DMatrix<Var> {
    let (av, bv) = (values::<Var, _>(&a), values::<Var, _>(&b));
    let c = &av * &bv;
    let mut inputs = Vec::new();
    operands(&a, &mut inputs);
    operands(&b, &mut inputs);
    let (na, (m, n)) = (if A::ACTIVE { av.len() } else { 0 }, c.shape());
    let outs = vector_named("multiply", &inputs, c.as_slice(), move |ob, ib| {
        let cbar = DMatrix::from_column_slice(m, n, ob);
        if A::ACTIVE {
            add_all(&(&cbar * bv.transpose()), &mut ib[..na]);
        }
        if B::ACTIVE {
            add_all(&(av.transpose() * &cbar), &mut ib[na..]);
        }
    });
    DMatrix::from_vec(m, n, outs)
}

/// `C = Bᵀ A B`: `Ā = B C̄ Bᵀ`, `B̄ = A B C̄ᵀ + Aᵀ B C̄`.
pub(super) fn quad_form<A: Entry<Var>, B: Entry<Var>>(
    a: DMatrix<A>,
    b: DMatrix<B>,
) -> DMatrix<Var> {
    let (av, bv) = (values::<Var, _>(&a), values::<Var, _>(&b));
    let ab = &av * &bv;
    let c = bv.transpose() * &ab;
    let mut inputs = Vec::new();
    operands(&a, &mut inputs);
    operands(&b, &mut inputs);
    let (na, k) = (if A::ACTIVE { av.len() } else { 0 }, c.nrows());
    let outs = vector_named("quad_form", &inputs, c.as_slice(), move |ob, ib| {
        let cbar = DMatrix::from_column_slice(k, k, ob);
        if A::ACTIVE {
            add_all(&(&bv * &cbar * bv.transpose()), &mut ib[..na]);
        }
        if B::ACTIVE {
            let g = &ab * cbar.transpose() + av.transpose() * &bv * &cbar;
            add_all(&g, &mut ib[na..]);
        }
    });
    DMatrix::from_vec(k, k, outs)
}

/// `vᵀ A v` of a column vector: one node with partials `vᵢ vⱼ` for `Aᵢⱼ` and `(A + Aᵀ) v`
/// for `v`.
pub(super) fn quad_form_vec<A: Entry<Var>, B: Entry<Var>>(a: DMatrix<A>, v: DMatrix<B>) -> Var {
    let (av, vv) = (values::<Var, _>(&a), values::<Var, _>(&v));
    let av_v = &av * &vv;
    let value = vv.dot(&av_v);
    let sym = av_v + av.transpose() * &vv;
    let n = vv.len();
    let pa = (0..n * n).map(|k| vv[k % n] * vv[k / n]);
    let a_ops = a
        .iter()
        .map(|x| x.to_scalar())
        .zip(pa)
        .filter(|_| A::ACTIVE);
    let v_ops = v
        .iter()
        .map(|x| x.to_scalar())
        .zip(sym.iter().copied())
        .filter(|_| B::ACTIVE);
    nary_named("quad_form_vec", value, a_ops.chain(v_ops))
}
