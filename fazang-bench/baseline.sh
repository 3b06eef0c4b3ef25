#!/bin/sh
# The goal suites (issues 18 and 21) under the default release profile and under
# `bench-lto` (thin LTO, one codegen unit), each run written to target/ratios-PROFILE-N.md.
# Usage: fazang-bench/baseline.sh [RUNS] [EXTRA RATIOS ARGS..], from the workspace root,
# e.g. `fazang-bench/baseline.sh 2` or `fazang-bench/baseline.sh 1 --features sparse`
# (cargo options after the run count go to `cargo run`).
set -e
runs=${1:-1}
[ $# -gt 0 ] && shift
for profile in release bench-lto; do
    cargo build --profile "$profile" -p fazang-bench --bin ratios "$@"
    for n in $(seq 1 "$runs"); do
        cargo run --profile "$profile" -p fazang-bench --bin ratios "$@" -- \
            --suite gradients --suite second > "target/ratios-$profile-$n.md"
        echo "wrote target/ratios-$profile-$n.md"
    done
done
