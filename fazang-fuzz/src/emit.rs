//! Writing generated bodies as a crate: each body is a module file `src/bNNNNN.rs` holding
//! the same text twice, in `mod plain` (no attribute) and in `mod ad` (under
//! `#[differentiate]`), and a `check` function that evaluates both at random points through
//! the harness. Line ranges are kept so compiler errors map back to a body and a half.
//!
//! The check calls the hidden tape twin `__f_grad_tape` while the macro generates one; a
//! body whose check cannot find it is emitted again without it ([`Emitted::drop_twin`]).

use crate::gen::{Body, Func, PKind, Param};
use std::fmt::Write as _;

/// Where a line of a body file belongs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Region {
    Plain,
    Ad,
    Check,
}

/// A body rendered as a module file.
pub struct Emitted {
    pub id: String,
    pub body: Body,
    pub text: String,
    /// `(first line, last line, region)`, 1-based and inclusive.
    pub regions: Vec<(usize, usize, Region)>,
    /// The construct tags of each line (index 0 is line 1).
    pub line_tags: Vec<Vec<String>>,
    /// The check compares `_grad` with the tape twin `__f_grad_tape`.
    pub twin: bool,
    seed: u64,
    points: usize,
}

impl Emitted {
    /// The region of 1-based line `line`.
    pub fn region(&self, line: usize) -> Region {
        self.regions
            .iter()
            .find(|(a, b, _)| (*a..=*b).contains(&line))
            .map_or(Region::Check, |r| r.2)
    }

    /// Render again with a check that does not call the tape twin (the macro generated
    /// none for this body).
    pub fn drop_twin(&mut self) {
        let body = self.body.clone();
        *self = render(&self.id, self.seed, body, self.points, false);
    }

    /// The text of 1-based line `line`, trimmed.
    pub fn line(&self, line: usize) -> &str {
        self.text
            .lines()
            .nth(line.saturating_sub(1))
            .unwrap_or("")
            .trim()
    }
}

/// A file under construction, tracking line numbers and per-line tags.
struct Writer {
    text: String,
    tags: Vec<Vec<String>>,
}

impl Writer {
    fn line_no(&self) -> usize {
        self.tags.len()
    }

    fn push(&mut self, s: &str, tags: &[Vec<String>]) {
        for (i, l) in s.lines().enumerate() {
            self.text.push_str(l);
            self.text.push('\n');
            self.tags.push(tags.get(i).cloned().unwrap_or_default());
        }
    }

    fn plain(&mut self, s: &str) {
        self.push(s, &[]);
    }

    fn func(&mut self, f: &Func, annotate: bool) {
        if let (true, Some(a)) = (annotate, &f.attribute) {
            self.plain(a);
        }
        self.push(&f.text, &f.line_tags);
    }
}

/// Render body `id` (`points` random points per check).
pub fn emit(id: &str, seed: u64, body: Body, points: usize) -> Emitted {
    render(id, seed, body, points, true)
}

fn render(id: &str, seed: u64, body: Body, points: usize, twin: bool) -> Emitted {
    let mut w = Writer {
        text: String::new(),
        tags: Vec::new(),
    };
    let tags: Vec<&str> = body.tags.iter().map(String::as_str).collect();
    w.plain(&format!("// {id}: generated from seed {seed}"));
    w.plain(&format!("// family: {}", body.family.name()));
    w.plain(&format!("// constructs: {}", tags.join(" ")));
    let mut regions = Vec::new();
    for (region, name, annotate) in [(Region::Plain, "plain", false), (Region::Ad, "ad", true)] {
        let start = w.line_no() + 1;
        w.plain(&format!("pub mod {name} {{"));
        if annotate {
            w.plain("use fazang::prelude::*;");
        } else {
            // The functions of rows (`gen::rows`), for the plain twin.
            w.plain("#[allow(unused_imports)]");
            w.plain(
                "use fazang::prelude::{cholesky_corr_constrain, lkj_corr_cholesky_lpdf, matmul};",
            );
        }
        let mut aliases: Vec<String> = body.params.iter().filter_map(|p| p.alias_decl()).collect();
        aliases.sort();
        aliases.dedup();
        for a in &aliases {
            w.plain(a);
        }
        for h in &body.helpers {
            w.func(h, annotate);
        }
        w.func(&body.func, annotate);
        w.plain("}");
        regions.push((start, w.line_no(), region));
    }
    let start = w.line_no() + 1;
    w.plain(&check_fn(&body, points, twin));
    regions.push((start, w.line_no(), Region::Check));
    Emitted {
        id: id.to_string(),
        body,
        text: w.text,
        regions,
        line_tags: w.tags,
        twin,
        seed,
        points,
    }
}

