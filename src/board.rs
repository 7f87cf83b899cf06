//! Rectangular boards, squares in algebraic notation, and knight moves.
//!
//! Files are lettered `a, b, …, z, aa, ab, …` from left to right and ranks are
//! numbered `1, 2, …` from bottom to top, so `a1` is the bottom-left corner.
//! Squares are indexed row-major from the bottom: `index = rank_index · cols + file_index`.

use std::fmt;
use std::str::FromStr;

use crate::error::Error;

/// The largest number of squares a board may have.
///
/// The time-indexed encoding needs squares² variables and varisat supports
/// fewer than 2²⁸; 2¹³ squares (e.g. 90x90) keep the x variables at 2²⁶ with
/// room for auxiliaries.
pub const MAX_SQUARES: usize = 1 << 13;

/// The knight's eight moves as (file delta, rank delta).
const KNIGHT_DELTAS: [(isize, isize); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// A rectangular board of `rows` ranks and `cols` files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    rows: usize,
    cols: usize,
}

/// A square on a board, by zero-based file (column) and rank (row) index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    /// Zero-based file (column) index; file `a` is 0.
    pub file: usize,
    /// Zero-based rank (row) index; rank `1` is 0.
    pub rank: usize,
}

impl Board {
    /// A board of `rows` ranks and `cols` files, or an error if either is zero
    /// or the board has more than [`MAX_SQUARES`] squares.
    pub fn new(rows: usize, cols: usize) -> Result<Board, Error> {
        if rows == 0 || cols == 0 {
            return Err(Error::BadBoard(format!(
                "{rows}x{cols} has no squares: rows and columns must be at least 1"
            )));
        }
        match rows.checked_mul(cols) {
            Some(n) if n <= MAX_SQUARES => Ok(Board { rows, cols }),
            _ => Err(Error::BadBoard(format!(
                "{rows}x{cols} is too large: at most {MAX_SQUARES} squares"
            ))),
        }
    }

    /// Number of ranks (rows).
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of files (columns).
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Number of squares, `rows · cols`.
    pub fn squares(&self) -> usize {
        self.rows * self.cols
    }

    /// The square with the given index (`rank · cols + file`).
    pub fn square(&self, index: usize) -> Square {
        debug_assert!(index < self.squares());
        Square {
            file: index % self.cols,
            rank: index / self.cols,
        }
    }

    /// The index of a square on this board (`rank · cols + file`).
    pub fn index(&self, square: Square) -> usize {
        debug_assert!(self.contains(square));
        square.rank * self.cols + square.file
    }

    /// Whether the square lies on this board.
    pub fn contains(&self, square: Square) -> bool {
        square.file < self.cols && square.rank < self.rows
    }

    /// Parses a square in algebraic notation and checks that it is on this board.
    pub fn parse_square(&self, text: &str) -> Result<usize, Error> {
        let square: Square = text.parse()?;
        if !self.contains(square) {
            return Err(Error::BadSquare(format!(
                "{text} is not on the {self} board (files a-{}, ranks 1-{})",
                file_name(self.cols - 1),
                self.rows
            )));
        }
        Ok(self.index(square))
    }

    /// The name of the square with the given index, e.g. `"c2"`.
    pub fn name(&self, index: usize) -> String {
        self.square(index).to_string()
    }

