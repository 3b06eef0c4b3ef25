//! Method calls in the activity walk: `f64`'s methods, iterators and collections by
//! name (the macro sees no types), everything else by its arguments.

use super::super::Abs;
use super::{abs_of_type, Walk};
use crate::model::known::*;
use crate::model::{Expr, Kind, MethodCall};

/// The item of an iterator (or the element of a sequence used as one).
fn item_of(r: &Abs) -> Abs {
    match r {
        Abs::Seq(x) => (**x).clone(),
        Abs::Ref(x) => item_of(x),
        Abs::Never => Abs::Never,
        x => Abs::Unknown(x.active()),
    }
}

fn seq(x: Abs) -> Abs {
    Abs::Seq(Box::new(x))
}

fn refd(x: Abs) -> Abs {
    Abs::Ref(Box::new(x))
}

impl<'a> Walk<'a> {
    pub(super) fn method(&mut self, m: &'a MethodCall) -> Abs {
        let r = self.expr(&m.receiver);
        let name = m.method.to_string();
        let n = name.as_str();
        let args: &'a [Expr] = &m.args;
        let it = item_of(&r);
        let is_seq = matches!(r.deref(), Abs::Seq(_));
        if ITEM_CLOSURES.contains(&n) {
            // `out.iter_mut().zip(v).for_each(|(o, x)| *o += w * x)`: what the closure
            // writes through its item reaches `out`, as in a `for` loop.
            if let Some(Kind::Closure(c)) = args.first().map(|a| &a.peel().kind) {
                if let Some((p, _)) = c.params.first() {
                    self.note_iter_mut(p, &m.receiver);
                }
            }
        }
        if is_self(&m.receiver) {
            if let Some(c) = super::known_callee(self.callees, std::slice::from_ref(&name), true) {
                let c = c.clone();
                let act = self.exprs(args).iter().any(Abs::active);
                self.written_through(&c, args);
                return if act { c.ret } else { super::passive(&c.ret) };
            }
        }
        match n {
            "max" | "min" if args.is_empty() => it,
            "sin_cos" => {
                let a = r.active();
                Abs::Tuple(vec![Abs::Float(a), Abs::Float(a)])
            }
            _ if is_real_method(n) => {
                let vs = self.exprs(args);
                if *r.deref() == Abs::Int && vs.iter().all(|v| *v.deref() == Abs::Int) {
                    Abs::Int
                } else {
                    Abs::Float(r.active() || vs.iter().any(Abs::active))
                }
            }
            _ if FLOAT_PREDICATES.contains(&n) => {
                self.exprs(args);
                Abs::Bool
            }
            "val" | "adj" => Abs::Float(false),
            "len" | "count" | "capacity" | "position" | "rposition" => {
                self.closure_args(args, &[refd(it.clone()), refd(it)]);
                Abs::Int
            }
            _ if DATA_METHODS.contains(&n) => {
                self.closure_args(args, &[refd(it.clone()), refd(it)]);
                match n {
                    "is_empty" | "contains" | "starts_with" | "ends_with" | "is_some"
                    | "is_none" | "is_ok" | "is_err" | "eq" | "ne" | "lt" | "le" | "gt" | "ge" => {
                        Abs::Bool
                    }
                    _ => Abs::Unknown(false),
                }
            }
            "iter" | "iter_mut" => seq(refd(r.elem())),
            "into_iter" => {
                self.exprs(args);
                match &r {
                    Abs::Seq(_) => r.clone(),
                    other => seq(other.item()),
                }
            }
            "copied" | "cloned" if is_seq => seq(it.deref().clone()),
            _ if SAME_ITEMS.contains(&n) => {
                self.exprs(args);
                seq(it)
            }
            "map" if is_seq => {
                let v = self.apply_arg(args, &[it]);
                seq(v)
            }
            "map" | "and_then" => self.apply_arg(args, std::slice::from_ref(&r)),
            "filter" | "skip_while" | "take_while" | "inspect" => {
                self.apply_arg(args, &[refd(it.clone())]);
                seq(it)
            }
            "filter_map" | "map_while" => seq(self.apply_arg(args, &[it])),
            "flat_map" => seq(self.apply_arg(args, &[it]).item()),
            "flatten" => seq(it.item()),
            "for_each" => {
                self.apply_arg(args, &[it]);
                Abs::Unknown(false)
            }
            "enumerate" => seq(Abs::Tuple(vec![Abs::Int, it])),
            "zip" => {
                let other = self.exprs(args).pop().unwrap_or(Abs::Never);
                seq(Abs::Tuple(vec![it, other.item()]))
            }
            "chain" => {
                let other = self.exprs(args).pop().unwrap_or(Abs::Never);
                seq(it.join(&other.item()))
            }
            "windows" | "chunks" | "chunks_exact" | "rchunks" => {
                self.exprs(args);
                seq(refd(seq(r.elem())))
            }
            "sum" | "product" => {
                let mut v = it.deref().clone();
                if let Some(ty) = turbofish_type(m) {
                    v = v.join(&abs_of_type(ty, false));
                }
                v
            }
            "fold" if args.len() == 2 => {
                let init = self.expr(&args[0]);
                let acc = init.join(&self.result_of(&args[1]));
                let v = self.apply(&args[1], &[acc.clone(), it]);
                acc.join(&v)
            }
            "reduce" => {
                let acc = it.join(&self.apply_ret(args));
                let v = self.apply_arg(args, &[acc.clone(), it]);
                acc.join(&v)
            }
            "max_by" | "min_by" => {
                self.apply_arg(args, &[refd(it.clone()), refd(it.clone())]);
                it
            }
            "max_by_key" | "min_by_key" | "find" => {
                self.apply_arg(args, &[refd(it.clone())]);
                it
            }
            "find_map" => self.apply_arg(args, &[it]),
            "any" | "all" => {
                self.apply_arg(args, &[it]);
                Abs::Bool
            }
            "collect" => r.clone(),
            "unwrap_or" => {
                let v = self.exprs(args).pop().unwrap_or(Abs::Never);
                r.join(&v)
            }
            "unwrap_or_else" => {
                let v = self.apply_arg(args, &[]);
                r.join(&v)
            }
            "clone" | "to_vec" | "to_owned" => {
                self.exprs(args);
                r.deref().clone()
            }
            // `Option<&f64>::copied()`: the value, not a reference.
            "copied" | "cloned" if !is_seq => {
                self.exprs(args);
                r.deref().clone()
            }
            _ if TRANSPARENT.contains(&n) => {
                self.exprs(args);
                r
            }
            "next" | "nth" | "pop" | "remove" | "swap_remove" | "pop_front" | "pop_back" => {
                self.exprs(args);
                it
            }
            _ if ELEMENT.contains(&n) => {
                self.exprs(args);
                refd(r.elem())
            }
            "copy_from_slice" | "clone_from_slice" => {
                // The elements of the argument go into the receiver's.
                let v = self.exprs(args).pop().unwrap_or(Abs::Never);
                self.flow_place(&m.receiver, &seq(v.item().deref().clone()));
                Abs::Unknown(false)
            }
            _ if STORE_ARG.contains(&n) => {
                let v = self.exprs(args).pop().unwrap_or(Abs::Never);
                self.flow_place(&m.receiver, &seq(v));
                Abs::Unknown(false)
            }
            "extend" | "extend_from_slice" | "append" => {
                let v = self.exprs(args).pop().unwrap_or(Abs::Never);
                self.flow_place(&m.receiver, &seq(v.item().deref().clone()));
                Abs::Unknown(false)
            }
            "split_at" | "split_at_mut" => {
                self.exprs(args);
                Abs::Tuple(vec![r.clone(), r])
            }
            _ => {
                let vs = self.exprs(args);
                let act = r.active()
                    || vs.iter().any(Abs::active)
                    || args.iter().any(|a| self.result_of(a).active());
                self.flow_mut_args(args, act);
                Abs::Unknown(act)
            }
        }
    }

