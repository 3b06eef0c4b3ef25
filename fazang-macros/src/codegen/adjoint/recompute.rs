//! Fewer saved values, in the two shapes loops take most often.
//!
//! - **Recomputed lets.** In a loop body, `let t = x[i + 1] - x[i] * x[i];` whose inputs
//!   the body does not change (parameters, the loop's own variables, lets recomputed
//!   before it) is computed again at the start of the body's reverse instead of having
//!   its previous value saved at every iteration.
//! - **Free accumulation.** `eta += x[r * d + j] * beta[j]` in a loop that mentions `eta`
//!   nowhere else, after `let mut eta = 0.0` with nothing in between: the partial sums are
//!   read by no partial derivative, so they are not saved (the final sum is, by the next
//!   `let` or assignment that overwrites it).

use super::check::{is_compound, pure, simple_pat};
use crate::activity::{Abs, Activity};
use crate::model::*;
use std::collections::HashSet;
use syn::BinOp;

/// What is recomputed or accumulated freely.
#[derive(Default)]
pub struct Plan {
    /// Lets (by binding) computed again at the start of their loop body's reverse.
    pub recompute: HashSet<BindId>,
    /// Compound assignments (by expression) that save nothing.
    pub free: HashSet<ExprId>,
    /// Bindings the recomputations read (their values are needed in reverse).
    pub reads: HashSet<BindId>,
}

pub fn plan(body: &Body, act: &Activity, assigned: &HashSet<BindId>) -> Plan {
    let mut p = Plan::default();
    walk(&body.block, act, assigned, &mut p);
    p
}

fn walk(b: &Block, act: &Activity, assigned: &HashSet<BindId>, p: &mut Plan) {
    for (k, s) in b.stmts.iter().enumerate() {
        let Stmt::Expr(e, _) = s else { continue };
        match &e.kind {
            Kind::For(_, _, _, body) | Kind::While(_, _, body) => {
                recomputable(body, act, assigned, p);
                free_accumulation(&b.stmts[..k], body, p);
                walk(body, act, assigned, p);
            }
            Kind::If(_, then, els) => {
                walk(then, act, assigned, p);
                if let Some(x) = els {
                    if let Kind::Block(_, _, eb) = &x.kind {
                        walk(eb, act, assigned, p);
                    }
                }
            }
            Kind::Block(_, _, inner) => walk(inner, act, assigned, p),
            _ => {}
        }
    }
}

/// The lets of a loop body that can be recomputed in reverse.
fn recomputable(body: &Block, act: &Activity, assigned: &HashSet<BindId>, p: &mut Plan) {
    let mut written = HashSet::new();
    let mut declared = HashSet::new();
    writes(body, &mut written, &mut declared);
    let mut here: HashSet<BindId> = HashSet::new();
    for s in &body.stmts {
        let Stmt::Let(l) = s else { continue };
        let (Some(init), Some(ids)) = (&l.init, simple_pat(&l.pat)) else {
            continue;
        };
        let [id] = ids.as_slice() else { continue };
        let scalar = matches!(
            act.of_bind(*id).deref(),
            Abs::Float(_) | Abs::Int | Abs::Bool
        );
        if !scalar || assigned.contains(id) || !pure(init) {
            continue;
        }
        let mut reads = HashSet::new();
        locals(init, &mut reads);
        let ok = reads
            .iter()
            .all(|r| here.contains(r) || (!written.contains(r) && !declared.contains(r)));
        if ok {
            here.insert(*id);
            p.recompute.insert(*id);
            p.reads.extend(reads);
        }
    }
}

/// `+=`/`-=` in `body` on variables the body mentions nowhere else, defined by the last
/// statement before the loop that mentions them.
fn free_accumulation(before: &[Stmt], body: &Block, p: &mut Plan) {
    let mut accs: Vec<(BindId, ExprId)> = Vec::new();
    accumulations(body, &mut accs);
    for &(v, _) in &accs {
        let mut mentions = 0;
        count(body, v, &mut mentions);
        let in_accs = accs.iter().filter(|(w, _)| *w == v).count();
        // Each accumulation mentions `v` once (its target).
        if mentions != in_accs {
            continue;
        }
        let defined = before.iter().rev().find_map(|s| {
            let mut m = 0;
            count_stmt(s, v, &mut m);
            (m > 0).then(|| defines(s, v))
        });
        if defined == Some(true) {
            p.free
                .extend(accs.iter().filter(|(w, _)| *w == v).map(|(_, e)| *e));
        }
    }
}

