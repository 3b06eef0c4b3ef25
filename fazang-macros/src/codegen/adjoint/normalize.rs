//! One exit: the body rewritten so that the value it returns is set in exactly one
//! place per path, at its end. `return e` in an `if` takes the rest of the function into
//! the other branch (`if c { a; return e; } b; f` becomes `if c { a; return e } else {
//! b; f }`), and the tail becomes `return tail`. Afterwards a `return` (other than of an
//! `Err`) ends its path: the forward sweep stores its value and the reverse sweep starts
//! from there. A `return` inside a loop is outside the subset.

use super::Unsupported;
use crate::model::*;

/// The body with one exit per path. `result`: the function returns `Result<f64, E>`, so
/// a returned value is `Ok(v)` (the value `v`), `Err(e)` (left as it is: it leaves
/// `_grad`), or a `Result` expression (`e?`).
pub fn returns(body: &Body, result: bool) -> Result<Body, Unsupported> {
    let stmts = N { result }.tail_stmts(body.block.stmts.clone())?;
    Ok(Body {
        block: Block {
            stmts,
            span: body.block.span,
        },
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
    })
}

/// The normaliser: knows whether the function returns a `Result`.
struct N {
    result: bool,
}

impl N {
    /// What `return v` sets the result to.
    fn returned(&self, v: Expr) -> Expr {
        let at = (v.id, v.span);
        match v.kind {
            Kind::Call(f, mut args) if args.len() == 1 && is_ok(&f) => args.pop().expect("one"),
            Kind::Paren(x) => self.returned(*x),
            kind => {
                let v = with_kind(at, kind);
                if super::check::is_err(&v) || !self.result {
                    v
                } else {
                    with_kind(at, Kind::Try(Box::new(v)))
                }
            }
        }
    }

    /// Statements whose value, if they have one, is the function's result.
    fn tail_stmts(&self, mut stmts: Vec<Stmt>) -> Result<Vec<Stmt>, Unsupported> {
        for i in 0..stmts.len() {
            let returns_inside = match &stmts[i] {
                Stmt::Expr(e, _) => returns_in(e),
                Stmt::Let(l) => l.init.as_ref().is_some_and(returns_in),
                Stmt::Item(_) => false,
            };
            if !returns_inside {
                continue;
            }
            let rest: Vec<Stmt> = stmts.split_off(i + 1);
            let s = stmts.pop().expect("statement i");
            match s {
                Stmt::Expr(e, semi) => {
                    stmts.push(self.split(e, semi, rest)?);
                    return Ok(stmts);
                }
                _ => return Err(Unsupported::new("a `return` inside a `let`")),
            }
        }
        // No early return: the tail (if any) is the result.
        if let Some(Stmt::Expr(e, false)) = stmts.last() {
            let e = e.clone();
            stmts.pop();
            stmts.push(self.tail(e)?);
        }
        Ok(stmts)
    }

    /// A statement containing a `return`, followed by `rest`.
    fn split(&self, e: Expr, semi: bool, rest: Vec<Stmt>) -> Result<Stmt, Unsupported> {
        let at = (e.id, e.span);
        match e.kind {
            Kind::Return(Some(v)) if super::check::is_err(&v) => {
                Ok(Stmt::Expr(with_kind(at, Kind::Return(Some(v))), true))
            }
            Kind::Return(v) => Ok(Stmt::Expr(
                with_kind(at, Kind::Return(v.map(|v| Box::new(self.returned(*v))))),
                semi,
            )),
            Kind::If(c, then, els) => {
                let mut t = then.stmts.clone();
                t.extend(rest.iter().cloned());
                let then = Block {
                    stmts: self.tail_stmts(t)?,
                    span: then.span,
                };
                let mut else_stmts = match els {
                    Some(x) => else_stmts(*x),
                    None => Vec::new(),
                };
                else_stmts.extend(rest);
                let els_block = Block {
                    stmts: self.tail_stmts(else_stmts)?,
                    span: then.span,
                };
                let els = with_kind(at, Kind::Block(BlockKind::Plain, None, els_block));
                Ok(Stmt::Expr(
                    with_kind(at, Kind::If(c, then, Some(Box::new(els)))),
                    true,
                ))
            }
            Kind::Paren(x) => self.split(*x, semi, rest),
            _ => Err(Unsupported::new(
                "a `return` inside a loop, a block or an expression",
            )),
        }
    }
}

