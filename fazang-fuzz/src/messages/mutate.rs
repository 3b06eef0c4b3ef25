//! Token-level mutations a user makes while writing a program: each takes a source file,
//! an item under `#[differentiate]`/`#[deriv_rule]` in it and a random source, and edits
//! one place of that item (or its attribute), as text.

use super::lex::{is_keyword, lex, matching, sites, Kind, Site, Tok};
use fastrand::Rng;

/// The kinds of mutation, each a mistake users make.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum MKind {
    /// Delete one token (not a delimiter).
    Delete,
    /// Duplicate one token.
    Duplicate,
    /// `f64` -> `f32`, `i32`, `usize` (in a signature or a body).
    TypeSwap,
    /// `x: f64` -> `x: &f64`, `x: &[f64]` -> `x: &'static [f64]`.
    RefParam,
    /// `wrt(..)` naming a parameter that does not exist or is not `f64`.
    Wrt,
    /// An option the attribute does not have (`speed = "max"`, `wrt = x`).
    Option,
    /// A parameter passed to a plain `fn(f64) -> f64` helper.
    PlainHelper,
    /// A rule partial computed in `f32` (`1_f32 + x.exp()`).
    RuleF32,
    /// The return type changed (`f32`, `usize`, `Vec<f64>`, `(f64, f64)`).
    ReturnType,
    /// A `?` deleted.
    DropQuestion,
    /// `2.0` -> `2`.
    IntLiteral,
    /// `x` -> `(x as f32)`.
    CastF32,
    /// `.sum()` -> `.sum::<f64>()`, `.collect()` -> `.collect::<Vec<f64>>()`.
    Turbofish,
    /// `x.sqrt()` -> `f64::sqrt(x)`.
    PathMethod,
    /// One variable used for another.
    SwapIdent,
    /// `&` added before a variable, or deleted.
    Ref,
    /// `f64::consts::PI` -> `f32::consts::PI`, `f64::EPSILON` -> `f32::EPSILON`.
    F32Const,
}

impl MKind {
    pub const ALL: [MKind; 17] = [
        MKind::Delete,
        MKind::Duplicate,
        MKind::TypeSwap,
        MKind::RefParam,
        MKind::Wrt,
        MKind::Option,
        MKind::PlainHelper,
        MKind::RuleF32,
        MKind::ReturnType,
        MKind::DropQuestion,
        MKind::IntLiteral,
        MKind::CastF32,
        MKind::Turbofish,
        MKind::PathMethod,
        MKind::SwapIdent,
        MKind::Ref,
        MKind::F32Const,
    ];

    pub fn name(self) -> &'static str {
        match self {
            MKind::Delete => "delete",
            MKind::Duplicate => "duplicate",
            MKind::TypeSwap => "type-swap",
            MKind::RefParam => "ref-param",
            MKind::Wrt => "wrt",
            MKind::Option => "option",
            MKind::PlainHelper => "plain-helper",
            MKind::RuleF32 => "rule-f32",
            MKind::ReturnType => "return-type",
            MKind::DropQuestion => "drop-?",
            MKind::IntLiteral => "int-literal",
            MKind::CastF32 => "as-f32",
            MKind::Turbofish => "turbofish",
            MKind::PathMethod => "path-method",
            MKind::SwapIdent => "swap-ident",
            MKind::Ref => "ref",
            MKind::F32Const => "f32-const",
        }
    }
}

/// The plain helper [`MKind::PlainHelper`] calls, appended to the file.
pub const PLAIN_HELPER: &str = "\nfn plain_helper(v: f64) -> f64 {\n    v * v + 1.0\n}\n";

/// A mutated file.
#[derive(Clone, Debug)]
pub struct Mutant {
    pub kind: MKind,
    /// What was changed, in words (`deleted `?``).
    pub what: String,
    /// 1-based line of the change.
    pub line: usize,
    pub text: String,
}

