//! The 35 Moré–Garbow–Hillstrom unconstrained test problems (`tests/mgh/`), written as
//! users write numeric Rust, each checked at its standard starting point and at a second
//! point: `name_grad`'s value is the primal's bit for bit, its gradient agrees with central
//! finite differences (an independent truth) and with the tape twin `__name_grad_tape`, and
//! `name_grad_into` gives the same as `name_grad`. Where a problem has a known zero-residual
//! minimiser, the gradient there must vanish (a closed form that also checks the problem's
//! transcription).
//!
//! Finite differences ([`fd_partial`]): central differences D(s) at steps h, h/2, h/4 with
//! h = 10⁻³·|xⱼ| (10⁻³ where xⱼ = 0), combined by two Richardson steps into
//! (64 D(h/4) − 20 D(h/2) + D(h))/45, whose truncation error is O(h⁶). The step is relative
//! to |xⱼ| rather than to max(1, |xⱼ|), and the extrapolation goes one step further than
//! `body_support::fd_grad`, because with that helper's O(h⁴) at h = 10⁻³·max(1, |xⱼ|) the
//! truncation error alone exceeds 10⁻⁷ on Osborne 1 (x₄ = 0.01 multiplies tᵢ up to 320) and
//! Meyer (x₂ ≈ 6000 inside an exponential). Tolerance: 10⁻⁷·|fd| for what truncation is
//! left, plus the rounding bound 7·δ·F/h (the combination's coefficients give
//! (64·4 + 20·2 + 1)/45 < 7), where F is the largest |f| on the stencil and δ = 100 ulps
//! bounds the relative error of one evaluation of f (a sum of up to 99 squared residuals,
//! each a few ulps off). On badly scaled problems (Brown badly scaled at x0: f ≈ 10¹²) that
//! bound is large in absolute terms, so finite differences check the gradient only
//! coarsely there; the second point, near a minimum, checks those problems tightly, and the
//! zero-residual minimisers are checked against the closed form ∇f = 0. Measured
//! (`cargo test --test mgh -- --nocapture` prints each point): the worst finite-difference
//! error is 4·10⁻² of its tolerance (trigonometric at x0), and the tolerance is at most
//! 10⁻⁷·‖∇f‖∞ at every point but Brown badly scaled's x0 (8·10⁻⁵).
#![allow(clippy::needless_range_loop)]

#[path = "mgh/mod.rs"]
mod problems;

use problems::Problem;

/// Relative error of one evaluation of f assumed by the finite-difference tolerance.
const EVAL_ERR: f64 = 100.0 * f64::EPSILON;
/// Relative tolerance for the truncation error of the finite differences.
const FD_RTOL: f64 = 1e-7;
/// Adjoint code against the tape twin: the same derivative, only the order of floating-point
/// operations may differ (relative to max(1, ‖g‖∞)).
const TAPE_TOL: f64 = 1e-13;

/// Every problem, in MGH order.
fn all() -> Vec<Problem> {
    let mut all = problems::small::problems();
    all.extend(problems::data_fit::problems());
    all.extend(problems::scalable::problems());
    all.extend(problems::structured::problems());
    all.sort_by_key(|p| p.number);
    all
}

fn problem(number: usize) -> Problem {
    all()
        .into_iter()
        .find(|p| p.number == number)
        .unwrap_or_else(|| panic!("no problem {number}"))
}

/// ∂f/∂xⱼ at `x` by finite differences (see the module doc), and the bound on its rounding
/// error.
fn fd_partial(f: fn(&[f64]) -> f64, x: &[f64], j: usize) -> (f64, f64) {
    let h = 1e-3 * if x[j] == 0.0 { 1.0 } else { x[j].abs() };
    let mut biggest = f(x).abs();
    let mut central = |s: f64| {
        let (mut up, mut down) = (x.to_vec(), x.to_vec());
        up[j] += s;
        down[j] -= s;
        let (fu, fd) = (f(&up), f(&down));
        biggest = biggest.max(fu.abs()).max(fd.abs());
        // Divide by the step actually represented.
        (fu - fd) / (up[j] - down[j])
    };
    let (d1, d2, d4) = (central(h), central(h / 2.0), central(h / 4.0));
    let estimate = (64.0 * d4 - 20.0 * d2 + d1) / 45.0;
    (estimate, 7.0 * EVAL_ERR * biggest / h)
}

/// How close the checks at one point came to their tolerances (each ≤ 1 when they pass),
/// and how sharp the finite-difference check is.
struct Margins {
    fd: f64,
    tape: f64,
    /// The largest finite-difference tolerance relative to ‖∇f‖∞: a gradient off by more
    /// than this, relative to its size, fails.
    fd_sharpness: f64,
}

