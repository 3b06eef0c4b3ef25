//! Iterator adaptors: the methods that make or adapt a symbolic iterator (`iter`,
//! `iter_mut`, `windows`, `chunks`, `chain`, `enumerate`, `zip`, `map`, `filter`, `rev`,
//! `skip`, `take`, `step_by`), each a new count and generator.

use super::iter::{Gen, Iter, Reindex};
use super::*;
use crate::model::{Expr as MExpr, MethodCall};
use quote::quote;

impl<'a> Lower<'a> {
    /// A method making or adapting an iterator.
    pub fn iter_method(&mut self, e: &'a MExpr, m: &'a MethodCall) -> R<Val> {
        let name = m.method.to_string();
        let args = &m.args;
        match (name.as_str(), args.len()) {
            ("iter" | "into_iter" | "copied" | "cloned" | "by_ref", 0) => {
                let r = self.iter_recv(&m.receiver)?;
                Ok(Val::Iter(r))
            }
            ("iter_mut", 0) => match self.expr(&m.receiver)? {
                Val::Seq(s) => {
                    let count = self.seq_len(&s);
                    Ok(Val::Iter(Iter {
                        count,
                        gen: Gen::SeqMut(s),
                    }))
                }
                other => no(format!("`iter_mut` on {}", other.describe())),
            },
            ("windows" | "chunks" | "chunks_exact", 1) => self.windows_chunks(e, m, &name),
            ("chain", 1) => self.chain(m),
            ("enumerate", 0) => {
                let it = self.iter_recv(&m.receiver)?;
                self.no_filter(&it, "enumerate")?;
                Ok(Val::Iter(Iter {
                    count: it.count,
                    gen: Gen::Enumerate(Box::new(it.gen)),
                }))
            }
            ("zip", 1) => {
                let a = self.iter_recv(&m.receiver)?;
                let b = self.iter_of(&args[0])?;
                self.no_filter(&a, "zip")?;
                self.no_filter(&b, "zip")?;
                let (x, y) = (self.ident(a.count).clone(), self.ident(b.count).clone());
                let count = self.int(quote!(::core::cmp::min(#x, #y)), vec![a.count, b.count]);
                Ok(Val::Iter(Iter {
                    count,
                    gen: Gen::Zip(Box::new(a.gen), Box::new(b.gen)),
                }))
            }
            ("map", 1) => {
                let it = self.iter_recv(&m.receiver)?;
                let f = self.fn_arg(&args[0])?;
                Ok(Val::Iter(Iter {
                    count: it.count,
                    gen: Gen::Map(Box::new(it.gen), Box::new(f)),
                }))
            }
            ("filter", 1) => {
                let it = self.iter_recv(&m.receiver)?;
                let f = self.fn_arg(&args[0])?;
                Ok(Val::Iter(Iter {
                    count: it.count,
                    gen: Gen::Filter(Box::new(it.gen), Box::new(f)),
                }))
            }
            ("rev", 0) => {
                let it = self.iter_recv(&m.receiver)?;
                self.no_filter(&it, "rev")?;
                Ok(Val::Iter(Iter {
                    count: it.count,
                    gen: Gen::Reindex(Box::new(it.gen), Reindex::Rev(it.count)),
                }))
            }
            ("skip" | "take" | "step_by", 1) => self.skip_take_step(m, &name),
            _ => {
                let _ = e;
                no(format!("the iterator method `{name}`"))
            }
        }
    }

    /// `windows(n)`, `chunks(n)`, `chunks_exact(n)`: sub-slices of a sequence of floats,
    /// or borrowed slices of data of a type the macro cannot see.
    fn windows_chunks(&mut self, e: &'a MExpr, m: &'a MethodCall, name: &str) -> R<Val> {
        let args = &m.args;
        let recv = self.expr(&m.receiver)?;
        let Some(s) = self.as_seq(recv.clone(), &m.receiver) else {
            let Val::D(d) = recv else {
                return self.data_method(e, m);
            };
            let size = self.index_op(&args[0])?;
            let (di, st) = (self.ident(d).clone(), self.tok(&size));
            let mut reads = vec![d];
            reads.extend(size.var());
            let count = match name {
                "windows" => quote!(::fazang::__private::windows_count(#di.len(), #st)),
                "chunks" => quote!(::fazang::__private::chunks_count(#di.len(), #st)),
                _ => quote!(::fazang::__private::chunks_exact_count(#di.len(), #st)),
            };
            let count = self.int(count, reads);
            let windows = name == "windows";
            return Ok(Val::Iter(Iter {
                count,
                gen: Gen::DataSlices(d, size, windows),
            }));
        };
        let size = self.index_op(&args[0])?;
        let n = self.seq_len(&s);
        let (ni, st) = (self.ident(n).clone(), self.tok(&size));
        let mut reads = vec![n];
        reads.extend(size.var());
        let (count, gen) = match name {
            "windows" => (
                quote!(::fazang::__private::windows_count(#ni, #st)),
                Gen::Windows(s, size),
            ),
            "chunks" => (
                quote!(::fazang::__private::chunks_count(#ni, #st)),
                Gen::Chunks(s, size),
            ),
            _ => (
                quote!(::fazang::__private::chunks_exact_count(#ni, #st)),
                Gen::Chunks(s, size),
            ),
        };
        let count = self.int(count, reads);
        Ok(Val::Iter(Iter { count, gen }))
    }

    /// `a.chain(b)`: `a`'s items, then `b`'s.
    fn chain(&mut self, m: &'a MethodCall) -> R<Val> {
        let args = &m.args;
        let a = self.iter_recv(&m.receiver)?;
        let b = self.iter_of(&args[0])?;
        self.no_filter(&a, "chain")?;
        self.no_filter(&b, "chain")?;
        let (x, y) = (self.ident(a.count).clone(), self.ident(b.count).clone());
        let count = self.int(quote!(#x.saturating_add(#y)), vec![a.count, b.count]);
        Ok(Val::Iter(Iter {
            count,
            gen: Gen::Chain(Box::new(a.gen), Box::new(b.gen), a.count),
        }))
    }

    /// `skip(n)`, `take(n)`, `step_by(n)`: a new count, the items reindexed.
    fn skip_take_step(&mut self, m: &'a MethodCall, name: &str) -> R<Val> {
        let args = &m.args;
        let it = self.iter_recv(&m.receiver)?;
        self.no_filter(&it, name)?;
        let n = self.index_op(&args[0])?;
        let (c, nt) = (self.ident(it.count).clone(), self.tok(&n));
        let mut reads = vec![it.count];
        reads.extend(n.var());
        let (count, gen) = match name {
            "skip" => (
                quote!(#c.saturating_sub(#nt)),
                Gen::Reindex(Box::new(it.gen), Reindex::Skip(n)),
            ),
            "take" => (quote!(::core::cmp::min(#c, #nt)), it.gen),
            _ => (
                quote!(::fazang::__private::step_count(#c, #nt)),
                Gen::Reindex(Box::new(it.gen), Reindex::StepBy(n)),
            ),
        };
        let count = self.int(count, reads);
        Ok(Val::Iter(Iter { count, gen }))
    }

    fn no_filter(&self, it: &Iter, what: &str) -> R<()> {
        if it.gen.filtered() {
            return no(format!("`{what}` after `filter`"));
        }
        Ok(())
    }

    /// The receiver of an iterator adaptor, as an iterator.
    fn iter_recv(&mut self, r: &'a MExpr) -> R<Iter> {
        self.iter_of(r)
    }
}

/// Methods that make or adapt iterators.
pub fn iter_method(name: &str) -> bool {
    matches!(
        name,
        "iter"
            | "into_iter"
            | "iter_mut"
            | "copied"
            | "cloned"
            | "by_ref"
            | "windows"
            | "chunks"
            | "chunks_exact"
            | "enumerate"
            | "zip"
            | "map"
            | "filter"
            | "rev"
            | "skip"
            | "take"
            | "step_by"
            | "chain"
    )
}
