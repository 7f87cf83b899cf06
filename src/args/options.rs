//! The groups of options several commands share, as clap sees them.
//!
//! Each doc comment's first paragraph is the line `-h` shows; the whole
//! comment is what `--help` shows. Every option sits under one of the
//! headings below, which `--help` lists in the order a command's options
//! first use them: the problem, then how, what is printed, the limits,
//! and last the encoding's tuning.
#![allow(clippy::doc_markdown)]

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use knightsat::model::board::{Board, Leaper};
use knightsat::runtime::memory::default_memory_budget_mib;

use super::values::{
    parse_blocks, parse_count, parse_seconds, parse_size, AcyclicityArg, AmoArg, EncodingArg,
    FormatArg, PositionsArg, Preset, SolveMethodArg, SubtoursArg,
};

/// The heading of the options that say what is to be toured.
pub const PROBLEM: &str = "Problem";
/// The heading of the options that choose how.
pub const METHOD: &str = "Method";
/// The heading of the options that choose what is printed or written.
pub const OUTPUT: &str = "Output";
/// The heading of the time and memory limits.
pub const LIMITS: &str = "Limits";
/// The heading of the options that shape the SAT formula.
pub const ENCODING: &str = "Encoding";

/// What `solve` is asked for, beyond the problem and its encoding.
#[derive(Args)]
pub struct SolveArgs {
    /// How to find the tour [default: auto: Warnsdorff's rule, then SAT].
    #[arg(long, value_enum, default_value_t, hide_default_value = true, help_heading = METHOD)]
    pub method: SolveMethodArg,
    /// The SAT solver: varisat, cadical, or a solver program.
    ///
    /// `varisat` and `cadical` are built in (they run in this process,
    /// and alone enumerate, prove and take --jobs). Any other name is a
    /// solver program: a path if it holds a `/` (so `--solver
    /// /usr/bin/cadical` runs CaDiCaL's program), else found on PATH
    /// (`kissat`, `minisat`, `picosat`, …); it reads DIMACS and prints
    /// SAT-competition output. Giving it means --method sat.
    /// [default: varisat with --method sat; the default route picks
    /// built-in CaDiCaL for the successor encoding, varisat for clues]
    #[arg(long, value_name = "SOLVER", help_heading = METHOD)]
    pub solver: Option<String>,
    /// An extra argument for the solver program (repeatable).
    #[arg(long, value_name = "ARG", allow_hyphen_values = true, help_heading = METHOD)]
    pub solver_arg: Vec<String>,
    /// Threads solving cubes with the built-in solver.
    ///
    /// Each thread solves cubes (see `cubes`) in a session of its own;
    /// the first tour found wins and stops the others. 0 means one per
    /// core. Means --method sat. Not with --all or --proof.
    #[arg(long, value_name = "N", default_value_t = 1, conflicts_with_all = ["all", "proof"], help_heading = METHOD)]
    pub jobs: usize,
    /// Cube depth in moves for --jobs.
    ///
    /// Default: the smallest depth giving at least 4 cubes per thread, at
    /// most 12. A depth past the tour's last move is the whole tour.
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u64).range(1..), conflicts_with_all = ["all", "proof"], help_heading = METHOD)]
    pub depth: Option<u64>,
    /// With --method warnsdorff: break ties at random from this seed.
    ///
    /// In every attempt (default: the fixed move order first, then random
    /// ties from seed 0).
    #[arg(long, value_name = "N", allow_negative_numbers = true, help_heading = METHOD)]
    pub seed: Option<u64>,
    /// With --solver cadical: cut each subtour inside the solver's search.
    ///
    /// The successor encoding's lazy subtours are cut the moment the
    /// solver's moves close one, through CaDiCaL's external propagator
    /// (IPASIR-UP), not only between whole models. The default route on a
    /// graph races a search with it against one without. A complete
    /// formula has no subtours to cut.
    #[arg(long, help_heading = METHOD)]
    pub watch_subtours: bool,
    /// Search even where the feasibility gate proves there is no tour.
    ///
    /// The gate proves it by a theorem (Schwenk's for closed tours, the
    /// classification of open ones), by colour counts, the move graph's
    /// shape, forced moves or distances between clues.
    #[arg(long, help_heading = METHOD)]
    pub no_theory: bool,
    /// How to print the tour.
    #[arg(long, value_enum, default_value_t, help_heading = OUTPUT)]
    pub format: FormatArg,
    /// Print every tour, not just one (built-in solvers only).
    ///
    /// JSON Lines with --format json. Tours are sequences: see `count`.
    /// With --timeout, a list cut short by it is partial (exit 124),
    /// whatever the method.
    #[arg(long, help_heading = OUTPUT)]
    pub all: bool,
    /// With --all: stop after this many tours (at least 1).
    #[arg(long, value_name = "K", allow_negative_numbers = true, requires = "all", value_parser = clap::value_parser!(u64).range(1..), help_heading = OUTPUT)]
    pub limit: Option<u64>,
    /// Print on stderr the route that answered, and how the search went.
    ///
    /// The gate's reason, the method, encoding and solver; with the
    /// successor encoding's lazy subtours, the models solved, subtour cuts
    /// added, whether the tour was patched together from subtours, and
    /// with --watch-subtours the subtours cut during the search.
    #[arg(short, long, help_heading = OUTPUT)]
    pub verbose: bool,
    /// When no tour exists, write a DRAT proof of that here.
    ///
    /// The built-in solver's proof, checked with `certify`, and the CNF it
    /// refers to beside it. When a tour exists, no file is written or
    /// changed. `-` is standard output (then give --cnf-out a file), and
    /// the answer goes to stderr.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["all"], help_heading = OUTPUT)]
    pub proof: Option<PathBuf>,
    /// Where to write the CNF the proof refers to.
    ///
    /// Default: the proof's path with the extension .cnf. `-` is
    /// standard output, and the answer goes to stderr.
    #[arg(long, value_name = "FILE", requires = "proof", help_heading = OUTPUT)]
    pub cnf_out: Option<PathBuf>,
    /// Give up after this many seconds (at least 0.001), exit 124.
    ///
    /// The solver is stopped. With --all, the tours printed by then are a
    /// partial list: stderr says how many.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = parse_seconds, help_heading = LIMITS)]
    pub timeout: Option<Duration>,
    #[command(flatten)]
    pub memory: MemoryBudgetArgs,
}

