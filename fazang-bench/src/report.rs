//! The table printed by the `ratios` binary: every variant of every workload timed in one
//! run (median of interleaved samples), then the ratios the performance goals speak of.

use crate::names::*;
use crate::timer::median_times;
use crate::Workload;
use std::time::Duration;

/// Times the suites named in `suites` and the workloads named in `only` (everything when
/// both are empty) and prints the tables (markdown). `quick` takes fewer samples.
pub fn print(quick: bool, suites: &[String], only: &[String]) {
    let (samples, batch) = if quick {
        (5, Duration::from_millis(20))
    } else {
        (21, Duration::from_millis(50))
    };
    for s in suites {
        assert!(
            s == "classic" || s == "nalgebra" || crate::goals::SUITES.contains(&s.as_str()),
            "no suite called {s} (classic, nalgebra, {})",
            crate::goals::SUITES.join(", ")
        );
    }
    let everything = suites.is_empty() && only.is_empty();
    let whole_classic = everything || suites.iter().any(|s| s == "classic");
    let mut named: Vec<String> = only
        .iter()
        .filter(|n| crate::goals::suite_of(n).is_none())
        .filter(|n| !whole_classic || crate::NALGEBRA.contains(&n.as_str()))
        .cloned()
        .collect();
    if everything || suites.iter().any(|s| s == "nalgebra") {
        named.extend(crate::NALGEBRA.iter().map(|n| n.to_string()));
        named.dedup();
    }
    if whole_classic || !named.is_empty() {
        print_classic(whole_classic, &named, samples, batch);
    }
    for suite in crate::goals::SUITES {
        let whole = everything || suites.iter().any(|s| s == suite);
        let names: Vec<&str> = crate::goals::names(suite)
            .iter()
            .copied()
            .filter(|n| whole || only.iter().any(|o| o == n))
            .collect();
        if !names.is_empty() {
            crate::goals::report::print_suite(suite, &names, samples, batch);
        }
    }
}

/// The classic suite (`all`) and the classic-style workloads `named` (the `nalgebra`
/// suite's, or any named on the command line), times and ratios.
fn print_classic(all: bool, named: &[String], samples: usize, batch: Duration) {
    let named = named
        .iter()
        .map(|n| crate::by_name(n).unwrap_or_else(|| panic!("no workload called {n}")));
    let (mut gradients, mut hessians) = if all {
        (crate::all(), crate::hessians())
    } else {
        (Vec::new(), Vec::new())
    };
    for w in named {
        if w.name.starts_with("hessian") {
            hessians.push(w);
        } else {
            gradients.push(w);
        }
    }
    let rows = time_all(gradients, samples, batch);
    let hrows = time_all(hessians, samples, batch);
    let (bodies, rows): (Vec<Row>, Vec<Row>) = rows
        .into_iter()
        .partition(|r| time_of(r, FAZANG_MULTI_NORMAL).is_some());
    let (linalg, rows): (Vec<Row>, Vec<Row>) = rows
        .into_iter()
        .partition(|r| time_of(r, FAZANG_FUSED).is_some());
    if !rows.is_empty() {
        print_times(&rows);
        print_ratios(&rows);
    }
    if !linalg.is_empty() {
        print_linalg(&linalg);
    }
    if !bodies.is_empty() {
        print_bodies(&bodies);
    }
    if !hrows.is_empty() {
        print_hessians(&hrows);
    }
    crate::tape::print();
}

/// Time every variant of every workload.
fn time_all(workloads: Vec<Workload>, samples: usize, batch: Duration) -> Vec<Row> {
    let mut rows = Vec::new();
    for mut w in workloads {
        let mut runs: Vec<&mut dyn FnMut() -> f64> = w
            .variants
            .iter_mut()
            .map(|v| &mut *v.run as &mut dyn FnMut() -> f64)
            .collect();
        let t = median_times(&mut runs, samples, batch);
        let per_call: Vec<(&'static str, f64)> = w
            .variants
            .iter()
            .zip(t)
            .map(|(v, t)| (v.name, t / w.calls as f64))
            .collect();
        rows.push((w.name, w.inputs, w.calls, per_call));
        eprintln!("timed {}", w.name);
    }
    rows
}

type Row = (&'static str, usize, usize, Vec<(&'static str, f64)>);

fn time_of(r: &Row, name: &str) -> Option<f64> {
    r.3.iter().find(|(n, _)| *n == name).map(|&(_, t)| t)
}

/// Seconds in a readable unit.
pub fn fmt_time(t: f64) -> String {
    if t < 1e-6 {
        format!("{:.1} ns", t * 1e9)
    } else if t < 1e-3 {
        format!("{:.2} µs", t * 1e6)
    } else {
        format!("{:.2} ms", t * 1e3)
    }
}

const COLUMNS: [&str; 8] = [
    PRIMAL,
    HAND,
    GRAD_MACRO,
    FAZANG,
    FAZANG_LPDF,
    NUM_DUAL,
    ECHIDNA,
    AD_TRAIT,
];

fn print_times(rows: &[Row]) {
    println!("\nTime per call (median):\n");
    println!("| workload | inputs | {} |", COLUMNS.join(" | "));
    println!("|---|---:|{}", "---:|".repeat(COLUMNS.len()));
    for r in rows {
        let cells: Vec<String> = COLUMNS
            .iter()
            .map(|c| time_of(r, c).map_or("-".into(), fmt_time))
            .collect();
        println!("| {} | {} | {} |", r.0, r.1, cells.join(" | "));
    }
}

fn ratio(a: Option<f64>, b: Option<f64>) -> String {
    match (a, b) {
        (Some(a), Some(b)) => format!("{:.2}", a / b),
        _ => "-".into(),
    }
}

