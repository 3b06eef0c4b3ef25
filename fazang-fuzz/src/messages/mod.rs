//! `fazang-fuzz messages`: do the messages a user reads speak the user's language?
//!
//! It takes the realistic programs (`tests/program_*.rs`, `tests/mgh/*.rs`, the examples),
//! makes one token-level mistake in an item under `#[differentiate]` or `#[deriv_rule]`
//! per mutant ([`mutate`]: a deleted token, `f64` -> `f32`, a wrong `wrt(..)`, a plain
//! `fn(f64) -> f64` helper called with an active value, `&'static [f64]`, a rule partial
//! in `f32`, a wrong return type, a missing `?`, ..), checks the mutants in batches
//! ([`build`]) and reads every error for names the user did not write ([`scan`]: `S`,
//! `__private`, `__fz*`, the hidden traits, the siblings' scalar types). It also counts
//! errors reported at the attribute as a whole rather than at a token of the user's.
//! Mutants with such messages are written to `OUT/leaks/` with their errors, and every
//! error to `OUT/errors.jsonl`.
//!
//! ```text
//! cargo run --release -p fazang-fuzz -- messages --mutations 2800 --seed 1
//! ```

mod build;
mod lex;
mod mutate;
mod scan;

use build::{Batch, Place, Unit};
use mutate::{MKind, Mutant};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

const USAGE: &str = "\
usage: fazang-fuzz messages [options]
  --mutations N     mutants to check (400)
  --seed S          seed of the run (1)
  --batch N         mutants per checked crate (150)
  --max-leaks N     fail if more mutants have an error naming what the user did not
                    write (0)
  --max-at-attribute N
                    fail if more mutants have an error reported at the attribute as a
                    whole (no limit)
  --show N          print the first N such errors in full (3)
  --out DIR         work directory (target/fazang-messages)
  --fazang DIR      the fazang checkout to test (the one this binary is in)";

struct Options {
    mutations: usize,
    seed: u64,
    batch: usize,
    max_leaks: usize,
    max_at_attribute: usize,
    show: usize,
    out: PathBuf,
    fazang: PathBuf,
}

fn parse(args: impl Iterator<Item = String>, root: PathBuf) -> Result<Options, String> {
    let mut o = Options {
        mutations: 400,
        seed: 1,
        batch: 150,
        max_leaks: 0,
        max_at_attribute: usize::MAX,
        show: 3,
        out: root.join("target").join("fazang-messages"),
        fazang: root,
    };
    let mut args = args;
    while let Some(a) = args.next() {
        let mut val = || args.next().ok_or(format!("{a} needs a value"));
        let num = |v: String| v.parse::<usize>().map_err(|e| format!("{a}: {e}"));
        match a.as_str() {
            "--mutations" => o.mutations = num(val()?)?,
            "--seed" => o.seed = num(val()?)? as u64,
            "--batch" => o.batch = num(val()?)?.max(1),
            "--max-leaks" => o.max_leaks = num(val()?)?,
            "--max-at-attribute" => o.max_at_attribute = num(val()?)?,
            "--show" => o.show = num(val()?)?,
            "--out" => o.out = std::path::absolute(val()?).map_err(|e| format!("--out: {e}"))?,
            "--fazang" => {
                o.fazang = std::path::absolute(val()?).map_err(|e| format!("--fazang: {e}"))?
            }
            "-h" | "--help" => return Err(USAGE.to_string()),
            _ => return Err(format!("unknown option {a}\n{USAGE}")),
        }
    }
    Ok(o)
}

/// A realistic program: its path (relative to the checkout), place and text as it goes
/// into the batch crate.
struct Source {
    path: String,
    place: Place,
    text: String,
}

/// The programs mutated: every one with a site, the examples that need no other crate.
fn sources(root: &Path) -> std::io::Result<Vec<Source>> {
    let mut out = Vec::new();
    let list = |dir: &str| -> std::io::Result<Vec<PathBuf>> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(root.join(dir))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "rs"))
            .collect();
        v.sort();
        Ok(v)
    };
    for p in list("tests")? {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.starts_with("program_") {
            let text = std::fs::read_to_string(&p)?
                .replace("mod program_support;", "use crate::program_support;");
            out.push(source(root, &p, Place::Root, text));
        }
    }
    for p in list("tests/mgh")? {
        if !p.ends_with("mod.rs") {
            out.push(source(
                root,
                &p,
                Place::Problems,
                std::fs::read_to_string(&p)?,
            ));
        }
    }
    for p in list("examples")? {
        let text = std::fs::read_to_string(&p)?;
        if !text.contains("argmin") && !text.contains("nuts_rs") {
            out.push(source(root, &p, Place::Root, text));
        }
    }
    out.retain(|s| {
        let toks = lex::lex(&s.text);
        !lex::sites(&s.text, &toks).is_empty()
    });
    Ok(out)
}

