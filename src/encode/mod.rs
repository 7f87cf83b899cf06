//! The time-indexed encoding of the knight's tour.
//!
//! Variable x(t, s) means "after t moves the knight is on square s", for
//! t = 0..N−1 and the N squares of the board. Its number is stable:
//! x(t, s) = 1 + t·N + index(s), with index(s) = rank_index · COLS + file_index
//! on a board without holes; with holes, index(s) counts only the squares
//! that exist, in the same order. The piece may be any leaper; "knight move"
//! below means a move of the board's leaper.
//! Auxiliary variables (at-most-one helpers, Tseytin links) come after N².
//!
//! Each constraint family is one function that pushes clauses into a
//! [`ClauseSink`]; [`encode`] announces and runs them in a fixed order, so the
//! same options always give the same clauses.

pub mod amo;
pub mod domain;

use crate::board::Board;
use crate::cnf::split::Splitter;
use crate::cnf::{ClauseSink, Lit, Var};
use crate::error::Error;

pub use amo::Amo;
pub use domain::Domain;

/// Everything that determines the formula.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The board to tour.
    pub board: Board,
    /// Whether the last square must be a knight move from the first.
    pub closed: bool,
    /// The square the tour must start on, by index.
    pub start: Option<usize>,
    /// The square the tour must end on, by index.
    pub end: Option<usize>,
    /// Split clauses longer than this many literals (at least 3).
    pub max_clause_len: Option<usize>,
    /// How "at most one" is encoded.
    pub amo: Amo,
    /// Add the redundant predecessor clauses (see [`predecessor`]).
    pub predecessor: bool,
    /// Prune x(t, s) whose colour cannot match step t's (see [`Domain`]).
    pub parity: bool,
    /// Prune x(t, s) too far by knight moves from the start or end (see [`Domain`]).
    pub reachability: bool,
    /// Break the board's symmetries: for open tours with neither end given,
    /// start on one square per orbit; for closed tours, forbid the reverse
    /// of each tour (see [`symmetry_breaking`]).
    pub symmetry_breaking: bool,
    /// An optional block schedule: the board cut into this many bands of
    /// ranks by bands of files, toured one block after another in snake
    /// order (see [`domain::block_windows`]). Restricts the search: every tour
    /// found is a tour, but a board may have tours and none that follow it.
    pub blocks: Option<(usize, usize)>,
    /// Clues: (step, square) pairs, "after `step` moves the knight is on
    /// `square`", sorted by step (the board grid numbers step t as t + 1).
    pub clues: Vec<(usize, usize)>,
}

impl Options {
    /// Options for an open tour of `board` with nothing fixed.
    pub fn new(board: Board) -> Options {
        Options {
            board,
            closed: false,
            start: None,
            end: None,
            max_clause_len: None,
            amo: Amo::default(),
            predecessor: true,
            parity: true,
            reachability: true,
            symmetry_breaking: true,
            blocks: None,
            clues: Vec::new(),
        }
    }

    /// The straightforward encoding: pairwise at-most-one and nothing
    /// pruned, redundant or symmetry-breaking, for comparisons.
    pub fn naive(board: Board) -> Options {
        Options {
            amo: Amo::Pairwise,
            predecessor: false,
            parity: false,
            reachability: false,
            symmetry_breaking: false,
            ..Options::new(board)
        }
    }

    /// Checks values the types cannot: the clause-length bound and that the
    /// fixed squares lie on the board.
    pub fn validate(&self) -> Result<(), Error> {
        if let Some(len) = self.max_clause_len {
            if len < 3 {
                return Err(Error::BadOption(format!(
                    "--max-clause-len must be at least 3, got {len}"
                )));
            }
        }
        if let Some((rows, cols)) = self.blocks {
            if rows == 0 || cols == 0 || rows > self.board.rows() || cols > self.board.cols() {
                return Err(Error::BadOption(format!(
                    "--blocks {rows}x{cols} does not fit the {} board: each block needs a rank and a file",
                    self.board
                )));
            }
        }
        let clue_squares = self.clues.iter().map(|&(_, square)| square);
        for square in [self.start, self.end]
            .into_iter()
            .flatten()
            .chain(clue_squares)
        {
            if square >= self.board.squares() {
                return Err(Error::BadSquare(format!(
                    "square index {square} is not on the {} board",
                    self.board
                )));
            }
        }
        validate_clues(&self.board, &self.clues)
    }

    /// Whether anything pins the tour to particular steps on particular
    /// squares: a start, an end or clues.
    pub fn is_anchored(&self) -> bool {
        self.start.is_some() || self.end.is_some() || !self.clues.is_empty()
    }

    /// Whether the start square is fixed to the first square (a1 unless it
    /// is a hole) because the tour is closed and neither end of it nor any
    /// clue was given. Every closed tour can be rotated to start anywhere,
    /// so this loses no tour.
    pub fn start_fixed_by_default(&self) -> bool {
        self.closed && !self.is_anchored()
    }

