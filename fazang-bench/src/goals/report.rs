//! The tables of the goal suites: every row of every workload as a ratio to the primal and
//! to the hand-written derivative (times are medians of interleaved samples, so a change
//! of load hits every row of a workload alike; absolute times on a shared machine are not
//! results), then the goals of issues 18 and 21 evaluated on those ratios.

use super::rows::*;
use crate::report::{time_all, time_of, Row};
use std::time::Duration;

/// `a / b`: two decimals, three significant digits below 0.1, or `-`.
fn ratio(a: Option<f64>, b: Option<f64>) -> String {
    match (a, b) {
        (Some(a), Some(b)) if a / b < 0.1 => format!("{:.2e}", a / b),
        (Some(a), Some(b)) => format!("{:.2}", a / b),
        _ => "-".into(),
    }
}

/// One goal: `num / den <= max` on `workload`, judged on the ratio as printed (two
/// decimals: 1.004 meets "no slower than", 1.005 does not).
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
    let rows = time_all(workloads, samples, batch);
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
fn wide(rows: &[Row], what: &str, den: &str, cols: &[&str]) {
    println!("Time / time of the {what}:\n");
    println!("| workload | inputs | calls | {} |", cols.join(" | "));
    println!("|---|---:|---:|{}", "---:|".repeat(cols.len()));
    for r in rows {
        let d = time_of(r, den);
        let cells: Vec<String> = cols.iter().map(|c| ratio(time_of(r, c), d)).collect();
        println!("| {} | {} | {} | {} |", r.0, r.1, r.2, cells.join(" | "));
    }
    println!();
}

/// One line per variant: time / primal, / hand-written, / fazang's gradient.
fn long(rows: &[Row]) {
    println!("Time / time of the primal, of the hand-written derivative and of `_grad`:\n");
    println!("| workload | inputs | calls | row | / primal | / hand | / _grad |");
    println!("|---|---:|---:|---|---:|---:|---:|");
    for r in rows {
        let (p, h, g) = (time_of(r, PRIMAL), time_of(r, HAND), time_of(r, GRAD));
        for &(name, t) in &r.3 {
            println!(
                "| {} | {} | {} | {name} | {} | {} | {} |",
                r.0,
                r.1,
                r.2,
                ratio(Some(t), p),
                ratio(Some(t), h),
                ratio(Some(t), g)
            );
        }
    }
    println!();
}

/// The goals whose workload was timed: measured ratio, target, met or missed.
fn goals(rows: &[Row], goals: &[Goal]) {
    println!("Goals:\n");
    println!("| workload | goal | measured | |");
    println!("|---|---|---:|---|");
    for g in goals {
        let Some(r) = rows.iter().find(|r| r.0 == g.workload) else {
            continue;
        };
        let (num, den) = (time_of(r, g.num), time_of(r, g.den));
        let verdict = match (num, den) {
            (Some(n), Some(d)) if (100.0 * n / d).round() / 100.0 <= g.max => "met",
            (Some(_), Some(_)) => "missed",
            (None, _) if [HESSIAN_SPARSE, JACOBIAN_SPARSE].contains(&g.num) => {
                "not built (feature `sparse`)"
            }
            _ => "row missing",
        };
        println!(
            "| {} | {} / {} <= {} | {} | {verdict} |",
            g.workload,
            g.num,
            g.den,
            g.max,
            ratio(num, den)
        );
    }
}
