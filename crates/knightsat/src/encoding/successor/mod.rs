//! The successor encoding of the knight's tour: the cycle model of seed 002
//! in SAT.
//!
//! One variable per move: m(s→w) means "the move after s goes to w", for
//! every square s and every square w a leaper's move away. An open tour is
//! closed into a cycle through one virtual node V: first(s) (the move V→s)
//! means "the tour starts on s", last(s) (the move s→V) "it ends on s". A
//! tour is then exactly one move out of and one move into every node, with
//! the moves forming one cycle. The numbering is stable:
//! m(s→w) = 1 + offset(s) + k, where w is s's k-th neighbour in ascending
//! index order and offset(s) counts the moves out of the squares before s;
//! with A moves in all, first(s) = 1 + A + index(s) and last(s) =
//! 1 + A + N + index(s) (index(s) as in the time-indexed encoding).
//! Auxiliary variables (at-most-one helpers, positions, Tseytin links) come
//! after.
//!
//! "One cycle" is the hard part. [`Subtours::Lazy`] leaves it out: the
//! solver finds a cover of the nodes by cycles, `mend` forbids its
//! subtours (or, in a search for one tour, patches them into one), and
//! the solver goes on
//! ([`crate::solve::Session`]). [`Subtours::Complete`] writes it into the
//! formula with the Chinese remainder encoding (`crt`), so that every
//! model is a tour: what `encode` writes.
//!
//! Clues ("step t is on square s") are pinned through the same positions
//! (`Successor::clues_by_position`), so a clued formula always carries
//! them and is complete. It is exact but, for the solvers, hard: clues
//! reach them only through chains of moves, so on clued boards the
//! time-indexed encoding is far faster (docs/notebook.md, "Clued
//! boards").

mod config;
mod crt;
mod cycles;
mod elimination;
mod registers;
mod watch;

use crate::cnf::{family, ClauseSink, Lit, Stats, Var};
use crate::encoding::{splitting, square_index_words, Amo, Encoding, Model};
use crate::encoding::{EncodingError, Mended};

use crate::graph::MoveGraph;
use crate::model::board::Board;
use crate::model::problem::Problem;

pub use config::{Acyclicity, Laps, Subtours, SuccessorConfig};
use cycles::{mend, Cycles};
pub use registers::PositionCode;

use crt::{Odd, Positions};
use elimination::Elimination;
pub use watch::CycleWatch;

/// The largest set of literals the successor encoding gives to pairwise
/// at-most-one (see `Successor::amo_for`).
pub const PAIRWISE_LIMIT: usize = 16;

/// The successor encoding prepared for one problem: the moves, numbered.
#[derive(Clone, Debug)]
pub struct Successor {
    problem: Problem,
    config: SuccessorConfig,
    moves: MoveMap,
    /// The squares the tour may start on (open tours).
    starts: Vec<bool>,
    /// The node every cycle must pass through (complete formula).
    root: usize,
    /// The step of the tour the root stands for: −1 for the virtual node
    /// of an open tour (the step before the first), the start's 0, the
    /// end's N − 1, or a clue's step.
    root_step: isize,
    positions: Option<Positions>,
    /// The elimination order of the nodes (a complete formula by vertex
    /// elimination).
    elimination: Option<Elimination>,
    /// The parity of every node's position (a formula with positions on a
    /// bipartite move graph, with `parity` on).
    parities: Option<Parities>,
}

/// The parity of every node's position on a bipartite move graph: along
/// the cycle the nodes alternate between the graph's two sides, so a
/// node's distance from the root is odd exactly when it lies on the other
/// side than the root (closed tours), or for an open tour, whose root is
/// the virtual node, exactly when it lies on the start's side.
#[derive(Clone, Debug)]
struct Parities {
    /// Each node's.
    odd: Vec<Odd>,
    /// The variable "the open tour starts on the side without square index
    /// 0", where the problem leaves the start's side open; numbered after
    /// the positions.
    start_side: Option<Var>,
}

