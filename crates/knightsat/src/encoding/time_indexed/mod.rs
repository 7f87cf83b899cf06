//! The time-indexed encoding of the knight's tour.
//!
//! Variable x(t, s) means "after t moves the knight is on square s", for
//! t = 0..N−1 and the N squares of the board. Its number is stable:
//! x(t, s) = 1 + t·N + index(s), with index(s) = `rank_index` · COLS + `file_index`
//! on a board without holes; with holes, index(s) counts only the squares
//! that exist, in the same order. The piece may be any leaper; "knight move"
//! below means a move of the board's leaper.
//! Auxiliary variables (at-most-one helpers, Tseytin links) come after N².
//!
//! Each constraint family is one function that pushes clauses into a
//! [`ClauseSink`]; [`TimeIndexed::encode`](crate::encoding::Encoding::encode)
//! announces and runs them in a fixed order, so the same problem and
//! configuration always give the same clauses.

mod config;
mod domain;

use crate::cnf::{family, ClauseSink, Lit, Var};
use crate::encoding::amo::pairwise;
use crate::encoding::EncodingError;
use crate::encoding::{splitting, square_index_words, Amo, Encoding, Model};

use crate::graph::MoveGraph;
use crate::model::board::Board;
use crate::model::problem::{Clue, Problem};

pub use config::{Setting, TimeIndexedConfig, SETTINGS};
pub use domain::Domain;

/// The time-indexed encoding prepared for one problem: the variable map,
/// the move graph and the pruned domain, worked out once.
#[derive(Clone, Debug)]
pub struct TimeIndexed {
    problem: Problem,
    config: TimeIndexedConfig,
    vars: VarMap,
    graph: MoveGraph,
    domain: Domain,
}

impl TimeIndexed {
    /// The square the formula pins the start to: the problem's effective
    /// start, but no default one where the encoding does not keep it
    /// ([`Encoding::keeps_the_default_start`]).
    fn pinned_start(&self) -> Option<usize> {
        if self.problem.start_fixed_by_default() && !self.keeps_the_default_start() {
            None
        } else {
            self.problem.effective_start()
        }
    }

    /// The largest board the encoding takes, in squares: it needs squares²
    /// x variables (and its pruned domain squares² flags), and varisat
    /// supports fewer than 2²⁸ variables; 2¹³ squares (e.g. 90x90) keep the
    /// x variables at 2²⁶ with room for auxiliaries.
    pub const MAX_SQUARES: usize = 1 << 13;

    /// Prepares the encoding of `problem`, or an error for a board over
    /// [`MAX_SQUARES`](Self::MAX_SQUARES), a clause-length bound below 3 or
    /// blocks that do not fit the board.
    pub fn new(problem: &Problem, config: TimeIndexedConfig) -> Result<TimeIndexed, EncodingError> {
        config.check_fits(problem)?;
        let board = problem.board();
        let graph = MoveGraph::ascending(board);
        let domain = Domain::new(problem, &config, &graph);
        Ok(TimeIndexed {
            vars: VarMap {
                squares: board.squares(),
            },
            problem: problem.clone(),
            config,
            graph,
            domain,
        })
    }

    /// The numbering of the x variables.
    pub fn vars(&self) -> VarMap {
        self.vars
    }

    /// Which x(t, s) may be true.
    pub(crate) fn domain(&self) -> &Domain {
        &self.domain
    }

