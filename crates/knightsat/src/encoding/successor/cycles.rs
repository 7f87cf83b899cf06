//! The cycles of a successor model: patching them together into a tour,
//! or the cuts that forbid them.

use super::Successor;
use crate::cnf::Lit;
use crate::encoding::Mended;

/// The cycles that a successor function (every node's next node, a
/// permutation) falls into.
#[derive(Clone, Debug)]
pub(crate) struct Cycles {
    /// The cycle of every node.
    pub label: Vec<usize>,
    /// The nodes of every cycle, in order along it.
    pub members: Vec<Vec<usize>>,
}

impl Cycles {
    /// The cycles of `successors`; a node reached twice (not a
    /// permutation) ends its cycle where it is reached again.
    pub(crate) fn of(successors: &[usize]) -> Cycles {
        let unlabelled = usize::MAX;
        let mut label = vec![unlabelled; successors.len()];
        let mut members = Vec::new();
        for start in 0..successors.len() {
            if label[start] != unlabelled {
                continue;
            }
            let id = members.len();
            let mut cycle = Vec::new();
            let mut node = start;
            while label[node] == unlabelled {
                label[node] = id;
                cycle.push(node);
                node = successors[node];
            }
            members.push(cycle);
        }
        Cycles { label, members }
    }

    /// How many cycles.
    pub(crate) fn count(&self) -> usize {
        self.members.len()
    }
}

/// What the subtour loop does with a model whose moves are `successors`
/// (a cover of the nodes by cycles): nothing when they are one tour; with
/// `patching` (a search for one tour) and the encoding's
/// [`patching`](super::SuccessorConfig::patching),
/// the tour [`merge_all`] patches them into when it gets one; otherwise,
/// for each set S of nodes to cut, the clauses "some allowed move leaves
/// S" and "some allowed move enters S". Every tour satisfies both (a tour
/// visits the nodes outside S too, so it leaves S and comes back), and
/// this model breaks both. The two directions as separate clauses are the
/// cut-set constraints of the SAT 2025 CEGAR for Hamiltonian cycles
/// (Ohashi, Soh, Le Berre et al., "SAT-Based CEGAR Method for the
/// Hamiltonian Cycle Problem Enhanced by Cut-Set Constraints"): on FHCP
/// graphs the cut into S took the models a search needs from 6310 to 1750
/// (graph 140) and from 8782 to 2023 (graph 230) (docs/notebook.md, "The
/// FHCP Challenge Set").
///
/// The sets cut are the model's cycles, or, with
/// [`merged_cuts`](super::SuccessorConfig::merged_cuts), the groups that
/// patching's exchanges merge them into when they merge into more than
/// one: the same two clauses hold for any set of nodes short of all, and
/// this model, whose moves stay inside each group, breaks them too. The
/// CEGAR paper's best configurations cut the cycles that 2-opt merges,
/// not the model's (its "2opt3"); here on FHCP graphs 470, 840 and 860,
/// unsolved in 30 s by cutting each cycle, it solved them in 5.8, 15.9
/// and 28.1 s (docs/notebook.md, "Cuts of the merged cycles"). The moves
/// are merged once, for the patch and the cuts alike.
pub(crate) fn mend(encoding: &Successor, successors: &[usize], patching: bool) -> Mended {
    let cycles = Cycles::of(successors);
    if cycles.count() <= 1 {
        return Mended::Tour;
    }
    let patching = patching && encoding.config.patching;
    if !patching && !encoding.config.merged_cuts {
        return cut(encoding, &cycles, &cycles);
    }
    let merged = merge_all(encoding, successors.to_vec());
    let groups = Cycles::of(&merged);
    if groups.count() > 1 {
        let sets = if encoding.config.merged_cuts {
            &groups
        } else {
            &cycles
        };
        return cut(encoding, sets, &cycles);
    }
    // One tour: patched when patching, which may still fail at the
    // problem's start or end; a count, which never patches, cuts the
    // cycles themselves (the whole set of nodes has no cut).
    if patching {
        if let Some(squares) = encoding.tour_of(&merged) {
            return Mended::Patched(squares);
        }
    }
    cut(encoding, &cycles, &cycles)
}