impl Parities {
    /// The parities for `moves`, whose connected bipartite move graph has
    /// the sides `side` (`MoveGraph::sides_unless`), or `None` where it
    /// has no tour by its sides' sizes. `starts` are the squares an open
    /// tour may start on; `free` is the first variable not yet numbered.
    fn of(
        problem: &Problem,
        moves: &MoveMap,
        side: &[bool],
        starts: &[bool],
        root: usize,
        free: usize,
    ) -> Option<Parities> {
        if !moves.open {
            let odd = side.iter().map(|&s| Odd::Fixed(s != side[root])).collect();
            return Some(Parities {
                odd,
                start_side: None,
            });
        }
        let squares = side.len();
        let on_true = side.iter().filter(|&&s| s).count();
        if on_true.abs_diff(squares - on_true) > 1 {
            return None;
        }
        // A path alternates sides: it starts on the larger side, or on
        // either where they are equal; an end fixes the start's side too.
        let mut start_may_be = [on_true * 2 <= squares, on_true * 2 >= squares];
        for (which, may) in start_may_be.iter_mut().enumerate() {
            let which = which == 1;
            *may &= (0..squares).any(|s| starts[s] && side[s] == which);
            if let Some(end) = problem.end() {
                *may &= which == (side[end] ^ squares.is_multiple_of(2));
            }
        }
        let (mut odd, start_side): (Vec<Odd>, Option<Var>) = match start_may_be {
            [false, false] => return None,
            [true, true] => {
                let start_on_true = Var::from_dimacs(free as isize);
                let odd = side
                    .iter()
                    .map(|&s| {
                        Odd::As(if s {
                            start_on_true.positive()
                        } else {
                            start_on_true.negative()
                        })
                    })
                    .collect();
                (odd, Some(start_on_true))
            }
            [_, start_on_true] => (
                side.iter()
                    .map(|&s| Odd::Fixed(s == start_on_true))
                    .collect(),
                None,
            ),
        };
        // The virtual node, the root, is at 0.
        odd.push(Odd::Fixed(false));
        Some(Parities { odd, start_side })
    }
}

impl Successor {
    /// The most variables the encoding numbers: varisat takes fewer than
    /// 2²⁸, and DIMACS tools are happiest below 2³¹.
    pub const MAX_VARS: usize = (1 << 28) - 1;

    /// Prepares the encoding of `problem`, or an error for a clause-length
    /// bound below 3 or a board whose formula would be too large. Clues
    /// bring the position variables in even with lazy subtours
    /// (`Successor::clues_by_position`), so that a clued formula is
    /// always complete.
    pub fn new(problem: &Problem, config: SuccessorConfig) -> Result<Successor, EncodingError> {
        config.check_fits(problem)?;
        let board = problem.board();
        let moves = MoveMap::new(board, !problem.is_closed());
        let squares = board.squares();
        let mut starts = vec![false; squares];
        for s in problem.start_squares(config.symmetry_breaking) {
            starts[s] = true;
        }
        let (root, root_step) = root_of(problem);
        let elimination = elimination_for(problem, &config, &moves, root)?;
        // Only a formula with positions needs the sides (a search of the
        // whole move graph), for the laps and the parity.
        let has_positions =
            config.has_positions(problem) && (elimination.is_none() || !problem.clues().is_empty());
        let sides = has_positions
            .then(|| moves.graph.sides_unless(|| false))
            .flatten();
        let lap_length = has_positions
            .then(|| config.laps.length(moves.nodes(), sides.is_some()))
            .flatten();
        let positions = has_positions.then(|| {
            Positions::new(
                moves.nodes(),
                moves.count() + 1,
                lap_length,
                config.positions,
            )
        });
        let parities = positions
            .as_ref()
            .filter(|positions| config.parity && positions.have_even_modulus())
            .zip(sides.as_deref())
            .and_then(|(positions, side)| {
                let free = moves.count() + positions.count() + 1;
                Parities::of(problem, &moves, side, &starts, root, free)
            });
        // Recorded as chosen, so that the file reads back the same.
        let acyclicity = match (config.subtours, &elimination) {
            (Subtours::Complete, Some(_)) => Acyclicity::VertexElimination,
            (Subtours::Complete, None) => Acyclicity::Positions,
            (Subtours::Lazy, _) => config.acyclicity,
        };
        let config = SuccessorConfig {
            laps: lap_length.map_or(Laps::Whole, Laps::Of),
            acyclicity,
            ..config
        };
        Ok(Successor {
            problem: problem.clone(),
            config,
            moves,
            starts,
            root,
            root_step,
            positions,
            elimination,
            parities,
        })
    }

