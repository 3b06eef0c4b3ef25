use fazang::prelude::*;

struct Model {
    scale: f64,
}

impl Model {
    #[differentiate]
    fn logp(&self, x: f64) -> f64 {
        self.scale * x
    }
}

fn main() {}