/// The memory the in-process solvers and counters may use.
#[derive(Args)]
pub struct MemoryBudgetArgs {
    /// Memory for the in-process solvers and counters, in MiB.
    ///
    /// A formula whose estimate is larger is refused before it is built,
    /// and so are cubes held for --jobs or --depth that would take more;
    /// the frontier counter's states stay within it. The whole process
    /// takes some 20 to 35 MiB more (its code, buffers and threads: 22
    /// MiB over a budget of 16 counting 6x7, 32 over 133 counting 7x7 by
    /// rows with states on disk). Solver programs read the CNF
    /// from disk and are not limited. The default is what this machine
    /// has room for: the memory available (and inside a cgroup with a
    /// limit, what the limit leaves), less a sixteenth or 1 GiB, or a
    /// third of the address-space limit (`ulimit -v`) where that is lower;
    /// 4096 where the machine's memory is not known. The default shown is
    /// the one that runs.
    #[arg(long, value_name = "MiB", allow_negative_numbers = true, default_value_t = default_memory_budget_mib(), value_parser = clap::value_parser!(u64).range(1..), help_heading = LIMITS)]
    pub memory_budget: u64,
}

/// The board's rectangle: by size, by side, or drawn in a file.
#[derive(Args)]
#[group(multiple = false)]
pub struct BoardArgs {
    /// Board as ROWSxCOLS: 3x4 is 3 ranks by 4 files.
    #[arg(long, value_name = "ROWSxCOLS", allow_hyphen_values = true, value_parser = Board::parse_dimensions, help_heading = PROBLEM)]
    pub board: Option<(usize, usize)>,
    /// Square board N x N (same as --board NxN).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = parse_size, help_heading = PROBLEM)]
    pub size: Option<usize>,
    /// Board drawn in a file: `.` a square, `#` a hole.
    ///
    /// ASCII art, rank 1 on the bottom line: `.` a square, `#` or a space
    /// a hole; every line the same width. `-` reads stdin.
    #[arg(long, value_name = "FILE", help_heading = PROBLEM)]
    pub board_file: Option<PathBuf>,
    /// A graph instead of a board: a Hamiltonian path or cycle of it.
    ///
    /// DIMACS (`p edge N M`, `e U V`), TSPLIB HCP (`TYPE : HCP`,
    /// `EDGE_DATA_SECTION`; a cycle is then asked for) or one edge `U V` a
    /// line, told apart by content; vertices are numbered from 1 as in the
    /// file, and --start, --end and --at name them by number. `-` reads
    /// stdin. Solved by SAT with the successor encoding.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["holes", "leaper"], help_heading = PROBLEM)]
    pub graph: Option<PathBuf>,
}

