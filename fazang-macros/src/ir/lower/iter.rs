//! Iterator chains as indexed loops. An iterator is symbolic while it is built (a count
//! and a generator giving item `k`); a consumer (`for`, `sum`, `fold`, `collect`, ..)
//! makes the one loop `for k in 0..count`, whose body computes the item and uses it.
//! The adaptors building iterators are in [`super::iter_adapt`].

use super::iter_adapt::iter_method;
use super::seq::Seq;
use super::*;
use crate::model::{Expr as MExpr, Kind as MKind};
use quote::quote;

/// An iterator not consumed yet.
#[derive(Clone, Debug)]
pub struct Iter {
    /// How many items (a data variable).
    pub count: V,
    pub gen: Gen,
}

/// How item `k` is made.
#[derive(Clone, Debug)]
pub enum Gen {
    /// `lo + k * step` (ranges).
    Range {
        lo: Op,
        step: Option<Op>,
    },
    /// Element `k` of a sequence of floats (a float, or a row).
    Seq(Seq),
    /// `&mut` element `k` (`iter_mut`).
    SeqMut(Seq),
    /// Element `k` of a data sequence (`d[k]`), items of the given kind.
    Data(V, Kind),
    /// `windows(size)`: the window starting at `k`.
    Windows(Seq, Op),
    /// `chunks(size)`: the chunk starting at `k * size` (shorter at the end).
    Chunks(Seq, Op),
    /// `windows(size)`, `chunks(size)` of data of a type the macro cannot see: the items
    /// are borrowed slices of it (data).
    DataSlices(V, Op, bool),
    Enumerate(Box<Gen>),
    Zip(Box<Gen>, Box<Gen>),
    /// The closure applied to the inner item.
    Map(Box<Gen>, Box<Fn>),
    /// The inner item at another index: `count - 1 - k` (`rev`), `k + n` (`skip`),
    /// `k * s` (`step_by`).
    Reindex(Box<Gen>, Reindex),
    /// Items for which the closure is true (the loop still visits every `k`).
    Filter(Box<Gen>, Box<Fn>),
    /// One value (`std::iter::once(x)`).
    Once(Box<Val>),
    /// The first iterator's items (there are `count` of them), then the second's.
    Chain(Box<Gen>, Box<Gen>, V),
}

/// A function applied to items: a local closure, or a path (`f64::max`, a function).
#[derive(Clone, Debug)]
pub enum Fn {
    Closure(ClosureId),
    Path(syn::ExprPath),
}

/// An index map.
#[derive(Clone, Debug)]
pub enum Reindex {
    Rev(V),
    Skip(Op),
    StepBy(Op),
}

impl Gen {
    pub(super) fn filtered(&self) -> bool {
        match self {
            Gen::Filter(..) => true,
            Gen::Enumerate(g) | Gen::Map(g, _) | Gen::Reindex(g, _) => g.filtered(),
            Gen::Zip(a, b) | Gen::Chain(a, b, _) => a.filtered() || b.filtered(),
            _ => false,
        }
    }
}

