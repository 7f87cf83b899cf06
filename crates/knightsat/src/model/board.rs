//! Boards: a rectangle of ranks and files, the squares of it that exist
//! (the rest are holes), and the leaper that moves on it (the knight by
//! default).
//!
//! Files are lettered `a, b, …, z, aa, ab, …` from left to right and ranks are
//! numbered `1, 2, …` from bottom to top, so `a1` is the bottom-left corner.
//! Squares are indexed row-major from the bottom over the squares that exist:
//! on a board without holes `index = rank_index · cols + file_index`; holes
//! are skipped, so the indices always run 0..N for N squares.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use crate::model::graph::Graph;

use crate::model::text::shown;

/// What is wrong with a board, a square or a leaper as given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// A board size or drawing that is malformed, empty or too large.
    #[error("bad board: {0}")]
    Board(String),
    /// A square name that is malformed, off the board or a hole.
    #[error("bad square: {0}")]
    Square(String),
    /// A leaper that is malformed or cannot move.
    #[error("bad leaper: {0}")]
    Leaper(String),
}

/// The largest number of cells (squares and holes) a board may have: 2²²
/// (e.g. 2048x2048), so that square indices fit in 32 bits with room to
/// spare and a board with its tour stays within a few hundred megabytes.
///
/// Encodings have limits of their own: the time-indexed encoding needs
/// squares² variables and takes at most
/// [`TimeIndexed::MAX_SQUARES`](crate::encoding::TimeIndexed::MAX_SQUARES).
pub const MAX_SQUARES: usize = 1 << 22;

/// An (a, b)-leaper: a piece that jumps a files and b ranks, or b files and
/// a ranks, in any direction. The knight is the (1, 2)-leaper.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Leaper {
    short: usize,
    long: usize,
}

impl Leaper {
    /// The knight, (1, 2).
    pub const KNIGHT: Leaper = Leaper { short: 1, long: 2 };

    /// The (a, b)-leaper, or an error if both are zero (a piece that never
    /// moves) or either is longer than any board ([`MAX_SQUARES`]).
    pub fn new(a: usize, b: usize) -> Result<Leaper, BoardError> {
        if a == 0 && b == 0 {
            return Err(BoardError::Leaper(
                "0,0 never moves: A and B must not both be zero".into(),
            ));
        }
        if a.max(b) > MAX_SQUARES {
            return Err(BoardError::Leaper(format!(
                "{a},{b}: a leap can be at most {MAX_SQUARES} squares long"
            )));
        }
        Ok(Leaper {
            short: a.min(b),
            long: a.max(b),
        })
    }

    /// The two jump lengths, shorter first.
    pub fn lengths(&self) -> (usize, usize) {
        (self.short, self.long)
    }

    /// The piece's usual name (`knight`, `camel`, `zebra`, `giraffe`,
    /// `wazir`, `ferz`, …), or `(a,b)-leaper`.
    pub fn name(&self) -> String {
        let known = match (self.short, self.long) {
            (0, 1) => "wazir",
            (1, 1) => "ferz",
            (0, 2) => "dabbaba",
            (1, 2) => "knight",
            (2, 2) => "alfil",
            (0, 3) => "threeleaper",
            (1, 3) => "camel",
            (2, 3) => "zebra",
            (1, 4) => "giraffe",
            _ => return format!("({},{})-leaper", self.short, self.long),
        };
        known.to_string()
    }

    /// Whether every move lands on the other colour (a + b odd). A leaper
    /// with a + b even never leaves the colour it starts on.
    pub(crate) fn changes_colour(&self) -> bool {
        (self.short + self.long) % 2 == 1
    }

    /// The distinct moves as (file delta, rank delta): eight, or four when
    /// a = 0 or a = b.
    pub(crate) fn deltas(&self) -> Vec<(isize, isize)> {
        let (a, b) = (self.short as isize, self.long as isize);
        let mut deltas = Vec::with_capacity(8);
        for (df, dr) in [(a, b), (b, a)] {
            for (sf, sr) in [(1, 1), (1, -1), (-1, -1), (-1, 1)] {
                let delta = (sf * df, sr * dr);
                if !deltas.contains(&delta) {
                    deltas.push(delta);
                }
            }
        }
        deltas
    }

