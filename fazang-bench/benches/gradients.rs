//! Criterion benchmarks: one group per workload, every variant side by side (primal,
//! hand-written, fazang `_grad`, fazang runtime driver, num-dual, echidna, ad_trait).
//! Short runs, so the whole suite takes a few minutes:
//! `cargo bench -p fazang-bench` (add a workload name to run one group).
//! The goal suites (`gradients`, `second`) follow the classic workloads. The one-table
//! summary is the `ratios` binary.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use std::time::Duration;

fn workloads(c: &mut Criterion) {
    let goals = fazang_bench::goals::SUITES
        .into_iter()
        .flat_map(fazang_bench::goals::names)
        .map(|n| fazang_bench::goals::by_name(n).expect("a goal workload"));
    for mut w in fazang_bench::all().into_iter().chain(goals) {
        let mut group = c.benchmark_group(w.name);
        group
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2))
            .sample_size(20);
        for v in &mut w.variants {
            let run = &mut v.run;
            group.bench_function(v.name, |b| b.iter(|| black_box(run())));
        }
        group.finish();
    }
}

criterion_group!(benches, workloads);
criterion_main!(benches);
