//! The analyses the printers read, on the core form (after Enzyme's activity analysis and
//! Tapenade's to-be-recorded analysis):
//!
//! - **activity**: a variable is active if it depends on an active parameter (varied) and
//!   the result depends on it (useful); only active statements have a reverse;
//! - **recomputation**: in a loop body, a cheap statement (arithmetic, a read of a
//!   parameter, index arithmetic) whose operands do not change after it in the body is
//!   computed again at the start of its iteration's reverse instead of being saved;
//!   a call or a transcendental function never is;
//! - **to be recorded**: the reverse sweep reads some values (a product's operands, an
//!   index, a branch's condition, a loop's count); a statement overwriting such a value
//!   after it was read (in forward order) saves the old value first, and its reverse
//!   restores it. Straight-line code overwrites nothing it reads: nothing is saved.
//!
//! Each analysis is a fixed point over the loops of the body; a fixed point that does not
//! settle (it always does: the sets only grow) is reported, never ignored.

use super::visit::{children, defs, each_stmt, index_vars, uses};
use super::*;
use crate::catalogue::{Deriv, Needs};
use std::collections::HashSet;

/// A statement's identity (its address: the core form is not moved once analysed).
pub fn key(s: &Stmt) -> usize {
    s as *const Stmt as usize
}

/// What the printers need to know.
pub struct Facts {
    pub active: Vec<bool>,
    /// `(statement, variable)`: the statement saves the variable before overwriting it.
    pub saves: HashSet<(usize, V)>,
    /// Statements computed again at the start of their loop body's reverse.
    pub remat: HashSet<usize>,
    /// Control statements (`if`, loops) whose reverse must run.
    pub rev_work: HashSet<usize>,
    /// Variables the reverse sweep reads.
    pub read_back: HashSet<V>,
    /// Local arrays whose shape may differ from one allocation to the next (pushed to,
    /// or of a length computed at run time): the reverse of an element's read or write
    /// needs the adjoint in the shape the array had then, so an allocation overwriting
    /// it saves the old value (its reverse restores it and shapes the adjoint after it).
    pub varying_shape: HashSet<V>,
}

/// The local arrays whose shape may change between allocations (see
/// [`Facts::varying_shape`]).
fn varying_shape(f: &Func) -> HashSet<V> {
    let fixed_count = |n: &Op| matches!(n, Op::Const(_));
    let mut out = HashSet::new();
    each_stmt(&f.body, &mut |s| match s {
        Stmt::Push { dst, .. } | Stmt::PushRow { dst, .. } => {
            out.insert(*dst);
        }
        Stmt::Alloc { dst, init } => {
            let fixed = match init {
                Init::List(..) => true,
                Init::Repeat(_, n, _) => fixed_count(n),
                Init::CopyOf(p, w) => {
                    f.vars[p.root].kind == Kind::ParamSeq
                        && w.as_ref().is_none_or(|(_, n)| fixed_count(n))
                }
                Init::Empty => false,
            };
            if !fixed {
                out.insert(*dst);
            }
        }
        Stmt::Call(c) => {
            out.extend(c.result_array);
            out.extend(c.out_array.map(|(values, _)| values));
        }
        _ => {}
    });
    out
}

/// Passes after which a fixed point is a bug (each pass adds to a finite set).
fn max_passes(f: &Func) -> usize {
    f.vars.len() + 8
}

pub fn analyse(f: &Func) -> Result<Facts, String> {
    let active = activity(f)?;
    let mut facts = Facts {
        active,
        saves: HashSet::new(),
        remat: HashSet::new(),
        rev_work: HashSet::new(),
        read_back: HashSet::new(),
        varying_shape: varying_shape(f),
    };
    remat(&f.body, f, &mut facts);
    for pass in 0.. {
        if pass > max_passes(f) {
            return Err("the to-be-recorded analysis did not settle".into());
        }
        let before = (facts.rev_work.len(), facts.saves.len());
        mark_rev_work(&f.body, &mut facts);
        let mut tbr = Tbr {
            facts: &mut facts,
            f,
        };
        let mut state = HashSet::new();
        tbr.block(&f.body, &mut state)?;
        if (facts.rev_work.len(), facts.saves.len()) == before {
            break;
        }
    }
    Ok(facts)
}