    /// The start square the encoding fixes, given or by default.
    pub fn effective_start(&self) -> Option<usize> {
        if self.start_fixed_by_default() {
            Some(0)
        } else {
            self.start
        }
    }

    /// The variable map for these options.
    pub fn vars(&self) -> VarMap {
        VarMap {
            squares: self.board.squares(),
        }
    }
}

/// Parses a clue `N=SQUARE` (move N, counting the start as 1, is on
/// SQUARE) into a (step, square index) pair.
pub fn parse_clue(board: &Board, text: &str) -> Result<(usize, usize), Error> {
    let bad = || {
        Error::BadOption(format!(
            "clue '{text}': expected N=SQUARE, e.g. 5=c3 (move 1 is the start)"
        ))
    };
    let (number, square) = text.trim().split_once('=').ok_or_else(bad)?;
    let number: usize = number.trim().parse().map_err(|_| bad())?;
    if number == 0 || number > board.squares() {
        return Err(Error::BadOption(format!(
            "clue '{text}': move numbers run from 1 (the start) to {} on this board",
            board.squares()
        )));
    }
    Ok((number - 1, board.parse_square(square.trim())?))
}

/// Checks clues: each step and each square at most once, steps on the board.
fn validate_clues(board: &Board, clues: &[(usize, usize)]) -> Result<(), Error> {
    let n = board.squares();
    for (i, &(step, square)) in clues.iter().enumerate() {
        if step >= n {
            return Err(Error::BadOption(format!(
                "clue {}={}: move numbers run from 1 to {n} on this board",
                step + 1,
                board.name(square)
            )));
        }
        for &(other_step, other_square) in &clues[..i] {
            if other_step == step && other_square != square {
                return Err(Error::BadOption(format!(
                    "two clues for move {}: {} and {}",
                    step + 1,
                    board.name(other_square),
                    board.name(square)
                )));
            }
            if other_square == square && other_step != step {
                return Err(Error::BadOption(format!(
                    "{} has two move numbers, {} and {}",
                    board.name(square),
                    other_step + 1,
                    step + 1
                )));
            }
        }
    }
    Ok(())
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
    pub fn count(&self) -> usize {
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
    pub fn describe(&self, board: &Board) -> String {
        let index = if board.has_holes() {
            "index(s) = position of s among the board's squares counted rank by rank from rank 1, files a to z, holes skipped".to_string()
        } else {
            format!(
                "index(s) = rank_index*{} + file_index (a1 = 0)",
                board.cols()
            )
        };
        format!(
            "x(t,s) = 1 + t*{n} + index(s), t = 0..{last}, {index}; auxiliary variables from {aux}",
            n = self.squares,
            last = self.squares - 1,
            aux = self.count() + 1
        )
    }
}

/// Writes the whole formula for `options` into `sink`, clause-splitting when
/// `max_clause_len` asks for it. Options must be [validated](Options::validate).
pub fn encode(options: &Options, sink: &mut impl ClauseSink) {
    match options.max_clause_len {
        Some(max_len) => encode_families(options, &mut Splitter::new(sink, max_len)),
        None => encode_families(options, sink),
    }
}

fn encode_families(options: &Options, sink: &mut impl ClauseSink) {
    let vars = options.vars();
    sink.reserve_vars(vars.count());
    let graph = options.board.move_graph();
    let live = Live {
        vars,
        domain: Domain::new(options, &graph),
    };

    sink.begin_family("step-at-least-one");
    step_at_least_one(&live, sink);
    sink.begin_family("step-at-most-one");
    step_at_most_one(&live, options.amo, sink);
    sink.begin_family("square-at-least-one");
    square_at_least_one(&live, sink);
    sink.begin_family("square-at-most-one");
    square_at_most_one(&live, options.amo, sink);
    sink.begin_family("successor");
    successor(&live, &graph, sink);
    if options.closed {
        sink.begin_family("closing-move");
        closing_move(&live, &graph, sink);
    }
    if options.predecessor {
        sink.begin_family("predecessor");
        predecessor(&live, &graph, options.closed, sink);
    }
    if let Some(start) = options.effective_start() {
        sink.begin_family("start");
        sink.add_clause(&[vars.x(0, start).positive()]);
    }
    if let Some(end) = options.end {
        sink.begin_family("end");
        sink.add_clause(&[vars.x(vars.squares - 1, end).positive()]);
    }
    if !options.clues.is_empty() {
        sink.begin_family("clues");
        for &(step, square) in &options.clues {
            sink.add_clause(&[vars.x(step, square).positive()]);
        }
    }
    // Reversing a closed tour keeps its start but moves its end and every
    // clue, so the reversal is broken only when nothing but the start is given.
    if options.symmetry_breaking
        && options.closed
        && options.end.is_none()
        && options.clues.is_empty()
    {
        if let Some(start) = options.effective_start() {
            sink.begin_family("symmetry-breaking");
            closed_reversal_broken(&live, &graph[start], sink);
        }
    }
}

/// The x variables with the pruning applied: only live ones enter clauses.
pub struct Live {
    /// The variable numbering.
    pub vars: VarMap,
    /// Which x(t, s) may be true.
    pub domain: Domain,
}

impl Live {
    /// Everything live for `options`, pruning as they ask.
    pub fn new(options: &Options) -> Live {
        Live {
            vars: options.vars(),
            domain: Domain::new(options, &options.board.move_graph()),
        }
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
}

/// At every step the knight is on some square: one clause per step t,
/// OR over s of x(t, s).
pub fn step_at_least_one(live: &Live, sink: &mut impl ClauseSink) {
    let mut clause = Vec::with_capacity(live.vars.squares);
    for step in 0..live.vars.squares {
        clause.clear();
        clause.extend(live.at_step(step));
        sink.add_clause(&clause);
    }
}

/// At every step the knight is on at most one square.
pub fn step_at_most_one(live: &Live, amo: Amo, sink: &mut impl ClauseSink) {
    let mut lits = Vec::with_capacity(live.vars.squares);
    for step in 0..live.vars.squares {
        lits.clear();
        lits.extend(live.at_step(step));
        amo.encode(sink, &lits);
    }
}

/// Every square is visited: one clause per square s, OR over t of x(t, s).
pub fn square_at_least_one(live: &Live, sink: &mut impl ClauseSink) {
    let mut clause = Vec::with_capacity(live.vars.squares);
    for square in 0..live.vars.squares {
        clause.clear();
        clause.extend(live.on_square(square));
        sink.add_clause(&clause);
    }
}

/// Every square is visited at most once.
pub fn square_at_most_one(live: &Live, amo: Amo, sink: &mut impl ClauseSink) {
    let mut lits = Vec::with_capacity(live.vars.squares);
    for square in 0..live.vars.squares {
        lits.clear();
        lits.extend(live.on_square(square));
        amo.encode(sink, &lits);
    }
}

/// Each move is a knight move: x(t, s) → OR over the knight-neighbours w of s
/// of x(t+1, w), for t = 0..N−2. A square with no neighbours gets ¬x(t, s).
pub fn successor(live: &Live, graph: &[Vec<usize>], sink: &mut impl ClauseSink) {
    for step in 0..live.vars.squares.saturating_sub(1) {
        move_clauses(live, graph, step, step + 1, sink);
    }
}

/// The tour closes: x(N−1, s) → OR over the knight-neighbours w of s of x(0, w).
pub fn closing_move(live: &Live, graph: &[Vec<usize>], sink: &mut impl ClauseSink) {
    move_clauses(live, graph, live.vars.squares - 1, 0, sink);
}

/// Redundant: each square is entered by a knight move. x(t+1, s) → OR over
/// the knight-neighbours w of s of x(t, w), for t = 0..N−2, and for closed
/// tours x(0, s) → OR of x(N−1, w).
///
/// Implied by the other families (the successor of the step before lands on
/// s only from a neighbour), but it lets unit propagation reason backwards in
/// time: on 8x8 it cuts varisat's time for an open tour from a1 from seconds
/// to hundredths of a second.
pub fn predecessor(live: &Live, graph: &[Vec<usize>], closed: bool, sink: &mut impl ClauseSink) {
    for step in 0..live.vars.squares.saturating_sub(1) {
        move_clauses(live, graph, step + 1, step, sink);
    }
    if closed {
        move_clauses(live, graph, 0, live.vars.squares - 1, sink);
    }
}

/// A closed tour and its reverse are the same cycle: of the start's two
/// neighbours on the cycle, the one visited first (after move 1) must have
/// the smaller index than the one visited last (after move N−1). For every
/// pair of the start's knight-neighbours a > b: ¬x(1, a) ∨ ¬x(N−1, b).
pub fn closed_reversal_broken(live: &Live, start_neighbours: &[usize], sink: &mut impl ClauseSink) {
    let last = live.vars.squares - 1;
    if last < 2 {
        return;
    }
    for &a in start_neighbours {
        for &b in start_neighbours.iter().filter(|&&b| b < a) {
            if live.domain.is_live(1, a) && live.domain.is_live(last, b) {
                sink.add_clause(&[
                    live.vars.x(1, a).negative(),
                    live.vars.x(last, b).negative(),
                ]);
            }
        }
    }
}

/// x(from, s) → OR over the live neighbours w of s of x(to, w), for every live x(from, s).
fn move_clauses(
    live: &Live,
    graph: &[Vec<usize>],
    from: usize,
    to: usize,
    sink: &mut impl ClauseSink,
) {
    let mut clause = Vec::with_capacity(9);
    for (square, neighbours) in graph.iter().enumerate() {
        if !live.domain.is_live(from, square) {
            continue;
        }
        clause.clear();
        clause.push(live.vars.x(from, square).negative());
        clause.extend(
            neighbours
                .iter()
                .filter(|&&w| live.domain.is_live(to, w))
                .map(|&w| live.vars.x(to, w).positive()),
        );
        sink.add_clause(&clause);
    }
}
