//! The integrate family: explicit time-stepping with loop-carried state, as simulations
//! are written. A position and a velocity (one or two dimensions, or a chain of
//! particles in local vectors), a step size, and a `for` loop advancing them by explicit
//! or semi-implicit Euler, velocity Verlet or a midpoint step, under forces with
//! stiffness, damping, quadratic drag, forcing and coupling; accumulators, a bounce, and
//! other updates of the mutate family inside the loop.

use super::ast::{Bound, Cond, Ex, Init, Ix, Line, Place, St};
use super::{BKind, Bind, Gen};

fn line(st: St, tags: Vec<String>) -> Line {
    Line { st, tags }
}

fn set(name: &str, op: &'static str, e: Ex) -> St {
    St::Assign(Place::Name(name.into()), op, e)
}

fn let_(name: &str, e: Ex) -> St {
    St::Let {
        name: name.into(),
        mutable: false,
        ann: None,
        init: Init::Ex(e),
    }
}

impl Gen<'_> {
    /// The body of an integrate-family function (but its result).
    pub fn integrate(&mut self, out: &mut Vec<Line>) {
        let two_d = self.chance(0.3);
        let dims = if two_d { 2 } else { 1 };
        let mut pairs = Vec::new();
        for _ in 0..dims {
            let x = self.state_from_param("x");
            let v = self.state_from_param("v");
            pairs.push((x, v));
        }
        for (x, v) in &pairs {
            self.push(out, x.clone());
            self.push(out, v.clone());
        }
        let names: Vec<(String, String)> = pairs
            .iter()
            .map(|(x, v)| (let_name(x), let_name(v)))
            .collect();
        let dt = self.step_size(out);
        if self.chance(0.5) {
            self.keep(out, |g| g.compound().map(|l| vec![l]));
        }
        let acc = self.chance(0.5).then(|| {
            let e = self.fresh("energy");
            let st = St::Let {
                name: e.clone(),
                mutable: true,
                ann: Some("f64".into()),
                init: Init::Ex(Ex::lit("0.0", 0.0)),
            };
            let tag = self.tag("accumulator");
            self.push(out, line(st, vec![tag]));
            self.add(Bind {
                mutable: true,
                ..Gen::bind(&e, BKind::F64)
            });
            e
        });
        let chain = self.chance(0.4)
            && self
                .find(|b| b.param && matches!(b.kind, BKind::Seq { .. }))
                .len()
                == 1;
        if chain {
            let (xs, vs) = self.chain_states(out);
            self.keep(out, |g| g.chain_loop(&xs, &vs, &dt));
        } else {
            self.keep(out, |g| g.time_loop(&names, &dt, acc.as_deref()));
        }
        for _ in 0..self.rng.usize(0..3) {
            self.keep(out, |g| g.stmt());
        }
    }

    /// `let mut x = x0;` (or a scaled parameter, or `0.0`): a new updated value.
    fn state_from_param(&mut self, prefix: &str) -> Line {
        let name = self.fresh(prefix);
        let params = self.inputs();
        let p = Ex::Name(self.pick(&params).name);
        let (init, ann) = match self.weighted(&[4, 2, 1]) {
            0 => (p, None),
            1 => (self.scaled(p), None),
            _ => (Ex::lit("0.0", 0.0), Some("f64".to_string())),
        };
        self.add(Bind {
            mutable: true,
            ..Gen::bind(&name, BKind::F64)
        });
        let tag = self.tag("state");
        line(
            St::Let {
                name,
                mutable: true,
                ann,
                init: Init::Ex(init),
            },
            vec![tag],
        )
    }

    /// `let dt = 0.1;`, `let dt: f64 = 0.05;`, `let dt = 1.0 / (n as f64 + 1.0);`.
    fn step_size(&mut self, out: &mut Vec<Line>) -> String {
        let name = self.fresh("dt");
        let counts = self.find(|b| b.param && matches!(b.kind, BKind::Usize { .. }));
        let (e, ann, typed) = match self.weighted(&[3, 2, 2 * !counts.is_empty() as u32]) {
            0 => (
                self.pick(&[Ex::lit("0.1", 0.1), Ex::lit("0.05", 0.05)]),
                None,
                false,
            ),
            1 => (Ex::lit("0.05", 0.05), Some("f64".to_string()), true),
            _ => {
                let n = Ex::Cast(Ix::Name(self.pick(&counts).name)).bin('+', Ex::lit("1.0", 1.0));
                (Ex::lit("0.5", 0.5).bin('/', n), None, true)
            }
        };
        let tag = self.tag("step-size");
        let st = St::Let {
            name: name.clone(),
            mutable: false,
            ann,
            init: Init::Ex(e),
        };
        self.push(out, line(st, vec![tag]));
        self.add(Bind {
            typed,
            data: true,
            ..Gen::bind(&name, BKind::F64)
        });
        name
    }

    /// The force on position `x` with velocity `v` (and partner `y`), at time `t`.
    fn force(&mut self, x: &str, v: &str, y: Option<&str>, t: Option<&str>) -> Ex {
        let (xe, ve) = (Ex::name(x), Ex::name(v));
        let typed_v = self.typed_expr(&Ex::name(v));
        let k = self.scale();
        let mut f = k.neg().bin('*', xe.clone());
        for _ in 0..self.rng.usize(1..3) {
            let c = self.coef();
            let term = match self.weighted(&[3, 3, 2, 2, 1, 2 * y.is_some() as u32]) {
                0 => c.bin('*', ve.clone()),
                1 if typed_v => c.bin('*', ve.clone()).bin('*', ve.clone().call("abs")),
                1 => c.bin('*', ve.clone()).bin('*', ve.clone()),
                2 => match t {
                    Some(t) => c.bin('*', Ex::name(t).call("sin")).neg(),
                    None => c
                        .bin('*', xe.clone())
                        .bin('*', xe.clone())
                        .bin('*', xe.clone()),
                },
                3 => c
                    .bin('*', xe.clone())
                    .bin('*', xe.clone())
                    .bin('*', xe.clone()),
                4 => c.bin('*', xe.clone().call("sin")),
                _ => c
                    .bin('*', Ex::name(y.unwrap_or(x)).bin('-', xe.clone()))
                    .neg(),
            };
            f = f.bin('-', term);
        }
        self.tag("force");
        f
    }

    /// `for step in 0..n { .. }`: one step of a scheme per iteration for each dimension.
    fn time_loop(
        &mut self,
        names: &[(String, String)],
        dt: &str,
        acc: Option<&str>,
    ) -> Option<Vec<Line>> {
        if self.chance(0.2) {
            return self.while_loop(names, dt, acc);
        }
        let (bound, _) = self.bound();
        let bound = if self.calm >= 3 {
            Bound::Const(2)
        } else {
            bound
        };
        let step = self.fresh("step");
        let mut out = Vec::new();
        // `traj[step] = x;`: the trajectory kept in a local vector the result reads.
        let traj = match bound {
            Bound::Const(n) if self.chance(0.3) => {
                let t = self.fresh("traj");
                let st = St::Let {
                    name: t.clone(),
                    mutable: true,
                    ann: Some("Vec<f64>".into()),
                    init: Init::VecRep(n),
                };
                out.push(line(st, vec![self.tag("trajectory")]));
                self.add(Bind {
                    mutable: true,
                    ..Gen::bind(&t, BKind::Seq { len: n })
                });
                Some(t)
            }
            _ => None,
        };
        let timed = self.chance(0.4);
        let var = if timed || traj.is_some() || self.chance(0.6) {
            step.clone()
        } else {
            "_".to_string()
        };
        let body = self.scoped(|g| {
            g.in_loop = true;
            let mut body = Vec::new();
            let t = timed.then(|| {
                let t = g.fresh("t");
                let e = Ex::Cast(Ix::Name(step.clone())).bin('*', Ex::name(dt));
                body.push(line(let_(&t, e), vec![g.tag("time")]));
                g.add(Gen::bind(&t, BKind::F64));
                t
            });
            body.extend(g.step_body(names, dt, acc, t.as_deref()));
            if let Some(traj) = &traj {
                let place = Place::Elem(traj.clone(), Ix::Name(step.clone()));
                let x = Ex::name(&names[0].0);
                body.push(line(St::Assign(place, "=", x), Vec::new()));
            }
            g.in_loop = false;
            body
        });
        let tag = self.tag("time-loop");
        out.push(line(St::For(var, 0, bound, body), vec![tag]));
        Some(out)
    }

    /// `let mut time = 0.0; while time < 0.3 { ..; time += dt; }`.
    fn while_loop(
        &mut self,
        names: &[(String, String)],
        dt: &str,
        acc: Option<&str>,
    ) -> Option<Vec<Line>> {
        let time = self.fresh("time");
        let end = self.pick(&[
            Ex::lit("0.2", 0.2),
            Ex::lit("0.3", 0.3),
            Ex::lit("0.45", 0.45),
        ]);
        let decl = St::Let {
            name: time.clone(),
            mutable: true,
            ann: None,
            init: Init::Ex(Ex::lit("0.0", 0.0)),
        };
        // A clock: read as data, written only by its own step.
        self.add(Bind {
            mutable: true,
            typed: false,
            data: true,
            frozen: true,
            ..Gen::bind(&time, BKind::F64)
        });
        let mut body = self.scoped(|g| {
            g.in_loop = true;
            let body = g.step_body(names, dt, acc, None);
            g.in_loop = false;
            body
        });
        body.push(line(set(&time, "+=", Ex::name(dt)), Vec::new()));
        let cond = Cond::Cmp(Ex::name(&time), "<", end);
        let tag = self.tag("while-time");
        Some(vec![
            line(decl, vec![tag.clone()]),
            line(St::While(cond, body), vec![tag]),
        ])
    }

    /// One time step: a scheme per dimension, an accumulator, perhaps a bounce and other
    /// updates.
    fn step_body(
        &mut self,
        names: &[(String, String)],
        dt: &str,
        acc: Option<&str>,
        t: Option<&str>,
    ) -> Vec<Line> {
        let mut body = Vec::new();
        for (d, (x, v)) in names.iter().enumerate() {
            let y = (names.len() > 1).then(|| names[1 - d].0.as_str());
            body.extend(self.scheme(x, v, y, t, dt));
        }
        let (x, v) = &names[0];
        if let Some(e) = acc {
            let dte = Ex::name(dt);
            let rhs = match self.weighted(&[2, 1, 1]) {
                0 => self
                    .lit()
                    .bin('*', dte)
                    .bin('*', Ex::name(v))
                    .bin('*', Ex::name(v)),
                1 => dte.bin('*', Ex::name(x)).bin('*', Ex::name(v)),
                _ => self.product(3, Some(Ex::name(x))),
            };
            body.push(line(set(e, "+=", rhs), vec![self.tag("accumulate")]));
        }
        if self.chance(0.3) {
            body.push(self.bounce(x, v));
        }
        if self.chance(0.3) {
            let n = self.rng.usize(1..3);
            body.extend(self.inner(n));
        }
        body
    }

    /// One step of a scheme for position `x` and velocity `v`.
    fn scheme(
        &mut self,
        x: &str,
        v: &str,
        y: Option<&str>,
        t: Option<&str>,
        dt: &str,
    ) -> Vec<Line> {
        let (xe, ve, dte) = (Ex::name(x), Ex::name(v), Ex::name(dt));
        let a = self.fresh("a");
        let f = self.force(x, v, y, t);
        let half = || Ex::lit("0.5", 0.5);
        match self.weighted(&[3, 3, 2, 2]) {
            0 => {
                let tag = self.tag("semi-implicit-euler");
                vec![
                    line(let_(&a, f), vec![tag]),
                    line(set(v, "+=", dte.clone().bin('*', Ex::name(&a))), vec![]),
                    line(set(x, "+=", dte.bin('*', ve)), vec![]),
                ]
            }
            1 => {
                let tag = self.tag("explicit-euler");
                let xn = self.fresh("xn");
                vec![
                    line(let_(&a, f), vec![tag]),
                    line(let_(&xn, xe.bin('+', dte.clone().bin('*', ve))), vec![]),
                    line(set(v, "+=", dte.bin('*', Ex::name(&a))), vec![]),
                    line(set(x, "=", Ex::name(&xn)), vec![]),
                ]
            }
            2 => {
                let tag = self.tag("verlet");
                let a1 = self.fresh("a");
                let f1 = self.force(x, v, y, t);
                let dx = dte.clone().bin('*', ve).bin(
                    '+',
                    half()
                        .bin('*', dte.clone())
                        .bin('*', dte.clone())
                        .bin('*', Ex::name(&a)),
                );
                let dv = half()
                    .bin('*', dte)
                    .bin('*', Ex::name(&a).bin('+', Ex::name(&a1)));
                vec![
                    line(let_(&a, f), vec![tag]),
                    line(set(x, "+=", dx), vec![]),
                    line(let_(&a1, f1), vec![]),
                    line(set(v, "+=", dv), vec![]),
                ]
            }
            _ => {
                let tag = self.tag("midpoint");
                let (xm, vm) = (self.fresh("xm"), self.fresh("vm"));
                let xmid = xe.bin('+', half().bin('*', dte.clone()).bin('*', ve.clone()));
                let vmid = ve.bin('+', half().bin('*', dte.clone()).bin('*', Ex::name(&a)));
                let f_mid = self.force(&xm, &vm, y, t);
                vec![
                    line(let_(&a, f), vec![tag]),
                    line(let_(&xm, xmid), vec![]),
                    line(let_(&vm, vmid), vec![]),
                    line(set(x, "+=", dte.clone().bin('*', Ex::name(&vm))), vec![]),
                    line(set(v, "+=", dte.bin('*', f_mid)), vec![]),
                ]
            }
        }
    }

    /// `if x < -1.0 { v = -0.9 * v; }`: a bounce off a wall.
    fn bounce(&mut self, x: &str, v: &str) -> Line {
        let (op, wall) = if self.chance(0.5) {
            ("<", Ex::lit("1.0", 1.0).neg())
        } else {
            (">", Ex::lit("1.0", 1.0))
        };
        let c = self.pick(&[Ex::lit("0.9", 0.9), Ex::lit("0.5", 0.5)]).neg();
        let tag = self.tag("bounce");
        let body = vec![line(set(v, "=", c.bin('*', Ex::name(v))), vec![])];
        line(
            St::If(Cond::Cmp(Ex::name(x), op, wall), body, Vec::new()),
            vec![tag],
        )
    }

    /// `let mut xs = theta.to_vec(); let mut vs = vec![0.0; n];`: a chain of particles.
    fn chain_states(&mut self, out: &mut Vec<Line>) -> (Bind, Bind) {
        let s = self.find(|b| b.param && matches!(b.kind, BKind::Seq { .. }))[0].clone();
        let BKind::Seq { len } = s.kind else {
            unreachable!()
        };
        let (xs, vs) = (self.fresh("xs"), self.fresh("vs"));
        let tag = self.tag("particle-chain");
        let seq = |name: &str, init: Init, ann: Option<String>| St::Let {
            name: name.into(),
            mutable: true,
            ann,
            init,
        };
        self.push(
            out,
            line(seq(&xs, Init::ToVec(s.name.clone()), None), vec![tag]),
        );
        let zeros = seq(&vs, Init::VecRep(len), Some("Vec<f64>".into()));
        self.push(out, line(zeros, vec![]));
        let mk = |n: &str| Bind {
            mutable: true,
            ..Gen::bind(n, BKind::Seq { len })
        };
        let (bx, bv) = (mk(&xs), mk(&vs));
        self.add(bx.clone());
        self.add(bv.clone());
        (bx, bv)
    }

    /// Time steps over a chain: each particle pulled by its neighbour.
    fn chain_loop(&mut self, xs: &Bind, vs: &Bind, dt: &str) -> Option<Vec<Line>> {
        let BKind::Seq { len } = xs.kind else {
            unreachable!()
        };
        let (bound, _) = self.bound();
        let bound = if self.calm >= 3 {
            Bound::Const(2)
        } else {
            bound
        };
        let i = self.fresh("i");
        let a = self.fresh("a");
        let at = |s: &Bind, ix: Ix| Ex::Elem(s.name.clone(), ix);
        let (xi, vi) = (at(xs, Ix::Name(i.clone())), at(vs, Ix::Name(i.clone())));
        let next = at(xs, Ix::Wrap(i.clone(), len));
        let k = self.scale();
        let c = self.coef();
        let mut f = k
            .neg()
            .bin('*', xi.clone())
            .bin('+', c.bin('*', next.bin('-', xi.clone())));
        if self.chance(0.5) {
            let d = self.coef();
            f = f.bin('-', d.bin('*', vi.clone()));
        }
        let dte = Ex::name(dt);
        let place = |s: &Bind| Place::Elem(s.name.clone(), Ix::Name(i.clone()));
        let inner = vec![
            line(let_(&a, f), vec![self.tag("temp-in-loop")]),
            line(
                St::Assign(place(vs), "+=", dte.clone().bin('*', Ex::name(&a))),
                vec![],
            ),
            line(St::Assign(place(xs), "+=", dte.bin('*', vi)), vec![]),
        ];
        let tag = self.tag("nested-loop");
        let body = vec![line(
            St::For(i, 0, Bound::Len(xs.name.clone()), inner),
            vec![tag],
        )];
        let tag = self.tag("time-loop");
        Some(vec![line(St::For("_".into(), 0, bound, body), vec![tag])])
    }
}

fn let_name(l: &Line) -> String {
    match &l.st {
        St::Let { name, .. } => name.clone(),
        _ => unreachable!("a state is declared by a let"),
    }
}