/// The statements of an `else` branch (a block, or an `else if`).
fn else_stmts(x: Expr) -> Vec<Stmt> {
    match x.kind {
        Kind::Block(BlockKind::Plain, None, b) => b.stmts,
        _ => vec![Stmt::Expr(x, true)],
    }
}

impl N {
    /// The function's tail expression as `return tail`, pushed into branches.
    fn tail(&self, e: Expr) -> Result<Stmt, Unsupported> {
        let at = (e.id, e.span);
        let whole = e.clone();
        match e.kind {
            Kind::If(c, then, Some(els)) => {
                let then = Block {
                    stmts: self.tail_stmts(then.stmts)?,
                    span: then.span,
                };
                let els_block = Block {
                    stmts: self.tail_stmts(else_stmts(*els))?,
                    span: then.span,
                };
                let els = with_kind(at, Kind::Block(BlockKind::Plain, None, els_block));
                Ok(Stmt::Expr(
                    with_kind(at, Kind::If(c, then, Some(Box::new(els)))),
                    true,
                ))
            }
            Kind::Block(BlockKind::Plain, None, b) => {
                let b = Block {
                    stmts: self.tail_stmts(b.stmts)?,
                    span: b.span,
                };
                Ok(Stmt::Expr(
                    with_kind(at, Kind::Block(BlockKind::Plain, None, b)),
                    true,
                ))
            }
            Kind::Call(f, mut args) if args.len() == 1 && is_ok(&f) => {
                let v = args.pop().expect("one argument");
                Ok(Stmt::Expr(
                    with_kind(at, Kind::Return(Some(Box::new(v)))),
                    true,
                ))
            }
            Kind::Call(..) if super::check::is_err(&whole) => Ok(Stmt::Expr(
                with_kind(at, Kind::Return(Some(Box::new(whole)))),
                true,
            )),
            Kind::Paren(x) => self.tail(*x),
            Kind::Return(v) => Ok(Stmt::Expr(with_kind(at, Kind::Return(v)), true)),
            Kind::Match(..) => Err(Unsupported::new("a `match` producing the result")),
            _ => Ok(Stmt::Expr(
                with_kind(at, Kind::Return(Some(Box::new(self.returned(whole))))),
                true,
            )),
        }
    }
}

fn is_ok(f: &Expr) -> bool {
    matches!(&f.kind, Kind::Path(p) if p.path.is_ident("Ok"))
}

/// An expression with the id and span of `at`.
fn with_kind(at: (ExprId, proc_macro2::Span), kind: Kind) -> Expr {
    Expr {
        id: at.0,
        span: at.1,
        attrs: Vec::new(),
        kind,
    }
}

/// Whether `e` contains a `return` of a value (closures excluded).
fn returns_in(e: &Expr) -> bool {
    fn block(b: &Block) -> bool {
        b.stmts.iter().any(|s| match s {
            Stmt::Expr(e, _) => returns_in(e),
            Stmt::Let(l) => l.init.as_ref().is_some_and(returns_in),
            Stmt::Item(_) => false,
        })
    }
    match &e.kind {
        Kind::Return(Some(v)) => !super::check::is_err(v),
        Kind::Return(None) => true,
        Kind::If(c, t, els) => {
            returns_in(c) || block(t) || els.as_ref().is_some_and(|x| returns_in(x))
        }
        Kind::Block(_, _, b) | Kind::Loop(_, b) => block(b),
        Kind::While(_, c, b) => returns_in(c) || block(b),
        Kind::For(_, _, it, b) => returns_in(it) || block(b),
        Kind::Match(x, arms) => returns_in(x) || arms.iter().any(|a| returns_in(&a.body)),
        Kind::Paren(x) => returns_in(x),
        _ => false,
    }
}
