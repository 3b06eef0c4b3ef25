//! Statements of the mutation families and the shape of a body: the values being
//! updated, a sequence of compound assignments, temporaries, branches, short loops and
//! swaps drawn with each family's weights, and a result that reads every updated value.

use super::ast::{Bound, Ex, Init, Line, Place, St};
use super::{BKind, Bind, Gen};
use crate::gen::Family;

/// The kinds of statement, for the weight tables.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Compound,
    Temp,
    Branch,
    Loop,
    LetIf,
    Swap,
    State,
    ElemWrite,
    ElemLoop,
    SeqSwap,
    LocalSeq,
    Shadow,
    DataState,
}

use Kind::*;

/// Weights of the statements of each family.
/// (`DataState` comes last in each table: with data states off its weight is 0, and the
/// other statements are drawn exactly as without it.)
fn weights(f: Family) -> &'static [(Kind, u32)] {
    match f {
        Family::Swap => &[
            (Compound, 6),
            (Swap, 5),
            (Temp, 3),
            (Branch, 2),
            (Loop, 2),
            (State, 1),
            (DataState, 2),
        ],
        Family::Arrays => &[
            (ElemWrite, 8),
            (ElemLoop, 3),
            (Compound, 3),
            (Temp, 2),
            (Branch, 2),
            (Loop, 1),
            (SeqSwap, 1),
            (LocalSeq, 1),
            (DataState, 2),
        ],
        _ => &[
            (Compound, 10),
            (Temp, 5),
            (Branch, 3),
            (Loop, 2),
            (LetIf, 1),
            (Swap, 1),
            (State, 1),
            (Shadow, 1),
            (DataState, 2),
        ],
    }
}