    /// The first closure-like argument applied to `vals`; other arguments walked.
    fn apply_arg(&mut self, args: &'a [Expr], vals: &[Abs]) -> Abs {
        let mut out = Abs::Unknown(false);
        let mut applied = false;
        for a in args {
            if !applied && is_callable(a) {
                out = self.apply(a, vals);
                applied = true;
            } else {
                self.expr(a);
            }
        }
        out
    }

    /// Closure arguments applied to `vals`, the others walked.
    fn closure_args(&mut self, args: &'a [Expr], vals: &[Abs]) {
        for a in args {
            if is_callable(a) {
                self.apply(a, vals);
            } else {
                self.expr(a);
            }
        }
    }

    /// What the first closure-like argument returned so far.
    fn apply_ret(&self, args: &[Expr]) -> Abs {
        args.iter()
            .find(|a| is_callable(a))
            .map(|a| self.result_of(a))
            .unwrap_or(Abs::Never)
    }

    /// What a closure-like expression returned so far (for accumulators fed back).
    pub(super) fn result_of(&self, f: &Expr) -> Abs {
        match &f.peel().kind {
            Kind::Closure(c) => self.closure_ret[c.id].clone(),
            Kind::Local(id, _) => match self.bind[*id] {
                Abs::Closure(c) => self.closure_ret[c].clone(),
                _ => Abs::Never,
            },
            _ => Abs::Never,
        }
    }
}

/// Iterator methods whose closure takes the items one by one (a `&mut` item of an
/// `iter_mut` chain among them).
const ITEM_CLOSURES: &[&str] = &[
    "for_each",
    "map",
    "inspect",
    "filter_map",
    "flat_map",
    "map_while",
    "try_for_each",
];

/// `self`.
pub fn is_self(e: &Expr) -> bool {
    matches!(&e.peel().kind, Kind::Path(p) if p.path.is_ident("self"))
}

/// A closure, or a path used as a function value (`f64::max`).
fn is_callable(e: &Expr) -> bool {
    matches!(
        e.peel().kind,
        Kind::Closure(_) | Kind::Path(_) | Kind::Local(..)
    )
}

/// `T` of `.sum::<T>()`.
fn turbofish_type(m: &MethodCall) -> Option<&syn::Type> {
    m.turbofish.as_ref()?.args.iter().find_map(|a| match a {
        syn::GenericArgument::Type(t) => Some(t),
        _ => None,
    })
}
