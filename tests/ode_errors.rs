//! Every argument check and every failure of the ODE solvers: a `DomainError` naming the
//! function, the argument and the value (Stan's wording where Stan has the check), never
//! a panic or a NaN.

mod ode_support;

use fazang::dist::Constraint;
use fazang::prelude::*;
use ode_support::*;

const NAN: f64 = f64::NAN;
const INF: f64 = f64::INFINITY;

/// The message of a failed solve by each method: `[bdf, rk45]`.
fn messages<F: OdeSystem>(
    f: &F,
    y0: &[f64],
    t0: f64,
    ts: &[f64],
    p: &[f64],
    tol: OdeTol,
) -> [String; 2] {
    let bdf = ode_bdf(f, y0, t0, ts, p, tol).map(|_| ()).unwrap_err();
    let rk = ode_rk45(f, y0, t0, ts, p, tol).map(|_| ()).unwrap_err();
    [bdf.to_string(), rk.to_string()]
}

#[track_caller]
fn assert_message<F: OdeSystem>(
    f: &F,
    y0: &[f64],
    t0: f64,
    ts: &[f64],
    p: &[f64],
    tol: OdeTol,
    msg: &str,
) {
    let [bdf, rk] = messages(f, y0, t0, ts, p, tol);
    assert_eq!(bdf, format!("ode_bdf: {msg}"));
    assert_eq!(rk, format!("ode_rk45: {msg}"));
}

#[test]
fn argument_checks() {
    let (y0, ts, p, tol) = (FAZANG1_Y0, FAZANG1_TS, FAZANG1_P, fazang_tol());
    let f = &Fazang1;
    assert_message(
        f,
        &[],
        0.0,
        &ts,
        &p,
        tol,
        "initial state has size 0, but must have a non-zero size",
    );
    assert_message(
        f,
        &[1.2, NAN],
        0.0,
        &ts,
        &p,
        tol,
        "initial state[2] is nan, but must be finite!",
    );
    assert_message(
        f,
        &y0,
        INF,
        &ts,
        &p,
        tol,
        "initial time is inf, but must be finite!",
    );
    assert_message(
        f,
        &y0,
        0.0,
        &[],
        &p,
        tol,
        "times has size 0, but must have a non-zero size",
    );
    assert_message(
        f,
        &y0,
        0.0,
        &[1.0, INF],
        &p,
        tol,
        "times[2] is inf, but must be finite!",
    );
    assert_message(
        f,
        &y0,
        0.0,
        &[1.0, 2.0, 2.0],
        &p,
        tol,
        "times[3] is 2, but must be greater than the previous element, 2",
    );
    assert_message(
        f,
        &y0,
        0.0,
        &[1.0, 0.5],
        &p,
        tol,
        "times[2] is 0.5, but must be greater than the previous element, 1",
    );
    assert_message(
        f,
        &y0,
        1.0,
        &ts,
        &p,
        tol,
        "initial time is 1, but must be less than 1",
    );
    assert_message(
        f,
        &y0,
        2.5,
        &ts,
        &p,
        tol,
        "initial time is 2.5, but must be less than 1",
    );
    assert_message(
        f,
        &y0,
        0.0,
        &ts,
        &[0.2, -INF],
        tol,
        "parameters[2] is -inf, but must be finite!",
    );
    let bad = |rtol, atol, steps| OdeTol::new(rtol, atol, steps);
    assert_message(
        f,
        &y0,
        0.0,
        &ts,
        &p,
        bad(0.0, 1e-8, 10),
        "relative_tolerance is 0, but must be positive finite!",
    );
    assert_message(
        f,
        &y0,
        0.0,
        &ts,
        &p,
        bad(-1e-6, 1e-8, 10),
        "relative_tolerance is -1e-06, but must be positive finite!",
    );
    assert_message(
        f,
        &y0,
        0.0,
        &ts,
        &p,
        bad(1e-6, NAN, 10),
        "absolute_tolerance is nan, but must be positive finite!",
    );
    assert_message(
        f,
        &y0,
        0.0,
        &ts,
        &p,
        bad(1e-6, INF, 10),
        "absolute_tolerance is inf, but must be positive finite!",
    );
    assert_message(
        f,
        &y0,
        0.0,
        &ts,
        &p,
        bad(1e-6, 1e-6, 0),
        "max_num_steps is 0, but must be positive!",
    );
}

#[test]
fn accessors_name_function_argument_and_value() {
    let e = ode_bdf(
        &Fazang1,
        &FAZANG1_Y0,
        0.0,
        &[1.0, 0.5],
        &FAZANG1_P,
        fazang_tol(),
    )
    .unwrap_err();
    assert_eq!(
        (e.function(), e.argument(), e.index(), e.value()),
        ("ode_bdf", "times", Some(1), 0.5)
    );
    assert_eq!(e.constraint(), Constraint::Increasing { previous: 1.0 });
    let e = ode_rk45(
        &Fazang1,
        &FAZANG1_Y0,
        3.0,
        &FAZANG1_TS,
        &FAZANG1_P,
        fazang_tol(),
    )
    .unwrap_err();
    assert_eq!(e.constraint(), Constraint::Less { high: 1.0 });
    assert_eq!(e.value(), 3.0);
}