/// Active variables: varied (depend on an active parameter) and useful (the result
/// depends on them).
fn activity(f: &Func) -> Result<Vec<bool>, String> {
    let n = f.vars.len();
    let mut varied = vec![false; n];
    for p in &f.params {
        if p.active {
            varied[p.var] = true;
        }
    }
    fixed_point(f, "activity", |changed| {
        each_stmt(&f.body, &mut |s| {
            for (dst, srcs) in flows(s) {
                if !varied[dst] && srcs.iter().any(|v| varied[*v]) {
                    varied[dst] = true;
                    *changed = true;
                }
            }
        })
    })?;
    let mut useful = vec![false; n];
    useful[f.ret] = true;
    if let Some(r) = f.ret_array {
        useful[r] = true;
    }
    fixed_point(f, "usefulness", |changed| {
        each_stmt(&f.body, &mut |s| {
            for (dst, srcs) in flows(s) {
                if useful[dst] {
                    for v in srcs {
                        if !useful[v] {
                            useful[v] = true;
                            *changed = true;
                        }
                    }
                }
            }
        })
    })?;
    Ok((0..n).map(|v| varied[v] && useful[v]).collect())
}

/// Repeat `pass` until it changes nothing.
fn fixed_point(f: &Func, what: &str, mut pass: impl FnMut(&mut bool)) -> Result<(), String> {
    for _ in 0..max_passes(f) {
        let mut changed = false;
        pass(&mut changed);
        if !changed {
            return Ok(());
        }
    }
    Err(format!("the {what} analysis did not settle"))
}

/// Where derivatives flow in a statement: `(to, from..)`.
fn flows(s: &Stmt) -> Vec<(V, Vec<V>)> {
    match s {
        Stmt::Set { dst, rhs } => {
            let flat = matches!(rhs, Rhs::Fun(f, _) if f.deriv == Deriv::Flat);
            if flat {
                return vec![];
            }
            let srcs = match rhs {
                // powi's exponent is data.
                Rhs::Fun(f, ops) if f.name == "powi" => {
                    ops[..1].iter().filter_map(Op::var).collect()
                }
                _ => rhs.operands().into_iter().filter_map(Op::var).collect(),
            };
            vec![(*dst, srcs)]
        }
        Stmt::Load { dst, place } => vec![(*dst, vec![place.root])],
        Stmt::Store { place, src } => vec![(place.root, src.var().into_iter().collect())],
        Stmt::Alloc { dst, init } => {
            let srcs = match init {
                Init::Repeat(a, _, _) => a.var().into_iter().collect(),
                Init::List(xs, _) => xs.iter().filter_map(Op::var).collect(),
                Init::CopyOf(p, _) => vec![p.root],
                Init::Empty => vec![],
            };
            vec![(*dst, srcs)]
        }
        Stmt::Push { dst, src } => vec![(*dst, src.var().into_iter().collect())],
        Stmt::PushRow { dst, src } => vec![(*dst, vec![*src])],
        Stmt::Call(c) => {
            let ins = call_inputs(c);
            let mut out: Vec<(V, Vec<V>)> = c
                .out
                .iter()
                .chain(c.out_array.iter().map(|(values, _)| values))
                .chain(c.result_array.iter())
                .map(|o| (*o, ins.clone()))
                .collect();
            for a in &c.args {
                if let CallArg::InOut(v) = a {
                    out.push((*v, ins.clone()));
                }
            }
            out
        }
        _ => vec![],
    }
}

/// The active inputs of a call: scalars and `&mut` floats (one each), slices' roots.
pub fn call_inputs(c: &Call) -> Vec<V> {
    c.args
        .iter()
        .filter_map(|a| match a {
            CallArg::Scalar(op) => op.var(),
            CallArg::InOut(v) => Some(*v),
            CallArg::Slice(s) => Some(s.root),
            CallArg::Data(..) => None,
        })
        .collect()
}

impl Facts {
    pub fn op_active(&self, op: &Op) -> bool {
        op.var().is_some_and(|v| self.active[v])
    }

    /// Whether a statement (not a control statement) has a reverse.
    pub fn stmt_active(&self, s: &Stmt) -> bool {
        match s {
            Stmt::Set { dst, .. } | Stmt::Load { dst, .. } | Stmt::Alloc { dst, .. } => {
                self.active[*dst]
            }
            Stmt::Store { place, .. } => self.active[place.root],
            Stmt::Push { dst, .. } | Stmt::PushRow { dst, .. } => self.active[*dst],
            Stmt::Call(c) => self.call_active(c),
            _ => false,
        }
    }

    pub fn call_active(&self, c: &Call) -> bool {
        c.out.is_some_and(|o| self.active[o])
            || c.out_array.is_some_and(|(values, _)| self.active[values])
            || c.result_array.is_some_and(|r| self.active[r])
            || c.args
                .iter()
                .any(|a| matches!(a, CallArg::InOut(v) if self.active[*v]))
    }

