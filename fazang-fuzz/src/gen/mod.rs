//! A seeded generator of function bodies that are type-correct plain Rust by construction.
//!
//! [`generate`] writes one function `f` (and the helpers it calls) from a seed: random
//! parameters (active `f64`, `&[f64]`, `[f64; N]`, `Vec<f64>`; data `f64`, slices, `usize`,
//! `&[usize]`, `bool`), a block of statements weighted toward what numeric programs do, and
//! a tail. Bindings carry types, intervals and activity ([`scope`]), so every index is in
//! bounds, every loop terminates, every function is applied within its domain and every
//! value stays within [`interval::LIMIT`]. Each construct used is recorded as a tag, per
//! body and per line, so that failures can be grouped by what the code does.

mod cond;
mod ctx;
mod expr;
pub mod interval;
mod iter;
mod methods;
mod mutate;
mod rows;
mod scope;
mod seq;
mod stmt;

use ctx::{Ctx, HParam, Helper, HELPER_ARG};
use expr::E;
use interval::Iv;
use scope::{Ty, Var};
use std::collections::BTreeSet;

/// Switches for constructs the runtime or macro may not support yet.
#[derive(Clone, Copy, Debug, Default)]
pub struct GenConfig {
    /// Use `% rem_euclid div_euclid to_degrees to_radians copysign` and `clamp` with
    /// active bounds on active values.
    pub new_methods: bool,
    /// The family of bodies to generate.
    pub family: Family,
    /// Mutation families: also data locals updated in place and used as factors
    /// (`let mut k = 1.0; .. y *= k; k += 1.0;`), whose adjoint code is wrong today
    /// (docs/fuzzing.md).
    pub data_states: bool,
}

/// A family of generated bodies: the classic mix of the body language, or one of the
/// mutation-heavy families ([`mutate`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Family {
    /// Everything the body language allows, weighted toward what numeric programs do.
    #[default]
    Classic,
    /// `let mut` values updated by compound assignments that read each other.
    Mutate,
    /// Time-stepping loops with loop-carried state.
    Integrate,
    /// Updates interleaved with swaps.
    Swap,
    /// Local arrays and vectors written and read.
    Arrays,
}

impl Family {
    pub const ALL: [Family; 5] = [
        Family::Classic,
        Family::Mutate,
        Family::Integrate,
        Family::Swap,
        Family::Arrays,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Family::Classic => "classic",
            Family::Mutate => "mutate",
            Family::Integrate => "integrate",
            Family::Swap => "swap",
            Family::Arrays => "arrays",
        }
    }

    /// The family called `s`.
    pub fn parse(s: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.name() == s)
    }
}

/// A parameter of the generated function and how the checker builds its argument.
#[derive(Clone, Debug, PartialEq)]
pub enum PKind {
    F64,
    Slice(usize),
    Arr(usize),
    Vec(usize),
    Usize(usize),
    /// Length and bound of the elements.
    SliceUsize(usize, usize),
    Bool,
}

#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    pub kind: PKind,
    pub active: bool,
    /// Written with a type alias of the module (`type Arr3 = [f64; 3];`, `type Vals =
    /// Vec<f64>;`), which the macro cannot see through.
    pub alias: bool,
}

impl Param {
    /// The Rust type as written in the signature.
    pub fn ty(&self) -> String {
        match self.kind {
            PKind::Arr(n) if self.alias => format!("Arr{n}"),
            PKind::Vec(_) if self.alias => "Vals".into(),
            PKind::F64 => "f64".into(),
            PKind::Slice(_) => "&[f64]".into(),
            PKind::Arr(n) => format!("[f64; {n}]"),
            PKind::Vec(_) => "Vec<f64>".into(),
            PKind::Usize(_) => "usize".into(),
            PKind::SliceUsize(..) => "&[usize]".into(),
            PKind::Bool => "bool".into(),
        }
    }

    /// The alias declaration its type needs, if any.
    pub fn alias_decl(&self) -> Option<String> {
        match self.kind {
            PKind::Arr(n) if self.alias => Some(format!("type Arr{n} = [f64; {n}];")),
            PKind::Vec(_) if self.alias => Some("type Vals = Vec<f64>;".into()),
            _ => None,
        }
    }

    /// How many flattened inputs it contributes when active.
    pub fn flat_len(&self) -> usize {
        match self.kind {
            PKind::F64 => 1,
            PKind::Slice(n) | PKind::Arr(n) | PKind::Vec(n) => n,
            _ => 0,
        }
    }

