//! The multivariate distributions beyond their reference values: every mix of data and
//! active arguments against finite differences, Hessians (forward-over-reverse) and JVPs
//! (forward mode) through them, nalgebra arguments, several observations as rows, one
//! node per call, generic bodies, and Stan's checks and messages.

#[path = "support/close.rs"]
mod close;

use close::{assert_all_close, assert_close};
use fazang::__private::{RefOps, RefScalarOps, ScalarOps};
use fazang::prelude::*;
use fazang::{hessian, jvp};
use nalgebra::{DMatrix, DVector};

fn fd_gradient(f: impl Fn(&[f64]) -> f64, x: &[f64]) -> Vec<f64> {
    (0..x.len())
        .map(|i| {
            let h = 1e-4 * x[i].abs().max(1.0);
            let at = |d: f64| {
                let mut z = x.to_vec();
                z[i] += d;
                f(&z)
            };
            (at(-2.0 * h) - 8.0 * at(-h) + 8.0 * at(h) - at(2.0 * h)) / (12.0 * h)
        })
        .collect()
}

/// A symmetric positive definite matrix from 6 numbers (a Cholesky factor, row by row).
fn spd<S: Real>(p: &[S]) -> Vec<Vec<S>> {
    let z = S::from(0.0);
    let l = [
        [p[0].exp(), z, z],
        [p[1], p[2].exp(), z],
        [p[3], p[4], p[5].exp()],
    ];
    (0..3)
        .map(|i| {
            (0..3)
                .map(|j| (0..3).fold(z, |s, m| s + l[i][m] * l[j][m]))
                .collect()
        })
        .collect()
}

fn lower<S: Real>(p: &[S]) -> Vec<Vec<S>> {
    let z = S::from(0.0);
    vec![
        vec![p[0].exp(), z, z],
        vec![p[1], p[2].exp(), z],
        vec![p[3], p[4], p[5].exp()],
    ]
}

const Y: [[f64; 3]; 3] = [[0.3, -1.2, 0.8], [1.5, 0.1, -0.4], [-0.6, 0.9, 2.0]];

/// Models mixing data and active arguments, each a function of 12 parameters.
fn model<S: Real>(which: usize, p: &[S]) -> S
where
    f64: ScalarOps<S>,
    for<'a> &'a S: RefOps<S> + RefScalarOps<S>,
    for<'a> &'a f64: RefOps<S>,
{
    let mu = &p[0..3];
    let sigma = spd(&p[3..9]);
    let y_rows: Vec<Vec<f64>> = Y.iter().map(|r| r.to_vec()).collect();
    let mu_rows: Vec<Vec<S>> = (0..3)
        .map(|i| mu.iter().map(|m| *m + p[9] * i as f64).collect())
        .collect();
    let r = match which {
        // data y (rows), active mu and sigma
        0 => multi_normal_lpdf(&y_rows, mu, &sigma),
        // active y, data mu, active sigma
        1 => multi_normal_lpdf(mu, &[0.1, 0.2, 0.3], &sigma),
        // data y, active mean rows, data factor
        2 => multi_normal_cholesky_lpdf(&Y, &mu_rows, &lower(&[0.1, 0.2, -0.1, 0.3, 0.0, 0.2])),
        // active everything
        3 => multi_normal_cholesky_lpdf(&mu_rows, &p[9..12], &lower(&p[3..9])),
        4 => multi_normal_prec_lpdf(&y_rows, mu, &sigma),
        5 => multi_student_t_lpdf(&y_rows, p[10].exp() + 1.0, mu, &sigma),
        6 => multi_student_t_lpdf(mu, 5.0, &[0.0, 0.1, 0.2], &sigma),
        7 => {
            let mut lp = S::from(0.0);
            let l = cholesky_corr_constrain(&p[0..3], 3, &mut lp);
            Ok(lp + lkj_corr_cholesky_lpdf(&l, p[9].exp()).unwrap())
        }
        8 => {
            let mut lp = S::from(0.0);
            let om = corr_matrix_constrain(&p[0..3], 3, &mut lp);
            Ok(lp + lkj_corr_lpdf(&om, p[9].exp()).unwrap())
        }
        9 => {
            let mut lp = S::from(0.0);
            let theta = simplex_constrain(&p[0..3], &mut lp);
            let alpha: Vec<S> = p[8..12].iter().map(|a| a.exp()).collect();
            Ok(lp + dirichlet_lpdf(&theta, &alpha).unwrap())
        }
        10 => {
            let w = spd(&[0.5, 0.1, 0.2, -0.3, 0.2, 0.1]);
            Ok(wishart_lpdf(&w, p[9].exp() + 3.0, &sigma).unwrap()
                + wishart_lpdf(&sigma, 4.5, &w).unwrap())
        }
        11 => {
            let w = spd(&[0.5, 0.1, 0.2, -0.3, 0.2, 0.1]);
            Ok(inv_wishart_lpdf(&w, p[9].exp() + 3.0, &sigma).unwrap()
                + inv_wishart_lpdf(&sigma, 4.5, &w).unwrap())
        }
        12 => {
            let mut lp = S::from(0.0);
            let theta = simplex_constrain(&p[0..3], &mut lp);
            let a = multinomial_lpmf(&[2, 0, 5, 1], &theta).unwrap();
            let b = categorical_lpmf(&[1, 4, 4, 3], &theta).unwrap();
            Ok(lp + a + b + categorical_logit_lpmf(2, &p[9..12]).unwrap())
        }
        _ => unreachable!(),
    };
    r.unwrap()
}