/// One replacement of a byte range.
struct Edit {
    start: usize,
    end: usize,
    with: String,
    what: String,
    helper: bool,
}

/// A parameter of a function in a site: its name token and its type's token range.
struct Param {
    name: usize,
    ty: (usize, usize),
}

/// A function in a site.
struct FnSig {
    params: Vec<Param>,
    /// `->` and the last token of the return type.
    ret: Option<(usize, usize)>,
    /// The body's braces.
    body: (usize, usize),
}

/// The file and the parts of it a mutation looks at.
struct Ctx<'a> {
    src: &'a str,
    toks: Vec<Tok>,
    m: Vec<usize>,
}

impl Ctx<'_> {
    fn t(&self, i: usize) -> &str {
        self.toks.get(i).map_or("", |t| t.text(self.src))
    }
    fn replace(&self, i: usize, with: impl Into<String>, what: String) -> Edit {
        Edit {
            start: self.toks[i].start,
            end: self.toks[i].end,
            with: with.into(),
            what,
            helper: false,
        }
    }
    fn insert(&self, before: usize, with: &str, what: String) -> Edit {
        let at = self.toks[before].start;
        Edit {
            start: at,
            end: at,
            with: with.to_string(),
            what,
            helper: false,
        }
    }

    /// The functions of a site (one for a `fn`, several for an `impl` block or `mod`).
    fn fns(&self, s: &Site) -> Vec<FnSig> {
        let mut out = Vec::new();
        let mut i = s.first;
        while i <= s.last {
            if self.t(i) == "fn" {
                if let Some(f) = self.fn_at(i) {
                    i = f.body.1;
                    out.push(f);
                }
            }
            i += 1;
        }
        out
    }

    fn fn_at(&self, fn_tok: usize) -> Option<FnSig> {
        let mut j = fn_tok + 2;
        while j < self.toks.len() && self.t(j) != "(" {
            j += 1;
        }
        let close = self.m[j];
        let params = self.params(j, close);
        let mut k = close + 1;
        let mut ret = None;
        if self.t(k) == "->" {
            let mut e = k + 1;
            while e < self.toks.len() && !matches!(self.t(e), "{" | "where" | ";") {
                e = if matches!(self.t(e), "(" | "[") {
                    self.m[e] + 1
                } else {
                    e + 1
                };
            }
            ret = Some((k, e - 1));
            k = e;
        }
        while k < self.toks.len() && !matches!(self.t(k), "{" | ";") {
            k += 1;
        }
        (self.t(k) == "{").then(|| FnSig {
            params,
            ret,
            body: (k, self.m[k]),
        })
    }

    fn params(&self, open: usize, close: usize) -> Vec<Param> {
        let mut out = Vec::new();
        let mut start = open + 1;
        let mut depth = 0i32;
        for j in open + 1..=close {
            match self.t(j) {
                "<" | "(" | "[" => depth += 1,
                ">" | ")" | "]" if j != close => depth -= 1,
                "," | ")" if depth == 0 => {
                    let colon = (start..j).find(|&c| self.t(c) == ":");
                    if let Some(c) = colon.filter(|c| *c > start && *c + 1 < j) {
                        if self.toks[c - 1].kind == Kind::Ident && self.t(c - 1) != "self" {
                            out.push(Param {
                                name: c - 1,
                                ty: (c + 1, j - 1),
                            });
                        }
                    }
                    start = j + 1;
                }
                _ => {}
            }
        }
        out
    }

    /// Uses of `name` as a value in `range`: not a field, method, path segment, macro or
    /// a field name of a struct literal.
    fn uses(&self, name: &str, range: (usize, usize)) -> Vec<usize> {
        (range.0..=range.1)
            .filter(|&i| self.t(i) == name && self.toks[i].kind == Kind::Ident)
            .filter(|&i| !matches!(self.t(i - 1), "." | "::" | "let" | "mut" | "|" | "fn"))
            .filter(|&i| !matches!(self.t(i + 1), "::" | "(" | "!" | ":" | "{"))
            .collect()
    }
}

