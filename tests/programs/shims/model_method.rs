impl EightSchools {
    pub fn log_density_grad(&self, theta: &[f64]) -> (f64, Vec<f64>) {
        shim_gradient(|t| self.log_density(t), theta)
    }

    pub fn log_density_checked_grad(&self, theta: &[f64]) -> Result<(f64, Vec<f64>), DomainError> {
        let v = self.log_density_checked(theta)?;
        Ok((v, closed_form(theta)))
    }
}
