use fazang::prelude::*;

#[differentiate(wrt(y), speed = 3)]
async fn f(x: &mut f64) -> String {
    String::new()
}

fn main() {}