    /// Positive literals of the live x(t, s) for one step t.
    fn at_step(&self, step: usize) -> impl Iterator<Item = Lit> + '_ {
        (0..self.vars.squares)
            .filter(move |&square| self.domain.is_live(step, square))
            .map(move |square| self.vars.x(step, square).positive())
    }

    /// Positive literals of the live x(t, s) for one square s.
    fn on_square(&self, square: usize) -> impl Iterator<Item = Lit> + '_ {
        (0..self.vars.squares)
            .filter(move |&step| self.domain.is_live(step, square))
            .map(move |step| self.vars.x(step, square).positive())
    }

    /// The error for a model that puts step `step` on no live square: in
    /// the user's terms, where the model does put it, if anywhere.
    fn nowhere(&self, model: &Model, step: usize, unassigned: usize) -> EncodingError {
        let board = self.problem.board();
        let ruled_out = (0..self.vars.squares).find(|&square| {
            !self.domain.is_live(step, square)
                && model.value(self.vars.x(step, square).to_dimacs() as usize) == Some(true)
        });
        EncodingError::BadModel(match ruled_out {
            Some(square) => format!(
                "move {} is on {}, which this CNF rules out (its start, end, clues, colour or symmetry breaking): the model does not satisfy the CNF",
                step + 1,
                board.name(square)
            ),
            None if unassigned > 0 => format!(
                "after {step} moves the knight is on no square ({unassigned} of the step's variables are not in the model: truncated, or for a smaller board?)"
            ),
            None => format!("after {step} moves the knight is on no square"),
        })
    }

    /// Announces and writes every family, in a fixed order.
    fn encode_families(&self, sink: &mut impl ClauseSink) {
        let vars = self.vars;
        let problem = &self.problem;
        let config = &self.config;
        sink.reserve_vars(vars.count());
        family(sink, "step-at-least-one", |sink| {
            step_at_least_one(self, sink);
        });
        family(sink, "step-at-most-one", |sink| {
            step_at_most_one(self, config.amo, sink);
        });
        family(sink, "square-at-least-one", |sink| {
            square_at_least_one(self, sink);
        });
        family(sink, "square-at-most-one", |sink| {
            square_at_most_one(self, config.amo, sink);
        });
        family(sink, "successor", |sink| successor(self, sink));
        if problem.is_closed() {
            family(sink, "closing-move", |sink| closing_move(self, sink));
        }
        if config.predecessor {
            family(sink, "predecessor", |sink| predecessor(self, sink));
        }
        if config.moves {
            family(sink, "moves", |sink| moves(self, sink));
        }
        if let Some(start) = self.pinned_start() {
            family(sink, "start", |sink| {
                sink.add_clause(&[vars.x(0, start).positive()]);
            });
        }
        if let Some(end) = problem.end() {
            family(sink, "end", |sink| {
                sink.add_clause(&[vars.x(vars.squares - 1, end).positive()]);
            });
        }
        if !problem.clues().is_empty() {
            family(sink, "clues", |sink| {
                for &Clue { step, square } in problem.clues() {
                    sink.add_clause(&[vars.x(step, square).positive()]);
                }
            });
        }
        // A block schedule read backwards is another schedule: reversal
        // is no symmetry of its tours.
        if config.symmetry_breaking
            && problem.is_closed()
            && problem.reversal_is_symmetry()
            && config.blocks.is_none()
        {
            if let Some(start) = problem.effective_start() {
                family(sink, "symmetry-breaking", |sink| {
                    let neighbours: Vec<usize> = self
                        .graph
                        .neighbours(start)
                        .iter()
                        .map(|&w| w as usize)
                        .collect();
                    closed_reversal_broken(self, &neighbours, sink);
                });
            }
        }
    }
}

