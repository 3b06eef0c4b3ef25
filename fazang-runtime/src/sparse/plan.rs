//! What a sparse derivative needs to know before it computes anything: the pattern, its
//! colouring and where each entry is read in the compressed matrix (a [`Plan`]); and the
//! cache of plans a generated function keeps ([`SparseCache`]), keyed by the
//! fingerprint of the expressions its body computed.
//!
//! The compressed matrix `B` has one row per output (per input for a Hessian) and one
//! column per colour, row-major: `B[r][c]` is the derivative of output `r` along the sum
//! of the unit directions of colour `c`.

use super::colour::{self, Colouring};
use std::sync::{Arc, Mutex};

/// A Jacobian or Hessian pattern, its colouring, and for each entry (sorted by row, then
/// column) the one or two places of `B` it is read from (averaged when two).
#[derive(Debug)]
pub(crate) struct Plan {
    /// Rows of the derivative (outputs, or inputs for a Hessian).
    pub rows: usize,
    /// The colour of each input.
    pub colouring: Colouring,
    /// `(row, column)` of every entry.
    pub entries: Vec<(u32, u32)>,
    /// Where each entry is read in `B` (row-major, `colouring.count` columns).
    pub src: Vec<(u32, u32)>,
}

impl Plan {
    /// The plan of a Jacobian with pattern `rows` over `n` inputs.
    pub(crate) fn jacobian(rows: Vec<Vec<u32>>, n: usize) -> Plan {
        let colouring = colour::columns(&rows, n);
        let k = colouring.count;
        let mut entries = Vec::new();
        let mut src = Vec::new();
        let mut seen = vec![usize::MAX; k];
        for (i, row) in rows.iter().enumerate() {
            for &j in row {
                let c = colouring.colour[j as usize] as usize;
                // Two columns of a row sharing a colour would be summed: never a wrong
                // number, even from a bug in the colouring.
                assert!(
                    seen[c] != i,
                    "fazang internal error: the Jacobian colouring is not distance-2"
                );
                seen[c] = i;
                let s = slot(i, c, k);
                entries.push((i as u32, j));
                src.push((s, s));
            }
        }
        Plan {
            rows: rows.len(),
            colouring,
            entries,
            src,
        }
    }

    /// The plan of a Hessian with symmetric pattern `rows` (both triangles): a star
    /// colouring, or a distance-2 colouring where the star colouring would not let an
    /// entry be read directly (it always does; the check keeps a bug from giving a
    /// wrong number).
    pub(crate) fn hessian(rows: Vec<Vec<u32>>) -> Plan {
        let adj: Vec<Vec<u32>> = rows
            .iter()
            .enumerate()
            .map(|(i, r)| r.iter().copied().filter(|&j| j as usize != i).collect())
            .collect();
        let star = colour::star(&adj);
        hessian_reads(&rows, &adj, star).unwrap_or_else(|| {
            debug_assert!(false, "the star colouring does not allow direct recovery");
            let d2 = colour::columns(&rows, rows.len());
            hessian_reads(&rows, &adj, d2).expect("a distance-2 colouring always recovers")
        })
    }

    /// The number of colours.
    pub(crate) fn colours(&self) -> usize {
        self.colouring.count
    }

    /// The entries as `(row, column, value)` triplets, read from `b`.
    pub(crate) fn triplets(&self, b: &[f64]) -> Vec<(usize, usize, f64)> {
        self.entries
            .iter()
            .zip(&self.src)
            .map(|(&(i, j), &(s, t))| {
                let v = if s == t {
                    b[s as usize]
                } else {
                    0.5 * b[s as usize] + 0.5 * b[t as usize]
                };
                (i as usize, j as usize, v)
            })
            .collect()
    }
}

/// The place of `B[row][colour]` in a row-major `B` with `k` columns.
fn slot(row: usize, colour: usize, k: usize) -> u32 {
    u32::try_from(row * k + colour).unwrap_or_else(|_| {
        panic!("fazang: a compressed sparse derivative of more than 2^32 entries")
    })
}

/// Where each entry of the Hessian pattern `rows` is read under `colouring`, or `None`
/// if an entry cannot be read directly. Entry (i, j) is `B[i][c(j)]` when `j` is the only
/// neighbour of `i` of colour `c(j)`, and `B[j][c(i)]` when `i` is the only neighbour of
/// `j` of colour `c(i)` (the mean when both hold, so that the result is symmetric to the
/// last bit); a diagonal entry is `B[i][c(i)]`, when no neighbour shares `i`'s colour.
fn hessian_reads(rows: &[Vec<u32>], adj: &[Vec<u32>], colouring: Colouring) -> Option<Plan> {
    let (c, k) = (&colouring.colour, colouring.count);
    // unique[i][p]: whether adj[i][p] is the only neighbour of i with its colour.
    let mut count = vec![0u32; k];
    let unique: Vec<Vec<bool>> = adj
        .iter()
        .map(|ns| {
            ns.iter().for_each(|&j| count[c[j as usize] as usize] += 1);
            let u = ns
                .iter()
                .map(|&j| count[c[j as usize] as usize] == 1)
                .collect();
            ns.iter().for_each(|&j| count[c[j as usize] as usize] = 0);
            u
        })
        .collect();
    let reads_from = |i: usize, j: u32| -> bool {
        let p = adj[i].binary_search(&j).expect("symmetric pattern");
        unique[i][p]
    };
    let mut entries = Vec::new();
    let mut src = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        for &j in row {
            let s = if j as usize == i {
                if adj[i].iter().any(|&w| c[w as usize] == c[i]) {
                    return None;
                }
                let s = slot(i, c[i] as usize, k);
                (s, s)
            } else {
                let by_row = reads_from(i, j).then(|| slot(i, c[j as usize] as usize, k));
                let by_col =
                    reads_from(j as usize, i as u32).then(|| slot(j as usize, c[i] as usize, k));
                // The same order for (i, j) and (j, i): the same rounding.
                match (by_row, by_col) {
                    (Some(a), Some(b)) => (a.min(b), a.max(b)),
                    (Some(a), None) | (None, Some(a)) => (a, a),
                    (None, None) => return None,
                }
            };
            entries.push((i as u32, j));
            src.push(s);
        }
    }
    Some(Plan {
        rows: rows.len(),
        colouring,
        entries,
        src,
    })
}

