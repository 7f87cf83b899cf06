//! The values flags take, as clap parses them, and the library values
//! they stand for.
#![allow(clippy::doc_markdown)]

use std::time::Duration;

use clap::ValueEnum;

use knightsat::count::frontier::{PartSplit, SquareOrder};
use knightsat::encoding::{Acyclicity, Amo, PositionCode, Subtours};
use knightsat::model::board::{Board, MAX_SQUARES};
use knightsat::runtime::deadline::{time_limit, LONGEST_TIME_LIMIT, SHORTEST_TIME_LIMIT};
use knightsat::sat::Backend;
use knightsat::solve::Method;
use knightsat::Format;

/// The encodings (mirrors [`knightsat::EncodingConfig`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum EncodingArg {
    /// x(t, s): after t moves the knight is on square s.
    #[default]
    TimeIndexed,
    /// m(s→w): the move after square s goes to square w.
    Successor,
}

/// How the successor encoding rules out subtours (mirrors [`Subtours`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SubtoursArg {
    /// Cuts added in a loop of solves.
    Lazy,
    /// In the formula (Chinese remainder encoding).
    Complete,
}

impl From<SubtoursArg> for Subtours {
    fn from(subtours: SubtoursArg) -> Subtours {
        match subtours {
            SubtoursArg::Lazy => Subtours::Lazy,
            SubtoursArg::Complete => Subtours::Complete,
        }
    }
}

/// How `solve` finds a tour (mirrors [`Method`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum SolveMethodArg {
    /// The fastest route for the problem: Warnsdorff's rule, then SAT
    /// (successor encoding, built-in CaDiCaL) if it gives up; with clues,
    /// SAT (time-indexed encoding, varisat). Any SAT option (--encoding
    /// and its switches, --solver, --proof, --jobs, --depth) means sat.
    #[default]
    Auto,
    /// The SAT encoding, solved by --solver: complete (a tour, or a proof
    /// that there is none).
    Sat,
    /// Warnsdorff's greedy rule: linear time, boards of millions of
    /// squares; it may give up (exit 3) and never proves that there is no
    /// tour. No clues.
    Warnsdorff,
    /// Backtracking in Warnsdorff's order with pruning: complete (finding
    /// none proves there is no tour, exit 20), clues included; exponential
    /// at worst.
    Backtrack,
    /// Not for solve: the frontier counter counts tours without finding
    /// one (accepted so that the refusal can say so).
    #[value(hide = true)]
    Frontier,
}

/// How `count` counts (mirrors [`Method`]): the same numbers every way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum CountMethodArg {
    /// The fastest route for the problem: backtracking or the frontier
    /// counter, whichever is faster for the board; SAT with clues. Any SAT
    /// option (--encoding and its switches, --solver) means sat.
    #[default]
    Auto,
    /// The SAT encoding, each tour found blocked, until none is left.
    Sat,
    /// Backtracking in Warnsdorff's order with pruning, cube by cube (see
    /// --depth), remembering how the last squares complete; with --limit
    /// or --up-to-symmetry it lists the tours one by one instead.
    Backtrack,
    /// The frontier counter, which counts without listing a tour (a
    /// dynamic program over the squares: its time grows with the board's
    /// width and length, not with the number of tours). Any rectangle,
    /// holes, leapers, --start and --end; no clues, no --up-to-symmetry,
    /// no cubes; --jobs threads share its states.
    Frontier,
    /// Not for count: Warnsdorff's rule finds one tour (accepted so that
    /// the refusal can say so).
    #[value(hide = true)]
    Warnsdorff,
}

impl From<SolveMethodArg> for Method {
    fn from(method: SolveMethodArg) -> Method {
        match method {
            SolveMethodArg::Auto => Method::Auto,
            SolveMethodArg::Sat => Method::Sat,
            SolveMethodArg::Warnsdorff => Method::Warnsdorff,
            SolveMethodArg::Backtrack => Method::Backtrack,
            SolveMethodArg::Frontier => Method::Frontier,
        }
    }
}

impl From<CountMethodArg> for Method {
    fn from(method: CountMethodArg) -> Method {
        match method {
            CountMethodArg::Auto => Method::Auto,
            CountMethodArg::Sat => Method::Sat,
            CountMethodArg::Backtrack => Method::Backtrack,
            CountMethodArg::Frontier => Method::Frontier,
            CountMethodArg::Warnsdorff => Method::Warnsdorff,
        }
    }
}

/// A built-in SAT solver (mirrors the built-in [`Backend`]s).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum BuiltInSolver {
    /// varisat, in Rust.
    #[default]
    Varisat,
    /// CaDiCaL 3, in C++, linked in.
    Cadical,
}