const MODELS: usize = 13;

fn params() -> Vec<f64> {
    (0..12).map(|i| 0.3 * (i as f64 * 1.3).sin()).collect()
}

#[test]
fn gradients_against_finite_differences() {
    let p = params();
    for m in 0..MODELS {
        let (v, g) = gradient(|p| model(m, p), &p);
        assert_eq!(v, model(m, p.as_slice()), "model {m}: Var and f64 values");
        let fd = fd_gradient(|p| model(m, p), &p);
        assert_all_close(&g, &fd, 1e-8, &format!("model {m}: gradient"));
    }
}

#[test]
fn hessians_and_jvps_through_every_family() {
    let p = params();
    for m in 0..MODELS {
        let (_, g) = gradient(|p| model(m, p), &p);
        let (_, hg, h) = hessian(|p| model(m, p), &p);
        assert_all_close(&hg, &g, 1e-13, &format!("model {m}: Hessian's gradient"));
        for (i, hi) in h.iter().enumerate() {
            let row = fd_gradient(|z| gradient(|z| model(m, z), z).1[i], &p);
            assert_all_close(hi, &row, 1e-6, &format!("model {m}: Hessian row {i}"));
        }
        let dir: Vec<f64> = (0..p.len()).map(|i| 0.5 - 0.1 * i as f64).collect();
        let (_, d) = jvp(|p| model(m, p), &p, &dir);
        let want: f64 = g.iter().zip(&dir).map(|(a, b)| a * b).sum();
        assert_close(d, want, 1e-12, &format!("model {m}: jvp"));
    }
}

#[test]
fn one_node_per_call() {
    let sigma = spd(&[0.1, 0.2, 0.3, -0.1, 0.2, 0.0]);
    let _scope = NestedScope::begin();
    let mu: Vec<Var> = [0.1, 0.2, 0.3].iter().map(|&v| Var::new(v)).collect();
    let before = tape_stats().nodes;
    let lp = multi_normal_lpdf(&Y, &mu, &sigma).unwrap();
    assert_eq!(
        tape_stats().nodes,
        before + 1,
        "one node for three observations"
    );
    let l: Vec<Vec<Var>> = lower(&[0.1, 0.2, -0.1, 0.3, 0.0, 0.2])
        .iter()
        .map(|r| r.iter().map(|&v| Var::new(v)).collect())
        .collect();
    let before = tape_stats();
    let lp2 = multi_normal_cholesky_lpdf(&Y, &mu, &l).unwrap();
    let after = tape_stats();
    assert_eq!(after.nodes, before.nodes + 1);
    // Partials: 3 for mu, 6 for the lower triangle of L (none for the zeros above).
    assert_eq!(after.operands, before.operands + 9);
    assert!((lp + lp2).val().is_finite());
}