/// One mutant of `src`, from `rng`: a kind of mistake drawn first (each as likely), then a
/// site it applies to. `None` if the file has no site.
pub fn mutate(src: &str, rng: &mut Rng) -> Option<Mutant> {
    let toks = lex(src);
    let m = matching(&toks);
    let sites = sites(src, &toks);
    if sites.is_empty() {
        return None;
    }
    let cx = Ctx { src, toks, m };
    for _ in 0..40 {
        let kind = MKind::ALL[rng.usize(..MKind::ALL.len())];
        let mut order: Vec<usize> = (0..sites.len()).collect();
        rng.shuffle(&mut order);
        let found = order.iter().find_map(|&s| edit(&cx, &sites[s], kind, rng));
        if let Some(e) = found {
            let mut text = String::with_capacity(src.len() + 64);
            text.push_str(&src[..e.start]);
            text.push_str(&e.with);
            text.push_str(&src[e.end..]);
            if e.helper {
                text.push_str(PLAIN_HELPER);
            }
            let line = src[..e.start].matches('\n').count() + 1;
            return Some(Mutant {
                kind,
                what: e.what,
                line,
                text,
            });
        }
    }
    None
}

fn edit(cx: &Ctx, s: &Site, kind: MKind, rng: &mut Rng) -> Option<Edit> {
    match kind {
        MKind::Delete | MKind::Duplicate => delete_or_duplicate(cx, s, kind, rng),
        MKind::TypeSwap => type_swap(cx, s, rng),
        MKind::RefParam => ref_param(cx, s, rng),
        MKind::Wrt => wrt(cx, s, rng),
        MKind::Option => option(cx, s, rng),
        MKind::PlainHelper | MKind::CastF32 | MKind::Ref => param_use(cx, s, kind, rng),
        MKind::RuleF32 => rule_f32(cx, s, rng),
        MKind::ReturnType => return_type(cx, s, rng),
        MKind::DropQuestion => {
            let q = pick(rng, (s.first..=s.last).filter(|&i| cx.t(i) == "?"))?;
            Some(cx.replace(q, "", "deleted `?`".into()))
        }
        MKind::IntLiteral => {
            let lits = (s.first..=s.last).filter(|&i| {
                cx.toks[i].kind == Kind::Literal && cx.t(i).ends_with(".0") && cx.t(i - 1) != "."
            });
            let l = pick(rng, lits)?;
            let int = cx.t(l).trim_end_matches(".0").to_string();
            Some(cx.replace(l, int.clone(), format!("`{}` -> `{int}`", cx.t(l))))
        }
        MKind::Turbofish => turbofish(cx, s, rng),
        MKind::PathMethod => path_method(cx, s, rng),
        MKind::SwapIdent => swap_ident(cx, s, rng),
        MKind::F32Const => {
            let at = (s.first..=s.last).filter(|&i| cx.t(i) == "f64" && cx.t(i + 1) == "::");
            let i = pick(rng, at)?;
            Some(cx.replace(i, "f32", format!("`f64::{}` -> `f32::..`", cx.t(i + 2))))
        }
    }
}

fn pick(rng: &mut Rng, it: impl Iterator<Item = usize>) -> Option<usize> {
    let v: Vec<usize> = it.collect();
    (!v.is_empty()).then(|| v[rng.usize(..v.len())])
}

fn delete_or_duplicate(cx: &Ctx, s: &Site, kind: MKind, rng: &mut Rng) -> Option<Edit> {
    let from = s.args.map_or(s.first, |a| a.0 + 1);
    let ok = (from..=s.last).filter(|&i| !matches!(cx.toks[i].kind, Kind::Open | Kind::Close));
    let i = pick(rng, ok)?;
    let t = cx.t(i).to_string();
    Some(if kind == MKind::Delete {
        cx.replace(i, "", format!("deleted `{t}`"))
    } else {
        cx.replace(i, format!("{t} {t}"), format!("duplicated `{t}`"))
    })
}

