//! Verification: the independent check that every tour found by any
//! method, and every tour a user hands in, must pass. Nothing here touches
//! SAT or any search: it reads the squares and the problem's rules.

use crate::model::board::GRAPH_PIECE;
use crate::model::problem::{Clue, Problem};

/// The first rule a tour breaks. Positions count from 1, as the board grid numbers them.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Violation {
    /// No squares at all.
    #[error("the tour is empty")]
    Empty,
    /// A square outside the board.
    #[error("square {position} ({index}) is not on the {board} board")]
    OffBoard {
        /// Position in the tour.
        position: usize,
        /// The offending square index.
        index: usize,
        /// The board, as it prints.
        board: String,
    },
    /// A square that is one of the board's holes.
    #[error("square {position}, {square}, is a hole of the board")]
    OnHole {
        /// Position in the tour, from 1.
        position: usize,
        /// The hole's name.
        square: String,
    },
    /// The tour does not start where it must.
    #[error("the tour starts on {found}, not on {expected}")]
    WrongStart {
        /// The first square.
        found: String,
        /// The required start.
        expected: String,
    },
    /// A square visited a second time.
    #[error("{square} is visited twice, at moves {first} and {again}")]
    Repeated {
        /// The square's name.
        square: String,
        /// Position of the first visit.
        first: usize,
        /// Position of the second visit.
        again: usize,
    },
    /// Two consecutive squares that are not a move of the board's leaper apart.
    #[error("{}", if piece == GRAPH_PIECE { format!("step {from_position} to {to_position}, vertex {from} to {to}, is not an edge of the graph") } else { format!("move {from_position} to {to_position}, {from} to {to}, is not a {piece} move") })]
    NotAMove {
        /// The leaper's name, e.g. `knight`.
        piece: String,
        /// Position of the square moved from.
        from_position: usize,
        /// Position of the square moved to.
        to_position: usize,
        /// Name of the square moved from.
        from: String,
        /// Name of the square moved to.
        to: String,
    },
    /// Some square never visited.
    #[error("{square} is never visited ({visited} of {total} squares visited)")]
    Unvisited {
        /// The first unvisited square.
        square: String,
        /// Number of squares visited.
        visited: usize,
        /// Number of squares on the board.
        total: usize,
    },
    /// The tour does not end where it must.
    #[error("the tour ends on {found}, not on {expected}")]
    WrongEnd {
        /// The last square.
        found: String,
        /// The required end.
        expected: String,
    },
    /// A square visited at another move than a clue says.
    #[error("move {position} is on {found}, but the clue puts it on {expected}")]
    WrongClue {
        /// The move number (position in the tour, from 1).
        position: usize,
        /// The square visited then.
        found: String,
        /// The square the clue names.
        expected: String,
    },
    /// A closed tour whose last square is not a move from its first.
    #[error("{}", if piece == GRAPH_PIECE { format!("the cycle is not closed: no edge joins {last}, the last vertex, to {first}") } else { format!("the tour is not closed: {last} (the last square) is not a {piece} move from {first}") })]
    NotClosed {
        /// The leaper's name, e.g. `knight`.
        piece: String,
        /// Name of the first square.
        first: String,
        /// Name of the last square.
        last: String,
    },
}

