//! Local arrays and vectors written and read: `let mut q = [x0, 0.5 * x1, 0.0];`,
//! `vec![0.0; 4]`, `theta.to_vec()`, copies of array parameters; element updates that
//! read other elements and the values being updated (`q[i] += 0.5 * q[j] * v`), loops
//! over the elements, `q.swap(i, j)`.

use super::ast::{Bound, Ex, Init, Ix, Line, Place, St};
use super::{BKind, Bind, Gen};

impl Gen<'_> {
    /// Declare a local sequence.
    pub fn local_seq(&mut self) -> Option<Vec<Line>> {
        let prefix = self.pick(&["q", "w", "buf", "y"]);
        let name = self.fresh(prefix);
        let seqs = self.find(|b| b.param && matches!(b.kind, BKind::Seq { .. }));
        let arrays = self.arrays.clone();
        let w = [
            3,
            2,
            2,
            2 * !seqs.is_empty() as u32,
            !arrays.is_empty() as u32,
        ];
        let mut typed = true;
        let (init, ann, len, tag) = match self.weighted(&w) {
            0 => {
                let n = self.rng.usize(2..5);
                let es: Vec<Ex> = (0..n)
                    .map(|_| match self.weighted(&[5, 2, 2]) {
                        0 => self.operand(),
                        1 => {
                            let v = self.operand();
                            self.scaled(v)
                        }
                        _ => self.lit(),
                    })
                    .collect();
                let literal = es.iter().all(|e| matches!(e, Ex::Lit(..)));
                let ann = literal.then(|| format!("[f64; {n}]"));
                typed = ann.is_some() || es.iter().any(|e| self.typed_expr(e));
                (Init::ArrLit(es), ann, n, "array-literal")
            }
            1 => {
                let n = self.rng.usize(2..5);
                (
                    Init::ArrRep(n),
                    Some(format!("[f64; {n}]")),
                    n,
                    "array-zeros",
                )
            }
            2 => {
                let n = self.rng.usize(2..6);
                (Init::VecRep(n), Some("Vec<f64>".into()), n, "vec-zeros")
            }
            3 => {
                let s = self.pick(&seqs);
                let BKind::Seq { len } = s.kind else {
                    unreachable!()
                };
                (Init::ToVec(s.name), None, len, "to-vec")
            }
            _ => {
                let a = self.pick(&arrays);
                let len = self
                    .find(|b| b.name == a)
                    .first()
                    .map_or(0, |b| match b.kind {
                        BKind::Seq { len } => len,
                        _ => 0,
                    });
                (Init::Copy(a), None, len, "array-copy")
            }
        };
        let tag = self.tag(tag);
        self.add(Bind {
            mutable: true,
            typed,
            ..Gen::bind(&name, BKind::Seq { len })
        });
        Some(vec![Line {
            st: St::Let {
                name,
                mutable: true,
                ann,
                init,
            },
            tags: vec![tag],
        }])
    }

    fn local_seqs(&self) -> Vec<Bind> {
        self.find(|b| b.mutable && !b.frozen && matches!(b.kind, BKind::Seq { .. }))
    }

    /// `q[i] op= ..` reading other elements and the values being updated.
    pub fn elem_write(&mut self) -> Option<Vec<Line>> {
        let seqs = self.local_seqs();
        if seqs.is_empty() {
            return self.compound().map(|l| vec![l]);
        }
        let s = self.pick(&seqs);
        let i = self.index_for(&s);
        let place = Place::Elem(s.name.clone(), i);
        let must = match self.weighted(&[2, 2, 1]) {
            0 => Some(place.read()),
            1 => {
                let j = self.index_for(&s);
                Some(Ex::Elem(s.name.clone(), j))
            }
            _ => None,
        };
        let (op, rhs) = self.elem_rhs(must);
        let mut tags = vec![self.tag("elem-write")];
        let mut reads = Vec::new();
        rhs.reads(&mut reads);
        if reads.contains(&s.name) {
            tags.push(self.tag("elem-reads-own-seq"));
        }
        Some(vec![Line {
            st: St::Assign(place, op, rhs),
            tags,
        }])
    }

    fn elem_rhs(&mut self, must: Option<Ex>) -> (&'static str, Ex) {
        match self.weighted(&[5, 2, 2, 3, 1]) {
            0 => ("+=", self.term(must)),
            1 => ("-=", self.term(must)),
            2 => ("*=", self.mul_factor()),
            3 => ("=", self.term(must)),
            _ => ("/=", self.denominator()),
        }
    }

    /// `for i in 0..q.len() { q[i] += 0.5 * q[(i + 1) % 3] * v; .. }`, or a recurrence
    /// from `1` on (`q[i] += 0.5 * q[i - 1] * v`).
    pub fn elem_loop(&mut self) -> Option<Vec<Line>> {
        if self.depth >= 2 || self.in_loop {
            return None;
        }
        let seqs = self.local_seqs();
        if seqs.is_empty() {
            return self.loop_block();
        }
        let s = self.pick(&seqs);
        let BKind::Seq { len } = s.kind else {
            unreachable!()
        };
        let i = self.fresh("i");
        let lo = if self.chance(0.3) { 1 } else { 0 };
        let bound = if self.chance(0.5) {
            Bound::Len(s.name.clone())
        } else {
            Bound::Const(len)
        };
        let tag = self.tag(if lo == 1 {
            "elem-recurrence"
        } else {
            "elem-loop"
        });
        let body = self.scoped(|g| {
            g.add(Gen::bind(&i, BKind::Usize { max: len - 1 }));
            g.in_loop = true;
            let read = match (lo, g.weighted(&[2, 2, 1, 1])) {
                (1, _) => Ix::Minus(i.clone(), 1),
                (_, 0) => Ix::Wrap(i.clone(), len),
                (_, 1) => Ix::Name(i.clone()),
                (_, 2) => Ix::Rev(i.clone(), len),
                _ => Ix::Const(g.rng.usize(0..len)),
            };
            let must = Some(Ex::Elem(s.name.clone(), read));
            let (op, rhs) = g.elem_rhs(must);
            let place = Place::Elem(s.name.clone(), Ix::Name(i.clone()));
            let mut body = vec![Line {
                st: St::Assign(place, op, rhs),
                tags: Vec::new(),
            }];
            if g.chance(0.5) {
                body.extend(g.inner(1));
            }
            g.in_loop = false;
            body
        });
        Some(vec![Line {
            st: St::For(i, lo, bound, body),
            tags: vec![tag],
        }])
    }

    /// `q.swap(i, j)`.
    pub fn seq_swap(&mut self) -> Option<Vec<Line>> {
        let seqs = self.local_seqs();
        if seqs.is_empty() || !self.extras {
            return self.swap();
        }
        let s = self.pick(&seqs);
        let BKind::Seq { len } = s.kind else {
            unreachable!()
        };
        let i = self.rng.usize(0..len);
        let j = (i + self.rng.usize(1..len)) % len;
        let tag = self.tag("seq-swap");
        Some(vec![Line {
            st: St::SeqSwap(s.name, i, j),
            tags: vec![tag],
        }])
    }
}
