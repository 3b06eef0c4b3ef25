//! Colourings that compress a sparse Jacobian or Hessian into a few columns, so that one
//! tangent lane per colour computes them (Curtis, Powell and Reid; Coleman and Moré;
//! Gebremedhin, Manne and Pothen, "What color is your Jacobian?", SIAM Review 2005, whose
//! greedy algorithms ColPack and SparseDiffTools implement):
//!
//! - [`columns`]: a distance-2 colouring of the columns of a Jacobian (two columns
//!   sharing a row get different colours), so every entry is read directly from the
//!   compressed matrix `J V`;
//! - [`star`]: a star colouring of a symmetric Hessian's adjacency graph (a proper
//!   colouring in which every path on four vertices uses at least three colours), which
//!   needs fewer colours and still lets every entry be read directly from `H V`, from
//!   its row or from its column ([`super::plan`] checks which).
//!
//! Both are greedy in largest-first order (vertices by decreasing degree), each vertex
//! taking the smallest colour its neighbourhood leaves free.

/// A colour per vertex (column), and how many colours there are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Colouring {
    /// `colour[j]`, in `0..count`.
    pub colour: Vec<u32>,
    /// The number of colours (0 only for no vertices).
    pub count: usize,
}

/// Vertices `0..n` by decreasing degree (ties by index, so the order is reproducible).
fn largest_first(degree: impl Fn(usize) -> usize, n: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&v| (std::cmp::Reverse(degree(v)), v));
    order
}

/// The smallest colour `c` with `forbidden[c] != v`, growing `forbidden` as needed.
fn first_free(forbidden: &mut Vec<usize>, v: usize) -> u32 {
    let c = forbidden
        .iter()
        .position(|&f| f != v)
        .unwrap_or(forbidden.len());
    if c == forbidden.len() {
        forbidden.push(usize::MAX);
    }
    c as u32
}

/// Distance-2 colouring of the `n` columns of the pattern `rows` (`rows[i]` the columns
/// of row `i`): columns that share a row get different colours.
pub(crate) fn columns(rows: &[Vec<u32>], n: usize) -> Colouring {
    let mut cols = vec![Vec::new(); n];
    for (i, row) in rows.iter().enumerate() {
        for &j in row {
            cols[j as usize].push(i as u32);
        }
    }
    let order = largest_first(|j| cols[j].iter().map(|&i| rows[i as usize].len()).sum(), n);
    const NONE: u32 = u32::MAX;
    let mut colour = vec![NONE; n];
    let mut forbidden: Vec<usize> = Vec::new();
    for v in order {
        for &i in &cols[v] {
            for &w in &rows[i as usize] {
                let c = colour[w as usize];
                if c != NONE {
                    forbidden[c as usize] = v;
                }
            }
        }
        colour[v] = first_free(&mut forbidden, v);
    }
    let count = colour.iter().map(|&c| c as usize + 1).max().unwrap_or(0);
    Colouring { colour, count }
}

/// Star colouring of the graph with adjacency lists `adj` (symmetric, no self loops).
///
/// Greedy, after Gebremedhin, Manne and Pothen's first star colouring algorithm: vertex
/// `v` may not take the colour of a neighbour `w` (a proper colouring), nor the colour of
/// a vertex `x` two steps away through `w` when `w` is not coloured yet (so the coloured
/// neighbours of an uncoloured vertex always have distinct colours), nor that of `x`
/// when `w` is coloured and `x` has another neighbour `y` of `w`'s colour (the path
/// `v w x y` would use two colours). A path on four vertices using two colours is then
/// refused when its last vertex is coloured.
pub(crate) fn star(adj: &[Vec<u32>]) -> Colouring {
    let n = adj.len();
    let order = largest_first(|v| adj[v].len(), n);
    const NONE: u32 = u32::MAX;
    let mut colour = vec![NONE; n];
    let mut forbidden: Vec<usize> = Vec::new();
    for v in order {
        for &w in &adj[v] {
            let cw = colour[w as usize];
            if cw != NONE {
                forbidden[cw as usize] = v;
            }
            for &x in &adj[w as usize] {
                let cx = colour[x as usize];
                if x as usize == v || cx == NONE {
                    continue;
                }
                let two_coloured_path = || {
                    adj[x as usize]
                        .iter()
                        .any(|&y| y != w && colour[y as usize] == cw)
                };
                if cw == NONE || two_coloured_path() {
                    forbidden[cx as usize] = v;
                }
            }
        }
        colour[v] = first_free(&mut forbidden, v);
    }
    let count = colour.iter().map(|&c| c as usize + 1).max().unwrap_or(0);
    Colouring { colour, count }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reproducible pseudo-random symmetric graph on `n` vertices.
    fn random_graph(n: usize, edges: usize, seed: u64) -> Vec<Vec<u32>> {
        let mut s = seed;
        let mut next = || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 33) as usize
        };
        let mut adj = vec![Vec::new(); n];
        for _ in 0..edges {
            let (a, b) = (next() % n, next() % n);
            if a != b && !adj[a].contains(&(b as u32)) {
                adj[a].push(b as u32);
                adj[b].push(a as u32);
            }
        }
        adj
    }

    /// Whether `c` is a star colouring of `adj`: proper, and no path on four vertices
    /// uses only two colours (checked by brute force).
    fn is_star(adj: &[Vec<u32>], c: &[u32]) -> bool {
        for (v, ns) in adj.iter().enumerate() {
            for &w in ns {
                if c[v] == c[w as usize] {
                    return false;
                }
                for &x in &adj[w as usize] {
                    if x as usize == v || c[x as usize] != c[v] {
                        continue;
                    }
                    for &y in &adj[x as usize] {
                        if y != w && y as usize != v && c[y as usize] == c[w as usize] {
                            return false;
                        }
                    }
                }
            }
        }
        true
    }

    #[test]
    fn star_colourings_of_random_graphs_are_star_colourings() {
        for seed in 0..40 {
            let n = 5 + seed as usize;
            let adj = random_graph(n, 2 * n, seed);
            let c = star(&adj);
            assert!(is_star(&adj, &c.colour), "seed {seed}: {:?}", c.colour);
        }
    }

    #[test]
    fn a_path_takes_three_colours_and_a_band_few() {
        let n = 100;
        let path: Vec<Vec<u32>> = (0..n)
            .map(|i| {
                let mut r = Vec::new();
                if i > 0 {
                    r.push(i as u32 - 1);
                }
                if i + 1 < n {
                    r.push(i as u32 + 1);
                }
                r
            })
            .collect();
        assert_eq!(star(&path).count, 3);
        // A tridiagonal Jacobian: three columns per colour class.
        let rows: Vec<Vec<u32>> = (0..n)
            .map(|i: usize| {
                (i.saturating_sub(1)..(i + 2).min(n))
                    .map(|j| j as u32)
                    .collect()
            })
            .collect();
        let c = columns(&rows, n);
        assert_eq!(c.count, 3);
        for row in &rows {
            let mut cs: Vec<u32> = row.iter().map(|&j| c.colour[j as usize]).collect();
            cs.sort_unstable();
            cs.dedup();
            assert_eq!(cs.len(), row.len());
        }
    }
}
