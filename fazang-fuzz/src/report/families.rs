//! Figures per family of bodies: how many compiled, were refused, ran, how many partials
//! and paths were checked, how many went wrong, and the adjoint coverage (bodies whose
//! `_grad` is adjoint code, as the macro states under `FAZANG_MACRO_DEBUG`) with the
//! reasons the others took the tape.

use crate::compile::GradPath;
use crate::gen::Family;
use std::collections::BTreeMap;

/// The counts of one family.
#[derive(Clone, Debug, Default)]
pub struct FamStats {
    pub bodies: usize,
    /// Failed to compile plain (generator bugs).
    pub plain: usize,
    /// Documented refusals of the macro.
    pub refused: usize,
    /// Other macro compile failures.
    pub macro_other: usize,
    /// Bodies whose checks ran.
    pub ran: usize,
    /// Partials compared with finite differences.
    pub partials: usize,
    /// Points where `_grad` was compared with the tape twin.
    pub paths: usize,
    /// Directional derivatives of `_jvp` compared.
    pub jvps: usize,
    /// Bodies with a wrong result (any failure at run time, or a crash).
    pub wrong: usize,
    /// Bodies that compiled under the macro.
    pub compiled: usize,
    /// Of those, the ones with a verdict from the macro, and with adjoint code.
    pub known: usize,
    pub adjoint: usize,
    /// Why the others took the tape, by reason.
    pub tape_reasons: BTreeMap<String, usize>,
}

impl FamStats {
    /// Record the macro's verdict on a body that compiled.
    pub fn verdict(&mut self, v: Option<&GradPath>) {
        self.compiled += 1;
        match v {
            Some(GradPath::Adjoint) => {
                self.known += 1;
                self.adjoint += 1;
            }
            Some(GradPath::Tape(why)) => {
                self.known += 1;
                *self.tape_reasons.entry(why.clone()).or_default() += 1;
            }
            None => {}
        }
    }

    /// The fraction of compiled bodies with adjoint code; `None` if some verdicts are
    /// missing.
    pub fn coverage(&self) -> Option<f64> {
        (self.known == self.compiled).then(|| self.adjoint as f64 / self.compiled.max(1) as f64)
    }

    /// The fraction of the family's bodies refused by the macro.
    pub fn refused_fraction(&self) -> f64 {
        self.refused as f64 / self.bodies.max(1) as f64
    }

    fn add(&mut self, o: &FamStats) {
        let n = [
            (&mut self.bodies, o.bodies),
            (&mut self.plain, o.plain),
            (&mut self.refused, o.refused),
            (&mut self.macro_other, o.macro_other),
            (&mut self.ran, o.ran),
            (&mut self.partials, o.partials),
            (&mut self.paths, o.paths),
            (&mut self.jvps, o.jvps),
            (&mut self.wrong, o.wrong),
            (&mut self.compiled, o.compiled),
            (&mut self.known, o.known),
            (&mut self.adjoint, o.adjoint),
        ];
        for (a, b) in n {
            *a += b;
        }
        for (k, v) in &o.tape_reasons {
            *self.tape_reasons.entry(k.clone()).or_default() += v;
        }
    }
}

fn coverage_cell(s: &FamStats) -> String {
    match s.coverage() {
        Some(c) => format!("{}/{} ({:.0}%)", s.adjoint, s.compiled, 100.0 * c),
        None => format!(
            "{}/{} (? {} unknown)",
            s.adjoint,
            s.compiled,
            s.compiled - s.known
        ),
    }
}

/// Print the per-family table, a total row, and the most frequent tape reasons of each
/// family.
pub fn print(fams: &BTreeMap<Family, FamStats>) {
    println!("per family:");
    println!(
        "    {:<10} {:>6} {:>6} {:>6} {:>6} {:>5} {:>8} {:>6} {:>6} {:>5}  adjoint coverage",
        "family", "bodies", "plain", "refus", "macro", "ran", "partials", "paths", "jvp", "wrong"
    );
    let mut total = FamStats::default();
    let mut rows: Vec<(&str, &FamStats)> = fams.iter().map(|(f, s)| (f.name(), s)).collect();
    for (_, s) in &rows {
        total.add(s);
    }
    if rows.len() > 1 {
        rows.push(("all", &total));
    }
    for (name, s) in rows {
        println!(
            "    {:<10} {:>6} {:>6} {:>6} {:>6} {:>5} {:>8} {:>6} {:>6} {:>5}  {}",
            name,
            s.bodies,
            s.plain,
            s.refused,
            s.macro_other,
            s.ran,
            s.partials,
            s.paths,
            s.jvps,
            s.wrong,
            coverage_cell(s)
        );
    }
    for (f, s) in fams {
        let mut reasons: Vec<(&String, &usize)> = s.tape_reasons.iter().collect();
        reasons.sort_by_key(|(_, n)| std::cmp::Reverse(**n));
        if reasons.is_empty() {
            continue;
        }
        println!("    {} took the tape for:", f.name());
        for (why, n) in reasons.iter().take(4) {
            println!("        {n:4} {}", super::truncate(why, 110));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coverage_needs_every_verdict() {
        let mut s = FamStats::default();
        s.verdict(Some(&GradPath::Adjoint));
        s.verdict(Some(&GradPath::Tape("`loop`".into())));
        assert_eq!(s.coverage(), Some(0.5));
        s.verdict(None);
        assert_eq!(s.coverage(), None);
        assert_eq!(s.tape_reasons["`loop`"], 1);
    }
}
