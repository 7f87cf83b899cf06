//! The feasibility gate: cheap, sound checks that every route (each
//! method, encoding and solver; `count`, `cubes`, `--jobs`, `puzzle`)
//! passes before any search. [`refute`] either proves that a problem has
//! no tour, with the reason as a [`Refutation`], or lets the problem on to
//! the route; it never says "no tour" where one exists.
//!
//! The rules are listed on [`refute`].

use std::cell::{Cell, OnceCell};
use std::fmt;

use crate::graph::{MoveGraph, UNREACHED};
use crate::model::board::{Board, GRAPH_PIECE};
use crate::model::problem::{Clue, Problem};
use crate::model::theory::{closed_tour_exists, open_tour_exists};
use crate::runtime::deadline::Deadline;

impl Refutation {
    /// The colour rules on a graph from a file, whose colours are the two
    /// sides of a bipartite graph, in a graph's words.
    fn graph_sides_in_words(&self) -> Option<String> {
        match self {
            Refutation::OddClosed { squares, leaper } if leaper == GRAPH_PIECE => Some(format!(
                "sides: the graph is bipartite, so a Hamiltonian cycle has an even number of vertices, and this graph has {squares}"
            )),
            Refutation::ColourCounts {
                first,
                second,
                closed,
                leaper,
            } if leaper == GRAPH_PIECE => Some(format!(
                "sides: the graph is bipartite, so {}; its sides have {first} and {second} vertices",
                if *closed {
                    "a Hamiltonian cycle has as many vertices on each side"
                } else {
                    "a Hamiltonian path has at most one vertex more on one side"
                }
            )),
            Refutation::AnchorColours {
                first: (a, on_a),
                second: (b, on_b),
                graph: true,
            } => {
                let (parity, side) = if (b - a) % 2 == 1 {
                    ("odd", "on the same side")
                } else {
                    ("even", "on different sides")
                };
                Some(format!("sides: the graph is bipartite, and step {a} on vertex {on_a} and step {b} on vertex {on_b} are an {parity} number of steps apart, but their vertices are {side}"))
            }
            Refutation::AnchorOnMinority {
                number,
                square,
                graph: true,
            } => Some(format!("sides: the graph is bipartite with one vertex more on one side, so a Hamiltonian path starts and ends there and its steps of odd number are there; step {number} on vertex {square} is not")),
            _ => None,
        }
    }
}