/// What identifies a plan: the numbers of inputs and outputs and the fingerprint of the
/// outputs' expressions (equal fingerprints mean equal expressions, so equal patterns).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Key {
    pub inputs: usize,
    pub outputs: usize,
    pub hash: u64,
}

impl Key {
    /// The key of outputs with expression handles `hs` (fingerprints) over `n` inputs.
    pub(crate) fn new(n: usize, hs: impl ExactSizeIterator<Item = u64>) -> Key {
        let outputs = hs.len();
        let hash = hs.fold(0x2545_f491_4f6c_dd1d_u64, |acc, h| {
            super::probe::splitmix(acc.rotate_left(29) ^ h)
        });
        Key {
            inputs: n,
            outputs,
            hash,
        }
    }
}

/// How many plans a call site keeps (the most recently used first): a function whose
/// branches alternate between a few patterns does not detect again each time.
const KEPT: usize = 4;

/// The plans of one `#[differentiate(sparse)]` function (a `static` in its generated
/// `_hessian_sparse` or `_jacobian_sparse`), shared by all threads.
///
/// ```
/// static CACHE: fazang::__private::SparseCache = fazang::__private::SparseCache::new();
/// assert_eq!(CACHE.len(), 0);
/// ```
pub struct SparseCache {
    plans: Mutex<Vec<(Key, Arc<Plan>)>>,
}

impl SparseCache {
    /// An empty cache (a `const fn`, for statics).
    pub const fn new() -> Self {
        SparseCache {
            plans: Mutex::new(Vec::new()),
        }
    }

    /// The number of plans kept.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no plan is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(Key, Arc<Plan>)>> {
        // A panic while the lock was held left a consistent Vec (pushes and rotations).
        self.plans.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The plan kept for `key`, if any (it becomes the most recently used).
    pub(crate) fn get(&self, key: Key) -> Option<Arc<Plan>> {
        let mut plans = self.lock();
        let p = plans.iter().position(|(k, _)| *k == key)?;
        plans[..=p].rotate_right(1);
        Some(plans[0].1.clone())
    }

    /// Keep `plan` for `key` (dropping the least recently used beyond a few); returns it.
    pub(crate) fn insert(&self, key: Key, plan: Plan) -> Arc<Plan> {
        let plan = Arc::new(plan);
        let mut plans = self.lock();
        plans.retain(|(k, _)| *k != key);
        plans.insert(0, (key, plan.clone()));
        plans.truncate(KEPT);
        plan
    }
}

impl Default for SparseCache {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tridiagonal_hessian_reads_every_entry() {
        let n = 10;
        let rows: Vec<Vec<u32>> = (0..n)
            .map(|i: usize| {
                (i.saturating_sub(1)..(i + 2).min(n))
                    .map(|j| j as u32)
                    .collect()
            })
            .collect();
        let plan = Plan::hessian(rows);
        assert_eq!(plan.colours(), 3);
        assert_eq!(plan.entries.len(), 3 * n - 2);
        // B = H V for H = the matrix with h_ij = 10 i + j on the pattern.
        let (c, k) = (&plan.colouring.colour, plan.colours());
        let mut b = vec![0.0; n * k];
        for &(i, j) in &plan.entries {
            let h = 10.0 * f64::from(i.min(j)) + f64::from(i.max(j));
            b[i as usize * k + c[j as usize] as usize] += h;
        }
        for (i, j, v) in plan.triplets(&b) {
            assert_eq!(v, 10.0 * i.min(j) as f64 + i.max(j) as f64);
        }
    }

    #[test]
    fn the_cache_keeps_the_most_recent_plans() {
        let cache = SparseCache::new();
        let key = |h| Key {
            inputs: 1,
            outputs: 1,
            hash: h,
        };
        let make = || Plan::jacobian(vec![vec![0]], 1);
        for h in 0..6 {
            cache.insert(key(h), make());
        }
        assert_eq!(cache.len(), KEPT);
        assert!(cache.get(key(5)).is_some());
        assert!(cache.get(key(2)).is_some());
        assert!(cache.get(key(0)).is_none());
        // 2 and 5 were used last: they stay when two more come.
        cache.insert(key(6), make());
        cache.insert(key(7), make());
        assert!(cache.get(key(2)).is_some() && cache.get(key(5)).is_some());
    }
}
