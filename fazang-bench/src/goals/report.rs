//! The tables of the goal suites: every row of every workload as a ratio to the primal and
//! to the hand-written derivative, then the goals of issues 18 and 21 evaluated on those
//! ratios. Absolute times on a shared machine are not results; ratios are. The rows of a
//! workload are sampled in rounds (one sample of each row per round), so a ratio is taken
//! sample by sample between measurements made close in time, and reported as the median
//! of those paired ratios; the goals also show their quartiles, and a goal whose quartiles
//! straddle the target is reported as within the noise rather than met or missed.

use super::rows::*;
use crate::timer::sample_times;
use crate::Workload;
use std::time::Duration;

/// A ratio: two decimals, three significant digits below 0.1, or `-`.
fn fmt(r: Option<f64>) -> String {
    match r {
        Some(r) if r < 0.1 => format!("{r:.2e}"),
        Some(r) => format!("{r:.2}"),
        None => "-".into(),
    }
}

/// A timed workload: every sample of every row, seconds per `run`.
struct Timed {
    name: &'static str,
    inputs: usize,
    calls: usize,
    rows: Vec<(&'static str, Vec<f64>)>,
}

impl Timed {
    /// `num / den` sample by sample (same round), sorted; `None` if a row is missing.
    fn paired(&self, num: &str, den: &str) -> Option<Vec<f64>> {
        let get = |n: &str| self.rows.iter().find(|r| r.0 == n).map(|r| &r.1);
        let (a, b) = (get(num)?, get(den)?);
        let mut r: Vec<f64> = a.iter().zip(b).map(|(a, b)| a / b).collect();
        r.sort_by(f64::total_cmp);
        Some(r)
    }