    /// What the reverse of a statement reads (control statements aside).
    pub fn rev_reads(&self, s: &Stmt) -> Vec<V> {
        if !self.stmt_active(s) {
            return vec![];
        }
        match s {
            Stmt::Set { dst, rhs } => self.rhs_reads(*dst, rhs),
            Stmt::Load { place, .. } | Stmt::Store { place, .. } => {
                let mut v = index_vars(place);
                if self.varying_shape.contains(&place.root) {
                    v.push(place.root);
                }
                v
            }
            Stmt::Alloc {
                init: Init::CopyOf(p, w),
                ..
            } => {
                let mut v = index_vars(p);
                if let Some((o, n)) = w {
                    v.extend(o.var());
                    v.extend(n.var());
                }
                v
            }
            Stmt::Call(c) => {
                let mut v: Vec<V> = c.partials.iter().flatten().copied().collect();
                v.extend(c.out_array.map(|(_, jac)| jac));
                for a in &c.args {
                    if let CallArg::Slice(s) = a {
                        v.extend(s.prefix.iter().filter_map(|p| match p {
                            Proj::Index(Op::Var(x)) => Some(*x),
                            _ => None,
                        }));
                        if let Some((o, n)) = &s.window {
                            v.extend(o.var());
                            v.push(*n);
                        }
                    }
                }
                v
            }
            _ => vec![],
        }
    }

    /// The values a right-hand side's partials read.
    fn rhs_reads(&self, dst: V, rhs: &Rhs) -> Vec<V> {
        let act = |o: &Op| self.op_active(o);
        let mut out: Vec<Option<V>> = Vec::new();
        match rhs {
            Rhs::Copy(_) | Rhs::Neg(_) | Rhs::Add(..) | Rhs::Sub(..) => {}
            Rhs::Mul(a, b) => {
                if act(a) {
                    out.push(b.var());
                }
                if act(b) {
                    out.push(a.var());
                }
            }
            Rhs::Div(a, b) => {
                out.push(b.var());
                if act(b) {
                    out.push(Some(dst));
                }
                let _ = a;
            }
            Rhs::Rem(a, b) => out.extend([a.var(), b.var(), Some(dst)]),
            Rhs::Fun(f, ops) => match f.deriv {
                Deriv::Unary(Needs::X) => out.push(ops[0].var()),
                Deriv::Unary(Needs::V) => out.push(Some(dst)),
                Deriv::Unary(Needs::Both) => out.extend([ops[0].var(), Some(dst)]),
                Deriv::Flat => {}
                Deriv::Binary { with_value } => {
                    out.extend([ops[0].var(), ops[1].var()]);
                    if with_value {
                        out.push(Some(dst));
                    }
                }
                Deriv::Special => match f.name {
                    "midpoint" => {}
                    "rem_euclid" => out.extend([ops[0].var(), ops[1].var(), Some(dst)]),
                    _ => out.extend(ops.iter().map(Op::var)),
                },
            },
        }
        out.into_iter().flatten().collect()
    }
}

/// Mark control statements whose reverse must run: they contain an active statement, a
/// save, or a control statement already marked.
fn mark_rev_work(b: &[Stmt], facts: &mut Facts) -> bool {
    let mut any = false;
    for s in b {
        let inner = children(s)
            .into_iter()
            .fold(false, |acc, blk| mark_rev_work(blk, facts) | acc);
        let own = facts.stmt_active(s) || facts.saves.iter().any(|(k, _)| *k == key(s));
        let control = !children(s).is_empty();
        if control && inner {
            facts.rev_work.insert(key(s));
        }
        any |= inner || own;
    }
    any
}

/// The forward "exposed reads" walk: which variables have been read by the reverse of an
/// earlier statement and not overwritten since; an overwrite of one of them saves it.
struct Tbr<'a> {
    facts: &'a mut Facts,
    f: &'a Func,
}

