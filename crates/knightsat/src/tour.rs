//! Tours: the squares in visiting order, their JSON form, and reading a
//! tour a user hands in.

use crate::model::board::{Board, BoardError, Leaper, Square};
use crate::model::problem::Problem;
use crate::model::verify::verify;
use crate::model::verify::Violation;

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

impl Tour {
    /// The square names in order, e.g. `["a1", "c2", …]`.
    pub fn names(&self) -> Vec<String> {
        self.squares.iter().map(|&s| self.board.name(s)).collect()
    }

    /// The move number (from 1) at which each square is visited, by square
    /// index; 0 for a square the tour does not visit.
    pub(crate) fn numbers(&self) -> Vec<usize> {
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
    pub(crate) fn board(&self) -> Result<Board, TourError> {
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

fn names_or_none(squares: &[Square]) -> String {
    if squares.is_empty() {
        "none".to_string()
    } else {
        squares
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// Reads a tour written as JSON ([`TourJson`]) or as a move list (`a1 c2 b4 …`,
/// separated by white space or commas).
///
/// The board (with its holes and leaper) comes from the JSON, or from
/// `board` for a move list; when both are given they must agree. A JSON
/// tour that says it is closed is checked as closed; so is any tour when
/// `closed` is set, but a JSON tour that says it is open is then refused
/// ([`TourError::ClosedButFileSaysOpen`]).
pub fn parse_tour(text: &str, board: Option<Board>, closed: bool) -> Result<Tour, TourError> {
    let text = text.trim();
    if let Some(board) = board.as_ref().filter(|board| board.graph().is_some()) {
        return parse_graph_tour(text, board.clone(), closed);
    }
    let (board, closed, names) = if text.starts_with('{') {
        let json: TourJson = serde_json::from_str(text)
            .map_err(|e| TourError::BadTourInput(format!("bad JSON tour: {e}")))?;
        let json_board = json.board.board()?;
        if let Some(board) = board.filter(|b| *b != json_board) {
            return Err(TourError::BadTourInput(format!(
                "the tour is for a {json_board} board for the {}, but the options say {board} for the {}",
                json_board.leaper().name(),
                board.leaper().name()
            )));
        }
        if closed && !json.closed {
            return Err(TourError::ClosedButFileSaysOpen {
                file: RecordedIn::Tour,
            });
        }
        (json_board, json.closed, json.tour)
    } else {
        // A square's name starts with its file's letters: a list that
        // starts with a number is the numbered board `solve` prints.
        let numbered = square_names_in(text)
            .next()
            .is_some_and(|first| first.bytes().all(|b| b.is_ascii_digit()));
        if numbered {
            return Err(TourError::NumberedBoard);
        }
        let board = board.ok_or(TourError::MoveListNeedsBoard)?;
        let names = square_names_in(text).map(str::to_string).collect();
        (board, closed, names)
    };
    let squares = names
        .iter()
        .enumerate()
        .map(|(at, name)| square_of_tour(&board, at + 1, name))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Tour {
        board,
        closed,
        squares,
    })
}

/// The square named `name` at position `position` (from 1) of a tour of
/// `board`: a name that is no square is unreadable input, but one of the
/// board's holes is a square the tour may not visit, so the tour is
/// refused as any tour that breaks a rule is ([`Violation::OnHole`]).
fn square_of_tour(board: &Board, position: usize, name: &str) -> Result<usize, TourError> {
    board.parse_square(name).map_err(|error| {
        let name = name.trim();
        if board.holes().iter().any(|hole| hole.to_string() == name) {
            TourError::InvalidTour(Violation::OnHole {
                position,
                square: name.to_string(),
            })
        } else {
            error.into()
        }
    })
}

/// A graph's tour as JSON (`{"vertices":N,"edges":M,"closed":…,"tour":[…]}`)
/// or as vertex numbers separated by white space or commas; checked as
/// closed when `closed` is set, the JSON says so or the graph asks for a
/// cycle (TSPLIB HCP).
fn parse_graph_tour(text: &str, board: Board, closed: bool) -> Result<Tour, TourError> {
    /// What `--format json` prints for a graph's tour.
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct GraphTourJson {
        vertices: usize,
        edges: usize,
        closed: bool,
        tour: Vec<usize>,
    }
    let graph = board.graph().expect("a graph");
    let (closed, numbers) = if text.starts_with('{') {
        let json: GraphTourJson = serde_json::from_str(text)
            .map_err(|e| TourError::BadTourInput(format!("bad JSON tour of a graph: {e}")))?;
        if (json.vertices, json.edges) != (graph.vertices(), graph.edges()) {
            return Err(TourError::BadTourInput(format!(
                "the tour is of a graph of {} vertices and {} edges, but the graph given has {} and {}",
                json.vertices,
                json.edges,
                graph.vertices(),
                graph.edges()
            )));
        }
        if closed && !json.closed {
            return Err(TourError::ClosedButFileSaysOpen {
                file: RecordedIn::Tour,
            });
        }
        let numbers: Vec<String> = json.tour.iter().map(ToString::to_string).collect();
        (json.closed, numbers)
    } else {
        let numbers = square_names_in(text).map(str::to_string).collect();
        (closed, numbers)
    };
    let squares = numbers
        .iter()
        .map(|number: &String| board.parse_square(number))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Tour {
        closed: closed || board.asks_cycle(),
        board,
        squares,
    })
}

/// The square names of a move list: names separated by white space or
/// commas (`a1 b3`, `a1,b3`).
pub fn square_names_in(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|name| !name.is_empty())
}

/// What the options say about the board of a tour handed in.
#[derive(Clone, Debug, Default)]
pub struct GivenBoard {
    /// The whole board, when a size was given.
    pub board: Option<Board>,
    /// The leaper, when one was named.
    pub leaper: Option<Leaper>,
    /// The holes named.
    pub holes: Vec<String>,
}

/// Reads a tour a user hands in and checks it, with no SAT code.
///
/// The board comes from the JSON tour or from `given.board`; whatever the
/// options say about it (size, holes, leaper) must agree with what a JSON
/// tour records, and what it does not record (start, end, clues) applies.
/// The tour is checked as closed when `closed` is set or its JSON says so.
/// `rules` builds the problem to check against on that board, given whether
/// the tour is closed (its start, end and clues are the caller's).
pub fn check_tour<E: From<TourError>>(
    text: &str,
    given: &GivenBoard,
    closed: bool,
    rules: impl FnOnce(Board, bool) -> Result<Problem, E>,
) -> Result<Tour, E> {
    let tour = parse_tour(text, given.board.clone(), closed)?;
    if given.board.is_none() {
        let board = &tour.board;
        if let Some(leaper) = given.leaper.filter(|&leaper| leaper != board.leaper()) {
            return Err(TourError::BadTourInput(format!(
                "the tour is for the {}, but the options say the {}",
                board.leaper().name(),
                leaper.name()
            ))
            .into());
        }
        if !given.holes.is_empty() {
            let mut named = given
                .holes
                .iter()
                .map(|name| name.trim().parse())
                .collect::<Result<Vec<Square>, _>>()
                .map_err(TourError::from)?;
            named.sort_by_key(|square| (square.rank, square.file));
            named.dedup();
            let mut holes = board.holes();
            holes.sort_by_key(|square| (square.rank, square.file));
            if named != holes {
                return Err(TourError::BadTourInput(format!(
                    "the tour's board has holes {}, but the options say {}",
                    names_or_none(&holes),
                    names_or_none(&named)
                ))
                .into());
            }
        }
    }
    let problem = rules(tour.board.clone(), tour.closed)?;
    verify(&tour.squares, &problem).map_err(TourError::from)?;
    Ok(tour)
}

#[cfg(test)]
mod tests {
    use super::*;

    // A closed tour of the 3x4 board does not exist; this open one does.
    const OPEN_3X4: &str = "a1 c2 a3 b1 d2 b3 c1 a2 c3 d1 b2 d3";

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

/// A file that records whether its tour is closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordedIn {
    /// A puzzle's JSON.
    Puzzle,
    /// A tour's JSON.
    Tour,
}

impl std::fmt::Display for RecordedIn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            RecordedIn::Puzzle => "puzzle",
            RecordedIn::Tour => "tour",
        })
    }
}

/// Why a tour cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum TourError {
    /// A board, square or leaper that is malformed.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// A tour (as text or JSON) that cannot be read.
    #[error("cannot read the tour: {0}")]
    BadTourInput(String),
    /// A move list given with no board to read it on.
    #[error("cannot read the tour: a move list needs a board (JSON tours carry their own)")]
    MoveListNeedsBoard,
    /// A numbered board (as `solve` prints by default) where a move list
    /// or JSON was expected.
    #[error("cannot read the tour: it is a numbered board, not a move list or JSON; print the tour with `solve --format moves` (or `--format json`) to check it")]
    NumberedBoard,
    /// A closed tour asked for of a file (a puzzle's or a tour's JSON)
    /// that records the tour as open: the two contradict each other.
    #[error("a closed tour is asked for, but the {file} file says the tour is open")]
    ClosedButFileSaysOpen {
        /// Which file.
        file: RecordedIn,
    },
    /// A well-formed tour that breaks a rule (in the message, so
    /// deliberately not a `source`: the command line prints sources after it).
    #[error("not a valid tour: {0}")]
    InvalidTour(Violation),
}

impl From<Violation> for TourError {
    fn from(violation: Violation) -> TourError {
        TourError::InvalidTour(violation)
    }
}
