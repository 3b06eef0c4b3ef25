//! One small scalar trait so that each workload is written once for every peer crate.
//!
//! Each method maps to the cheapest primitive the peer offers (an operation with an
//! `f64` records a unary entry where the crate can), so the peers are timed at their
//! best, as their users would write them.

use std::ops::{Add, Div, Mul, Neg, Sub};

/// What the workloads need from a peer's active scalar.
pub trait PeerNum:
    Copy
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    /// A constant.
    fn cst(v: f64) -> Self;
    /// `self * k`.
    fn scale(self, k: f64) -> Self;
    /// `k - self`.
    fn rsub(self, k: f64) -> Self;
    /// `self + k`.
    fn shift(self, k: f64) -> Self;
    /// eˣ.
    fn exp(self) -> Self;
    /// ln x.
    fn ln(self) -> Self;
    /// ln(1 + x).
    fn ln_1p(self) -> Self;
    /// tanh x.
    fn tanh(self) -> Self;
    /// cosh x.
    fn cosh(self) -> Self;
    /// sin x.
    fn sin(self) -> Self;
}

impl PeerNum for f64 {
    fn cst(v: f64) -> Self {
        v
    }
    fn scale(self, k: f64) -> Self {
        self * k
    }
    fn rsub(self, k: f64) -> Self {
        k - self
    }
    fn shift(self, k: f64) -> Self {
        self + k
    }
    fn exp(self) -> Self {
        f64::exp(self)
    }
    fn ln(self) -> Self {
        f64::ln(self)
    }
    fn ln_1p(self) -> Self {
        f64::ln_1p(self)
    }
    fn tanh(self) -> Self {
        f64::tanh(self)
    }
    fn cosh(self) -> Self {
        f64::cosh(self)
    }
    fn sin(self) -> Self {
        f64::sin(self)
    }
}

/// echidna's Adept-style reverse tape.
pub type Echidna = echidna::Reverse<f64>;

/// `PeerNum` for a type with `f64` operators and `num_traits::Float` (echidna's two
/// number types), given its constant constructor.
macro_rules! peer_via_float {
    ($t:ty, $cst:path) => {
        impl PeerNum for $t {
            #[inline]
            fn cst(v: f64) -> Self {
                $cst(v)
            }
            #[inline]
            fn scale(self, k: f64) -> Self {
                self * k
            }
            #[inline]
            fn rsub(self, k: f64) -> Self {
                k - self
            }
            #[inline]
            fn shift(self, k: f64) -> Self {
                self + k
            }
            #[inline]
            fn exp(self) -> Self {
                num_traits::Float::exp(self)
            }
            #[inline]
            fn ln(self) -> Self {
                num_traits::Float::ln(self)
            }
            #[inline]
            fn ln_1p(self) -> Self {
                num_traits::Float::ln_1p(self)
            }
            #[inline]
            fn tanh(self) -> Self {
                num_traits::Float::tanh(self)
            }
            #[inline]
            fn cosh(self) -> Self {
                num_traits::Float::cosh(self)
            }
            #[inline]
            fn sin(self) -> Self {
                num_traits::Float::sin(self)
            }
        }
    };
}

peer_via_float!(Echidna, echidna::Reverse::constant);

/// echidna's bytecode-tape number (recorded once, replayed: its Hessians).
pub type EchidnaBytecode = echidna::BReverse<f64>;

peer_via_float!(EchidnaBytecode, echidna::BReverse::constant);

/// echidna's forward-mode dual number (what its `jacobian` runs on).
pub type EchidnaDual = echidna::Dual<f64>;

peer_via_float!(EchidnaDual, echidna::Dual::constant);

/// num-dual's forward-mode gradient number with `N` tangents on the stack.
pub type NumDual<const N: usize> = num_dual::DualSVec64<N>;

impl<const N: usize> PeerNum for NumDual<N> {
    #[inline]
    fn cst(v: f64) -> Self {
        num_dual::DualVec::from_re(v)
    }
    #[inline]
    fn scale(self, k: f64) -> Self {
        self * k
    }
    #[inline]
    fn rsub(self, k: f64) -> Self {
        -self + k
    }
    #[inline]
    fn shift(self, k: f64) -> Self {
        self + k
    }
    #[inline]
    fn exp(self) -> Self {
        num_dual::DualNum::exp(&self)
    }
    #[inline]
    fn ln(self) -> Self {
        num_dual::DualNum::ln(&self)
    }
    #[inline]
    fn ln_1p(self) -> Self {
        num_dual::DualNum::ln_1p(&self)
    }
    #[inline]
    fn tanh(self) -> Self {
        num_dual::DualNum::tanh(&self)
    }
    #[inline]
    fn cosh(self) -> Self {
        num_dual::DualNum::cosh(&self)
    }
    #[inline]
    fn sin(self) -> Self {
        num_dual::DualNum::sin(&self)
    }
}