/// Why a problem has no tour: the rule the gate applied, with the squares
/// and numbers it applied to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refutation {
    /// Schwenk's theorem: the knight's m x n board has no closed tour.
    Schwenk {
        /// The board's ranks.
        rows: usize,
        /// The board's files.
        cols: usize,
    },
    /// The classification of open tours: the knight's m x n board has none.
    NoOpenTour {
        /// The board's ranks.
        rows: usize,
        /// The board's files.
        cols: usize,
    },
    /// A closed tour of one square: there is no move to close it.
    ClosedSingleSquare {
        /// Whether the board is a graph from a file (worded by vertices).
        graph: bool,
    },
    /// A colour-changing leaper's closed tour needs an even number of squares.
    OddClosed {
        /// The squares on the board.
        squares: usize,
        /// The leaper's name.
        leaper: String,
    },
    /// The colours of a colour-changing leaper's squares are too uneven.
    ColourCounts {
        /// Squares of a1's colour.
        first: usize,
        /// Squares of the other colour.
        second: usize,
        /// The tour is closed (equal counts needed) or open (at most one apart).
        closed: bool,
        /// The leaper's name.
        leaper: String,
    },
    /// A leaper that keeps its colour on a board of both colours.
    KeepsColour {
        /// The leaper's name.
        leaper: String,
    },
    /// Two anchored steps on squares whose colours the leaper cannot join.
    AnchorColours {
        /// The first (move number from 1, square).
        first: (usize, String),
        /// The second.
        second: (usize, String),
        /// Whether the board is a graph from a file, its colours a
        /// bipartite graph's sides.
        graph: bool,
    },
    /// An anchored step on the colour an open tour with one more square of
    /// the other colour cannot use at that step.
    AnchorOnMinority {
        /// The move number (from 1).
        number: usize,
        /// The square.
        square: String,
        /// Whether the board is a graph from a file, its colours a
        /// bipartite graph's sides.
        graph: bool,
    },
    /// A square with no move, on a board of more than one square.
    Isolated {
        /// The square.
        square: String,
    },
    /// Two squares no sequence of moves joins.
    Disconnected {
        /// One square.
        from: String,
        /// A square it cannot reach.
        to: String,
    },
    /// A square with one move, which only an open tour's end can be.
    DeadEndInClosed {
        /// The square.
        square: String,
    },
    /// More squares with one move than an open tour has free ends.
    TooManyDeadEnds {
        /// The squares with one move that are not given ends.
        squares: Vec<String>,
        /// How many ends are free.
        free_ends: usize,
    },
    /// A square with one move pinned to a step inside the tour.
    DeadEndInside {
        /// The move number (from 1).
        number: usize,
        /// The square.
        square: String,
    },
    /// A square whose removal leaves more parts than one path can join.
    CutSquare {
        /// The square.
        square: String,
        /// The parts the rest of the board falls into.
        parts: usize,
        /// Why that many parts are too many here.
        why: &'static str,
        /// Whether the board is a graph from a file (worded by vertices).
        graph: bool,
    },
    /// A square that must take more forced moves than a tour allows there.
    ForcedMoves {
        /// The square.
        square: String,
        /// Its neighbours with only two moves (both forced).
        forced: Vec<String>,
    },
    /// Forced moves that close a cycle short of a tour.
    ForcedCycle {
        /// A square on the cycle.
        square: String,
        /// The cycle's length.
        length: usize,
    },
    /// Two anchored steps further apart in moves than in steps.
    TooFar {
        /// The earlier (move number from 1, square).
        from: (usize, String),
        /// The later.
        to: (usize, String),
        /// The steps between them along the tour.
        steps: usize,
    },
}

impl fmt::Display for Refutation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words = self
            .graph_sides_in_words()
            .or_else(|| self.theorem_words())
            .or_else(|| self.colour_words())
            .or_else(|| self.move_graph_words())
            .unwrap_or_default();
        f.write_str(&words)
    }
}

impl Refutation {
    /// A theorem on the board's shape, in words; `None` for another reason.
    fn theorem_words(&self) -> Option<String> {
        let words = match self {
            Refutation::Schwenk { rows, cols } => {
                format!("Schwenk's theorem (1991): an m x n board, m <= n, has no closed tour when m and n are both odd, m is 1, 2 or 4, or m = 3 and n is 4, 6 or 8 (here {rows}x{cols}); a start, end or clue only removes tours")
            }
            Refutation::NoOpenTour { rows, cols } => {
                format!("the classification of open tours (Conrad et al. 1994): an m x n board, m <= n, has an open tour only if it is 1x1, 3x4, 3xn with n >= 7, 4xn with n >= 5, or m >= 5 (here {rows}x{cols}); a start, end or clue only removes tours")
            }
            Refutation::ClosedSingleSquare { graph: false } => {
                "a closed tour of one square has no move to close it".to_string()
            }
            Refutation::ClosedSingleSquare { graph: true } => {
                "a Hamiltonian cycle of one vertex has no edge to close it".to_string()
            }
            _ => return None,
        };
        Some(words)
    }