impl Encoding for TimeIndexed {
    fn name(&self) -> &'static str {
        "time-indexed"
    }

    fn problem(&self) -> &Problem {
        &self.problem
    }

    fn settings(&self) -> Vec<(&'static str, String)> {
        self.config.settings()
    }

    /// Not under a block schedule: its first block's squares may start the
    /// tour ([`Domain`](domain::Domain)).
    fn keeps_the_default_start(&self) -> bool {
        self.config.blocks.is_none()
    }

    /// Writes the formula, clause-splitting when `max_clause_len` asks for it.
    fn encode(&self, sink: &mut dyn ClauseSink) {
        splitting(self.config.max_clause_len, sink, |mut sink| {
            self.encode_families(&mut sink);
        });
    }

    fn primary_vars(&self) -> usize {
        self.vars.count()
    }

    fn live_vars(&self) -> usize {
        self.domain.live_count()
    }

    /// Each live x(t, s) occurs in its step's and its square's at-least-one
    /// and at-most-one clauses and leads a successor and a predecessor
    /// clause of up to 1 + its degree literals; measured from 12x12 to 36x36
    /// that is 42 to 57 literals per live variable, growing with the log of
    /// the board (the at-most-one encodings), so 40 + 2·log2(N) bounds it.
    /// The move variables add at most 48: a live x(t, s) leads one
    /// three-literal clause per neighbour into step t+1 and one per move out
    /// of s (measured: 23 to 44).
    fn estimated_literals(&self) -> u64 {
        let n = self.vars.squares.max(2) as u64;
        let moves = if self.config.moves { 48 } else { 0 };
        let per_live = 40 + 2 * u64::from(n.ilog2()) + moves;
        self.domain.live_count() as u64 * per_live
    }

    fn describe_vars(&self) -> Vec<String> {
        vec![
            format!("variables {}", self.vars.describe(self.problem.board())),
            "pruned x variables (parity, reachability, symmetry breaking) occur in no clause; their values mean nothing".to_string(),
        ]
    }

    /// Reads the square of each step from the live x variables; pruned ones
    /// occur in no clause, so their values mean nothing and are not read.
    /// A variable the model leaves out counts as false.
    fn squares_of(&self, model: &Model) -> Result<Vec<usize>, EncodingError> {
        let board = self.problem.board();
        let n = self.vars.squares;
        let mut squares = Vec::with_capacity(n);
        for step in 0..n {
            let mut on = Vec::new();
            let mut unassigned = 0;
            for square in (0..n).filter(|&square| self.domain.is_live(step, square)) {
                match model.value(self.vars.x(step, square).to_dimacs() as usize) {
                    Some(true) => on.push(square),
                    Some(false) => {}
                    None => unassigned += 1,
                }
            }
            match on[..] {
                [square] => squares.push(square),
                [] => return Err(self.nowhere(model, step, unassigned)),
                [a, b, ..] => {
                    return Err(EncodingError::BadModel(format!(
                        "after {step} moves the knight is on {} and {} at once",
                        board.name(a),
                        board.name(b)
                    )))
                }
            }
        }
        Ok(squares)
    }

    fn blocking_clause(&self, squares: &[usize]) -> Vec<Lit> {
        squares
            .iter()
            .enumerate()
            .map(|(step, &square)| self.vars.x(step, square).negative())
            .collect()
    }
}

/// The numbering of the x variables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VarMap {
    /// N, the number of squares (and of steps).
    pub squares: usize,
}

impl VarMap {
    /// x(t, s) = 1 + t·N + s: "after t moves the knight is on square s".
    pub fn x(&self, step: usize, square: usize) -> Var {
        debug_assert!(step < self.squares && square < self.squares);
        Var::from_dimacs((1 + step * self.squares + square) as isize)
    }

    /// The number of x variables, N².
    pub(crate) fn count(self) -> usize {
        self.squares * self.squares
    }

    /// The (step, square) of an x variable given by its DIMACS number, or
    /// `None` for an auxiliary variable.
    pub fn step_and_square(&self, dimacs: usize) -> Option<(usize, usize)> {
        (1..=self.count())
            .contains(&dimacs)
            .then(|| ((dimacs - 1) / self.squares, (dimacs - 1) % self.squares))
    }

    /// The formula in words, as written into CNF comments.
    pub(crate) fn describe(self, board: &Board) -> String {
        let index = square_index_words(board);
        format!(
            "x(t,s) = 1 + t*{n} + index(s), t = 0..{last}, {index}; auxiliary variables from {aux}",
            n = self.squares,
            last = self.squares - 1,
            aux = self.count() + 1
        )
    }
}

/// At every step the knight is on some square: one clause per step t,
/// OR over s of x(t, s).
pub fn step_at_least_one(encoding: &TimeIndexed, sink: &mut impl ClauseSink) {
    let mut clause = Vec::with_capacity(encoding.vars.squares);
    for step in 0..encoding.vars.squares {
        clause.clear();
        clause.extend(encoding.at_step(step));
        sink.add_clause(&clause);
    }
}

