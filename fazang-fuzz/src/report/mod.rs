//! Collecting outcomes over all batches, writing failing bodies to disk, printing the
//! summary (with figures per family, [`families`]) and deciding the exit status
//! ([`gate`]).

mod families;
mod gate;

use crate::compile::{Built, CompileFailure, Diag, RunOutput};
use crate::emit::{Emitted, Region};
use crate::gen::Family;
use families::FamStats;
pub use gate::{parse_min_adjoint, Gate, MacroGate};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Runtime failure kinds, grouped as the summary prints them. Every kind fails the gate,
/// these and any other.
const KINDS: &[(&str, &[&str])] = &[
    (
        "primal not bit-identical",
        &["primal", "grad-value", "ad-panic"],
    ),
    (
        "gradients disagreeing with reference",
        &["gradient", "grad-shape", "grad-panic"],
    ),
    (
        "adjoint code disagreeing with the tape",
        &["paths", "tape-panic"],
    ),
    (
        "_jvp disagreeing with reverse mode",
        &["jvp", "jvp-value", "jvp-panic"],
    ),
    (
        "_hessian/_hvp disagreeing (FD of gradient, generic body)",
        &[
            "hessian",
            "hessian-paths",
            "hessian-value",
            "hessian-shape",
            "hessian-panic",
            "hvp",
            "hvp-panic",
        ],
    ),
    ("plain function panicked (generator bug)", &["plain-panic"]),
];

/// Messages of the macro's own refusals (`compile_error!`, no error code) contain one of
/// these; everything else is a failure of the macro.
const REFUSAL_MARKERS: &[&str] = &["#[differentiate]", "differentiate", "derivative"];

/// The README's documented limit ("One limit comes from Rust itself"): a plain helper
/// without the attribute, called with an active value, is rustc's E0308 at the argument.
fn plain_helper_limit(d: &Diag, line_tags: &[String]) -> bool {
    d.code.as_deref() == Some("E0308")
        && d.message.contains("mismatched types")
        && d.rendered.contains("found type parameter")
        && line_tags.iter().any(|t| t == "call-plain-helper")
}

/// A macro compile failure, classified.
struct MacroFailure {
    id: String,
    refusal: bool,
    category: String,
    line_text: String,
    line_tags: Vec<String>,
    message: String,
}

/// Everything the summary reports.
#[derive(Default)]
pub struct Report {
    pub bodies: usize,
    plain: Vec<(String, CompileFailure, String)>,
    macro_: Vec<MacroFailure>,
    batch_errors: Vec<Diag>,
    runtime: BTreeMap<String, Vec<(String, String)>>,
    crashed: Vec<String>,
    ran: usize,
    points: [usize; 3],
    /// Hessian entries checked against finite differences of the gradient.
    hessians: usize,
    /// Bodies with second derivatives from the core form; the others by reason.
    second: (usize, BTreeMap<String, usize>),
    unverified: usize,
    tag_bodies: BTreeMap<String, (usize, usize)>,
    fams: BTreeMap<Family, FamStats>,
    out: PathBuf,
}

impl Report {
    /// A report writing failing bodies under `out/failures` (emptied first).
    pub fn new(out: PathBuf) -> std::io::Result<Report> {
        let dir = out.join("failures");
        if dir.exists() {
            std::fs::remove_dir_all(&dir)?;
        }
        std::fs::create_dir_all(&dir)?;
        Ok(Report {
            out: dir,
            ..Report::default()
        })
    }

    fn save(&self, b: &Emitted, what: &str, detail: &str) -> std::io::Result<()> {
        let mut s = String::new();
        for l in detail.lines() {
            let _ = writeln!(s, "// {l}");
        }
        s.push_str(&b.text);
        std::fs::write(self.out.join(format!("{}-{what}.rs", b.id)), s)
    }

    /// Record one batch: its compile failures, errors blamed on no body, the macro's
    /// verdicts, and the run output.
    pub fn batch(
        &mut self,
        bodies: &[Emitted],
        built: Built,
        run: &RunOutput,
    ) -> std::io::Result<()> {
        let Built {
            live,
            paths,
            second,
            failed,
            unblamed,
        } = built;
        self.second.0 += second.0;
        for why in second.1 {
            *self.second.1.entry(why).or_default() += 1;
        }
        self.bodies += bodies.len();
        self.batch_errors.extend(unblamed);
        for b in bodies {
            let fam = self.fams.entry(b.body.family).or_default();
            fam.bodies += 1;
            if live.contains(&b.id) {
                fam.verdict(paths.as_ref().and_then(|p| p.get(&b.id)));
            }
        }
        self.compile_failures(bodies, &failed)?;
        self.runtime_lines(bodies, run)
    }

