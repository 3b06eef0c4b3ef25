//! `fazang-fuzz`: a differential fuzzer for `#[differentiate]`.
//!
//! It generates random function bodies that are type-correct plain Rust by construction
//! ([`gen`]), writes each twice into a generated crate, plain and under
//! `#[differentiate(wrt(..))]` ([`emit`]), builds the crate in batches, dropping and
//! recording bodies that fail to compile ([`compile`]), and runs checks that compare the
//! primal bit for bit, the gradient with finite differences, the adjoint code with the
//! tape and forward mode with reverse mode ([`harness`]). Bodies come in families
//! ([`gen::Family`]): the classic mix of the body language and the mutation-heavy ones.
//! The summary ([`report`]) counts each kind of failure, per family too, with the adjoint
//! coverage; failing bodies are written to `target/fazang-fuzz/failures/` so they can
//! become regression tests.
//!
//! ```text
//! cargo run --release -p fazang-fuzz -- --bodies 2000 --seed 7
//! ```
//!
//! `fazang-fuzz messages` ([`messages`]) is another tool: token-level mistakes in the
//! realistic programs, checked for error messages naming what the user did not write.

mod compile;
mod emit;
mod gen;
#[allow(dead_code)]
mod harness;
mod messages;
mod report;

use report::{Gate, MacroGate, Report};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Command-line options.
struct Options {
    bodies: usize,
    seed: u64,
    batch: usize,
    points: usize,
    cfg: gen::GenConfig,
    families: Vec<gen::Family>,
    gate: Gate,
    out: PathBuf,
    jobs: usize,
    timeout: u64,
    print: Option<usize>,
    fazang: PathBuf,
}

const USAGE: &str = "\
usage: fazang-fuzz [options]   (or: fazang-fuzz messages --help)
  --bodies N              bodies to generate (200)
  --seed S                seed of the whole run (1)
  --batch N               bodies per generated crate (250)
  --points N              random points checked per body (4)
  --families F1,F2        families of bodies, taken in turn (classic): classic mutate
                          integrate swap arrays, or all
  --data-states           mutation families: also data locals updated in place and used as
                          factors (let mut k = 1.0; .. y *= k; k += 1.0;), wrong today
  --new-methods           also use % rem_euclid div_euclid to_degrees to_radians copysign
                          and clamp with active bounds on active values
  --allow-macro-failures  fail only on wrong results and generator bugs (default)
  --deny-macro-failures   also fail on any macro compile failure that is not a refusal
  --must-pass T1,T2       also fail on macro failures whose error line uses only these
                          constructs (the tags printed in the summary)
  --known-failures T1,T2  macro failures whose error line uses one of these constructs
                          do not fail the run (known bugs, still reported)
  --min-partials N        fail if a family checks fewer partials against finite
                          differences (0)
  --max-refused F         fail if a family has a larger fraction of bodies refused by the
                          macro (1)
  --min-adjoint F|FAM=F,..  fail if a family's adjoint coverage (bodies whose _grad is
                          adjoint code) is lower, or unknown (0)
  --out DIR               work directory (target/fazang-fuzz)
  --jobs N                cargo build jobs (2)
  --timeout SECS          limit for running one batch's checks (300)
  --print N               print body N of this seed as generated, and exit
  --fazang DIR            the fazang checkout to test (the one this binary is in)";