fn type_swap(cx: &Ctx, s: &Site, rng: &mut Rng) -> Option<Edit> {
    let ok = (s.first..=s.last)
        .filter(|&i| cx.t(i) == "f64" && cx.t(i - 1) != "::" && cx.t(i + 1) != "::");
    let i = pick(rng, ok)?;
    let to = ["f32", "i32", "usize", "f32"][rng.usize(..4)];
    Some(cx.replace(i, to, format!("`f64` -> `{to}`")))
}

fn ref_param(cx: &Ctx, s: &Site, rng: &mut Rng) -> Option<Edit> {
    let fns = cx.fns(s);
    let params: Vec<&Param> = fns.iter().flat_map(|f| &f.params).collect();
    let p = params.get(rng.usize(..params.len().max(1)))?;
    let (a, b) = p.ty;
    let name = cx.t(p.name);
    if cx.t(a) == "&" && cx.t(a + 1) != "mut" && cx.toks[a + 1].kind != Kind::Lifetime {
        Some(cx.insert(a + 1, "'static ", format!("`{name}`: `&` -> `&'static`")))
    } else if a == b && cx.t(a) == "f64" {
        let to = ["&f64", "&mut f64", "Option<f64>"][rng.usize(..3)];
        Some(cx.replace(a, to, format!("`{name}: f64` -> `{name}: {to}`")))
    } else {
        None
    }
}

fn wrt(cx: &Ctx, s: &Site, rng: &mut Rng) -> Option<Edit> {
    if s.attr != "differentiate" {
        return None;
    }
    let fns = cx.fns(s);
    let f = fns.first()?;
    let names: Vec<&str> = f.params.iter().map(|p| cx.t(p.name)).collect();
    let non_f64 = f
        .params
        .iter()
        .find(|p| !cx.src[cx.toks[p.ty.0].start..cx.toks[p.ty.1].end].contains("f64"));
    let wrong = match (rng.usize(..3), non_f64) {
        (0, Some(p)) => cx.t(p.name).to_string(),
        (1, _) => format!("{}s", names.first()?),
        _ => "theta".to_string(),
    };
    if let Some((open, close)) = s.args {
        let inner = (open + 1..close).find(|&i| cx.t(i) == "wrt");
        if let Some(w) = inner {
            let name = pick(
                rng,
                (w + 2..cx.m[w + 1]).filter(|&i| cx.toks[i].kind == Kind::Ident),
            )?;
            let was = cx.t(name).to_string();
            return Some(cx.replace(name, wrong.clone(), format!("wrt `{was}` -> `{wrong}`")));
        }
        return None;
    }
    let at = s.hash + 2;
    Some(Edit {
        start: cx.toks[at].end,
        end: cx.toks[at].end,
        with: format!("(wrt({wrong}))"),
        what: format!("added `wrt({wrong})`"),
        helper: false,
    })
}

fn option(cx: &Ctx, s: &Site, rng: &mut Rng) -> Option<Edit> {
    if s.attr != "differentiate" {
        return None;
    }
    let opt = [
        "speed = \"max\"",
        "gradient = g",
        "wrt = x",
        "sparse = true",
        "hessian",
    ][rng.usize(..5)];
    let at = s.hash + 2;
    let (start, with) = match s.args {
        Some((_, close)) => (cx.toks[close].start, format!(", {opt}")),
        None => (cx.toks[at].end, format!("({opt})")),
    };
    Some(Edit {
        start,
        end: start,
        with,
        what: format!("option `{opt}`"),
        helper: false,
    })
}