    /// The median of the paired ratios `num / den`.
    fn ratio(&self, num: &str, den: &str) -> Option<f64> {
        self.paired(num, den).map(|r| r[r.len() / 2])
    }
}

/// Times every row of every workload (`samples` rounds).
fn time(workloads: Vec<Workload>, samples: usize, batch: Duration) -> Vec<Timed> {
    workloads
        .into_iter()
        .map(|mut w| {
            let mut runs: Vec<&mut dyn FnMut() -> f64> = w
                .variants
                .iter_mut()
                .map(|v| &mut *v.run as &mut dyn FnMut() -> f64)
                .collect();
            let t = sample_times(&mut runs, samples, batch);
            eprintln!("timed {}", w.name);
            Timed {
                name: w.name,
                inputs: w.inputs,
                calls: w.calls,
                rows: w.variants.iter().map(|v| v.name).zip(t).collect(),
            }
        })
        .collect()
}

/// One goal: `num / den <= max` on `workload`.
pub struct Goal {
    /// The workload.
    pub workload: &'static str,
    /// The row timed.
    pub num: &'static str,
    /// The row it is compared with.
    pub den: &'static str,
    /// The largest ratio that meets the goal.
    pub max: f64,
}

const fn goal(workload: &'static str, num: &'static str, den: &'static str, max: f64) -> Goal {
    Goal {
        workload,
        num,
        den,
        max,
    }
}

/// Issue 18's goals, on every workload of the `gradients` suite: `_grad` <= 3x the
/// primal and <= 1.5x the hand-written gradient, `_grad_into` no slower than `_grad`,
/// `_grad` faster than num-dual and echidna.
pub fn gradient_goals() -> Vec<Goal> {
    super::gradients::NAMES
        .iter()
        .flat_map(|&w| {
            [
                goal(w, GRAD, PRIMAL, 3.0),
                goal(w, GRAD, HAND, 1.5),
                goal(w, GRAD_INTO, GRAD, 1.0),
                goal(w, GRAD, NUM_DUAL, 1.0),
                goal(w, GRAD, ECHIDNA, 1.0),
            ]
        })
        .collect()
}

/// Issue 21's goals.
pub const SECOND_GOALS: [Goal; 13] = [
    goal("hessian_dense20", HESSIAN, HAND, 5.0),
    goal("hessian_dense20", HESSIAN, NUM_DUAL, 1.0),
    goal("hessian_dense20", HESSIAN, ECHIDNA_HESSIAN, 1.0),
    goal("hessian_six", HESSIAN, HAND, 5.0),
    goal("hvp_dense20", HVP, GRAD, 4.0),
    goal("hvp_dense20", HVP, NUM_DUAL_FOF, 1.0),
    goal("hessian_ext_rosenbrock", HESSIAN_SPARSE, GRAD, 10.0),
    goal(
        "hessian_ext_rosenbrock",
        HESSIAN_SPARSE,
        ECHIDNA_SPARSE,
        1.0,
    ),
    goal(
        "hessian_ext_rosenbrock",
        HESSIAN_SPARSE,
        ECHIDNA_SPARSE_VEC,
        1.0,
    ),
    goal("jacobian_bratu", JACOBIAN_SPARSE, PRIMAL, 10.0),
    goal("jacobian_bratu", JACOBIAN_SPARSE, ECHIDNA_SPARSE, 1.0),
    goal("jacobian_bratu", JACOBIAN_SPARSE, ECHIDNA_SPARSE_VEC, 1.0),
    goal("jacobian_layer", JACOBIAN, PRIMAL, 5.0),
];

/// The columns of the `gradients` suite's tables.
const GRADIENT_COLUMNS: [&str; 6] = [HAND, GRAD, GRAD_INTO, TAPE, NUM_DUAL, ECHIDNA];

/// Times the workloads `names` of `suite` and prints its tables and goals (markdown).
pub fn print_suite(suite: &str, names: &[&str], samples: usize, batch: Duration) {
    let workloads = names
        .iter()
        .map(|n| super::by_name(n).unwrap_or_else(|| panic!("no workload called {n}")))
        .collect();
    let rows = time(workloads, samples, batch);
    match suite {
        "gradients" => {
            println!("\n### Suite `gradients` (issue 18)\n");
            wide(&rows, "primal", PRIMAL, &GRADIENT_COLUMNS);
            wide(&rows, "hand-written gradient", HAND, &GRADIENT_COLUMNS[1..]);
            goals(&rows, &gradient_goals());
        }
        _ => {
            println!("\n### Suite `second` (issue 21)\n");
            long(&rows);
            goals(&rows, &SECOND_GOALS);
        }
    }
}

/// One row per workload, one column per variant: time / time of `den`.
fn wide(rows: &[Timed], what: &str, den: &str, cols: &[&str]) {
    println!("Time / time of the {what} (median of paired samples):\n");
    println!("| workload | inputs | calls | {} |", cols.join(" | "));
    println!("|---|---:|---:|{}", "---:|".repeat(cols.len()));
    for r in rows {
        let cells: Vec<String> = cols.iter().map(|c| fmt(r.ratio(c, den))).collect();
        println!(
            "| {} | {} | {} | {} |",
            r.name,
            r.inputs,
            r.calls,
            cells.join(" | ")
        );
    }
    println!();
}

/// One line per variant: time / primal, / hand-written, / fazang's gradient.
fn long(rows: &[Timed]) {
    println!(
        "Time / time of the primal, of the hand-written derivative and of `_grad` (median of \
         paired samples):\n"
    );
    println!("| workload | inputs | calls | row | / primal | / hand | / _grad |");
    println!("|---|---:|---:|---|---:|---:|---:|");
    for r in rows {
        for (name, _) in &r.rows {
            println!(
                "| {} | {} | {} | {name} | {} | {} | {} |",
                r.name,
                r.inputs,
                r.calls,
                fmt(r.ratio(name, PRIMAL)),
                fmt(r.ratio(name, HAND)),
                fmt(r.ratio(name, GRAD))
            );
        }
    }
    println!();
}

/// The goals whose workload was timed: the median paired ratio, its quartiles, and met,
/// missed, or within the noise (the quartiles straddle the target).
fn goals(rows: &[Timed], goals: &[Goal]) {
    println!("Goals (paired ratios: median, and quartiles):\n");
    println!("| workload | goal | median | quartiles | |");
    println!("|---|---|---:|---:|---|");
    for g in goals {
        let Some(r) = rows.iter().find(|r| r.name == g.workload) else {
            continue;
        };
        let paired = r.paired(g.num, g.den);
        let (median, quartiles, verdict) = match &paired {
            Some(p) => {
                let (q1, m, q3) = (p[p.len() / 4], p[p.len() / 2], p[3 * p.len() / 4]);
                let verdict = if q3 <= g.max {
                    "met"
                } else if q1 > g.max {
                    "missed"
                } else if m <= g.max {
                    "within noise (median met)"
                } else {
                    "within noise (median missed)"
                };
                let q = format!("{} – {}", fmt(Some(q1)), fmt(Some(q3)));
                (fmt(Some(m)), q, verdict)
            }
            None if [HESSIAN_SPARSE, JACOBIAN_SPARSE].contains(&g.num) => {
                ("-".into(), "-".into(), "not built (feature `sparse`)")
            }
            None => ("-".into(), "-".into(), "row missing"),
        };
        println!(
            "| {} | {} / {} <= {} | {median} | {quartiles} | {verdict} |",
            g.workload, g.num, g.den, g.max
        );
    }
}
