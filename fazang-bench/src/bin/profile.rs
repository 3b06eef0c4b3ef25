//! Runs one variant of one workload in a loop, for profilers (callgrind, perf):
//! `profile WORKLOAD VARIANT [REPEATS]`.

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (w, v) = (&args[1], &args[2]);
    let reps: usize = args
        .get(3)
        .map_or(100, |r| r.parse().expect("REPEATS is a number"));
    let mut wl = fazang_bench::by_name(w).expect("no such workload");
    let run = &mut wl.variant_mut(v).expect("no such variant").run;
    let mut acc = 0.0;
    let start = std::time::Instant::now();
    for _ in 0..reps {
        acc += run();
    }
    let per = start.elapsed().as_secs_f64() / reps as f64;
    eprintln!("{w} {v}: {} per run", fazang_bench::report::fmt_time(per));
    println!("{acc}");
}