fn source(root: &Path, p: &Path, place: Place, text: String) -> Source {
    let path = p
        .strip_prefix(root)
        .unwrap_or(p)
        .to_string_lossy()
        .into_owned();
    Source { path, place, text }
}

/// One mutant and what checking it gave.
struct Case {
    id: String,
    source: usize,
    mutant: Mutant,
    errors: Vec<build::Error>,
}

/// The seed of mutant `i`: independent of how many mutants the run has.
fn mutant_seed(seed: u64, i: usize) -> u64 {
    let mut z = seed
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .wrapping_add(i as u64 + 1);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z ^ (z >> 31)
}

/// The mutants of a run: mutant `i` mutates source `i mod sources`; duplicates dropped.
fn cases(o: &Options, srcs: &[Source]) -> Vec<Case> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for i in 0..o.mutations {
        let source = i % srcs.len();
        let mut rng = fastrand::Rng::with_seed(mutant_seed(o.seed, i));
        let Some(mutant) = mutate::mutate(&srcs[source].text, &mut rng) else {
            continue;
        };
        if seen.insert(mutant.text.clone()) {
            out.push(Case {
                id: format!("m{i:05}"),
                source,
                mutant,
                errors: Vec::new(),
            });
        }
    }
    out
}

/// Check the cases batch by batch. A batch is checked again without the mutants that had
/// errors until a round reports none, so no mutant's errors go unseen behind another's.
fn check_all(o: &Options, srcs: &[Source], cases: &mut [Case]) -> std::io::Result<Vec<String>> {
    let batch = Batch {
        dir: o.out.join("crate"),
        target: o.out.join("target"),
        fazang: o.fazang.clone(),
    };
    let user: BTreeMap<String, HashSet<String>> = cases
        .iter()
        .map(|c| (c.id.clone(), scan::user_idents(&c.mutant.text)))
        .collect();
    let mut unblamed = Vec::new();
    let t = Instant::now();
    for chunk in cases.chunks_mut(o.batch) {
        let mut todo: Vec<usize> = (0..chunk.len()).collect();
        for _round in 0..4 {
            let units: Vec<Unit> = todo
                .iter()
                .map(|&k| Unit {
                    id: chunk[k].id.clone(),
                    place: srcs[chunk[k].source].place,
                    text: &chunk[k].mutant.text,
                })
                .collect();
            let (mut errs, un) = batch.check(&units, &user)?;
            unblamed.extend(un);
            if errs.is_empty() {
                break;
            }
            todo.retain(|&k| match errs.remove(&chunk[k].id) {
                Some(e) => {
                    chunk[k].errors = e;
                    false
                }
                None => true,
            });
        }
        eprintln!(
            "messages: checked up to {} ({:.0} s)",
            chunk.last().map_or("", |c| c.id.as_str()),
            t.elapsed().as_secs_f64()
        );
    }
    Ok(unblamed)
}

/// Entry point of the subcommand: `args` after `messages`. Whether the run passed.
pub fn main(args: impl Iterator<Item = String>, root: PathBuf) -> Result<bool, String> {
    let o = parse(args, root)?;
    let io = |e: std::io::Error| format!("fazang-fuzz messages: {e}");
    let srcs = sources(&o.fazang).map_err(io)?;
    if srcs.is_empty() {
        return Err("fazang-fuzz messages: no program to mutate".into());
    }
    let t = Instant::now();
    let mut cases = cases(&o, &srcs);
    let unblamed = check_all(&o, &srcs, &mut cases).map_err(io)?;
    let r = report(&o, &srcs, &cases, &unblamed, t.elapsed().as_secs_f64()).map_err(io)?;
    Ok(r)
}

#[derive(Default)]
struct Row {
    mutants: usize,
    failing: usize,
    errors: usize,
    leaking: usize,
    library: usize,
    at_attribute: usize,
}

impl Row {
    fn add(&mut self, c: &Case) {
        self.mutants += 1;
        self.failing += usize::from(!c.errors.is_empty());
        self.errors += c.errors.len();
        self.leaking += usize::from(c.errors.iter().any(|e| !e.leaks.is_empty()));
        self.library += usize::from(c.errors.iter().any(|e| !e.library.is_empty()));
        self.at_attribute += usize::from(c.errors.iter().any(|e| e.at_attribute));
    }
}