    /// A count or place of colours, in words; `None` for another reason.
    fn colour_words(&self) -> Option<String> {
        let words = match self {
            Refutation::OddClosed { squares, leaper } => {
                format!("colours: the {leaper} changes colour with every move, so a closed tour has an even number of squares, and this board has {squares}")
            }
            Refutation::ColourCounts {
                first,
                second,
                closed,
                leaper,
            } => {
                let rule = if *closed {
                    "a closed tour has as many squares of each colour"
                } else {
                    "an open tour has at most one square more of one colour"
                };
                format!("colours: the {leaper} changes colour with every move, so {rule}; this board has {first} of a1's colour and {second} of the other")
            }
            Refutation::KeepsColour { leaper } => {
                format!(
                    "colours: the {leaper} never changes colour, and the board has squares of both"
                )
            }
            Refutation::AnchorColours { first, second, .. } => {
                let ((a, on_a), (b, on_b)) = (first, second);
                let (parity, colour) = if (b - a) % 2 == 1 {
                    ("odd", "of the same")
                } else {
                    ("even", "not of the same")
                };
                format!("colours: move {a} on {on_a} and move {b} on {on_b} are an {parity} number of moves apart, but their squares are {colour} colour")
            }
            Refutation::AnchorOnMinority { number, square, .. } => {
                format!("colours: the board has one square more of one colour, so an open tour starts and ends on it and moves of odd number land on it; move {number} on {square} does not")
            }
            _ => return None,
        };
        Some(words)
    }

    /// The move graph's shape: isolated, cut or forced squares, dead ends, distances, in words; `None` for another reason.
    fn move_graph_words(&self) -> Option<String> {
        let words = match self {
            Refutation::Isolated { square } => {
                format!("the move graph: {square} has no move to or from it")
            }
            Refutation::Disconnected { from, to } => {
                format!("the move graph is not connected: no sequence of moves leads from {from} to {to}")
            }
            Refutation::DeadEndInClosed { square } => {
                format!("dead end: {square} has a single move, so it can only be an end of an open tour")
            }
            Refutation::TooManyDeadEnds { squares, free_ends } => {
                let ends = if *free_ends == 1 {
                    "end is"
                } else {
                    "ends are"
                };
                format!("dead ends: {} have a single move each, so each must be an end of the tour, and only {free_ends} {ends} free", squares.join(", "))
            }
            Refutation::DeadEndInside { number, square } => {
                format!("dead end: {square} has a single move, so it can only be an end of the tour, not move {number}")
            }
            Refutation::CutSquare {
                square,
                parts,
                why,
                graph: false,
            } => {
                format!(
                    "the move graph: without {square} the board falls into {parts} parts, {why}"
                )
            }
            Refutation::CutSquare {
                square,
                parts,
                why,
                graph: true,
            } => {
                format!("the graph: without vertex {square} it falls into {parts} parts, {why}")
            }
            Refutation::ForcedMoves { square, forced } => {
                let (squares, many) = (forced.join(", "), forced.len());
                format!("forced moves: {squares} each have two moves, both of which the tour must use, and {many} of them lead to {square}, more than the tour can take there")
            }
            Refutation::ForcedCycle { square, length } => {
                format!("forced moves: squares with two moves force a cycle of {length} squares through {square}, short of a tour")
            }
            Refutation::TooFar { from, to, steps } => {
                let ((a, on_a), (b, on_b)) = (from, to);
                let unit = if *steps == 1 { "step" } else { "steps" };
                format!("distance: move {a} on {on_a} and move {b} on {on_b} are {steps} {unit} apart along the tour, but more moves apart on the board")
            }
            _ => return None,
        };
        Some(words)
    }
}

