//! `normal_lpdf` and `lognormal_lpdf` with every argument a scalar or a slice, `f64` or
//! active (64 combinations each), against closed forms computed here; one tape node per
//! call; the other container types.

#[macro_use]
mod dist_support;

use dist_support::{assert_all_close, assert_close};
use fazang::prelude::*;

const Y: [f64; 3] = [1.3, -0.4, 2.7];
const Y_POS: [f64; 3] = [1.3, 0.4, 2.7];
const MU: [f64; 3] = [0.5, 0.1, -1.0];
const SIGMA: [f64; 3] = [1.2, 0.7, 2.5];

/// A result that is `f64` (all arguments data) or `Var` (some active).
trait Out {
    const ACTIVE: bool;
    fn value(&self) -> f64;
    fn sweep(&self);
}
impl Out for f64 {
    const ACTIVE: bool = false;
    fn value(&self) -> f64 {
        *self
    }
    fn sweep(&self) {}
}
impl Out for Var {
    const ACTIVE: bool = true;
    fn value(&self) -> f64 {
        self.val()
    }
    fn sweep(&self) {
        self.grad();
    }
}

fn active_of<T: Out>(_: &T) -> bool {
    T::ACTIVE
}

/// Log density of one element and its partials (d/dy, d/dmu, d/dsigma), in closed form.
type Closed = fn(f64, f64, f64) -> (f64, [f64; 3]);

fn normal(y: f64, mu: f64, s: f64) -> (f64, [f64; 3]) {
    let r = y - mu;
    let lp = -0.5 * (2.0 * std::f64::consts::PI).ln() - s.ln() - r * r / (2.0 * s * s);
    (lp, [-r / (s * s), r / (s * s), (r * r / (s * s) - 1.0) / s])
}

fn lognormal(y: f64, mu: f64, s: f64) -> (f64, [f64; 3]) {
    let r = y.ln() - mu;
    let lp = -0.5 * (2.0 * std::f64::consts::PI).ln() - s.ln() - y.ln() - r * r / (2.0 * s * s);
    let dmu = r / (s * s);
    (lp, [-(1.0 + dmu) / y, dmu, (r * r / (s * s) - 1.0) / s])
}

/// Expected value and, per argument, the expected adjoints (one per element of a
/// sequence, the sum over elements for a scalar).
fn expected(f: Closed, vals: [&[f64; 3]; 3], vector: [bool; 3]) -> (f64, [Vec<f64>; 3]) {
    let n = if vector.contains(&true) { 3 } else { 1 };
    let at = |k: usize, i: usize| if vector[k] { vals[k][i] } else { vals[k][0] };
    let mut value = 0.0;
    let mut grads: [Vec<f64>; 3] =
        std::array::from_fn(|k| vec![0.0; if vector[k] { 3 } else { 1 }]);
    for i in 0..n {
        let (lp, d) = f(at(0, i), at(1, i), at(2, i));
        value += lp;
        for k in 0..3 {
            grads[k][if vector[k] { i } else { 0 }] += d[k];
        }
    }
    (value, grads)
}

// Each kind makes an argument from its values: `d` an f64, `v` a Var, `ds` an &[f64],
// `vs` an &[Var]; `adj` reads its adjoints (none for data).
macro_rules! arg {
    (d, $vals:expr) => {
        $vals[0]
    };
    (v, $vals:expr) => {
        Var::new($vals[0])
    };
    (ds, $vals:expr) => {
        &$vals[..]
    };
    (vs, $vals:expr) => {
        $vals.iter().map(|&x| Var::new(x)).collect::<Vec<Var>>()
    };
}
macro_rules! pass {
    (vs, $a:expr) => {
        &$a[..]
    };
    ($k:ident, $a:expr) => {
        $a
    };
}
macro_rules! adj {
    (d, $a:expr) => {
        None::<Vec<f64>>
    };
    (ds, $a:expr) => {
        None::<Vec<f64>>
    };
    (v, $a:expr) => {
        Some(vec![$a.adj()])
    };
    (vs, $a:expr) => {
        Some($a.iter().map(|x| x.adj()).collect::<Vec<f64>>())
    };
}
macro_rules! is_vec {
    (d) => {
        false
    };
    (v) => {
        false
    };
    (ds) => {
        true
    };
    (vs) => {
        true
    };
}
macro_rules! is_active {
    (d) => {
        false
    };
    (ds) => {
        false
    };
    (v) => {
        true
    };
    (vs) => {
        true
    };
}

