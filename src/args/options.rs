//! The groups of options several commands share, as clap sees them.
#![allow(clippy::doc_markdown)]

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use knightsat::model::board::{Board, Leaper};

use super::values::{
    parse_blocks, parse_count, parse_seconds, parse_size, AmoArg, EncodingArg, FormatArg,
    MethodArg, Preset, SubtoursArg,
};

/// What `solve` is asked for, beyond the problem and its encoding.
#[derive(Args)]
pub struct SolveArgs {
    /// How to find the tour.
    #[arg(long, value_enum, default_value_t)]
    pub method: MethodArg,
    /// With --method warnsdorff: break ties at random from this seed in
    /// every attempt (default: the fixed move order first, then random
    /// ties from seed 0).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// How to print the tour.
    #[arg(long, value_enum, default_value_t)]
    pub format: FormatArg,
    /// The SAT solver. `varisat` and `cadical` are built in (they run in
    /// this process, and alone enumerate, prove and take --jobs). Any other
    /// name is a solver program: a path if it holds a `/` (so
    /// `--solver /usr/bin/cadical` runs CaDiCaL's program), else found on
    /// PATH (`kissat`, `minisat`, `picosat`, …); it reads DIMACS and prints
    /// SAT-competition output.
    /// Giving it means --method sat [default: varisat].
    #[arg(long, value_name = "SOLVER")]
    pub solver: Option<String>,
    /// An extra argument for the solver program (repeatable).
    #[arg(long, value_name = "ARG", allow_hyphen_values = true)]
    pub solver_arg: Vec<String>,
    /// Give up after this many seconds (the solver is stopped); at least
    /// 0.001. With --all, the tours printed by then are a partial list:
    /// stderr says how many, and the exit status is 124.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub timeout: Option<Duration>,
    /// Print every tour, not just one (built-in solvers only; JSON Lines with
    /// --format json). Tours are sequences: see `count`. With --timeout, a
    /// list cut short by it is partial (exit 124), whatever the method.
    #[arg(long)]
    pub all: bool,
    /// With --all: stop after this many tours (at least 1).
    #[arg(long, value_name = "K", requires = "all", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
    /// When no tour exists, write the built-in solver's DRAT proof of that here (check
    /// it with `certify`), and the CNF it refers to beside it. When a tour
    /// exists, no file is written or changed.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["all"])]
    pub proof: Option<PathBuf>,
    /// Where to write the CNF the proof refers to (default: the proof's
    /// path with the extension .cnf).
    #[arg(long, value_name = "FILE", requires = "proof")]
    pub cnf_out: Option<PathBuf>,
    /// Search even where the feasibility gate already proves that no tour
    /// exists (by a theorem: Schwenk's for closed tours, the
    /// classification of open ones; by colour counts, the move graph's
    /// shape, forced moves or distances between clues).
    #[arg(long)]
    pub no_theory: bool,
    /// Threads, each solving cubes (see `cubes`) with the built-in solver
    /// in a session of its own; the first tour found wins and stops the
    /// others. 0 means one per core. Without --all or --proof.
    #[arg(long, value_name = "N", default_value_t = 1, conflicts_with_all = ["all", "proof"])]
    pub jobs: usize,
    /// Print on stderr how the search went: the route that answered (the
    /// gate's reason, the method, encoding and solver), and with the
    /// successor encoding's lazy subtours the models solved, subtour cuts
    /// added, and whether the tour was patched together from subtours.
    #[arg(short, long)]
    pub verbose: bool,
    /// Cube depth in moves for --jobs (default: the smallest depth giving
    /// at least 4 cubes per thread, at most 12).
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u64).range(1..), conflicts_with_all = ["all", "proof"])]
    pub depth: Option<u64>,
}

/// The board's rectangle: by size, by side, or drawn in a file.
#[derive(Args)]
#[group(multiple = false)]
pub struct BoardArgs {
    /// Board as ROWSxCOLS: 3x4 is 3 ranks by 4 files.
    #[arg(long, value_name = "ROWSxCOLS", value_parser = Board::parse_dimensions)]
    pub board: Option<(usize, usize)>,
    /// Square board N x N (same as --board NxN).
    #[arg(long, value_name = "N", value_parser = parse_size)]
    pub size: Option<usize>,
    /// Board drawn in ASCII art, rank 1 on the bottom line: `.` a square, `#`
    /// or a space a hole; every line the same width. `-` reads stdin.
    #[arg(long, value_name = "FILE")]
    pub board_file: Option<PathBuf>,
}

/// The board and the piece on it.
#[derive(Args)]
pub struct ShapeArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    /// Remove these squares from the board, e.g. c3,d4 (comma-separated or repeated).
    #[arg(long, value_name = "SQUARES", value_delimiter = ',')]
    pub holes: Vec<String>,
    /// The piece: the (A,B)-leaper jumps A files and B ranks or B files and
    /// A ranks. 1,2 knight (the default); 1,3 camel; 2,3 zebra; 1,4 giraffe;
    /// 0,1 wazir… A JSON tour or puzzle names its own: this must agree.
    #[arg(long, value_name = "A,B")]
    pub leaper: Option<Leaper>,
}

