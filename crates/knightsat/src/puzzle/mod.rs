//! Numbered-grid puzzles: a board with some squares numbered, to be
//! completed into a tour. Reading and showing them here; making ones with
//! exactly one solution in `generate`.

mod generate;

pub use generate::{generate, puzzle_rules, seed_or_random, Generated};

use crate::error::TourError;
use serde::{Deserialize, Serialize};

use crate::error::{Error, RecordedIn};
use crate::model::board::{file_name, Board, Leaper, Square};
use crate::model::problem::{clue_list, parse_clue, Clue, Problem};
use crate::render::{grid, Picture};
use crate::tour::{BoardJson, Tour};

/// The puzzle's grid in the `--format board` layout: clue numbers, `.`
/// for a blank square, `#` for a hole.
pub fn puzzle_grid(puzzle: &Problem) -> String {
    let board = puzzle.board();
    let mut numbers = vec![None; board.squares()];
    for clue in puzzle.clues() {
        numbers[clue.square] = Some(clue.step + 1);
    }
    grid(board, |square| {
        numbers[square].map_or_else(|| ".".to_string(), |n| n.to_string())
    })
}

/// The SVG picture of the puzzle: clue numbers on an empty board; with a
/// solution, the whole tour with the clues in bold.
pub fn puzzle_picture<'a>(puzzle: &'a Problem, solution: Option<&'a Tour>) -> Picture<'a> {
    let board = puzzle.board();
    let mut picture = match solution {
        Some(tour) => Picture::of_tour(tour),
        None => Picture {
            board,
            labels: vec![None; board.squares()],
            clues: vec![false; board.squares()],
            path: &[],
            closed: false,
        },
    };
    for clue in puzzle.clues() {
        picture.labels[clue.square] = Some(clue.step + 1);
        picture.clues[clue.square] = true;
    }
    picture
}

/// The JSON form of a puzzle: the board (see [`BoardJson`]),
/// `"clues":["1=a1","9=c3",…]` in the `--at` syntax, and the solution's
/// squares when it is given.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PuzzleJson {
    /// The board.
    #[serde(flatten)]
    pub board: BoardJson,
    /// Whether the solution is a closed tour.
    pub closed: bool,
    /// The clues as `N=SQUARE`.
    pub clues: Vec<String>,
    /// The solution's squares in order, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solution: Option<Vec<String>>,
}

impl PuzzleJson {
    /// The JSON form of `puzzle`, with `solution` if given.
    pub fn new(puzzle: &Problem, solution: Option<&Tour>) -> PuzzleJson {
        PuzzleJson {
            board: BoardJson::from(puzzle.board()),
            closed: puzzle.is_closed(),
            clues: clue_list(puzzle.board(), puzzle.clues()),
            solution: solution.map(Tour::names),
        }
    }
}