    /// Whether the leaper jumps between squares `df` files and `dr` ranks apart.
    pub(crate) fn jumps(&self, df: usize, dr: usize) -> bool {
        (df, dr) == (self.short, self.long) || (df, dr) == (self.long, self.short)
    }
}

impl Default for Leaper {
    fn default() -> Leaper {
        Leaper::KNIGHT
    }
}

impl fmt::Display for Leaper {
    /// Formats as `A,B`, the form [`Leaper::from_str`] reads.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.short, self.long)
    }
}

impl FromStr for Leaper {
    type Err = BoardError;

    /// Parses `A,B`, e.g. `1,2` (knight) or `1,3` (camel).
    fn from_str(text: &str) -> Result<Leaper, BoardError> {
        let bad = || {
            BoardError::Leaper(format!(
                "'{}': expected A,B with whole numbers A, B >= 0, e.g. 1,3",
                shown(text)
            ))
        };
        let (a, b) = text.split_once(',').ok_or_else(bad)?;
        let a = a.trim().parse().map_err(|_| bad())?;
        let b = b.trim().parse().map_err(|_| bad())?;
        Leaper::new(a, b)
    }
}

/// A board: a rectangle of `rows` ranks and `cols` files, the squares of it
/// that exist, and the leaper that moves on it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    rows: usize,
    cols: usize,
    leaper: Leaper,
    /// The squares that exist, in index order (row-major from a1).
    squares: Vec<Square>,
    /// For each cell `rank · cols + file`, its square index, or `NO_SQUARE` for a hole.
    index_of_cell: Vec<usize>,
    /// For a graph from a file, its edges: the moves then, in a row of
    /// `1 x N` cells that nothing geometric reads (see [`Board::from_graph`]).
    graph: Option<Arc<Graph>>,
}

const NO_SQUARE: usize = usize::MAX;

/// A square on a board, by zero-based file (column) and rank (row) index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    /// Zero-based file (column) index; file `a` is 0.
    pub file: usize,
    /// Zero-based rank (row) index; rank `1` is 0.
    pub rank: usize,
}

/// The piece name of a graph's edges ([`Board::piece_name`]): messages
/// that carry a piece's name word a graph's case by it.
pub const GRAPH_PIECE: &str = "graph";

impl Board {
    /// A full board of `rows` ranks and `cols` files for the knight, or an
    /// error if either is zero or the board has more than [`MAX_SQUARES`] squares.
    pub fn new(rows: usize, cols: usize) -> Result<Board, BoardError> {
        Board::check_dimensions(rows, cols)?;
        Ok(Board::with_cells(rows, cols, &vec![true; rows * cols]))
    }

    /// Whether a `rows` x `cols` board can be made: the error [`Board::new`]
    /// gives, without making it, which takes a while on the largest boards
    /// (docs/notebook.md, "Set-up on the largest boards").
    pub(crate) fn check_dimensions(rows: usize, cols: usize) -> Result<(), BoardError> {
        if rows == 0 || cols == 0 {
            return Err(BoardError::Board(format!(
                "{rows}x{cols} has no squares: rows and columns must be at least 1"
            )));
        }
        match rows.checked_mul(cols) {
            Some(n) if n <= MAX_SQUARES => Ok(()),
            _ => Err(BoardError::Board(format!(
                "{rows}x{cols} is too large: at most {MAX_SQUARES} squares"
            ))),
        }
    }