/// The board and the piece on it.
#[derive(Args)]
pub struct ShapeArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    /// Remove these squares from the board, e.g. c3,d4.
    ///
    /// Comma-separated or repeated.
    #[arg(long, value_name = "SQUARES", value_delimiter = ',', help_heading = PROBLEM)]
    pub holes: Vec<String>,
    /// The piece, an (A,B)-leaper [default: 1,2, the knight].
    ///
    /// The (A,B)-leaper jumps A files and B ranks or B files and A ranks:
    /// 1,2 knight (the default); 1,3 camel; 2,3 zebra; 1,4 giraffe; 0,1
    /// wazir… A JSON tour or puzzle names its own: this must agree.
    #[arg(long, value_name = "A,B", allow_hyphen_values = true, help_heading = PROBLEM)]
    pub leaper: Option<Leaper>,
}

/// What the tour must do.
#[derive(Args)]
pub struct ProblemArgs {
    #[command(flatten)]
    pub shape: ShapeArgs,
    /// Closed tour: the last square is a move from the first.
    ///
    /// Without --start, --end or clues the start is fixed on the first
    /// square (a1), which loses no tour.
    #[arg(long, help_heading = PROBLEM)]
    pub closed: bool,
    /// Start on this square, e.g. a1.
    ///
    /// Files a, b, … from the left; ranks 1, 2, … from the bottom.
    #[arg(long, value_name = "SQUARE", help_heading = PROBLEM)]
    pub start: Option<String>,
    /// End on this square.
    #[arg(long, value_name = "SQUARE", help_heading = PROBLEM)]
    pub end: Option<String>,
    /// Clue: move N is on SQUARE, e.g. --at 5=c3 (repeatable).
    ///
    /// The start is move 1, as the board grid numbers it.
    #[arg(long, value_name = "N=SQUARE", allow_hyphen_values = true, help_heading = PROBLEM)]
    pub at: Vec<String>,
    /// A numbered-grid puzzle: its grid gives the board, its numbers clues.
    ///
    /// The layout `--format board` prints, `.` or 0 for a blank square,
    /// `#` for a hole (or the JSON `knightsat puzzle --format json`
    /// writes). `-` reads stdin.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["board", "size", "board_file", "graph", "holes"], help_heading = PROBLEM)]
    pub puzzle: Option<PathBuf>,
}