/// Checks `squares` against the problem's rules and names the first violation, in tour order.
pub fn verify(squares: &[usize], problem: &Problem) -> Result<(), Violation> {
    let board = problem.board();
    let (Some(&first), Some(&last)) = (squares.first(), squares.last()) else {
        return Err(Violation::Empty);
    };
    if let Some(position) = squares.iter().position(|&s| s >= board.squares()) {
        return Err(Violation::OffBoard {
            position: position + 1,
            index: squares[position],
            board: board.to_string(),
        });
    }
    if let Some(start) = problem.start().filter(|&start| start != first) {
        return Err(Violation::WrongStart {
            found: board.name(first),
            expected: board.name(start),
        });
    }
    let mut visited_at: Vec<Option<usize>> = vec![None; board.squares()];
    for (position, &square) in squares.iter().enumerate() {
        if let Some(earlier) = visited_at[square] {
            return Err(Violation::Repeated {
                square: board.name(square),
                first: earlier + 1,
                again: position + 1,
            });
        }
        visited_at[square] = Some(position);
        if position > 0 {
            let previous = squares[position - 1];
            if !board.is_move(previous, square) {
                return Err(Violation::NotAMove {
                    piece: board.piece_name(),
                    from_position: position,
                    to_position: position + 1,
                    from: board.name(previous),
                    to: board.name(square),
                });
            }
        }
    }
    if let Some(unvisited) = visited_at.iter().position(Option::is_none) {
        return Err(Violation::Unvisited {
            square: board.name(unvisited),
            visited: squares.len(),
            total: board.squares(),
        });
    }
    if let Some(end) = problem.end().filter(|&end| end != last) {
        return Err(Violation::WrongEnd {
            found: board.name(last),
            expected: board.name(end),
        });
    }
    for &Clue { step, square } in problem.clues() {
        if squares.get(step) != Some(&square) {
            return Err(Violation::WrongClue {
                position: step + 1,
                found: squares
                    .get(step)
                    .map_or_else(|| "no square".into(), |&s| board.name(s)),
                expected: board.name(square),
            });
        }
    }
    if problem.is_closed() && !(squares.len() > 1 && board.is_move(last, first)) {
        return Err(Violation::NotClosed {
            piece: board.piece_name(),
            first: board.name(first),
            last: board.name(last),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::board::Board;

    fn rules(rows: usize, cols: usize, closed: bool) -> Problem {
        Problem::new(Board::new(rows, cols).unwrap()).closed(closed)
    }

    fn squares(board: &Board, names: &str) -> Vec<usize> {
        names
            .split_whitespace()
            .map(|n| board.parse_square(n).unwrap())
            .collect()
    }

    // A closed tour of the 3x4 board does not exist; this open one does.
    const OPEN_3X4: &str = "a1 c2 a3 b1 d2 b3 c1 a2 c3 d1 b2 d3";

    #[test]
    fn accepts_a_valid_open_tour_and_names_each_violation() {
        let r = rules(3, 4, false);
        let good = squares(r.board(), OPEN_3X4);
        assert_eq!(verify(&good, &r), Ok(()));

        let mut repeated = good.clone();
        repeated[3] = repeated[1];
        assert!(matches!(
            verify(&repeated, &r),
            Err(Violation::Repeated {
                first: 2,
                again: 4,
                ..
            })
        ));

        let mut swapped = good.clone();
        swapped.swap(1, 2);
        let message = verify(&swapped, &r).unwrap_err().to_string();
        assert_eq!(message, "move 1 to 2, a1 to a3, is not a knight move");
        let clue_c2 = r
            .clone()
            .with_clues([Clue {
                step: 1,
                square: r.board().parse_square("c2").unwrap(),
            }])
            .unwrap();
        assert_eq!(verify(&good, &clue_c2), Ok(()));
        assert_eq!(
            verify(&swapped, &clue_c2).unwrap_err().to_string(),
            "move 1 to 2, a1 to a3, is not a knight move"
        );
        let clue_b1 = r
            .clone()
            .with_clues([Clue {
                step: 1,
                square: r.board().parse_square("b1").unwrap(),
            }])
            .unwrap();
        assert_eq!(
            verify(&good, &clue_b1).unwrap_err().to_string(),
            "move 2 is on c2, but the clue puts it on b1"
        );

        let short = &good[..11];
        assert_eq!(
            verify(short, &r).unwrap_err().to_string(),
            "d3 is never visited (11 of 12 squares visited)"
        );
        assert_eq!(verify(&[], &r), Err(Violation::Empty));
        assert!(matches!(
            verify(&[0, 99], &r),
            Err(Violation::OffBoard { position: 2, .. })
        ));

        let closed = rules(3, 4, true);
        assert!(matches!(
            verify(&good, &closed),
            Err(Violation::NotClosed { .. })
        ));

        let start_b1 = r.clone().with_start(Some(1)).unwrap();
        assert!(matches!(
            verify(&good, &start_b1),
            Err(Violation::WrongStart { .. })
        ));
        let end_d3 = r.clone().with_end(Some(11)).unwrap();
        assert_eq!(verify(&good, &end_d3), Ok(()));
        let end_a1 = r.clone().with_end(Some(0)).unwrap();
        assert!(matches!(
            verify(&good, &end_a1),
            Err(Violation::WrongEnd { .. })
        ));
    }

    #[test]
    fn single_square_tours() {
        assert_eq!(verify(&[0], &rules(1, 1, false)), Ok(()));
        assert!(verify(&[0], &rules(1, 1, true)).is_err());
    }
}
