//! Sequences of floats: a root variable (a parameter slice, array, vector, struct, or a
//! local array), a path into it (a row `w[i]`, a field `s.w`), and optionally a window
//! (`&x[a..b]`, the items of `windows` and `chunks`). Elements are read and written
//! through places; a view never exists at run time except where data code needs a
//! slice (`&root[a..a + n]`).

use super::*;
use quote::quote;

/// A sequence of floats.
#[derive(Clone, Debug)]
pub struct Seq {
    pub root: V,
    /// The path from the root to the sequence.
    pub prefix: Vec<Proj>,
    /// Levels of indexing from an element of the sequence down to a float (0: the
    /// elements are floats).
    pub depth: usize,
    /// `(offset, length)`: the part of it this sequence is.
    pub window: Option<(Op, V)>,
}

impl Seq {
    /// The whole of a root variable of `depth` levels (1: a flat slice; 0: a struct).
    pub fn whole(root: V, depth: usize) -> Seq {
        Seq {
            root,
            prefix: Vec::new(),
            depth: depth.saturating_sub(1),
            window: None,
        }
    }
}

/// An index operand that is an integer literal (`3`, `3usize`).
fn const_index(op: &Op) -> Option<usize> {
    match op {
        Op::Const(t) => {
            let s = t.0.to_string();
            s.trim_end_matches("usize").trim().parse().ok()
        }
        Op::Var(_) => None,
    }
}

/// Print an index operand.
pub fn op_tokens(lw: &Lower, op: &Op) -> TokenStream {
    match op {
        Op::Var(v) => {
            let i = lw.ident(*v);
            quote!(#i)
        }
        Op::Const(t) => t.0.clone(),
    }
}

impl Lower<'_> {
    /// `root[p0][p1]..` as tokens, and the variables it reads.
    pub fn path_tokens(&self, root: V, path: &[Proj]) -> (TokenStream, Vec<V>) {
        let r = self.ident(root);
        let mut t = quote!(#r);
        let mut reads = vec![root];
        for p in path {
            match p {
                Proj::Index(i) => {
                    let it = op_tokens(self, i);
                    if let Op::Var(v) = i {
                        reads.push(*v);
                    }
                    t = quote!(#t[#it]);
                }
                Proj::Field(m) => t = quote!(#t.#m),
            }
        }
        (t, reads)
    }

    /// The sequence as a slice expression for data code (`x`, `w[i]`, `&x[o..o + n]`).
    pub fn seq_tokens(&self, s: &Seq) -> (TokenStream, Vec<V>) {
        let (t, mut reads) = self.path_tokens(s.root, &s.prefix);
        match &s.window {
            None => (t, reads),
            Some((off, len)) => {
                let o = op_tokens(self, off);
                if let Op::Var(v) = off {
                    reads.push(*v);
                }
                reads.push(*len);
                let n = self.ident(*len);
                (quote!((&#t[#o..#o + #n])), reads)
            }
        }
    }

    /// The length of a sequence (a data variable).
    pub fn seq_len(&mut self, s: &Seq) -> V {
        if let Some((_, len)) = &s.window {
            return *len;
        }
        let (t, reads) = self.path_tokens(s.root, &s.prefix);
        self.data("n", Kind::Data(DataKind::Int), quote!(#t.len()), reads)
    }

    /// The index into the underlying storage of element `k`.
    fn seq_index(&mut self, s: &Seq, k: Op) -> Op {
        match &s.window {
            None => k,
            Some((off, _)) => {
                let (o, kk) = (op_tokens(self, off), op_tokens(self, &k));
                let reads = [off.var(), k.var()].into_iter().flatten().collect();
                Op::Var(self.data("i", Kind::Data(DataKind::Int), quote!(#o + #kk), reads))
            }
        }
    }

    /// The place of element `k`.
    pub fn seq_place(&mut self, s: &Seq, k: Op) -> Place {
        let i = self.seq_index(s, k);
        let mut path = s.prefix.clone();
        path.push(Proj::Index(i));
        Place { root: s.root, path }
    }

    /// Element `k` where the body's use may not say what it is: refused in a parameter
    /// of a type the macro cannot see (an alias `type Grid = [[f64; 2]; 2];`, a
    /// `#[deriv_rule]` struct's field), where it may be a row although the place has no
    /// depth left. `known_float`: the body uses it as a number (`g[0] * x`).
    pub fn seq_elem_checked(&mut self, s: &Seq, k: Op, known_float: bool) -> R<Val> {
        if s.depth == 0 && !known_float && self.is_struct_root(s.root) {
            return no(UNCERTAIN_ELEMENT);
        }
        Ok(self.seq_elem(s, k))
    }

    /// Element `k` bound to a pattern (`for v in w`, `let [a, b] = s`, a closure's
    /// parameter): in a parameter of a type the macro cannot see, a number only if the
    /// binding is used as one ([`Lower::bind`] checks).
    pub fn seq_elem_bound(&mut self, s: &Seq, k: Op) -> Val {
        let v = self.seq_elem(s, k);
        if let (Val::F(Op::Var(t)), 0, true) = (&v, s.depth, self.is_struct_root(s.root)) {
            self.uncertain.insert(*t);
        }
        v
    }

    /// Element `k`: a float (loaded) or a row.
    pub fn seq_elem(&mut self, s: &Seq, k: Op) -> Val {
        let place = self.seq_place(s, k);
        if s.depth == 0 {
            let t = self.new_var("x", Kind::F64);
            self.emit(Stmt::Load { dst: t, place });
            Val::F(Op::Var(t))
        } else {
            Val::Seq(Seq {
                root: place.root,
                prefix: place.path,
                depth: s.depth - 1,
                window: None,
            })
        }
    }

    /// `&s[lo..hi]` (`hi` exclusive; `None`: the end).
    pub fn seq_window(&mut self, s: &Seq, lo: Option<Op>, hi: Option<Op>) -> Seq {
        let lo = lo.unwrap_or(Op::Const(toks(quote!(0usize))));
        let (lo_t, hi_reads) = (op_tokens(self, &lo), lo.var());
        let hi = match hi {
            Some(h) => h,
            None => Op::Var(self.seq_len(s)),
        };
        let hi_t = op_tokens(self, &hi);
        let reads: Vec<V> = [hi_reads, hi.var()].into_iter().flatten().collect();
        // Out of bounds or reversed: the same panic as the primal's slicing.
        let n0 = self.seq_len(s);
        let n0t = self.ident(n0).clone();
        let mut check_reads = reads.clone();
        check_reads.push(n0);
        self.emit(Stmt::Effect {
            tokens: toks(crate::util::located_at(
                quote!(::fazang::__private::check_range(#lo_t, #hi_t, #n0t);),
                self.span,
            )),
            reads: check_reads,
        });
        let len = self.data("n", Kind::Data(DataKind::Int), quote!(#hi_t - #lo_t), reads);
        if let (Some(a), Some(b)) = (const_index(&lo), const_index(&hi)) {
            if b >= a {
                self.const_len.insert(len, b - a);
            }
        }
        let off = match &s.window {
            None => lo,
            Some((o, _)) => {
                let ot = op_tokens(self, o);
                let reads = [o.var(), lo.var()].into_iter().flatten().collect();
                Op::Var(self.data("o", Kind::Data(DataKind::Int), quote!(#ot + #lo_t), reads))
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

/// Why an element of an alias or struct field of unknown depth is refused.
pub const UNCERTAIN_ELEMENT: &str = "an element of a parameter of a type the macro cannot see \
     (an alias, a struct's field) not used as a number";