impl Tbr<'_> {
    fn block(&mut self, b: &[Stmt], state: &mut HashSet<V>) -> Result<(), String> {
        for s in b {
            self.stmt(s, state)?;
        }
        Ok(())
    }

    fn def(&mut self, s: &Stmt, v: V, state: &mut HashSet<V>) {
        if state.contains(&v) && !self.facts.remat.contains(&key(s)) {
            self.facts.saves.insert((key(s), v));
        }
        state.remove(&v);
    }

    fn read(&mut self, vs: impl IntoIterator<Item = V>, state: &mut HashSet<V>) {
        for v in vs {
            self.facts.read_back.insert(v);
            state.insert(v);
        }
    }

    fn stmt(&mut self, s: &Stmt, state: &mut HashSet<V>) -> Result<(), String> {
        let work = self.facts.rev_work.contains(&key(s));
        match s {
            Stmt::If { cond, then, els } => {
                let mut a = state.clone();
                self.block(then, &mut a)?;
                self.read(self.recomputed_reads(then), &mut a);
                let mut b = state.clone();
                self.block(els, &mut b)?;
                self.read(self.recomputed_reads(els), &mut b);
                *state = &a | &b;
                if work {
                    self.read([*cond], state);
                }
            }
            Stmt::For {
                idx,
                count,
                body,
                exit,
            } => {
                if let Some(ex) = exit {
                    self.def(s, ex.trips, state);
                }
                self.looped(body, Some(*idx), state)?;
                if work {
                    let n = exit.map_or(*count, |e| e.trips);
                    self.read([n], state);
                }
            }
            Stmt::Loop { body, exit } => {
                self.def(s, exit.trips, state);
                self.looped(body, None, state)?;
                if work {
                    self.read([exit.trips], state);
                }
            }
            _ => {
                for v in defs(s) {
                    self.def(s, v, state);
                }
                let reads = self.facts.rev_reads(s);
                self.read(reads, state);
            }
        }
        Ok(())
    }

    /// What a block's recomputed statements read (at the start of its reverse, that is at
    /// its end in forward order).
    fn recomputed_reads(&self, b: &[Stmt]) -> Vec<V> {
        b.iter()
            .filter(|s| self.facts.remat.contains(&key(s)))
            .flat_map(uses)
            .collect()
    }

    /// A loop body to its fixed point: the state at its head joins the entry and the end
    /// of every iteration (with what the iteration's recomputations read).
    fn looped(
        &mut self,
        body: &[Stmt],
        idx: Option<V>,
        state: &mut HashSet<V>,
    ) -> Result<(), String> {
        let entry = state.clone();
        let mut head = entry.clone();
        let recomputed = self.recomputed_reads(body);
        for _ in 0..max_passes(self.f) {
            let mut st = head.clone();
            if let Some(k) = idx {
                st.remove(&k);
            }
            self.block(body, &mut st)?;
            self.read(recomputed.iter().copied(), &mut st);
            let next = &entry | &st;
            if next == head {
                *state = head;
                return Ok(());
            }
            head = next;
        }
        Err("a loop's to-be-recorded fixed point did not settle".into())
    }
}

/// Decide the recomputed statements of every loop body.
fn remat(b: &[Stmt], f: &Func, facts: &mut Facts) {
    let mut all_uses = vec![0usize; f.vars.len()];
    each_stmt(&f.body, &mut |s| {
        uses(s).into_iter().for_each(|v| all_uses[v] += 1)
    });
    all_uses[f.ret] += 1;
    if let Some(r) = f.ret_array {
        all_uses[r] += 1;
    }
    // What the reverse reads (control decisions included): only those are worth computing
    // again; what a recomputed statement reads is then needed too.
    let mut needed = vec![false; f.vars.len()];
    each_stmt(&f.body, &mut |s| {
        let control = match s {
            Stmt::If { cond, .. } => vec![*cond],
            Stmt::For { count, exit, .. } => vec![exit.map_or(*count, |e| e.trips)],
            Stmt::Loop { exit, .. } => vec![exit.trips],
            _ => vec![],
        };
        for v in facts.rev_reads(s).into_iter().chain(control) {
            needed[v] = true;
        }
    });
    remat_in(b, f, &all_uses, &mut needed, facts);
}

fn remat_in(b: &[Stmt], f: &Func, all_uses: &[usize], needed: &mut [bool], facts: &mut Facts) {
    for s in b {
        // Inner loops first: what they recompute may need their outer body's values.
        for inner in children(s) {
            remat_in(inner, f, all_uses, needed, facts);
        }
        match s {
            Stmt::For { body, .. } | Stmt::Loop { body, .. } => {
                remat_body(body, f, all_uses, needed, facts)
            }
            // A branch's values are computed again at the start of its reverse too.
            Stmt::If { then, els, .. } => {
                remat_body(then, f, all_uses, needed, facts);
                remat_body(els, f, all_uses, needed, facts);
            }
            _ => {}
        }
    }
}

