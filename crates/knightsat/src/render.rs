//! Showing a tour: numbered board grid, move list, JSON, SVG picture.

use std::fmt::Write;

use crate::cnf::Stats;
use crate::model::board::{file_name, Board, Square};
use crate::tour::{BoardJson, Tour, TourJson};

/// Output formats for a tour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// Numbered grid, highest rank at the top, moves numbered from 1, `#` for a hole.
    #[default]
    Board,
    /// Square names on one line: `a1 c2 b4 …`.
    Moves,
    /// `{"rows":8,"cols":8,"closed":false,"tour":["a1",…]}`.
    Json,
    /// A standalone SVG picture: the board, move numbers and the path.
    Svg,
    /// The move graph for Graphviz (`dot`, `neato`): every square or
    /// vertex a node, every move an edge, the tour's moves drawn bold.
    Dot,
}

/// Renders the tour in `format`, ending with a newline.
pub fn render(tour: &Tour, format: Format) -> String {
    match format {
        // A graph has no grid: its tour is the list of its vertices.
        Format::Board if tour.board.graph().is_some() => move_list(tour),
        Format::Board => board_grid(tour),
        Format::Moves => move_list(tour),
        Format::Json if tour.board.graph().is_some() => graph_json(tour),
        Format::Json => json(tour),
        Format::Svg => svg(&Picture::of_tour(tour)),
        Format::Dot => dot(&tour.board, &tour.squares, tour.closed),
    }
}

/// `{"vertices":N,"edges":M,"closed":…,"tour":[…]}`: a graph's tour as
/// JSON, its vertices by their numbers (or `null` for no tour).
#[derive(serde::Serialize)]
struct GraphTourJson<'a> {
    vertices: usize,
    edges: usize,
    closed: bool,
    tour: Option<&'a [usize]>,
}

/// A graph's tour as one line of JSON ([`GraphTourJson`]).
fn graph_json(tour: &Tour) -> String {
    let numbers: Vec<usize> = tour.squares.iter().map(|&v| v + 1).collect();
    let graph = tour.board.graph().expect("a graph's tour");
    let answer = GraphTourJson {
        vertices: graph.vertices(),
        edges: graph.edges(),
        closed: tour.closed,
        tour: Some(&numbers),
    };
    serde_json::to_string(&answer).expect("plain data serializes") + "\n"
}

/// The move graph in Graphviz's DOT language: a node for each square or
/// vertex (by its name), an edge for each move, the moves of `path` (and
/// the closing one, if `closed`) bold and coloured.
pub(crate) fn dot(board: &Board, path: &[usize], closed: bool) -> String {
    let n = board.squares();
    let mut on_path: std::collections::HashSet<(usize, usize)> = path
        .windows(2)
        .map(|pair| (pair[0].min(pair[1]), pair[0].max(pair[1])))
        .collect();
    if let (true, [first, .., last]) = (closed, path) {
        on_path.insert((*first.min(last), *first.max(last)));
    }
    let mut out = String::from("graph tour {\n  node [shape=circle];\n");
    for v in 0..n {
        let _ = writeln!(out, "  \"{}\";", board.name(v));
    }
    for v in 0..n {
        for w in board.moves(v).filter(|&w| w > v) {
            let style = if on_path.contains(&(v, w)) {
                format!(" [penwidth=4, color=\"{INK}\"]")
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "  \"{}\" -- \"{}\"{style};",
                board.name(v),
                board.name(w)
            );
        }
    }
    out.push_str("}\n");
    out
}

/// What stands for the answer when no tour exists, ending with a newline,
/// or empty: the words, for a grid or a move list; for JSON, the object a
/// tour would have had with `"tour":null`, so that a reader of JSON still
/// reads JSON; nothing for SVG, whose reader wants a picture (the exit
/// status says there is none).
pub fn render_no_tour(board: &Board, closed: bool, format: Format) -> String {
    /// `{"rows":3,"cols":3,"closed":false,"tour":null}`.
    #[derive(serde::Serialize)]
    struct NoTourJson {
        #[serde(flatten)]
        board: BoardJson,
        closed: bool,
        tour: (),
    }
    match format {
        Format::Board | Format::Moves => "no tour exists for these constraints\n".to_string(),
        Format::Json if board.graph().is_some() => {
            let graph = board.graph().expect("a graph");
            let answer = GraphTourJson {
                vertices: graph.vertices(),
                edges: graph.edges(),
                closed,
                tour: None,
            };
            serde_json::to_string(&answer).expect("plain data serializes") + "\n"
        }
        Format::Json => {
            let answer = NoTourJson {
                board: BoardJson::from(board),
                closed,
                tour: (),
            };
            serde_json::to_string(&answer).expect("plain data serializes") + "\n"
        }
        Format::Svg => String::new(),
        Format::Dot => dot(board, &[], closed),
    }
}

