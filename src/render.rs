//! Showing a tour: numbered board grid, move list, JSON.

use std::fmt::Write;

use crate::board::file_name;
use crate::cnf::Stats;
use crate::tour::{Tour, TourJson};

/// Output formats for a tour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Numbered grid, highest rank at the top, moves numbered from 1.
    #[default]
    Board,
    /// Square names on one line: `a1 c2 b4 …`.
    Moves,
    /// `{"rows":8,"cols":8,"closed":false,"tour":["a1",…]}`.
    Json,
}

/// Renders the tour in `format`, ending with a newline.
pub fn render(tour: &Tour, format: Format) -> String {
    match format {
        Format::Board => board_grid(tour),
        Format::Moves => move_list(tour),
        Format::Json => json(tour),
    }
}

/// The numbered grid: each square shows the move number (from 1) on which it
/// is visited; ranks labelled on the left, files along the bottom.
pub fn board_grid(tour: &Tour) -> String {
    let board = &tour.board;
    let mut number = vec![0usize; board.squares()];
    for (position, &square) in tour.squares.iter().enumerate() {
        number[square] = position + 1;
    }
    let cell = board
        .squares()
        .to_string()
        .len()
        .max(file_name(board.cols() - 1).len());
    let rank_width = board.rows().to_string().len();
    let mut out = String::new();
    for rank in (0..board.rows()).rev() {
        let _ = write!(out, "{:>rank_width$}", rank + 1);
        for file in 0..board.cols() {
            let _ = write!(out, " {:>cell$}", number[rank * board.cols() + file]);
        }
        out.push('\n');
    }
    let _ = write!(out, "{:rank_width$}", "");
    for file in 0..board.cols() {
        let _ = write!(out, " {:>cell$}", file_name(file));
    }
    out.push('\n');
    out
}

/// Square names separated by spaces, on one line.
pub fn move_list(tour: &Tour) -> String {
    let mut out = tour.names().join(" ");
    out.push('\n');
    out
}

/// The tour as one line of JSON ([`TourJson`]).
pub fn json(tour: &Tour) -> String {
    let mut out = serde_json::to_string(&TourJson::from(tour)).expect("plain data serializes");
    out.push('\n');
    out
}

/// The `stats` table: clauses, literals and auxiliary variables per
/// constraint family, a total, and the variable counts (`x_vars` x variables,
/// `live_x` of them left after pruning).
pub fn stats_table(stats: &Stats, x_vars: usize, live_x: usize) -> String {
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
        "variables: {} (x variables: {live_x} live of {x_vars} after pruning)",
        stats.vars
    );
    out
}
