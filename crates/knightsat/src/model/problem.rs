//! The problem: which tours are wanted, independent of how they are encoded
//! or searched for. A board (with its holes and leaper), open or closed, an
//! optional start and end, and clues.
//!
//! A [`Problem`] is valid by construction: every square lies on the board
//! and the clues never contradict each other. It also answers, in one place,
//! the questions every encoding and every counter asks about it: which start
//! a closed tour may be given for free, and which symmetries of the board
//! (and reversal) map its tours onto its tours.

use crate::model::board::{Board, BoardError};

/// "After `step` moves the piece is on `square`" (the board grid numbers
/// that move `step + 1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Clue {
    /// Moves made so far: 0 is the start.
    pub step: usize,
    /// The square's index on the board.
    pub square: usize,
}

/// What is wrong with a problem as given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProblemError {
    /// A square index beyond the board's squares.
    #[error("square index {index} is not on the {board} board")]
    SquareOffBoard {
        /// The index given.
        index: usize,
        /// The board, as it prints.
        board: String,
    },
    /// A clue's move number outside 1..=N (a number below 1 too: move
    /// numbers count the start as 1).
    #[error("clue {number}={square}: {}", if *.graph { format!("the path's steps are numbered 1 to {squares}, one a vertex") } else { format!("move numbers run from 1 to {squares} on this board") })]
    MoveNumberOutOfRange {
        /// The move number as given (digits, with any sign: it may be too
        /// large for any integer type).
        number: String,
        /// The square's name.
        square: String,
        /// N, the number of squares.
        squares: usize,
        /// Whether the board is a graph from a file.
        graph: bool,
    },
    /// Two clues for one move.
    #[error("two squares for move {number}: {first} and {second}")]
    TwoSquaresForOneMove {
        /// The move number (from 1).
        number: usize,
        /// One square named for it.
        first: String,
        /// The other.
        second: String,
    },
    /// Two move numbers on one square.
    #[error("{square} has two move numbers, {first} and {second}")]
    TwoMovesOnOneSquare {
        /// The square's name.
        square: String,
        /// One move number (from 1).
        first: usize,
        /// The other.
        second: usize,
    },
    /// A clue that does not read as `N=SQUARE`.
    #[error("clue '{text}': expected N=SQUARE, e.g. 5=c3 (move 1 is the start)")]
    UnreadableClue {
        /// The clue as given.
        text: String,
    },
    /// A clue's square that is not on the board.
    #[error("clue '{text}': {error}")]
    ClueSquare {
        /// The clue as given.
        text: String,
        /// What is wrong with its square.
        error: BoardError,
    },
}

/// A tour problem, valid by construction; see the [module](self) docs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    board: Board,
    closed: bool,
    start: Option<usize>,
    end: Option<usize>,
    clues: Vec<Clue>,
}

impl Problem {
    /// An open tour of `board` with nothing fixed.
    pub fn new(board: Board) -> Problem {
        Problem {
            board,
            closed: false,
            start: None,
            end: None,
            clues: Vec::new(),
        }
    }

    /// The same problem, asking for a closed tour (the last square a move
    /// from the first) or an open one.
    #[must_use]
    pub fn closed(mut self, closed: bool) -> Problem {
        self.closed = closed;
        self
    }

    /// The same problem with the tour starting on square `start` (or free).
    /// The start is move 1: it must agree with the end and the clues (see
    /// [`with_clues`](Self::with_clues)).
    pub fn with_start(mut self, start: Option<usize>) -> Result<Problem, ProblemError> {
        self.start = None;
        if let Some(square) = self.on_board(start)? {
            self.agrees(Clue { step: 0, square })?;
        }
        self.start = start;
        Ok(self)
    }

    /// The same problem with the tour ending on square `end` (or free). The
    /// end is move N: it must agree with the start and the clues (see
    /// [`with_clues`](Self::with_clues)).
    pub fn with_end(mut self, end: Option<usize>) -> Result<Problem, ProblemError> {
        self.end = None;
        if let Some(square) = self.on_board(end)? {
            self.agrees(Clue {
                step: self.last_step(),
                square,
            })?;
        }
        self.end = end;
        Ok(self)
    }