/// Proves that `problem` has no tour, when one of the gate's rules below
/// does; `None` sends the problem on to a search.
/// Linear in the board's squares, or a little more with anchors far apart.
///
/// Every rule below is a necessary condition for a tour. A constraint added
/// to a problem can only remove tours, so a rule about the bare board (a
/// theorem, colour counts, the move graph's shape) holds whatever start,
/// end and clues are given too.
///
/// - **Theorems** on the knight's plain rectangles ([`crate::model::theory`]):
///   Schwenk's for closed tours, the classification of open ones.
/// - **Colours**: a leaper with a + b odd changes colour at every move, so
///   a closed tour has as many squares of each colour (and an even number
///   in all), an open one at most one more of one colour, on which it
///   starts and ends; a start, end or clue fixes the colour of every step.
///   A leaper with a + b even never changes colour.
/// - **The move graph**: it must be connected; no square may be without
///   moves; a square with one move is an end of the tour (so a closed tour
///   has none, an open one at most two, and not at a clue's inner step); a
///   square whose removal splits the board into three parts (two for a
///   closed tour or a given end) cannot be crossed by one path.
/// - **Forced moves**: where every square with two moves must use both (a
///   closed tour, or an open one with both ends given), a square may take
///   at most two forced moves (one at a given end), and the forced moves
///   may not close a cycle short of the whole tour.
/// - **Distances**: two anchored steps (start, end, clues) i < j must be at
///   most j − i moves apart; around a closed tour, at most N − (j − i) too.
pub fn refute(problem: &Problem) -> Option<Refutation> {
    refute_until(problem, &Deadline::new(None))
}

/// [`refute`] that gives up when `deadline` runs out or its interrupt is
/// raised: `None` then, as for a problem no rule refutes (the gate is
/// sound, not complete), and the caller's own time limit says the rest.
/// On the largest holed boards the gate walks the move graph for seconds
/// (docs/notebook.md, "Set-up on the largest boards"); this keeps
/// `--timeout` whole and Ctrl-C prompt.
pub(crate) fn refute_until(problem: &Problem, deadline: &Deadline) -> Option<Refutation> {
    let clock = Clock::new(deadline);
    let refutation = refute_on(problem, &clock);
    refutation.filter(|_| !clock.ran_out.get())
}

/// A [`Deadline`] checked every few thousand steps of the gate's loops,
/// remembering once it has run out.
struct Clock<'d> {
    deadline: &'d Deadline,
    ticks: Cell<u32>,
    ran_out: Cell<bool>,
}

impl<'d> Clock<'d> {
    fn new(deadline: &'d Deadline) -> Clock<'d> {
        Clock {
            deadline,
            ticks: Cell::new(0),
            ran_out: Cell::new(false),
        }
    }

    /// Whether the time is up or the work interrupted (looked at every
    /// 4096th call).
    fn out(&self) -> bool {
        if self.ran_out.get() {
            return true;
        }
        let ticks = self.ticks.get().wrapping_add(1);
        self.ticks.set(ticks);
        if ticks.is_multiple_of(4096) && self.deadline.check().is_err() {
            self.ran_out.set(true);
        }
        self.ran_out.get()
    }
}

fn refute_on(problem: &Problem, clock: &Clock) -> Option<Refutation> {
    let board = problem.board();
    let n = board.squares();
    if problem.is_closed() && n == 1 {
        return Some(Refutation::ClosedSingleSquare {
            graph: board.graph().is_some(),
        });
    }
    let plain_knight = board.graph().is_none()
        && !board.has_holes()
        && board.leaper() == crate::model::board::Leaper::KNIGHT;
    if plain_knight {
        let (rows, cols) = (board.rows(), board.cols());
        if problem.is_closed() && !closed_tour_exists(rows, cols) {
            return Some(Refutation::Schwenk { rows, cols });
        }
        if !problem.is_closed() && !open_tour_exists(rows, cols) {
            return Some(Refutation::NoOpenTour { rows, cols });
        }
        if !problem.is_anchored() {
            // The theorems decide plain rectangles exactly.
            return None;
        }
    }
    let anchors = anchors(problem);
    let graph = LazyMoveGraph::new(board, clock);
    colours(problem, &anchors, &graph, clock)
        .or_else(|| {
            // A plain rectangle with a tour passes every rule about its
            // graph alone; large ones are not worth walking.
            let small = n <= 1 << 16;
            (!plain_knight || small)
                .then(|| shape(problem, &anchors, &graph, clock))
                .flatten()
        })
        .or_else(|| distances(problem, &anchors, &graph, clock))
}

/// The board's move graph, built when a rule first needs it (the colour
/// rules do not), unless the clock runs out first.
struct LazyMoveGraph<'a> {
    board: &'a Board,
    clock: &'a Clock<'a>,
    built: OnceCell<Option<MoveGraph>>,
}

