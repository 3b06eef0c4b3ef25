//! Calls of functions the macro cannot see into: one [`Stmt::Call`] each, differentiated
//! in the forward sweep by forward lanes (few active scalars) or on the tape (active
//! slices, `&mut` floats); `?`, `unwrap` and `expect` on their `Result`s.

use super::call::scalar_fn_path;
use super::*;
use crate::model::{Expr as MExpr, Kind as MKind};
use quote::quote;

impl<'a> Lower<'a> {
    /// `f(args)?`.
    pub fn try_expr(&mut self, x: &'a MExpr) -> R<Val> {
        if self.is_opaque_call(x) {
            return self.opaque_call_expr(x, Fallible::Question);
        }
        match self.expr(x)? {
            Val::Opt(v, _) => Ok(*v),
            other => no(format!("`?` on {}", other.describe())),
        }
    }

    /// Whether an expression is a call the macro cannot see into (so `?`, `unwrap` apply
    /// to its result inside the call's statement).
    pub(super) fn is_opaque_call(&self, x: &MExpr) -> bool {
        match &x.peel().kind {
            MKind::Call(f, _) => match &f.peel().kind {
                MKind::Path(p) => {
                    let segs: Vec<String> = crate::util::path_names(&p.path);
                    scalar_fn_path(&segs).is_none()
                        && !matches!(segs.last().map(String::as_str), Some("Some" | "Ok" | "Err"))
                }
                _ => false,
            },
            MKind::MethodCall(m) => crate::activity::walk_support::is_self(&m.receiver),
            _ => false,
        }
    }