    /// The same problem with `clues` added to its clues (a clue given twice
    /// counts once). Rejects a step outside the tour, and constraints that
    /// contradict each other on their face: two squares for one step, or two
    /// steps on one square, counting the start as step 0 (move 1) and the
    /// end as step N − 1 (move N). Such a problem is bad input; one whose
    /// constraints agree but leave no tour is a question with the answer no.
    pub fn with_clues(
        mut self,
        clues: impl IntoIterator<Item = Clue>,
    ) -> Result<Problem, ProblemError> {
        for clue in clues {
            self.on_board(Some(clue.square))?;
            if clue.step >= self.board.squares() {
                return Err(ProblemError::MoveNumberOutOfRange {
                    number: (clue.step + 1).to_string(),
                    square: self.board.name(clue.square),
                    squares: self.board.squares(),
                    graph: self.board.graph().is_some(),
                });
            }
            self.agrees(clue)?;
            if !self.clues.contains(&clue) {
                self.clues.push(clue);
            }
        }
        self.clues.sort_unstable();
        Ok(self)
    }

    /// The step of the tour's last square, N − 1.
    fn last_step(&self) -> usize {
        self.board.squares().saturating_sub(1)
    }

    /// Checks `clue` against the start, the end and the clues: no other
    /// square at its step, no other step on its square.
    fn agrees(&self, clue: Clue) -> Result<(), ProblemError> {
        let ends = [
            self.start.map(|square| Clue { step: 0, square }),
            self.end.map(|square| Clue {
                step: self.last_step(),
                square,
            }),
        ];
        let name = |square| self.board.name(square);
        for other in ends.into_iter().flatten().chain(self.clues.iter().copied()) {
            if other.step == clue.step && other.square != clue.square {
                return Err(ProblemError::TwoSquaresForOneMove {
                    number: clue.step + 1,
                    first: name(other.square),
                    second: name(clue.square),
                });
            }
            if other.square == clue.square && other.step != clue.step {
                return Err(ProblemError::TwoMovesOnOneSquare {
                    square: name(clue.square),
                    first: other.step.min(clue.step) + 1,
                    second: other.step.max(clue.step) + 1,
                });
            }
        }
        Ok(())
    }

    /// The same problem with no clues.
    #[must_use]
    pub fn without_clues(mut self) -> Problem {
        self.clues.clear();
        self
    }

    fn on_board(&self, square: Option<usize>) -> Result<Option<usize>, ProblemError> {
        match square {
            Some(index) if index >= self.board.squares() => Err(ProblemError::SquareOffBoard {
                index,
                board: self.board.to_string(),
            }),
            _ => Ok(square),
        }
    }

    /// The board, with its holes and leaper.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Whether the tour must be closed.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// The square the tour must start on, if given.
    pub fn start(&self) -> Option<usize> {
        self.start
    }

    /// The square the tour must end on, if given.
    pub fn end(&self) -> Option<usize> {
        self.end
    }

    /// The clues, sorted by step.
    pub fn clues(&self) -> &[Clue] {
        &self.clues
    }

    /// The squares in move order when the clues number every square (a
    /// puzzle whose grid is already filled in): the one sequence the
    /// problem allows, to check rather than solve. `None` when a move has
    /// no clue.
    pub fn squares_of_clues(&self) -> Option<Vec<usize>> {
        let squares = self.board.squares();
        if self.clues.len() != squares {
            return None;
        }
        let mut order = vec![None; squares];
        for clue in &self.clues {
            *order.get_mut(clue.step)? = Some(clue.square);
        }
        order.into_iter().collect()
    }

    /// Whether anything pins the tour to particular steps on particular
    /// squares: a start, an end or clues.
    pub(crate) fn is_anchored(&self) -> bool {
        self.start.is_some() || self.end.is_some() || !self.clues.is_empty()
    }

    /// Whether the start is fixed on the first square (a1 unless it is a
    /// hole) because the tour is closed and nothing else anchors it. Every
    /// closed tour can be rotated to start anywhere, so this loses no tour.
    pub fn start_fixed_by_default(&self) -> bool {
        self.closed && !self.is_anchored()
    }

    /// The start the tour is searched from: the given one, or the first
    /// square where [`start_fixed_by_default`](Self::start_fixed_by_default).
    pub fn effective_start(&self) -> Option<usize> {
        if self.start_fixed_by_default() {
            Some(0)
        } else {
            self.start
        }
    }

    /// The same problem with the [effective start](Self::effective_start)
    /// made explicit: what a tour found by search must keep.
    #[must_use]
    pub(crate) fn rooted(&self) -> Problem {
        Problem {
            start: self.effective_start(),
            ..self.clone()
        }
    }