impl<'a> LazyMoveGraph<'a> {
    fn new(board: &'a Board, clock: &'a Clock<'a>) -> LazyMoveGraph<'a> {
        LazyMoveGraph {
            board,
            clock,
            built: OnceCell::new(),
        }
    }

    fn get(&self) -> Option<&MoveGraph> {
        self.built
            .get_or_init(|| MoveGraph::new_unless(self.board, || self.clock.out()))
            .as_ref()
    }
}

/// The anchored steps, sorted by step: the start, the end and the clues.
fn anchors(problem: &Problem) -> Vec<Clue> {
    let last = problem.board().squares() - 1;
    let mut anchors: Vec<Clue> = problem.clues().to_vec();
    anchors.extend(problem.start().map(|square| Clue { step: 0, square }));
    anchors.extend(problem.end().map(|square| Clue { step: last, square }));
    anchors.sort_unstable();
    anchors.dedup();
    anchors
}

/// A step and its square, as messages name them: the move number from 1.
fn named(board: &Board, clue: Clue) -> (usize, String) {
    (clue.step + 1, board.name(clue.square))
}

/// The colour rules: on a board, by its squares' colours; on a graph from
/// a file, by the two sides of a bipartite graph (connected, so that the
/// sides are its only two-colouring), and none for any other graph.
fn colours(
    problem: &Problem,
    anchors: &[Clue],
    graph: &LazyMoveGraph,
    clock: &Clock,
) -> Option<Refutation> {
    let board = problem.board();
    let n = board.squares();
    let (colour, leaper): (Vec<bool>, String) = if board.graph().is_some() {
        (
            graph.get()?.sides_unless(|| clock.out())?,
            GRAPH_PIECE.to_string(),
        )
    } else {
        let leaper = board.leaper();
        let mut colour = Vec::with_capacity(n);
        for s in 0..n {
            if clock.out() {
                return None;
            }
            colour.push(board.colour(s));
        }
        if !leaper.changes_colour() {
            let second = colour.iter().filter(|&&c| c).count();
            return (second > 0 && second < n).then(|| Refutation::KeepsColour {
                leaper: leaper.name(),
            });
        }
        (colour, leaper.name())
    };
    let second = colour.iter().filter(|&&c| c).count();
    let first = n - second;
    if problem.is_closed() && n % 2 == 1 {
        return Some(Refutation::OddClosed { squares: n, leaper });
    }
    let allowed = usize::from(!problem.is_closed());
    if first.abs_diff(second) > allowed {
        return Some(Refutation::ColourCounts {
            first,
            second,
            closed: problem.is_closed(),
            leaper,
        });
    }
    // The colour of step 0 that each anchor implies.
    let start_colour = |clue: &Clue| colour[clue.square] ^ (clue.step % 2 == 1);
    let (&earliest, rest) = anchors.split_first()?;
    if let Some(&other) = rest
        .iter()
        .find(|clue| start_colour(clue) != start_colour(&earliest))
    {
        return Some(Refutation::AnchorColours {
            first: named(board, earliest),
            second: named(board, other),
            graph: board.graph().is_some(),
        });
    }
    if first != second && start_colour(&earliest) != (second > first) {
        return Some(Refutation::AnchorOnMinority {
            number: earliest.step + 1,
            square: board.name(earliest.square),
            graph: board.graph().is_some(),
        });
    }
    None
}

/// The rules about the move graph's shape: connected, no isolated
/// squares, dead ends only at free ends, no square cutting the board into
/// more parts than the tour can join, forced moves that fit.
fn shape(
    problem: &Problem,
    anchors: &[Clue],
    graph: &LazyMoveGraph,
    clock: &Clock,
) -> Option<Refutation> {
    let board = problem.board();
    let n = board.squares();
    if n < 2 {
        return None;
    }
    let graph = graph.get()?;
    let name = |s: usize| board.name(s);
    if let Some(s) = (0..n).find(|&s| graph.degree(s) == 0) {
        return Some(Refutation::Isolated { square: name(s) });
    }
    let mut search = graph.bfs(&[0]);
    while search.next().is_some() {
        if clock.out() {
            return None;
        }
    }
    let reached = search.into_distances();
    if let Some(s) = (0..n).find(|&s| reached[s] == UNREACHED) {
        return Some(Refutation::Disconnected {
            from: name(0),
            to: name(s),
        });
    }
    let closed = problem.is_closed();
    let last = n - 1;
    let given_ends: Vec<usize> = anchors
        .iter()
        .filter(|clue| clue.step == 0 || clue.step == last)
        .map(|clue| clue.square)
        .collect();
    let dead_ends: Vec<usize> = (0..n).filter(|&s| graph.degree(s) == 1).collect();
    if closed && n > 2 {
        if let Some(&s) = dead_ends.first() {
            return Some(Refutation::DeadEndInClosed { square: name(s) });
        }
    }
    if !closed {
        if let Some(clue) = anchors
            .iter()
            .find(|clue| clue.step != 0 && clue.step != last && graph.degree(clue.square) == 1)
        {
            return Some(Refutation::DeadEndInside {
                number: clue.step + 1,
                square: name(clue.square),
            });
        }
        let free_ends = 2 - given_ends.len().min(2);
        let loose: Vec<String> = dead_ends
            .iter()
            .filter(|s| !given_ends.contains(s))
            .map(|&s| name(s))
            .collect();
        if loose.len() > free_ends {
            return Some(Refutation::TooManyDeadEnds {
                squares: loose,
                free_ends,
            });
        }
    }
    if n > 2 {
        if let Some(refutation) = cut_squares(problem, graph, &given_ends, clock) {
            return Some(refutation);
        }
    }
    let every_end_given = closed || given_ends.len() == 2;
    if every_end_given && n > 2 {
        return forced_moves(board, graph, closed, &given_ends, clock);
    }
    None
}

/// The rule about squares that cut the board (articulation points, found
/// by Hopcroft and Tarjan's depth-first search, iteratively): removing a
/// square of a Hamiltonian path leaves at most two pieces of the path (one
/// when it is an end), of a Hamiltonian cycle one.
fn cut_squares(
    problem: &Problem,
    graph: &MoveGraph,
    given_ends: &[usize],
    clock: &Clock,
) -> Option<Refutation> {
    let board = problem.board();
    let n = board.squares();
    let closed = problem.is_closed();
    let mut order = vec![UNORDERED; n];
    let mut low = vec![0usize; n];
    let mut parts = vec![1usize; n];
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    order[0] = 0;
    let mut next_order = 1;
    // The root's parts are its children in the search tree.
    parts[0] = 0;
    while let Some(&mut (square, ref mut next)) = stack.last_mut() {
        if clock.out() {
            return None;
        }
        let neighbours = graph.neighbours(square);
        if *next < neighbours.len() {
            let to = neighbours[*next] as usize;
            *next += 1;
            if order[to] == UNORDERED {
                order[to] = next_order;
                low[to] = next_order;
                next_order += 1;
                stack.push((to, 0));
            } else {
                low[square] = low[square].min(order[to]);
            }
            continue;
        }
        stack.pop();
        if let Some(&(parent, _)) = stack.last() {
            low[parent] = low[parent].min(low[square]);
            if low[square] >= order[parent] {
                parts[parent] += 1;
            }
        }
    }
    // A non-root square counted one part for the rest of the board and one
    // for each child subtree that hangs on it alone.
    let on_graph = board.graph().is_some();
    for (s, &parts) in parts.iter().enumerate() {
        let (limit, why) = match (closed, given_ends.contains(&s), on_graph) {
            (true, _, false) => (
                1,
                "and a closed tour leaves one piece when any square is taken out",
            ),
            (true, _, true) => (
                1,
                "and a Hamiltonian cycle leaves one piece when any vertex is taken out",
            ),
            (false, true, false) => (1, "and a tour's end leaves one piece of it when taken out"),
            (false, true, true) => (1, "and a path's end leaves one piece of it when taken out"),
            (false, false, false) => (
                2,
                "and taking one square out of a path leaves at most two pieces",
            ),
            (false, false, true) => (
                2,
                "and taking one vertex out of a path leaves at most two pieces",
            ),
        };
        if parts > limit {
            return Some(Refutation::CutSquare {
                square: board.name(s),
                parts,
                why,
                graph: on_graph,
            });
        }
    }
    None
}

/// The rules about forced moves, where every square with two moves that is
/// not a given end must use both.
fn forced_moves(
    board: &Board,
    graph: &MoveGraph,
    closed: bool,
    given_ends: &[usize],
    clock: &Clock,
) -> Option<Refutation> {
    let n = board.squares();
    let is_forced = |s: usize| graph.degree(s) == 2 && (closed || !given_ends.contains(&s));
    for s in (0..n).filter(|&s| !is_forced(s)) {
        if clock.out() {
            return None;
        }
        let forced: Vec<usize> = graph
            .neighbours(s)
            .iter()
            .map(|&w| w as usize)
            .filter(|&w| is_forced(w))
            .collect();
        let takes = if !closed && given_ends.contains(&s) {
            1
        } else {
            2
        };
        if forced.len() > takes {
            return Some(Refutation::ForcedMoves {
                square: board.name(s),
                forced: forced.into_iter().map(|w| board.name(w)).collect(),
            });
        }
    }
    let mut pieces = Pieces::new(n);
    for s in (0..n).filter(|&s| is_forced(s)) {
        if clock.out() {
            return None;
        }
        for &w in graph.neighbours(s) {
            let w = w as usize;
            // Each forced move once: from its forced square, or from the
            // lower of two forced squares.
            if is_forced(w) && w < s {
                continue;
            }
            if let Some(length) = pieces.join(s, w) {
                if !closed || length < n {
                    return Some(Refutation::ForcedCycle {
                        square: board.name(s),
                        length,
                    });
                }
            }
        }
    }
    None
}

/// The distance rule for consecutive anchors (the triangle inequality
/// covers the others), and around a closed tour for the last and the first.
fn distances(
    problem: &Problem,
    anchors: &[Clue],
    graph: &LazyMoveGraph,
    clock: &Clock,
) -> Option<Refutation> {
    let board = problem.board();
    let n = board.squares();
    if anchors.len() < 2 {
        return None;
    }
    let graph = graph.get()?;
    let mut pairs: Vec<(Clue, Clue, usize)> = anchors
        .windows(2)
        .map(|pair| (pair[0], pair[1], pair[1].step - pair[0].step))
        .collect();
    if problem.is_closed() {
        let (first, last) = (anchors[0], anchors[anchors.len() - 1]);
        pairs.push((last, first, n - (last.step - first.step)));
    }
    for (from, to, steps) in pairs {
        let distance = bounded_distance(graph, (from.square, to.square, steps), clock);
        if distance.is_none() {
            return Some(Refutation::TooFar {
                from: named(board, from),
                to: named(board, to),
                steps,
            });
        }
    }
    None
}

/// The moves from `from` to `to` when at most `limit`, by breadth-first
/// search that stops at `to` or at the limit; `None` also when the clock
/// ran out first (and [`refute_until`] drops what the gate says then).
fn bounded_distance(
    graph: &MoveGraph,
    (from, to, limit): (usize, usize, usize),
    clock: &Clock,
) -> Option<usize> {
    for (s, distance) in graph.bfs(&[from]).no_further_than(limit) {
        if clock.out() {
            return None;
        }
        if s == to {
            return Some(distance as usize);
        }
    }
    None
}

/// Marks a square the depth-first search has not reached.
const UNORDERED: usize = usize::MAX;

/// Union-find over squares, for the pieces forced moves make.
struct Pieces {
    parent: Vec<usize>,
    size: Vec<usize>,
}

impl Pieces {
    fn new(n: usize) -> Pieces {
        Pieces {
            parent: (0..n).collect(),
            size: vec![1; n],
        }
    }