/// The `check` function: draw inputs, call the versions, hand them to the harness.
fn check_fn(body: &Body, points: usize, twin: bool) -> String {
    let mut s = String::new();
    let n: usize = body
        .params
        .iter()
        .filter(|p| p.active)
        .map(Param::flat_len)
        .sum();
    s.push_str("pub fn check(h: &mut crate::harness::Harness) {\n");
    s.push_str(
        "    use crate::harness::{GradOutcome, HessOutcome, HvpOutcome, JvpOutcome, Outcome};\n",
    );
    let _ = writeln!(s, "    for _ in 0..{points} {{");
    let _ = writeln!(s, "        let p = h.vec({n});");
    let mut args = Vec::new();
    let mut offset = 0;
    for p in &body.params {
        if p.active {
            args.push(active_arg(p, offset));
            offset += p.flat_len();
        } else {
            let (init, arg) = data_arg(p);
            let _ = writeln!(s, "        let {} = {init};", p.name);
            args.push(arg);
        }
    }
    let args = args.join(", ");
    let closures = [
        ("plain_f", "|p: &[f64]| plain::f({a}).outcome()"),
        ("ad_f", "|p: &[f64]| ad::f({a}).outcome()"),
        ("grad_f", "|p: &[f64]| ad::f_grad({a}).grad_outcome()"),
        // The same gradient on the tape: the adjoint code must agree with it (issue 10).
        (
            "tape_f",
            "|p: &[f64]| ad::__f_grad_tape({a}).grad_outcome()",
        ),
        (
            "jvp_f",
            "|p: &[f64], dir: &[f64]| ad::f_jvp({a}, dir).jvp_outcome()",
        ),
        ("hess_f", "|p: &[f64]| ad::f_hessian({a}).hess_outcome()"),
        (
            "hvp_f",
            "|p: &[f64], dir: &[f64]| ad::f_hvp({a}, dir).hvp_outcome()",
        ),
        (
            "twin_f",
            "|p: &[f64]| ad::__f_hessian_generic({a}).hess_outcome()",
        ),
    ];
    for (name, code) in closures {
        if name != "tape_f" || twin {
            let _ = writeln!(s, "        let {name} = {};", code.replace("{a}", &args));
        }
    }
    let tape = if twin { "Some(&tape_f)" } else { "None" };
    s.push_str("        let fns = crate::harness::Fns {\n");
    s.push_str(
        "            plain: &plain_f,\n            ad: &ad_f,\n            grad: &grad_f,\n",
    );
    let _ = writeln!(s, "            tape: {tape},\n            jvp: &jvp_f,");
    s.push_str(
        "            second: Some(crate::harness::Second { hessian: &hess_f, hvp: &hvp_f, \
         twin: &twin_f }),\n        };\n",
    );
    s.push_str("        h.point(&p, &fns);\n    }\n}\n");
    s
}

/// The argument for active parameter `p`, read from the flat inputs `p` at `o`.
fn active_arg(p: &Param, o: usize) -> String {
    match p.kind {
        PKind::F64 => format!("p[{o}]"),
        PKind::Slice(n) => format!("&p[{o}..{}]", o + n),
        PKind::Vec(n) => format!("p[{o}..{}].to_vec()", o + n),
        PKind::Arr(n) => {
            let es: Vec<String> = (o..o + n).map(|i| format!("p[{i}]")).collect();
            format!("[{}]", es.join(", "))
        }
        _ => unreachable!("only f64-shaped parameters are active"),
    }
}

/// How data parameter `p` is drawn, and how it is passed.
fn data_arg(p: &Param) -> (String, String) {
    let name = &p.name;
    match p.kind {
        PKind::F64 => ("h.f64()".into(), name.clone()),
        PKind::Slice(n) => (format!("h.vec({n})"), format!("&{name}")),
        PKind::Vec(n) => (format!("h.vec({n})"), format!("{name}.clone()")),
        PKind::Arr(n) => {
            let es = vec!["h.f64()"; n].join(", ");
            (format!("[{es}]"), name.clone())
        }
        PKind::Usize(b) => (format!("h.usize({b})"), name.clone()),
        PKind::SliceUsize(n, b) => (format!("h.usizes({n}, {b})"), format!("&{name}")),
        PKind::Bool => ("h.bool()".into(), name.clone()),
    }
}

/// `src/main.rs` running the checks of `ids`.
pub fn main_rs(ids: &[&str]) -> String {
    let mut s = String::from("#![allow(warnings)]\nmod harness;\n");
    for id in ids {
        let _ = writeln!(s, "mod {id};");
    }
    s.push_str("\nfn main() {\n    let mut args = std::env::args().skip(1);\n");
    s.push_str("    let start: usize = args.next().map_or(0, |a| a.parse().unwrap());\n");
    s.push_str("    let seed: u64 = args.next().map_or(0, |a| a.parse().unwrap());\n");
    s.push_str("    let bodies: &[harness::Check] = &[\n");
    for id in ids {
        let _ = writeln!(s, "        (\"{id}\", {id}::check),");
    }
    s.push_str("    ];\n    harness::run(bodies, start, seed);\n}\n");
    s
}

/// The generated crate's manifest; `fazang` is the workspace root at `root`.
pub fn cargo_toml(root: &str) -> String {
    format!(
        "[package]\nname = \"fazang-fuzz-batch\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
         publish = false\n\n[dependencies]\nfazang = {{ path = {root:?} }}\n\n\
         [profile.dev]\ndebug = false\n\n[workspace]\n"
    )
}
