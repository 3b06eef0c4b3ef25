//! Arguments of opaque calls: each argument adapted to the callee's parameter (an active
//! scalar, a `&mut` float, an active slice, or data converted to the callee's type).

use super::call_opaque::Callee;
use super::*;
use crate::model::{Expr as MExpr, Kind as MKind};
use quote::quote;

impl<'a> Lower<'a> {
    /// One argument of an opaque call (`param`: the callee's parameter, if known: `None`
    /// inside for a parameter that stays data).
    pub(super) fn call_arg(
        &mut self,
        a: &'a MExpr,
        callee: &Callee,
        param: Option<Option<Abs>>,
    ) -> R<CallArg> {
        let active = self.abs(a).active();
        let v = self.expr(a)?;
        let call_result = matches!(
            a.peel().kind,
            MKind::Call(..) | MKind::MethodCall(..) | MKind::Try(..)
        );
        let shape = |default: DataArg| -> DataArg { param_shape(callee, &param, default) };
        Ok(match v {
            Val::F(op) if active => CallArg::Scalar(op),
            Val::MutRef(t) => CallArg::InOut(t),
            Val::Seq(s) if s.prefix.is_empty() && self.is_struct_root(s.root) => {
                return no("a registered struct passed to a function")
            }
            Val::Seq(s) if active && s.depth > 1 => {
                return no("an array of active values nested three deep passed to a function")
            }
            Val::Seq(s) if active => CallArg::Slice(self.windowed(s)),
            Val::D(d) if self.vars[d].kind == Kind::Data(DataKind::Other) => {
                self.unseen_data_arg(a, d, call_result, &shape)
            }
            Val::Seq(s) => self.data_seq_arg(a, s, callee, &shape),
            Val::F(op) => {
                let t = seq::op_tokens(self, &op);
                CallArg::Data(
                    toks(t),
                    op.var().into_iter().collect(),
                    shape(DataArg::Float),
                )
            }
            Val::D(d) => {
                let i = self.ident(d).clone();
                let sh = if self.vars[d].kind == Kind::F64 {
                    shape(DataArg::Float)
                } else {
                    DataArg::Other
                };
                CallArg::Data(toks(quote!(#i)), vec![d], sh)
            }
            Val::C(t) => CallArg::Data(t, vec![], DataArg::Other),
            other => return no(format!("{} passed to a function", other.describe())),
        })
    }

    /// Data of a type the macro cannot see, as an argument: converted by what the analysis
    /// knows of its type, or by the callee's parameter.
    fn unseen_data_arg(
        &self,
        a: &'a MExpr,
        d: V,
        call_result: bool,
        shape: &dyn Fn(DataArg) -> DataArg,
    ) -> CallArg {
        let i = self.ident(d).clone();
        // What the analysis knows of its type: floats or arrays of them take the
        // callee's scalar (`&data` borrowed, arrays passed by value); of any other
        // type, `DataArg`/`DataRefArg` decide by the type itself.
        let floats = |x: &Abs| matches!(x, Abs::Seq(e) if matches!(e.deref(), Abs::Float(_)));
        let by_ref = matches!(a.peel().kind, MKind::Reference { .. });
        let seen = match self.abs(a).deref() {
            Abs::Ref(x) if floats(x) => Some(DataArg::FloatSlice),
            x if floats(x) && by_ref => Some(DataArg::FloatSlice),
            x if floats(x) => Some(DataArg::Pass),
            _ => None,
        };
        let sh = shape(if call_result {
            DataArg::Pass
        } else {
            seen.unwrap_or(DataArg::Unseen { by_ref })
        });
        // A float parameter given data the macro could not type (maybe borrowed).
        let t = match sh {
            DataArg::Float => {
                crate::util::located_at(quote!(::fazang::__private::to_f64(#i)), a.span)
            }
            _ => quote!(#i),
        };
        CallArg::Data(toks(t), vec![d], sh)
    }

    /// A data array as an argument: borrowed as the call borrows it, converted to the
    /// callee's parameter type.
    fn data_seq_arg(
        &self,
        a: &'a MExpr,
        s: seq::Seq,
        callee: &Callee,
        shape: &dyn Fn(DataArg) -> DataArg,
    ) -> CallArg {
        let (t, reads) = self.seq_tokens(&s);
        // Borrowed as the call borrows it (a window already is a slice; a row an
        // iterator gave is a reference).
        let row = s.window.is_none() && matches!(s.prefix.last(), Some(Proj::Index(_)));
        let written_index = matches!(a.peel().kind, MKind::Index(..));
        let by_ref_param = s.prefix.is_empty()
            && s.window.is_none()
            && self.vars[s.root].kind == Kind::ParamSeq
            && self.param_by_ref(s.root);
        let borrowed = matches!(a.peel().kind, MKind::Reference { .. }) || (row && !written_index);
        let t = if borrowed { quote!(&#t) } else { t };
        let a_reference = borrowed || by_ref_param || s.window.is_some();
        // Flat data arrays become the callee's scalar (`adapt_ref` when borrowed,
        // `promote` when passed by value); nested ones are converted whole.
        // Data arrays take the callee's parameter type: borrowed (`adapt_ref`),
        // or passed by value (`pass`); data stays `f64` where the parameter is data.
        let sh = match shape(DataArg::FloatSlice) {
            DataArg::FloatSlice if !a_reference => DataArg::Pass,
            DataArg::Other if s.depth > 0 && callee.params.is_none() && !callee.fazang => {
                if a_reference {
                    DataArg::FloatSlice
                } else {
                    DataArg::Pass
                }
            }
            other => other,
        };
        CallArg::Data(toks(t), reads, sh)
    }

    /// A sequence with an explicit window (its whole length if it had none).
    pub fn windowed(&mut self, s: seq::Seq) -> seq::Seq {
        if s.window.is_some() {
            return s;
        }
        let n = self.seq_len(&s);
        seq::Seq {
            window: Some((Op::Const(toks(quote!(0usize))), n)),
            ..s
        }
    }

    /// Whether the parameter whose variable is `root` is a reference (`&[f64]`, `&[f64; N]`).
    pub fn param_by_ref(&self, root: V) -> bool {
        use crate::types::ParamKind;
        self.m.params.iter().enumerate().any(|(id, p)| {
            matches!(&self.env[id], Some(Val::Seq(s)) if s.root == root)
                && matches!(p.kind, ParamKind::Nested { by_ref: true, .. })
        })
    }
}

/// How data converts to the callee's parameter (`default` where the parameter is unknown).
fn param_shape(callee: &Callee, param: &Option<Option<Abs>>, default: DataArg) -> DataArg {
    if callee.fazang {
        return DataArg::Other;
    }
    match param {
        Some(None) => DataArg::Other,
        Some(Some(p)) => match p.deref() {
            Abs::Float(_) => DataArg::Float,
            Abs::Seq(x) if matches!(x.deref(), Abs::Float(_)) => DataArg::FloatSlice,
            _ => DataArg::Other,
        },
        None => default,
    }
}