/// The cuts of every set of `sets`, for a model whose moves form
/// `cycles`, as [`Mended::Cut`].
fn cut(encoding: &Successor, sets: &Cycles, cycles: &Cycles) -> Mended {
    Mended::Cut {
        clauses: set_cuts(encoding, sets),
        subtours: cycles.count(),
    }
}

/// The two cut clauses of each cycle of `cycles` (out, then in), which
/// must not be all the nodes.
fn set_cuts(encoding: &Successor, cycles: &Cycles) -> Vec<Vec<Lit>> {
    let mut cuts = Vec::with_capacity(2 * cycles.count());
    for (id, cycle) in cycles.members.iter().enumerate() {
        let mut out = Vec::new();
        let mut into = Vec::new();
        for &node in cycle {
            // The moves are symmetric: every neighbour outside is a way
            // out to it and a way in from it, where the problem allows.
            for (other, _) in encoding.node_arcs(node) {
                if cycles.label[other] == id {
                    continue;
                }
                out.extend(encoding.allowed(node, other));
                into.extend(encoding.allowed(other, node));
            }
        }
        cuts.push(out);
        cuts.push(into);
    }
    cuts
}

/// The moves `successors` with their cycles merged as far as they go, in
/// the spirit of Karp's patching for the travelling salesman ("A patching
/// algorithm for the nonsymmetric travelling-salesman problem", SIAM J.
/// Comput. 1979): two cycles A and B are merged by exchanging a move a→a′
/// of A and a move b→b′ of B for a→b′ and b→a′, or, reversing B, for a→b
/// and b′→a′ where b′ follows b, whenever the new moves are allowed. The
/// smallest cycle that can merge is merged first, again and again, until
/// one cycle is left or none can merge with another.
///
/// One cycle left is a tour of the problem (every move allowed) but not
/// necessarily a model of the formula: it may break symmetry breaking and
/// blocking clauses, so it serves a search for one tour, not counting.
fn merge_all(encoding: &Successor, mut successors: Vec<usize>) -> Vec<usize> {
    loop {
        let cycles = Cycles::of(&successors);
        if cycles.count() == 1 {
            return successors;
        }
        let mut order: Vec<usize> = (0..cycles.count()).collect();
        order.sort_by_key(|&id| cycles.members[id].len());
        let mut predecessors = vec![0; successors.len()];
        for (node, &next) in successors.iter().enumerate() {
            predecessors[next] = node;
        }
        let mut reversible = vec![None; cycles.count()];
        let merged = order.iter().any(|&id| {
            merge_one(
                encoding,
                &cycles,
                id,
                &mut successors,
                &predecessors,
                &mut reversible,
            )
        });
        if !merged {
            return successors;
        }
    }
}

/// Merges cycle `id` with another cycle by one exchange, if one is allowed.
fn merge_one(
    encoding: &Successor,
    cycles: &Cycles,
    id: usize,
    successors: &mut [usize],
    predecessors: &[usize],
    reversible: &mut [Option<bool>],
) -> bool {
    for &a in &cycles.members[id] {
        let a_next = successors[a];
        for (b_next, _) in encoding.node_arcs(a) {
            let other = cycles.label[b_next];
            if other == id || encoding.allowed(a, b_next).is_none() {
                continue;
            }
            // Same direction: a→b′ … b→a′.
            let b = predecessors[b_next];
            if encoding.allowed(b, a_next).is_some() {
                successors[a] = b_next;
                successors[b] = a_next;
                return true;
            }
            // B reversed: a→b′, then backwards along B to b″ = succ(b′), b″→a′.
            let b_after = successors[b_next];
            let can_reverse = *reversible[other].get_or_insert_with(|| {
                cycles.members[other]
                    .iter()
                    .all(|&node| encoding.allowed(successors[node], node).is_some())
            });
            if can_reverse && encoding.allowed(b_after, a_next).is_some() {
                for &node in &cycles.members[other] {
                    successors[node] = predecessors[node];
                }
                // Now b′'s successor is its old predecessor, and b″ leads to b′.
                successors[a] = b_next;
                successors[b_after] = a_next;
                return true;
            }
        }
    }
    false
}
