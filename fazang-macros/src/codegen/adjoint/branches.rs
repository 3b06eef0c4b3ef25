//! Branches the adjoint generator reverses: `match` statements become `if` chains, and
//! a `let` or the tail whose value is an active `if`/`match` assigns its binding in each
//! branch. After this pass the only branch is `if`/`else` on a data condition (whose
//! decision the forward sweep records), so the other passes need to know no more.
//!
//! `match s { p0 if g0 => a, p1 => b, _ => c }` becomes
//! `if match s { p0 if g0 => true, _ => false } { a } else if match s { p1 => true, _ =>
//! false } { b } else { c }`: arm i is tested only when the arms before it failed, as in
//! the `match`, and the last arm needs no test (rustc checked the `match` exhaustive).
//! This needs a scrutinee that is data and pure (evaluated once per test) and patterns
//! that bind nothing; other `match`es stay and take the tape.

use super::check::pure;
use crate::activity::Activity;
use crate::model::*;

/// The body with its `match` statements and active branch values rewritten.
pub fn rewrite(body: &Body, act: &Activity) -> Body {
    let r = R { act };
    Body {
        block: r.block(&body.block),
        bindings: body
            .bindings
            .iter()
            .map(|b| Binding {
                name: b.name.clone(),
            })
            .collect(),
        closures: body
            .closures
            .iter()
            .map(|c| Closure {
                params: c.params.clone(),
            })
            .collect(),
        n_exprs: body.n_exprs,
    }
}

struct R<'a> {
    act: &'a Activity,
}

impl R<'_> {
    fn block(&self, b: &Block) -> Block {
        let stmts = b.stmts.iter().map(|s| self.stmt(s)).collect();
        Block {
            stmts,
            span: b.span,
        }
    }

    fn stmt(&self, s: &Stmt) -> Stmt {
        match s {
            Stmt::Expr(e, semi) => Stmt::Expr(self.expr(e), *semi),
            Stmt::Let(l) => match (&l.init, &l.pat) {
                (Some(init), Pat::Ident { id, sub: None, .. })
                    if l.diverge.is_none() && self.act.of_expr(init.id).active() =>
                {
                    match self.assigned_in_branches(init, *id, &l.pat) {
                        Some(branches) => {
                            // `let y; if c { y = a } else { y = b }`, as one block whose
                            // statements stay in the enclosing scope (the model resolved
                            // names already; the printers hoist every binding).
                            let decl = Stmt::Let(Let {
                                attrs: l.attrs.clone(),
                                pat: l.pat.clone(),
                                ty: l.ty.clone(),
                                init: None,
                                diverge: None,
                                span: l.span,
                            });
                            let at = (init.id, init.span);
                            let block = Block {
                                stmts: vec![decl, Stmt::Expr(branches, true)],
                                span: l.span,
                            };
                            Stmt::Expr(
                                with_kind(at, Kind::Block(BlockKind::Plain, None, block)),
                                true,
                            )
                        }
                        None => Stmt::Let(self.let_inner(l)),
                    }
                }
                _ => Stmt::Let(self.let_inner(l)),
            },
            Stmt::Item(i) => Stmt::Item(i.clone()),
        }
    }

    fn let_inner(&self, l: &Let) -> Let {
        Let {
            attrs: l.attrs.clone(),
            pat: l.pat.clone(),
            ty: l.ty.clone(),
            init: l.init.as_ref().map(|e| self.expr(e)),
            diverge: l.diverge.clone(),
            span: l.span,
        }
    }

    /// Control flow rewritten inside; a `match` statement as an `if` chain.
    fn expr(&self, e: &Expr) -> Expr {
        let at = (e.id, e.span);
        match &e.kind {
            Kind::Match(s, arms) if self.reversible_match(s, arms) => self.chain(s, arms),
            Kind::If(c, t, els) => with_kind(
                at,
                Kind::If(
                    c.clone(),
                    self.block(t),
                    els.as_ref().map(|x| Box::new(self.expr(x))),
                ),
            ),
            Kind::Block(k, l, b) => with_kind(at, Kind::Block(*k, l.clone(), self.block(b))),
            Kind::For(l, p, it, b) => with_kind(
                at,
                Kind::For(l.clone(), p.clone(), it.clone(), self.block(b)),
            ),
            Kind::While(l, c, b) => with_kind(at, Kind::While(l.clone(), c.clone(), self.block(b))),
            Kind::Paren(x) => with_kind(at, Kind::Paren(Box::new(self.expr(x)))),
            _ => e.clone(),
        }
    }

    /// A `match` on a data, pure scrutinee whose patterns bind nothing and whose guards
    /// are data.
    fn reversible_match(&self, s: &Expr, arms: &[Arm]) -> bool {
        let data = |x: &Expr| !self.act.of_expr(x.id).active();
        let pure_s = match &s.peel().kind {
            Kind::Tuple(xs) => xs.iter().all(pure),
            _ => pure(s),
        };
        data(s)
            && pure_s
            && !arms.is_empty()
            && arms.iter().all(|a| {
                binds_nothing(&a.pat) && a.guard.as_ref().is_none_or(|g| data(g) && pure(g))
            })
    }

    /// The `if` chain of a reversible `match` (its arms' bodies rewritten too).
    fn chain(&self, s: &Expr, arms: &[Arm]) -> Expr {
        let (last, rest) = arms.split_last().expect("at least one arm");
        let mut acc = block_expr(self.arm_block(&last.body), last.body.id, last.body.span);
        for a in rest.iter().rev() {
            let at = (a.body.id, a.body.span);
            acc = with_kind(
                at,
                Kind::If(
                    Box::new(test(s, a)),
                    self.arm_block(&a.body),
                    Some(Box::new(acc)),
                ),
            );
        }
        acc
    }

    fn arm_block(&self, body: &Expr) -> Block {
        match &body.kind {
            Kind::Block(BlockKind::Plain, None, b) => self.block(b),
            _ => Block {
                stmts: vec![Stmt::Expr(self.expr(body), false)],
                span: body.span,
            },
        }
    }

    /// An active `if`/`match` value as branches assigning binding `id` (`pat`), or
    /// `None` if some branch's value is not a plain tail.
    fn assigned_in_branches(&self, e: &Expr, id: BindId, pat: &Pat) -> Option<Expr> {
        let at = (e.id, e.span);
        match &e.kind {
            Kind::Paren(x) => self.assigned_in_branches(x, id, pat),
            Kind::If(c, t, Some(els)) => {
                let t = self.assigned_tail(t, id, pat, e)?;
                let els = match &els.kind {
                    Kind::Block(BlockKind::Plain, None, b) => {
                        block_expr(self.assigned_tail(b, id, pat, e)?, els.id, els.span)
                    }
                    _ => self.assigned_in_branches(els, id, pat)?,
                };
                Some(with_kind(at, Kind::If(c.clone(), t, Some(Box::new(els)))))
            }
            Kind::Match(s, arms) if self.reversible_match(s, arms) => {
                let chain = self.chain(s, arms);
                self.assigned_in_branches(&chain, id, pat)
            }
            Kind::Block(BlockKind::Plain, None, b) => {
                Some(block_expr(self.assigned_tail(b, id, pat, e)?, e.id, e.span))
            }
            _ => None,
        }
    }

    /// A branch block whose tail value is assigned to the binding instead.
    fn assigned_tail(&self, b: &Block, id: BindId, pat: &Pat, whole: &Expr) -> Option<Block> {
        let (last, init) = b.stmts.split_last()?;
        let Stmt::Expr(v, false) = last else {
            return None;
        };
        let mut stmts: Vec<Stmt> = init.iter().map(|s| self.stmt(s)).collect();
        let v = self.expr(v);
        match &v.peel().kind {
            Kind::If(..) | Kind::Match(..) | Kind::Block(..) => {
                stmts.push(Stmt::Expr(self.assigned_in_branches(&v, id, pat)?, true));
            }
            Kind::Return(_) | Kind::Break(..) | Kind::Continue(_) | Kind::Loop(..) => {
                return None;
            }
            _ => {
                let Pat::Ident { ident, .. } = pat else {
                    return None;
                };
                // The binding, with the activity of the whole value (the binding's).
                let place = with_kind((whole.id, v.span), Kind::Local(id, ident.clone()));
                let assign = with_kind(
                    (v.id, v.span),
                    Kind::Assign(Box::new(place), Box::new(v.clone())),
                );
                stmts.push(Stmt::Expr(assign, true));
            }
        }
        Some(Block {
            stmts,
            span: b.span,
        })
    }
}

