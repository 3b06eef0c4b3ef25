use fazang::prelude::*;

// Parameters borrowed for `'static`: the active one and the data one.
#[differentiate(wrt(beta))]
fn dot(beta: &'static [f64], xs: &'static [f64]) -> f64 {
    beta.iter().zip(xs).map(|(b, x)| b * x).sum()
}

static BETA: [f64; 2] = [0.5, -1.0];
static XS: [f64; 2] = [2.0, 3.0];

fn main() {
    let (v, g) = dot_grad(&BETA, &XS);
    assert_eq!(v, dot(&BETA, &XS));
    assert_eq!(g, vec![2.0, 3.0]);
}