/// At every step the knight is on at most one square.
pub fn step_at_most_one(encoding: &TimeIndexed, amo: Amo, sink: &mut impl ClauseSink) {
    let mut lits = Vec::with_capacity(encoding.vars.squares);
    for step in 0..encoding.vars.squares {
        lits.clear();
        lits.extend(encoding.at_step(step));
        amo.encode(sink, &lits);
    }
}

/// Every square is visited: one clause per square s, OR over t of x(t, s).
pub fn square_at_least_one(encoding: &TimeIndexed, sink: &mut impl ClauseSink) {
    let mut clause = Vec::with_capacity(encoding.vars.squares);
    for square in 0..encoding.vars.squares {
        clause.clear();
        clause.extend(encoding.on_square(square));
        sink.add_clause(&clause);
    }
}

/// Every square is visited at most once.
pub fn square_at_most_one(encoding: &TimeIndexed, amo: Amo, sink: &mut impl ClauseSink) {
    let mut lits = Vec::with_capacity(encoding.vars.squares);
    for square in 0..encoding.vars.squares {
        lits.clear();
        lits.extend(encoding.on_square(square));
        amo.encode(sink, &lits);
    }
}

/// Each move is a knight move: x(t, s) → OR over the knight-neighbours w of s
/// of x(t+1, w), for t = 0..N−2. A square with no neighbours gets ¬x(t, s).
pub(crate) fn successor(encoding: &TimeIndexed, sink: &mut impl ClauseSink) {
    for step in 0..encoding.vars.squares.saturating_sub(1) {
        move_clauses(encoding, step, step + 1, sink);
    }
}

/// The tour closes: x(N−1, s) → OR over the knight-neighbours w of s of x(0, w).
pub(crate) fn closing_move(encoding: &TimeIndexed, sink: &mut impl ClauseSink) {
    move_clauses(encoding, encoding.vars.squares - 1, 0, sink);
}

/// Redundant: each square is entered by a knight move. x(t+1, s) → OR over
/// the knight-neighbours w of s of x(t, w), for t = 0..N−2, and for closed
/// tours x(0, s) → OR of x(N−1, w).
///
/// Implied by the other families (the successor of the step before lands on
/// s only from a neighbour), but it lets unit propagation reason backwards in
/// time, which speeds solving up more than any other switch measured in
/// docs/notebook.md, "Speed of the time-indexed encoding".
pub(crate) fn predecessor(encoding: &TimeIndexed, sink: &mut impl ClauseSink) {
    for step in 0..encoding.vars.squares.saturating_sub(1) {
        move_clauses(encoding, step + 1, step, sink);
    }
    if encoding.problem.is_closed() {
        move_clauses(encoding, 0, encoding.vars.squares - 1, sink);
    }
}

/// A closed tour and its reverse are the same cycle: of the start's two
/// neighbours on the cycle, the one visited first (after move 1) must have
/// the smaller index than the one visited last (after move N−1). For every
/// pair of the start's knight-neighbours a > b: ¬x(1, a) ∨ ¬x(N−1, b).
pub(crate) fn closed_reversal_broken(
    encoding: &TimeIndexed,
    start_neighbours: &[usize],
    sink: &mut impl ClauseSink,
) {
    let last = encoding.vars.squares - 1;
    if last < 2 {
        return;
    }
    for &a in start_neighbours {
        for &b in start_neighbours.iter().filter(|&&b| b < a) {
            if encoding.domain.is_live(1, a) && encoding.domain.is_live(last, b) {
                sink.add_clause(&[
                    encoding.vars.x(1, a).negative(),
                    encoding.vars.x(last, b).negative(),
                ]);
            }
        }
    }
}