    /// Reads `ROWSxCOLS`, e.g. `8x8` or `3x4` (3 ranks, 4 files), as the
    /// dimensions of a board that can be made (`Board::check_dimensions`);
    /// `parse` makes the board itself.
    pub fn parse_dimensions(text: &str) -> Result<(usize, usize), BoardError> {
        let bad = |why: &str| BoardError::Board(format!("'{}': {why}", shown(text)));
        let (rows, cols) = text
            .split_once(['x', 'X'])
            .ok_or_else(|| bad("expected ROWSxCOLS, e.g. 8x8"))?;
        let parse = |part: &str, what: &str| {
            let part = part.trim();
            part.parse::<usize>().map_err(|_| {
                if !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()) {
                    bad(&format!(
                        "{what} is too large: at most {MAX_SQUARES} squares"
                    ))
                } else {
                    bad(&format!("{what} must be a whole number, e.g. 8x8"))
                }
            })
        };
        let (rows, cols) = (parse(rows, "ROWS")?, parse(cols, "COLS")?);
        Board::check_dimensions(rows, cols)?;
        Ok((rows, cols))
    }

    pub(crate) fn with_cells(rows: usize, cols: usize, exists: &[bool]) -> Board {
        // Reserved up front: on the largest boards, growing the list by
        // doubling copied it over and over, most of the set-up's time
        // (docs/notebook.md, "Set-up on the largest boards").
        let mut squares = Vec::with_capacity(exists.iter().filter(|&&e| e).count());
        let index_of_cell = exists
            .iter()
            .enumerate()
            .map(|(cell, &exists)| {
                if !exists {
                    return NO_SQUARE;
                }
                squares.push(Square {
                    file: cell % cols,
                    rank: cell / cols,
                });
                squares.len() - 1
            })
            .collect();
        Board {
            rows,
            cols,
            leaper: Leaper::KNIGHT,
            squares,
            index_of_cell,
            graph: None,
        }
    }

    /// The board that is `graph`: its vertices are the squares (index v is
    /// the file's vertex v + 1, named by that number) and its edges the
    /// moves. It has no places, colours or symmetries: every route that
    /// needs them refuses it ([`Board::graph`] tells such a board).
    pub fn from_graph(graph: Graph) -> Board {
        let mut board = Board::with_cells(1, graph.vertices(), &vec![true; graph.vertices()]);
        board.graph = Some(Arc::new(graph));
        board
    }

    /// Whether the problem on this board is a closed tour unless said
    /// otherwise: a graph read from a TSPLIB HCP file, which asks for a
    /// Hamiltonian cycle.
    pub fn asks_cycle(&self) -> bool {
        self.graph().is_some_and(Graph::asks_cycle)
    }

    /// What moves on the board, as messages name it: the leaper's name
    /// (`knight`), or [`GRAPH_PIECE`] for a graph's edges.
    pub fn piece_name(&self) -> String {
        if self.graph.is_some() {
            return GRAPH_PIECE.into();
        }
        self.leaper.name()
    }

    /// The graph this board is, for one read from a graph file.
    pub fn graph(&self) -> Option<&Graph> {
        self.graph.as_deref()
    }

    /// The board as a message names it: `the 8x8 board`, `the holed 8x8
    /// board`, or `the graph of N vertices and M edges`.
    pub fn named(&self) -> String {
        match self.graph() {
            Some(graph) => format!("the {graph}"),
            None => format!("the {self} board"),
        }
    }

    /// Reads a board drawn in ASCII art: one line per rank, the top line
    /// the highest rank and the bottom line rank 1; `.` is a square, `#` or a
    /// space a hole. Blank lines before and after the drawing are ignored;
    /// every line of it must have the same width.
    pub fn from_ascii(text: &str) -> Result<Board, BoardError> {
        let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
        let first = lines.iter().position(|l| !l.trim().is_empty());
        let last = lines.iter().rposition(|l| !l.trim().is_empty());
        let (Some(first), Some(last)) = (first, last) else {
            return Err(BoardError::Board(
                "the board file is empty: draw the board with . for a square and # for a hole"
                    .into(),
            ));
        };
        let drawing = &lines[first..=last];
        let cols = drawing[0].chars().count();
        let mut exists = vec![false; drawing.len() * cols];
        for (row, line) in drawing.iter().enumerate() {
            let width = line.chars().count();
            if width != cols {
                return Err(BoardError::Board(format!(
                    "ragged board: line {} is {width} cells wide but line {} is {cols}; every line must have the same width (write # for a hole)",
                    first + row + 1,
                    first + 1
                )));
            }
            let rank = drawing.len() - 1 - row;
            for (file, c) in line.chars().enumerate() {
                exists[rank * cols + file] = match c {
                    '.' => true,
                    '#' | ' ' => false,
                    other => {
                        return Err(BoardError::Board(format!(
                            "line {} has '{}': use . for a square and # or a space for a hole",
                            first + row + 1,
                            shown(&other.to_string())
                        )))
                    }
                };
            }
        }
        Board::new(drawing.len(), cols)?.keeping(&exists)
    }

    /// This board with only the cells `exists` marks (indexed `rank · cols +
    /// file`), or an error if none is left.
    fn keeping(&self, exists: &[bool]) -> Result<Board, BoardError> {
        if !exists.iter().any(|&e| e) {
            return Err(BoardError::Board(format!(
                "the {}x{} board has no squares left",
                self.rows, self.cols
            )));
        }
        let mut board = Board::with_cells(self.rows, self.cols, exists);
        board.leaper = self.leaper;
        Ok(board)
    }

    /// This board with the named squares removed (`c3`, `d4`, …), or an
    /// error for a name that is not a square of it or when nothing is left.
    pub fn with_holes<S: AsRef<str>>(&self, names: &[S]) -> Result<Board, BoardError> {
        let mut exists: Vec<bool> = self.index_of_cell.iter().map(|&i| i != NO_SQUARE).collect();
        for name in names {
            let index = self.parse_square(name.as_ref())?;
            let square = self.square(index);
            let cell = &mut exists[square.rank * self.cols + square.file];
            if !*cell {
                // Named twice: a slip, perhaps for another square.
                return Err(BoardError::Square(format!(
                    "{} is named twice among the holes",
                    self.name(index)
                )));
            }
            *cell = false;
        }
        self.keeping(&exists)
    }

    /// This board with a different piece on it.
    #[must_use]
    pub fn with_leaper(mut self, leaper: Leaper) -> Board {
        self.leaper = leaper;
        self
    }

    /// The piece that tours the board.
    pub fn leaper(&self) -> Leaper {
        self.leaper
    }

    /// Number of ranks (rows) of the rectangle.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of files (columns) of the rectangle.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Number of squares: `rows · cols` less the holes.
    pub fn squares(&self) -> usize {
        self.squares.len()
    }

    /// Whether some cell of the rectangle is a hole.
    pub(crate) fn has_holes(&self) -> bool {
        self.squares.len() < self.rows * self.cols
    }

    /// The holes, in index order of their cells.
    pub fn holes(&self) -> Vec<Square> {
        (0..self.rows * self.cols)
            .filter(|&cell| self.index_of_cell[cell] == NO_SQUARE)
            .map(|cell| Square {
                file: cell % self.cols,
                rank: cell / self.cols,
            })
            .collect()
    }

    /// The square with the given index.
    pub(crate) fn square(&self, index: usize) -> Square {
        self.squares[index]
    }

    /// The index of the square at `square`, or `None` for a hole or a
    /// place outside the rectangle.
    pub(crate) fn index_at(&self, square: Square) -> Option<usize> {
        (square.file < self.cols && square.rank < self.rows)
            .then(|| self.index_of_cell[square.rank * self.cols + square.file])
            .filter(|&index| index != NO_SQUARE)
    }

    /// Parses a square in algebraic notation (white space around it
    /// ignored, as everywhere a square is named) and checks that it is on
    /// this board.
    pub fn parse_square(&self, text: &str) -> Result<usize, BoardError> {
        if let Some(graph) = self.graph() {
            return graph
                .parse_vertex(text)
                .map_err(|error| BoardError::Square(error.to_string()));
        }
        let text = text.trim();
        // A name past every board is off this one too.
        let square = match name_to_square(text) {
            Ok(square) => Some(square),
            Err(NameError::PastEveryBoard) => None,
            Err(why @ NameError::Malformed) => return Err(why.error(text)),
        };
        if let Some(index) = square.and_then(|square| self.index_at(square)) {
            return Ok(index);
        }
        if square.is_some_and(|square| square.file < self.cols && square.rank < self.rows) {
            return Err(BoardError::Square(format!(
                "{} is a hole in the board",
                shown(text)
            )));
        }
        Err(BoardError::Square(format!(
            "{} is not on the {self} board (files a-{}, ranks 1-{})",
            shown(text),
            file_name(self.cols - 1),
            self.rows
        )))
    }

    /// The name of the square with the given index, e.g. `"c2"`.
    pub fn name(&self, index: usize) -> String {
        if self.graph.is_some() {
            return Graph::name(index);
        }
        self.square(index).to_string()
    }

    /// Indices of the squares the leaper on `index` attacks, in a fixed order.
    /// For the whole board at once, see the crate's move graph (`graph::MoveGraph`).
    pub fn moves(&self, index: usize) -> impl Iterator<Item = usize> + '_ {
        let edges = self
            .graph()
            .map(|graph| graph.neighbours(index).iter().map(|&w| w as usize));
        let leaps = self.graph.is_none().then(|| {
            let from = self.square(index);
            self.leaper
                .deltas()
                .into_iter()
                .filter_map(move |delta| self.leap(from, delta))
        });
        edges
            .into_iter()
            .flatten()
            .chain(leaps.into_iter().flatten())
    }

    /// The index of the square `(files, ranks)` away from `from`, or `None`
    /// for a hole or a place outside the rectangle.
    pub(crate) fn leap(&self, from: Square, (files, ranks): (isize, isize)) -> Option<usize> {
        let file = from.file.checked_add_signed(files)?;
        let rank = from.rank.checked_add_signed(ranks)?;
        self.index_at(Square { file, rank })
    }

    /// The board's symmetries as permutations of square indices (`map[s]` is
    /// the image of s): those of the 8 of the dihedral group on an `NxN`
    /// rectangle (the 4 that keep its shape otherwise) that map squares onto
    /// squares and holes onto holes. Every leaper's moves are symmetric under
    /// all of them. The identity comes first.
    pub(crate) fn symmetries(&self) -> Vec<Vec<usize>> {
        if self.graph.is_some() {
            // A graph's own automorphisms are not looked for: the identity.
            return vec![(0..self.squares()).collect()];
        }
        let (rows, cols) = (self.rows, self.cols);
        let transposes: &[bool] = if rows == cols {
            &[false, true]
        } else {
            &[false]
        };
        let mut maps = Vec::new();
        for &transpose in transposes {
            for (mirror_ranks, mirror_files) in
                [(false, false), (true, false), (false, true), (true, true)]
            {
                let map: Option<Vec<usize>> = self
                    .squares
                    .iter()
                    .map(|&Square { mut file, mut rank }| {
                        if transpose {
                            (file, rank) = (rank, file);
                        }
                        if mirror_ranks {
                            rank = rows - 1 - rank;
                        }
                        if mirror_files {
                            file = cols - 1 - file;
                        }
                        self.index_at(Square { file, rank })
                    })
                    .collect();
                maps.extend(map);
            }
        }
        maps
    }

    /// Whether the leaper on square `a` attacks square `b`.
    pub(crate) fn is_move(&self, a: usize, b: usize) -> bool {
        if let Some(graph) = self.graph() {
            return graph.joined(a, b);
        }
        let (a, b) = (self.square(a), self.square(b));
        self.leaper
            .jumps(a.file.abs_diff(b.file), a.rank.abs_diff(b.rank))
    }

    /// The square's colour: `false` for a1's, `true` for the other.
    pub(crate) fn colour(&self, index: usize) -> bool {
        assert!(self.graph.is_none(), "a graph's vertices have no colour");
        let s = self.square(index);
        (s.file + s.rank) % 2 == 1
    }

    /// The rectangle as `ROWSxCOLS`, without holes or leaper.
    pub(crate) fn shape(&self) -> String {
        format!("{}x{}", self.rows, self.cols)
    }
}

