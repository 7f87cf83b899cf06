//! Watching the moves while the solver searches: the moment the moves set
//! so far close a cycle that is not the whole tour, the cuts that forbid it
//! (the same two cut-set clauses as [`super::cycles::mend`]), long
//! before the solver has a whole model. A solver that lets a program take
//! part in its search (`CaDiCaL`'s external propagator, the IPASIR-UP
//! interface of Fazekas, Niemetz, Preiner, Kirchweger, Szeider and Biere,
//! "IPASIR-UP: User Propagators for CDCL", SAT 2023) calls it.

use std::collections::VecDeque;

use super::cycles::mend;
use super::Successor;
use crate::cnf::Lit;
use crate::encoding::Mended;

const NONE: u32 = u32::MAX;

/// The longest subtour cut during the search, before a whole model: longer
/// ones wait for the model. Cutting every cycle the moves close flooded
/// the solver on FHCP graphs (graph 50: 4.4 s against 0.5 s with at most
/// 10; graph 140: 6.0 s against 3.5 s; graph 230: 27.9 s against 0.8 s;
/// one run each, docs/notebook.md, "The FHCP Challenge Set").
const EAGER_CYCLE_LIMIT: usize = 10;

/// The moves of a lazy successor formula, as a solver's callbacks see them
/// (DIMACS literals), and the paths they form so far.
#[derive(Clone, Debug)]
pub struct CycleWatch {
    /// The move of every move variable (by DIMACS number), from and to.
    moves: Vec<(u32, u32)>,
    /// Every node's neighbours with the literal of the move out to it and
    /// of the move in from it, where the problem allows them (DIMACS).
    ways: Vec<Vec<(u32, i32, i32)>>,
    /// The next node of every node, where its move is set.
    next: Vec<u32>,
    /// Whether a move into each node is set.
    entered: Vec<bool>,
    /// For the first node of a path of set moves, its last node; for the
    /// last, its first (a node with no set move is a path of one).
    other_end: Vec<u32>,
    /// What each set move changed, to undo it on backtracking: the move's
    /// nodes, and the path's ends before it joined two paths (`NONE` when it
    /// closed a cycle).
    undo: Vec<(u32, u32, u32, u32)>,
    /// Where each decision level's moves begin in `undo`.
    levels: Vec<usize>,
    /// Cuts found and not yet given to the solver.
    pending: VecDeque<Vec<i32>>,
    /// Literals of the first pending cut given so far.
    given: usize,
    /// Subtours cut, during the search and in whole models.
    pub cycles_found: u64,
    /// The nodes of the subtour being cut (false again after each cut).
    inside: Vec<bool>,
    /// The encoding whose rules ([`mend`]) patch or cut a whole model's
    /// subtours.
    encoding: Successor,
    /// Whether a whole model whose subtours patch into a tour is let
    /// through (the session patches it: a search for one tour).
    patching: bool,
}

fn dimacs(lit: Lit) -> i32 {
    lit.to_dimacs() as i32
}

impl CycleWatch {
    /// A watch over the moves of `encoding`'s formula; with `patching`,
    /// it lets through a whole model whose subtours patch into a tour, for
    /// the session to patch.
    pub(crate) fn new(encoding: Successor, patching: bool) -> CycleWatch {
        let nodes = encoding.moves.nodes();
        let arcs: Vec<(usize, usize, Lit)> = (0..nodes)
            .flat_map(|node| {
                encoding
                    .node_arcs(node)
                    .into_iter()
                    .map(move |(to, lit)| (node, to, lit))
            })
            .collect();
        let highest = arcs
            .iter()
            .map(|&(_, _, lit)| lit.var().to_dimacs() as usize)
            .max()
            .unwrap_or(0);
        let mut moves = vec![(NONE, NONE); highest + 1];
        let mut ways = vec![Vec::new(); nodes];
        for &(from, to, lit) in &arcs {
            moves[lit.var().to_dimacs() as usize] = (from as u32, to as u32);
            let out = encoding.allowed(from, to).map_or(0, dimacs);
            let into = encoding.allowed(to, from).map_or(0, dimacs);
            ways[from].push((to as u32, out, into));
        }
        CycleWatch {
            moves,
            ways,
            next: vec![NONE; nodes],
            entered: vec![false; nodes],
            other_end: (0..nodes as u32).collect(),
            undo: Vec::new(),
            levels: Vec::new(),
            pending: VecDeque::new(),
            given: 0,
            cycles_found: 0,
            inside: vec![false; nodes],
            encoding,
            patching,
        }
    }