/// `match s { p if g => true, _ => false }`, with the scrutinee's id (data).
fn test(s: &Expr, a: &Arm) -> Expr {
    let at = (s.id, s.span);
    let lit = |v: bool| with_kind(at, Kind::Lit(syn::Lit::Bool(syn::LitBool::new(v, s.span))));
    let arms = vec![
        Arm {
            attrs: Vec::new(),
            pat: a.pat.clone(),
            guard: a.guard.clone(),
            body: lit(true),
        },
        Arm {
            attrs: Vec::new(),
            pat: Pat::Other(syn::parse_quote!(_)),
            guard: None,
            body: lit(false),
        },
    ];
    with_kind(at, Kind::Match(Box::new(s.clone()), arms))
}

fn block_expr(b: Block, id: ExprId, span: proc_macro2::Span) -> Expr {
    with_kind((id, span), Kind::Block(BlockKind::Plain, None, b))
}

fn with_kind(at: (ExprId, proc_macro2::Span), kind: Kind) -> Expr {
    Expr {
        id: at.0,
        span: at.1,
        attrs: Vec::new(),
        kind,
    }
}

/// Whether a pattern binds no variable.
pub fn binds_nothing(p: &Pat) -> bool {
    match p {
        Pat::Ident { .. } => false,
        Pat::Other(_) => true,
        Pat::Tuple(ps) | Pat::Slice(ps) | Pat::Or(ps) | Pat::TupleStruct(_, ps) => {
            ps.iter().all(binds_nothing)
        }
        Pat::Struct(_, fields, _) => fields.iter().all(|(_, p, _)| binds_nothing(p)),
        Pat::Ref(_, p) | Pat::Paren(p) | Pat::Type(p, _) => binds_nothing(p),
    }
}