/// Reads a puzzle: a numbered grid as `--format board` prints it (rank
/// numbers on the left and file letters along the bottom, or the cells
/// alone), with `.` or `0` for a blank square and `#` for a hole, and
/// after a labelled grid perhaps the solution `puzzle --solution` prints
/// (a grid of the same shape, not read); or the
/// JSON `knightsat puzzle --format json` writes. The grid gives the board's
/// shape and holes, `leaper` the piece (the JSON names its own); the
/// solution is closed if `closed` is set, or the JSON says so (a JSON that
/// says it is open when `closed` is set is refused:
/// [`TourError::ClosedButFileSaysOpen`]).
pub fn parse_puzzle(text: &str, leaper: Option<Leaper>, closed: bool) -> Result<Problem, Error> {
    if text.trim_start().starts_with('{') {
        return parse_puzzle_json(text, leaper, closed);
    }
    let leaper = leaper.unwrap_or_default();
    let lines: Vec<(usize, Vec<&str>)> = text
        .lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.split_whitespace().collect::<Vec<_>>()))
        .filter(|(_, tokens)| !tokens.is_empty())
        .collect();
    // A labelled grid ends with its file letters: after them may come the
    // solution `puzzle --solution` prints, a grid of the same shape, which
    // is not read (as the JSON's `solution` is not).
    let (lines, solution) = match lines.iter().position(|(_, tokens)| is_footer(tokens)) {
        Some(footer) => lines.split_at(footer + 1),
        None => (&lines[..], &[][..]),
    };
    let cells = grid_cells(lines)?;
    if solution.is_empty() && leaper.lengths() != (0, 1) {
        refuse_ranks_without_files(lines)?;
    }
    let (rows, cols) = (cells.len(), cells[0].len());
    if let Some(&(line_number, _)) = solution.first() {
        let solution = grid_cells(solution).ok().filter(|solution| {
            solution.len() == rows && solution.iter().all(|row| row.len() == cols)
        });
        if solution.is_none() {
            return Err(Error::BadPuzzle(format!(
                "line {line_number} comes after the grid's file letters but does not begin a {rows}x{cols} grid (the solution puzzle --solution prints after its puzzle)"
            )));
        }
    }
    let holes: Vec<String> = (0..rows)
        .flat_map(|row| (0..cols).map(move |file| (row, file)))
        .filter(|&(row, file)| cells[row][file] == "#")
        .map(|(row, file)| {
            Square {
                file,
                rank: rows - 1 - row,
            }
            .to_string()
        })
        .collect();
    let board = Board::new(rows, cols)?
        .with_holes(&holes)?
        .with_leaper(leaper);
    let mut clues = Vec::new();
    for (row, tokens) in cells.iter().enumerate() {
        for (file, &token) in tokens.iter().enumerate() {
            let square = Square {
                file,
                rank: rows - 1 - row,
            };
            if let Some(number) = cell_number(token, square)? {
                clues.push(parse_clue(&board, &format!("{number}={square}"))?);
            }
        }
    }
    finish(board, closed, clues)
}

/// Refuses a grid of cells alone (no file letters along the bottom) whose
/// first column counts down by one from row to row, as rank numbers do: a
/// labelled grid cut before its file letters (`head -3` of a 5x5 puzzle),
/// which would otherwise be read as a wider grid with the rank numbers as
/// clues. In a real puzzle two moves one apart are a leap apart, never
/// on neighbouring squares of one file, so only a piece that steps one
/// square straight (the wazir) could write such a column, and is not
/// refused (the caller skips it).
fn refuse_ranks_without_files(lines: &[(usize, Vec<&str>)]) -> Result<(), Error> {
    if lines.len() < 2 || lines.last().is_some_and(|(_, tokens)| is_footer(tokens)) {
        return Ok(());
    }
    let firsts: Option<Vec<usize>> = lines
        .iter()
        .map(|(_, tokens)| tokens[0].parse::<usize>().ok())
        .collect();
    let Some(firsts) = firsts else {
        return Ok(());
    };
    let counts_down = firsts[0] >= lines.len()
        && firsts
            .iter()
            .enumerate()
            .all(|(row, &first)| first + row == firsts[0]);
    if !counts_down {
        return Ok(());
    }
    let (first_line, last_line) = (lines[0].0, lines[lines.len() - 1].0);
    Err(Error::BadPuzzle(format!(
        "lines {first_line} to {last_line} begin with the rank numbers {} to {}, but no line of file letters (a b c …) follows them: the grid is cut short (a grid of cells alone has no rank numbers)",
        firsts[0],
        firsts[firsts.len() - 1]
    )))
}

/// Whether a line of a grid is its file letters (`a b c …`): no cell is
/// written in lowercase letters.
fn is_footer(tokens: &[&str]) -> bool {
    tokens
        .iter()
        .all(|token| token.bytes().all(|b| b.is_ascii_lowercase()))
}