/// The recomputed statements of one loop body: cheap, defining a variable only used in the
/// body (after its definition), from operands the body does not change afterwards.
fn remat_body(body: &[Stmt], f: &Func, all_uses: &[usize], needed: &mut [bool], facts: &mut Facts) {
    let mut body_uses = vec![0usize; f.vars.len()];
    each_stmt(body, &mut |s| {
        uses(s).into_iter().for_each(|v| body_uses[v] += 1)
    });
    let mut def_count = vec![0usize; f.vars.len()];
    each_stmt(body, &mut |s| {
        for v in defs(s) {
            def_count[v] += 1;
        }
        if let Stmt::Store { place, .. } = s {
            def_count[place.root] += 1;
        }
        if let Stmt::Push { dst, .. } | Stmt::PushRow { dst, .. } = s {
            def_count[*dst] += 1;
        }
    });
    for (p, s) in body.iter().enumerate().rev() {
        let Some(v) = cheap_def(s, f) else { continue };
        if !needed[v] || def_count[v] != 1 || body_uses[v] != all_uses[v] {
            continue;
        }
        let ops = uses(s);
        // A scoped operand (a borrow of a data row made in this body) is fine if the body
        // defines it once by cheap pure data, which is then computed again too (checked
        // after the pass).
        let local_data = |o: &V| {
            def_count[*o] == 1
                && body
                    .iter()
                    .any(|x| matches!(x, Stmt::Data { dst, pure: true, .. } if dst == o))
        };
        if ops.contains(&v) || ops.iter().any(|o| scoped(f, *o) && !local_data(o)) {
            continue;
        }
        let mut written_after = HashSet::new();
        each_stmt(&body[p + 1..], &mut |x| {
            written_after.extend(defs(x));
            if let Stmt::Store { place, .. } = x {
                written_after.insert(place.root);
            }
            if let Stmt::Push { dst, .. } | Stmt::PushRow { dst, .. } = x {
                written_after.insert(*dst);
            }
        });
        if ops.iter().any(|o| written_after.contains(o)) {
            continue;
        }
        let mut used_before = false;
        each_stmt(&body[..p], &mut |x| used_before |= uses(x).contains(&v));
        if used_before {
            continue;
        }
        for u in &ops {
            needed[*u] = true;
        }
        facts.remat.insert(key(s));
    }
    drop_unbacked(body, f, facts);
}

/// Unmark recomputed statements of a body that read a scoped variable the body's
/// recomputed statements do not define (it would not exist in the reverse sweep), until
/// none does.
fn drop_unbacked(body: &[Stmt], f: &Func, facts: &mut Facts) {
    loop {
        let remade: HashSet<V> = body
            .iter()
            .filter(|s| facts.remat.contains(&key(s)))
            .flat_map(defs)
            .collect();
        let bad: Vec<usize> = body
            .iter()
            .filter(|s| facts.remat.contains(&key(s)))
            .filter(|s| uses(s).iter().any(|o| scoped(f, *o) && !remade.contains(o)))
            .map(key)
            .collect();
        if bad.is_empty() {
            return;
        }
        for k in bad {
            facts.remat.remove(&k);
        }
    }
}

/// The variable a cheap statement defines: arithmetic, a read of a parameter, pure data.
fn cheap_def(s: &Stmt, f: &Func) -> Option<V> {
    match s {
        Stmt::Set { dst, rhs } => matches!(
            rhs,
            Rhs::Copy(_) | Rhs::Neg(_) | Rhs::Add(..) | Rhs::Sub(..) | Rhs::Mul(..) | Rhs::Div(..)
        )
        .then_some(*dst),
        // A read of a parameter, or of data the body never writes.
        Stmt::Load { dst, place } => {
            let root = place.root;
            let fixed = f.vars[root].kind == Kind::ParamSeq
                || (f.vars[root].kind == Kind::Data(DataKind::Other) && !scoped(f, root));
            fixed.then_some(*dst)
        }
        Stmt::Data {
            dst, pure: true, ..
        } => Some(*dst),
        _ => None,
    }
}

/// Data of a type the macro cannot see, declared where it is computed: the reverse sweep
/// cannot read it (parameters aside, which are in scope everywhere).
pub fn scoped(f: &Func, v: V) -> bool {
    f.vars[v].kind == Kind::Data(DataKind::Other)
        && !f.params.iter().any(|p| p.var == v)
        && !top_level_once(f, v)
}

/// A variable the body's top level defines once (its `let` is in scope to the end).
fn top_level_once(f: &Func, v: V) -> bool {
    let mut defs_all = 0;
    each_stmt(&f.body, &mut |s| {
        defs_all += defs(s).iter().filter(|d| **d == v).count()
    });
    let top = f
        .body
        .iter()
        .filter(|s| matches!(s, Stmt::Data { dst, .. } if *dst == v))
        .count();
    defs_all == 1 && top == 1
}