/// All checks of `p` at `x`.
fn check_at(p: &Problem, x: &[f64], at: &str) -> Margins {
    let what = format!("problem {} ({}) at {at}", p.number, p.name);
    let fx = (p.f)(x);
    assert!(fx.is_finite(), "{what}: f = {fx}");

    let (v, g) = (p.grad)(x);
    assert_eq!(
        v.to_bits(),
        fx.to_bits(),
        "{what}: _grad value {v:e} vs primal {fx:e}"
    );
    assert_eq!(g.len(), x.len(), "{what}: gradient length");

    let (vt, gt) = (p.tape)(x);
    assert_eq!(
        vt.to_bits(),
        fx.to_bits(),
        "{what}: tape value {vt:e} vs primal {fx:e}"
    );
    let scale = gt.iter().fold(1.0f64, |m, v| m.max(v.abs()));
    let mut worst_tape = 0.0f64;
    for j in 0..x.len() {
        let err = (g[j] - gt[j]).abs() / (TAPE_TOL * scale);
        worst_tape = worst_tape.max(err);
        assert!(
            err <= 1.0,
            "{what}: d/dx{j}: _grad {:e} vs tape {:e}\n  _grad {g:?}\n  tape  {gt:?}",
            g[j],
            gt[j]
        );
    }

    if let Some(grad_into) = p.grad_into {
        let mut gi = vec![f64::NAN; x.len()];
        let vi = grad_into(x, &mut gi);
        assert_eq!(vi.to_bits(), fx.to_bits(), "{what}: _grad_into value");
        assert_eq!(gi, g, "{what}: _grad_into gradient vs _grad");
    }

    let mut worst_fd = 0.0f64;
    let mut sharpness = 0.0f64;
    for j in 0..x.len() {
        let (fd, rounding) = fd_partial(p.f, x, j);
        let tol = FD_RTOL * fd.abs() + rounding;
        sharpness = sharpness.max(tol / scale);
        let err = (g[j] - fd).abs() / tol;
        worst_fd = worst_fd.max(err);
        assert!(
            err <= 1.0,
            "{what}: d/dx{j}: _grad {:e} vs finite differences {fd:e} (tolerance {tol:e})\n  \
             _grad {g:?}",
            g[j]
        );
    }
    Margins {
        fd: worst_fd,
        tape: worst_tape,
        fd_sharpness: sharpness,
    }
}

fn check(number: usize) {
    let p = problem(number);
    for (at, x) in [("x0", (p.x0)()), ("other", (p.other)())] {
        let m = check_at(&p, &x, at);
        // Visible with --nocapture: how close each check came to its tolerance.
        eprintln!(
            "MGH {:2} {:27} {at:5}: fd err/tol {:.0e} (tol/|g| {:.0e}), tape err/tol {:.0e}",
            p.number, p.name, m.fd, m.fd_sharpness, m.tape
        );
    }
}

macro_rules! mgh_tests {
    ($($test:ident = $number:expr;)*) => {
        $(
            #[test]
            fn $test() {
                check($number);
            }
        )*

        #[test]
        fn all_35_problems_have_a_test() {
            let mut numbers = vec![$($number),*];
            numbers.sort();
            assert_eq!(numbers, (1..=35).collect::<Vec<_>>());
            assert_eq!(all().iter().map(|p| p.number).collect::<Vec<_>>(), numbers);
        }
    };
}

mgh_tests! {
    p01_rosenbrock = 1;
    p02_freudenstein_roth = 2;
    p03_powell_badly_scaled = 3;
    p04_brown_badly_scaled = 4;
    p05_beale = 5;
    p06_jennrich_sampson = 6;
    p07_helical_valley = 7;
    p08_bard = 8;
    p09_gaussian = 9;
    p10_meyer = 10;
    p11_gulf = 11;
    p12_box_3d = 12;
    p13_powell_singular = 13;
    p14_wood = 14;
    p15_kowalik_osborne = 15;
    p16_brown_dennis = 16;
    p17_osborne1 = 17;
    p18_biggs_exp6 = 18;
    p19_osborne2 = 19;
    p20_watson = 20;
    p21_extended_rosenbrock = 21;
    p22_extended_powell = 22;
    p23_penalty1 = 23;
    p24_penalty2 = 24;
    p25_variably_dimensioned = 25;
    p26_trigonometric = 26;
    p27_brown_almost_linear = 27;
    p28_discrete_boundary_value = 28;
    p29_discrete_integral_equation = 29;
    p30_broyden_tridiagonal = 30;
    p31_broyden_banded = 31;
    p32_linear_full_rank = 32;
    p33_linear_rank1 = 33;
    p34_linear_rank1_zero = 34;
    p35_chebyquad = 35;
}