impl fmt::Display for Board {
    /// Formats as `ROWSxCOLS`, e.g. `8x8`, or `holed 8x8` when some squares are holes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(graph) = self.graph() {
            return write!(f, "{graph}");
        }
        if self.has_holes() {
            write!(f, "holed ")?;
        }
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

impl FromStr for Board {
    type Err = BoardError;

    /// Parses `ROWSxCOLS`, e.g. `8x8` or `3x4` (3 ranks, 4 files): a full
    /// board for the knight.
    fn from_str(text: &str) -> Result<Board, BoardError> {
        let (rows, cols) = Board::parse_dimensions(text)?;
        Board::new(rows, cols)
    }
}

/// The letters naming a zero-based file index: `a … z, aa, ab, …`.
pub(crate) fn file_name(mut file: usize) -> String {
    let mut letters = Vec::new();
    loop {
        letters.push(b'a' + (file % 26) as u8);
        if file < 26 {
            break;
        }
        file = file / 26 - 1;
    }
    letters.reverse();
    String::from_utf8(letters).expect("ASCII letters")
}

/// The zero-based file index named by lowercase letters (`a` = 0, `aa` = 26).
fn file_index(letters: &str) -> Option<usize> {
    letters
        .bytes()
        .try_fold(0usize, |acc, b| {
            let digit = usize::from(b.checked_sub(b'a')?) + 1;
            acc.checked_mul(26)?.checked_add(digit)
        })?
        .checked_sub(1)
}