    fn fam(&mut self, bodies: &[Emitted], id: &str) -> &mut FamStats {
        let f = bodies
            .iter()
            .find(|b| b.id == id)
            .map_or(Family::Classic, |b| b.body.family);
        self.fams.entry(f).or_default()
    }

    fn compile_failures(
        &mut self,
        bodies: &[Emitted],
        failed: &BTreeMap<String, CompileFailure>,
    ) -> std::io::Result<()> {
        for b in bodies {
            let bad = failed.get(&b.id).is_some_and(|f| f.region != Region::Plain);
            for t in &b.body.tags {
                let e = self.tag_bodies.entry(t.clone()).or_default();
                e.0 += 1;
                e.1 += bad as usize;
            }
            let Some(f) = failed.get(&b.id) else { continue };
            let detail = format!("{}\n\n{}", f.first.message, f.first.rendered);
            if f.region == Region::Plain {
                self.fam(bodies, &b.id).plain += 1;
                self.save(b, "plain", &detail)?;
                self.plain
                    .push((b.id.clone(), f.clone(), b.line(f.line).to_string()));
                continue;
            }
            let tags = b.line_tags.get(f.line - 1).cloned().unwrap_or_default();
            let refusal = (f.first.code.is_none()
                && REFUSAL_MARKERS.iter().any(|m| f.first.message.contains(m)))
                || plain_helper_limit(&f.first, &tags);
            self.save(b, if refusal { "refused" } else { "macro" }, &detail)?;
            let fam = self.fam(bodies, &b.id);
            if refusal {
                fam.refused += 1;
            } else {
                fam.macro_other += 1;
            }
            let region = if f.region == Region::Check {
                "check: "
            } else {
                ""
            };
            let code = f.first.code.as_deref().unwrap_or("no code");
            self.macro_.push(MacroFailure {
                id: b.id.clone(),
                refusal,
                category: category(region, code, &f.first),
                line_text: b.line(f.line).to_string(),
                line_tags: tags,
                message: f.first.message.clone(),
            });
        }
        Ok(())
    }

    fn runtime_lines(&mut self, bodies: &[Emitted], run: &RunOutput) -> std::io::Result<()> {
        let mut per_body: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for l in &run.lines {
            let f: Vec<&str> = l.split('\t').collect();
            match f.as_slice() {
                ["FAIL", id, kind, detail] => {
                    let list = self.runtime.entry(kind.to_string()).or_default();
                    if !list.iter().any(|(i, _)| i == id) {
                        list.push((id.to_string(), detail.to_string()));
                    }
                    per_body.entry(id.to_string()).or_default().push(l.clone());
                }
                ["BODY", id, fields @ ..] => {
                    self.ran += 1;
                    let n = |key: &str| -> usize {
                        fields
                            .iter()
                            .find_map(|f| f.strip_prefix(key)?.strip_prefix('='))
                            .and_then(|v| v.parse().ok())
                            .unwrap_or(0)
                    };
                    let c = n("checked");
                    self.points[0] += c;
                    self.points[1] += n("skipped");
                    self.points[2] += n("nonfinite");
                    self.hessians += n("hessian");
                    self.unverified += (c == 0) as usize;
                    let (paths, jvps) = (n("paths"), n("jvp"));
                    let fam = self.fam(bodies, id);
                    fam.ran += 1;
                    fam.partials += c;
                    fam.paths += paths;
                    fam.jvps += jvps;
                }
                _ => {}
            }
        }
        for id in &run.crashed {
            self.crashed.push(id.clone());
            per_body
                .entry(id.clone())
                .or_default()
                .push("the process ended in this body".into());
        }
        for (id, lines) in per_body {
            self.fam(bodies, &id).wrong += 1;
            if let Some(b) = bodies.iter().find(|b| b.id == id) {
                self.save(b, "wrong", &lines.join("\n"))?;
            }
        }
        Ok(())
    }