impl From<BuiltInSolver> for Backend {
    fn from(solver: BuiltInSolver) -> Backend {
        match solver {
            BuiltInSolver::Varisat => Backend::Varisat,
            BuiltInSolver::Cadical => Backend::Cadical,
        }
    }
}

/// The frontier counter's order of the squares (mirrors [`SquareOrder`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum SquareOrderArg {
    /// Meet where it applies, on boards at most twice as long as wide
    /// (split by the ends first where the default route says so); rows for
    /// the rest.
    #[default]
    Auto,
    /// Line by line, every line the same way.
    Rows,
    /// Line by line, every other line the other way.
    Snake,
    /// Rows from both ends, joined in the middle (every count).
    Meet,
    /// Anti-diagonal by anti-diagonal: a wider frontier than the line
    /// orders, kept to measure against them.
    Diagonal,
}

impl From<SquareOrderArg> for SquareOrder {
    fn from(order: SquareOrderArg) -> SquareOrder {
        match order {
            SquareOrderArg::Rows => SquareOrder::Rows,
            SquareOrderArg::Snake => SquareOrder::Snake,
            SquareOrderArg::Auto => SquareOrder::Auto,
            SquareOrderArg::Meet => SquareOrder::Meet,
            SquareOrderArg::Diagonal => SquareOrder::Diagonal,
        }
    }
}

/// What `--part` splits (mirrors [`PartSplit`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum PartSplitArg {
    /// The frontier counter's states at one step: any count.
    #[default]
    States,
    /// The pair of squares the paths end on: open counts.
    Ends,
}

impl From<PartSplitArg> for PartSplit {
    fn from(split: PartSplitArg) -> PartSplit {
        match split {
            PartSplitArg::States => PartSplit::States,
            PartSplitArg::Ends => PartSplit::Ends,
        }
    }
}

/// How a tour is printed (mirrors [`Format`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// Numbered grid, highest rank at the top, moves numbered from 1, `#` for a hole.
    #[default]
    Board,
    /// Square names on one line: `a1 c2 b4 …`.
    Moves,
    /// One JSON object: `{"rows": 8, "cols": 8, "closed": false, "tour": ["a1", …]}`.
    Json,
    /// A standalone SVG picture: the board, move numbers and the path.
    Svg,
    /// The move graph for Graphviz, the tour's moves bold: a graph's picture.
    Dot,
}

impl From<FormatArg> for Format {
    fn from(format: FormatArg) -> Format {
        match format {
            FormatArg::Board => Format::Board,
            FormatArg::Moves => Format::Moves,
            FormatArg::Json => Format::Json,
            FormatArg::Svg => Format::Svg,
            FormatArg::Dot => Format::Dot,
        }
    }
}

/// The at-most-one encodings (mirrors [`Amo`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum AmoArg {
    /// One binary clause per pair: n(n−1)/2 clauses, no auxiliary variables.
    Pairwise,
    /// Sinz's sequential counter: 3n−4 clauses, n−1 auxiliary variables.
    Sequential,
    /// Klieber and Kwon's commander encoding, groups of 3, recursive.
    Commander,
    /// Chen's 2-product encoding: a √n x √n grid, recursive.
    Product,
    /// Nguyen and Mai's bimander encoding: pairs with binary commanders
    /// (the default: it meets every varisat target with a tenth of the
    /// naive encoding's clauses on 8x8, docs/notebook.md, "Speed of the time-indexed encoding").
    Bimander,
}

impl From<AmoArg> for Amo {
    fn from(amo: AmoArg) -> Amo {
        match amo {
            AmoArg::Pairwise => Amo::Pairwise,
            AmoArg::Sequential => Amo::Sequential,
            AmoArg::Commander => Amo::Commander,
            AmoArg::Product => Amo::Product,
            AmoArg::Bimander => Amo::Bimander,
        }
    }
}

/// How the complete formula writes a position's residues (mirrors
/// [`PositionCode`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PositionsArg {
    /// One variable per residue of each modulus (the default).
    OneHot,
    /// Heule's CRE as published: bits stepped by binary counters and
    /// linear-feedback shift registers, moduli 3, 5, 7 and a power of two.
    Lfsr,
    /// One binary counter covering every position: the binary ordering
    /// encoding, p(v) = p(u) + 1.
    Binary,
    /// One counter covering every position in unary, "p(v) >= k" for each
    /// k: the unary ordering encoding (nodes squared variables).
    Unary,
}