/// What the tour must do.
#[derive(Args)]
pub struct ProblemArgs {
    #[command(flatten)]
    pub shape: ShapeArgs,
    /// Closed tour: the last square is a move from the first. Without
    /// --start, --end or clues the start is fixed on the first square (a1),
    /// which loses no tour.
    #[arg(long)]
    pub closed: bool,
    /// Start on this square, e.g. a1 (files a, b, …; ranks 1, 2, … from the bottom).
    #[arg(long, value_name = "SQUARE")]
    pub start: Option<String>,
    /// End on this square.
    #[arg(long, value_name = "SQUARE")]
    pub end: Option<String>,
    /// Clue: move N is on SQUARE, counting the start as move 1 as the board
    /// grid does, e.g. --at 5=c3 (repeatable).
    #[arg(long, value_name = "N=SQUARE", allow_hyphen_values = true)]
    pub at: Vec<String>,
    /// A numbered-grid puzzle to solve: the layout `--format board` prints,
    /// `.` or 0 for a blank square, `#` for a hole (or the JSON `knightsat
    /// puzzle --format json` writes). The grid gives the board. `-` reads stdin.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["board", "size", "board_file", "holes"])]
    pub puzzle: Option<PathBuf>,
}

/// The options that determine the formula.
#[derive(Args)]
pub struct EncodingArgs {
    #[command(flatten)]
    pub problem: ProblemArgs,
    /// The SAT encoding: `time-indexed` (x(t, s), "after t moves the
    /// knight is on s": N² variables, clues, cubes) or `successor` (one
    /// variable per move, "the move after s goes to w": linear in the
    /// board, for large boards; clues pin positions through the Chinese
    /// remainder counters, which then make the formula complete).
    #[arg(long, value_enum)]
    pub encoding: Option<EncodingArg>,
    /// With --encoding successor, how subtours (cycles that miss squares)
    /// are ruled out: `lazy` solves, forbids the model's subtours with
    /// clauses and solves again (solve and count; stats shows the formula
    /// before any cut; encode refuses it); `complete` puts the Chinese
    /// remainder encoding (Heule, SAT 2021) into the formula, so that
    /// every model is a tour [default: lazy for solve and count, complete
    /// for encode and stats].
    #[arg(long, value_enum)]
    pub subtours: Option<SubtoursArg>,
    /// With --encoding successor and lazy subtours, never patch a model's
    /// subtours together into a tour (Karp-style exchanges of two moves):
    /// rely on cuts alone, for comparisons. Counting never patches; the
    /// complete formula has no subtours to patch (refused with it).
    #[arg(long)]
    pub no_patching: bool,
    /// Split clauses longer than K literals (K ≥ 3) with fresh Tseytin variables.
    #[arg(long, value_name = "K", value_parser = parse_count)]
    pub max_clause_len: Option<usize>,
    /// At-most-one encoding [default: bimander; pairwise with --preset naive
    /// or --encoding successor].
    #[arg(long, value_enum)]
    pub amo: Option<AmoArg>,
    /// Leave out the redundant predecessor clauses (x(t+1, s) → some
    /// neighbour of s at step t), which speed solving up a great deal.
    #[arg(long)]
    pub no_predecessor: bool,
    /// Leave out the redundant move variables m(a, b) linked to the steps,
    /// with exactly one move into and out of each square; they make clued
    /// boards from 24x24 up solve many times faster.
    #[arg(long)]
    pub no_moves: bool,
    /// Do not prune by colour (a knight alternates colours, so a square can
    /// only be reached at steps of one parity; a leaper with A+B even keeps
    /// its colour).
    #[arg(long)]
    pub no_parity: bool,
    /// Do not prune squares further by moves from the start, end or a clue
    /// than the steps between allow.
    #[arg(long)]
    pub no_reachability: bool,
    /// Do not break symmetries (start on one square per orbit of the board's
    /// symmetries for open tours; no reversed closed tours). `count` never
    /// breaks them unless --up-to-symmetry; clues turn them off.
    #[arg(long)]
    pub no_symmetry_breaking: bool,
    /// `naive`: the straightforward encoding (pairwise, nothing pruned,
    /// redundant or symmetry-breaking), for comparisons. --amo still
    /// chooses the at-most-one encoding.
    #[arg(long, value_enum)]
    pub preset: Option<Preset>,
    /// Block schedule for large boards: cut the board into R bands of ranks
    /// by C bands of files and tour the blocks one after another in snake
    /// order from a1's block. Every tour found is a tour, but this may miss
    /// tours (or all of them): off by default.
    #[arg(long, value_name = "RxC", value_parser = parse_blocks)]
    pub blocks: Option<(usize, usize)>,
}