fn param_use(cx: &Ctx, s: &Site, kind: MKind, rng: &mut Rng) -> Option<Edit> {
    let fns = cx.fns(s);
    let f = fns.get(rng.usize(..fns.len().max(1)))?;
    let p = f.params.get(rng.usize(..f.params.len().max(1)))?;
    let name = cx.t(p.name).to_string();
    if kind == MKind::Ref && rng.bool() {
        let amp = pick(rng, (f.body.0..=f.body.1).filter(|&i| cx.t(i) == "&"))?;
        return Some(cx.replace(amp, "", "deleted `&`".into()));
    }
    let u = pick(rng, cx.uses(&name, f.body).into_iter())?;
    let (with, what) = match kind {
        MKind::PlainHelper => (format!("plain_helper({name})"), "plain_helper(..)"),
        MKind::CastF32 => (format!("({name} as f32)"), "`as f32`"),
        _ => (format!("&{name}"), "`&` added"),
    };
    let mut e = cx.replace(u, with, format!("{what} on `{name}`"));
    e.helper = kind == MKind::PlainHelper;
    Some(e)
}

fn rule_f32(cx: &Ctx, s: &Site, rng: &mut Rng) -> Option<Edit> {
    let (open, close) = s.args?;
    if s.attr != "deriv_rule" {
        return None;
    }
    let arrows: Vec<usize> = (open..close).filter(|&i| cx.t(i) == "=>").collect();
    let a = *arrows.get(rng.usize(..arrows.len().max(1)))?;
    let lits = (a..close).filter(|&i| {
        cx.toks[i].kind == Kind::Literal && cx.t(i).contains('.') && !cx.t(i).contains('_')
    });
    match pick(rng, lits) {
        Some(l) if rng.bool() => {
            let was = cx.t(l).to_string();
            Some(cx.replace(l, format!("{was}_f32"), format!("`{was}` -> `{was}_f32`")))
        }
        _ => Some(cx.insert(a + 1, "1_f32 + ", "partial `1_f32 + ..`".into())),
    }
}

fn return_type(cx: &Ctx, s: &Site, rng: &mut Rng) -> Option<Edit> {
    let fns = cx.fns(s);
    let f = fns.get(rng.usize(..fns.len().max(1)))?;
    let (arrow, last) = f.ret?;
    let was = cx.src[cx.toks[arrow + 1].start..cx.toks[last].end].to_string();
    let to = ["f32", "usize", "Vec<f64>", "(f64, f64)", "f64"][rng.usize(..5)];
    (to != was).then(|| Edit {
        start: cx.toks[arrow + 1].start,
        end: cx.toks[last].end,
        with: to.to_string(),
        what: format!("returns `{to}` instead of `{was}`"),
        helper: false,
    })
}

fn turbofish(cx: &Ctx, s: &Site, rng: &mut Rng) -> Option<Edit> {
    let calls = (s.first..=s.last).filter(|&i| {
        matches!(cx.t(i), "sum" | "product" | "collect")
            && cx.t(i - 1) == "."
            && cx.t(i + 1) == "("
            && cx.t(i + 2) == ")"
    });
    let i = pick(rng, calls)?;
    let ty = if cx.t(i) == "collect" {
        "::<Vec<f64>>"
    } else {
        "::<f64>"
    };
    let what = format!("`.{}()` -> `.{}{ty}()`", cx.t(i), cx.t(i));
    Some(Edit {
        start: cx.toks[i].end,
        end: cx.toks[i].end,
        with: ty.to_string(),
        what,
        helper: false,
    })
}