/// One test per combination of argument kinds.
macro_rules! combos {
    ($dist:ident, $closed:expr, $y:expr; $($name:ident: $ky:ident $km:ident $ks:ident;)*) => {$(
        #[test]
        fn $name() {
            let vals = [&$y, &MU, &SIGMA];
            let vector = [is_vec!($ky), is_vec!($km), is_vec!($ks)];
            let active = [is_active!($ky), is_active!($km), is_active!($ks)];
            let (value, grads) = expected($closed, vals, vector);

            let y = arg!($ky, $y);
            let mu = arg!($km, MU);
            let sigma = arg!($ks, SIGMA);
            let before = tape_stats();
            let out = $dist(pass!($ky, y), pass!($km, mu), pass!($ks, sigma)).unwrap();
            let after = tape_stats();

            // The result is active exactly when an argument is.
            assert_eq!(active_of(&out), active.contains(&true));
            assert_close(out.value(), value, 1e-14, "value");

            // One node, with one operand per active element.
            let operands: usize =
                (0..3).filter(|&k| active[k]).map(|k| if vector[k] { 3 } else { 1 }).sum();
            if active.contains(&true) {
                assert_eq!(after.nodes - before.nodes, 1, "one node per call");
                assert_eq!(after.operands - before.operands, operands);
            } else {
                assert_eq!(after, before, "data only: nothing recorded");
            }

            out.sweep();
            let adjs = [adj!($ky, y), adj!($km, mu), adj!($ks, sigma)];
            for (k, a) in adjs.iter().enumerate() {
                if let Some(a) = a {
                    assert_all_close(a, &grads[k], 1e-14, &format!("adjoint of argument {k}"));
                }
            }
            clear_tape();
        }
    )*};
}

mod normal {
    use super::*;
    combos! { normal_lpdf, normal, Y;
        d_d_d: d d d; d_d_v: d d v; d_d_ds: d d ds; d_d_vs: d d vs;
        d_v_d: d v d; d_v_v: d v v; d_v_ds: d v ds; d_v_vs: d v vs;
        d_ds_d: d ds d; d_ds_v: d ds v; d_ds_ds: d ds ds; d_ds_vs: d ds vs;
        d_vs_d: d vs d; d_vs_v: d vs v; d_vs_ds: d vs ds; d_vs_vs: d vs vs;
        v_d_d: v d d; v_d_v: v d v; v_d_ds: v d ds; v_d_vs: v d vs;
        v_v_d: v v d; v_v_v: v v v; v_v_ds: v v ds; v_v_vs: v v vs;
        v_ds_d: v ds d; v_ds_v: v ds v; v_ds_ds: v ds ds; v_ds_vs: v ds vs;
        v_vs_d: v vs d; v_vs_v: v vs v; v_vs_ds: v vs ds; v_vs_vs: v vs vs;
        ds_d_d: ds d d; ds_d_v: ds d v; ds_d_ds: ds d ds; ds_d_vs: ds d vs;
        ds_v_d: ds v d; ds_v_v: ds v v; ds_v_ds: ds v ds; ds_v_vs: ds v vs;
        ds_ds_d: ds ds d; ds_ds_v: ds ds v; ds_ds_ds: ds ds ds; ds_ds_vs: ds ds vs;
        ds_vs_d: ds vs d; ds_vs_v: ds vs v; ds_vs_ds: ds vs ds; ds_vs_vs: ds vs vs;
        vs_d_d: vs d d; vs_d_v: vs d v; vs_d_ds: vs d ds; vs_d_vs: vs d vs;
        vs_v_d: vs v d; vs_v_v: vs v v; vs_v_ds: vs v ds; vs_v_vs: vs v vs;
        vs_ds_d: vs ds d; vs_ds_v: vs ds v; vs_ds_ds: vs ds ds; vs_ds_vs: vs ds vs;
        vs_vs_d: vs vs d; vs_vs_v: vs vs v; vs_vs_ds: vs vs ds; vs_vs_vs: vs vs vs;
    }
}