    /// The position (distance from the root along the tour) of the square
    /// at `step`: (step − root step) mod nodes.
    fn position_of_step(&self, step: usize) -> usize {
        let nodes = self.moves.nodes() as isize;
        (step as isize - self.root_step).rem_euclid(nodes) as usize
    }

    /// The numbering of the move variables.
    pub fn moves(&self) -> &MoveMap {
        &self.moves
    }

    /// The literal of the move from node `from` to node `to` (a square's
    /// index, or [`MoveMap::virtual_node`]), if there is such a move and
    /// the problem allows it: an open tour starts only on an allowed
    /// square and ends only on its end; a closed tour with start and end
    /// both given closes from the end to the start.
    pub(crate) fn allowed(&self, from: usize, to: usize) -> Option<Lit> {
        let v = self.moves.virtual_node();
        let problem = &self.problem;
        if from == v {
            return (to != v && self.starts[to]).then(|| self.moves.first(to).positive());
        }
        if to == v {
            return problem
                .end()
                .is_none_or(|end| end == from)
                .then(|| self.moves.last(from).positive());
        }
        if problem.is_closed() {
            if let (Some(start), Some(end)) = (problem.start(), problem.end()) {
                if (from == end) != (to == start) {
                    return None;
                }
            }
        }
        self.moves.step(from, to).map(Var::positive)
    }

    /// The literals of the moves out of `node`.
    fn leaving(&self, node: usize) -> Vec<Lit> {
        self.node_arcs(node)
            .into_iter()
            .map(|(_, lit)| lit)
            .collect()
    }

    /// The literals of the moves into `node`.
    fn entering(&self, node: usize) -> Vec<Lit> {
        let v = self.moves.virtual_node();
        if node == v {
            return (0..self.moves.squares)
                .map(|s| self.moves.last(s).positive())
                .collect();
        }
        let mut lits: Vec<Lit> = self
            .moves
            .neighbours(node)
            .iter()
            .filter_map(|&w| self.moves.step(w, node))
            .map(Var::positive)
            .collect();
        if self.moves.open {
            lits.push(self.moves.first(node).positive());
        }
        lits
    }

    /// Announces and writes every family, in a fixed order.
    fn encode_families(&self, sink: &mut impl ClauseSink) {
        sink.reserve_vars(self.numbered_vars());
        family(sink, "leave-exactly-one", |sink| {
            self.leave_exactly_one(sink);
        });
        family(sink, "enter-exactly-one", |sink| {
            self.enter_exactly_one(sink);
        });
        if self.moves.nodes() > 2 {
            family(sink, "no-two-cycles", |sink| self.no_two_cycles(sink));
        }
        family(sink, "start-and-end", |sink| self.start_and_end(sink));
        if self.config.symmetry_breaking
            && self.problem.is_closed()
            && self.problem.reversal_is_symmetry()
        {
            family(sink, "symmetry-breaking", |sink| {
                self.closed_reversal_broken(sink);
            });
        }
        if let Some(elimination) = &self.elimination {
            family(sink, "acyclic-by-elimination", |sink| {
                self.acyclic_by_elimination(elimination, sink);
            });
        }
        if let Some(positions) = &self.positions {
            family(sink, "position-exactly-one", |sink| {
                positions.exactly_one_position(|len| self.amo_for(len), sink);
            });
            family(sink, "position-root", |sink| {
                positions.root_at_zero(self.root, sink);
            });
            if positions.laps > 1 {
                family(sink, "position-lap-ends", |sink| positions.lap_ends(sink));
            }
            family(sink, "position-advance", |sink| {
                self.positions_advance(positions, sink);
            });
            family(sink, "position-closing", |sink| {
                self.positions_close(positions, sink);
            });
            if let Some(parities) = &self.parities {
                family(sink, "position-parity", |sink| {
                    for (node, &odd) in parities.odd.iter().enumerate() {
                        positions.parity(node, odd, sink);
                    }
                });
            }
            if self.config.position_support {
                family(sink, "position-support", |sink| {
                    self.positions_supported(positions, sink);
                });
            }
            if !self.problem.clues().is_empty() {
                family(sink, "clues", |sink| {
                    self.clues_by_position(positions, sink);
                });
            }
        }
    }