impl From<PositionsArg> for PositionCode {
    fn from(positions: PositionsArg) -> PositionCode {
        match positions {
            PositionsArg::OneHot => PositionCode::OneHot,
            PositionsArg::Lfsr => PositionCode::Lfsr,
            PositionsArg::Binary => PositionCode::Binary,
            PositionsArg::Unary => PositionCode::Unary,
        }
    }
}

/// How the complete successor formula rules out subtours (mirrors
/// [`Acyclicity`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum AcyclicityArg {
    /// Positions: the Chinese remainder encoding.
    Positions,
    /// Vertex elimination: no cycle among the nodes but the root.
    VertexElimination,
}

impl From<AcyclicityArg> for Acyclicity {
    fn from(acyclicity: AcyclicityArg) -> Acyclicity {
        match acyclicity {
            AcyclicityArg::Positions => Acyclicity::Positions,
            AcyclicityArg::VertexElimination => Acyclicity::VertexElimination,
        }
    }
}

/// How `stats` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StatsFormat {
    /// Aligned columns.
    Table,
    /// One JSON object: vars, clauses, literals, families.
    Json,
}

/// How `puzzle` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PuzzleFormat {
    /// The numbered grid with `.` for blanks (and the solved grid after a
    /// blank line, with --solution).
    Board,
    /// One JSON object: board, clues as N=SQUARE, and the solution with --solution.
    Json,
    /// An SVG picture of the clues (the solved tour with the clues in bold, with --solution).
    Svg,
}

/// Named sets of encoding options.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Preset {
    /// Pairwise at-most-one; no pruning, predecessor clauses or symmetry breaking.
    Naive,
}

pub(super) fn parse_blocks(text: &str) -> Result<(usize, usize), String> {
    let parsed = text
        .split_once(['x', 'X'])
        .and_then(|(r, c)| Some((r.parse().ok()?, c.parse().ok()?)));
    parsed.ok_or_else(|| format!("'{text}' is not RxC, e.g. 2x2"))
}

/// A time limit in seconds, as the library takes it
/// ([`knightsat::runtime::deadline::time_limit`]).
pub(super) fn parse_seconds(text: &str) -> Result<Duration, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .and_then(|seconds| time_limit(seconds).ok())
        .ok_or_else(|| {
            format!(
                "'{text}' is not a number of seconds from {SHORTEST_TIME_LIMIT} to {LONGEST_TIME_LIMIT:e}"
            )
        })
}

/// A whole number, with white space around it allowed as `--board` allows it.
pub(super) fn parse_count(text: &str) -> Result<usize, String> {
    let digits = text.trim();
    digits.parse().map_err(|_| {
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            format!("'{text}' is too large: at most {}", usize::MAX)
        } else {
            format!("'{text}' is not a whole number")
        }
    })
}

/// The side of a square board (`--size`): a whole number whose board can
/// be made.
pub(super) fn parse_size(text: &str) -> Result<usize, String> {
    let digits = text.trim();
    if !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && digits.parse::<usize>().is_err()
    {
        return Err(format!(
            "'{text}' is too large: a board has at most {MAX_SQUARES} squares"
        ));
    }
    let side = parse_count(text)?;
    // The board's own words, as `--board NxN` says them.
    Board::parse_dimensions(&format!("{side}x{side}"))
        .map(|_| side)
        .map_err(|error| error.to_string())
}

/// What `generate` prints: the man page or a shell's completions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Generated {
    /// The man page, in roff (`man -l knightsat.1` shows it).
    Man,
    /// Completions for bash.
    CompleteBash,
    /// Completions for zsh.
    CompleteZsh,
    /// Completions for fish.
    CompleteFish,
    /// Completions for elvish.
    CompleteElvish,
    /// Completions for PowerShell.
    CompletePowershell,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each value `--frontier-order` takes is the library's name for the
    /// order it means, and every order has one.
    #[test]
    fn the_square_orders_take_the_librarys_names() {
        let named: Vec<SquareOrder> = SquareOrderArg::value_variants()
            .iter()
            .map(|&arg| {
                let value = arg.to_possible_value().unwrap();
                let order = SquareOrder::from(arg);
                assert_eq!(value.get_name(), order.name(), "{arg:?}");
                order
            })
            .collect();
        assert_eq!(named, SquareOrder::ALL);
    }

    /// `encode` with no --encoding writes the library's default encoding,
    /// which Python's `encode` writes too.
    #[test]
    fn the_default_encoding_is_the_librarys() {
        let value = EncodingArg::default().to_possible_value().unwrap();
        assert_eq!(
            value.get_name(),
            knightsat::EncodingConfig::default().name()
        );
    }
}
