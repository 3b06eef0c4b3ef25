//! Building a batch of bodies: write the crate, run `cargo build` with JSON diagnostics,
//! attribute each error to a body (by the file of its span) and a half (`plain`, `ad`,
//! `check`, by line), drop the failing bodies and build again until the rest compiles;
//! then run the checks, restarting after a body that crashes the process.
//!
//! The build runs with `FAZANG_MACRO_DEBUG=1`, under which the macro states for each
//! function whether its `_grad` is adjoint code or the tape (and why): [`verdicts`] reads
//! those lines back, one per body, for the adjoint coverage.

use crate::emit::{self, Emitted, Region};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A compiler error, reduced to what the report needs.
#[derive(Clone, Debug)]
pub struct Diag {
    pub code: Option<String>,
    pub message: String,
    /// The label of the primary span (`expected `S`, found `f64``), if any.
    pub label: Option<String>,
    /// `bNNNNN` and 1-based line of the span that names a body file, if any.
    pub at: Option<(String, usize)>,
    pub rendered: String,
}

/// Why a body left the batch before running.
#[derive(Clone, Debug)]
pub struct CompileFailure {
    pub region: Region,
    pub first: Diag,
    pub line: usize,
}

/// Paths and settings of the build.
pub struct Builder {
    pub dir: PathBuf,
    pub target: PathBuf,
    pub root: PathBuf,
    pub jobs: usize,
    pub timeout: Duration,
}

/// What the macro made of a body's `_grad`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GradPath {
    /// Adjoint code.
    Adjoint,
    /// The tape, for this reason (the macro's words).
    Tape(String),
}

/// The outcome of building a batch.
pub struct Built {
    /// Bodies that compiled.
    pub live: Vec<String>,
    /// The path of each live body's `_grad`, when the macro's debug output could be read
    /// (one verdict per live body, in order).
    pub paths: Option<BTreeMap<String, GradPath>>,
    /// Live bodies whose `_hessian`/`_hvp` come from the core form, and the reasons of
    /// the others (the macro's debug lines).
    pub second: (usize, Vec<String>),
    /// Bodies that did not, with their first error.
    pub failed: BTreeMap<String, CompileFailure>,
    /// Errors no body could be blamed for (the batch was given up).
    pub unblamed: Vec<Diag>,
}

/// What a run printed, per body.
#[derive(Default, Debug)]
pub struct RunOutput {
    pub lines: Vec<String>,
    /// Bodies that ended the process (crash, abort, timeout).
    pub crashed: Vec<String>,
}

impl Builder {
    /// Write the crate for `bodies` (the files of every body, `main.rs` for `live`).
    fn write(&self, bodies: &[Emitted], live: &[&str]) -> std::io::Result<()> {
        let src = self.dir.join("src");
        if src.exists() {
            std::fs::remove_dir_all(&src)?;
        }
        std::fs::create_dir_all(&src)?;
        let root = self.root.to_string_lossy();
        std::fs::write(self.dir.join("Cargo.toml"), emit::cargo_toml(&root))?;
        let lock = self.dir.join("Cargo.lock");
        if !lock.exists() {
            // The workspace's lock, so the batch resolves to the same versions offline.
            std::fs::copy(self.root.join("Cargo.lock"), &lock)?;
        }
        std::fs::write(src.join("harness.rs"), include_str!("harness.rs"))?;
        std::fs::create_dir_all(src.join("harness"))?;
        std::fs::write(
            src.join("harness").join("second.rs"),
            include_str!("harness/second.rs"),
        )?;
        for b in bodies.iter().filter(|b| live.contains(&b.id.as_str())) {
            std::fs::write(src.join(format!("{}.rs", b.id)), &b.text)?;
        }
        std::fs::write(src.join("main.rs"), emit::main_rs(live))
    }