    /// Exactly one move leaves every node: one at-least-one clause and the
    /// chosen at-most-one encoding over its moves out.
    fn leave_exactly_one(&self, sink: &mut impl ClauseSink) {
        for node in 0..self.moves.nodes() {
            let lits = self.leaving(node);
            sink.add_clause(&lits);
            self.amo_for(lits.len()).encode(sink, &lits);
        }
    }

    /// Exactly one move enters every node.
    fn enter_exactly_one(&self, sink: &mut impl ClauseSink) {
        for node in 0..self.moves.nodes() {
            let lits = self.entering(node);
            sink.add_clause(&lits);
            self.amo_for(lits.len()).encode(sink, &lits);
        }
    }

    /// The at-most-one encoding for a set of `len` literals: the chosen
    /// one, except that pairwise gives way to bimander above
    /// [`PAIRWISE_LIMIT`] literals (the virtual node's N moves, where
    /// pairwise would need N²/2 clauses: 50 million on 100x100). Bimander
    /// was the fastest of the others on 100x100 open (docs/notebook.md,
    /// "Solvers side by side").
    pub(crate) fn amo_for(&self, len: usize) -> Amo {
        match self.config.amo {
            Amo::Pairwise if len > PAIRWISE_LIMIT => Amo::Bimander,
            amo => amo,
        }
    }

    /// No move and its reverse both: ¬m(s→w) ∨ ¬m(w→s) for s < w, and
    /// ¬first(s) ∨ ¬last(s). A cycle of two nodes is a subtour whenever
    /// there are more than two nodes.
    fn no_two_cycles(&self, sink: &mut impl ClauseSink) {
        for s in 0..self.moves.squares {
            for (w, var) in self.moves.arcs_of(s).filter(|&(w, _)| s < w) {
                let back = self.moves.step(w, s).expect("leaper moves are symmetric");
                sink.add_clause(&[var.negative(), back.negative()]);
            }
            if self.moves.open {
                sink.add_clause(&[
                    self.moves.first(s).negative(),
                    self.moves.last(s).negative(),
                ]);
            }
        }
    }

    /// What the problem fixes: an open tour starts on an allowed square (a
    /// unit ¬first(s) for each other) and ends on its end if one is given;
    /// a closed tour with start and end given closes from end to start.
    fn start_and_end(&self, sink: &mut impl ClauseSink) {
        let v = self.moves.virtual_node();
        if self.moves.open {
            for s in 0..self.moves.squares {
                if self.allowed(v, s).is_none() {
                    sink.add_clause(&[self.moves.first(s).negative()]);
                }
                if self.allowed(s, v).is_none() {
                    sink.add_clause(&[self.moves.last(s).negative()]);
                }
            }
        } else if let (Some(start), Some(end)) = (self.problem.start(), self.problem.end()) {
            match self.moves.step(end, start) {
                Some(close) => sink.add_clause(&[close.positive()]),
                None => sink.add_clause(&[]),
            }
        }
    }

    /// A closed cycle and its reverse are the same tour: of the root's two
    /// neighbours on the cycle, the one it moves to must have a smaller
    /// index than the one it comes from. For every pair of its neighbours
    /// a > b: ¬m(root→a) ∨ ¬m(b→root).
    fn closed_reversal_broken(&self, sink: &mut impl ClauseSink) {
        let root = self.root;
        for (a, to_a) in self.moves.arcs_of(root) {
            for (b, _) in self.moves.arcs_of(root).filter(|&(b, _)| b < a) {
                let from_b = self
                    .moves
                    .step(b, root)
                    .expect("leaper moves are symmetric");
                sink.add_clause(&[to_a.negative(), from_b.negative()]);
            }
        }
    }

    /// Each clue "step t is on square s" as units on s's residues: s is
    /// at position (t − root step) mod nodes.
    ///
    /// Why this is exact: in every model of the complete formula the moves
    /// form one cycle through the root, the root is at position 0 and each
    /// move adds one, so every node's residue modulo each modulus m is its
    /// distance d from the root modulo m. The moduli are pairwise coprime
    /// with a product of at least the number of nodes, so by the Chinese
    /// remainder theorem the residues determine d in [0, nodes) exactly:
    /// the units hold exactly when s is the square at step t.
    fn clues_by_position(&self, positions: &Positions, sink: &mut impl ClauseSink) {
        for clue in self.problem.clues() {
            positions.fix(clue.square, self.position_of_step(clue.step), sink);
        }
    }

