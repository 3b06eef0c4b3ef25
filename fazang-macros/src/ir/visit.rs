//! Walking the core form: every statement (nested blocks included), and what each one
//! writes and reads in the forward sweep.

use super::*;

/// Call `f` on every statement of `b`, outer before inner, in order.
pub fn each_stmt<'a>(b: &'a [Stmt], f: &mut dyn FnMut(&'a Stmt)) {
    for s in b {
        f(s);
        for inner in children(s) {
            each_stmt(inner, f);
        }
    }
}

/// The blocks directly inside a statement.
pub fn children(s: &Stmt) -> Vec<&Block> {
    match s {
        Stmt::If { then, els, .. } => vec![then, els],
        Stmt::For { body, .. } | Stmt::Loop { body, .. } => vec![body],
        _ => vec![],
    }
}

/// Variables a statement gives a whole new value (not its blocks'): what a save protects.
pub fn defs(s: &Stmt) -> Vec<V> {
    match s {
        Stmt::Set { dst, .. }
        | Stmt::Data { dst, .. }
        | Stmt::Load { dst, .. }
        | Stmt::Alloc { dst, .. } => vec![*dst],
        Stmt::Call(c) => {
            let mut out: Vec<V> = c.out.into_iter().chain(c.data_out).collect();
            out.extend(c.args.iter().filter_map(|a| match a {
                CallArg::InOut(v) => Some(*v),
                _ => None,
            }));
            out.extend(c.partials.iter().flatten().copied());
            if let Some((values, jac)) = c.out_array {
                out.extend([values, jac]);
            }
            out.extend(c.result_array);
            out
        }
        _ => vec![],
    }
}

/// Variables a place reads (its root and index variables).
pub fn place_reads(p: &Place) -> Vec<V> {
    let mut out = vec![p.root];
    out.extend(index_vars(p));
    out
}

/// The index variables of a place.
pub fn index_vars(p: &Place) -> Vec<V> {
    p.path
        .iter()
        .filter_map(|x| match x {
            Proj::Index(Op::Var(v)) => Some(*v),
            _ => None,
        })
        .collect()
}

/// Variables a statement reads in the forward sweep (not its blocks').
pub fn uses(s: &Stmt) -> Vec<V> {
    let ops = |xs: Vec<&Op>| xs.into_iter().filter_map(Op::var).collect::<Vec<_>>();
    match s {
        Stmt::Set { rhs, .. } => ops(rhs.operands()),
        Stmt::Data { reads, .. } | Stmt::Effect { reads, .. } => reads.clone(),
        Stmt::Load { place, .. } => place_reads(place),
        Stmt::Store { place, src } => {
            let mut v = place_reads(place);
            v.extend(src.var());
            v
        }
        Stmt::Alloc { init, .. } => match init {
            Init::Repeat(a, n, _) => a.var().into_iter().chain(n.var()).collect(),
            Init::List(xs, _) => xs.iter().filter_map(Op::var).collect(),
            Init::CopyOf(p, w) => {
                let mut v = place_reads(p);
                if let Some((o, n)) = w {
                    v.extend(o.var());
                    v.extend(n.var());
                }
                v
            }
            Init::Empty => vec![],
        },
        Stmt::Push { dst, src } => {
            let mut v = vec![*dst];
            v.extend(src.var());
            v
        }
        Stmt::PushRow { dst, src } => vec![*dst, *src],
        Stmt::If { cond, .. } => vec![*cond],
        Stmt::For { count, .. } => vec![*count],
        Stmt::Loop { exit, .. } => vec![exit.flag],
        Stmt::Call(c) => {
            let mut v = c.callee_reads.clone();
            for a in &c.args {
                match a {
                    CallArg::Scalar(op) => v.extend(op.var()),
                    CallArg::InOut(x) => v.push(*x),
                    CallArg::Slice(s) => {
                        v.push(s.root);
                        v.extend(s.prefix.iter().filter_map(|p| match p {
                            Proj::Index(Op::Var(x)) => Some(*x),
                            _ => None,
                        }));
                        if let Some((o, n)) = &s.window {
                            v.extend(o.var());
                            v.push(*n);
                        }
                    }
                    CallArg::Data(_, r, _) => v.extend(r.iter().copied()),
                }
            }
            v
        }
    }
}