fn path_method(cx: &Ctx, s: &Site, rng: &mut Rng) -> Option<Edit> {
    const UNARY: &[&str] = &["sqrt", "exp", "ln", "sin", "cos", "tanh", "abs", "ln_1p"];
    let calls = (s.first + 2..=s.last).filter(|&i| {
        UNARY.contains(&cx.t(i))
            && cx.t(i - 1) == "."
            && cx.toks[i - 2].kind == Kind::Ident
            && !matches!(cx.t(i - 3), "." | "::")
            && cx.t(i + 1) == "("
            && cx.t(i + 2) == ")"
    });
    let i = pick(rng, calls)?;
    let (recv, method) = (cx.t(i - 2), cx.t(i));
    Some(Edit {
        start: cx.toks[i - 2].start,
        end: cx.toks[i + 2].end,
        with: format!("f64::{method}({recv})"),
        what: format!("`{recv}.{method}()` -> `f64::{method}({recv})`"),
        helper: false,
    })
}

fn swap_ident(cx: &Ctx, s: &Site, rng: &mut Rng) -> Option<Edit> {
    let fns = cx.fns(s);
    let f = fns.get(rng.usize(..fns.len().max(1)))?;
    let vars: Vec<usize> = (f.body.0..=f.body.1)
        .filter(|&i| cx.toks[i].kind == Kind::Ident && !is_keyword(cx.t(i)))
        .filter(|&i| cx.t(i).starts_with(|c: char| c.is_ascii_lowercase()))
        .filter(|&i| !matches!(cx.t(i - 1), "." | "::"))
        .filter(|&i| !matches!(cx.t(i + 1), "::" | "(" | "!"))
        .collect();
    let i = *vars.get(rng.usize(..vars.len().max(1)))?;
    let j = *vars.get(rng.usize(..vars.len()))?;
    let (a, b) = (cx.t(i), cx.t(j));
    (a != b).then(|| cx.replace(i, b, format!("`{a}` -> `{b}`")))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "use fazang::prelude::*;\n\
        #[differentiate(wrt(mu))]\n\
        fn lp(mu: f64, ys: &[f64], n: usize) -> Result<f64, DomainError> {\n\
            let s: f64 = ys.iter().map(|y| (y - mu).powi(2)).sum();\n\
            Ok(normal_lpdf(mu, 0.0, 1.0)? - 0.5 * s + mu.sqrt() * std::f64::consts::PI)\n\
        }\n\
        #[deriv_rule(x => x.cos() / (1.0 + x.sin()))]\n\
        fn foo(x: f64) -> f64 { (1.0 + x.sin()).ln() }\n";

    /// Every kind of mutation applies to the sample, edits only an attributed item or its
    /// attribute (or appends the helper), and gives a different program.
    #[test]
    fn every_kind_makes_its_mistake() {
        let mut seen = std::collections::BTreeMap::new();
        for seed in 0..3000 {
            let m = mutate(SRC, &mut Rng::with_seed(seed)).expect("the sample has sites");
            assert_ne!(m.text, SRC);
            assert!(m.line >= 2, "{}: line {}", m.what, m.line);
            assert!(m.text.starts_with("use fazang::prelude::*;\n#["));
            seen.entry(m.kind).or_insert(m.what);
        }
        assert_eq!(seen.len(), MKind::ALL.len(), "{seen:?}");
    }

    #[test]
    fn mistakes_read_as_users_make_them() {
        let all: Vec<Mutant> = (0..3000)
            .filter_map(|s| mutate(SRC, &mut Rng::with_seed(s)))
            .collect();
        let has = |needle: &str| all.iter().any(|m| m.text.contains(needle));
        assert!(has("ys: &'static [f64]"));
        assert!(has("plain_helper(mu)") && has("fn plain_helper(v: f64) -> f64"));
        assert!(has("x => 1_f32 + x.cos()") || has("(1.0_f32 + x.sin())"));
        assert!(has("#[differentiate(wrt(theta))]") || has("#[differentiate(wrt(n))]"));
        assert!(has(".sum::<f64>()"));
        assert!(has("f64::sqrt(mu)"));
        assert!(has("(mu as f32)"));
        assert!(has("std::f32::consts::PI"));
        assert!(has("Ok(normal_lpdf(mu, 0.0, 1.0) - 0.5"));
    }
}