    /// The moves among the nodes other than the root have no cycle
    /// ([`Elimination::encode`]): with exactly one move out of and into
    /// every node, the moves then form one cycle.
    fn acyclic_by_elimination(&self, elimination: &Elimination, sink: &mut impl ClauseSink) {
        let arcs: std::collections::HashMap<(usize, usize), Lit> = (0..self.moves.nodes())
            .flat_map(|node| {
                self.node_arcs(node)
                    .into_iter()
                    .map(move |(to, lit)| ((node, to), lit))
            })
            .collect();
        elimination.encode(|from, to| arcs.get(&(from, to)).copied(), sink);
    }

    /// Every move into a node other than the root advances the positions
    /// ([`Positions::advance`]).
    fn positions_advance(&self, positions: &Positions, sink: &mut impl ClauseSink) {
        for node in 0..self.moves.nodes() {
            for (to, step) in self.node_arcs(node) {
                if to != self.root {
                    positions.advance(step, node, to, sink);
                }
            }
        }
    }

    /// Every move into a node other than the root is supported by the
    /// node it comes from ([`Positions::support`]).
    fn positions_supported(&self, positions: &Positions, sink: &mut impl ClauseSink) {
        for node in 0..self.moves.nodes() {
            for (to, step) in self.node_arcs(node) {
                if to != self.root {
                    positions.support(step, node, to, sink);
                }
            }
        }
    }

    /// The variables numbered before any auxiliary one: the moves, the
    /// positions and the start's side.
    fn numbered_vars(&self) -> usize {
        let positions = self.positions.as_ref().map_or(0, Positions::count);
        let start_side = self
            .parities
            .as_ref()
            .map_or(0, |parities| usize::from(parities.start_side.is_some()));
        self.moves.count() + positions + start_side
    }

    /// Every move into the root closes the cycle: it comes from the last
    /// node ([`Positions::closes`]).
    fn positions_close(&self, positions: &Positions, sink: &mut impl ClauseSink) {
        for node in 0..self.moves.nodes() {
            for (to, step) in self.node_arcs(node) {
                if to == self.root {
                    positions.closes(step, node, sink);
                }
            }
        }
    }

    /// Every move out of `node`, virtual ones included, as (target, literal).
    fn node_arcs(&self, node: usize) -> Vec<(usize, Lit)> {
        let v = self.moves.virtual_node();
        if node == v {
            return (0..self.moves.squares)
                .map(|s| (s, self.moves.first(s).positive()))
                .collect();
        }
        let mut arcs: Vec<(usize, Lit)> = self
            .moves
            .arcs_of(node)
            .map(|(w, var)| (w, var.positive()))
            .collect();
        if self.moves.open {
            arcs.push((v, self.moves.last(node).positive()));
        }
        arcs
    }

    /// The successor of every node in `model`, or an error naming a node
    /// with no move out or two, or no move in or two (the moves must be a
    /// cover of the nodes by cycles).
    pub(crate) fn successors(&self, model: &Model) -> Result<Vec<usize>, EncodingError> {
        let successors = self.moves_out(model)?;
        let mut entered = vec![0u8; successors.len()];
        for &next in &successors {
            entered[next] = entered[next].saturating_add(1);
        }
        // A node entered twice is named first: it is where the model goes wrong.
        let twice = entered.iter().position(|&count| count > 1);
        if let Some(node) = twice.or_else(|| entered.iter().position(|&count| count == 0)) {
            let how = if entered[node] == 0 {
                "no move enters"
            } else {
                "two moves enter"
            };
            return Err(EncodingError::BadModel(format!(
                "{how} {} in the model",
                self.node_name(node)
            )));
        }
        Ok(successors)
    }

    /// A node in words: its square, or the virtual node of an open tour.
    fn node_name(&self, node: usize) -> String {
        if node == self.moves.virtual_node() {
            "the virtual node (before the start, after the end)".to_string()
        } else {
            self.problem.board().name(node)
        }
    }

