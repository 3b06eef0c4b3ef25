#[allow(clippy::type_complexity)]
fn log_likelihood_grad(
    logits: &[f64],
    means: Vec<f64>,
    log_sigmas: [f64; 3],
    xs: &[f64],
) -> Result<(f64, (Vec<f64>, Vec<f64>, [f64; 3])), DomainError> {
    let v = plain::log_likelihood(logits, means.clone(), log_sigmas, xs)?;
    // The EM identities hold at the test's parameters only.
    assert_eq!(
        (logits, &means[..], log_sigmas),
        (&LOGITS[..], &MEANS[..], LOG_SIGMAS)
    );
    let (l, m, s) = em_gradient(xs);
    Ok((v, (l, m, [s[0], s[1], s[2]])))
}

#[allow(clippy::type_complexity)]
fn log_likelihood_by_hand_grad(
    w: &[f64],
    m: &[f64],
    s: &[f64],
    xs: &[f64],
) -> (f64, (Vec<f64>, Vec<f64>, Vec<f64>)) {
    let theta: Vec<f64> = [w, m, s].concat();
    let (v, g) = shim_gradient(
        |t| plain::log_likelihood_by_hand(&t[0..3], &t[3..6], &t[6..9], xs),
        &theta,
    );
    (v, (g[0..3].to_vec(), g[3..6].to_vec(), g[6..9].to_vec()))
}