    fn var(&self) -> Var {
        let v = match self.kind {
            PKind::F64 => Var::new(&self.name, Ty::F64, Iv::sym(1.5)),
            PKind::Slice(n) | PKind::Arr(n) | PKind::Vec(n) => {
                let ty = match self.kind {
                    PKind::Slice(_) => Ty::Slice,
                    PKind::Arr(_) => Ty::Arr,
                    _ => Ty::Vec,
                };
                let sym = format!("{}.len()", self.name);
                Var::new(&self.name, ty, Iv::sym(1.5)).seq((n, n), Some(sym))
            }
            PKind::Usize(b) => Var::new(&self.name, Ty::Usize, Iv::new(0.0, b as f64 - 1.0)),
            PKind::SliceUsize(n, b) => {
                Var::new(&self.name, Ty::SliceUsize, Iv::new(0.0, b as f64 - 1.0)).seq((n, n), None)
            }
            PKind::Bool => Var::new(&self.name, Ty::Bool, Iv::point(0.0)),
        };
        v.active(self.active)
    }
}

/// A function's text and the construct tags of each of its lines.
#[derive(Clone, Debug)]
pub struct Func {
    pub text: String,
    pub line_tags: Vec<Vec<String>>,
    /// Gets `#[differentiate]` (or `#[differentiate(wrt(..))]`) in the annotated copy.
    pub attribute: Option<String>,
}

/// One generated body: `f` and its helpers.
#[derive(Clone, Debug)]
pub struct Body {
    pub helpers: Vec<Func>,
    pub func: Func,
    pub params: Vec<Param>,
    pub tags: BTreeSet<String>,
    pub family: Family,
}

/// Generate the body for `seed`, of the family `cfg` asks for.
pub fn generate(seed: u64, cfg: GenConfig) -> Body {
    if cfg.family != Family::Classic {
        return mutate::generate(seed, cfg);
    }
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut helpers = Vec::new();
    let mut funcs = Vec::new();
    let mut tags = BTreeSet::new();
    let n_helpers = if rng.f64() < 0.3 { rng.usize(1..3) } else { 0 };
    for i in 0..n_helpers {
        let (h, f) = helper(&mut rng, cfg, i);
        helpers.push(h);
        funcs.push(f);
    }
    let result = rng.f64() < 0.1 || (helpers.iter().any(|h| h.result) && rng.bool());
    let params = params(&mut rng);
    let mut cx = Ctx::new(&mut rng, cfg, result);
    cx.helpers = helpers;
    for p in &params {
        data_param_tag(&mut cx, p);
        if p.alias {
            cx.tag("param-alias");
        }
        cx.scopes.add(p.var());
    }
    let n = cx.rng.usize(2..7);
    cx.block(n);
    let tail = cx.tail();
    let sig: Vec<String> = params
        .iter()
        .map(|p| format!("{}: {}", p.name, p.ty()))
        .collect();
    let ret = if result { "Result<f64, String>" } else { "f64" };
    let wrt: Vec<&str> = params
        .iter()
        .filter(|p| p.active)
        .map(|p| p.name.as_str())
        .collect();
    let func = finish(
        &mut cx,
        format!("pub fn f({}) -> {ret} {{", sig.join(", ")),
        tail,
        Some(format!("#[differentiate(wrt({}))]", wrt.join(", "))),
    );
    tags.extend(cx.tags);
    Body {
        helpers: funcs,
        func,
        params,
        tags,
        family: Family::Classic,
    }
}

fn data_param_tag(cx: &mut Ctx, p: &Param) {
    if p.active {
        return;
    }
    match p.kind {
        PKind::Usize(_) => cx.tag("param-usize"),
        PKind::SliceUsize(..) => cx.tag("param-usize-slice"),
        PKind::Bool => cx.tag("param-bool"),
        _ => cx.tag("param-f64-data"),
    }
}

/// Assemble a function from its signature line, the body written so far and the tail.
fn finish(cx: &mut Ctx, sig: String, tail: E, attribute: Option<String>) -> Func {
    let tail = if cx.result {
        format!("Ok({})", tail.code)
    } else {
        tail.code
    };
    cx.line(&tail);
    let mut text = sig;
    text.push('\n');
    text.push_str(&cx.out);
    text.push_str("}\n");
    let mut line_tags = vec![Vec::new()];
    line_tags.extend(cx.line_tags.iter().cloned());
    line_tags.push(Vec::new());
    Func {
        text,
        line_tags,
        attribute,
    }
}

impl Ctx<'_> {
    /// The returned expression: a weighted sum of the `f64` bindings in scope (active ones
    /// first), so that what the body computed reaches the result.
    fn tail(&mut self) -> E {
        let mut vs = self.vars(|v| v.ty == Ty::F64 && v.active);
        let others = self.vars(|v| v.ty == Ty::F64 && !v.active && v.is_mut());
        vs.extend(others);
        self.rng.shuffle(&mut vs);
        let mut acc: Option<E> = None;
        for v in vs.iter().take(3) {
            let e = expr::var_expr(v).val();
            let e = if self.chance(0.5) {
                let c = self.literal();
                self.bin(&c, "*", &e)
            } else {
                e
            };
            acc = Some(match acc {
                None => e,
                Some(a) => self.bin(&a, "+", &e),
            });
        }
        let e = acc.unwrap_or_else(|| self.expr(2).val());
        self.tame(e)
    }
}

