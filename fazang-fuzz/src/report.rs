//! Collecting outcomes over all batches, writing failing bodies to disk, printing the
//! summary and deciding the exit status (the gate).

use crate::compile::{CompileFailure, Diag, RunOutput};
use crate::emit::{Emitted, Region};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::PathBuf;

/// Which macro compile failures fail the run.
#[derive(Clone, Debug)]
pub enum MacroGate {
    /// None (only wrong results and generator bugs fail).
    Allow,
    /// Every failure that is not a documented refusal.
    Deny,
    /// Failures whose error line uses only these constructs (tags).
    MustPass(BTreeSet<String>),
}

/// Messages of the macro's own refusals (`compile_error!`, no error code) contain one of
/// these; everything else is a failure of the macro.
const REFUSAL_MARKERS: &[&str] = &["#[differentiate]", "differentiate", "derivative"];

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
    unverified: usize,
    tag_bodies: BTreeMap<String, (usize, usize)>,
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

    /// Record one batch: its compile failures, errors blamed on no body, and run output.
    pub fn batch(
        &mut self,
        bodies: &[Emitted],
        failed: &BTreeMap<String, CompileFailure>,
        batch_errors: Vec<Diag>,
        run: &RunOutput,
    ) -> std::io::Result<()> {
        self.bodies += bodies.len();
        self.batch_errors.extend(batch_errors);
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
                self.save(b, "plain", &detail)?;
                self.plain
                    .push((b.id.clone(), f.clone(), b.line(f.line).to_string()));
                continue;
            }
            let refusal = f.first.code.is_none()
                && REFUSAL_MARKERS.iter().any(|m| f.first.message.contains(m));
            self.save(b, if refusal { "refused" } else { "macro" }, &detail)?;
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
                line_tags: b.line_tags.get(f.line - 1).cloned().unwrap_or_default(),
                message: f.first.message.clone(),
            });
        }
        self.runtime_lines(bodies, run)
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
                ["BODY", _, checked, skipped, nonfinite, _] => {
                    self.ran += 1;
                    let n = |s: &str| {
                        s.split('=')
                            .nth(1)
                            .and_then(|v| v.parse().ok())
                            .unwrap_or(0)
                    };
                    let c: usize = n(checked);
                    self.points[0] += c;
                    self.points[1] += n(skipped);
                    self.points[2] += n(nonfinite);
                    self.unverified += (c == 0) as usize;
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
    pub fn print(&self, gate: &MacroGate, secs: [f64; 3]) -> bool {
        let refused = self.macro_.iter().filter(|m| m.refusal).count();
        let macro_other = self.macro_.len() - refused;
        let primal = self.count(&["primal", "grad-value", "ad-panic"]);
        let gradient = self.count(&["gradient", "grad-shape", "grad-panic"]);
        let plain_panics = self.count(&["plain-panic"]);
        println!("\n== fazang-fuzz summary ==");
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
        println!("    other failures:                    {macro_other}");
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
        println!("bodies run:                            {}", self.ran);
        println!(
            "partials checked: {}, skipped as not smooth: {}, points not finite: {}, bodies with no partial checked: {}",
            self.points[0], self.points[1], self.points[2], self.unverified
        );
        println!("primal not bit-identical:              {primal}");
        println!("gradients disagreeing with reference:  {gradient}");
        println!("plain function panicked (generator bug): {plain_panics}");
        println!(
            "process crashed or timed out in:       {}",
            self.crashed.len()
        );
        for (kind, list) in &self.runtime {
            for (id, d) in list.iter().take(3) {
                println!("    {kind} {id}: {}", truncate(d, 300));
            }
        }
        self.tag_table();
        println!(
            "time: generate {:.1} s, compile {:.1} s, run {:.1} s",
            secs[0], secs[1], secs[2]
        );
        println!("failing bodies written to {}", self.out.display());
        let wrong = primal + gradient + plain_panics + self.crashed.len();
        let gated = self.gated(gate);
        let ok = wrong == 0 && self.plain.is_empty() && self.batch_errors.is_empty() && gated == 0;
        println!(
            "gate ({}): {}",
            gate_name(gate),
            if ok { "pass" } else { "FAIL" }
        );
        ok
    }

    /// Macro failures the gate does not allow.
    fn gated(&self, gate: &MacroGate) -> usize {
        let others = self.macro_.iter().filter(|m| !m.refusal);
        match gate {
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

fn gate_name(g: &MacroGate) -> String {
    match g {
        MacroGate::Allow => "wrong results and generator bugs".into(),
        MacroGate::Deny => "also every macro failure that is not a refusal".into(),
        MacroGate::MustPass(t) => {
            let t: Vec<&str> = t.iter().map(String::as_str).collect();
            format!("also macro failures on lines using only: {}", t.join(" "))
        }
    }
}

fn truncate(s: &str, n: usize) -> String {
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