#[test]
fn several_observations_are_the_sum_of_each() {
    let sigma = spd(&[0.1, 0.2, 0.3, -0.1, 0.2, 0.0]);
    let mu = [0.1, 0.2, 0.3];
    let all = multi_normal_lpdf(&Y, &mu, &sigma).unwrap();
    let each: f64 = Y
        .iter()
        .map(|y| multi_normal_lpdf(y, &mu, &sigma).unwrap())
        .sum();
    assert_close(all, each, 1e-14, "multi_normal");
    let all = multi_student_t_lpdf(&Y, 3.5, &mu, &sigma).unwrap();
    let each: f64 = Y
        .iter()
        .map(|y| multi_student_t_lpdf(y, 3.5, &mu, &sigma).unwrap())
        .sum();
    assert_close(all, each, 1e-14, "multi_student_t");
    // A single y broadcast against rows of means.
    let mus = [[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]];
    let all = multi_normal_prec_lpdf(&Y[0], &mus, &sigma).unwrap();
    let each: f64 = mus
        .iter()
        .map(|m| multi_normal_prec_lpdf(&Y[0], m, &sigma).unwrap())
        .sum();
    assert_close(all, each, 1e-14, "multi_normal_prec");
    // ν = ∞ is the normal.
    let t = multi_student_t_lpdf(&Y, f64::INFINITY, &mu, &sigma).unwrap();
    assert_close(
        t,
        multi_normal_lpdf(&Y, &mu, &sigma).unwrap(),
        1e-14,
        "nu = inf",
    );
    // Empty rows: 0.
    let none: Vec<Vec<f64>> = vec![];
    assert_eq!(multi_normal_lpdf(&none, &mu, &sigma).unwrap(), 0.0);
}

#[test]
fn nalgebra_arguments() {
    let s = spd(&[0.1, 0.2, 0.3, -0.1, 0.2, 0.0]);
    let sm = DMatrix::from_fn(3, 3, |i, j| s[i][j]);
    let ym = DMatrix::from_fn(3, 3, |i, j| Y[i][j]);
    let mu = DVector::from_vec(vec![0.1, 0.2, 0.3]);
    let a = multi_normal_lpdf(&ym, &mu, &sm).unwrap();
    let b = multi_normal_lpdf(&Y, &[0.1, 0.2, 0.3], &s).unwrap();
    assert_close(a, b, 1e-15, "DMatrix rows");
    let ys: Vec<DVector<f64>> = Y.iter().map(|r| DVector::from_row_slice(r)).collect();
    assert_close(
        multi_normal_lpdf(&ys, &mu, &sm).unwrap(),
        b,
        1e-15,
        "DVector rows",
    );
    // Active nalgebra arguments.
    let (_, g) = gradient(
        |p| {
            let mu = DVector::from_column_slice(&p[0..3]);
            let s = DMatrix::from_fn(3, 3, |i, j| sm[(i, j)] * p[3]);
            multi_normal_lpdf(&ym, &mu, &s).unwrap()
        },
        &[0.1, 0.2, 0.3, 1.0],
    );
    let (_, g2) = gradient(
        |p| {
            let s: Vec<Vec<Var>> = s
                .iter()
                .map(|r| r.iter().map(|v| p[3] * *v).collect())
                .collect();
            multi_normal_lpdf(&Y, &p[0..3], &s).unwrap()
        },
        &[0.1, 0.2, 0.3, 1.0],
    );
    assert_all_close(&g, &g2, 1e-14, "nalgebra gradient");
}

/// Generic code with data, literals and active values mixed (what `#[differentiate]`
/// bodies are): the results are `S`.
fn generic<S: Real>(p: &[S], y: &[Vec<f64>]) -> Result<S, DomainError>
where
    f64: ScalarOps<S>,
{
    let sigma: Vec<Vec<f64>> = vec![vec![1.0, 0.2], vec![0.2, 1.0]];
    let a: S = multi_normal_lpdf(y, &p[0..2], &sigma)?;
    let b: S = multi_student_t_lpdf(y, 4.0, &p[0..2], &sigma)?;
    let c: S = multi_student_t_lpdf(y, p[2], &[0.0, 0.0], &sigma)?;
    let d: S = lkj_corr_lpdf(&sigma, p[2])?;
    let e: S = wishart_lpdf(&sigma, p[2] + 2.0, &sigma)?;
    let f: f64 = multi_normal_lpdf(y, &[0.0, 0.0], &sigma)?;
    let g: S = dirichlet_lpdf(&[0.5, 0.5], &p[0..2])?;
    Ok(a + b + c + d + e + f + g)
}

