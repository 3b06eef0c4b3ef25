//! Rows of floats (`Vec<Vec<f64>>`) made in the body: nested `collect`, rows pushed in a
//! loop, a matrix transform's factor (`cholesky_corr_constrain(.., &mut lp)`), products
//! (`matmul`) and a density over rows (`lkj_corr_cholesky_lpdf`). The rows are then read
//! as sequences of their own (`m[1][j]`, `m[0].iter()`, `&m[2]`).

use super::ctx::Ctx;
use super::expr::E;
use super::interval::Iv;
use super::scope::{Ty, Var};

impl Ctx<'_> {
    /// Declare rows; `false` if nothing fits here.
    pub fn local_rows(&mut self) -> bool {
        match self.weighted(&[3, 2, 3]) {
            0 => self.rows_collect(),
            1 => self.rows_push(),
            _ => self.rows_transform(),
        }
    }

    /// A sequence to make `k` rows from (2 or 3), if one fits here.
    fn rows_source(&mut self) -> Option<(Var, usize)> {
        let s = self.pick_var(true, |v| v.ty.is_seq() && !v.hidden)?;
        let k = self.rng.usize(2..4);
        (self.trips * (k * s.len.1) as u64 <= 400).then_some((s, k))
    }

    /// The closure `|v| ..` mapping the elements of `s` to row `i` (of `k`).
    fn row_map(&mut self, s: &Var, i: &str, k: usize) -> (Var, E) {
        self.in_closure += 1;
        let v = self.elem_param(s, false);
        let body = self.scoped(|cx| {
            cx.scopes
                .add(Var::new(i, Ty::Usize, Iv::new(0.0, k as f64 - 1.0)));
            cx.lambda(vec![v.clone()], &v)
        });
        self.in_closure -= 1;
        (v, body)
    }

    /// `let m: Vec<Vec<f64>> = (0..k).map(|i| s.iter().map(|v| ..).collect()).collect();`
    fn rows_collect(&mut self) -> bool {
        let Some((s, k)) = self.rows_source() else {
            return false;
        };
        self.tag("rows-collect");
        let (name, i) = (self.fresh("m"), self.fresh("i"));
        let (v, body) = self.row_map(&s, &i, k);
        self.line(&format!(
            "let {name}: Vec<Vec<f64>> = (0..{k}).map(|{i}| {}.iter().map(|{}| {}).collect()).collect();",
            s.name, v.name, body.code
        ));
        let active = body.active || s.active;
        self.add_rows(&name, k, s.len, body.iv, active);
        true
    }

    /// `let mut m = Vec::new(); for i in 0..k { let r: Vec<f64> = ..collect(); m.push(r); }`
    fn rows_push(&mut self) -> bool {
        let Some((s, k)) = self.rows_source() else {
            return false;
        };
        self.tag("rows-push");
        let (name, i, r) = (self.fresh("m"), self.fresh("i"), self.fresh("r"));
        self.line(&format!("let mut {name} = Vec::new();"));
        self.open(&format!("for {i} in 0..{k} {{"));
        let (v, body) = self.row_map(&s, &i, k);
        self.line(&format!(
            "let {r}: Vec<f64> = {}.iter().map(|{}| {}).collect();",
            s.name, v.name, body.code
        ));
        self.line(&format!("{name}.push({r});"));
        self.close("}");
        let active = body.active || s.active;
        self.add_rows(&name, k, s.len, body.iv, active);
        true
    }

    /// `let mut lp = 0.0; let l = cholesky_corr_constrain(&s[..3], 3, &mut lp);`, then
    /// maybe its LKJ density or a product of it with itself.
    fn rows_transform(&mut self) -> bool {
        let Some(s) = self.pick_var(true, |v| {
            v.ty.is_seq() && !v.hidden && v.len.0 >= 3 && v.iv.mag() <= 4.0
        }) else {
            return false;
        };
        self.tag("rows-transform");
        let (lp, l) = (self.fresh("lp"), self.fresh("l"));
        self.line(&format!("let mut {lp} = 0.0;"));
        self.line(&format!(
            "let {l} = cholesky_corr_constrain(&{}[..3], 3, &mut {lp});",
            s.name
        ));
        // ln(1 - tanh²y) = -2 ln cosh y >= -2|y|: three of them, and half-logs of what
        // is left of each row.
        let lo = -(6.0 * s.iv.mag() + 40.0);
        self.scopes
            .add(Var::new(lp.clone(), Ty::F64, Iv::new(lo, 0.0)).active(s.active));
        self.add_rows(&l, 3, (3, 3), Iv::sym(1.0), s.active);
        match self.weighted(&[2, 2, 1]) {
            0 => {
                self.tag("rows-lkj");
                let (t, eta) = (self.fresh("t"), self.pick(&["1.0", "2.0", "1.5"]));
                self.line(&format!(
                    "let {t} = lkj_corr_cholesky_lpdf(&{l}, {eta}).unwrap();"
                ));
                // Diagonal entries of at least tanh(4)-saturated rows: ln L_kk > -10.
                self.scopes
                    .add(Var::new(t, Ty::F64, Iv::new(-40.0, 5.0)).active(s.active));
            }
            1 => {
                self.tag("rows-matmul");
                let p = self.fresh("m");
                self.line(&format!("let {p} = matmul(&{l}, &{l});"));
                self.add_rows(&p, 3, (3, 3), Iv::sym(3.0), s.active);
            }
            _ => {}
        }
        true
    }

    /// Each row of `name` as a sequence of its own (`name[r]`).
    fn add_rows(&mut self, name: &str, k: usize, len: (usize, usize), iv: Iv, active: bool) {
        for r in 0..k {
            let row = format!("{name}[{r}]");
            let w = Var::new(row.clone(), Ty::Vec, iv)
                .active(active)
                .seq(len, Some(format!("{row}.len()")));
            self.scopes.add(w);
        }
    }
}