/// `v += e`, `v -= e` (e not reading `v`) anywhere in `b`.
fn accumulations(b: &Block, out: &mut Vec<(BindId, ExprId)>) {
    for s in &b.stmts {
        let Stmt::Expr(e, _) = s else { continue };
        match &e.kind {
            Kind::Binary(op @ (BinOp::AddAssign(_) | BinOp::SubAssign(_)), place, rhs)
                if is_compound(op) =>
            {
                if let Kind::Local(v, _) = &place.peel().kind {
                    let mut m = 0;
                    count_expr(rhs, *v, &mut m);
                    if m == 0 {
                        out.push((*v, e.id));
                    }
                }
            }
            Kind::For(_, _, _, inner) | Kind::While(_, _, inner) | Kind::Block(_, _, inner) => {
                accumulations(inner, out)
            }
            Kind::If(_, t, els) => {
                accumulations(t, out);
                if let Some(x) = els {
                    if let Kind::Block(_, _, eb) = &x.kind {
                        accumulations(eb, out);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Whether `s` gives `v` a whole new value (`let v = ..`, `v = ..`).
fn defines(s: &Stmt, v: BindId) -> bool {
    match s {
        Stmt::Let(l) => simple_pat(&l.pat).is_some_and(|ids| ids == [v]),
        Stmt::Expr(e, _) => match &e.kind {
            Kind::Assign(place, rhs) => {
                let mut m = 0;
                count_expr(rhs, v, &mut m);
                matches!(&place.peel().kind, Kind::Local(id, _) if *id == v) && m == 0
            }
            _ => false,
        },
        Stmt::Item(_) => false,
    }
}

fn count(b: &Block, v: BindId, n: &mut usize) {
    b.stmts.iter().for_each(|s| count_stmt(s, v, n));
}

fn count_stmt(s: &Stmt, v: BindId, n: &mut usize) {
    match s {
        Stmt::Let(l) => {
            let mut ids = Vec::new();
            pat_ids(&l.pat, &mut ids);
            *n += ids.iter().filter(|i| **i == v).count();
            if let Some(e) = &l.init {
                count_expr(e, v, n);
            }
        }
        Stmt::Expr(e, _) => count_expr(e, v, n),
        Stmt::Item(_) => {}
    }
}

fn pat_ids(p: &Pat, out: &mut Vec<BindId>) {
    if let Some(ids) = simple_pat(p) {
        out.extend(ids);
    }
}

/// Mentions of `v` in `e` (conservatively: every kind the adjoint subset admits).
fn count_expr(e: &Expr, v: BindId, n: &mut usize) {
    let mut ids = HashSet::new();
    let mut all = Vec::new();
    collect(e, &mut ids, &mut all);
    *n += all.iter().filter(|i| **i == v).count();
}

fn locals(e: &Expr, out: &mut HashSet<BindId>) {
    let mut all = Vec::new();
    collect(e, out, &mut all);
}

/// Every local an expression (and the blocks inside it) mentions.
fn collect(e: &Expr, set: &mut HashSet<BindId>, all: &mut Vec<BindId>) {
    let mut go = |x: &Expr| collect(x, set, all);
    match &e.kind {
        Kind::Local(id, _) => {
            set.insert(*id);
            all.push(*id);
        }
        Kind::Paren(x)
        | Kind::Unary(_, x)
        | Kind::Cast(x, _)
        | Kind::Try(x)
        | Kind::Field(x, _) => go(x),
        Kind::Reference { expr, .. } => go(expr),
        Kind::Binary(_, l, r) | Kind::Index(l, r) | Kind::Assign(l, r) => {
            go(l);
            go(r);
        }
        Kind::Call(f, args) => {
            go(f);
            args.iter().for_each(go);
        }
        Kind::MethodCall(m) => {
            go(&m.receiver);
            m.args.iter().for_each(go);
        }
        Kind::Range(a, _, b) => a.iter().chain(b.iter()).for_each(|x| go(x)),
        Kind::Tuple(xs) | Kind::Array(xs) => xs.iter().for_each(go),
        Kind::If(c, t, els) => {
            go(c);
            block_locals(t, set, all);
            if let Some(x) = els {
                collect(x, set, all);
            }
        }
        Kind::Block(_, _, b) | Kind::Loop(_, b) => block_locals(b, set, all),
        Kind::While(_, c, b) => {
            go(c);
            block_locals(b, set, all);
        }
        Kind::For(_, p, it, b) => {
            collect(it, set, all);
            if let Some(ids) = super::check::loop_bindings(p) {
                all.extend(ids);
            }
            block_locals(b, set, all);
        }
        Kind::Return(Some(x)) => go(x),
        Kind::Macro(Macro::Args(_, xs) | Macro::VecList(_, xs)) => xs.iter().for_each(go),
        Kind::Macro(Macro::VecRepeat(_, x, n)) => {
            go(x);
            go(n);
        }
        _ => {}
    }
}

fn block_locals(b: &Block, set: &mut HashSet<BindId>, all: &mut Vec<BindId>) {
    for s in &b.stmts {
        match s {
            Stmt::Let(l) => {
                let mut ids = Vec::new();
                pat_ids(&l.pat, &mut ids);
                all.extend(ids);
                if let Some(e) = &l.init {
                    collect(e, set, all);
                }
            }
            Stmt::Expr(e, _) => collect(e, set, all),
            Stmt::Item(_) => {}
        }
    }
}

/// Bindings written (assigned, element-written) and declared inside `b`.
fn writes(b: &Block, written: &mut HashSet<BindId>, declared: &mut HashSet<BindId>) {
    for s in &b.stmts {
        match s {
            Stmt::Let(l) => {
                let mut ids = Vec::new();
                pat_ids(&l.pat, &mut ids);
                declared.extend(ids);
            }
            Stmt::Expr(e, _) => writes_expr(e, written, declared),
            Stmt::Item(_) => {}
        }
    }
}

fn writes_expr(e: &Expr, written: &mut HashSet<BindId>, declared: &mut HashSet<BindId>) {
    match &e.kind {
        Kind::Assign(place, _) | Kind::Binary(_, place, _) => {
            if let Some(r) = super::reverse::root(place) {
                if matches!(&e.kind, Kind::Assign(..))
                    || matches!(&e.kind, Kind::Binary(op, ..) if is_compound(op))
                {
                    written.insert(r);
                }
            }
        }
        Kind::For(_, p, _, b) => {
            if let Some(ids) = super::check::loop_bindings(p) {
                declared.extend(ids);
            }
            writes(b, written, declared);
        }
        Kind::While(_, _, b) | Kind::Block(_, _, b) => writes(b, written, declared),
        Kind::If(_, t, els) => {
            writes(t, written, declared);
            if let Some(x) = els {
                writes_expr(x, written, declared);
            }
        }
        _ => {}
    }
}