/// The numbered grid: each square shows the move number (from 1) on which it
/// is visited; ranks labelled on the left, files along the bottom.
pub fn board_grid(tour: &Tour) -> String {
    let numbers = tour.numbers();
    grid(&tour.board, |square| numbers[square].to_string())
}

/// A grid in the board layout: `cell(index)` for each square, `#` for a
/// hole, ranks labelled on the left (highest at the top), files along the
/// bottom, columns right-aligned.
pub(crate) fn grid(board: &Board, cell: impl Fn(usize) -> String) -> String {
    let width = board
        .squares()
        .to_string()
        .len()
        .max(file_name(board.cols() - 1).len());
    let rank_width = board.rows().to_string().len();
    let mut out = String::new();
    for rank in (0..board.rows()).rev() {
        let _ = write!(out, "{:>rank_width$}", rank + 1);
        for file in 0..board.cols() {
            let text = match board.index_at(Square { file, rank }) {
                Some(square) => cell(square),
                None => "#".to_string(),
            };
            let _ = write!(out, " {text:>width$}");
        }
        out.push('\n');
    }
    let _ = write!(out, "{:rank_width$}", "");
    for file in 0..board.cols() {
        let _ = write!(out, " {:>width$}", file_name(file));
    }
    out.push('\n');
    out
}

/// Square names separated by spaces, on one line (written straight into one
/// string: a tour of millions of squares needs no string per square).
pub(crate) fn move_list(tour: &Tour) -> String {
    let mut out = String::with_capacity(tour.squares.len() * 5);
    for (position, &square) in tour.squares.iter().enumerate() {
        if position > 0 {
            out.push(' ');
        }
        if tour.board.graph().is_some() {
            let _ = write!(out, "{}", square + 1);
        } else {
            let _ = write!(out, "{}", tour.board.square(square));
        }
    }
    out.push('\n');
    out
}

/// The tour as one line of JSON ([`TourJson`]).
pub(crate) fn json(tour: &Tour) -> String {
    let mut out = serde_json::to_string(&TourJson::from(tour)).expect("plain data serializes");
    out.push('\n');
    out
}

/// What an SVG picture shows.
#[derive(Clone, Debug)]
pub struct Picture<'a> {
    /// The board, with its holes.
    pub board: &'a Board,
    /// The number written on each square (by index), if any.
    pub labels: Vec<Option<usize>>,
    /// Squares whose number is a clue, drawn in bold.
    pub clues: Vec<bool>,
    /// The squares of the path in order; empty for no path.
    pub path: &'a [usize],
    /// Whether to draw the move from the last square back to the first.
    pub closed: bool,
}

impl<'a> Picture<'a> {
    /// A tour: every square numbered, the path drawn, the start marked.
    pub(crate) fn of_tour(tour: &'a Tour) -> Picture<'a> {
        Picture {
            board: &tour.board,
            labels: tour.numbers().into_iter().map(Some).collect(),
            clues: vec![false; tour.board.squares()],
            path: &tour.squares,
            closed: tour.closed,
        }
    }
}

const CELL: usize = 48;
const MARGIN: usize = 24;
const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";
const HOLE: &str = "#3a3a3a";
const INK: &str = "#1f3a93";

/// A standalone SVG picture: squares in two colours labelled with their
/// numbers, holes dark, rank and file names in the margin, the path as
/// lines through square centres (the closing move dashed), the start ringed
/// and the end dotted. Every element carries a class (`square`, `hole`,
/// `number`, `move`, `closing-move`, `start`, `end`) naming what it draws.
/// Drawn layer by layer, bottom to top.
pub fn svg(picture: &Picture) -> String {
    let board = picture.board;
    let (width, height) = (
        board.cols() * CELL + 2 * MARGIN,
        board.rows() * CELL + 2 * MARGIN,
    );
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif">"#
    );
    let _ = writeln!(out, r"<title>{}</title>", svg_title(picture));
    let _ = writeln!(
        out,
        r#"<rect class="background" x="0" y="0" width="{width}" height="{height}" fill="white"/>"#
    );
    svg_squares(board, &mut out);
    svg_coordinates(board, height, &mut out);
    svg_path(picture, &mut out);
    svg_numbers(picture, &mut out);
    out.push_str("</svg>\n");
    out
}

/// The centre of `square` in the picture of `board`.
fn svg_centre(board: &Board, square: usize) -> (usize, usize) {
    let s = board.square(square);
    (
        MARGIN + s.file * CELL + CELL / 2,
        MARGIN + (board.rows() - 1 - s.rank) * CELL + CELL / 2,
    )
}

/// The picture's title: a tour, open or closed, or a puzzle, solved or
/// not (a puzzle's picture has no path to call open or closed until it
/// is solved).
fn svg_title(picture: &Picture) -> String {
    let board = picture.board;
    let kind = match (picture.path.is_empty(), picture.closed) {
        (true, _) => "",
        (false, true) => "closed ",
        (false, false) => "open ",
    };
    let leaper = board.leaper().name();
    match (picture.clues.contains(&true), picture.path.is_empty()) {
        (true, true) => format!("{leaper} tour puzzle on the {board} board"),
        (true, false) => format!("{leaper} tour puzzle on the {board} board, solved ({kind}tour)"),
        (false, _) => format!("{kind}{leaper} tour of the {board} board"),
    }
}