    /// Whether every symmetry of the board maps the problem's tours onto
    /// its tours: nothing anchors the tour, so an open tour may start on one
    /// square per orbit of the board's symmetries.
    pub(crate) fn has_all_board_symmetries(&self) -> bool {
        !self.is_anchored()
    }

    /// Whether reversing a tour gives another tour of the problem: a closed
    /// tour read the other way round from its given start, or into its
    /// given end, keeps that square in
    /// place but moves every other step, so the clues and a second fixed end
    /// must be absent; an open tour reversed swaps its ends.
    pub(crate) fn reversal_is_symmetry(&self) -> bool {
        if self.closed {
            self.clues.is_empty() && !(self.start.is_some() && self.end.is_some())
        } else {
            !self.is_anchored()
        }
    }

    /// The transforms whose counting as one makes `--up-to-symmetry`'s
    /// orbits: those of a board symmetry (as a square permutation), a
    /// reading backwards and, for a closed tour, a turn to another first
    /// square, that map every tour of the problem onto a tour of the
    /// problem. A transform qualifies when it maps the anchors (start, end,
    /// clues: a step and a square each) onto themselves: an open tour's move
    /// t goes to move N + 1 − t read backwards (`--at 13=c3` on 5x5 keeps
    /// its reverse); a closed tour is a cycle of N steps, so one read
    /// backwards and turned so that its clue is on the same move keeps that
    /// clue. A closed tour with nothing anchored takes every symmetry and
    /// both readings, its image read again from the default start (the
    /// turn is left to that). The identity comes first.
    pub(crate) fn orbit_transforms(&self) -> Vec<OrbitTransform> {
        let squares = self.board.squares();
        let last = squares.saturating_sub(1);
        let mut anchors: Vec<(usize, usize)> = self
            .clues
            .iter()
            .map(|clue| (clue.step, clue.square))
            .chain(self.start.map(|start| (0, start)))
            .chain(self.end.map(|end| (last, end)))
            .collect();
        anchors.sort_unstable();
        anchors.dedup();
        let mut transforms = Vec::new();
        for reversed in [false, true] {
            // The turns that could keep the anchors: those taking the first
            // anchor's step to some anchor's step.
            let turns: Vec<usize> = match anchors.first() {
                Some(&(first, _)) if self.closed => {
                    let at = OrbitTransform::step_of(first, squares, self.closed, reversed, 0);
                    let mut turns: Vec<usize> = anchors
                        .iter()
                        .map(|&(step, _)| (step + squares - at) % squares)
                        .collect();
                    turns.sort_unstable();
                    turns.dedup();
                    turns
                }
                _ => vec![0],
            };
            for map in self.board.symmetries() {
                for &turn in &turns {
                    let transform = OrbitTransform {
                        map: map.clone(),
                        reversed,
                        turn,
                    };
                    let mut image: Vec<(usize, usize)> = anchors
                        .iter()
                        .map(|&(step, square)| {
                            (transform.step(step, squares, self.closed), map[square])
                        })
                        .collect();
                    image.sort_unstable();
                    if image == anchors {
                        transforms.push(transform);
                    }
                }
            }
        }
        transforms
    }

    /// The squares a tour may start on: the fixed start; with
    /// `break_symmetry` for an open tour that every board symmetry keeps
    /// (nothing anchored), one square per orbit of the board's symmetries
    /// (of a1's colour where the orbit has one, so that the start's colour
    /// is known); otherwise every square.
    pub(crate) fn start_squares(&self, break_symmetry: bool) -> Vec<usize> {
        let board = &self.board;
        if let Some(start) = self.effective_start() {
            return vec![start];
        }
        // A graph's symmetries are not looked for: every vertex may start.
        if !(break_symmetry && !self.closed && self.has_all_board_symmetries())
            || board.graph().is_some()
        {
            return (0..board.squares()).collect();
        }
        let symmetries = board.symmetries();
        let a1_colour = false;
        let mut representatives: Vec<usize> = (0..board.squares())
            .map(|s| {
                let orbit: Vec<usize> = symmetries.iter().map(|map| map[s]).collect();
                let same_colour = orbit
                    .iter()
                    .copied()
                    .filter(|&o| board.colour(o) == a1_colour)
                    .min();
                same_colour
                    .unwrap_or_else(|| *orbit.iter().min().expect("the identity is a symmetry"))
            })
            .collect();
        representatives.sort_unstable();
        representatives.dedup();
        representatives
    }