#[test]
fn generic_bodies_mix_data_literals_and_active_values() {
    let y = vec![vec![0.1, 0.2], vec![-0.3, 0.4]];
    let p = [0.7, 1.1, 3.0];
    let v: f64 = generic(&p, &y).unwrap();
    let (w, g) = gradient(|p| generic(p, &y).unwrap(), &p);
    assert_eq!(v, w);
    let fd = fd_gradient(|p| generic(p, &y).unwrap(), &p);
    assert_all_close(&g, &fd, 1e-8, "generic gradient");
}

#[test]
fn stan_checks_and_messages() {
    let msg = |r: Result<f64, DomainError>| r.unwrap_err().to_string();
    let s = vec![vec![1.0, 0.2], vec![0.2, 1.0]];
    let mu = [0.0, 0.0];
    assert_eq!(
        msg(multi_normal_lpdf(&[1.0, 2.0, 3.0], &mu, &s)),
        "multi_normal_lpdf: Size of random variable (3) and size of location parameter (2) \
         must match in size"
    );
    assert_eq!(
        msg(multi_normal_lpdf(
            &[1.0, 2.0],
            &mu,
            &[vec![1.0, 0.0, 0.0], vec![0.0, 1.0, 0.0]]
        )),
        "multi_normal_lpdf: Size of random variable (2) and columns of covariance parameter (3) \
         must match in size"
    );
    assert_eq!(
        msg(multi_normal_lpdf(&[vec![1.0, 2.0], vec![1.0]], &mu, &s)),
        "multi_normal_lpdf: Random variable has rows of different sizes: row 2 has size 1, \
         but row 1 has size 2"
    );
    assert_eq!(
        msg(multi_normal_lpdf(&[[1.0, 2.0]; 3], &[[0.0, 0.0]; 2], &s)),
        "multi_normal_lpdf: y has size = 3, but mu has size 2; and they must be the same size."
    );
    assert_eq!(
        msg(multi_normal_lpdf(&[f64::NAN, 2.0], &mu, &s)),
        "multi_normal_lpdf: Random variable[1] is nan, but must be not nan!"
    );
    assert_eq!(
        msg(multi_normal_lpdf(&[1.0, 2.0], &[0.0, f64::INFINITY], &s)),
        "multi_normal_lpdf: Location parameter[2] is inf, but must be finite!"
    );
    assert_eq!(
        msg(multi_normal_lpdf(
            &[1.0, 2.0],
            &mu,
            &[vec![1.0, 0.2], vec![0.3, 1.0]]
        )),
        "multi_normal_lpdf: Covariance matrix is not symmetric. Covariance matrix[1,2] = 0.2, \
         but Covariance matrix[2,1] = 0.3"
    );
    assert_eq!(
        msg(multi_normal_lpdf(
            &[1.0, 2.0],
            &mu,
            &[vec![1.0, 2.0], vec![2.0, 1.0]]
        )),
        "multi_normal_lpdf: Covariance matrix is not positive definite."
    );
    assert_eq!(
        msg(multi_normal_prec_lpdf(
            &[1.0, 2.0],
            &mu,
            &[vec![-1.0, 0.0], vec![0.0, 1.0]]
        )),
        "multi_normal_prec_lpdf: Precision matrix is not positive definite."
    );
    assert_eq!(
        msg(multi_normal_cholesky_lpdf(
            &[1.0, 2.0],
            &mu,
            &[vec![1.0, 0.0], vec![0.5, -1.0]]
        )),
        "multi_normal_cholesky_lpdf: Cholesky factor of covariance matrix[2] is -1, but must \
         be positive!"
    );
    assert_eq!(
        msg(multi_student_t_lpdf(&[1.0, 2.0], -1.0, &mu, &s)),
        "multi_student_t_lpdf: Degrees of freedom parameter is -1, but must be positive!"
    );
    assert_eq!(
        msg(multi_student_t_lpdf(
            &[1.0, 2.0],
            3.0,
            &mu,
            &[vec![1.0, 0.2], vec![0.25, 1.0]]
        )),
        "multi_student_t_lpdf: Scale parameter is not symmetric. Scale parameter[1,2] = 0.2, \
         but Scale parameter[2,1] = 0.25"
    );
    assert_eq!(
        msg(lkj_corr_lpdf(&s, 0.0)),
        "lkj_corr_lpdf: Shape parameter is 0, but must be positive!"
    );
    assert_eq!(
        msg(lkj_corr_lpdf(&[vec![2.0, 0.2], vec![0.2, 1.0]], 1.0)),
        "lkj_corr_lpdf: Correlation matrix is not a valid correlation matrix. Correlation \
         matrix(1,1) is 2, but should be near 1.0"
    );
    assert_eq!(
        msg(lkj_corr_cholesky_lpdf(
            &[vec![1.0, 0.1], vec![0.2, 0.9]],
            1.0
        )),
        "lkj_corr_cholesky_lpdf: Random variable is not lower triangular; Random \
         variable[1,2]=0.1"
    );
    assert_eq!(
        msg(dirichlet_lpdf(&[0.2, 0.3], &[1.0, 1.0])),
        "dirichlet_lpdf: probabilities is not a valid simplex. sum(probabilities) = 0.5, but \
         should be 1"
    );
    assert_eq!(
        msg(dirichlet_lpdf(&[0.5, 0.5], &[1.0, 0.0])),
        "dirichlet_lpdf: prior sample sizes[2] is 0, but must be positive!"
    );
    assert_eq!(
        msg(dirichlet_lpdf(&[0.5, 0.5], &[1.0, 1.0, 1.0])),
        "dirichlet_lpdf: probabilities has size = 2, but prior sample sizes has size 3; and \
         they must be the same size."
    );
    assert_eq!(
        msg(wishart_lpdf(&s, 1.0, &s)),
        "wishart_lpdf: Degrees of freedom parameter is 1, but must be greater than 1.000000"
    );
    assert_eq!(
        msg(wishart_lpdf(&s, 3.0, &[vec![1.0]])),
        "wishart_lpdf: Rows of random variable (2) and columns of scale parameter (1) must \
         match in size"
    );
    assert_eq!(
        msg(inv_wishart_lpdf(&[vec![1.0, 2.0], vec![2.0, 1.0]], 3.0, &s)),
        "inv_wishart_lpdf: random variable is not positive definite."
    );
    assert_eq!(
        msg(multinomial_lpmf(&[1, 2], &[0.2, 0.3, 0.5])),
        "multinomial_lpmf: Size of number of trials variable (2) and rows of probabilities \
         parameter (3) must match in size"
    );
    assert_eq!(
        msg(multinomial_lpmf(&[1, -2, 1], &[0.2, 0.3, 0.5])),
        "multinomial_lpmf: Number of trials variable[2] is -2, but must be nonnegative!"
    );
    assert_eq!(
        msg(categorical_lpmf(&[1, 0], &[0.2, 0.3, 0.5])),
        "categorical_lpmf: Number of categories[2] is 0, but must be in the interval [1, 3]"
    );
    assert_eq!(
        msg(categorical_lpmf(1, &[0.2, 0.3, -0.5, 1.0])),
        "categorical_lpmf: Probabilities parameter is not a valid simplex. Probabilities \
         parameter[3] = -0.5, but should be greater than or equal to 0"
    );
    assert_eq!(
        msg(categorical_logit_lpmf(4, &[0.0, 1.0, 2.0])),
        "categorical_logit_lpmf: categorical outcome out of support is 4, but must be in the \
         interval [1, 3]"
    );
    assert_eq!(
        msg(categorical_logit_lpmf(1, &[0.0, f64::NAN])),
        "categorical_logit_lpmf: log odds parameter[2] is nan, but must be finite!"
    );
    // An empty set of outcomes: 0, as Stan.
    let none: [i64; 0] = [];
    assert_eq!(categorical_lpmf(&none, &[0.5, 0.5]).unwrap(), 0.0);
}