/// Returns one value for a two-state system.
#[differentiate]
fn too_short(t: f64, y: &[f64], p: &[f64]) -> Vec<f64> {
    vec![y[1] * p[0] + 0.0 * t]
}
ode_system!(TooShort = too_short);

#[test]
fn right_hand_side_of_the_wrong_length() {
    assert_message(
        &TooShort, &[1.0, 2.0], 0.0, &[1.0], &[0.5], fazang_tol(),
        "right-hand side has size = 1, but initial state has size 2; and they must be the same size.",
    );
    // Also when the Jacobian is taken (active inputs).
    let e = gradient(
        |p| match ode_bdf(&TooShort, &[1.0, 2.0], 0.0, &[1.0], p, fazang_tol()) {
            Ok(_) => panic!("expected an error"),
            Err(e) => Var::from(e.value()),
        },
        &[0.5],
    );
    assert_eq!(e.0, 1.0);
}

/// ln(p1) at t = 0: NaN for p1 < 0 from the start.
#[differentiate]
fn log_rate(t: f64, y: &[f64], p: &[f64]) -> Vec<f64> {
    vec![p[0].ln() * y[0] + 0.0 * t]
}
ode_system!(LogRate = log_rate);

#[test]
fn right_hand_side_nan_at_the_start() {
    assert_message(
        &LogRate,
        &[1.0],
        0.0,
        &[1.0],
        &[-1.0],
        fazang_tol(),
        "right-hand side[1] is nan at t = 0, but must be finite!",
    );
    let e = ode_bdf(&LogRate, &[1.0], 0.0, &[1.0], &[-1.0], fazang_tol()).unwrap_err();
    assert_eq!((e.argument(), e.index()), ("right-hand side", Some(0)));
    assert!(e.value().is_nan());
}

/// y' = √(1 - t): defined up to t = 1 only.
#[differentiate]
fn until_one(t: f64, y: &[f64], p: &[f64]) -> Vec<f64> {
    vec![(1.0 - t).sqrt() * p[0] + 0.0 * y[0]]
}
ode_system!(UntilOne = until_one);

#[test]
fn right_hand_side_nan_later_is_reported_where_it_stops() {
    for (solver, e) in [
        (
            "ode_bdf",
            ode_bdf(&UntilOne, &[0.0], 0.0, &[0.5, 2.0], &[1.0], fazang_tol()),
        ),
        (
            "ode_rk45",
            ode_rk45(&UntilOne, &[0.0], 0.0, &[0.5, 2.0], &[1.0], fazang_tol()),
        ),
    ] {
        let e = e.unwrap_err();
        assert_eq!(
            (e.function(), e.argument(), e.index()),
            (solver, "right-hand side", Some(0))
        );
        assert!(e.value().is_nan());
        let Constraint::FiniteAt { t } = e.constraint() else {
            panic!("{solver}: {e}");
        };
        assert!(t > 1.0 && t < 1.0 + 1e-6, "{solver}: {e}");
    }
}

/// y' = y²: y = 1/(1 - t) blows up at t = 1.
#[differentiate]
fn blow_up(t: f64, y: &[f64], p: &[f64]) -> Vec<f64> {
    vec![p[0] * y[0] * y[0] + 0.0 * t]
}
ode_system!(BlowUp = blow_up);

#[test]
fn a_solution_that_blows_up_stops_with_an_error() {
    let tol = OdeTol::new(1e-8, 1e-8, 100_000);
    for (solver, e) in [
        (
            "ode_bdf",
            ode_bdf(&BlowUp, &[1.0], 0.0, &[0.5, 2.0], &[1.0], tol),
        ),
        (
            "ode_rk45",
            ode_rk45(&BlowUp, &[1.0], 0.0, &[0.5, 2.0], &[1.0], tol),
        ),
    ] {
        let e = e.unwrap_err();
        let Constraint::StepSize { t } = e.constraint() else {
            panic!("{solver}: {e}");
        };
        assert!((t - 1.0).abs() < 1e-6, "{solver}: {e}");
        assert!(e.value() > 0.0 && e.value() < 1e-12, "{solver}: {e}");
        let msg = e.to_string();
        assert!(
            msg.starts_with(&format!("{solver}: step size is ")),
            "{msg}"
        );
        assert!(
            msg.contains("at t = 1, but must be larger than round-off"),
            "{msg}"
        );
    }
}

#[test]
fn too_many_steps_for_each_method() {
    // A fast oscillation needs many steps of either method.
    let tol = OdeTol::new(1e-8, 1e-8, 50);
    let [bdf, rk] = messages(
        &Fazang2,
        &FAZANG2_Y0,
        0.0,
        &[1.0, 100.0],
        &[50.0, 1.0, 1.0],
        tol,
    );
    let msg = "Failed to integrate to next output time (1) in less than max_num_steps (50) steps";
    assert_eq!(bdf, format!("ode_bdf: {msg}"));
    assert_eq!(rk, format!("ode_rk45: {msg}"));
}