    /// An opaque call whose `Result` is unwrapped as `f` says.
    pub(super) fn opaque_call_expr(&mut self, x: &'a MExpr, f: Fallible) -> R<Val> {
        match &x.peel().kind {
            MKind::Call(func, args) => {
                let MKind::Path(p) = &func.peel().kind else {
                    return no("a call of a computed function");
                };
                let segs: Vec<String> = crate::util::path_names(&p.path);
                let callee = self.path_callee(p, &segs);
                self.opaque(x, callee, args, f)
            }
            MKind::MethodCall(m) => {
                let (recv, _) = self.data_tokens(&m.receiver)?;
                let method = &m.method;
                let callee = self.method_callee(quote!(#recv.#method), &m.method);
                self.opaque(x, callee, &m.args, f)
            }
            _ => no("`?` on something other than a call"),
        }
    }

    /// A call the macro cannot see into: one statement, differentiated in the forward sweep.
    pub fn opaque(
        &mut self,
        e: &'a MExpr,
        callee: Callee,
        margs: &'a [MExpr],
        fallible: Fallible,
    ) -> R<Val> {
        // A `Result` returned as the function's own result: its error returned, its value
        // the result (what `?` then `Ok` do).
        let fallible = match fallible {
            Fallible::No if self.result_positions.contains(&e.id) => Fallible::Question,
            f => f,
        };
        let args = self.opaque_args(&callee, margs)?;
        let e_span = e.span;
        let scalars = args
            .iter()
            .filter(|a| matches!(a, CallArg::Scalar(_) | CallArg::InOut(_)))
            .count();
        let slices = args.iter().any(|a| matches!(a, CallArg::Slice(_)));
        let inouts: Vec<V> = args
            .iter()
            .filter_map(|a| match a {
                CallArg::InOut(v) => Some(*v),
                _ => None,
            })
            .collect();
        let result = self.abs(e).deref().clone();
        let hinted = self.hints.exprs.contains(&e.id) && matches!(result, Abs::Unknown(_));
        let seq_hinted =
            !hinted && self.hints.seqs.contains(&e.id) && matches!(result, Abs::Unknown(true));
        let vector_result =
            seq_hinted || matches!(&result, Abs::Seq(x) if matches!(x.deref(), Abs::Float(true)));
        let rows_result = matches!(&result, Abs::Seq(x)
            if matches!(x.deref(), Abs::Seq(y) if matches!(y.deref(), Abs::Float(true))));
        let how = if !slices
            && !rows_result
            && scalars <= MAX_LANES
            && (!vector_result || inouts.is_empty())
        {
            CallHow::Lanes
        } else {
            CallHow::Tape
        };
        let convert = !callee.fazang;
        if rows_result {
            return self.taped_with_inouts(
                callee.tokens,
                args,
                Some(Shape::Rows),
                (fallible, convert),
                e_span,
            );
        }
        if how == CallHow::Tape && !inouts.is_empty() {
            let shape = inout_shape(&result, hinted, vector_result)?;
            return self.taped_with_inouts(callee.tokens, args, shape, (fallible, convert), e_span);
        }
        let callee_reads = Vec::new();
        let callee = callee.tokens;
        let (out, data_out, out_array) =
            if self.discarded.contains(&e.id) && matches!(result, Abs::Unknown(_)) {
                // Its value is dropped: called for what it does (`log(x);`), no output.
                (None, None, None)
            } else {
                self.opaque_outputs(&result, hinted, seq_hinted, inouts.is_empty())?
            };
        if how == CallHow::Tape && out.is_none() && out_array.is_none() {
            return no("a call with active arrays that returns no float");
        }
        let n_out = usize::from(out.is_some()) + inouts.len();
        let partials = if how == CallHow::Lanes && out_array.is_none() {
            (0..n_out)
                .map(|_| (0..scalars).map(|_| self.new_var("p", Kind::F64)).collect())
                .collect()
        } else {
            Vec::new()
        };
        let jac_lanes = if how == CallHow::Tape && out_array.is_some() {
            self.jac_lanes(&args)
        } else {
            0
        };
        self.emit(Stmt::Call(Call {
            how,
            callee: toks(callee),
            callee_reads,
            args,
            out,
            data_out,
            out_array,
            result_array: None,
            result_rows: false,
            jac_lanes,
            span: e_span,
            partials,
            fallible,
            convert,
            reduce: None,
        }));
        Ok(match (out, data_out, out_array) {
            (Some(v), _, _) => Val::F(Op::Var(v)),
            (_, Some(d), _) => Val::D(d),
            (_, _, Some((values, _))) => Val::Seq(seq::Seq::whole(values, 1)),
            _ => Val::Unit,
        })
    }

    /// The arguments of an opaque call, each adapted to its parameter if the callee's are
    /// known.
    fn opaque_args(&mut self, callee: &Callee, margs: &'a [MExpr]) -> R<Vec<CallArg>> {
        let mut args = Vec::new();
        for (i, a) in margs.iter().enumerate() {
            let param = callee
                .params
                .as_ref()
                .map(|ps| ps.get(i).cloned().flatten());
            args.push(self.call_arg(a, callee, param)?);
        }
        Ok(args)
    }

    /// The outputs of an opaque call (without `&mut` floats on the tape) by what it
    /// returns: a float (`out`), data (`data_out`), or a vector of floats with its Jacobian
    /// (`out_array`).
    fn opaque_outputs(
        &mut self,
        result: &Abs,
        hinted: bool,
        seq_hinted: bool,
        no_inouts: bool,
    ) -> R<Outputs> {
        let mut out_array = None;
        let (out, data_out) = match result {
            Abs::Float(_) => (Some(self.new_var("y", Kind::F64)), None),
            _ if hinted => (Some(self.new_var("y", Kind::F64)), None),
            Abs::Int | Abs::Bool => (None, Some(self.new_var("d", self.kind_of_abs(result)))),
            _ if (seq_hinted
                || matches!(result, Abs::Seq(x) if matches!(x.deref(), Abs::Float(true))))
                && no_inouts =>
            {
                let values = self.new_var("ys", Kind::Array);
                let jac = self.new_var("jac", Kind::Array);
                out_array = Some((values, jac));
                (None, None)
            }
            Abs::Unknown(false) | Abs::Never => (None, None),
            _ => return no("a call returning something other than a float or a vector of floats"),
        };
        Ok((out, data_out, out_array))
    }

    /// A call of a path: fazang's functions take data as it is; the functions of the same
    /// module or impl block have known parameters.
    pub(super) fn path_callee(&self, p: &syn::ExprPath, segs: &[String]) -> Callee {
        let last = segs.last().map(String::as_str).unwrap_or("");
        let fazang = crate::model::known::is_fazang_fn(last)
            && (segs.len() == 1 || segs.first().is_some_and(|s| s == "fazang"));
        let params = crate::activity::walk_support::known_callee(self.callees, segs, false)
            .map(|c| c.params.clone());
        Callee {
            tokens: quote!(#p),
            fazang,
            params,
        }
    }

    /// A method of `self` (known if it is of the same impl block).
    pub(super) fn method_callee(&self, tokens: TokenStream, name: &syn::Ident) -> Callee {
        let segs = [name.to_string()];
        let params = crate::activity::walk_support::known_callee(self.callees, &segs, true)
            .map(|c| c.params.clone());
        Callee {
            tokens,
            fazang: false,
            params,
        }
    }

    /// A call on the tape with `&mut` floats (`simplex_constrain(&y, &mut lp)`) or rows as
    /// its result (`cholesky_corr_constrain(..)`): one recording whose outputs are the
    /// result's floats and each `&mut` float's new value. `shape`: the result's, if any.
    fn taped_with_inouts(
        &mut self,
        callee: TokenStream,
        args: Vec<CallArg>,
        shape: Option<Shape>,
        (fallible, convert): (Fallible, bool),
        e_span: proc_macro2::Span,
    ) -> R<Val> {
        let values = self.new_var("ys", Kind::Array);
        let jac = self.new_var("jac", Kind::Array);
        let (out, result_array) = match shape {
            Some(Shape::Float) => (Some(self.new_var("y", Kind::F64)), None),
            Some(_) => (None, Some(self.new_var("res", Kind::Array))),
            None => (None, None),
        };
        let rows = matches!(shape, Some(Shape::Rows));
        let jac_lanes = self.jac_lanes(&args);
        self.emit(Stmt::Call(Call {
            how: CallHow::Tape,
            callee: toks(callee),
            callee_reads: Vec::new(),
            args,
            out,
            data_out: None,
            out_array: Some((values, jac)),
            result_array,
            result_rows: rows,
            jac_lanes,
            span: e_span,
            partials: Vec::new(),
            fallible,
            convert,
            reduce: None,
        }));
        Ok(match (out, result_array) {
            (Some(v), _) => Val::F(Op::Var(v)),
            (_, Some(a)) => Val::Seq(seq::Seq::whole(a, 1 + usize::from(rows))),
            _ => Val::Unit,
        })
    }
}

impl Lower<'_> {
    /// The forward lanes a taped call with a vector result can take instead: one per
    /// active input (scalars, `&mut` floats, the elements of windows of constant length),
    /// if there are at most [`MAX_LANES`]; 0 otherwise.
    fn jac_lanes(&self, args: &[CallArg]) -> usize {
        let mut k = 0;
        for a in args {
            k += match a {
                CallArg::Scalar(_) | CallArg::InOut(_) => 1,
                CallArg::Slice(s) if s.depth == 0 => {
                    match s.window.as_ref().and_then(|(_, n)| self.const_len.get(n)) {
                        Some(n) => *n,
                        None => return 0,
                    }
                }
                CallArg::Slice(_) => return 0,
                CallArg::Data(..) => 0,
            };
        }
        if k <= MAX_LANES {
            k
        } else {
            0
        }
    }
}

/// Active scalar inputs up to which a call is differentiated by forward lanes.
const MAX_LANES: usize = 8;

/// The function an opaque call calls.
pub struct Callee {
    /// What comes before the argument list.
    pub tokens: TokenStream,
    /// One of fazang's functions (data taken as it is).
    pub fazang: bool,
    /// The parameters, when the callee is a function of the same module or impl block.
    pub params: Option<Vec<Option<Abs>>>,
}

impl Callee {
    pub(super) fn unknown(tokens: TokenStream) -> Self {
        Callee {
            tokens,
            fazang: false,
            params: None,
        }
    }
}

/// The outputs of an opaque call: a float, data, a vector of floats and its Jacobian.
type Outputs = (Option<V>, Option<V>, Option<(V, V)>);

/// What a taped call returns.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    Float,
    Vector,
    /// `Vec<Vec<f64>>`.
    Rows,
}

/// What a taped call with `&mut` floats returns (`None`: nothing).
fn inout_shape(result: &Abs, hinted: bool, vector_result: bool) -> R<Option<Shape>> {
    Ok(if hinted || matches!(result, Abs::Float(_)) {
        Some(Shape::Float)
    } else if vector_result {
        Some(Shape::Vector)
    } else if matches!(result, Abs::Unknown(false) | Abs::Never) {
        None
    } else {
        return no("a call with `&mut` floats returning something other than floats");
    })
}