fn parse() -> Result<Options, String> {
    let root = workspace_root();
    let mut o = Options {
        bodies: 200,
        seed: 1,
        batch: 250,
        points: 4,
        cfg: gen::GenConfig::default(),
        families: vec![gen::Family::Classic],
        gate: Gate::default(),
        out: root.join("target").join("fazang-fuzz"),
        jobs: 2,
        timeout: 300,
        print: None,
        fazang: root,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || args.next().ok_or(format!("{a} needs a value"));
        let num = |v: String| v.parse::<u64>().map_err(|e| format!("{a}: {e}"));
        let frac = |v: String| match v.parse::<f64>() {
            Ok(f) if (0.0..=1.0).contains(&f) => Ok(f),
            _ => Err(format!("{a}: {v} is not a fraction in [0, 1]")),
        };
        match a.as_str() {
            "--bodies" => o.bodies = num(val()?)? as usize,
            "--seed" => o.seed = num(val()?)?,
            "--batch" => o.batch = (num(val()?)? as usize).max(1),
            "--points" => o.points = num(val()?)? as usize,
            "--new-methods" => o.cfg.new_methods = true,
            "--data-states" => o.cfg.data_states = true,
            "--families" => o.families = families(&val()?)?,
            "--allow-macro-failures" => o.gate.macro_ = MacroGate::Allow,
            "--deny-macro-failures" => o.gate.macro_ = MacroGate::Deny,
            "--must-pass" => {
                o.gate.macro_ = MacroGate::MustPass(val()?.split(',').map(str::to_string).collect())
            }
            "--known-failures" => o.gate.known = val()?.split(',').map(str::to_string).collect(),
            "--min-partials" => o.gate.min_partials = num(val()?)? as usize,
            "--max-refused" => o.gate.max_refused = frac(val()?)?,
            "--min-adjoint" => o.gate.min_adjoint = report::parse_min_adjoint(&val()?)?,
            // Absolute: the batch crate is built from its own directory.
            "--out" => o.out = std::path::absolute(val()?).map_err(|e| format!("--out: {e}"))?,
            "--jobs" => o.jobs = num(val()?)? as usize,
            "--timeout" => o.timeout = num(val()?)?,
            "--print" => o.print = Some(num(val()?)? as usize),
            "--fazang" => o.fazang = PathBuf::from(val()?),
            "-h" | "--help" => return Err(USAGE.to_string()),
            _ => return Err(format!("unknown option {a}\n{USAGE}")),
        }
    }
    Ok(o)
}

/// `mutate,integrate` or `all`.
fn families(s: &str) -> Result<Vec<gen::Family>, String> {
    if s == "all" {
        return Ok(gen::Family::ALL.to_vec());
    }
    s.split(',')
        .map(|f| gen::Family::parse(f).ok_or(format!("--families: no family {f}\n{USAGE}")))
        .collect()
}

/// The fazang workspace this binary was built from (the generated crates depend on it).
fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("fazang-fuzz lives inside the workspace")
        .to_path_buf()
}

/// The seed of body `i`: independent of how many bodies the run has.
fn body_seed(seed: u64, i: usize) -> u64 {
    let mut z = seed
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .wrapping_add(i as u64 + 1);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z ^ (z >> 31)
}

/// Body `i`: the families take turns.
fn emit_body(o: &Options, i: usize) -> emit::Emitted {
    let s = body_seed(o.seed, i);
    let cfg = gen::GenConfig {
        family: o.families[i % o.families.len()],
        ..o.cfg
    };
    emit::emit(&format!("b{i:05}"), s, gen::generate(s, cfg), o.points)
}

fn run(o: &Options) -> std::io::Result<bool> {
    let builder = compile::Builder {
        dir: o.out.join("crate"),
        target: o.out.join("target"),
        root: o.fazang.clone(),
        jobs: o.jobs,
        timeout: Duration::from_secs(o.timeout),
    };
    let mut report = Report::new(o.out.clone())?;
    let mut secs = [0.0; 3];
    let t_all = Instant::now();
    for first in (0..o.bodies).step_by(o.batch) {
        let t = Instant::now();
        let mut bodies: Vec<_> = (first..(first + o.batch).min(o.bodies))
            .map(|i| emit_body(o, i))
            .collect();
        secs[0] += t.elapsed().as_secs_f64();
        let t = Instant::now();
        let built = builder.build(&mut bodies)?;
        secs[1] += t.elapsed().as_secs_f64();
        let t = Instant::now();
        let out = if built.live.is_empty() {
            compile::RunOutput::default()
        } else {
            builder.run(built.live.len(), o.seed)?
        };
        secs[2] += t.elapsed().as_secs_f64();
        eprintln!(
            "batch {}..{}: {} compiled, {} dropped ({:.0} s so far)",
            first,
            first + bodies.len(),
            built.live.len(),
            built.failed.len(),
            t_all.elapsed().as_secs_f64()
        );
        report.batch(&bodies, built, &out)?;
    }
    Ok(report.print(&o.gate, secs))
}

fn main() -> ExitCode {
    if std::env::args().nth(1).as_deref() == Some("messages") {
        return match messages::main(std::env::args().skip(2), workspace_root()) {
            Ok(true) => ExitCode::SUCCESS,
            Ok(false) => ExitCode::FAILURE,
            Err(e) => {
                eprintln!("{e}");
                ExitCode::from(2)
            }
        };
    }
    let o = match parse() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    if let Some(i) = o.print {
        print!("{}", emit_body(&o, i).text);
        return ExitCode::SUCCESS;
    }
    match run(&o) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("fazang-fuzz: {e}");
            ExitCode::from(2)
        }
    }
}