/// Item continuation: what a consumer does with each item.
pub type Cont<'c, 'a> = dyn FnMut(&mut Lower<'a>, Val) -> R<()> + 'c;

impl<'a> Lower<'a> {
    /// A data integer computed by `t`.
    pub(super) fn int(&mut self, t: TokenStream, reads: Vec<V>) -> V {
        self.data("n", Kind::Data(DataKind::Int), t, reads)
    }

    pub(super) fn tok(&self, op: &Op) -> TokenStream {
        super::seq::op_tokens(self, op)
    }

    /// What `e` iterates over, as an iterator.
    pub fn iter_of(&mut self, e: &'a MExpr) -> R<Iter> {
        match &e.peel().kind {
            MKind::Range(..) => {
                let Val::Iter(it) = self.range(e)? else {
                    unreachable!("range gives an iterator")
                };
                Ok(it)
            }
            MKind::Reference { expr, .. } if !self.pure_data(e) => self.iter_of(expr),
            MKind::Call(f, _)
                if matches!(&f.peel().kind, MKind::Path(p)
                if p.path.segments.last().is_some_and(|s| s.ident == "once")) =>
            {
                let v = self.expr_structural(e)?;
                self.iter_of_val(v)
            }
            MKind::MethodCall(m) if iter_method(&m.method.to_string()) => {
                match self.iter_method(e, m)? {
                    Val::Iter(it) => Ok(it),
                    other => self.iter_of_val(other),
                }
            }
            _ if self.pure_data(e) && !matches!(e.peel().kind, MKind::Local(..)) => {
                // Data iterated over next to active values: borrowed, read by index.
                let (t, reads) = self.data_tokens(e)?;
                let d = self.data_with(
                    "d",
                    Kind::Data(DataKind::Other),
                    quote!(&(#t)),
                    reads,
                    false,
                );
                let item = self.kind_of_abs(&self.abs(e).item());
                let di = self.ident(d).clone();
                let count = self.int(quote!(#di.len()), vec![d]);
                Ok(Iter {
                    count,
                    gen: Gen::Data(d, item),
                })
            }
            _ => {
                let item = self.kind_of_abs(&self.abs(e).item());
                let v = self.expr(e)?;
                match v {
                    Val::D(d) => {
                        let di = self.ident(d).clone();
                        let count = self.int(quote!(#di.len()), vec![d]);
                        Ok(Iter {
                            count,
                            gen: Gen::Data(d, item),
                        })
                    }
                    v => self.iter_of_val(v),
                }
            }
        }
    }

    /// A value iterated over.
    pub fn iter_of_val(&mut self, v: Val) -> R<Iter> {
        match v {
            Val::Iter(it) => Ok(it),
            Val::Seq(s) => {
                let count = self.seq_len(&s);
                Ok(Iter {
                    count,
                    gen: Gen::Seq(s),
                })
            }
            Val::D(d) => {
                let di = self.ident(d).clone();
                let count = self.int(quote!(#di.len()), vec![d]);
                Ok(Iter {
                    count,
                    gen: Gen::Data(d, Kind::Data(DataKind::Other)),
                })
            }
            other => no(format!("a loop over {}", other.describe())),
        }
    }

    /// `a..b`, `a..=b`: an iterator of data integers.
    pub fn range(&mut self, e: &'a MExpr) -> R<Val> {
        let MKind::Range(lo, lim, hi) = &e.peel().kind else {
            return no("not a range");
        };
        let Some(lo) = lo else {
            return no("a range without a start");
        };
        let Some(hi) = hi else {
            // `lo..`: as many items as `zip` or `take` lets it have.
            let lo = self.index_op(lo)?;
            let count = self.int(quote!(usize::MAX), vec![]);
            return Ok(Val::Iter(Iter {
                count,
                gen: Gen::Range { lo, step: None },
            }));
        };
        let lo = self.index_op(lo)?;
        let hi_op = self.index_op(hi)?;
        let (lt, ht) = (self.tok(&lo), self.tok(&hi_op));
        let reads: Vec<V> = [lo.var(), hi_op.var()].into_iter().flatten().collect();
        let span = match lim {
            syn::RangeLimits::HalfOpen(_) => quote!(::fazang::__private::span(#lt, #ht)),
            syn::RangeLimits::Closed(_) => quote!(::fazang::__private::span_inclusive(#lt, #ht)),
        };
        let count = self.int(span, reads);
        Ok(Val::Iter(Iter {
            count,
            gen: Gen::Range { lo, step: None },
        }))
    }

    /// A closure or function argument (`map(|x| ..)`, `fold(0.0, f64::max)`, `map(f)`).
    pub fn fn_arg(&mut self, a: &'a MExpr) -> R<Fn> {
        match &a.peel().kind {
            MKind::Closure(c) => {
                self.closures[c.id] = Some(c);
                Ok(Fn::Closure(c.id))
            }
            MKind::Path(p) => Ok(Fn::Path(p.clone())),
            MKind::Local(id, _) => match &self.env[*id] {
                Some(Val::Closure(c)) => Ok(Fn::Closure(*c)),
                _ => no("a function value passed to an iterator adaptor"),
            },
            _ => no("a function value passed to an iterator adaptor"),
        }
    }

    /// Apply a function to argument values.
    pub fn apply(&mut self, f: &Fn, args: Vec<Val>) -> R<Val> {
        match f {
            Fn::Closure(c) => self.apply_closure(*c, args),
            Fn::Path(p) => self.call_path_values(p, args),
        }
    }

    /// A closure's body lowered with its parameters bound to `args`.
    pub fn apply_closure(&mut self, c: ClosureId, args: Vec<Val>) -> R<Val> {
        if self.applying.contains(&c) {
            return no("a recursive closure");
        }
        let Some(ce) = self.closures[c] else {
            return no("a closure the macro cannot see");
        };
        if ce.params.len() != args.len() {
            return no("a closure called with another number of arguments");
        }
        if data::escapes_closure(&ce.body) {
            return no("`return` inside a closure");
        }
        self.applying.push(c);
        let r = (|| {
            for ((p, _), v) in ce.params.iter().zip(args) {
                self.bind_pat(p, v)?;
            }
            self.expr(&ce.body)
        })();
        self.applying.pop();
        r
    }

    /// Run `body` for each item of `it` (one loop).
    pub fn each(&mut self, label: &Option<syn::Label>, it: Iter, body: &mut Cont<'_, 'a>) -> R<()> {
        let k = self.new_var("k", Kind::Data(DataKind::Int));
        let (b, exit, _) = self.with_loop(label, |lw| lw.item(&it.gen, Op::Var(k), body))?;
        self.emit(Stmt::For {
            idx: k,
            count: it.count,
            body: b,
            exit,
        });
        Ok(())
    }

    /// Make item `k` of `g` (with `count` items) and pass it on.
    fn item(&mut self, g: &Gen, k: Op, cont: &mut Cont<'_, 'a>) -> R<()> {
        match g {
            Gen::Range { lo, step } => self.item_range(lo, step, k, cont),
            Gen::Seq(s) => {
                let v = self.seq_elem_bound(s, k);
                cont(self, v)
            }
            Gen::SeqMut(s) => {
                let p = self.seq_place(s, k);
                cont(self, Val::MutPlace(p))
            }
            Gen::Data(d, kind) => self.item_data(d, kind, k, cont),
            Gen::Windows(s, size) => {
                let kt = self.tok(&k);
                let st = self.tok(size);
                let mut reads: Vec<V> = k.var().into_iter().collect();
                reads.extend(size.var());
                let hi = self.int(quote!(#kt + #st), reads);
                let w = self.seq_window_unchecked(s, k, Op::Var(hi));
                cont(self, Val::Seq(w))
            }
            Gen::Chunks(s, size) => self.item_chunks(s, size, k, cont),
            Gen::Once(v) => cont(self, (**v).clone()),
            Gen::Chain(a, b, n) => self.item_chain(a, b, n, k, cont),
            Gen::DataSlices(d, size, windows) => {
                let (di, kt, st) = (self.ident(*d).clone(), self.tok(&k), self.tok(size));
                let mut reads = vec![*d];
                reads.extend(k.var());
                reads.extend(size.var());
                let t = if *windows {
                    quote!(&#di[#kt..#kt + #st])
                } else {
                    quote!(&#di[#kt * #st..::core::cmp::min(#kt * #st + #st, #di.len())])
                };
                let v = self.data("s", Kind::Data(DataKind::Other), t, reads);
                cont(self, Val::D(v))
            }
            Gen::Enumerate(g) => {
                let kv = match &k {
                    Op::Var(v) => *v,
                    Op::Const(t) => {
                        let t = t.0.clone();
                        self.int(t, vec![])
                    }
                };
                self.item(g, k, &mut |lw, x| cont(lw, Val::Tuple(vec![Val::D(kv), x])))
            }
            Gen::Zip(a, b) => {
                let kb = k.clone();
                self.item(a, k, &mut |lw, x| {
                    lw.item(b, kb.clone(), &mut |lw, y| {
                        cont(lw, Val::Tuple(vec![x.clone(), y]))
                    })
                })
            }
            Gen::Map(g, f) => self.item(g, k, &mut |lw, x| {
                let y = lw.apply(f, vec![x])?;
                cont(lw, y)
            }),
            Gen::Filter(g, f) => self.item(g, k, &mut |lw, x| {
                let c = lw.apply(f, vec![x.clone()])?;
                let (ct, reads) = lw.val_tokens(&c)?;
                let cv = lw.data("c", Kind::Data(DataKind::Bool), ct, reads);
                let (then, ()) = lw.in_block(|lw| cont(lw, x))?;
                lw.emit(Stmt::If {
                    cond: cv,
                    then,
                    els: vec![],
                });
                Ok(())
            }),
            Gen::Reindex(g, r) => self.item_reindex(g, r, k, cont),
        }
    }

    /// Item `k` of a range: `lo + k * step`.
    fn item_range(&mut self, lo: &Op, step: &Option<Op>, k: Op, cont: &mut Cont<'_, 'a>) -> R<()> {
        let (lt, kt) = (self.tok(lo), self.tok(&k));
        let mut reads: Vec<V> = lo.var().into_iter().collect();
        reads.extend(k.var());
        let t = match step {
            None => quote!(::fazang::__private::nth(#lt, #kt)),
            Some(s) => {
                let st = self.tok(s);
                reads.extend(s.var());
                quote!(::fazang::__private::nth(#lt, #kt * #st))
            }
        };
        let v = self.int(t, reads);
        cont(self, Val::D(v))
    }

    /// Item `k` of a data sequence: numbers by value, anything else borrowed.
    fn item_data(&mut self, d: &V, kind: &Kind, k: Op, cont: &mut Cont<'_, 'a>) -> R<()> {
        let (di, kt) = (self.ident(*d).clone(), self.tok(&k));
        let mut reads = vec![*d];
        reads.extend(k.var());
        // Numbers by value; anything else borrowed.
        let t = match kind {
            Kind::Data(DataKind::Other) => quote!(&#di[#kt]),
            _ => quote!(#di[#kt]),
        };
        let v = self.data("d", *kind, t, reads);
        cont(
            self,
            match kind {
                Kind::F64 => Val::F(Op::Var(v)),
                _ => Val::D(v),
            },
        )
    }

    /// Chunk `k`: `s[k * size..min(k * size + size, len)]`.
    fn item_chunks(&mut self, s: &Seq, size: &Op, k: Op, cont: &mut Cont<'_, 'a>) -> R<()> {
        let n = self.seq_len(s);
        let (kt, st, ni) = (self.tok(&k), self.tok(size), self.ident(n).clone());
        let mut reads: Vec<V> = k.var().into_iter().collect();
        reads.extend(size.var());
        let lo = self.int(quote!(#kt * #st), reads.clone());
        let li = self.ident(lo).clone();
        let mut r2 = vec![lo, n];
        r2.extend(size.var());
        let hi = self.int(quote!(::core::cmp::min(#li + #st, #ni)), r2);
        let w = self.seq_window_unchecked(s, Op::Var(lo), Op::Var(hi));
        cont(self, Val::Seq(w))
    }

    /// Item `k` of `a.chain(b)` (`a` has `n` items): `a`'s item `k` or `b`'s item `k - n`.
    fn item_chain(&mut self, a: &Gen, b: &Gen, n: &V, k: Op, cont: &mut Cont<'_, 'a>) -> R<()> {
        let (kt, ni) = (self.tok(&k), self.ident(*n).clone());
        let mut reads: Vec<V> = k.var().into_iter().collect();
        reads.push(*n);
        let c = self.data(
            "c",
            Kind::Data(DataKind::Bool),
            quote!(#kt < #ni),
            reads.clone(),
        );
        let (then, ()) = self.in_block(|lw| lw.item(a, k.clone(), cont))?;
        let (els, ()) = self.in_block(|lw| {
            let k2 = lw.int(quote!(#kt - #ni), reads);
            lw.item(b, Op::Var(k2), cont)
        })?;
        self.emit(Stmt::If { cond: c, then, els });
        Ok(())
    }

    /// Item `k` of a reindexed iterator (`rev`, `skip`, `step_by`): the inner item at the
    /// mapped index.
    fn item_reindex(&mut self, g: &Gen, r: &Reindex, k: Op, cont: &mut Cont<'_, 'a>) -> R<()> {
        let kt = self.tok(&k);
        let mut reads: Vec<V> = k.var().into_iter().collect();
        let t = match r {
            Reindex::Rev(n) => {
                let ni = self.ident(*n).clone();
                reads.push(*n);
                quote!(#ni - 1 - #kt)
            }
            Reindex::Skip(n) => {
                let nt = self.tok(n);
                reads.extend(n.var());
                quote!(#kt + #nt)
            }
            Reindex::StepBy(s) => {
                let st = self.tok(s);
                reads.extend(s.var());
                quote!(#kt * #st)
            }
        };
        let k2 = self.int(t, reads);
        self.item(g, Op::Var(k2), cont)
    }

    /// `s[lo..hi]` for bounds the iterator guarantees.
    fn seq_window_unchecked(&mut self, s: &Seq, lo: Op, hi: Op) -> Seq {
        let (lt, ht) = (self.tok(&lo), self.tok(&hi));
        let reads: Vec<V> = [lo.var(), hi.var()].into_iter().flatten().collect();
        let len = self.int(quote!(#ht - #lt), reads);
        let off = match &s.window {
            None => lo,
            Some((o, _)) => {
                let ot = self.tok(o);
                let reads = [o.var(), lo.var()].into_iter().flatten().collect();
                Op::Var(self.int(quote!(#ot + #lt), reads))
            }
        };
        Seq {
            root: s.root,
            prefix: s.prefix.clone(),
            depth: s.depth,
            window: Some((off, len)),
        }
    }
}

impl Lower<'_> {
    /// A value as a sequence of floats: an array, or data the model types as one (read
    /// through places, like a parameter).
    pub fn as_seq(&self, v: Val, e: &MExpr) -> Option<Seq> {
        match v {
            Val::Seq(s) => Some(s),
            Val::D(d) => {
                fn depth(a: &Abs) -> Option<usize> {
                    match a.deref() {
                        Abs::Float(_) => Some(0),
                        Abs::Seq(x) => depth(x).map(|n| n + 1),
                        _ => None,
                    }
                }
                let n = depth(self.abs(e)).filter(|n| *n >= 1)?;
                Some(Seq::whole(d, n))
            }
            _ => None,
        }
    }
}