/// The options that shape the SAT formula.
#[derive(Args)]
pub struct EncodingArgs {
    /// The SAT encoding: time-indexed (the default) or successor.
    ///
    /// `time-indexed` (the default): x(t, s), "after t moves the knight is on s": N²
    /// variables, clues, cubes. `successor`: one variable per move, "the
    /// move after s goes to w": linear in the board, for large boards;
    /// clues pin positions through the Chinese remainder counters, which
    /// then make the formula complete. Giving it means --method sat (the
    /// default route picks its own encoding). With none given, `encode`
    /// and `stats` write the successor encoding whole on a board past the
    /// time-indexed encoding's 8192 squares.
    #[arg(long, value_enum, hide_possible_values = true, help_heading = ENCODING)]
    pub encoding: Option<EncodingArg>,
    /// Successor encoding: lazy or complete ruling out of subtours.
    ///
    /// `lazy` solves, forbids the model's subtours with clauses and solves
    /// again (solve and count; stats shows the formula before any cut;
    /// encode refuses it); `complete` puts the Chinese remainder encoding
    /// (Heule, SAT 2021) into the formula, so that every model is a tour.
    /// [default: lazy for solve and count, complete for encode and stats]
    #[arg(long, value_enum, hide_possible_values = true, help_heading = ENCODING)]
    pub subtours: Option<SubtoursArg>,
    /// Successor encoding, lazy subtours: never patch subtours together.
    ///
    /// Never patch a model's subtours together into a tour (Karp-style
    /// exchanges of two moves): rely on cuts alone, for comparisons.
    /// Counting never patches; the complete formula has no subtours to
    /// patch (refused with it).
    #[arg(long, help_heading = ENCODING)]
    pub no_patching: bool,
    /// Successor encoding, lazy subtours: cut each subtour on its own.
    ///
    /// Cut each of a model's subtours, not the groups that patching's
    /// exchanges merge them into (the default, which solved FHCP graphs
    /// that cutting each subtour did not): for comparisons. Shown in
    /// `--help` only.
    #[arg(long, hide_short_help = true, help_heading = ENCODING)]
    pub no_merged_cuts: bool,
    /// Split clauses longer than K literals (K ≥ 3) with Tseytin variables.
    #[arg(long, value_name = "K", allow_negative_numbers = true, value_parser = parse_count, help_heading = ENCODING)]
    pub max_clause_len: Option<usize>,
    /// At-most-one encoding [default: bimander].
    ///
    /// The default is bimander for the time-indexed encoding, pairwise
    /// with --preset naive or --encoding successor.
    #[arg(long, value_enum, help_heading = ENCODING)]
    pub amo: Option<AmoArg>,
    /// Leave out the redundant predecessor clauses.
    ///
    /// x(t+1, s) → some neighbour of s at step t: they speed solving up a
    /// great deal.
    #[arg(long, help_heading = ENCODING)]
    pub no_predecessor: bool,
    /// Leave out the redundant move variables m(a, b).
    ///
    /// Linked to the steps, with exactly one move into and out of each
    /// square; they make clued boards from 24x24 up solve many times
    /// faster.
    #[arg(long, help_heading = ENCODING)]
    pub no_moves: bool,
    /// Do not prune by colour.
    ///
    /// A knight alternates colours, so a square can only be reached at
    /// steps of one parity; a leaper with A+B even keeps its colour. In
    /// the successor encoding's positions (complete or clued formulas),
    /// the same rule on any bipartite move graph: a node's position has
    /// the parity its side gives it.
    #[arg(long, help_heading = ENCODING)]
    pub no_parity: bool,
    /// Successor encoding with positions: add the support clauses.
    ///
    /// Each move's position clause read backwards: the node a move leads
    /// to fixes the position of the node it comes from. Redundant, and off
    /// by default: kissat was slower with them on closed 20x20 and 30x30
    /// and on FHCP graphs (docs/encodings.md).
    #[arg(long, hide_short_help = true, help_heading = ENCODING)]
    pub position_support: bool,
    /// Successor encoding with positions: moduli for laps of N positions.
    ///
    /// The Chinese remainder moduli then cover at least N positions (as
    /// Heule's "cycle length", 420 his suggestion) and a lap counter
    /// counts the laps, so the formula stays exact with fewer residues
    /// (docs/encodings.md). Without it: one lap (moduli for every node)
    /// on a bipartite move graph, every knight board; laps of 420 on any
    /// other graph, where kissat solved more FHCP graphs with them.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..), hide_short_help = true, help_heading = ENCODING)]
    pub lap_length: Option<u32>,
    /// Successor encoding with positions: how each residue is written.
    ///
    /// one-hot (the default): a variable per residue, knightsat's moduli.
    /// lfsr: Heule's Chinese remainder encoding as published, a few bits
    /// per modulus (3, 5, 7 and a power of two) stepped by binary counters
    /// and linear-feedback shift registers. binary: the binary ordering
    /// encoding, one counter in bits covering every position,
    /// p(v) = p(u) + 1. unary: the unary ordering encoding, one counter in
    /// unary, "p(v) >= k" for every k (docs/encodings.md compares them).
    #[arg(long, value_enum, value_name = "CODE", hide_short_help = true, help_heading = ENCODING)]
    pub positions: Option<PositionsArg>,
    /// Successor encoding, complete: how subtours are ruled out.
    ///
    /// positions: each node's distance from the root in residues (the
    /// Chinese remainder encoding, written as --positions says).
    /// vertex-elimination: no cycle among the nodes but the root, the
    /// nodes eliminated least degree first, a shortcut clause for every
    /// pair of a node's neighbours (Rankooh and Rintanen, AAAI 2022).
    /// Without it: vertex elimination on a graph from a file where its
    /// clauses stay few per edge, positions otherwise and on boards
    /// (docs/encodings.md measures both).
    #[arg(long, value_enum, value_name = "HOW", hide_short_help = true, help_heading = ENCODING)]
    pub acyclicity: Option<AcyclicityArg>,
    /// Do not prune squares by distance from the start, end or clues.
    ///
    /// Squares further by moves from the start, end or a clue than the
    /// steps between allow.
    #[arg(long, help_heading = ENCODING)]
    pub no_reachability: bool,
    /// Do not break the board's symmetries.
    ///
    /// Symmetry breaking starts open tours on one square per orbit of the
    /// board's symmetries and leaves out reversed closed tours. `count`
    /// never breaks them unless --up-to-symmetry; clues turn them off.
    #[arg(long, help_heading = ENCODING)]
    pub no_symmetry_breaking: bool,
    /// `naive`: the straightforward encoding, for comparisons.
    ///
    /// Pairwise, nothing pruned, redundant or symmetry-breaking. --amo
    /// still chooses the at-most-one encoding.
    #[arg(long, value_enum, hide_possible_values = true, help_heading = ENCODING)]
    pub preset: Option<Preset>,
    /// Block schedule: tour RxC blocks of the board one after another.
    ///
    /// Cut the board into R bands of ranks by C bands of files and tour
    /// the blocks one after another in snake order from a1's block (a
    /// closed tour with no --start may begin on any square of it, and is
    /// printed turned to start on a1). Every tour found is a tour, but
    /// this may miss tours (or all of them): off by default.
    #[arg(long, value_name = "RxC", value_parser = parse_blocks, help_heading = ENCODING)]
    pub blocks: Option<(usize, usize)>,
    /// Corridor around the clues: keep each move near the clues around it.
    ///
    /// A move between two clues may only land on a square whose detour
    /// (the moves from the clue before, through the square, to the clue
    /// after, less the moves between the clues) is within SLACK of the
    /// least detour any two consecutive clues make through that square.
    /// Every tour found is a tour, but this may miss tours, and then it
    /// says it found none within the corridor (exit status 3), not that
    /// none exists. The default route tries slack 4 first on large clued
    /// boards; off by default with --method sat.
    #[arg(long, value_name = "SLACK", hide_short_help = true, help_heading = ENCODING)]
    pub corridor: Option<u32>,
}