mod lognormal {
    use super::*;
    combos! { lognormal_lpdf, lognormal, Y_POS;
        d_d_d: d d d; d_d_v: d d v; d_d_ds: d d ds; d_d_vs: d d vs;
        d_v_d: d v d; d_v_v: d v v; d_v_ds: d v ds; d_v_vs: d v vs;
        d_ds_d: d ds d; d_ds_v: d ds v; d_ds_ds: d ds ds; d_ds_vs: d ds vs;
        d_vs_d: d vs d; d_vs_v: d vs v; d_vs_ds: d vs ds; d_vs_vs: d vs vs;
        v_d_d: v d d; v_d_v: v d v; v_d_ds: v d ds; v_d_vs: v d vs;
        v_v_d: v v d; v_v_v: v v v; v_v_ds: v v ds; v_v_vs: v v vs;
        v_ds_d: v ds d; v_ds_v: v ds v; v_ds_ds: v ds ds; v_ds_vs: v ds vs;
        v_vs_d: v vs d; v_vs_v: v vs v; v_vs_ds: v vs ds; v_vs_vs: v vs vs;
        ds_d_d: ds d d; ds_d_v: ds d v; ds_d_ds: ds d ds; ds_d_vs: ds d vs;
        ds_v_d: ds v d; ds_v_v: ds v v; ds_v_ds: ds v ds; ds_v_vs: ds v vs;
        ds_ds_d: ds ds d; ds_ds_v: ds ds v; ds_ds_ds: ds ds ds; ds_ds_vs: ds ds vs;
        ds_vs_d: ds vs d; ds_vs_v: ds vs v; ds_vs_ds: ds vs ds; ds_vs_vs: ds vs vs;
        vs_d_d: vs d d; vs_d_v: vs d v; vs_d_ds: vs d ds; vs_d_vs: vs d vs;
        vs_v_d: vs v d; vs_v_v: vs v v; vs_v_ds: vs v ds; vs_v_vs: vs v vs;
        vs_ds_d: vs ds d; vs_ds_v: vs ds v; vs_ds_ds: vs ds ds; vs_ds_vs: vs ds vs;
        vs_vs_d: vs vs d; vs_vs_v: vs vs v; vs_vs_ds: vs vs ds; vs_vs_vs: vs vs vs;
    }
}

#[test]
fn vec_and_array_arguments_equal_slices() {
    let yv: Vec<f64> = Y.to_vec();
    let a = normal_lpdf(&Y[..], 0.5, 1.2).unwrap();
    assert_eq!(normal_lpdf(&yv, 0.5, 1.2).unwrap(), a);
    assert_eq!(normal_lpdf(&Y, 0.5, 1.2).unwrap(), a);
    let s = vec![1.2, 0.7, 2.5];
    let mu = [0.5, 0.1, -1.0];
    let c = normal_lpdf(&Y[..], &mu[..], &s[..]).unwrap();
    assert_eq!(normal_lpdf(&Y, &mu, &s).unwrap(), c);
    assert_eq!(normal_lpdf(&yv, &MU, &s).unwrap(), c);

    let ys: Vec<Var> = Y.iter().map(|&y| Var::new(y)).collect();
    let arr: [Var; 3] = [ys[0], ys[1], ys[2]];
    let b = normal_lpdf(&ys, 0.5, 1.2).unwrap();
    let c = normal_lpdf(&arr, 0.5, 1.2).unwrap();
    assert_eq!(b.val(), c.val());
    (b + c).grad();
    for (x, &y) in ys.iter().zip(&Y) {
        assert_close(x.adj(), 2.0 * normal(y, 0.5, 1.2).1[0], 1e-15, "dy");
    }
    clear_tape();
}

#[test]
fn empty_sequences_give_zero() {
    let none: [f64; 0] = [];
    assert_eq!(normal_lpdf(&none, 0.5, 1.2).unwrap(), 0.0);
    let (v, g) = gradient(|x| normal_lpdf(&none, x[0], x[1]).unwrap(), &[0.5, 1.2]);
    assert_eq!((v, g), (0.0, vec![0.0, 0.0]));
    let empty: Vec<Var> = Vec::new();
    assert_eq!(normal_lpdf(&empty, &none, 1.0).unwrap().val(), 0.0);
    assert_eq!(lognormal_lpdf(&none, 0.0, 1.0).unwrap(), 0.0);
}

#[test]
fn large_sample_matches_closed_form() {
    // 100 000 observations through the scalar-parameter fast path and, with a sequence
    // of scales, the general path.
    let y: Vec<f64> = (0..100_000)
        .map(|i| (i as f64 * 0.37).sin() * 2.0 + 0.3)
        .collect();
    let sig = vec![1.3; y.len()];
    let (mu, s) = (0.1, 1.3);
    let value: f64 = y.iter().map(|&v| normal(v, mu, s).0).sum();
    let dmu: f64 = y.iter().map(|&v| normal(v, mu, s).1[1]).sum();
    let dsig: f64 = y.iter().map(|&v| normal(v, mu, s).1[2]).sum();
    let (v, g) = gradient(|x| normal_lpdf(&y, x[0], x[1]).unwrap(), &[mu, s]);
    assert_close(v, value, 1e-13, "value");
    assert_all_close(&g, &[dmu, dsig], 1e-12, "gradient");
    let (v2, g2) = gradient(|x| normal_lpdf(&y, x[0], &sig).unwrap(), &[mu]);
    assert_close(v2, value, 1e-13, "value, general path");
    assert_close(g2[0], dmu, 1e-12, "dmu, general path");
}

#[test]
fn infinite_scale_gives_minus_infinity() {
    // check_positive admits +inf, as Stan's.
    assert_eq!(
        normal_lpdf(1.0, 0.0, f64::INFINITY).unwrap(),
        f64::NEG_INFINITY
    );
}