/// Parameters: one to three active, zero to three data, in random order.
fn params(rng: &mut fastrand::Rng) -> Vec<Param> {
    let n_active = [1, 1, 2, 2, 3][rng.usize(0..5)];
    let n_data = rng.usize(0..4);
    let mut kinds: Vec<(PKind, bool)> = Vec::new();
    for _ in 0..n_active {
        let len = rng.usize(2..6);
        let k = match rng.usize(0..20) {
            0..=9 => PKind::F64,
            10..=14 => PKind::Slice(len),
            15..=17 => PKind::Arr(len),
            _ => PKind::Vec(len),
        };
        kinds.push((k, true));
    }
    let min_len = 2;
    for _ in 0..n_data {
        let len = rng.usize(2..6);
        let k = match rng.usize(0..20) {
            0..=4 => PKind::F64,
            5..=9 => PKind::Slice(len),
            10..=13 => PKind::Usize(rng.usize(2..6)),
            14..=15 => PKind::SliceUsize(rng.usize(2..5), min_len),
            16..=17 => PKind::Bool,
            _ => PKind::Arr(len),
        };
        kinds.push((k, false));
    }
    rng.shuffle(&mut kinds);
    kinds
        .into_iter()
        .enumerate()
        .map(|(i, (kind, active))| {
            let base = match (&kind, active) {
                (PKind::F64, true) => "x",
                (PKind::F64, false) => "c",
                (PKind::Usize(_), _) => "k",
                (PKind::SliceUsize(..), _) => "ix",
                (PKind::Bool, _) => "flag",
                (_, true) => "theta",
                (_, false) => "data",
            };
            // Some arrays and vectors through an alias; decided without drawing, so that
            // a seed gives the same bodies as before aliases were drawn.
            let alias = match kind {
                PKind::Arr(n) | PKind::Vec(n) => (i + n) % 3 == 0,
                _ => false,
            };
            Param {
                name: format!("{base}{i}"),
                kind,
                active,
                alias,
            }
        })
        .collect()
}

/// A helper: differentiated scalar, slice or `Result` helper, or a plain data helper.
fn helper(rng: &mut fastrand::Rng, cfg: GenConfig, i: usize) -> (Helper, Func) {
    let kind = rng.usize(0..4);
    let differentiated = kind != 3;
    let name = format!("{}{i}", if differentiated { "h" } else { "d" });
    let ps: Vec<HParam> = match kind {
        0 if rng.bool() => vec![HParam::F64],
        0 | 2 => vec![HParam::F64; 1 + (kind == 0) as usize],
        _ => vec![HParam::Slice, HParam::F64],
    };
    let result = kind == 2;
    let mut cx = Ctx::new(rng, cfg, result);
    let mut sig = Vec::new();
    let mut guard = None;
    for (j, p) in ps.iter().enumerate() {
        let pname = format!("p{j}");
        let v = match p {
            HParam::F64 => Var::new(&pname, Ty::F64, Iv::sym(HELPER_ARG)),
            HParam::Slice => Var::new(&pname, Ty::Slice, Iv::sym(HELPER_ARG))
                .seq((2, 6), Some(format!("{pname}.len()"))),
        };
        sig.push(format!(
            "{pname}: {}",
            if *p == HParam::F64 { "f64" } else { "&[f64]" }
        ));
        cx.scopes.add(v.active(differentiated));
        guard.get_or_insert(pname);
    }
    if result {
        let t = [1.0, 2.5, 4.0][cx.rng.usize(0..3)];
        let p = guard.unwrap_or_default();
        cx.line(&format!("if {p} > {t:?} {{"));
        cx.line(&format!(
            "    return Err(format!(\"{name}: {{}} is above {t:?}\", {p}));"
        ));
        cx.line("}");
    }
    let n = cx.rng.usize(1..4);
    cx.block(n);
    let tail = cx.tail();
    let out = tail.iv;
    let ret = if result { "Result<f64, String>" } else { "f64" };
    let attr = differentiated.then(|| "#[differentiate]".to_string());
    let func = finish(
        &mut cx,
        format!("pub fn {name}({}) -> {ret} {{", sig.join(", ")),
        tail,
        attr,
    );
    let h = Helper {
        name,
        params: ps,
        result,
        out,
        differentiated,
    };
    (h, func)
}