    /// The one move out of every node in `model`, or an error naming a
    /// node with none or two.
    fn moves_out(&self, model: &Model) -> Result<Vec<usize>, EncodingError> {
        let name = |node: usize| self.node_name(node);
        (0..self.moves.nodes())
            .map(|node| {
                let mut next = self
                    .node_arcs(node)
                    .into_iter()
                    .filter(|&(_, lit)| model.value(lit.var().to_dimacs() as usize) == Some(true))
                    .map(|(to, _)| to);
                match (next.next(), next.next()) {
                    (Some(to), None) => Ok(to),
                    (None, _) => Err(EncodingError::BadModel(format!(
                        "no move leaves {} in the model",
                        name(node)
                    ))),
                    (Some(a), Some(b)) => Err(EncodingError::BadModel(format!(
                        "two moves leave {} in the model: to {} and to {}",
                        name(node),
                        name(a),
                        name(b)
                    ))),
                }
            })
            .collect()
    }

    /// The squares of the tour `successors` (a cover of the nodes by
    /// cycles, as [`successors`](Self::successors) gives) describes, in
    /// visiting order, or `None` when they form more than one cycle.
    fn tour_of(&self, successors: &[usize]) -> Option<Vec<usize>> {
        let n = self.moves.squares;
        let v = self.moves.virtual_node();
        // The first square is as many moves after the root as step 0 is
        // after the root's step.
        let mut first = self.root;
        for _ in 0..self.position_of_step(0) {
            first = successors[first];
        }
        let mut seen = vec![false; n];
        let mut squares = Vec::with_capacity(n);
        let mut node = first;
        for _ in 0..n {
            if node == v || seen[node] {
                return None;
            }
            seen[node] = true;
            squares.push(node);
            node = successors[node];
        }
        let closes = if self.moves.open {
            node == v
        } else {
            node == first
        };
        closes.then_some(squares)
    }
}

/// The most clauses vertex elimination may write: past it the formula is
/// refused (about 1.5 GB of DIMACS; closed 30x30 takes 5 million).
const MAX_ELIMINATION_CLAUSES: u64 = 50_000_000;

/// The elimination a complete formula for `problem` rules out subtours
/// with, or `None` for positions: as `config.acyclicity` asks, and for
/// [`Acyclicity::Auto`] on a graph from a file with no clues, vertex
/// elimination while its clauses stay within
/// [`Acyclicity::AUTO_CLAUSES_PER_MOVE`] per move and
/// [`Acyclicity::AUTO_CLAUSES`] in all; an error where
/// vertex elimination is asked for and its clauses would pass
/// [`MAX_ELIMINATION_CLAUSES`].
fn elimination_for(
    problem: &Problem,
    config: &SuccessorConfig,
    moves: &MoveMap,
    root: usize,
) -> Result<Option<Elimination>, EncodingError> {
    if config.subtours != Subtours::Complete {
        return Ok(None);
    }
    let eliminate =
        |budget| Elimination::least_degree_first(&node_neighbours(moves, problem), root, budget);
    match config.acyclicity {
        Acyclicity::VertexElimination => {
            eliminate(MAX_ELIMINATION_CLAUSES).map(Some).ok_or_else(|| {
                EncodingError::EliminationTooLarge {
                    board: problem.board().named(),
                    limit: MAX_ELIMINATION_CLAUSES,
                }
            })
        }
        Acyclicity::Auto if problem.board().graph().is_some() && problem.clues().is_empty() => {
            let budget = (moves.count() as u64)
                .saturating_mul(Acyclicity::AUTO_CLAUSES_PER_MOVE)
                .min(Acyclicity::AUTO_CLAUSES);
            Ok(eliminate(budget))
        }
        // Positions asked for, or chosen on a board or with clues.
        Acyclicity::Positions | Acyclicity::Auto => Ok(None),
    }
}

/// Each node's neighbours by the moves either way, the virtual node's
/// (open tours) included, ascending.
fn node_neighbours(moves: &MoveMap, problem: &Problem) -> Vec<Vec<usize>> {
    let mut neighbours: Vec<Vec<usize>> = (0..moves.nodes())
        .map(|s| {
            if s < moves.squares {
                moves.neighbours(s)
            } else {
                Vec::new()
            }
        })
        .collect();
    if !problem.is_closed() {
        let v = moves.virtual_node();
        for list in neighbours.iter_mut().take(moves.squares) {
            list.push(v);
        }
        neighbours[v] = (0..moves.squares).collect();
    }
    neighbours
}

