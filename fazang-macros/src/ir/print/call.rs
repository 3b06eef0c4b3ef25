//! Calls of functions the macro cannot see into, differentiated once, in the forward
//! sweep: by forward lanes (`Dual<f64, [f64; K]>`, one lane per active scalar input:
//! the partials kept in data variables), or on the tape (one recording; a differentiated
//! callee records one node; the gradient kept on the stack for the reverse sweep).

use super::*;

impl Printer<'_> {
    /// The data arguments of a call, converted to the callee's scalar where it needs.
    fn data_arg(
        &self,
        c: &Call,
        t: &TokenStreamEq,
        shape: DataArg,
        scalar: &TokenStream,
    ) -> TokenStream {
        let t = &t.0;
        match (c.convert, shape) {
            (false, _) | (true, DataArg::Other) => quote!(#t),
            // Without a lane argument nothing else names the callee's scalar.
            (true, DataArg::Float) if !scalar.is_empty() => {
                quote!(::fazang::__private::lit::<#scalar>(#t))
            }
            (true, DataArg::Float) => quote!(::fazang::__private::lit(#t)),
            (true, DataArg::FloatSlice) => quote!(&*::fazang::__private::adapt_ref(#t)),
            (true, DataArg::Pass) => quote!(::fazang::__private::pass(#t)),
            (true, DataArg::Unseen { by_ref: false }) => {
                quote!(::fazang::__private::DataArg::new(#t).get())
            }
            (true, DataArg::Unseen { by_ref: true }) => {
                quote!(&*::fazang::__private::DataRefArg::new(#t).get())
            }
        }
    }

    /// `?`, `.unwrap()`, `.expect(..)` on a call's result.
    fn unwrapped(&self, c: &Call, call: TokenStream) -> TokenStream {
        match &c.fallible {
            Fallible::No => call,
            Fallible::Question => quote!(#call?),
            Fallible::Unwrap => quote!(#call.unwrap()),
            Fallible::Expect(m) => {
                let m = &m.0;
                quote!(#call.expect(#m))
            }
            // The constant is a number of the call's scalar: no derivative.
            Fallible::UnwrapOr(c) => {
                let c = &c.0;
                quote!(#call.unwrap_or(::fazang::__private::lit(#c)))
            }
        }
    }

    pub fn fwd_call(&self, s: &Stmt, c: &Call) -> Result<TokenStream, String> {
        match c.how {
            CallHow::Lanes => self.fwd_lanes(s, c),
            CallHow::Tape => self.fwd_tape(s, c),
        }
    }

    fn fwd_lanes(&self, s: &Stmt, c: &Call) -> Result<TokenStream, String> {
        let k = c
            .args
            .iter()
            .filter(|a| matches!(a, CallArg::Scalar(_) | CallArg::InOut(_)))
            .count();
        let mut pre = Vec::new();
        let mut args = Vec::new();
        let mut inouts = Vec::new();
        let mut lane = 0usize;
        for a in &c.args {
            match a {
                CallArg::Scalar(op) => {
                    let (t, x, l) = (self.tmp("l"), self.fop(op), self.lane_fn(k));
                    pre.push(quote!(let #t = #l(#x, #lane);));
                    args.push(quote!(#t));
                    lane += 1;
                }
                CallArg::InOut(v) => {
                    let (t, x, l) = (self.tmp("l"), self.name(*v), self.lane_fn(k));
                    pre.push(quote!(let mut #t = #l(#x, #lane);));
                    args.push(quote!(&mut #t));
                    inouts.push((*v, t));
                    lane += 1;
                }
                CallArg::Data(t, reads, shape) if self.generic => {
                    // Data is constant: in code over dual numbers, a float reads values.
                    let sh = self.shadow_reads(reads);
                    let t = &t.0;
                    let t = TokenStreamEq(quote!({ #sh #t }));
                    let sc = if k == 0 {
                        quote!(::fazang::Dual<__FzT, [__FzT; 0]>)
                    } else {
                        quote!()
                    };
                    args.push(self.data_arg(c, &t, *shape, &sc))
                }
                CallArg::Data(t, _, shape) => {
                    let sc = if k == 0 {
                        quote!(::fazang::Dual<f64, [f64; 0]>)
                    } else {
                        quote!()
                    };
                    args.push(self.data_arg(c, t, *shape, &sc))
                }
                CallArg::Slice(_) => return Err("an array passed by lanes".into()),
            }
        }
        let callee = &c.callee.0;
        let call = self.unwrapped(c, quote!(#callee(#(#args),*)));
        let saves = self.saves_of_call(s, c)?;
        let r = self.tmp("r");
        let mut after = Vec::new();
        let mut row = 0usize;
        if let Some(out) = c.out {
            // Read through `LaneResult`: a callee returning a plain `f64` gives a constant
            // (no rustc error of its own beside the one at its arguments).
            let n = self.name(out);
            let re = quote!(::fazang::__private::lane_re(&#r));
            after.push(quote!(#n = #re;));
            let sets = c.partials[row].iter().enumerate().map(|(j, p)| {
                let pn = self.name(*p);
                let eps = quote!(::fazang::__private::lane_eps(&#r, #j));
                quote!(#pn = #eps;)
            });
            after.extend(sets);
            row += 1;
        } else if let Some((values, jac)) = c.out_array {
            let (vn, jn) = (self.name(values), self.name(jac));
            after.push(quote!(::fazang::__private::lanes_out(&#r[..], &mut #vn, &mut #jn);));
        } else if let Some(d) = c.data_out {
            let n = self.name(d);
            after.push(quote!(#n = #r;));
        }
        for (v, t) in &inouts {
            let n = self.name(*v);
            after.push(quote!(#n = #t.re;));
            after.push(self.lanes_into(c, row, t));
            row += 1;
        }
        Ok(quote!({ #(#pre)* let #r = #call; #saves #(#after)* }))
    }

    /// `p[row][j] = x.eps[j]`.
    fn lanes_into(&self, c: &Call, row: usize, x: &Ident) -> TokenStream {
        let sets = c.partials[row].iter().enumerate().map(|(j, p)| {
            let n = self.name(*p);
            quote!(#n = #x.eps[#j];)
        });
        quote!(#(#sets)*)
    }

    pub(super) fn saves_of_call(&self, s: &Stmt, c: &Call) -> Result<TokenStream, String> {
        let _ = c;
        let mut out = Vec::new();
        for v in super::super::visit::defs(s) {
            if self.saves(s, v) {
                out.push(self.push(v)?);
            }
        }
        Ok(quote!(#(#out)*))
    }

    fn fwd_tape(&self, s: &Stmt, c: &Call) -> Result<TokenStream, String> {
        if let Some(g) = &c.reduce {
            return self.fwd_reduce(s, c, &g.0);
        }
        if c.jac_lanes > 0 {
            return self.fwd_jac_lanes(s, c);
        }
        let (xs, g, vs) = (self.tmp("xs"), self.tmp("gb"), self.tmp("v"));
        let mut fill = Vec::new();
        let mut args = Vec::new();
        let mut inouts = Vec::new();
        for a in &c.args {
            match a {
                CallArg::Scalar(op) => {
                    let (o, x) = (self.tmp("o"), self.op(op));
                    fill.push(quote!(let #o = #xs.len(); #xs.push(#x);));
                    args.push(quote!(#vs[#o]));
                }
                CallArg::Slice(seq) if seq.depth > 0 => {
                    // Rows: flattened into the inputs, shaped back for the callee.
                    let (o, e) = (self.tmp("o"), self.tmp("e"));
                    let sl = self.seq_slice(seq);
                    fill.push(quote! {
                        let #o = #xs.len();
                        ::fazang::__private::flatten_into(&mut #xs, #sl);
                        let #e = #xs.len();
                    });
                    args.push(quote!(&::fazang::__private::vars_like(&#vs[#o..#e], #sl)[..]));
                }
                CallArg::Slice(seq) => {
                    let (o, e) = (self.tmp("o"), self.tmp("e"));
                    let sl = self.seq_slice(seq);
                    fill.push(
                        quote!(let #o = #xs.len(); #xs.extend_from_slice(#sl); let #e = #xs.len();),
                    );
                    // fazang's functions take slices; other callees the shape of their
                    // parameter (a slice, an array, a vector).
                    args.push(if c.convert {
                        quote!(::fazang::__private::from_vars(&#vs[#o..#e]))
                    } else {
                        quote!(&#vs[#o..#e])
                    });
                }
                CallArg::Data(t, _, shape) => args.push(self.data_arg(c, t, *shape, &quote!())),
                CallArg::InOut(v) => {
                    let (o, x, io) = (self.tmp("o"), self.name(*v), self.tmp("io"));
                    fill.push(quote!(let #o = #xs.len(); #xs.push(#x);));
                    inouts.push((io.clone(), o));
                    args.push(quote!(&mut #io));
                }
            }
        }
        let callee = &c.callee.0;
        if !inouts.is_empty() || c.result_rows {
            return self.fwd_tape_inouts(s, c, (&xs, &vs), fill, args, inouts);
        }
        let call = self.unwrapped(c, quote!(#callee(#(#args),*)));
        if let Some((values, jac)) = c.out_array {
            let (vn, jn) = (self.name(values), self.name(jac));
            let saves = self.saves_of_call(s, c)?;
            let run = match c.fallible {
                Fallible::Question => {
                    quote!(::fazang::__private::taped_call_vec_result(&#xs, &mut __fz_jac, |#vs: &[::fazang::Var]| #callee(#(#args),*))?)
                }
                _ => {
                    quote!(::fazang::__private::taped_call_vec(&#xs, &mut __fz_jac, |#vs: &[::fazang::Var]| #call))
                }
            };
            return Ok(quote!({
                let mut #xs = __fz_st.take_buf();
                #(#fill)*
                let mut __fz_jac = ::std::vec::Vec::new();
                let __fz_ys: ::std::vec::Vec<f64> = #run;
                #saves
                #vn = __fz_ys;
                #jn = __fz_jac;
                __fz_st.give_buf(#xs);
            }));
        }
        let out = c.out.expect("a taped call returns a float");
        let n = self.name(out);
        let saves = self.saves_of_call(s, c)?;
        let run = match c.fallible {
            Fallible::Question => {
                quote!(::fazang::__private::taped_call_result(&#xs, &mut #g, |#vs: &[::fazang::Var]| #callee(#(#args),*))?)
            }
            _ => {
                quote!(::fazang::__private::taped_call(&#xs, &mut #g, |#vs: &[::fazang::Var]| #call))
            }
        };
        let keep = self.keep_gradient(c, &g);
        Ok(quote!({
            let mut #xs = __fz_st.take_buf();
            #(#fill)*
            let mut #g = __fz_st.take_buf();
            let __fz_y: f64 = #run;
            #saves
            #n = __fz_y;
            __fz_st.give_buf(#xs);
            #keep
        }))
    }

    /// A taped call with `&mut` floats: the closure returns the result's entries, then
    /// each `&mut` float's new value; they are copied out of `values` after the call.
    fn fwd_tape_inouts(
        &self,
        s: &Stmt,
        c: &Call,
        (xs, vs): (&Ident, &Ident),
        fill: Vec<TokenStream>,
        args: Vec<TokenStream>,
        inouts: Vec<(Ident, Ident)>,
    ) -> Result<TokenStream, String> {
        let (values, jac) = c.out_array.ok_or("a taped call with `&mut` floats")?;
        let (vn, jn) = (self.name(values), self.name(jac));
        let callee = &c.callee.0;
        let lets = inouts.iter().map(|(io, o)| quote!(let mut #io = #vs[#o];));
        let pushes = inouts.iter().map(|(io, _)| quote!(__fz_outs.push(#io);));
        // Rows: their lengths kept to shape the result again.
        let lens = if c.result_rows {
            quote!(::fazang::__private::row_lens(&__fz_r, &mut __fz_lens);)
        } else {
            quote!()
        };
        let collect = quote!(|__fz_r| {
            #lens
            let mut __fz_outs = ::std::vec::Vec::new();
            ::fazang::__private::Outputs::push_outputs(__fz_r, &mut __fz_outs);
            #(#pushes)*
            __fz_outs
        });
        let run = match c.fallible {
            Fallible::Question => quote!(::fazang::__private::taped_call_vec_result(
                &#xs, &mut __fz_jac, |#vs: &[::fazang::Var]| {
                    #(#lets)*
                    let __fz_c = #callee(#(#args),*);
                    __fz_c.map(#collect)
                })?),
            _ => {
                let call = self.unwrapped(c, quote!(#callee(#(#args),*)));
                quote!(::fazang::__private::taped_call_vec(
                &#xs, &mut __fz_jac, |#vs: &[::fazang::Var]| {
                    #(#lets)*
                    let __fz_c = #call;
                    (#collect)(__fz_c)
                }))
            }
        };
        let sets = self.output_sets(c);
        let saves = self.saves_of_call(s, c)?;
        let lens_decl = if c.result_rows {
            quote!(let mut __fz_lens: ::std::vec::Vec<usize> = ::std::vec::Vec::new();)
        } else {
            quote!()
        };
        Ok(quote!({
            let mut #xs = __fz_st.take_buf();
            #(#fill)*
            let mut __fz_jac = ::std::vec::Vec::new();
            #lens_decl
            let __fz_ys: ::std::vec::Vec<f64> = #run;
            #saves
            #(#sets)*
            #vn = __fz_ys;
            #jn = __fz_jac;
            __fz_st.give_buf(#xs);
        }))
    }

    /// The outputs of a call with `&mut` floats or rows, copied out of its flat values
    /// `__fz_ys` (the result's entries, then each `&mut` float's new value; rows shaped
    /// by `__fz_lens`).
    fn output_sets(&self, c: &Call) -> Vec<TokenStream> {
        let n = c
            .args
            .iter()
            .filter(|a| matches!(a, CallArg::InOut(_)))
            .count();
        let mut sets = vec![quote!(let __fz_m = __fz_ys.len() - #n;)];
        if let Some(out) = c.out {
            let o = self.name(out);
            sets.push(quote!(#o = __fz_ys[0];));
        }
        if let Some(r) = c.result_array {
            let r = self.name(r);
            sets.push(if c.result_rows {
                quote!(#r = ::fazang::__private::rows_from(&__fz_ys[..__fz_m], &__fz_lens);)
            } else {
                quote!(#r = __fz_ys[..__fz_m].to_vec();)
            });
        }
        let ios = c.args.iter().filter_map(|a| match a {
            CallArg::InOut(v) => Some(self.name(*v)),
            _ => None,
        });
        for (j, io) in ios.enumerate() {
            sets.push(quote!(#io = __fz_ys[__fz_m + #j];));
        }
        sets
    }

    /// A taped call's values and Jacobian from one call on forward lanes (see
    /// [`Call::jac_lanes`]): the same outputs, in the same layout, as the recording's.
    fn fwd_jac_lanes(&self, s: &Stmt, c: &Call) -> Result<TokenStream, String> {
        let k = c.jac_lanes;
        let (values, jac) = c
            .out_array
            .ok_or("a call on lanes without a vector result")?;
        let lane = quote!(::fazang::__private::lane::<#k>);
        let (mut pre, mut args, mut outs) = (Vec::new(), Vec::new(), Vec::new());
        for a in &c.args {
            match a {
                CallArg::Scalar(op) => {
                    let (t, x) = (self.tmp("l"), self.op(op));
                    pre.push(quote!(let #t = #lane(#x, __fz_lane); __fz_lane += 1;));
                    args.push(quote!(#t));
                }
                CallArg::InOut(v) => {
                    let (t, x) = (self.tmp("l"), self.name(*v));
                    pre.push(quote!(let mut #t = #lane(#x, __fz_lane); __fz_lane += 1;));
                    args.push(quote!(&mut #t));
                    outs.push(quote!(::fazang::__private::lane_outputs(&#t, &mut __fz_ys, &mut __fz_jac);));
                }
                CallArg::Slice(seq) => {
                    let (t, sl) = (self.tmp("l"), self.seq_slice(seq));
                    pre.push(
                        quote!(let #t = ::fazang::__private::lanes_of::<#k>(#sl, &mut __fz_lane);),
                    );
                    args.push(quote!(&#t[..]));
                }
                CallArg::Data(t, _, shape) => args.push(self.data_arg(c, t, *shape, &quote!())),
            }
        }
        let callee = &c.callee.0;
        let call = self.unwrapped(c, quote!(#callee(#(#args),*)));
        let lens = if c.result_rows {
            quote! {
                let mut __fz_lens = ::std::vec::Vec::new();
                ::fazang::__private::row_lens_of(&__fz_r[..], &mut __fz_lens);
            }
        } else {
            quote!()
        };
        let sets = if self.has_inouts(c) || c.result_array.is_some() {
            self.output_sets(c)
        } else {
            Vec::new()
        };
        let (vn, jn) = (self.name(values), self.name(jac));
        let saves = self.saves_of_call(s, c)?;
        Ok(quote!({
            let mut __fz_lane = 0usize;
            #(#pre)*
            let __fz_r = #call;
            #lens
            let mut __fz_ys: ::std::vec::Vec<f64> = ::std::vec::Vec::new();
            let mut __fz_jac: ::std::vec::Vec<f64> = ::std::vec::Vec::new();
            ::fazang::__private::lane_outputs(&__fz_r, &mut __fz_ys, &mut __fz_jac);
            #(#outs)*
            let _ = __fz_lane;
            #saves
            #(#sets)*
            #vn = __fz_ys;
            #jn = __fz_jac;
        }))
    }

    /// A sequence as a slice of `f64` in generated code.
    pub(super) fn seq_slice(&self, s: &super::super::lower::seq_public::Seq) -> TokenStream {
        let p = self.place(
            &Place {
                root: s.root,
                path: s.prefix.clone(),
            },
            false,
        );
        match &s.window {
            None => quote!(&#p[..]),
            Some((o, n)) => {
                let (o, n) = (self.op(o), self.name(*n));
                quote!(&#p[#o..#o + #n])
            }
        }
    }

    pub fn rev_call(&self, s: &Stmt, c: &Call, active: bool) -> Result<TokenStream, String> {
        let restore = self.restores(s);
        if let Some((values, jac)) = c.out_array {
            let body = if active {
                let (a, vn, jn) = (self.adj(values), self.name(values), self.name(jac));
                if self.has_inouts(c) || c.result_rows {
                    self.rev_inouts(c, vn, jn)
                } else {
                    self.rev_vector(c, quote!(#a), vn, jn)
                }
            } else {
                quote!()
            };
            let (a, vn) = (self.adj(values), self.name(values));
            let reset = if self.facts.active[values] {
                quote!(#a = ::fazang::__private::zeros_like(&#vn);)
            } else {
                quote!()
            };
            return Ok(quote!({ #body #restore #reset }));
        }
        if c.how == CallHow::Tape {
            // An inactive call kept no gradient (see `keep_gradient`).
            if !active {
                return Ok(restore);
            }
            let g = self.tmp("gb");
            let body = self.rev_tape(c, &g);
            return Ok(
                quote!({ let #g = __fz_st.pop_buf(); #body __fz_st.give_buf(#g); #restore }),
            );
        }
        if !active {
            return Ok(restore);
        }
        // The outputs' adjoints, taken (and cleared) first: a `&mut` float is an input too.
        let mut outs = Vec::new();
        let mut take = Vec::new();
        let out_vars: Vec<V> = c
            .out
            .into_iter()
            .chain(c.args.iter().filter_map(|a| match a {
                CallArg::InOut(v) => Some(*v),
                _ => None,
            }))
            .collect();
        let (sc, zero) = (self.sc(), self.zero());
        for v in &out_vars {
            let g = self.tmp("g");
            if self.facts.active[*v] {
                let a = self.adj(*v);
                take.push(quote!(let #g: #sc = #a; #a = #zero;));
            } else {
                take.push(quote!(let #g: #sc = #zero;));
            }
            outs.push(g);
        }
        let mut adds = Vec::new();
        let mut j = 0usize;
        for a in &c.args {
            let input = match a {
                CallArg::Scalar(op) => Some(op.clone()),
                CallArg::InOut(v) => Some(Op::Var(*v)),
                _ => None,
            };
            let Some(op) = input else { continue };
            let terms = outs.iter().enumerate().map(|(i, g)| {
                let p = self.name(c.partials[i][j]);
                quote!(#g * #p)
            });
            adds.push(self.add_to(&op, quote!((#(#terms)+*))));
            j += 1;
        }
        Ok(quote!({ #(#take)* #(#adds)* #restore }))
    }

    /// A taped call's gradient `g` kept for the reverse sweep, if the call is active: only
    /// an active call's reverse pops it, and the reverse of a loop with no active
    /// statement is not run at all, so a kept gradient of an inactive call would be
    /// popped by another call.
    pub(super) fn keep_gradient(&self, c: &Call, g: &Ident) -> TokenStream {
        if self.forward_only || !self.facts.call_active(c) {
            quote!(__fz_st.give_buf(#g);)
        } else {
            quote!(__fz_st.push_buf(#g);)
        }
    }

    /// The reverse of a taped call: its gradient (in `g`) times the result's adjoint.
    fn rev_tape(&self, c: &Call, g: &Ident) -> TokenStream {
        let out = c.out.expect("a taped call returns a float");
        let (a, y) = (self.adj(out), self.tmp("g"));
        let mut adds = Vec::new();
        let off = self.tmp("o");
        for arg in &c.args {
            match arg {
                CallArg::Scalar(op) => {
                    let add = self.add_to(op, quote!(#y * #g[#off]));
                    adds.push(quote!(#add #off += 1;));
                }
                CallArg::Slice(s) if s.depth > 0 => {
                    adds.push(self.rows_adjoint(s, quote!(#g), quote!(#y), &off));
                }
                CallArg::Slice(s) if self.facts.active[s.root] => {
                    let (o, n) = match &s.window {
                        Some((o, n)) => (self.op(o), self.name(*n).clone()),
                        None => unreachable!("taped slices have windows"),
                    };
                    let dst = self.place(
                        &Place {
                            root: s.root,
                            path: s.prefix.clone(),
                        },
                        true,
                    );
                    adds.push(quote! {
                        for __fz_j in 0..#n {
                            #dst[#o + __fz_j] += #y * #g[#off + __fz_j];
                        }
                        #off += #n;
                    });
                }
                CallArg::Slice(s) => {
                    let n = match &s.window {
                        Some((_, n)) => self.name(*n).clone(),
                        None => unreachable!("taped slices have windows"),
                    };
                    adds.push(quote!(#off += #n;));
                }
                _ => {}
            }
        }
        quote!({
            let #y: f64 = #a;
            #a = 0.0;
            let mut #off = 0usize;
            #(#adds)*
            let _ = #off;
        })
    }
}

impl Printer<'_> {
    /// The reverse of a call with a vector result: each entry's adjoint times its row of
    /// the Jacobian, into the inputs (scalars, then arrays' elements, in argument order).
    fn rev_vector(&self, c: &Call, a: TokenStream, vn: &Ident, jn: &Ident) -> TokenStream {
        let (g, row, off) = (self.tmp("g"), self.tmp("row"), self.tmp("o"));
        let mut adds = Vec::new();
        for arg in &c.args {
            match arg {
                CallArg::Scalar(op) => {
                    let add = self.add_to(op, quote!(#g * #row[#off]));
                    adds.push(quote!(#add #off += 1;));
                }
                CallArg::InOut(v) => {
                    let add = self.add_to(&Op::Var(*v), quote!(#g * #row[#off]));
                    adds.push(quote!(#add #off += 1;));
                }
                CallArg::Slice(s) if s.depth > 0 => {
                    adds.push(self.rows_adjoint(s, quote!(#row), quote!(#g), &off));
                }
                CallArg::Slice(s) => {
                    let (o, n) = match &s.window {
                        Some((o, n)) => (self.op(o), self.name(*n).clone()),
                        None => unreachable!("arrays passed to calls have windows"),
                    };
                    if self.facts.active[s.root] {
                        let dst = self.place(
                            &Place {
                                root: s.root,
                                path: s.prefix.clone(),
                            },
                            true,
                        );
                        adds.push(quote! {
                            for __fz_j in 0..#n {
                                #dst[#o + __fz_j] += #g * #row[#off + __fz_j];
                            }
                        });
                    }
                    adds.push(quote!(#off += #n;));
                }
                _ => {}
            }
        }
        quote! {
            let __fz_m = #vn.len();
            let __fz_w = if __fz_m == 0 { 0 } else { #jn.len() / __fz_m };
            for __fz_i in 0..__fz_m {
                let #g: f64 = #a[__fz_i];
                #a[__fz_i] = 0.0;
                if #g != 0.0 {
                    let #row = &#jn[__fz_i * __fz_w..(__fz_i + 1) * __fz_w];
                    let mut #off = 0usize;
                    #(#adds)*
                    let _ = #off;
                }
            }
        }
    }
}

impl Printer<'_> {
    /// The adjoint of rows passed to a call: `scale * src[off..]`, row-major, into the rows'
    /// adjoints (`off` advanced past them).
    fn rows_adjoint(
        &self,
        s: &super::super::lower::seq_public::Seq,
        src: TokenStream,
        scale: TokenStream,
        off: &Ident,
    ) -> TokenStream {
        let (o, n) = match &s.window {
            Some((o, n)) => (self.op(o), self.name(*n).clone()),
            None => unreachable!("arrays passed to calls have windows"),
        };
        let whole = Place {
            root: s.root,
            path: s.prefix.clone(),
        };
        if self.facts.active[s.root] {
            let dst = self.place(&whole, true);
            quote!(#off += ::fazang::__private::add_flat(&mut #dst[#o..#o + #n], &#src[#off..], #scale);)
        } else {
            let p = self.place(&whole, false);
            quote!(#off += ::fazang::__private::flat_len(&#p[#o..#o + #n]);)
        }
    }

    fn has_inouts(&self, c: &Call) -> bool {
        c.args.iter().any(|a| matches!(a, CallArg::InOut(_)))
    }

    /// The reverse of a taped call with `&mut` floats: the outputs' adjoints (the
    /// result's, then each `&mut` float's) taken and cleared into one vector first (a
    /// `&mut` float is an input too), then the vector reverse over it.
    fn rev_inouts(&self, c: &Call, vn: &Ident, jn: &Ident) -> TokenStream {
        let ga = self.tmp("ga");
        let mut take = vec![
            quote!(let mut #ga: ::std::vec::Vec<f64> = ::std::vec::Vec::with_capacity(#vn.len());),
        ];
        let scalar = |v: V, take: &mut Vec<TokenStream>| {
            if self.facts.active[v] {
                let a = self.adj(v);
                take.push(quote!(#ga.push(#a); #a = 0.0;));
            } else {
                take.push(quote!(#ga.push(0.0);));
            }
        };
        if let Some(out) = c.out {
            scalar(out, &mut take);
        }
        if let Some(r) = c.result_array {
            if self.facts.active[r] {
                let a = self.adj(r);
                take.push(quote!(::fazang::__private::take_flat(&mut #a, &mut #ga);));
            } else {
                // The result's entries are the outputs but the `&mut` floats.
                let n = c
                    .args
                    .iter()
                    .filter(|a| matches!(a, CallArg::InOut(_)))
                    .count();
                take.push(quote!(#ga.resize(#vn.len() - #n, 0.0);));
            }
        }
        for a in &c.args {
            if let CallArg::InOut(v) = a {
                scalar(*v, &mut take);
            }
        }
        let body = self.rev_vector(c, quote!(#ga), vn, jn);
        quote!({ #(#take)* #body })
    }
}

impl Printer<'_> {
    /// Whether code over dual numbers can print this call: by lanes, with a float result
    /// (lanes of dual numbers); a recording on the tape gives only first derivatives.
    pub fn generic_call(&self, c: &Call) -> bool {
        // Data arguments read values (their floats are constants); a borrowed array cannot
        // be read so: it must not be one code over dual numbers holds as dual numbers.
        let data_ok = c.args.iter().all(|a| match a {
            CallArg::Data(_, reads, _) => reads.iter().all(|v| {
                !self.scalar_root(*v)
                    || !matches!(self.f.vars[*v].kind, Kind::Array | Kind::ParamSeq)
            }),
            _ => true,
        });
        c.how == CallHow::Lanes && c.out_array.is_none() && c.result_array.is_none() && data_ok
    }

    /// The function making a lane input: `lane::<K>` on `f64`, `lane_t::<K, T>` on the
    /// generic scalar.
    fn lane_fn(&self, k: usize) -> TokenStream {
        if self.generic {
            quote!(::fazang::__private::lane_t::<#k, __FzT>)
        } else {
            quote!(::fazang::__private::lane::<#k>)
        }
    }
}
