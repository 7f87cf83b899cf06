//! Acyclicity by vertex elimination (Rankooh and Rintanen, "Propositional
//! Encodings of Acyclicity and Reachability by Using Vertex Elimination",
//! AAAI 2022; the idea from Velev and Gao, SARA 2009): the complete
//! formula's other way of ruling out subtours, with no positions.
//!
//! Every node leaves and is entered exactly once, so the moves form
//! disjoint cycles covering the nodes; they form one cycle exactly when
//! the moves among the nodes other than the root have no cycle. Vertex
//! elimination says that with a reach variable r(u, w) per ordered pair
//! that needs one, implied by the move from u to w where there is one.
//! The nodes are eliminated one by one; eliminating v, for every pair u, w
//! of its neighbours not yet eliminated, r(u, v) ∧ r(v, w) → r(u, w) (a
//! path through v gives a shortcut), and ¬r(u, v) ∨ ¬r(v, u). A cycle of
//! moves loses its first node eliminated to a shortcut each time, until
//! two nodes face each other: no model has one. Without a cycle, "w is
//! reachable from u" satisfies every clause. The moves stay exact: every
//! tour is one assignment of the moves (the reach variables are free
//! where nothing forces them, so blocking clauses on the moves count each
//! tour once).
//!
//! The order is the least degree first (ties to the lower node), the
//! usual greedy choice for little fill-in; the clauses number about the
//! sum of the squared degrees at elimination.

use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap, HashMap};

use crate::cnf::{ClauseSink, Lit};

/// The elimination of a move graph's nodes other than the root: for each
/// node in order, its neighbours not yet eliminated when it goes.
#[derive(Clone, Debug)]
pub(super) struct Elimination {
    /// (node, its remaining neighbours, ascending), in elimination order.
    steps: Vec<(usize, Vec<usize>)>,
}

impl Elimination {
    /// The least-degree-first elimination of the graph whose node `u` has
    /// the neighbours `neighbours[u]` (symmetric), leaving out `root`;
    /// `None` once its clauses would pass `max_clauses`.
    pub(super) fn least_degree_first(
        neighbours: &[Vec<usize>],
        root: usize,
        max_clauses: u64,
    ) -> Option<Elimination> {
        let nodes = neighbours.len();
        let mut adjacent: Vec<BTreeSet<usize>> = neighbours
            .iter()
            .enumerate()
            .map(|(u, list)| {
                if u == root {
                    BTreeSet::new()
                } else {
                    list.iter()
                        .copied()
                        .filter(|&w| w != root && w != u)
                        .collect()
                }
            })
            .collect();
        let mut eliminated = vec![false; nodes];
        eliminated[root] = true;
        let mut queue: BinaryHeap<Reverse<(usize, usize)>> = (0..nodes)
            .filter(|&u| u != root)
            .map(|u| Reverse((adjacent[u].len(), u)))
            .collect();
        let mut steps = Vec::with_capacity(nodes.saturating_sub(1));
        let mut clauses: u64 = 0;
        while let Some(Reverse((degree, v))) = queue.pop() {
            if eliminated[v] || degree != adjacent[v].len() {
                continue;
            }
            clauses += (degree * degree) as u64;
            if clauses > max_clauses {
                return None;
            }
            eliminated[v] = true;
            let around: Vec<usize> = std::mem::take(&mut adjacent[v]).into_iter().collect();
            for &u in &around {
                adjacent[u].remove(&v);
                adjacent[u].extend(around.iter().copied().filter(|&w| w != u));
                queue.push(Reverse((adjacent[u].len(), u)));
            }
            steps.push((v, around));
        }
        Some(Elimination { steps })
    }

    /// The clauses of the elimination over the pairs' reach variables
    /// r(u, w), "w is reachable from u", each numbered from `sink` when
    /// first used; `edge(u, w)` gives the literal of the move from u to w
    /// where there is one, which implies the pair's: ¬m(u, w) ∨ r(u, w).
    /// (The move's own variable cannot stand for the pair: a path through
    /// v would force the move u → w, against "exactly one move out".)
    pub(super) fn encode(
        &self,
        edge: impl Fn(usize, usize) -> Option<Lit>,
        sink: &mut impl ClauseSink,
    ) {
        let mut reach: HashMap<(usize, usize), Lit> = HashMap::new();
        let mut reach_of = |u: usize, w: usize, sink: &mut dyn ClauseSink| -> Lit {
            *reach.entry((u, w)).or_insert_with(|| {
                let lit = sink.new_var().positive();
                if let Some(step) = edge(u, w) {
                    sink.add_clause(&[!step, lit]);
                }
                lit
            })
        };
        for (v, around) in &self.steps {
            let v = *v;
            for &u in around {
                let into = reach_of(u, v, sink);
                let out_of = reach_of(v, u, sink);
                sink.add_clause(&[!into, !out_of]);
            }
            for &u in around {
                let into = reach_of(u, v, sink);
                for &w in around.iter().filter(|&&w| w != u) {
                    let out_of = reach_of(v, w, sink);
                    let shortcut = reach_of(u, w, sink);
                    sink.add_clause(&[!into, !out_of, shortcut]);
                }
            }
        }
    }

    /// The largest number of neighbours a node has when it goes.
    pub(super) fn width(&self) -> usize {
        self.steps
            .iter()
            .map(|(_, around)| around.len())
            .max()
            .unwrap_or(0)
    }
}