    fn count(&self, kinds: &[&str]) -> usize {
        kinds
            .iter()
            .map(|k| self.runtime.get(*k).map_or(0, Vec::len))
            .sum()
    }

    /// Print the summary; `true` if the gate passes.
    pub fn print(&self, gate: &Gate, secs: [f64; 3]) -> bool {
        println!("\n== fazang-fuzz summary ==");
        self.print_compile();
        println!("bodies run:                            {}", self.ran);
        println!(
            "partials checked: {}, skipped as not smooth: {}, points not finite: {}, bodies with no partial checked: {}",
            self.points[0], self.points[1], self.points[2], self.unverified
        );
        println!(
            "Hessian entries checked against finite differences of the gradient: {}",
            self.hessians
        );
        let others: usize = self.second.1.values().sum();
        println!(
            "_hessian/_hvp from the core form (tangent of the adjoint code): {} of {}",
            self.second.0,
            self.second.0 + others
        );
        let mut reasons: Vec<_> = self.second.1.iter().collect();
        reasons.sort_by_key(|(_, n)| std::cmp::Reverse(**n));
        for (why, n) in reasons.iter().take(4) {
            println!("    {n:4} on the generic body: {}", truncate(why, 100));
        }
        for (label, kinds) in KINDS {
            println!("{:<41}{}", format!("{label}:"), self.count(kinds));
        }
        let known: Vec<&str> = KINDS.iter().flat_map(|k| k.1.iter().copied()).collect();
        let other: Vec<&str> = self
            .runtime
            .keys()
            .map(String::as_str)
            .filter(|k| !known.contains(k))
            .collect();
        if !other.is_empty() {
            println!(
                "other failures at run time:            {}",
                self.count(&other)
            );
        }
        println!(
            "{:<41}{}",
            "process crashed or timed out in:",
            self.crashed.len()
        );
        for (kind, list) in &self.runtime {
            for (id, d) in list.iter().take(3) {
                println!("    {kind} {id}: {}", truncate(d, 300));
            }
        }
        self.tag_table();
        families::print(&self.fams);
        println!(
            "time: generate {:.1} s, compile {:.1} s, run {:.1} s",
            secs[0], secs[1], secs[2]
        );
        println!("failing bodies written to {}", self.out.display());
        self.decide(gate)
    }

    fn print_compile(&self) {
        let refused = self.macro_.iter().filter(|m| m.refusal).count();
        println!("bodies generated:                      {}", self.bodies);
        println!(
            "fail to compile plain (generator bug): {}",
            self.plain.len()
        );
        for (id, f, line) in self.plain.iter().take(5) {
            println!("    {id}: {} `{line}`", f.first.message);
        }
        println!(
            "compile plain, not under the macro:    {}",
            self.macro_.len()
        );
        println!("    documented refusals:               {refused}");
        self.categories(true);
        println!(
            "    other failures:                    {}",
            self.macro_.len() - refused
        );
        self.categories(false);
        if !self.batch_errors.is_empty() {
            println!(
                "errors blamed on no body (batches dropped): {}",
                self.batch_errors.len()
            );
            for d in self.batch_errors.iter().take(3) {
                println!("    {}", d.message.lines().next().unwrap_or(""));
            }
        }
    }

    /// The exit status: no wrong result of any kind, no generator bug, no macro failure
    /// the gate denies, every floor met. Prints the verdict and why.
    fn decide(&self, gate: &Gate) -> bool {
        let mut wrong: std::collections::BTreeSet<&str> = self
            .runtime
            .values()
            .flatten()
            .map(|(id, _)| id.as_str())
            .collect();
        wrong.extend(self.crashed.iter().map(String::as_str));
        let mut why = Vec::new();
        if !wrong.is_empty() {
            why.push(format!("{} bodies with wrong results", wrong.len()));
        }
        if !self.plain.is_empty() || !self.batch_errors.is_empty() {
            why.push("generator bugs".to_string());
        }
        let gated = self.gated(gate);
        if gated > 0 {
            why.push(format!("{gated} macro failures"));
        }
        why.extend(gate.floors(&self.fams));
        let ok = why.is_empty();
        println!(
            "gate ({}): {}",
            gate.describe(),
            if ok { "pass" } else { "FAIL" }
        );
        for w in &why {
            println!("    {w}");
        }
        ok
    }