    fn root(&mut self, mut s: usize) -> usize {
        while self.parent[s] != s {
            self.parent[s] = self.parent[self.parent[s]];
            s = self.parent[s];
        }
        s
    }

    /// Joins the pieces of `a` and `b`; when they were one piece already,
    /// the move closes a cycle, and its length (the piece's size) is returned.
    fn join(&mut self, a: usize, b: usize) -> Option<usize> {
        let (ra, rb) = (self.root(a), self.root(b));
        if ra == rb {
            return Some(self.size[ra]);
        }
        let (big, small) = if self.size[ra] >= self.size[rb] {
            (ra, rb)
        } else {
            (rb, ra)
        };
        self.parent[small] = big;
        self.size[big] += self.size[small];
        None
    }
}

#[cfg(test)]
mod tests {
    use super::{refute, refute_until, Refutation};
    use crate::model::board::Board;
    use crate::model::problem::Problem;
    use crate::runtime::deadline::Deadline;
    use crate::runtime::interrupt::Interrupt;

    fn plain(rows: usize, cols: usize, closed: bool) -> Problem {
        Problem::new(Board::new(rows, cols).unwrap()).closed(closed)
    }

    /// A board cut in two by a wall of holes two files thick, which no
    /// knight's move crosses.
    fn walled(size: usize) -> Problem {
        let wall = size / 2;
        let exists: Vec<bool> = (0..size * size)
            .map(|cell| !(wall..wall + 2).contains(&(cell % size)))
            .collect();
        Problem::new(Board::with_cells(size, size, &exists))
    }