/// The node every cycle passes through, and the step it stands for: an
/// open tour's virtual node (step −1); for a closed tour its start
/// (step 0), else its end (step N − 1), else its first clue's square, else
/// the first square (only where any square may start: no clue, no end).
fn root_of(problem: &Problem) -> (usize, isize) {
    let squares = problem.board().squares();
    if !problem.is_closed() {
        return (squares, -1);
    }
    if let Some(start) = problem.effective_start() {
        (start, 0)
    } else if let Some(end) = problem.end() {
        (end, squares as isize - 1)
    } else if let Some(clue) = problem.clues().first() {
        (clue.square, clue.step as isize)
    } else {
        (0, 0)
    }
}

impl Encoding for Successor {
    fn name(&self) -> &'static str {
        "successor"
    }

    fn problem(&self) -> &Problem {
        &self.problem
    }

    fn settings(&self) -> Vec<(&'static str, String)> {
        self.config.settings()
    }

    /// Writes the formula, clause-splitting when `max_clause_len` asks for it.
    fn encode(&self, sink: &mut dyn ClauseSink) {
        splitting(self.config.max_clause_len, sink, |mut sink| {
            self.encode_families(&mut sink);
        });
    }

    fn primary_vars(&self) -> usize {
        self.moves.count()
    }

    fn live_vars(&self) -> usize {
        self.moves.count()
    }

    /// Counted by encoding into a counter (linear in the moves), with room
    /// for subtour cuts when they are added lazily: measured on 30x30 to
    /// 64x64, the cuts of a whole solve stay below a tenth of the base
    /// formula.
    fn estimated_literals(&self) -> u64 {
        let mut stats = Stats::default();
        self.encode(&mut stats);
        let literals = stats.literals as u64;
        match self.config.subtours {
            Subtours::Lazy => literals + literals / 4,
            Subtours::Complete => literals,
        }
    }

    fn describe_vars(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "variables {}",
            self.moves.describe(self.problem.board())
        )];
        if let Some(positions) = &self.positions {
            lines.push(positions.describe(&self.node_name(self.root)));
        }
        if let Some(elimination) = &self.elimination {
            lines.push(format!(
                "acyclicity by vertex elimination (Rankooh and Rintanen, AAAI 2022) of every node but the root, {}, least degree first (at most {} neighbours when eliminated): the variables after the numbered ones include the pairs' reach variables, r(u,w) 'w is reachable from u', implied by the move u->w where there is one, each numbered when first used, among the at-most-one auxiliaries",
                self.node_name(self.root),
                elimination.width()
            ));
        }
        if let Some(var) = self.parities.as_ref().and_then(|p| p.start_side) {
            lines.push(format!(
                "start-side variable {}: the tour starts on the side of the bipartite move graph without index 0",
                var.to_dimacs()
            ));
        }
        lines
    }

    /// Follows the moves from the start; an error for a node with no move
    /// out or two, and for moves that form more than one cycle.
    fn squares_of(&self, model: &Model) -> Result<Vec<usize>, EncodingError> {
        let successors = self.successors(model)?;
        self.tour_of(&successors).ok_or_else(|| {
            let cycles = Cycles::of(&successors);
            EncodingError::BadModel(format!(
                "its moves form {} separate cycles (subtours), not one tour",
                cycles.count()
            ))
        })
    }

    /// The negation of the tour's moves (first and last included for an
    /// open tour): every other assignment of the move variables satisfies it.
    fn blocking_clause(&self, squares: &[usize]) -> Vec<Lit> {
        let mut clause: Vec<Lit> = squares
            .windows(2)
            .filter_map(|pair| self.moves.step(pair[0], pair[1]))
            .map(Var::negative)
            .collect();
        match (squares.first(), squares.last()) {
            (Some(&first), Some(&last)) if self.moves.open => {
                clause.push(self.moves.first(first).negative());
                clause.push(self.moves.last(last).negative());
            }
            (Some(&first), Some(&last)) => {
                clause.extend(self.moves.step(last, first).map(Var::negative));
            }
            _ => {}
        }
        clause
    }

    fn is_complete(&self) -> bool {
        self.positions.is_some() || self.elimination.is_some()
    }

    /// An open tour's formula: `CaDiCaL`'s lucky phases find its model
    /// with no conflict (docs/notebook.md, "Solvers side by side"); a
    /// closed one's they do not.
    fn guesses_find_models(&self) -> bool {
        self.moves.open
    }

    fn mend(&self, model: &Model, patching: bool) -> Result<Mended, EncodingError> {
        Ok(mend(self, &self.successors(model)?, patching))
    }

    /// Adds the cuts, split like the formula's clauses when
    /// `max_clause_len` asks for it.
    fn add_cuts(&self, cuts: &[Vec<Lit>], sink: &mut dyn ClauseSink) {
        splitting(self.config.max_clause_len, sink, |sink| {
            for cut in cuts {
                sink.add_clause(cut);
            }
        });
    }

    fn variable_kind(&self) -> &'static str {
        "move variables"
    }

    fn cycle_watch(&self, patching: bool) -> Option<CycleWatch> {
        (!self.is_complete()).then(|| CycleWatch::new(self.clone(), patching))
    }
}