/// Known minimisers with their minimum values (MGH's table, or the closed form where the
/// minimum is a set): the value checks the transcription of each problem, and the gradient
/// of a smooth function vanishes there (a closed form, independent of finite differences).
#[test]
fn gradient_vanishes_at_known_minimisers() {
    let m = 20.0;
    // Linear rank 1: any x with Σ j xⱼ = 3/(2m + 1); with zero columns: Σ_{j=2}^{n−1} j xⱼ =
    // 3/(2m − 3).
    let mut rank1 = vec![0.0; 10];
    rank1[0] = 3.0 / (2.0 * m + 1.0);
    let mut rank1_zero = vec![0.0; 10];
    rank1_zero[1] = 3.0 / (2.0 * m - 3.0) / 2.0;
    let cases: Vec<(usize, Vec<f64>, f64)> = vec![
        (1, vec![1.0, 1.0], 0.0),
        (2, vec![5.0, 4.0], 0.0),
        (4, vec![1e6, 2e-6], 0.0),
        (5, vec![3.0, 0.5], 0.0),
        (7, vec![1.0, 0.0, 0.0], 0.0),
        (11, vec![50.0, 25.0, 1.5], 0.0),
        (12, vec![1.0, 10.0, 1.0], 0.0),
        (13, vec![0.0; 4], 0.0),
        (14, vec![1.0; 4], 0.0),
        (18, vec![1.0, 10.0, 1.0, 5.0, 4.0, 3.0], 0.0),
        (21, vec![1.0; 10], 0.0),
        (22, vec![0.0; 8], 0.0),
        (25, vec![1.0; 10], 0.0),
        (27, vec![1.0; 10], 0.0),
        // Linear full rank: f = m − n at x = −1.
        (32, vec![-1.0; 10], m - 10.0),
        (33, rank1, m * (m - 1.0) / (2.0 * (2.0 * m + 1.0))),
        (
            34,
            rank1_zero,
            (m * m + 3.0 * m - 6.0) / (2.0 * (2.0 * m - 3.0)),
        ),
    ];
    for (number, x, minimum) in cases {
        let p = problem(number);
        let (v, g) = (p.grad)(&x);
        let (_, gt) = (p.tape)(&x);
        assert!(
            (v - minimum).abs() <= 1e-12 * minimum.max(1.0),
            "problem {number} ({}): f(x*) = {v:e}, want {minimum:e}",
            p.name
        );
        for (j, (a, t)) in g.iter().zip(&gt).enumerate() {
            assert!(
                a.abs() <= 1e-9 && t.abs() <= 1e-9,
                "problem {number} ({}): d/dx{j} = {a:e} (tape {t:e}) at the minimiser, want 0",
                p.name
            );
        }
    }
}

/// The problems whose `_grad` is adjoint code (naming `__name_adjoint` fails to compile
/// otherwise), so a change that sends one to the tape is seen. The other eight take the
/// tape, for the reasons listed in tests/mgh/mod.rs.
#[test]
fn adjoint_code_where_it_is_today() {
    use problems::{data_fit::*, scalable::*, small::*, structured::*};
    let _small = (
        __rosenbrock_adjoint,
        __powell_badly_scaled_adjoint,
        __brown_residual_adjoint,
        __brown_badly_scaled_adjoint,
        __beale_adjoint,
        __jennrich_sampson_adjoint,
        __helical_theta_adjoint,
        __helical_valley_adjoint,
        __powell_singular_adjoint,
        __wood_adjoint,
    );
    let _data_fit = (
        __bard_adjoint,
        __meyer_adjoint,
        __gulf_adjoint,
        __box_residual_adjoint,
        __box_3d_adjoint,
        __kowalik_osborne_adjoint,
        __brown_dennis_adjoint,
        __biggs_exp6_adjoint,
        __osborne2_adjoint,
    );
    let _scalable = (
        __watson_adjoint,
        __extended_rosenbrock_adjoint,
        __penalty1_adjoint,
        __penalty2_adjoint,
        __variably_dimensioned_adjoint,
        __trigonometric_adjoint,
        __brown_almost_linear_adjoint,
    );
    // Once on the tape (a residual vector, a generic helper in a closure, a `match` on an
    // array, `get(..).copied()`, `once(..).chain(..)`, `zip(1..)`): adjoint code now.
    let _once_taped = (
        __freudenstein_roth_adjoint,
        __osborne1_adjoint,
        __gaussian_adjoint,
        __chebyquad_adjoint,
        __extended_powell_adjoint,
        __discrete_boundary_value_adjoint,
        __broyden_tridiagonal_adjoint,
        __linear_rank1_adjoint,
    );
    let _structured = (
        __discrete_integral_equation_adjoint,
        __broyden_banded_adjoint,
        __linear_full_rank_adjoint,
        __linear_rank1_zero_adjoint,
    );
}
