//! Tours and their verification.
//!
//! Nothing here touches SAT: the verifier is the independent check that every
//! tour found by any solver, and every tour a user hands in, must pass.

use crate::board::Board;
use crate::error::Error;

/// A sequence of squares on a board, by index, in visiting order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tour {
    /// The board toured.
    pub board: Board,
    /// Whether the tour is meant to be closed (last square a knight move from the first).
    pub closed: bool,
    /// Square indices in the order visited; the first is the start.
    pub squares: Vec<usize>,
}

/// The rules a tour must keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The board.
    pub board: Board,
    /// Whether the last square must be a knight move from the first.
    pub closed: bool,
    /// The required first square.
    pub start: Option<usize>,
    /// The required last square.
    pub end: Option<usize>,
}

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
        /// The board.
        board: Board,
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
    /// Two consecutive squares that are not a knight move apart.
    #[error("move {from_position} to {to_position}, {from} to {to}, is not a knight move")]
    NotKnightMove {
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
    /// A closed tour whose last square is not a knight move from its first.
    #[error("the tour is not closed: {last} (the last square) is not a knight move from {first}")]
    NotClosed {
        /// Name of the first square.
        first: String,
        /// Name of the last square.
        last: String,
    },
}

/// Checks `squares` against `rules` and names the first violation, in tour order.
pub fn verify(squares: &[usize], rules: &Rules) -> Result<(), Violation> {
    let board = &rules.board;
    let (&first, &last) = match (squares.first(), squares.last()) {
        (Some(first), Some(last)) => (first, last),
        _ => return Err(Violation::Empty),
    };
    if let Some(position) = squares.iter().position(|&s| s >= board.squares()) {
        return Err(Violation::OffBoard {
            position: position + 1,
            index: squares[position],
            board: *board,
        });
    }
    if let Some(start) = rules.start.filter(|&start| start != first) {
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
            if !board.is_knight_move(previous, square) {
                return Err(Violation::NotKnightMove {
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
    if let Some(end) = rules.end.filter(|&end| end != last) {
        return Err(Violation::WrongEnd {
            found: board.name(last),
            expected: board.name(end),
        });
    }
    if rules.closed && !(squares.len() > 1 && board.is_knight_move(last, first)) {
        return Err(Violation::NotClosed {
            first: board.name(first),
            last: board.name(last),
        });
    }
    Ok(())
}

impl Tour {
    /// The square names in order, e.g. `["a1", "c2", …]`.
    pub fn names(&self) -> Vec<String> {
        self.squares.iter().map(|&s| self.board.name(s)).collect()
    }

    /// Checks the tour against rules for its own board and closedness plus a
    /// required start and end.
    pub fn verify(&self, start: Option<usize>, end: Option<usize>) -> Result<(), Violation> {
        verify(
            &self.squares,
            &Rules {
                board: self.board,
                closed: self.closed,
                start,
                end,
            },
        )
    }
}

/// The JSON form of a tour: `{"rows":8,"cols":8,"closed":false,"tour":["a1",…]}`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TourJson {
    /// Number of ranks.
    pub rows: usize,
    /// Number of files.
    pub cols: usize,
    /// Whether the tour is closed.
    pub closed: bool,
    /// Square names in visiting order.
    pub tour: Vec<String>,
}

impl From<&Tour> for TourJson {
    fn from(tour: &Tour) -> TourJson {
        TourJson {
            rows: tour.board.rows(),
            cols: tour.board.cols(),
            closed: tour.closed,
            tour: tour.names(),
        }
    }
}

/// Reads a tour written as JSON ([`TourJson`]) or as a move list (`a1 c2 b4 …`,
/// separated by white space or commas).
///
/// The board comes from the JSON, or from `board` for a move list; when both
/// are given they must agree. A JSON tour that says it is closed is checked as
/// closed; so is any tour when `closed` is set.
pub fn parse_tour(text: &str, board: Option<Board>, closed: bool) -> Result<Tour, Error> {
    let text = text.trim();
    let (board, closed, names) = if text.starts_with('{') {
        let json: TourJson = serde_json::from_str(text)
            .map_err(|e| Error::BadTourInput(format!("bad JSON tour: {e}")))?;
        let json_board = Board::new(json.rows, json.cols)?;
        if let Some(board) = board.filter(|&b| b != json_board) {
            return Err(Error::BadTourInput(format!(
                "the tour is for a {json_board} board, but --board says {board}"
            )));
        }
        (json_board, closed || json.closed, json.tour)
    } else {
        let board = board.ok_or_else(|| {
            Error::BadTourInput("a move list needs --board (JSON tours carry their own)".into())
        })?;
        let names = text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|name| !name.is_empty())
            .map(str::to_string)
            .collect();
        (board, closed, names)
    };
    let squares = names
        .iter()
        .map(|name| board.parse_square(name))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Tour {
        board,
        closed,
        squares,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(rows: usize, cols: usize, closed: bool) -> Rules {
        Rules {
            board: Board::new(rows, cols).unwrap(),
            closed,
            start: None,
            end: None,
        }
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
        let good = squares(&r.board, OPEN_3X4);
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

        let start_b1 = Rules {
            start: Some(1),
            ..r
        };
        assert!(matches!(
            verify(&good, &start_b1),
            Err(Violation::WrongStart { .. })
        ));
        let end_d3 = Rules { end: Some(11), ..r };
        assert_eq!(verify(&good, &end_d3), Ok(()));
        let end_a1 = Rules { end: Some(0), ..r };
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

    #[test]
    fn parses_move_lists_and_json() {
        let board = Board::new(3, 4).unwrap();
        let tour = parse_tour(OPEN_3X4, Some(board), false).unwrap();
        assert_eq!(tour.names().join(" "), OPEN_3X4);
        let json = serde_json::to_string(&TourJson::from(&tour)).unwrap();
        assert_eq!(parse_tour(&json, None, false).unwrap(), tour);
        assert!(parse_tour(&json, Some(Board::new(4, 3).unwrap()), false).is_err());
        assert!(parse_tour(OPEN_3X4, None, false).is_err());
        assert!(parse_tour("a1 z9", Some(board), false).is_err());
        assert!(parse_tour("{\"rows\":3}", None, false).is_err());
    }
}
