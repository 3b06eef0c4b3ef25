//! The forward sweep of `reduce_sum` in adjoint code: `reduce_sum_grad` over the chunk
//! function's `_grad_into` (each chunk on its own thread, into its own buffer), the
//! gradient kept for the reverse sweep like a taped call's.

use super::*;

impl Printer<'_> {
    /// `args`: the data, the grainsize, then the chunk function's captures.
    pub fn fwd_reduce(
        &self,
        s: &Stmt,
        c: &Call,
        grad_into: &TokenStream,
    ) -> Result<TokenStream, String> {
        let (xs, g) = (self.tmp("xs"), self.tmp("gb"));
        let (data, grain) = match &c.args[..] {
            [CallArg::Data(d, ..), CallArg::Data(gr, ..), ..] => (&d.0, &gr.0),
            _ => return Err("a `reduce_sum` call without its data and grainsize".into()),
        };
        let mut fill = Vec::new();
        let mut args = Vec::new();
        for a in &c.args[2..] {
            match a {
                CallArg::Scalar(op) => {
                    let (o, x) = (self.tmp("o"), self.op(op));
                    fill.push(quote!(let #o = #xs.len(); #xs.push(#x);));
                    args.push(quote!(#xs[#o]));
                }
                CallArg::Slice(seq) if seq.depth > 0 => {
                    return Err("rows of active values captured by `reduce_sum`".into())
                }
                CallArg::Slice(seq) => {
                    let (o, e) = (self.tmp("o"), self.tmp("e"));
                    let sl = self.seq_slice(seq);
                    fill.push(
                        quote!(let #o = #xs.len(); #xs.extend_from_slice(#sl); let #e = #xs.len();),
                    );
                    args.push(quote!(&#xs[#o..#e]));
                }
                CallArg::Data(t, ..) => {
                    let t = &t.0;
                    args.push(quote!(#t));
                }
                CallArg::InOut(_) => return Err("a `&mut` float captured by `reduce_sum`".into()),
            }
        }
        let out = c.out.ok_or("a `reduce_sum` call without a result")?;
        let n = self.name(out);
        let saves = self.saves_of_call(s, c)?;
        let keep = self.keep_gradient(c, &g);
        Ok(quote!({
            let mut #xs = __fz_st.take_buf();
            #(#fill)*
            let mut #g = __fz_st.take_buf();
            #g.resize(#xs.len(), 0.0);
            let __fz_y: f64 = ::fazang::__private::reduce_sum_grad(
                #data,
                #grain,
                &mut #g[..],
                |__fz_c, __fz_s, __fz_b| #grad_into(#(#args,)* __fz_c, __fz_s, __fz_b),
            );
            #saves
            #n = __fz_y;
            __fz_st.give_buf(#xs);
            #keep
        }))
    }
}