    /// The theorems answer plain knight's boards at once.
    #[test]
    fn the_theorems_refute_plain_boards_without_tours() {
        assert_eq!(
            refute(&plain(5, 5, true)),
            Some(Refutation::Schwenk { rows: 5, cols: 5 })
        );
        assert_eq!(
            refute(&plain(3, 4, true)),
            Some(Refutation::Schwenk { rows: 3, cols: 4 })
        );
        assert!(matches!(
            refute(&plain(4, 4, false)),
            Some(Refutation::NoOpenTour { rows: 4, cols: 4 })
        ));
        assert_eq!(
            refute(&Problem::new(Board::new(1, 1).unwrap()).closed(true)),
            Some(Refutation::ClosedSingleSquare { graph: false })
        );
    }

    /// Boards with tours are let on: the gate is sound.
    #[test]
    fn boards_with_tours_pass() {
        for (rows, cols, closed) in [(5, 5, false), (3, 4, false), (6, 6, true), (8, 8, true)] {
            assert_eq!(refute(&plain(rows, cols, closed)), None, "{rows}x{cols}");
        }
    }

    /// A board in two pieces has no tour, which the walk of its moves
    /// finds.
    #[test]
    fn a_board_in_two_pieces_is_refuted_by_its_moves() {
        assert!(matches!(
            refute(&walled(12)),
            Some(Refutation::Disconnected { .. })
        ));
    }

    /// A raised interrupt stops the walk of a large board: the gate then
    /// proves nothing, and the caller's search is stopped by the same
    /// interrupt.
    #[test]
    fn an_interrupt_stops_the_gate_without_an_answer() {
        let problem = walled(200);
        assert!(refute(&problem).is_some());
        let interrupt = Interrupt::new();
        interrupt.raise();
        let deadline = Deadline::new(None).interrupted_by(&interrupt);
        assert_eq!(refute_until(&problem, &deadline), None);
    }
}
