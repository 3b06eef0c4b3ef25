//! The crate the mutants are checked in: each mutant a module of its own (the MGH ones
//! inside `problems`, beside the macros they use), checked with `cargo check
//! --message-format=json`; each error is given to the mutant whose file it names.
//! rustc reports the errors of every module in one run (borrow-check errors too, beside
//! type errors elsewhere), so a batch costs one check.

use super::scan;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Where a source file lives in the batch crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A module at the crate root (`tests/program_*.rs`, examples).
    Root,
    /// A module of `problems`, the MGH problems' shared module (`tests/mgh/*.rs`).
    Problems,
}

/// A mutant ready to be written: its module name, place and text.
pub struct Unit<'a> {
    pub id: String,
    pub place: Place,
    pub text: &'a str,
}

/// One error of a mutant.
#[derive(Clone, Debug)]
pub struct Error {
    /// rustc's JSON diagnostic.
    pub json: Value,
    pub rendered: String,
    /// Generated or hidden names it uses (see [`scan::Leaks`]).
    pub leaks: Vec<String>,
    /// Library names it uses that the user did not write.
    pub library: Vec<String>,
    pub at_attribute: bool,
}

/// The errors of a check, by mutant id, and those no mutant's file explains (rendered).
pub type Checked = (BTreeMap<String, Vec<Error>>, Vec<String>);

/// Paths of a batch.
pub struct Batch {
    pub dir: PathBuf,
    pub target: PathBuf,
    pub fazang: PathBuf,
}

impl Batch {
    /// Write the crate for `units`.
    fn write(&self, units: &[Unit]) -> std::io::Result<()> {
        let src = self.dir.join("src");
        if src.exists() {
            std::fs::remove_dir_all(&src)?;
        }
        for d in ["problems", "program_support", "support"] {
            std::fs::create_dir_all(src.join(d))?;
        }
        let root = self.fazang.to_string_lossy();
        let toml = format!(
            "[package]\nname = \"fazang-messages-batch\"\nversion = \"0.0.0\"\n\
             edition = \"2021\"\npublish = false\n\n[dependencies]\n\
             fazang = {{ path = {root:?} }}\nnum-traits = \"0.2\"\n\n[workspace]\n"
        );
        std::fs::write(self.dir.join("Cargo.toml"), toml)?;
        let lock = self.dir.join("Cargo.lock");
        if !lock.exists() {
            std::fs::copy(self.fazang.join("Cargo.lock"), &lock)?;
        }
        let tests = self.fazang.join("tests");
        // The programs' support module and the file it includes by path.
        for f in ["program_support/mod.rs", "support/close.rs"] {
            std::fs::copy(tests.join(f), src.join(f))?;
        }
        let mut lib =
            String::from("#![allow(warnings)]\npub mod program_support;\npub mod problems;\n");
        let mut problems = mgh_mod(&tests.join("mgh/mod.rs"))?;
        for u in units {
            let decl = format!("pub mod {};\n", u.id);
            let dir = match u.place {
                Place::Root => {
                    lib.push_str(&decl);
                    src.clone()
                }
                Place::Problems => {
                    problems.push_str(&decl);
                    src.join("problems")
                }
            };
            std::fs::write(dir.join(format!("{}.rs", u.id)), u.text)?;
        }
        std::fs::write(src.join("lib.rs"), lib)?;
        std::fs::write(src.join("problems/mod.rs"), problems)
    }

    /// Check `units`; the errors of each, by id (mutants without an error are absent).
    pub fn check(
        &self,
        units: &[Unit],
        user: &BTreeMap<String, std::collections::HashSet<String>>,
    ) -> std::io::Result<Checked> {
        self.write(units)?;
        let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["check", "--message-format=json", "--quiet"])
            .env("CARGO_TARGET_DIR", &self.target)
            .env_remove("FAZANG_MACRO_DEBUG")
            .current_dir(&self.dir)
            .stderr(Stdio::piped())
            .output()?;
        let mut by_id: BTreeMap<String, Vec<Error>> = BTreeMap::new();
        let mut unblamed = Vec::new();
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            let Ok(v) = serde_json::from_str::<Value>(line) else {
                continue;
            };
            let m = &v["message"];
            if v["reason"] != "compiler-message" || m["level"] != "error" {
                continue;
            }
            let rendered = m["rendered"].as_str().unwrap_or("").to_string();
            let Some(id) = mutant_of(m) else {
                if !m["message"]
                    .as_str()
                    .unwrap_or("")
                    .starts_with("aborting due to")
                {
                    unblamed.push(rendered);
                }
                continue;
            };
            let empty = Default::default();
            let l = scan::leaks(m, user.get(&id).unwrap_or(&empty));
            let e = Error {
                json: m.clone(),
                rendered,
                leaks: l.names,
                library: l.library,
                at_attribute: scan::at_attribute(m),
            };
            by_id.entry(id).or_default().push(e);
        }
        if !out.status.success() && by_id.is_empty() && unblamed.is_empty() {
            unblamed.push(String::from_utf8_lossy(&out.stderr).trim().to_string());
        }
        Ok((by_id, unblamed))
    }
}

/// `tests/mgh/mod.rs` without its module declarations (the mutants take their place).
fn mgh_mod(path: &Path) -> std::io::Result<String> {
    let text = std::fs::read_to_string(path)?;
    Ok(text
        .lines()
        .filter(|l| !(l.starts_with("pub mod ") && l.ends_with(';')))
        .map(|l| format!("{l}\n"))
        .collect())
}

/// The mutant a diagnostic belongs to: the first file of its spans (primary first, then
/// the macro expansions they come from, then the children's) that is a mutant's.
fn mutant_of(m: &Value) -> Option<String> {
    let spans = m["spans"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    let primary = spans.iter().filter(|s| s["is_primary"] == true);
    for s in primary.chain(spans.iter()) {
        let mut s = s;
        loop {
            if let Some(id) = s["file_name"].as_str().and_then(mutant_file) {
                return Some(id);
            }
            if !s["expansion"]["span"].is_object() {
                break;
            }
            s = &s["expansion"]["span"];
        }
    }
    let children = m["children"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    children.iter().find_map(mutant_of)
}

fn mutant_file(name: &str) -> Option<String> {
    let stem = Path::new(name).file_stem()?.to_str()?;
    let is =
        stem.len() == 6 && stem.starts_with('m') && stem[1..].bytes().all(|b| b.is_ascii_digit());
    is.then(|| stem.to_string())
}
