//! Tours and their verification.
//!
//! Nothing here touches SAT: the verifier is the independent check that every
//! tour found by any solver, and every tour a user hands in, must pass.

use crate::board::{Board, Leaper};
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The board, with its holes and its leaper.
    pub board: Board,
    /// Whether the last square must be a move from the first.
    pub closed: bool,
    /// The required first square.
    pub start: Option<usize>,
    /// The required last square.
    pub end: Option<usize>,
    /// Required (step, square) pairs: after `step` moves the piece is on `square`.
    pub clues: Vec<(usize, usize)>,
}

impl Rules {
    /// Rules for any tour of `board`, open or closed, with nothing fixed.
    pub fn new(board: Board, closed: bool) -> Rules {
        Rules {
            board,
            closed,
            start: None,
            end: None,
            clues: Vec::new(),
        }
    }
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
    /// Two consecutive squares that are not a move of the board's leaper apart.
    #[error("move {from_position} to {to_position}, {from} to {to}, is not a {piece} move")]
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
    #[error("the tour is not closed: {last} (the last square) is not a {piece} move from {first}")]
    NotClosed {
        /// The leaper's name, e.g. `knight`.
        piece: String,
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
            board: board.clone(),
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
            if !board.is_move(previous, square) {
                return Err(Violation::NotAMove {
                    piece: board.leaper().name(),
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
    for &(step, square) in &rules.clues {
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
    if rules.closed && !(squares.len() > 1 && board.is_move(last, first)) {
        return Err(Violation::NotClosed {
            piece: board.leaper().name(),
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

    /// The move number (from 1) at which each square is visited, by square
    /// index; 0 for a square the tour does not visit.
    pub fn numbers(&self) -> Vec<usize> {
        let mut number = vec![0; self.board.squares()];
        for (position, &square) in self.squares.iter().enumerate() {
            number[square] = position + 1;
        }
        number
    }
}

/// The JSON fields that describe a board: `"rows":8,"cols":8`, with
/// `"holes":["c3",…]` when some squares are holes and `"leaper":[1,3]` for a
/// piece other than the knight.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BoardJson {
    /// Number of ranks.
    pub rows: usize,
    /// Number of files.
    pub cols: usize,
    /// The holes' names (none on a full board).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub holes: Vec<String>,
    /// The leaper as [a, b] (absent for the knight).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leaper: Option<[usize; 2]>,
}

impl From<&Board> for BoardJson {
    fn from(board: &Board) -> BoardJson {
        let leaper = board.leaper();
        let (a, b) = leaper.lengths();
        BoardJson {
            rows: board.rows(),
            cols: board.cols(),
            holes: board.holes().iter().map(ToString::to_string).collect(),
            leaper: (leaper != Leaper::KNIGHT).then_some([a, b]),
        }
    }
}

impl BoardJson {
    /// The board these fields describe.
    pub fn board(&self) -> Result<Board, Error> {
        let leaper = match self.leaper {
            Some([a, b]) => Leaper::new(a, b)?,
            None => Leaper::KNIGHT,
        };
        Ok(Board::new(self.rows, self.cols)?
            .with_holes(&self.holes)?
            .with_leaper(leaper))
    }
}

/// The JSON form of a tour: `{"rows":8,"cols":8,"closed":false,"tour":["a1",…]}`
/// (with the board's holes and leaper, see [`BoardJson`]).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TourJson {
    /// The board.
    #[serde(flatten)]
    pub board: BoardJson,
    /// Whether the tour is closed.
    pub closed: bool,
    /// Square names in visiting order.
    pub tour: Vec<String>,
}

impl From<&Tour> for TourJson {
    fn from(tour: &Tour) -> TourJson {
        TourJson {
            board: BoardJson::from(&tour.board),
            closed: tour.closed,
            tour: tour.names(),
        }
    }
}

/// Reads a tour written as JSON ([`TourJson`]) or as a move list (`a1 c2 b4 …`,
/// separated by white space or commas).
///
/// The board (with its holes and leaper) comes from the JSON, or from
/// `board` for a move list; when both are given they must agree. A JSON tour that says it is closed is checked as
/// closed; so is any tour when `closed` is set.
pub fn parse_tour(text: &str, board: Option<Board>, closed: bool) -> Result<Tour, Error> {
    let text = text.trim();
    let (board, closed, names) = if text.starts_with('{') {
        let json: TourJson = serde_json::from_str(text)
            .map_err(|e| Error::BadTourInput(format!("bad JSON tour: {e}")))?;
        let json_board = json.board.board()?;
        if let Some(board) = board.filter(|b| *b != json_board) {
            return Err(Error::BadTourInput(format!(
                "the tour is for a {json_board} board for the {}, but the options say {board} for the {}",
                json_board.leaper().name(),
                board.leaper().name()
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
        Rules::new(Board::new(rows, cols).unwrap(), closed)
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
        let clue_c2 = Rules {
            clues: vec![(1, r.board.parse_square("c2").unwrap())],
            ..r.clone()
        };
        assert_eq!(verify(&good, &clue_c2), Ok(()));
        assert_eq!(
            verify(&swapped, &clue_c2).unwrap_err().to_string(),
            "move 1 to 2, a1 to a3, is not a knight move"
        );
        let clue_b1 = Rules {
            clues: vec![(1, r.board.parse_square("b1").unwrap())],
            ..r.clone()
        };
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

        let start_b1 = Rules {
            start: Some(1),
            ..r.clone()
        };
        assert!(matches!(
            verify(&good, &start_b1),
            Err(Violation::WrongStart { .. })
        ));
        let end_d3 = Rules {
            end: Some(11),
            ..r.clone()
        };
        assert_eq!(verify(&good, &end_d3), Ok(()));
        let end_a1 = Rules {
            end: Some(0),
            ..r.clone()
        };
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
        let tour = parse_tour(OPEN_3X4, Some(board.clone()), false).unwrap();
        assert_eq!(tour.names().join(" "), OPEN_3X4);
        let json = serde_json::to_string(&TourJson::from(&tour)).unwrap();
        assert_eq!(parse_tour(&json, None, false).unwrap(), tour);
        assert!(parse_tour(&json, Some(Board::new(4, 3).unwrap()), false).is_err());
        assert!(parse_tour(OPEN_3X4, None, false).is_err());
        assert!(parse_tour("a1 z9", Some(board.clone()), false).is_err());
        let holed = board.with_holes(&["b2"]).unwrap();
        assert!(parse_tour(&json, Some(holed.clone()), false).is_err());
        let camel = board.clone().with_leaper(Leaper::new(1, 3).unwrap());
        assert!(parse_tour(&json, Some(camel.clone()), false).is_err());
        let camel_tour = Tour {
            board: camel.with_holes(&["b2"]).unwrap(),
            closed: false,
            squares: vec![0, 4],
        };
        let json = serde_json::to_string(&TourJson::from(&camel_tour)).unwrap();
        assert!(json.contains(r#""holes":["b2"],"leaper":[1,3]"#), "{json}");
        assert_eq!(parse_tour(&json, None, false).unwrap(), camel_tour);
        assert!(parse_tour("{\"rows\":3}", None, false).is_err());
    }
}
