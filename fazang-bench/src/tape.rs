//! What fazang's tape holds for each workload, in bytes per recorded operation.

use fazang::prelude::*;
use fazang::TapeStats;

/// Tape contents when `f` has run on fresh variables at `x` (inside `gradient_into`, just
/// before the sweep; the input variables included).
pub fn stats_of(f: impl Fn(&[Var]) -> Var, x: &[f64]) -> TapeStats {
    let mut s = None;
    let mut g = vec![0.0; x.len()];
    gradient_into(
        |x| {
            let y = f(x);
            s = Some(tape_stats());
            y
        },
        x,
        &mut g,
    );
    let mut s = s.expect("the closure ran");
    let outer = tape_stats();
    s.nodes -= outer.nodes;
    s.operands -= outer.operands;
    s
}

/// Prints the bytes per binary operation and per workload.
pub fn print() {
    let n = 100_000;
    let x = vec![1.000_001; 2];
    let s = stats_of(
        |x| {
            let mut a = x[0];
            for _ in 0..n {
                a *= x[1];
            }
            a
        },
        &x,
    );
    let binary = s.nodes - 2;
    let recording = (s.operands - 2) * 12;
    println!(
        "\nTape size ({} chained binary products `a = a * b`):\n",
        binary
    );
    println!(
        "- recording arrays: {} bytes = {:.1} bytes per binary op (u32 index + f64 partial per \
         operand)",
        recording,
        recording as f64 / binary as f64
    );
    println!(
        "- plus the adjoint vector, sized at sweep time: 8 bytes per node = {:.1} bytes per \
         binary op in all",
        (recording + 8 * binary) as f64 / binary as f64
    );
}