impl Gen<'_> {
    /// The whole body but its result.
    pub fn skeleton(&mut self, out: &mut Vec<Line>) {
        if self.fam == Family::Integrate {
            return self.integrate(out);
        }
        let states = if self.fam == Family::Arrays {
            self.rng.usize(1..3)
        } else {
            self.rng.usize(2..5)
        };
        for _ in 0..states {
            self.keep(out, |g| Some(vec![g.let_state()]));
        }
        if self.fam == Family::Arrays {
            for _ in 0..self.rng.usize(1..3) {
                self.keep(out, |g| g.local_seq());
            }
        }
        for _ in 0..self.rng.usize(5..11) {
            self.keep(out, |g| g.stmt());
        }
    }

    /// One statement (or a few that belong together) of the family's mix.
    pub fn stmt(&mut self) -> Option<Vec<Line>> {
        let table = weights(self.fam);
        let on = self.data_states;
        let w: Vec<u32> = table
            .iter()
            .map(|k| {
                if matches!(k.0, DataState) && !on {
                    0
                } else {
                    k.1
                }
            })
            .collect();
        match table[self.weighted(&w)].0 {
            Compound => self.compound().map(|l| vec![l]),
            Temp => self.temp(),
            Branch => self.branch(),
            Loop => self.loop_block(),
            LetIf => self.let_if(),
            Swap => self.swap(),
            State if self.depth == 0 => Some(vec![self.let_state()]),
            ElemWrite => self.elem_write(),
            ElemLoop => self.elem_loop(),
            SeqSwap => self.seq_swap(),
            LocalSeq if self.depth == 0 => self.local_seq(),
            Shadow => self.shadow(),
            DataState => self.data_state(),
            _ => self.compound().map(|l| vec![l]),
        }
    }

    /// `n` statements of a nested block (unchecked: the enclosing statement is).
    pub fn inner(&mut self, n: usize) -> Vec<Line> {
        let mut out = Vec::new();
        for _ in 0..n {
            if let Some(ls) = self.stmt() {
                out.extend(ls);
            }
        }
        out
    }

    /// `let mut v = x0;`, `let mut w = 0.5 * x1;`, `let mut s: f64 = 0.0;` ...
    pub fn let_state(&mut self) -> Line {
        let unshadowed = self.unshadowed();
        if !unshadowed.is_empty() && self.chance(0.15) {
            return self.shadow_param(unshadowed);
        }
        let params = self.inputs();
        let prefix = self.pick(&["v", "w", "s", "u", "acc"]);
        let name = self.fresh(prefix);
        let seqs = self.find(|b| b.param && matches!(b.kind, BKind::Seq { .. }));
        let data = self.find(|b| b.kind == BKind::F64 && b.data && b.param);
        let w = [
            4,
            3,
            2 * !seqs.is_empty() as u32,
            2,
            !data.is_empty() as u32,
            1,
        ];
        let (init, literal) = match self.weighted(&w) {
            0 => (Ex::Name(self.pick(&params).name), false),
            1 => {
                let p = Ex::Name(self.pick(&params).name);
                let e = if self.chance(0.5) {
                    self.scaled(p)
                } else {
                    p.bin('*', Ex::Name(self.pick(&params).name))
                };
                (e, false)
            }
            2 => {
                let s = self.pick(&seqs);
                let i = self.index_for(&s);
                (Ex::Elem(s.name, i), false)
            }
            3 => {
                let l = self.pick(&[("0.0", 0.0), ("1.0", 1.0), ("0.5", 0.5)]);
                (Ex::Lit(l.0, l.1), true)
            }
            4 => (Ex::Name(self.pick(&data).name), false),
            _ => (self.operand(), false),
        };
        let ann = (literal && self.chance(0.6) || !literal && self.chance(0.15))
            .then(|| "f64".to_string());
        let typed = ann.is_some() || self.typed_expr(&init);
        let tag = self.tag(if literal { "state-literal" } else { "state" });
        self.add(Bind {
            mutable: true,
            typed,
            ..Gen::bind(&name, BKind::F64)
        });
        Line {
            st: St::Let {
                name,
                mutable: true,
                ann,
                init: Init::Ex(init),
            },
            tags: vec![tag],
        }
    }

    /// The inputs not shadowed yet.
    fn unshadowed(&self) -> Vec<Bind> {
        let params = self.inputs();
        params
            .into_iter()
            .filter(|p| !p.mutable && self.binds.iter().filter(|b| b.name == p.name).count() == 1)
            .collect()
    }

    /// `let mut x = x;` (or `let mut x = 0.5 * x;`) for one of `unshadowed`: the
    /// parameter's name now holds the updated value.
    fn shadow_param(&mut self, unshadowed: Vec<Bind>) -> Line {
        let p = self.pick(&unshadowed);
        let init = if self.chance(0.7) {
            Ex::Name(p.name.clone())
        } else {
            self.scaled(Ex::Name(p.name.clone()))
        };
        let tag = self.tag("shadow-param");
        self.add(Bind {
            mutable: true,
            ..Gen::bind(&p.name, BKind::F64)
        });
        Line {
            st: St::Let {
                name: p.name,
                mutable: true,
                ann: None,
                init: Init::Ex(init),
            },
            tags: vec![tag],
        }
    }

    /// A compound assignment or reset of an updated value, its right side reading the
    /// others (and itself).
    pub fn compound(&mut self) -> Option<Line> {
        let t = self.choose(|b| b.kind == BKind::F64 && b.mutable && !b.frozen)?;
        let target = Ex::Name(t.name.clone());
        let own = self.chance(0.4).then(|| target.clone());
        let (op, rhs) = match self.weighted(&[5, 3, 3, 2, 3]) {
            0 => ("+=", self.term(own.clone())),
            1 => ("-=", self.term(own.clone())),
            2 => ("*=", self.mul_factor()),
            3 => ("/=", self.denominator()),
            _ => ("=", self.term(own.clone())),
        };
        if matches!(&rhs, Ex::Name(n) if *n == t.name) {
            // `v = v;` or `v -= v;`: not what anyone writes.
            return None;
        }
        let mut tags = vec![self.tag(&format!("assign{op}"))];
        let mut reads = Vec::new();
        rhs.reads(&mut reads);
        if reads.contains(&t.name) {
            tags.push(self.tag("self-read"));
        }
        Some(Line {
            st: St::Assign(Place::Name(t.name), op, rhs),
            tags,
        })
    }

    /// `let t = 0.5 * v * w;` then writes of its operands that read it
    /// (`v += t; w -= 0.1 * t * v;`).
    pub fn temp(&mut self) -> Option<Vec<Line>> {
        let st = self.choose(|b| b.kind == BKind::F64 && b.mutable && !b.frozen)?;
        let name = self.fresh("t");
        let n = self.rng.usize(2..5);
        let e = if self.chance(0.8) {
            self.product(n, Some(Ex::Name(st.name.clone())))
        } else {
            let v = Ex::Name(st.name.clone());
            self.scaled(v)
        };
        let ann = self.chance(0.2).then(|| "f64".to_string());
        let mut reads = Vec::new();
        e.reads(&mut reads);
        let typed = ann.is_some() || self.typed_expr(&e);
        let tag = self.tag(if self.in_loop { "temp-in-loop" } else { "temp" });
        let mut lines = vec![Line {
            st: St::Let {
                name: name.clone(),
                mutable: false,
                ann,
                init: Init::Ex(e),
            },
            tags: vec![tag],
        }];
        self.add(Bind {
            typed,
            ..Gen::bind(&name, BKind::F64)
        });
        let writable = self.find(|b| b.mutable && !b.frozen && b.kind == BKind::F64);
        let states: Vec<String> = reads
            .into_iter()
            .filter(|r| writable.iter().any(|b| &b.name == r))
            .collect();
        for _ in 0..self.rng.usize(1..3) {
            let target = if !states.is_empty() && self.chance(0.8) {
                self.pick(&states)
            } else {
                self.choose(|b| b.kind == BKind::F64 && b.mutable && !b.frozen)?
                    .name
            };
            let must = self.chance(0.7).then(|| Ex::Name(name.clone()));
            let op = self.pick(&["+=", "-=", "+=", "="]);
            let rhs = self.term(must);
            let tag = self.tag("write-after-temp");
            lines.push(Line {
                st: St::Assign(Place::Name(target), op, rhs),
                tags: vec![tag],
            });
        }
        Some(lines)
    }

    /// `let v = 0.5 * v * w;` (or `let mut v = ..;`): an updated value shadowed by a new
    /// binding of the same name; in a block, the outer one is visible again after it. At
    /// top level, the result reads the new one.
    pub fn shadow(&mut self) -> Option<Vec<Line>> {
        let v = self.choose(|b| b.kind == BKind::F64 && b.mutable && !b.frozen && !b.param)?;
        let e = self.term(Some(Ex::Name(v.name.clone())));
        let typed = self.typed_expr(&e);
        let mutable = self.chance(0.3);
        self.add(Bind {
            typed,
            mutable,
            result: self.depth == 0,
            ..Gen::bind(&v.name, BKind::F64)
        });
        let tag = self.tag(if self.depth == 0 {
            "shadow"
        } else {
            "shadow-in-block"
        });
        Some(vec![Line {
            st: St::Let {
                name: v.name,
                mutable,
                ann: None,
                init: Init::Ex(e),
            },
            tags: vec![tag],
        }])
    }

    /// A data local updated in place, a scale for products, `*=` and `/=` (a counter, a
    /// decay rate): `let mut k = 1.0;`, then `k += 1.0;`, `k *= 0.9;`, `k = 0.5 * k + 0.1;`,
    /// `k /= 2.0;` (it stays positive: a divisor).
    pub fn data_state(&mut self) -> Option<Vec<Line>> {
        let ks =
            self.find(|b| b.data && b.mutable && b.kind == BKind::F64 && b.name.starts_with('k'));
        if ks.is_empty() || self.depth == 0 && self.chance(0.25) {
            if self.depth > 0 {
                return None;
            }
            let name = self.fresh("k");
            let (s, v) = self.pick(&[("1.0", 1.0), ("0.5", 0.5), ("2.0", 2.0), ("0.1", 0.1)]);
            let ann = self.chance(0.5).then(|| "f64".to_string());
            self.add(Bind {
                mutable: true,
                data: true,
                frozen: true,
                typed: ann.is_some(),
                ..Gen::bind(&name, BKind::F64)
            });
            let tag = self.tag("data-state");
            let init = Init::Ex(Ex::Lit(s, v));
            let st = St::Let {
                name,
                mutable: true,
                ann,
                init,
            };
            return Some(vec![Line {
                st,
                tags: vec![tag],
            }]);
        }
        let k = self.pick(&ks).name;
        let ke = Ex::name(&k);
        let (op, rhs) = match self.weighted(&[3, 3, 2, 1]) {
            0 => ("+=", self.pick(&[Ex::lit("1.0", 1.0), Ex::lit("0.5", 0.5)])),
            1 => (
                "*=",
                self.pick(&[
                    Ex::lit("0.9", 0.9),
                    Ex::lit("0.5", 0.5),
                    Ex::lit("1.5", 1.5),
                ]),
            ),
            2 => (
                "=",
                Ex::lit("0.5", 0.5)
                    .bin('*', ke)
                    .bin('+', Ex::lit("0.1", 0.1)),
            ),
            _ => ("/=", Ex::lit("2.0", 2.0)),
        };
        let tag = self.tag("data-state-update");
        Some(vec![Line {
            st: St::Assign(Place::Name(k), op, rhs),
            tags: vec![tag],
        }])
    }

    /// `if c { .. } else { .. }` around updates.
    pub fn branch(&mut self) -> Option<Vec<Line>> {
        if self.depth >= 2 {
            return None;
        }
        let c = self.cond();
        let n = self.rng.usize(1..4);
        let then = self.scoped(|g| g.inner(n));
        let els = if self.chance(0.5) {
            let n = self.rng.usize(1..3);
            self.scoped(|g| g.inner(n))
        } else {
            Vec::new()
        };
        let tag = self.tag("if-in-sequence");
        Some(vec![Line {
            st: St::If(c, then, els),
            tags: vec![tag],
        }])
    }

    /// A range's end: a constant, a data count, a sequence's length; and the largest
    /// index the range yields.
    pub fn bound(&mut self) -> (Bound, usize) {
        let counts = self.find(|b| b.param && matches!(b.kind, BKind::Usize { .. }));
        let seqs = self.find(|b| matches!(b.kind, BKind::Seq { .. }));
        match self.weighted(&[3, 2 * !counts.is_empty() as u32, !seqs.is_empty() as u32]) {
            1 => {
                let c = self.pick(&counts);
                let BKind::Usize { max } = c.kind else {
                    unreachable!()
                };
                (Bound::Name(c.name), max.saturating_sub(1))
            }
            2 => {
                let s = self.pick(&seqs);
                let BKind::Seq { len } = s.kind else {
                    unreachable!()
                };
                (Bound::Len(s.name), len - 1)
            }
            _ => {
                let c = self.rng.usize(2..6);
                (Bound::Const(c), c - 1)
            }
        }
    }

    /// `for i in 0..n { .. }` around updates (loop-carried values, `let`s redone each
    /// iteration).
    pub fn loop_block(&mut self) -> Option<Vec<Line>> {
        if self.depth >= 2 {
            return None;
        }
        let (b, max) = self.bound();
        let var = if self.chance(0.3) {
            "_".to_string()
        } else {
            self.fresh("i")
        };
        let n = self.rng.usize(1..5);
        let nested = self.in_loop;
        let body = self.scoped(|g| {
            if var != "_" {
                g.add(Gen::bind(&var, BKind::Usize { max }));
            }
            g.in_loop = true;
            let body = g.inner(n);
            g.in_loop = nested;
            body
        });
        let tag = self.tag(if nested {
            "nested-loop"
        } else {
            "loop-carried"
        });
        Some(vec![Line {
            st: St::For(var, 0, b, body),
            tags: vec![tag],
        }])
    }

    /// `let s = if c { a } else { b };`
    pub fn let_if(&mut self) -> Option<Vec<Line>> {
        let c = self.cond();
        let a = self.term(None);
        let b = self.term(None);
        let name = self.fresh("t");
        let tag = self.tag("let-if");
        self.add(Gen::bind(&name, BKind::F64));
        let e = Ex::If(Box::new(c), Box::new(a), Box::new(b));
        Some(vec![Line {
            st: St::Let {
                name,
                mutable: false,
                ann: Some("f64".into()),
                init: Init::Ex(e),
            },
            tags: vec![tag],
        }])
    }

    /// Swaps of updated values: through a temporary, `std::mem::swap`, `(a, b) = (b, a)`,
    /// a rotation of three.
    pub fn swap(&mut self) -> Option<Vec<Line>> {
        let mut states = self.find(|b| b.kind == BKind::F64 && b.mutable && !b.frozen);
        if states.len() < 2 {
            return None;
        }
        self.rng.shuffle(&mut states);
        let (a, b) = (states[0].name.clone(), states[1].name.clone());
        let line = |st: St, tag: String| Line {
            st,
            tags: vec![tag],
        };
        let assign = |x: &str, y: &str| St::Assign(Place::Name(x.into()), "=", Ex::name(y));
        let x = self.extras as u32;
        let k = self.weighted(&[3, 3 * x, x, (states.len() > 2) as u32]);
        Some(match k {
            1 => vec![line(St::MemSwap(a, b), self.tag("swap-mem"))],
            2 => vec![line(St::TupleSwap(a, b), self.tag("swap-tuple"))],
            _ => {
                let tmp = self.fresh("tmp");
                let tag = self.tag(if k == 0 { "swap-temp" } else { "swap-rotate" });
                let last = if k == 0 { &b } else { &states[2].name };
                let mut out = vec![line(
                    St::Let {
                        name: tmp.clone(),
                        mutable: false,
                        ann: None,
                        init: Init::Ex(Ex::name(&a)),
                    },
                    tag,
                )];
                out.push(line(assign(&a, &b), String::new()));
                if k != 0 {
                    out.push(line(assign(&b, last), String::new()));
                }
                out.push(line(assign(last, &tmp), String::new()));
                out
            }
        })
    }

    /// The result: every updated value and every element of a local sequence, some
    /// scaled, perhaps one product.
    pub fn tail(&mut self) -> Ex {
        let mut terms: Vec<Ex> = Vec::new();
        let reach =
            |b: &Bind| !b.frozen && (b.result || b.mutable && (!b.param || b.kind == BKind::F64));
        for b in self.find(reach) {
            match b.kind {
                BKind::F64 => {
                    let v = Ex::Name(b.name.clone());
                    terms.push(if self.chance(0.3) {
                        self.lit().bin('*', v)
                    } else {
                        v
                    });
                }
                BKind::Seq { len } => {
                    for i in 0..len {
                        terms.push(Ex::Elem(b.name.clone(), super::ast::Ix::Const(i)));
                    }
                }
                _ => {}
            }
        }
        if terms.is_empty() {
            terms.push(self.operand());
        }
        let plain = sum(terms.clone());
        if terms.len() >= 2 && self.chance(0.3) {
            let i = self.rng.usize(0..terms.len());
            let j = (i + 1) % terms.len();
            terms[i] = terms[i].clone().bin('*', terms[j].clone());
            let with_product = sum(terms);
            if self.tame(&with_product) {
                return with_product;
            }
        }
        plain
    }
}

fn sum(terms: Vec<Ex>) -> Ex {
    let mut it = terms.into_iter();
    let first = it.next().expect("at least one term");
    it.fold(first, |acc, t| acc.bin('+', t))
}