    /// The move variables (DIMACS numbers), which the solver must report.
    pub fn watched(&self) -> impl Iterator<Item = i32> + '_ {
        self.moves
            .iter()
            .enumerate()
            .filter(|(_, &(from, _))| from != NONE)
            .map(|(var, _)| var as i32)
    }

    /// The solver set these literals.
    pub fn assigned(&mut self, lits: &[i32]) {
        for &lit in lits {
            if lit <= 0 {
                continue;
            }
            let Some(&(from, to)) = self.moves.get(lit as usize) else {
                continue;
            };
            if from == NONE {
                continue;
            }
            self.set(from, to);
        }
    }

    fn set(&mut self, from: u32, to: u32) {
        let (f, t) = (from as usize, to as usize);
        // A move already set (told again), or one the solver's conflict
        // will undo (a second move out of or into a node): nothing to do.
        if self.next[f] != NONE || self.entered[t] {
            return;
        }
        self.next[f] = to;
        self.entered[t] = true;
        let first = self.other_end[f];
        if first == to {
            self.undo.push((from, to, NONE, NONE));
            self.closed(to);
            return;
        }
        let last = self.other_end[t];
        self.undo.push((from, to, first, last));
        self.other_end[first as usize] = last;
        self.other_end[last as usize] = first;
    }

    /// The moves set close a cycle through `node`: unless it is the whole
    /// tour or longer than [`EAGER_CYCLE_LIMIT`] (its whole model will
    /// show it), its cuts are due.
    fn closed(&mut self, node: u32) {
        let mut members = vec![node];
        let mut at = self.next[node as usize];
        while at != node {
            members.push(at);
            at = self.next[at as usize];
        }
        if members.len() <= EAGER_CYCLE_LIMIT && members.len() < self.next.len() {
            self.cut(&members);
        }
    }

    /// Queues the two cuts of the subtour of `members`: some allowed move
    /// out of it, some allowed move into it.
    fn cut(&mut self, members: &[u32]) {
        self.cycles_found += 1;
        for &m in members {
            self.inside[m as usize] = true;
        }
        let mut out = Vec::new();
        let mut into = Vec::new();
        for &m in members {
            for &(other, o, i) in &self.ways[m as usize] {
                if self.inside[other as usize] {
                    continue;
                }
                if o != 0 {
                    out.push(o);
                }
                if i != 0 {
                    into.push(i);
                }
            }
        }
        for &m in members {
            self.inside[m as usize] = false;
        }
        self.pending.push_back(out);
        self.pending.push_back(into);
    }

    /// The solver decided once more.
    pub fn new_level(&mut self) {
        self.levels.push(self.undo.len());
    }

    /// The solver went back to decision level `level`.
    pub fn backtrack(&mut self, level: usize) {
        let Some(&keep) = self.levels.get(level) else {
            return;
        };
        self.levels.truncate(level);
        while self.undo.len() > keep {
            let (from, to, first, last) = self.undo.pop().expect("above keep");
            self.next[from as usize] = NONE;
            self.entered[to as usize] = false;
            if first != NONE {
                self.other_end[first as usize] = from;
                self.other_end[last as usize] = to;
            }
        }
    }

    /// Whether a whole model (the solver's literals) is one tour; if not,
    /// the cuts of its cycles are due. A model that is no cover of the
    /// nodes by cycles passes, for the session to name what is wrong.
    pub fn check_model(&mut self, model: &[i32]) -> bool {
        let mut next = vec![NONE; self.next.len()];
        for &lit in model {
            if let Some(&(from, to)) = self.moves.get(lit.max(0) as usize) {
                if from != NONE {
                    next[from as usize] = to;
                }
            }
        }
        if next.contains(&NONE) {
            return true;
        }
        let successors: Vec<usize> = next.iter().map(|&n| n as usize).collect();
        match mend(&self.encoding, &successors, self.patching) {
            Mended::Tour | Mended::Patched(_) => true,
            Mended::Cut { clauses, subtours } => {
                self.cycles_found += subtours as u64;
                self.pending.extend(
                    clauses
                        .iter()
                        .map(|cut| cut.iter().map(|&lit| dimacs(lit)).collect()),
                );
                false
            }
        }
    }

    /// Whether a cut is due.
    pub fn has_cut(&self) -> bool {
        !self.pending.is_empty()
    }

    /// The next literal of the due cut, 0 at its end.
    pub fn next_literal(&mut self) -> i32 {
        let Some(cut) = self.pending.front() else {
            return 0;
        };
        if let Some(&lit) = cut.get(self.given) {
            self.given += 1;
            return lit;
        }
        self.pending.pop_front();
        self.given = 0;
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::SuccessorConfig;
    use crate::model::board::Board;
    use crate::model::graph::Graph;
    use crate::model::problem::Problem;

    /// The closed tours of the complete graph on six vertices, lazy, so
    /// that every move between two nodes is allowed both ways.
    fn complete_six() -> Successor {
        let edges: Vec<(usize, usize)> = (1..=6)
            .flat_map(|a| (a + 1..=6).map(move |b| (a, b)))
            .collect();
        let graph = Graph::new(6, &edges).expect("a graph");
        let problem = Problem::new(Board::from_graph(graph)).closed(true);
        Successor::new(&problem, SuccessorConfig::default()).expect("an encoding")
    }

    /// The literal of the move from node `a` to node `b` (DIMACS).
    fn move_lit(encoding: &Successor, a: usize, b: usize) -> i32 {
        dimacs(encoding.allowed(a, b).expect("an allowed move"))
    }

    /// Every literal of the cuts due, cut by cut, sorted.
    fn cuts(watch: &mut CycleWatch) -> Vec<Vec<i32>> {
        let mut cuts = Vec::new();
        while watch.has_cut() {
            let mut cut = Vec::new();
            loop {
                let lit = watch.next_literal();
                if lit == 0 {
                    break;
                }
                cut.push(lit);
            }
            cut.sort_unstable();
            cuts.push(cut);
        }
        cuts
    }

    #[test]
    fn a_closed_subtour_is_cut_out_and_in_and_backtracking_forgets_its_moves() {
        let six = complete_six();
        let lit = |a, b| move_lit(&six, a, b);
        let mut watch = CycleWatch::new(six.clone(), true);
        watch.new_level();
        watch.assigned(&[lit(0, 1), -lit(0, 2), lit(1, 2)]);
        assert!(!watch.has_cut());
        // Back before the two moves: 2→0 closes nothing.
        watch.backtrack(0);
        watch.new_level();
        watch.assigned(&[lit(2, 0)]);
        assert!(!watch.has_cut());
        // 0→1 and 1→2 again close 0→1→2→0.
        watch.assigned(&[lit(0, 1), lit(1, 2)]);
        let mut out: Vec<i32> = (0..3)
            .flat_map(|a| (3..6).map(move |b| (a, b)))
            .map(|(a, b)| lit(a, b))
            .collect();
        let mut into: Vec<i32> = (0..3)
            .flat_map(|a| (3..6).map(move |b| (b, a)))
            .map(|(b, a)| lit(b, a))
            .collect();
        out.sort_unstable();
        into.sort_unstable();
        assert_eq!(cuts(&mut watch), vec![out, into]);
        assert_eq!(watch.cycles_found, 1);
    }

    #[test]
    fn a_whole_model_passes_when_it_is_one_cycle_or_patches_into_one_and_gets_cuts_when_not() {
        let six = complete_six();
        let lit = |a, b| move_lit(&six, a, b);
        let one: Vec<i32> = (0..6).map(|a| lit(a, (a + 1) % 6)).collect();
        let two: Vec<i32> = [(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3)]
            .iter()
            .map(|&(a, b)| lit(a, b))
            .collect();
        let mut patching = CycleWatch::new(six.clone(), true);
        assert!(patching.check_model(&one));
        // The two triangles patch into one tour: the session patches it.
        assert!(patching.check_model(&two));
        assert!(!patching.has_cut());
        let mut watch = CycleWatch::new(six.clone(), false);
        assert!(watch.check_model(&one));
        assert!(!watch.has_cut());
        // Not patching, the two merge into the whole graph, which has no
        // cut: each triangle is cut, out and in.
        assert!(!watch.check_model(&two));
        assert_eq!(cuts(&mut watch).len(), 4);
        assert_eq!(watch.cycles_found, 2);
        // The search's own paths are untouched by the check.
        watch.new_level();
        watch.assigned(&[lit(3, 4)]);
        assert!(!watch.has_cut());
    }
}
