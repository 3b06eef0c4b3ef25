//@ in mod kinetics
    pub fn sse_grad(params: &[f64], data: &Assay) -> (f64, Vec<f64>) {
        super::shim_gradient(|t| sse(t, data), params)
    }

    pub fn r_squared_grad(params: &[f64], data: &Assay) -> (f64, Vec<f64>) {
        super::shim_gradient(|t| r_squared(t, data), params)
    }

    pub fn log_posterior_grad(
        params: &[f64],
        data: &Assay,
        sd: f64,
    ) -> Result<(f64, (Vec<f64>, f64)), DomainError> {
        let v = log_posterior(params, data, sd)?;
        let (_, g) = super::shim_gradient(
            |t| log_posterior(&t[0..2], data, t[2]).unwrap(),
            &[params[0], params[1], sd],
        );
        Ok((v, (g[0..2].to_vec(), g[2])))
    }