/// ad_trait's reverse-mode number (a thread-local computation graph).
pub type AdTrait = ad_trait::reverse_ad::adr::adr;

impl PeerNum for AdTrait {
    #[inline]
    fn cst(v: f64) -> Self {
        <AdTrait as ad_trait::AD>::constant(v)
    }
    #[inline]
    fn scale(self, k: f64) -> Self {
        <AdTrait as ad_trait::AD>::mul_scalar(k, self)
    }
    #[inline]
    fn rsub(self, k: f64) -> Self {
        <AdTrait as ad_trait::AD>::sub_l_scalar(k, self)
    }
    #[inline]
    fn shift(self, k: f64) -> Self {
        <AdTrait as ad_trait::AD>::add_scalar(k, self)
    }
    #[inline]
    fn exp(self) -> Self {
        simba::scalar::ComplexField::exp(self)
    }
    #[inline]
    fn ln(self) -> Self {
        simba::scalar::ComplexField::ln(self)
    }
    #[inline]
    fn ln_1p(self) -> Self {
        simba::scalar::ComplexField::ln_1p(self)
    }
    #[inline]
    fn tanh(self) -> Self {
        simba::scalar::ComplexField::tanh(self)
    }
    #[inline]
    fn cosh(self) -> Self {
        simba::scalar::ComplexField::cosh(self)
    }
    #[inline]
    fn sin(self) -> Self {
        simba::scalar::ComplexField::sin(self)
    }
}

/// Gradient of `f` at `x` with ad_trait's reverse mode, as its `ReverseAD` engine does it
/// (reset the graph, one variable per input, one backward pass).
pub fn ad_trait_gradient(f: impl Fn(&[AdTrait]) -> AdTrait, x: &[f64], g: &mut [f64]) -> f64 {
    ad_trait::reverse_ad::adr::GlobalComputationGraph::get().reset();
    let xs: Vec<AdTrait> = x.iter().map(|&v| AdTrait::new_variable(v, false)).collect();
    let y = f(&xs);
    let back = y.get_backwards_mode_grad();
    for (gi, xi) in g.iter_mut().zip(&xs) {
        *gi = back.wrt(xi);
    }
    y.value()
}

/// Jacobian with ad_trait's reverse mode: one backward pass per output (its `ReverseAD`).
pub fn ad_trait_jacobian(
    f: impl Fn(&[AdTrait]) -> Vec<AdTrait>,
    x: &[f64],
    jac: &mut [Vec<f64>],
) -> f64 {
    ad_trait::reverse_ad::adr::GlobalComputationGraph::get().reset();
    let xs: Vec<AdTrait> = x.iter().map(|&v| AdTrait::new_variable(v, false)).collect();
    let ys = f(&xs);
    for (row, y) in jac.iter_mut().zip(&ys) {
        let back = y.get_backwards_mode_grad();
        for (r, xi) in row.iter_mut().zip(&xs) {
            *r = back.wrt(xi);
        }
    }
    ys[0].value()
}

/// Gradient with num-dual's forward mode: one tangent per input, carried together.
pub fn num_dual_gradient<const N: usize>(
    f: impl Fn(&[NumDual<N>]) -> NumDual<N>,
    x: &[f64],
    g: &mut [f64],
) -> f64 {
    let xs: Vec<NumDual<N>> = seeded(x);
    let y = f(&xs);
    let eps = y.eps.unwrap_generic(nalgebra_n::<N>(), nalgebra_one());
    g.copy_from_slice(eps.as_slice());
    y.re
}

/// Jacobian with num-dual's forward mode.
pub fn num_dual_jacobian<const N: usize>(
    f: impl Fn(&[NumDual<N>]) -> Vec<NumDual<N>>,
    x: &[f64],
    jac: &mut [Vec<f64>],
) -> f64 {
    let xs: Vec<NumDual<N>> = seeded(x);
    let ys = f(&xs);
    for (row, y) in jac.iter_mut().zip(&ys) {
        let eps = y.eps.unwrap_generic(nalgebra_n::<N>(), nalgebra_one());
        row.copy_from_slice(eps.as_slice());
    }
    ys[0].re
}

fn seeded<const N: usize>(x: &[f64]) -> Vec<NumDual<N>> {
    assert_eq!(x.len(), N);
    x.iter()
        .enumerate()
        .map(|(i, &v)| {
            let mut d = NumDual::<N>::from_re(v);
            d.eps = num_dual::Derivative::derivative_generic(nalgebra_n::<N>(), nalgebra_one(), i);
            d
        })
        .collect()
}

fn nalgebra_n<const N: usize>() -> nalgebra::Const<N> {
    nalgebra::Const::<N>
}

fn nalgebra_one() -> nalgebra::U1 {
    nalgebra::U1
}
