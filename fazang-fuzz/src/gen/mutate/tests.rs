//! The printer keeps the meaning of the tree, and bodies of every family are Rust that
//! parses, reproducible from their seed, and read every value they update.

use super::ast::{Cond, Ex, Ix};
use crate::gen::{Family, GenConfig};

fn generate(seed: u64, family: Family) -> crate::gen::Body {
    let cfg = GenConfig {
        family,
        data_states: seed.is_multiple_of(2),
        ..GenConfig::default()
    };
    super::generate(seed, cfg)
}

const NEW: [Family; 4] = [
    Family::Mutate,
    Family::Integrate,
    Family::Swap,
    Family::Arrays,
];

#[test]
fn precedence_and_casts_print_as_rust_reads_them() {
    let (v, w) = (Ex::name("v"), Ex::name("w"));
    let scaled = Ex::lit("0.5", 0.5).bin('*', v.clone());
    assert_eq!(scaled.clone().bin('*', w.clone()).code(), "0.5 * v * w");
    assert_eq!(w.clone().bin('*', scaled.clone()).code(), "w * (0.5 * v)");
    let diff = v.clone().bin('-', w.clone());
    assert_eq!(v.clone().bin('-', diff.clone()).code(), "v - (v - w)");
    assert_eq!(diff.clone().bin('-', v.clone()).code(), "v - w - v");
    assert_eq!(diff.call("sin").code(), "(v - w).sin()");
    let k = Ex::Cast(Ix::Name("k".into()));
    assert_eq!(k.clone().bin('*', v.clone()).code(), "k as f64 * v");
    assert_eq!(k.clone().neg().code(), "-(k as f64)");
    assert_eq!(
        Ex::Cast(Ix::Wrap("i".into(), 3)).code(),
        "((i + 1) % 3) as f64"
    );
    let c = Cond::Cmp(k.bin('*', v.clone()), "<", Ex::lit("1.0", 1.0));
    assert_eq!(c.code(), "(k as f64 * v) < 1.0");
    assert_eq!(scaled.neg().code(), "-(0.5 * v)");
}

#[test]
fn bodies_parse_and_are_reproducible() {
    for fam in NEW {
        for seed in 0..150 {
            let b = generate(seed, fam);
            let text = &b.func.text;
            if let Err(e) = syn::parse_file(text) {
                panic!("{} seed {seed}: {e}\n{text}", fam.name());
            }
            assert_eq!(generate(seed, fam).func.text, *text, "seed {seed}");
            assert_eq!(b.func.line_tags.len(), text.lines().count());
            assert_eq!(b.family, fam);
        }
    }
}

#[test]
fn the_result_reads_every_updated_value() {
    for fam in NEW {
        for seed in 0..100 {
            let text = generate(seed, fam).func.text;
            let lines: Vec<&str> = text.lines().collect();
            let tail = lines[lines.len() - 2];
            for l in &lines {
                let Some(rest) = l.trim().strip_prefix("let mut ") else {
                    continue;
                };
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                // Top-level declarations are indented once; those in blocks end with them.
                // A `while` loop's clock and a data local (`k`) are data.
                let data = name.starts_with("time") || name.starts_with('k');
                if l.starts_with("    ") && !l.starts_with("     ") && !data {
                    assert!(tail.contains(&name), "{name} unread in\n{text}");
                }
            }
        }
    }
}

#[test]
fn families_use_what_they_are_for() {
    let tags = |fam: Family| {
        (0..200)
            .flat_map(|s| generate(s, fam).tags)
            .collect::<std::collections::BTreeSet<_>>()
    };
    let m = tags(Family::Mutate);
    for t in [
        "self-read",
        "scaled-operand",
        "write-after-temp",
        "if-in-sequence",
    ] {
        assert!(m.contains(t), "mutate never generates {t}");
    }
    let i = tags(Family::Integrate);
    for t in [
        "verlet",
        "midpoint",
        "explicit-euler",
        "semi-implicit-euler",
        "time-loop",
    ] {
        assert!(i.contains(t), "integrate never generates {t}");
    }
    let s = tags(Family::Swap);
    for t in ["swap-temp", "swap-mem", "swap-tuple", "swap-rotate"] {
        assert!(s.contains(t), "swap never generates {t}");
    }
    let a = tags(Family::Arrays);
    for t in [
        "elem-write",
        "elem-reads-own-seq",
        "elem-loop",
        "elem-recurrence",
        "seq-swap",
    ] {
        assert!(a.contains(t), "arrays never generates {t}");
    }
}
