//! The gate: which outcomes fail the run. Always: a wrong result of any kind (primal,
//! gradient against finite differences, adjoint code against the tape twin, forward mode
//! against reverse mode, panics, crashes) and generator bugs. By option: macro compile
//! failures ([`MacroGate`]) and floors per family, so that the gate cannot pass by
//! checking nothing: a least number of partials checked, a largest fraction of bodies
//! refused, a least adjoint coverage.

use super::families::FamStats;
use crate::gen::Family;
use std::collections::{BTreeMap, BTreeSet};

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

/// Everything that decides the exit status besides wrong results and generator bugs.
#[derive(Clone, Debug)]
pub struct Gate {
    pub macro_: MacroGate,
    /// Known macro failures: a failure whose error line carries one of these construct
    /// tags does not fail the run (it is still counted and written out).
    pub known: BTreeSet<String>,
    /// Each family checks at least this many partials against finite differences.
    pub min_partials: usize,
    /// In each family, at most this fraction of the bodies is refused by the macro.
    pub max_refused: f64,
    /// The least adjoint coverage of each family (`None`: of the families not named).
    pub min_adjoint: BTreeMap<Option<Family>, f64>,
}

impl Default for Gate {
    fn default() -> Gate {
        Gate {
            macro_: MacroGate::Allow,
            known: BTreeSet::new(),
            min_partials: 0,
            max_refused: 1.0,
            min_adjoint: BTreeMap::new(),
        }
    }
}

/// `0.5` (every family) or `mutate=0.6,integrate=0.5,0.2` (named ones, and the others).
pub fn parse_min_adjoint(s: &str) -> Result<BTreeMap<Option<Family>, f64>, String> {
    let mut out = BTreeMap::new();
    for part in s.split(',').filter(|p| !p.is_empty()) {
        let (fam, val) = match part.split_once('=') {
            Some((f, v)) => {
                let f = Family::parse(f).ok_or(format!("--min-adjoint: no family {f}"))?;
                (Some(f), v)
            }
            None => (None, part),
        };
        let v: f64 = val
            .parse()
            .map_err(|e| format!("--min-adjoint: {val}: {e}"))?;
        if !(0.0..=1.0).contains(&v) {
            return Err(format!("--min-adjoint: {v} is not a fraction in [0, 1]"));
        }
        out.insert(fam, v);
    }
    Ok(out)
}

impl Gate {
    /// The least adjoint coverage asked of family `f`.
    fn min_adjoint_of(&self, f: Family) -> f64 {
        let default = self.min_adjoint.get(&None).copied().unwrap_or(0.0);
        self.min_adjoint.get(&Some(f)).copied().unwrap_or(default)
    }

    /// Why the families' figures fail the floors (empty: they pass).
    pub fn floors(&self, fams: &BTreeMap<Family, FamStats>) -> Vec<String> {
        let mut out = Vec::new();
        for (f, s) in fams {
            let name = f.name();
            if s.partials < self.min_partials {
                out.push(format!(
                    "{name}: {} partials checked, fewer than --min-partials {}",
                    s.partials, self.min_partials
                ));
            }
            if s.refused_fraction() > self.max_refused {
                out.push(format!(
                    "{name}: {} of {} bodies refused, more than --max-refused {}",
                    s.refused, s.bodies, self.max_refused
                ));
            }
            let want = self.min_adjoint_of(*f);
            if want > 0.0 {
                match s.coverage() {
                    None => out.push(format!(
                        "{name}: adjoint coverage unknown ({} of {} verdicts read from \
                         FAZANG_MACRO_DEBUG), --min-adjoint {want} asked",
                        s.known, s.compiled
                    )),
                    Some(c) if c < want => out.push(format!(
                        "{name}: adjoint coverage {c:.2} below --min-adjoint {want}"
                    )),
                    _ => {}
                }
            }
        }
        out
    }

    /// The gate in words.
    pub fn describe(&self) -> String {
        let mut s = match &self.macro_ {
            MacroGate::Allow => "wrong results and generator bugs".to_string(),
            MacroGate::Deny => "also every macro failure that is not a refusal".to_string(),
            MacroGate::MustPass(t) => {
                let t: Vec<&str> = t.iter().map(String::as_str).collect();
                format!("also macro failures on lines using only: {}", t.join(" "))
            }
        };
        if !self.known.is_empty() {
            let k: Vec<&str> = self.known.iter().map(String::as_str).collect();
            s.push_str(&format!(" but known failures on {}", k.join(" ")));
        }
        let mut floors = Vec::new();
        if self.min_partials > 0 {
            floors.push(format!("partials >= {}", self.min_partials));
        }
        if self.max_refused < 1.0 {
            floors.push(format!("refused <= {}", self.max_refused));
        }
        for (f, v) in &self.min_adjoint {
            let f = f.map_or("others", Family::name);
            floors.push(format!("adjoint({f}) >= {v}"));
        }
        if !floors.is_empty() {
            s.push_str(&format!("; per family {}", floors.join(", ")));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fam(partials: usize, refused: usize, adjoint: usize) -> BTreeMap<Family, FamStats> {
        let s = FamStats {
            bodies: 10,
            refused,
            partials,
            compiled: 10 - refused,
            known: 10 - refused,
            adjoint,
            ..FamStats::default()
        };
        BTreeMap::from([(Family::Mutate, s)])
    }

    #[test]
    fn floors_fail_an_empty_or_refused_run() {
        let g = Gate {
            min_partials: 100,
            max_refused: 0.2,
            min_adjoint: parse_min_adjoint("0.5").unwrap(),
            ..Gate::default()
        };
        assert!(g.floors(&fam(500, 1, 8)).is_empty());
        assert_eq!(g.floors(&fam(0, 1, 8)).len(), 1, "no partial checked");
        let all_refused = g.floors(&fam(500, 10, 0));
        assert!(all_refused
            .iter()
            .any(|w| w.contains("10 of 10 bodies refused")));
        assert_eq!(g.floors(&fam(500, 1, 2)).len(), 1, "coverage 2/9");
        let mut unknown = fam(500, 0, 5);
        unknown.get_mut(&Family::Mutate).unwrap().known = 3;
        assert_eq!(g.floors(&unknown).len(), 1, "coverage unknown");
        assert!(Gate::default().floors(&fam(0, 10, 0)).is_empty());
    }

    #[test]
    fn min_adjoint_per_family() {
        let m = parse_min_adjoint("mutate=0.6,0.1").unwrap();
        let g = Gate {
            min_adjoint: m,
            ..Gate::default()
        };
        assert_eq!(g.min_adjoint_of(Family::Mutate), 0.6);
        assert_eq!(g.min_adjoint_of(Family::Classic), 0.1);
        assert!(parse_min_adjoint("nope=0.5").is_err());
        assert!(parse_min_adjoint("1.5").is_err());
    }
}