/// Redundant: the tour's moves as variables, linked to the steps. For each
/// move a → b that some pair of consecutive live steps allows, a variable
/// m(a, b) ("the move after a goes to b") with
/// - x(t, a) ∧ x(t+1, b) → m(a, b) and m(a, b) ∧ x(t, a) → x(t+1, b)
///   (→ ¬x(t, a) where x(t+1, b) is pruned, or a's step is an open tour's
///   last), for t+1 taken modulo N on closed tours;
/// - exactly one move leaves each square, except the last of an open tour,
///   and exactly one enters it, except the first (pairwise at-most-one over
///   at most 8 moves);
/// - no move and its reverse both.
///
/// Each tour extends to exactly one assignment of the m's (m(a, b) true
/// exactly for the tour's moves), so tours and counts are unchanged. What
/// the family adds is the successor encoding's degree reasoning (a square
/// with one neighbour left to come from must be entered from it) inside the
/// time-indexed formula: redundant modelling with channelling constraints,
/// as Cheng, Lee and Wu's "Speeding up constraint propagation by redundant
/// modeling" (CP 1996) proposes for two models of one permutation. On
/// clued boards from 20x20 up it saves most of the solving time, and
/// plain boards gain too (docs/notebook.md, "Clued boards", what the
/// move variables buy).
pub(crate) fn moves(encoding: &TimeIndexed, sink: &mut impl ClauseSink) {
    let n = encoding.vars.squares;
    let closed = encoding.problem.is_closed();
    let next = |step: usize| match step + 1 {
        after if after < n => Some(after),
        _ if closed => Some(0),
        _ => None,
    };
    let live = |step, square| encoding.domain.is_live(step, square);
    let x = |step, square| encoding.vars.x(step, square);
    // The step after t when x(t, a) and x(t+1, b) are both live.
    let linked =
        |t: usize, a: usize, b: usize| next(t).filter(|&after| live(t, a) && live(after, b));
    let mut outs: Vec<Vec<(usize, Lit)>> = vec![Vec::new(); n];
    let mut ins: Vec<Vec<Lit>> = vec![Vec::new(); n];
    for (a, outs_a) in outs.iter_mut().enumerate() {
        for &b in encoding.graph.neighbours(a) {
            let b = b as usize;
            if (0..n).any(|t| linked(t, a, b).is_some()) {
                let m = sink.new_var().positive();
                outs_a.push((b, m));
                ins[b].push(m);
            }
        }
    }
    for (a, moves_out) in outs.iter().enumerate() {
        for &(b, m) in moves_out {
            for t in (0..n).filter(|&t| live(t, a)) {
                match linked(t, a, b) {
                    Some(after) => {
                        sink.add_clause(&[x(t, a).negative(), x(after, b).negative(), m]);
                        sink.add_clause(&[!m, x(t, a).negative(), x(after, b).positive()]);
                    }
                    None => sink.add_clause(&[!m, x(t, a).negative()]),
                }
            }
            if n > 2 && a < b {
                if let Some(&(_, back)) = outs[b].iter().find(|&&(to, _)| to == a) {
                    sink.add_clause(&[!m, !back]);
                }
            }
        }
    }
    let mut clause = Vec::with_capacity(9);
    // A square with no live step already has an empty at-least-one clause.
    for square in (0..n).filter(|&square| (0..n).any(|t| live(t, square))) {
        let leaving: Vec<Lit> = outs[square].iter().map(|&(_, m)| m).collect();
        let last = (!closed && live(n - 1, square)).then(|| x(n - 1, square).positive());
        let first = (!closed && live(0, square)).then(|| x(0, square).positive());
        for (moves, exempt) in [(&leaving, last), (&ins[square], first)] {
            clause.clear();
            clause.extend(moves.iter().copied().chain(exempt));
            sink.add_clause(&clause);
            pairwise(sink, moves);
        }
        if let Some(first) = first {
            for &m in &ins[square] {
                sink.add_clause(&[!first, !m]);
            }
        }
    }
}

/// x(from, s) → OR over the live neighbours w of s of x(to, w), for every live x(from, s).
fn move_clauses(encoding: &TimeIndexed, from: usize, to: usize, sink: &mut impl ClauseSink) {
    let mut clause = Vec::with_capacity(9);
    for square in 0..encoding.graph.nodes() {
        if !encoding.domain.is_live(from, square) {
            continue;
        }
        clause.clear();
        clause.push(encoding.vars.x(from, square).negative());
        clause.extend(
            encoding
                .graph
                .neighbours(square)
                .iter()
                .map(|&w| w as usize)
                .filter(|&w| encoding.domain.is_live(to, w))
                .map(|w| encoding.vars.x(to, w).positive()),
        );
        sink.add_clause(&clause);
    }
}
