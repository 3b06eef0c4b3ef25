//! Monomials of a multivariate truncated series, in MESA's order (by total degree, then
//! descending exponents): their exponents, ranks and product table, computed at compile
//! time for [`Jet`](super::Jet) and at run time for [`JetDyn`](super::JetDyn).

/// Marks a product of monomials past the total order.
pub(crate) const NONE: u16 = u16::MAX;

/// The binomial coefficient C(n, k).
pub(crate) const fn binomial(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    let mut r: usize = 1;
    let mut i = 0;
    while i < k {
        r = r * (n - i) / (i + 1);
        i += 1;
    }
    r
}

/// The number of compositions of `r` into `p` non-negative parts.
const fn compositions(r: usize, p: usize) -> usize {
    if p == 0 {
        if r == 0 {
            1
        } else {
            0
        }
    } else {
        binomial(r + p - 1, p - 1)
    }
}

/// The exponents of every monomial in `N` variables of total degree at most `m`, in
/// order. Fails to compile (or panics) if `S` is not their number, C(N + m, m).
pub(crate) const fn exponents<const N: usize, const S: usize>(m: usize) -> [[u8; N]; S] {
    assert!(
        S == binomial(N + m, m),
        "Jet<N, M, S>: S must be jet_len(N, M) = C(N + M, M)"
    );
    assert!(m < 255 && S < NONE as usize, "Jet: too many coefficients");
    let mut out = [[0u8; N]; S];
    let mut k = 0;
    let mut d = 0;
    while d <= m {
        // Compositions of d into N parts in descending lexicographic order.
        let mut e = [0u8; N];
        if N > 0 {
            e[0] = d as u8;
        }
        loop {
            out[k] = e;
            k += 1;
            if N < 2 {
                break;
            }
            // The last position before the final one with a positive entry.
            let mut i = N - 1;
            let mut found = false;
            while i > 0 {
                i -= 1;
                if e[i] > 0 {
                    found = true;
                    break;
                }
            }
            if !found {
                break;
            }
            let mut rest = 0u8;
            let mut j = i + 1;
            while j < N {
                rest += e[j];
                e[j] = 0;
                j += 1;
            }
            e[i] -= 1;
            e[i + 1] = rest + 1;
        }
        d += 1;
    }
    out
}

/// The total degree of each monomial.
pub(crate) const fn degrees<const N: usize, const S: usize>(exps: &[[u8; N]; S]) -> [u8; S] {
    let mut out = [0u8; S];
    let mut k = 0;
    while k < S {
        let mut d = 0;
        let mut i = 0;
        while i < N {
            d += exps[k][i];
            i += 1;
        }
        out[k] = d;
        k += 1;
    }
    out
}

/// The position of the monomial with exponents `alpha` among those of total degree at
/// most `m` in `alpha.len()` variables, or `None` past `m`.
pub(crate) const fn rank_of(alpha: &[usize], m: usize) -> Option<usize> {
    let n = alpha.len();
    let mut d = 0;
    let mut i = 0;
    while i < n {
        d += alpha[i];
        i += 1;
    }
    if d > m {
        return None;
    }
    // Monomials of lower degree, then those of degree d that come first: a larger
    // exponent at the first position where they differ.
    let mut r = if d == 0 { 0 } else { binomial(n + d - 1, n) };
    let mut left = d;
    let mut i = 0;
    while i < n {
        let mut b = alpha[i] + 1;
        while b <= left {
            r += compositions(left - b, n - i - 1);
            b += 1;
        }
        left -= alpha[i];
        i += 1;
    }
    Some(r)
}

/// [`rank_of`] for `N` variables.
#[inline]
pub(crate) fn rank<const N: usize>(alpha: &[usize], m: usize) -> Option<usize> {
    rank_of(alpha, m)
}

/// `MUL[i][j]`: the position of the product of monomials i and j, [`NONE`] past `m`.
pub(crate) const fn products<const N: usize, const S: usize>(
    exps: &[[u8; N]; S],
    m: usize,
) -> [[u16; S]; S] {
    let mut out = [[NONE; S]; S];
    let mut i = 0;
    while i < S {
        let mut j = 0;
        while j < S {
            let mut sum = [0usize; N];
            let mut k = 0;
            while k < N {
                sum[k] = exps[i][k] as usize + exps[j][k] as usize;
                k += 1;
            }
            if let Some(r) = rank_of(&sum, m) {
                out[i][j] = r as u16;
            }
            j += 1;
        }
        i += 1;
    }
    out
}

/// The exponents of every monomial in `n` variables of total degree at most `m`, in
/// order (the run-time twin of [`exponents`]).
pub(crate) fn exponents_dyn(n: usize, m: usize) -> Vec<Vec<u8>> {
    let mut out = Vec::with_capacity(binomial(n + m, m));
    for d in 0..=m {
        let mut e = vec![0u8; n];
        if let Some(first) = e.first_mut() {
            *first = d as u8;
        }
        loop {
            out.push(e.clone());
            let Some(i) = (0..n.saturating_sub(1)).rev().find(|&i| e[i] > 0) else {
                break;
            };
            let rest: u8 = e[i + 1..].iter().sum();
            e[i + 1..].iter_mut().for_each(|x| *x = 0);
            e[i] -= 1;
            e[i + 1] = rest + 1;
        }
    }
    out
}

/// α! = Π αᵢ!.
pub(crate) fn factorial_of(alpha: &[usize]) -> f64 {
    alpha
        .iter()
        .map(|&a| (1..=a).map(|k| k as f64).product::<f64>())
        .product()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mesa_order_and_ranks() {
        let e = exponents::<2, 6>(2);
        assert_eq!(e, [[0, 0], [1, 0], [0, 1], [2, 0], [1, 1], [0, 2]]);
        for (k, x) in e.iter().enumerate() {
            let a = [usize::from(x[0]), usize::from(x[1])];
            assert_eq!(rank_of(&a, 2), Some(k));
        }
        let e3 = exponents::<3, 20>(3);
        for (k, x) in e3.iter().enumerate() {
            let a: Vec<usize> = x.iter().map(|&v| usize::from(v)).collect();
            assert_eq!(rank_of(&a, 3), Some(k));
        }
        assert_eq!(rank_of(&[2, 2], 3), None);
        let dynamic = exponents_dyn(3, 3);
        assert!(dynamic.iter().zip(&e3).all(|(a, b)| a[..] == b[..]));
        assert_eq!(dynamic.len(), 20);
        let mul = products::<2, 6>(&e, 2);
        assert_eq!(mul[1][2], 4); // x · y = xy
        assert_eq!(mul[3][1], NONE); // x² · x is past order 2
    }
}