    /// The board's symmetries (as square permutations, the identity among
    /// them) that keep the given start, end and clue squares in place: they
    /// map the problem's tours onto its tours.
    pub(crate) fn symmetries(&self) -> Vec<Vec<usize>> {
        let clue_squares = self.clues.iter().map(|clue| clue.square);
        let fixed: Vec<usize> = [self.start, self.end]
            .into_iter()
            .flatten()
            .chain(clue_squares)
            .collect();
        self.board
            .symmetries()
            .into_iter()
            .filter(|map| fixed.iter().all(|&s| map[s] == s))
            .collect()
    }

    /// `"closed tour"` or `"open tour"`.
    pub fn kind(&self) -> &'static str {
        if self.closed {
            "closed tour"
        } else {
            "open tour"
        }
    }
}

/// Parses a clue `N=SQUARE` (move N, counting the start as 1, is on SQUARE).
pub fn parse_clue(board: &Board, text: &str) -> Result<Clue, ProblemError> {
    let unreadable = || ProblemError::UnreadableClue {
        text: crate::model::text::shown(text),
    };
    let (number, square) = text.trim().split_once('=').ok_or_else(unreadable)?;
    let number = number.trim();
    let digits = number.strip_prefix(['-', '+']).unwrap_or(number);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(unreadable());
    }
    let square = board
        .parse_square(square.trim())
        .map_err(|error| ProblemError::ClueSquare {
            text: crate::model::text::shown(text),
            error,
        })?;
    // A number too large for any integer type is out of range too.
    let step = number.strip_prefix('+').unwrap_or(number).parse::<usize>();
    match step {
        Ok(step @ 1..) if step <= board.squares() => Ok(Clue {
            step: step - 1,
            square,
        }),
        _ => Err(ProblemError::MoveNumberOutOfRange {
            number: crate::model::text::shown(number),
            square: board.name(square),
            squares: board.squares(),
            graph: board.graph().is_some(),
        }),
    }
}

/// Formats clues as `N=SQUARE` joined by commas, the form [`parse_clue`] reads.
pub(crate) fn clue_list(board: &Board, clues: &[Clue]) -> Vec<String> {
    clues
        .iter()
        .map(|clue| format!("{}={}", clue.step + 1, board.name(clue.square)))
        .collect()
}

/// One transform of [`Problem::orbit_transforms`]: a tour's step `t` on
/// square `s` becomes the image's step [`step`](Self::step)`(t)` on square
/// `map[s]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct OrbitTransform {
    /// The board symmetry, as a square permutation.
    pub(crate) map: Vec<usize>,
    /// Whether the tour is read backwards.
    pub(crate) reversed: bool,
    /// Steps a closed tour is turned on by, after any reading backwards
    /// (0 for an open tour).
    pub(crate) turn: usize,
}

impl OrbitTransform {
    /// Where step `step` of a tour of `squares` squares lands: an open
    /// tour read backwards takes move t to move N + 1 − t; a closed tour's
    /// steps are taken round its cycle, read backwards from its first
    /// square, then turned on by `turn`.
    pub(crate) fn step(&self, step: usize, squares: usize, closed: bool) -> usize {
        Self::step_of(step, squares, closed, self.reversed, self.turn)
    }

    fn step_of(step: usize, squares: usize, closed: bool, reversed: bool, turn: usize) -> usize {
        match (closed, reversed) {
            (false, false) => step,
            (false, true) => squares - 1 - step,
            (true, false) => (step + turn) % squares,
            (true, true) => (squares - step + turn) % squares,
        }
    }