fn print_ratios(rows: &[Row]) {
    println!(
        "\nRatios (fazang = its fastest row: `_grad`, `normal_lpdf` or the runtime driver):\n"
    );
    println!(
        "| workload | fazang row | fazang / primal | fazang / hand | num-dual / fazang | \
         echidna / fazang | ad_trait / fazang | fazang - primal per call |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|");
    for r in rows {
        let fz = [GRAD_MACRO, FAZANG_LPDF, FAZANG]
            .iter()
            .filter_map(|&n| time_of(r, n).map(|t| (n, t)))
            .min_by(|a, b| a.1.total_cmp(&b.1));
        let (name, fz) = (fz.map_or("-", |f| f.0), fz.map(|f| f.1));
        let p = time_of(r, PRIMAL);
        let over = match (fz, p) {
            (Some(f), Some(p)) if r.2 > 1 => fmt_time(f - p),
            _ => "-".into(),
        };
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            r.0,
            name,
            ratio(fz, p),
            ratio(fz, time_of(r, HAND)),
            ratio(time_of(r, NUM_DUAL), fz),
            ratio(time_of(r, ECHIDNA), fz),
            ratio(time_of(r, AD_TRAIT), fz),
            over
        );
    }
}

const HESSIAN_COLUMNS_: [&str; 9] = [
    PRIMAL,
    HAND,
    GRADIENT,
    HESSIAN_GENERATED,
    HESSIAN,
    HESSIAN_FWD,
    HESSIAN_COLUMNS,
    NUM_DUAL,
    ECHIDNA,
];

fn print_hessians(rows: &[Row]) {
    println!("\nHessians, time per call (median):\n");
    println!("| workload | inputs | {} |", HESSIAN_COLUMNS_.join(" | "));
    println!("|---|---:|{}", "---:|".repeat(HESSIAN_COLUMNS_.len()));
    for r in rows {
        let cells: Vec<String> = HESSIAN_COLUMNS_
            .iter()
            .map(|c| time_of(r, c).map_or("-".into(), fmt_time))
            .collect();
        println!("| {} | {} | {} |", r.0, r.1, cells.join(" | "));
    }
    println!(
        "\n| workload | generated / gradient | generated / hand | num-dual / generated | \
         hessian / gradient | hessian_forward / gradient | num-dual / hessian | \
         num-dual / hessian_forward | echidna (FoR) / hessian |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for r in rows {
        let (h, hf, g) = (
            time_of(r, HESSIAN),
            time_of(r, HESSIAN_FWD),
            time_of(r, GRADIENT),
        );
        let nd = time_of(r, NUM_DUAL);
        let gen = time_of(r, HESSIAN_GENERATED);
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.0,
            ratio(gen, g),
            ratio(gen, time_of(r, HAND)),
            ratio(nd, gen),
            ratio(h, g),
            ratio(hf, g),
            ratio(nd, h),
            ratio(nd, hf),
            ratio(time_of(r, ECHIDNA), h)
        );
    }
}

/// The linear-algebra workloads: fused nodes against scalar taping (and num-dual).
fn print_linalg(rows: &[Row]) {
    const COLS: [&str; 5] = [PRIMAL, HAND, FAZANG_FUSED, FAZANG_TAPED, NUM_DUAL];
    println!("\nLinear algebra, time per gradient (median):\n");
    println!(
        "| workload | inputs | {} | taped / fused | num-dual / fused | fused / primal |",
        COLS.join(" | ")
    );
    println!("|---|---:|{}---:|---:|---:|", "---:|".repeat(COLS.len()));
    for r in rows {
        let cells: Vec<String> = COLS
            .iter()
            .map(|c| time_of(r, c).map_or("-".into(), fmt_time))
            .collect();
        let fused = time_of(r, FAZANG_FUSED);
        println!(
            "| {} | {} | {} | {} | {} | {} |",
            r.0,
            r.1,
            cells.join(" | "),
            ratio(time_of(r, FAZANG_TAPED), fused),
            ratio(time_of(r, NUM_DUAL), fused),
            ratio(fused, time_of(r, PRIMAL)),
        );
    }
}

/// nalgebra inside `#[differentiate]` bodies (the `mvn` workloads): the three bodies'
/// `_grad_into` against the primal, the hand-written gradient and the peers.
fn print_bodies(rows: &[Row]) {
    const COLS: [&str; 7] = [
        PRIMAL,
        HAND,
        FAZANG_FUSED,
        FAZANG_TAPED,
        FAZANG_MULTI_NORMAL,
        NUM_DUAL,
        ECHIDNA,
    ];
    println!("\nnalgebra in `#[differentiate]` bodies, time per gradient (median):\n");
    println!("| workload | inputs | {} |", COLS.join(" | "));
    println!("|---|---:|{}", "---:|".repeat(COLS.len()));
    for r in rows {
        let cells: Vec<String> = COLS
            .iter()
            .map(|c| time_of(r, c).map_or("-".into(), fmt_time))
            .collect();
        println!("| {} | {} | {} |", r.0, r.1, cells.join(" | "));
    }
    println!(
        "\n| workload | fused / primal | fused / hand | multi_normal / hand | taped / fused | \
         num-dual / fused | echidna / fused |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for r in rows {
        let fused = time_of(r, FAZANG_FUSED);
        println!(
            "| {} | {} | {} | {} | {} | {} | {} |",
            r.0,
            ratio(fused, time_of(r, PRIMAL)),
            ratio(fused, time_of(r, HAND)),
            ratio(time_of(r, FAZANG_MULTI_NORMAL), time_of(r, HAND)),
            ratio(time_of(r, FAZANG_TAPED), fused),
            ratio(time_of(r, NUM_DUAL), fused),
            ratio(time_of(r, ECHIDNA), fused),
        );
    }
}
