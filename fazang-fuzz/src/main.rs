//! `fazang-fuzz`: a differential fuzzer for `#[differentiate]`.
//!
//! It generates random function bodies that are type-correct plain Rust by construction
//! ([`gen`]), writes each twice into a generated crate, plain and under
//! `#[differentiate(wrt(..))]` ([`emit`]), builds the crate in batches, dropping and
//! recording bodies that fail to compile ([`compile`]), and runs checks that compare the
//! primal bit for bit and the gradient with finite differences ([`harness`]). The summary
//! ([`report`]) counts each kind of failure; failing bodies are written to
//! `target/fazang-fuzz/failures/` so they can become regression tests.
//!
//! ```text
//! cargo run --release -p fazang-fuzz -- --bodies 2000 --seed 7
//! ```

mod compile;
mod emit;
mod gen;
#[allow(dead_code)]
mod harness;
mod report;

use report::{MacroGate, Report};
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
    gate: MacroGate,
    out: PathBuf,
    jobs: usize,
    timeout: u64,
    print: Option<usize>,
    fazang: PathBuf,
}

const USAGE: &str = "\
usage: fazang-fuzz [options]
  --bodies N              bodies to generate (200)
  --seed S                seed of the whole run (1)
  --batch N               bodies per generated crate (250)
  --points N              random points checked per body (4)
  --new-methods           also use % rem_euclid div_euclid to_degrees to_radians copysign
                          and clamp with active bounds on active values
  --allow-macro-failures  fail only on wrong results and generator bugs (default)
  --deny-macro-failures   also fail on any macro compile failure that is not a refusal
  --must-pass T1,T2       also fail on macro failures whose error line uses only these
                          constructs (the tags printed in the summary)
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
        gate: MacroGate::Allow,
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
        match a.as_str() {
            "--bodies" => o.bodies = num(val()?)? as usize,
            "--seed" => o.seed = num(val()?)?,
            "--batch" => o.batch = (num(val()?)? as usize).max(1),
            "--points" => o.points = num(val()?)? as usize,
            "--new-methods" => o.cfg.new_methods = true,
            "--allow-macro-failures" => o.gate = MacroGate::Allow,
            "--deny-macro-failures" => o.gate = MacroGate::Deny,
            "--must-pass" => {
                o.gate = MacroGate::MustPass(val()?.split(',').map(str::to_string).collect())
            }
            "--out" => o.out = PathBuf::from(val()?),
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

fn emit_body(o: &Options, i: usize) -> emit::Emitted {
    let s = body_seed(o.seed, i);
    emit::emit(&format!("b{i:05}"), s, gen::generate(s, o.cfg), o.points)
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
        let bodies: Vec<_> = (first..(first + o.batch).min(o.bodies))
            .map(|i| emit_body(o, i))
            .collect();
        secs[0] += t.elapsed().as_secs_f64();
        let t = Instant::now();
        let compile::Built {
            live,
            failed,
            unblamed,
        } = builder.build(&bodies)?;
        secs[1] += t.elapsed().as_secs_f64();
        let t = Instant::now();
        let out = if live.is_empty() {
            compile::RunOutput::default()
        } else {
            builder.run(live.len(), o.seed)?
        };
        secs[2] += t.elapsed().as_secs_f64();
        report.batch(&bodies, &failed, unblamed, &out)?;
        eprintln!(
            "batch {}..{}: {} compiled, {} dropped ({:.0} s so far)",
            first,
            first + bodies.len(),
            live.len(),
            failed.len(),
            t_all.elapsed().as_secs_f64()
        );
    }
    Ok(report.print(&o.gate, secs))
}

fn main() -> ExitCode {
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