    /// The image of the tour `squares` (a square a step).
    pub(crate) fn apply(&self, squares: &[usize], closed: bool) -> Vec<usize> {
        let n = squares.len();
        let mut image = vec![0; n];
        for (step, &square) in squares.iter().enumerate() {
            image[self.step(step, n, closed)] = self.map[square];
        }
        image
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board() -> Board {
        Board::new(5, 5).unwrap()
    }

    #[test]
    fn clues_are_checked_sorted_and_deduplicated() {
        let clue = |step, square| Clue { step, square };
        let problem = Problem::new(board())
            .with_clues([clue(7, 3), clue(2, 1), clue(7, 3)])
            .unwrap();
        assert_eq!(problem.clues(), &[clue(2, 1), clue(7, 3)]);
        let two_squares = problem.clone().with_clues([clue(7, 4)]).unwrap_err();
        assert_eq!(two_squares.to_string(), "two squares for move 8: d1 and e1");
        let two_moves = problem.clone().with_clues([clue(8, 3)]).unwrap_err();
        assert_eq!(two_moves.to_string(), "d1 has two move numbers, 8 and 9");
        let late = problem.with_clues([clue(25, 0)]).unwrap_err();
        assert!(matches!(
            late,
            ProblemError::MoveNumberOutOfRange { ref number, .. } if number == "26"
        ));
        assert!(Problem::new(board()).with_start(Some(25)).is_err());
    }

    #[test]
    fn the_start_and_end_are_moves_1_and_n_for_the_contradiction_rule() {
        let clue = |step, square| Clue { step, square };
        let a1 = Problem::new(board()).with_start(Some(0)).unwrap();
        let end_a1 = a1.clone().with_end(Some(0)).unwrap_err();
        assert_eq!(end_a1.to_string(), "a1 has two move numbers, 1 and 25");
        let clue_a1 = a1.clone().with_clues([clue(24, 0)]).unwrap_err();
        assert_eq!(clue_a1.to_string(), "a1 has two move numbers, 1 and 25");
        let clue_b1 = a1.clone().with_clues([clue(0, 1)]).unwrap_err();
        assert_eq!(clue_b1.to_string(), "two squares for move 1: a1 and b1");
        // Given in the other order, and in agreement.
        let clued = Problem::new(board()).with_clues([clue(24, 0)]).unwrap();
        assert!(clued.clone().with_start(Some(0)).is_err());
        assert!(clued.clone().with_end(Some(0)).is_ok());
        assert!(a1.clone().with_clues([clue(0, 0)]).is_ok());
        // A new start replaces the old one; on one square, move 1 is move N.
        assert!(a1.with_end(Some(1)).unwrap().with_start(Some(2)).is_ok());
        let single = Problem::new(Board::new(1, 1).unwrap());
        assert!(single
            .with_start(Some(0))
            .unwrap()
            .with_end(Some(0))
            .is_ok());
    }

    #[test]
    fn symmetry_questions_are_answered_from_the_anchors() {
        let open = Problem::new(board());
        assert!(open.has_all_board_symmetries() && open.reversal_is_symmetry());
        assert_eq!(open.symmetries().len(), 8);
        let closed = open.clone().closed(true);
        assert_eq!(closed.effective_start(), Some(0));
        assert!(closed.reversal_is_symmetry());
        let corner = open.with_start(Some(0)).unwrap();
        assert!(!corner.has_all_board_symmetries() && !corner.reversal_is_symmetry());
        // a1 is kept by the identity and the main-diagonal reflection.
        assert_eq!(corner.symmetries().len(), 2);
        let closed_with_end = closed.clone().with_end(Some(7)).unwrap();
        assert!(!closed_with_end.start_fixed_by_default());
        // Read the other way round into b2, a closed tour still ends there.
        assert!(closed_with_end.reversal_is_symmetry());
        // Read backwards: a tour into b2 stays one into b2, a tour from a1
        // one from a1 (25 squares: a tour's steps 0 to 24, b2 at 7).
        let mut into_b2: Vec<usize> = (0..25).filter(|&s| s != 7).collect();
        into_b2.push(7);
        let backwards = |problem: &Problem, tour: &[usize]| -> Vec<Vec<usize>> {
            problem
                .orbit_transforms()
                .iter()
                .filter(|t| t.reversed && t.map.iter().enumerate().all(|(s, &m)| s == m))
                .map(|t| t.apply(tour, true))
                .collect()
        };
        let mut expected: Vec<usize> = into_b2[..24].iter().rev().copied().collect();
        expected.push(7);
        assert_eq!(backwards(&closed_with_end, &into_b2), [expected]);
        let from_a1: Vec<usize> = (0..25).collect();
        let mut expected = vec![0];
        expected.extend((1..25).rev());
        assert_eq!(backwards(&closed, &from_a1), [expected]);
        let both_ends = closed_with_end.with_start(Some(0)).unwrap();
        assert!(!both_ends.reversal_is_symmetry());
    }

    #[test]
    fn clues_parse_as_move_number_and_square() {
        let board = board();
        assert_eq!(
            parse_clue(&board, " 5=c3 ").unwrap(),
            Clue {
                step: 4,
                square: 12
            }
        );
        for (text, words) in [
            ("a1", "expected N=SQUARE"),
            ("0=a1", "move numbers run from 1"),
            ("26=a1", "move numbers run from 1"),
            ("3=z9", "not on the 5x5 board"),
        ] {
            let message = parse_clue(&board, text).unwrap_err().to_string();
            assert!(message.contains(words), "{text}: {message}");
        }
    }
}