    /// Run `cargo <cmd>` on the batch crate; the errors it reported and its stderr (where
    /// the macro's debug lines go).
    fn cargo(&self, cmd: &str) -> std::io::Result<(bool, Vec<Diag>, String)> {
        let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .arg(cmd)
            .arg("--message-format=json")
            .arg("--quiet")
            .env("CARGO_TARGET_DIR", &self.target)
            .env("CARGO_BUILD_JOBS", self.jobs.to_string())
            .env("FAZANG_MACRO_DEBUG", "1")
            .env("FAZANG_HESSIAN_TWIN", "1")
            .current_dir(&self.dir)
            .stderr(Stdio::piped())
            .output()?;
        let mut diags = Vec::new();
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            let Ok(v) = serde_json::from_str::<Value>(line) else {
                continue;
            };
            if v["reason"] == "compiler-message" && v["message"]["level"] == "error" {
                diags.push(diag(&v["message"]));
            }
        }
        if !out.status.success() && diags.is_empty() {
            diags.push(Diag {
                code: None,
                message: String::from_utf8_lossy(&out.stderr).trim().to_string(),
                label: None,
                at: None,
                rendered: String::new(),
            });
        }
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        Ok((out.status.success(), diags, stderr))
    }

    /// Build `bodies`, dropping the ones that do not compile (a body whose check cannot
    /// find the tape twin is emitted again without it). Errors no body can be blamed for
    /// fail the whole batch.
    pub fn build(&self, bodies: &mut [Emitted]) -> std::io::Result<Built> {
        let mut live: Vec<String> = bodies.iter().map(|b| b.id.clone()).collect();
        let mut failed = BTreeMap::new();
        // `cargo build` stops before code generation when there are errors, so a failing
        // round costs what `cargo check` would, and the last round needs no second pass.
        let stderr = loop {
            let refs: Vec<&str> = live.iter().map(String::as_str).collect();
            self.write(bodies, &refs)?;
            let (ok, diags, stderr) = self.cargo("build")?;
            if ok {
                break stderr;
            }
            let missing = missing_twin(bodies, &diags);
            let blamed = attribute(bodies, &diags);
            if blamed.is_empty() {
                return Ok(Built {
                    live: Vec::new(),
                    paths: None,
                    second: (0, Vec::new()),
                    failed,
                    unblamed: diags,
                });
            }
            for (id, f) in blamed {
                match bodies.iter_mut().find(|b| b.id == id) {
                    Some(b) if missing.contains(&id) && b.twin => b.drop_twin(),
                    _ => {
                        live.retain(|l| *l != id);
                        failed.insert(id, f);
                    }
                }
            }
        };
        let paths = verdicts(&stderr, &live);
        Ok(Built {
            live,
            paths,
            second: second_orders(&stderr),
            failed,
            unblamed: Vec::new(),
        })
    }

    /// Run the built checks, restarting after a body that ends the process.
    pub fn run(&self, n: usize, seed: u64) -> std::io::Result<RunOutput> {
        let exe = self.target.join("debug").join(exe_name());
        let mut out = RunOutput::default();
        let mut start = 0;
        while start < n {
            let (lines, finished) = self.run_from(&exe, start, seed)?;
            let last = lines.iter().rev().find_map(|l| start_line(l));
            let done = lines.last().is_some_and(|l| l.starts_with("BODY"));
            out.lines.extend(lines);
            match (finished && done, last) {
                (false, Some((id, i))) => {
                    out.crashed.push(id);
                    start = i + 1;
                }
                _ => break,
            }
        }
        Ok(out)
    }

    /// One run from body index `start`: its lines and whether it exited normally.
    fn run_from(
        &self,
        exe: &Path,
        start: usize,
        seed: u64,
    ) -> std::io::Result<(Vec<String>, bool)> {
        let mut child = Command::new(exe)
            .arg(start.to_string())
            .arg(seed.to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let reader = std::thread::spawn(move || {
            BufReader::new(stdout)
                .lines()
                .map_while(Result::ok)
                .collect::<Vec<_>>()
        });
        let t0 = Instant::now();
        let status = loop {
            if let Some(s) = child.try_wait()? {
                break Some(s);
            }
            if t0.elapsed() > self.timeout {
                child.kill()?;
                child.wait()?;
                break None;
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let lines = reader.join().unwrap_or_default();
        Ok((lines, status.is_some_and(|s| s.success())))
    }
}

/// Bodies whose first error in their check is that `ad::__f_grad_tape` does not exist.
fn missing_twin(bodies: &[Emitted], diags: &[Diag]) -> Vec<String> {
    let mut out = Vec::new();
    for d in diags {
        let Some((id, line)) = &d.at else { continue };
        let Some(b) = bodies.iter().find(|b| &b.id == id) else {
            continue;
        };
        if b.region(*line) == Region::Check && b.line(*line).contains("__f_grad_tape") {
            out.push(id.clone());
        }
    }
    out
}

/// The macro's verdict on each live body's `f`, from its `FAZANG_MACRO_DEBUG` lines
/// (`#[differentiate] f: adjoint code`, `#[differentiate] f: tape; adjoint code lacks
/// ..`), in the order rustc expands the bodies: that of `main.rs`, the order of `live`.
/// `None` unless there is exactly one verdict per live body.
pub fn verdicts(stderr: &str, live: &[String]) -> Option<BTreeMap<String, GradPath>> {
    let found: Vec<GradPath> = stderr
        .lines()
        .filter_map(|l| {
            let rest = l.trim().strip_prefix("#[differentiate] f: ")?;
            if rest == "adjoint code" {
                return Some(GradPath::Adjoint);
            }
            let why = rest.strip_prefix("tape")?;
            let why = why.trim_start_matches(';').trim();
            Some(GradPath::Tape(
                why.strip_prefix("adjoint code lacks ")
                    .unwrap_or(why)
                    .to_string(),
            ))
        })
        .collect();
    (found.len() == live.len()).then(|| live.iter().cloned().zip(found).collect())
}

/// How many bodies' `f` have second derivatives from the core form, and why the others
/// run the generic body (`#[differentiate] f: second order ..` lines).
pub fn second_orders(stderr: &str) -> (usize, Vec<String>) {
    let mut core = 0;
    let mut generic = Vec::new();
    for l in stderr.lines() {
        let Some(rest) = l.trim().strip_prefix("#[differentiate] f: second order ") else {
            continue;
        };
        if rest == "from the core form" {
            core += 1;
        } else if let Some(why) = rest.strip_prefix("on the generic body") {
            generic.push(why.trim_start_matches(';').trim().to_string());
        }
    }
    (core, generic)
}

/// `START\tid\tindex` as `(id, index)`.
fn start_line(l: &str) -> Option<(String, usize)> {
    let mut f = l.split('\t');
    if f.next() != Some("START") {
        return None;
    }
    Some((f.next()?.to_string(), f.next()?.parse().ok()?))
}

fn exe_name() -> String {
    format!("fazang-fuzz-batch{}", std::env::consts::EXE_SUFFIX)
}

/// Reduce a rustc JSON message to a [`Diag`]: the first span in a body file, searched in
/// the primary spans, their macro expansions, then every span and child.
fn diag(m: &Value) -> Diag {
    let mut spans: Vec<&Value> = Vec::new();
    collect_spans(m, &mut spans);
    let at = spans.iter().find_map(|s| body_span(s));
    let label = m["spans"]
        .as_array()
        .and_then(|s| s.iter().find(|s| s["is_primary"] == true))
        .and_then(|s| s["label"].as_str())
        .map(str::to_string);
    Diag {
        code: m["code"]["code"].as_str().map(str::to_string),
        message: m["message"].as_str().unwrap_or("").to_string(),
        label,
        at,
        rendered: m["rendered"].as_str().unwrap_or("").to_string(),
    }
}

fn collect_spans<'v>(m: &'v Value, out: &mut Vec<&'v Value>) {
    let spans = m["spans"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    let primary = spans.iter().filter(|s| s["is_primary"] == true);
    for s in primary.chain(spans.iter()) {
        let mut s = s;
        out.push(s);
        while let Some(e) = s["expansion"]["span"]
            .as_object()
            .map(|_| &s["expansion"]["span"])
        {
            out.push(e);
            s = e;
        }
    }
    for c in m["children"].as_array().map(Vec::as_slice).unwrap_or(&[]) {
        collect_spans(c, out);
    }
}

fn body_span(s: &Value) -> Option<(String, usize)> {
    let file = s["file_name"].as_str()?;
    let name = Path::new(file).file_stem()?.to_str()?;
    let is_body =
        name.len() > 1 && name.starts_with('b') && name[1..].bytes().all(|c| c.is_ascii_digit());
    let line = s["line_start"].as_u64()? as usize;
    is_body.then(|| (name.to_string(), line))
}

/// Blame each error on a body; a body's failure is its first error in the plainest region
/// (an error in `plain` makes it a generator bug whatever `ad` says).
fn attribute(bodies: &[Emitted], diags: &[Diag]) -> BTreeMap<String, CompileFailure> {
    let mut out: BTreeMap<String, CompileFailure> = BTreeMap::new();
    for d in diags {
        let Some((id, line)) = &d.at else { continue };
        let Some(b) = bodies.iter().find(|b| &b.id == id) else {
            continue;
        };
        let region = b.region(*line);
        let f = CompileFailure {
            region,
            first: d.clone(),
            line: *line,
        };
        match out.get(id) {
            Some(old) if old.region <= region => {}
            _ => {
                out.insert(id.clone(), f);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{verdicts, GradPath};

    #[test]
    fn verdicts_are_read_in_order_and_only_when_complete() {
        let stderr = "#[differentiate] h0: adjoint code\n\
                      #[differentiate] f:\nlet x = ..;\n\
                      #[differentiate] f: tape; adjoint code lacks `loop`\n\
                      #[differentiate] f:\n\
                      #[differentiate] f: adjoint code\nfn body() {}\n";
        let live = vec!["b00001".to_string(), "b00004".to_string()];
        let v = verdicts(stderr, &live).expect("one verdict per body");
        assert_eq!(v["b00001"], GradPath::Tape("`loop`".into()));
        assert_eq!(v["b00004"], GradPath::Adjoint);
        assert!(verdicts(stderr, &live[..1]).is_none());
        assert!(verdicts("", &live).is_none());
    }
}