/// The squares in their two colours, and the holes.
fn svg_squares(board: &Board, out: &mut String) {
    for rank in 0..board.rows() {
        for file in 0..board.cols() {
            let (x, y) = (
                MARGIN + file * CELL,
                MARGIN + (board.rows() - 1 - rank) * CELL,
            );
            let square = Square { file, rank };
            let (class, fill) = match board.index_at(square) {
                None => ("hole", HOLE),
                Some(_) if (file + rank) % 2 == 1 => ("square", LIGHT),
                Some(_) => ("square", DARK),
            };
            let _ = writeln!(
                out,
                r#"<rect class="{class}" data-square="{square}" x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}"/>"#
            );
        }
    }
}

/// The rank numbers and file letters in the margin.
fn svg_coordinates(board: &Board, height: usize, out: &mut String) {
    for rank in 0..board.rows() {
        let y = MARGIN + (board.rows() - 1 - rank) * CELL + CELL / 2 + 4;
        let _ = writeln!(
            out,
            r#"<text class="coordinate" x="{}" y="{y}" text-anchor="middle" font-size="12" fill="gray">{}</text>"#,
            MARGIN / 2,
            rank + 1
        );
    }
    for file in 0..board.cols() {
        let x = MARGIN + file * CELL + CELL / 2;
        let _ = writeln!(
            out,
            r#"<text class="coordinate" x="{x}" y="{}" text-anchor="middle" font-size="12" fill="gray">{}</text>"#,
            height - MARGIN / 2 + 4,
            file_name(file)
        );
    }
}

/// The path's moves (the closing move dashed), its start ringed and its
/// end dotted.
fn svg_path(picture: &Picture, out: &mut String) {
    let (board, path) = (picture.board, picture.path);
    let mut draw_move = |class: &str, from: usize, to: usize, dash: &str| {
        let ((x1, y1), (x2, y2)) = (svg_centre(board, from), svg_centre(board, to));
        let _ = writeln!(
            out,
            r#"<line class="{class}" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{INK}" stroke-width="3" stroke-opacity="0.6" stroke-linecap="round"{dash}/>"#
        );
    };
    for pair in path.windows(2) {
        draw_move("move", pair[0], pair[1], "");
    }
    if let (true, [first, .., last]) = (picture.closed, path) {
        draw_move("closing-move", *last, *first, r#" stroke-dasharray="6 5""#);
    }
    if let (Some(&first), Some(&last)) = (path.first(), path.last()) {
        let (x, y) = svg_centre(board, first);
        let _ = writeln!(
            out,
            r#"<circle class="start" cx="{x}" cy="{y}" r="{}" fill="none" stroke="{INK}" stroke-width="3"/>"#,
            CELL / 2 - 4
        );
        let (x, y) = svg_centre(board, last);
        let _ = writeln!(
            out,
            r#"<circle class="end" cx="{x}" cy="{y}" r="5" fill="{INK}"/>"#
        );
    }
}

/// The squares' numbers, clues bold, each with a halo of its square's
/// colour.
fn svg_numbers(picture: &Picture, out: &mut String) {
    let board = picture.board;
    for (square, label) in picture.labels.iter().enumerate() {
        let Some(number) = label else { continue };
        let (x, y) = svg_centre(board, square);
        let weight = if picture.clues[square] {
            r#" font-weight="bold" font-size="18""#
        } else {
            r#" font-size="14""#
        };
        let halo = if board.colour(square) { LIGHT } else { DARK };
        let _ = writeln!(
            out,
            r#"<text class="number" x="{x}" y="{}" text-anchor="middle"{weight} fill="black" stroke="{halo}" stroke-width="3" paint-order="stroke">{number}</text>"#,
            y + 5
        );
    }
}

/// The `stats` table: clauses, literals and auxiliary variables per
/// constraint family, a total, and the variable counts (`x_vars` of the
/// encoding's own variables, called `what`, `live_x` of them left after
/// pruning).
pub fn stats_table(stats: &Stats, what: &str, x_vars: usize, live_x: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<22} {:>12} {:>12} {:>10}",
        "family", "clauses", "literals", "aux vars"
    );
    let mut row = |name: &str, clauses: usize, literals: usize, aux: usize| {
        let _ = writeln!(out, "{name:<22} {clauses:>12} {literals:>12} {aux:>10}");
    };
    for family in &stats.families {
        row(
            family.name,
            family.clauses,
            family.literals,
            family.aux_vars,
        );
    }
    row("total", stats.clauses, stats.literals, stats.vars - x_vars);
    let _ = writeln!(
        out,
        "variables: {} ({what}: {live_x} live of {x_vars} after pruning)",
        stats.vars
    );
    out
}