/// The cells of one grid, row by row from the highest rank: its lines
/// (numbered, blank ones left out), labelled with rank numbers on the left
/// and file letters along the bottom, or the cells alone.
fn grid_cells<'a>(lines: &[(usize, Vec<&'a str>)]) -> Result<Vec<Vec<&'a str>>, Error> {
    let Some((_, footer)) = lines.last() else {
        return Err(Error::BadPuzzle("the puzzle is empty".into()));
    };
    let labelled = is_footer(footer);
    let rows_lines = if labelled {
        &lines[..lines.len() - 1]
    } else {
        lines
    };
    if rows_lines.is_empty() {
        return Err(Error::BadPuzzle("the puzzle has no rows of cells".into()));
    }
    let rows = rows_lines.len();
    let cols = if labelled {
        footer.len()
    } else {
        rows_lines[0].1.len()
    };
    if labelled {
        if let Some((file, letters)) = footer
            .iter()
            .enumerate()
            .find(|&(file, letters)| *letters != file_name(file))
        {
            return Err(Error::BadPuzzle(format!(
                "the file letters along the bottom should read a, b, c, …: column {} says '{}', not '{}'",
                file + 1,
                crate::model::text::shown(letters),
                file_name(file)
            )));
        }
    }
    let mut cells: Vec<Vec<&str>> = Vec::with_capacity(rows);
    for (row, (line_number, tokens)) in rows_lines.iter().enumerate() {
        let rank = rows - row;
        let tokens = if labelled {
            if tokens[0] != rank.to_string() {
                return Err(Error::BadPuzzle(format!(
                    "line {line_number} should begin with its rank number {rank} (the grid has file letters along the bottom, so rows are labelled)"
                )));
            }
            &tokens[1..]
        } else {
            &tokens[..]
        };
        if tokens.len() != cols {
            return Err(Error::BadPuzzle(format!(
                "wrong shape: line {line_number} has {} cells but the grid is {cols} wide",
                tokens.len()
            )));
        }
        cells.push(tokens.to_vec());
    }
    Ok(cells)
}

/// The move number a grid cell gives, as its digits (read as `--at`
/// reads them, which names a number past the board's moves as such),
/// `None` for a blank (`.`, or any number of zeros, as `0`) or a hole
/// (`#`). Digits only: no sign.
fn cell_number(token: &str, square: Square) -> Result<Option<&str>, Error> {
    if token == "." || token == "#" {
        return Ok(None);
    }
    if token.is_empty() || !token.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Error::BadPuzzle(format!(
            "{square} holds '{}': a cell is a move number, . or 0 for a blank, or # for a hole",
            crate::model::text::shown(token)
        )));
    }
    Ok(token.bytes().any(|b| b != b'0').then_some(token))
}

fn parse_puzzle_json(text: &str, leaper: Option<Leaper>, closed: bool) -> Result<Problem, Error> {
    let json: PuzzleJson = serde_json::from_str(text)
        .map_err(|e| Error::BadPuzzle(format!("bad JSON puzzle: {e}")))?;
    let board = json.board.board()?;
    if let Some(leaper) = leaper.filter(|&leaper| leaper != board.leaper()) {
        return Err(Error::BadPuzzle(format!(
            "the puzzle is for the {}, but the options say the {}",
            board.leaper().name(),
            leaper.name()
        )));
    }
    if closed && !json.closed {
        return Err(Error::Tour(TourError::ClosedButFileSaysOpen {
            file: RecordedIn::Puzzle,
        }));
    }
    let clues = json
        .clues
        .iter()
        .map(|clue| parse_clue(&board, clue))
        .collect::<Result<_, _>>()?;
    finish(board, json.closed, clues)
}

/// The puzzle's problem; the clues are checked as any problem's are.
fn finish(board: Board, closed: bool, clues: Vec<Clue>) -> Result<Problem, Error> {
    Ok(Problem::new(board).closed(closed).with_clues(clues)?)
}