/// Print the summary, write the leaking mutants to `OUT/leaks/`; whether the gate passed.
fn report(
    o: &Options,
    srcs: &[Source],
    cases: &[Case],
    unblamed: &[String],
    secs: f64,
) -> std::io::Result<bool> {
    let mut total = Row::default();
    let mut kinds: BTreeMap<MKind, Row> = BTreeMap::new();
    let mut names: BTreeMap<&str, usize> = BTreeMap::new();
    let mut library: BTreeMap<&str, usize> = BTreeMap::new();
    for c in cases {
        total.add(c);
        kinds.entry(c.mutant.kind).or_default().add(c);
        for e in &c.errors {
            for n in &e.leaks {
                *names.entry(n).or_default() += 1;
            }
            for n in &e.library {
                *library.entry(n).or_default() += 1;
            }
        }
    }
    let leak_errors = cases
        .iter()
        .flat_map(|c| &c.errors)
        .filter(|e| !e.leaks.is_empty());
    println!(
        "messages: {} mutants of {} programs (seed {}), {:.0} s\n  {} with errors ({} errors), \
         {} compiled\n  naming what the user did not write: {} mutants ({} errors)\n  \
         naming a public name of fazang the user did not write: {} mutants\n  \
         reported at the attribute as a whole: {} mutants",
        cases.len(),
        srcs.len(),
        o.seed,
        secs,
        total.failing,
        total.errors,
        total.mutants - total.failing,
        total.leaking,
        leak_errors.count(),
        total.library,
        total.at_attribute,
    );
    println!(
        "  {:<14}{:>8}{:>8}{:>8}{:>9}{:>9}{:>9}",
        "kind", "mutants", "failing", "errors", "leaking", "library", "at-attr"
    );
    for (k, r) in &kinds {
        println!(
            "  {:<14}{:>8}{:>8}{:>8}{:>9}{:>9}{:>9}",
            k.name(),
            r.mutants,
            r.failing,
            r.errors,
            r.leaking,
            r.library,
            r.at_attribute
        );
    }
    for (what, names) in [("generated names", &names), ("library names", &library)] {
        if !names.is_empty() {
            let list: Vec<String> = names.iter().map(|(n, k)| format!("`{n}` {k}")).collect();
            println!("  {what} (errors naming each): {}", list.join(", "));
        }
    }
    write_leaks(o, srcs, cases)?;
    write_errors(o, srcs, cases)?;
    for u in unblamed.iter().take(3) {
        println!("unblamed error (no mutant's file):\n{u}");
    }
    let pass = total.leaking <= o.max_leaks && total.at_attribute <= o.max_at_attribute;
    if !pass {
        println!(
            "FAIL: more than --max-leaks {} / --max-at-attribute",
            o.max_leaks
        );
    }
    Ok(pass && unblamed.is_empty())
}

/// Each mutant with a leaking error or one at the attribute, as `OUT/leaks/ID.rs`: what
/// was changed, the errors, then the mutated program. The first `--show` are printed.
fn write_leaks(o: &Options, srcs: &[Source], cases: &[Case]) -> std::io::Result<()> {
    let dir = o.out.join("leaks");
    if dir.exists() {
        std::fs::remove_dir_all(&dir)?;
    }
    std::fs::create_dir_all(&dir)?;
    let mut shown = 0;
    for c in cases {
        let bad: Vec<&build::Error> = c
            .errors
            .iter()
            .filter(|e| !e.leaks.is_empty() || e.at_attribute)
            .collect();
        if bad.is_empty() {
            continue;
        }
        let head = format!(
            "{} {}:{} ({}: {})",
            c.id,
            srcs[c.source].path,
            c.mutant.line,
            c.mutant.kind.name(),
            c.mutant.what
        );
        let errs: String = bad.iter().map(|e| e.rendered.as_str()).collect();
        if shown < o.show && bad.iter().any(|e| !e.leaks.is_empty()) {
            println!("\n{head}\n{errs}");
            shown += 1;
        }
        let commented: String = errs.lines().map(|l| format!("// {l}\n")).collect();
        let text = format!("// {head}\n{commented}\n{}", c.mutant.text);
        std::fs::write(dir.join(format!("{}.rs", c.id)), text)?;
    }
    Ok(())
}

/// Every error of the run as one JSON object per line, `OUT/errors.jsonl` (the mutant, its
/// source and mistake, the names found, and rustc's diagnostic), for analysis.
fn write_errors(o: &Options, srcs: &[Source], cases: &[Case]) -> std::io::Result<()> {
    use std::io::Write;
    let mut f = std::io::BufWriter::new(std::fs::File::create(o.out.join("errors.jsonl"))?);
    for c in cases {
        for e in &c.errors {
            let line = serde_json::json!({
                "id": c.id,
                "source": srcs[c.source].path,
                "kind": c.mutant.kind.name(),
                "what": c.mutant.what,
                "leaks": e.leaks,
                "library": e.library,
                "at_attribute": e.at_attribute,
                "diag": e.json,
            });
            writeln!(f, "{line}")?;
        }
    }
    f.flush()
}