    /// Indices of the squares a knight on `index` attacks, in a fixed order.
    pub fn knight_moves(&self, index: usize) -> impl Iterator<Item = usize> + '_ {
        let from = self.square(index);
        KNIGHT_DELTAS.iter().filter_map(move |&(df, dr)| {
            let file = from.file.checked_add_signed(df)?;
            let rank = from.rank.checked_add_signed(dr)?;
            let to = Square { file, rank };
            self.contains(to).then(|| self.index(to))
        })
    }

    /// The knight-move graph: for each square index, its neighbours in ascending order.
    pub fn knight_graph(&self) -> Vec<Vec<usize>> {
        (0..self.squares())
            .map(|s| {
                let mut moves: Vec<usize> = self.knight_moves(s).collect();
                moves.sort_unstable();
                moves
            })
            .collect()
    }

    /// The board's symmetries as permutations of square indices (`map[s]` is
    /// the image of s): the 8 of the dihedral group on an NxN board, the 4
    /// that keep a rectangle's shape otherwise. The identity comes first.
    pub fn symmetries(&self) -> Vec<Vec<usize>> {
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
                let map = (0..self.squares())
                    .map(|s| {
                        let Square { mut file, mut rank } = self.square(s);
                        if transpose {
                            (file, rank) = (rank, file);
                        }
                        if mirror_ranks {
                            rank = rows - 1 - rank;
                        }
                        if mirror_files {
                            file = cols - 1 - file;
                        }
                        rank * cols + file
                    })
                    .collect();
                maps.push(map);
            }
        }
        maps
    }

    /// Whether a knight on square `a` attacks square `b`.
    pub fn is_knight_move(&self, a: usize, b: usize) -> bool {
        let (a, b) = (self.square(a), self.square(b));
        let df = a.file.abs_diff(b.file);
        let dr = a.rank.abs_diff(b.rank);
        (df == 1 && dr == 2) || (df == 2 && dr == 1)
    }
}

impl fmt::Display for Board {
    /// Formats as `ROWSxCOLS`, the form [`Board::from_str`] reads.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

impl FromStr for Board {
    type Err = Error;

    /// Parses `ROWSxCOLS`, e.g. `8x8` or `3x4` (3 ranks, 4 files).
    fn from_str(text: &str) -> Result<Board, Error> {
        let bad = |why: &str| Error::BadBoard(format!("'{text}': {why}"));
        let (rows, cols) = text
            .split_once(['x', 'X'])
            .ok_or_else(|| bad("expected ROWSxCOLS, e.g. 8x8"))?;
        let parse = |part: &str, what: &str| {
            part.trim()
                .parse::<usize>()
                .map_err(|_| bad(&format!("{what} must be a whole number, e.g. 8x8")))
        };
        Board::new(parse(rows, "ROWS")?, parse(cols, "COLS")?)
    }
}

/// The letters naming a zero-based file index: `a … z, aa, ab, …`.
pub fn file_name(mut file: usize) -> String {
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
    type Err = Error;

    /// Parses algebraic notation: lowercase file letters then a rank number from 1.
    fn from_str(text: &str) -> Result<Square, Error> {
        let bad = || {
            Error::BadSquare(format!(
                "'{text}' is not a square: expected file letters then a rank number, e.g. a1 or h8"
            ))
        };
        let split = text
            .find(|c: char| !c.is_ascii_lowercase())
            .ok_or_else(bad)?;
        let (letters, digits) = text.split_at(split);
        if letters.is_empty() || digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let file = file_index(letters).ok_or_else(bad)?;
        let rank: usize = digits.parse().map_err(|_| bad())?;
        if rank == 0 {
            return Err(bad());
        }
        Ok(Square {
            file,
            rank: rank - 1,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        for text in ["0x5", "5x0", "8", "8x", "x8", "-1x3", "axb", "200x200", ""] {
            assert!(text.parse::<Board>().is_err(), "{text}");
        }
        assert_eq!("3X4".parse::<Board>().unwrap(), Board::new(3, 4).unwrap());
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
                        assert_eq!(
                            board.is_knight_move(a, b),
                            board.is_knight_move(map[a], map[b])
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn knight_moves_match_the_geometric_definition() {
        for (rows, cols) in [(1, 1), (3, 4), (8, 8), (5, 7)] {
            let board = Board::new(rows, cols).unwrap();
            let graph = board.knight_graph();
            for (a, neighbours) in graph.iter().enumerate() {
                for b in 0..board.squares() {
                    assert_eq!(neighbours.contains(&b), board.is_knight_move(a, b));
                }
            }
        }
        let board = Board::new(8, 8).unwrap();
        let a1 = board.parse_square("a1").unwrap();
        let names: Vec<String> = board.knight_graph()[a1]
            .iter()
            .map(|&s| board.name(s))
            .collect();
        assert_eq!(names, ["c2", "b3"]);
        let d4 = board.parse_square("d4").unwrap();
        assert_eq!(board.knight_moves(d4).count(), 8);
    }
}