    /// Macro failures the gate does not allow.
    fn gated(&self, gate: &Gate) -> usize {
        let known = |m: &&MacroFailure| m.line_tags.iter().any(|t| gate.known.contains(t));
        let others = self.macro_.iter().filter(|m| !m.refusal && !known(m));
        match &gate.macro_ {
            MacroGate::Allow => 0,
            MacroGate::Deny => others.count(),
            MacroGate::MustPass(tags) => others
                .filter(|m| !m.line_tags.is_empty() && m.line_tags.iter().all(|t| tags.contains(t)))
                .count(),
        }
    }

    /// Failure categories, most frequent first, with the first example of each.
    fn categories(&self, refusal: bool) {
        let mut cats: BTreeMap<&str, Vec<&MacroFailure>> = BTreeMap::new();
        for m in self.macro_.iter().filter(|m| m.refusal == refusal) {
            cats.entry(&m.category).or_default().push(m);
        }
        let mut cats: Vec<_> = cats.into_iter().collect();
        cats.sort_by_key(|(_, v)| std::cmp::Reverse(v.len()));
        for (cat, ms) in cats {
            let m = ms[0];
            println!("      {:4} {}", ms.len(), truncate(cat, 150));
            println!(
                "           e.g. {}: `{}`",
                m.id,
                truncate(&m.line_text, 140)
            );
            if !m.line_tags.is_empty() {
                println!(
                    "           constructs on that line: {}",
                    m.line_tags.join(" ")
                );
            }
            if refusal {
                println!("           {}", truncate(&m.message, 200));
            }
        }
    }

    /// Constructs by how often the bodies using them fail under the macro.
    fn tag_table(&self) {
        let mut rows: Vec<(&String, usize, usize)> = self
            .tag_bodies
            .iter()
            .filter(|(_, (n, _))| *n >= 5)
            .map(|(t, (n, f))| (t, *n, *f))
            .collect();
        rows.sort_by(|a, b| (b.2 * a.1).cmp(&(a.2 * b.1)));
        println!("constructs whose bodies fail under the macro most often (failing / bodies):");
        let line: Vec<String> = rows
            .iter()
            .take(12)
            .filter(|r| r.2 > 0)
            .map(|(t, n, f)| format!("{t} {f}/{n}"))
            .collect();
        println!("    {}", line.join(", "));
    }
}

/// `E0308: mismatched types (expected `S`, found `f64`)`, generated names masked.
fn category(region: &str, code: &str, d: &Diag) -> String {
    let label = d
        .label
        .as_deref()
        .filter(|l| !l.is_empty())
        .map(|l| format!(" ({})", normalize(l)))
        .unwrap_or_default();
    format!("{region}{code}: {}{label}", normalize(&d.message))
}

pub(crate) fn truncate(s: &str, n: usize) -> String {
    let s = s.replace('\n', " ");
    if s.chars().count() <= n {
        return s;
    }
    let mut t: String = s.chars().take(n).collect();
    t.push_str("...");
    t
}

/// A message with generated names and numbers masked, so that equal causes group:
/// `` cannot add `acc12` to `f64` `` and `` cannot add `acc3` to `f64` `` become one.
pub fn normalize(msg: &str) -> String {
    let first = msg.lines().next().unwrap_or("");
    let mut out = String::new();
    let mut word = String::new();
    let flush = |w: &mut String, out: &mut String| {
        let digits = w.trim_start_matches(|c: char| c.is_ascii_alphabetic() || c == '_');
        let generated = !w.is_empty()
            && !digits.is_empty()
            && digits.len() < w.len()
            && digits.bytes().all(|b| b.is_ascii_digit())
            && !matches!(
                w.as_str(),
                "f32" | "f64" | "i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64"
            );
        if generated {
            out.push('_');
        } else if !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()) {
            out.push('N');
        } else {
            out.push_str(w);
        }
        w.clear();
    };
    for c in first.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::normalize;

    #[test]
    fn generated_names_are_masked() {
        assert_eq!(
            normalize("cannot add `acc12` to `f64`"),
            normalize("cannot add `acc3` to `f64`")
        );
        assert_eq!(
            normalize("expected `f64`, found `S`"),
            "expected `f64`, found `S`"
        );
        assert_eq!(normalize("takes 2 arguments"), "takes N arguments");
    }
}