/// The numbering of the move variables.
#[derive(Clone, Debug)]
pub struct MoveMap {
    /// N, the number of squares.
    pub squares: usize,
    /// Whether the tour is open (with the virtual node and its moves).
    pub open: bool,
    /// The move graph, each square's neighbours in ascending order.
    graph: MoveGraph,
}

impl MoveMap {
    /// The moves of `board`'s leaper, with the virtual node's if `open`.
    pub(crate) fn new(board: &Board, open: bool) -> MoveMap {
        MoveMap {
            squares: board.squares(),
            open,
            graph: MoveGraph::ascending(board),
        }
    }

    /// The number of nodes: the squares, and the virtual node of an open tour.
    pub(crate) fn nodes(&self) -> usize {
        self.squares + usize::from(self.open)
    }

    /// The virtual node of an open tour (numbered after the squares).
    pub(crate) fn virtual_node(&self) -> usize {
        self.squares
    }

    /// A, the number of moves between squares.
    pub(crate) fn arcs(&self) -> usize {
        self.graph.arcs()
    }

    /// The number of move variables: A, and 2N more for an open tour.
    pub(crate) fn count(&self) -> usize {
        self.arcs() + if self.open { 2 * self.squares } else { 0 }
    }

    /// The neighbours of square `s`, ascending.
    pub fn neighbours(&self, s: usize) -> Vec<usize> {
        self.graph
            .neighbours(s)
            .iter()
            .map(|&w| w as usize)
            .collect()
    }

    /// The moves out of square `s` as (neighbour, variable).
    pub(crate) fn arcs_of(&self, s: usize) -> impl Iterator<Item = (usize, Var)> + '_ {
        let begin = self.graph.arcs_of(s).start;
        self.graph
            .neighbours(s)
            .iter()
            .enumerate()
            .map(move |(k, &w)| (w as usize, Var::from_dimacs((1 + begin + k) as isize)))
    }

    /// m(s→w), if w is a move away from s.
    pub fn step(&self, s: usize, w: usize) -> Option<Var> {
        if s >= self.squares || w >= self.squares {
            return None;
        }
        let begin = self.graph.arcs_of(s).start;
        let k = self.graph.neighbours(s).binary_search(&(w as u32)).ok()?;
        Some(Var::from_dimacs((1 + begin + k) as isize))
    }

    /// first(s): the tour starts on s (open tours).
    pub fn first(&self, s: usize) -> Var {
        debug_assert!(self.open && s < self.squares);
        Var::from_dimacs((1 + self.arcs() + s) as isize)
    }

    /// last(s): the tour ends on s (open tours).
    pub fn last(&self, s: usize) -> Var {
        debug_assert!(self.open && s < self.squares);
        Var::from_dimacs((1 + self.arcs() + self.squares + s) as isize)
    }

    /// The formula in words, as written into CNF comments.
    pub(crate) fn describe(&self, board: &Board) -> String {
        let ends = if self.open {
            format!(
                "; first(s) = {} + index(s) (the tour starts on s), last(s) = {} + index(s) (it ends on s)",
                1 + self.arcs(),
                1 + self.arcs() + self.squares
            )
        } else {
            String::new()
        };
        format!(
            "m(s->w) = 1 + offset(s) + k for w the k-th neighbour of s by ascending index (k from 0), offset(s) = the number of moves out of the squares before s, {} moves in all{ends}; {}",
            self.arcs(),
            square_index_words(board)
        )
    }
}