impl fmt::Display for Square {
    /// Formats in algebraic notation, e.g. `a1`, `h8`, `ab12`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", file_name(self.file), self.rank + 1)
    }
}

impl FromStr for Square {
    type Err = BoardError;

    /// Parses algebraic notation: lowercase file letters then a rank number
    /// from 1. A name whose file or rank is past every board's (too large
    /// for any integer type) is an error that says so.
    fn from_str(text: &str) -> Result<Square, BoardError> {
        name_to_square(text).map_err(|why| why.error(text))
    }
}

/// Why a square's name names no square.
enum NameError {
    /// It is not file letters then a rank number from 1.
    Malformed,
    /// It is, but its file or rank is too large for any integer type, and
    /// so for any board.
    PastEveryBoard,
}

impl NameError {
    /// The error, in words, for the name `text`.
    fn error(self, text: &str) -> BoardError {
        BoardError::Square(match self {
            NameError::Malformed => format!(
                "'{}' is not a square: expected file letters then a rank number, e.g. a1 or h8",
                shown(text)
            ),
            NameError::PastEveryBoard => format!(
                "'{}' is not on any board: its file or rank is past {MAX_SQUARES}",
                shown(text)
            ),
        })
    }
}

/// The square a name in algebraic notation names.
fn name_to_square(text: &str) -> Result<Square, NameError> {
    let split = text
        .find(|c: char| !c.is_ascii_lowercase())
        .ok_or(NameError::Malformed)?;
    let (letters, digits) = text.split_at(split);
    if letters.is_empty() || digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(NameError::Malformed);
    }
    if digits.bytes().all(|b| b == b'0') {
        return Err(NameError::Malformed);
    }
    let file = file_index(letters).ok_or(NameError::PastEveryBoard)?;
    let rank: usize = digits.parse().map_err(|_| NameError::PastEveryBoard)?;
    Ok(Square {
        file,
        rank: rank - 1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_graph_has_at_most_as_many_vertices_as_a_board_has_cells() {
        assert_eq!(crate::model::graph::MAX_VERTICES, MAX_SQUARES);
    }

    #[test]
    fn file_names_continue_after_z_like_spreadsheet_columns() {
        assert_eq!(file_name(0), "a");
        assert_eq!(file_name(25), "z");
        assert_eq!(file_name(26), "aa");
        assert_eq!(file_name(27), "ab");
        assert_eq!(file_name(51), "az");
        assert_eq!(file_name(52), "ba");
        assert_eq!(file_name(26 + 26 * 26), "aaa");
        for file in 0..2000 {
            assert_eq!(file_index(&file_name(file)), Some(file), "file {file}");
        }
    }

    #[test]
    fn squares_round_trip_through_notation() {
        let board = Board::new(64, 64).unwrap();
        for index in 0..board.squares() {
            let name = board.name(index);
            assert_eq!(board.parse_square(&name).unwrap(), index, "{name}");
        }
        assert_eq!(board.name(0), "a1");
        assert_eq!(board.name(63), "bl1");
        assert_eq!(board.name(64), "a2");
    }

    #[test]
    fn bad_boards_and_squares_are_rejected() {
        for text in [
            "0x5",
            "5x0",
            "8",
            "8x",
            "x8",
            "-1x3",
            "axb",
            "2049x2048",
            "",
        ] {
            assert!(text.parse::<Board>().is_err(), "{text}");
        }
        assert_eq!("3X4".parse::<Board>().unwrap(), Board::new(3, 4).unwrap());
        assert_eq!(Board::new(2048, 2048).unwrap().squares(), MAX_SQUARES);
        let board = Board::new(8, 8).unwrap();
        for text in ["z9", "i1", "a0", "a9", "1a", "a", "A1", "a1b", "", "a-1"] {
            assert!(board.parse_square(text).is_err(), "{text}");
        }
    }

    #[test]
    fn symmetries_are_distinct_permutations_preserving_knight_moves() {
        for (rows, cols, expected) in [(8, 8, 8), (3, 4, 4), (5, 7, 4), (1, 1, 8)] {
            let board = Board::new(rows, cols).unwrap();
            let maps = board.symmetries();
            assert_eq!(maps.len(), expected);
            let identity: Vec<usize> = (0..board.squares()).collect();
            assert_eq!(maps[0], identity);
            for map in &maps {
                let mut sorted = map.clone();
                sorted.sort_unstable();
                assert_eq!(sorted, identity, "a permutation");
                for a in 0..board.squares() {
                    for b in 0..board.squares() {
                        assert_eq!(board.is_move(a, b), board.is_move(map[a], map[b]));
                    }
                }
            }
        }
    }

    #[test]
    fn holes_renumber_the_squares_that_exist() {
        let board = Board::new(3, 3).unwrap().with_holes(&["b2", "a1"]).unwrap();
        assert_eq!(board.squares(), 7);
        assert_eq!(board.name(0), "b1");
        assert_eq!(board.name(2), "a2");
        assert_eq!(board.name(3), "c2");
        assert_eq!(board.parse_square("c2").unwrap(), 3);
        assert!(board
            .parse_square("b2")
            .unwrap_err()
            .to_string()
            .contains("hole"));
        assert_eq!(board.to_string(), "holed 3x3");
        let drawn = Board::from_ascii("\n...\n.#.\n#..\n\n").unwrap();
        assert_eq!(drawn, board);
        assert!(Board::from_ascii("...\n..\n").is_err());
        assert!(Board::from_ascii("##\n# \n").is_err());
        assert!(Board::from_ascii("").is_err());
        assert!(Board::from_ascii(".x.\n").is_err());
        assert!(board
            .with_holes(&["a2", "c2", "b1", "c1", "a3", "b3", "c3"])
            .is_err());
    }

    #[test]
    fn leapers_move_by_their_lengths_and_keep_or_change_colour() {
        assert_eq!(Leaper::default(), Leaper::KNIGHT);
        assert_eq!("3,1".parse::<Leaper>().unwrap().name(), "camel");
        assert_eq!("2, 3".parse::<Leaper>().unwrap().to_string(), "2,3");
        for bad in ["0,0", "1", "a,b", "1,2,3", "-1,2"] {
            assert!(bad.parse::<Leaper>().is_err(), "{bad}");
        }
        assert_eq!(Leaper::new(0, 1).unwrap().deltas().len(), 4);
        assert_eq!(Leaper::new(2, 2).unwrap().deltas().len(), 4);
        assert_eq!(Leaper::new(1, 4).unwrap().deltas().len(), 8);
        assert!(Leaper::KNIGHT.changes_colour());
        assert!(!Leaper::new(1, 3).unwrap().changes_colour());
        let board = Board::new(5, 5)
            .unwrap()
            .with_leaper(Leaper::new(0, 1).unwrap());
        let c3 = board.parse_square("c3").unwrap();
        let mut moves: Vec<usize> = board.moves(c3).collect();
        moves.sort_unstable();
        let names: Vec<String> = moves.iter().map(|&s| board.name(s)).collect();
        assert_eq!(names, ["c2", "b3", "d3", "c4"]);
    }

    #[test]
    fn symmetries_keep_holes_on_holes() {
        let board = Board::new(4, 4).unwrap().with_holes(&["a1"]).unwrap();
        // Only the identity and the diagonal mirror keep a1 a hole.
        assert_eq!(board.symmetries().len(), 2);
        let board = Board::new(4, 4).unwrap().with_holes(&["b2", "c3"]).unwrap();
        assert_eq!(board.symmetries().len(), 4);
    }

    #[test]
    fn knight_moves_match_the_geometric_definition() {
        for (rows, cols) in [(1, 1), (3, 4), (8, 8), (5, 7)] {
            let board = Board::new(rows, cols).unwrap();
            for a in 0..board.squares() {
                let neighbours: Vec<usize> = board.moves(a).collect();
                for b in 0..board.squares() {
                    assert_eq!(neighbours.contains(&b), board.is_move(a, b));
                }
            }
        }
        let board = Board::new(8, 8).unwrap();
        let a1 = board.parse_square("a1").unwrap();
        let mut moves: Vec<usize> = board.moves(a1).collect();
        moves.sort_unstable();
        let names: Vec<String> = moves.iter().map(|&s| board.name(s)).collect();
        assert_eq!(names, ["c2", "b3"]);
        let d4 = board.parse_square("d4").unwrap();
        assert_eq!(board.moves(d4).count(), 8);
    }
}
