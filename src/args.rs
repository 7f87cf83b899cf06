//! The command line: clap's view of the arguments, and their conversion
//! into library values, in one place.
//!
//! The doc comments on arguments are the `--help` text, where backticks
//! print as they are: names like CaDiCaL stay bare.
#![allow(clippy::doc_markdown)]

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};

use knightsat::board::{Board, Leaper};
use knightsat::count::tally::CubeRange;
use knightsat::encoding::{
    Amo, Encoding, EncodingConfig, Subtours, SuccessorConfig, TimeIndexedConfig,
};
use knightsat::error::Error;
use knightsat::input;
use knightsat::problem::{parse_clue, Problem};
use knightsat::puzzle::parse_puzzle;
use knightsat::render::Format;
use knightsat::sat::{Backend, DEFAULT_MEMORY_BUDGET_MIB};
use knightsat::solve::Method;
use knightsat::tour::GivenBoard;

/// The exit statuses, shown under every command's help.
pub const EXIT_STATUSES: &str = "\
Exit status:
  0   a tour was found, or the command succeeded
  20  no tour exists for these constraints (unsatisfiable, or searched exhaustively)
  1   verify rejected the tour, or another failure
  2   bad usage or bad input (constraints that contradict each other too:
      two squares for one move or two moves on one square, --start being
      move 1 and --end move N), or the solver program cannot be found
  3   --method warnsdorff gave up: it found no tour, which proves nothing
  124 no answer within the --timeout";

/// Encode the knight's tour as SAT: write DIMACS for any solver, solve
/// in-process with varisat, decode solver output, verify tours.
#[derive(Parser)]
#[command(name = "knightsat", version, after_help = EXIT_STATUSES)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
    /// Memory the in-process solvers (varisat, cadical) may use together,
    /// in MiB: `solve`, `count` and `puzzle` refuse a formula whose estimate
    /// is larger, before building it, and cubes held for --jobs or --depth
    /// that would take more. Solver programs read the CNF from disk and are
    /// not limited.
    #[arg(long, global = true, value_name = "MiB", default_value_t = DEFAULT_MEMORY_BUDGET_MIB, value_parser = clap::value_parser!(u64).range(1..))]
    pub memory_budget: u64,
}

/// The commands.
#[derive(Subcommand)]
pub enum Command {
    /// Write the DIMACS CNF for a tour (to stdout, or atomically to a file).
    #[command(after_help = EXIT_STATUSES)]
    Encode {
        #[command(flatten)]
        encoding: EncodingArgs,
        /// Where to write the CNF; `-` is stdout.
        #[arg(short, long, value_name = "FILE", default_value = "-")]
        output: PathBuf,
    },
    /// Find a tour and print it: by SAT (varisat in-process, or a solver
    /// program), by Warnsdorff's rule, or by backtracking.
    #[command(after_help = EXIT_STATUSES)]
    Solve {
        #[command(flatten)]
        encoding: EncodingArgs,
        #[command(flatten)]
        options: SolveArgs,
    },
    /// Check a DRAT proof that a CNF has no solution, with the independent
    /// checker `rate`. Accepts proofs by varisat (`solve --proof`), kissat and
    /// CaDiCaL. Exit 0 when verified, 1 when rejected (or when the checker
    /// crashes, which is said). A CNF that unit propagation alone refutes
    /// needs no proof and is verified by knightsat's own propagation.
    #[command(after_help = EXIT_STATUSES)]
    Certify {
        /// The CNF.
        #[arg(long, value_name = "FILE")]
        cnf: PathBuf,
        /// The DRAT proof (text or binary).
        #[arg(long, value_name = "FILE")]
        proof: PathBuf,
    },
    /// Count the tours that meet the options, by solving again and again
    /// with each tour found blocked.
    ///
    /// Tours are sequences of squares: with a start fixed, a closed tour and
    /// its reverse are two tours; a closed tour with no start or end counts
    /// once per starting square. Progress goes to stderr when it is a terminal.
    #[command(after_help = EXIT_STATUSES)]
    Count {
        #[command(flatten)]
        encoding: EncodingArgs,
        /// How to find the tours: auto (the default: backtracking, or SAT
        /// with clues or any SAT option), sat or backtrack (the same
        /// numbers). Not warnsdorff, which finds one tour. Backtracking
        /// counts cube by cube (see --depth) even on one thread,
        /// remembering how the last squares complete; with --limit or
        /// --up-to-symmetry it lists the tours one by one instead.
        #[arg(long, value_enum, default_value_t)]
        method: MethodArg,
        /// The built-in SAT solver for --method sat (giving it means
        /// --method sat) [default: varisat].
        #[arg(long, value_enum)]
        solver: Option<BuiltInSolver>,
        /// Give up after this many seconds (at least 0.001): the count so
        /// far is printed on stderr as a lower bound, exit 124.
        #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
        timeout: Option<Duration>,
        /// Print on stderr the route that counts (method, encoding, solver).
        #[arg(short, long)]
        verbose: bool,
        /// Stop after this many (at least 1).
        #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
        limit: Option<u64>,
        /// Count orbits under the board's symmetries (rotations, reflections)
        /// that keep the given start and end in place; a closed tour's
        /// rotations and reverse, and an open tour's reverse when neither end
        /// is fixed, count as one too. One solver counts them, without
        /// cubes: not with --jobs N (N > 1) or --depth.
        #[arg(long, conflicts_with_all = ["cnf"])]
        up_to_symmetry: bool,
        /// Count the tours of a knightsat CNF (from `encode` or `cubes
        /// --split`), taking the problem, options and cube from its
        /// comments; the board, rule, encoding and method flags are refused
        /// with it (the file says what they are).
        #[arg(long, value_name = "FILE", conflicts_with_all = [
            "jobs", "depth", "limit", "method", "board", "size", "board_file", "holes",
            "leaper", "closed", "start", "end", "at", "puzzle", "encoding", "subtours",
            "no_patching", "max_clause_len", "amo", "no_predecessor", "no_moves", "no_parity",
            "no_reachability", "no_symmetry_breaking", "preset", "blocks",
        ])]
        cnf: Option<PathBuf>,
        /// Threads, each counting cubes (see `cubes`): by SAT in a solver of
        /// its own, or by backtracking from the cube's last square. 0 means
        /// one per core. The per-cube counts add up exactly.
        #[arg(long, value_name = "N", default_value_t = 1)]
        jobs: usize,
        /// Cube depth in moves for --jobs (default: the smallest depth giving
        /// at least 1000 cubes per thread, deepened towards a sixth of the
        /// squares while there are at most 250,000 cubes; at most 12). Giving
        /// it splits the count into cubes even with one thread.
        #[arg(long, value_name = "D", value_parser = clap::value_parser!(u64).range(1..))]
        depth: Option<u64>,
        /// Estimate instead of count: count a random sample of K cubes (with
        /// --jobs threads) and scale it up to all of them. Prints the
        /// estimated count with its margin and the time the whole count
        /// would take on 1 thread and on --jobs threads; comparing a few
        /// --depth values this way finds the fastest. Cubes are very uneven
        /// (most hold no tour, a few hold many): the margin is a 95%
        /// interval only when the sample is large enough for counts as
        /// skewed as its own (Cochran's rule), and the line says so when
        /// it is not.
        #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..),
              conflicts_with_all = ["limit", "up_to_symmetry", "cnf"])]
        sample: Option<u64>,
        /// Seed for drawing the --sample; the same seed draws the same cubes.
        #[arg(long, value_name = "S", default_value_t = 1, requires = "sample")]
        seed: u64,
        /// Count only the cubes numbered A to B (or cube A alone) of
        /// --depth D, numbered from 1 in the order of `cubes --split`'s
        /// files and manifest lines: what one task of a cluster job counts.
        /// Prints one line per cube, `cube N/CUBES<TAB>TOURS<TAB>SQUARES`,
        /// as each is done (backtracking counts one cube of each class of
        /// symmetric cubes; the others' TOURS read `=K`, as many as cube K); `knightsat sum` adds up the lines of every task
        /// and refuses a missing or repeated cube. B past the last cube
        /// stops at the last. With --sample K, estimates the range's count
        /// and time from K of its cubes instead.
        #[arg(long, value_name = "A-B", requires = "depth",
              conflicts_with_all = ["limit", "up_to_symmetry", "cnf"])]
        cubes: Option<CubeRange>,
    },
    /// Add up the lines `count --cubes A-B` prints (from FILEs, or stdin),
    /// checking that every cube of the split was counted exactly once: a
    /// missing cube, a cube counted twice, lines of two different splits
    /// or any other line are refused (exit 2), naming them.
    #[command(after_help = EXIT_STATUSES)]
    Sum {
        /// Files of cube counts; none, or `-`, reads stdin.
        #[arg(value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Add up the cubes numbered A to B only (B past the last cube
        /// stops at the last): each of them exactly once, and no other.
        #[arg(long, value_name = "A-B")]
        cubes: Option<CubeRange>,
    },
    /// Write the formula with cubes for cube-and-conquer, as an incremental
    /// CNF (`p inccnf`, then one `a L1 … Lk 0` line per cube) that CaDiCaL
    /// reads.
    ///
    /// A cube is a legal prefix of the first D moves (from every possible
    /// start when the start is free), as positive x(t, s) literals. The
    /// cubes are disjoint and exhaustive: every tour of the formula extends
    /// exactly one of them.
    #[command(after_help = EXIT_STATUSES)]
    Cubes {
        #[command(flatten)]
        encoding: EncodingArgs,
        /// How many moves each cube fixes (at most N − 1).
        #[arg(long, value_name = "D", value_parser = clap::value_parser!(u64).range(1..))]
        depth: u64,
        /// Where to write the iCNF; `-` is stdout.
        #[arg(short, long, value_name = "FILE", default_value = "-")]
        output: PathBuf,
        /// Instead of the iCNF, write one standalone CNF per cube into DIR
        /// (the cube as unit clauses and a `c cube` comment; symmetry
        /// breaking off, so that `count --cnf` of the files adds up to
        /// `count`), and DIR/manifest.tsv listing them.
        #[arg(long, value_name = "DIR", conflicts_with = "output")]
        split: Option<PathBuf>,
        /// Print how many cubes there are (the cube numbers `count --cubes`
        /// takes run from 1 to it), and write nothing.
        #[arg(long, conflicts_with_all = ["output", "split"])]
        count: bool,
    },
    /// Turn a solver's output for a knightsat CNF back into a verified tour.
    ///
    /// Reads SAT-competition output (`s SATISFIABLE`, `v … 0`; kissat,
    /// CaDiCaL, picosat), MiniSat's result file (`SAT` then literals) or a
    /// bare literal list. Board and options come from the CNF's comments.
    #[command(after_help = EXIT_STATUSES)]
    Decode {
        /// The CNF the solver was given (written by `knightsat encode`).
        #[arg(long, value_name = "FILE")]
        cnf: PathBuf,
        /// The solver's output; `-` is stdin.
        #[arg(value_name = "SOLVER_OUTPUT", default_value = "-")]
        solver_output: PathBuf,
        /// How to print the tour.
        #[arg(long, value_enum, default_value_t)]
        format: FormatArg,
    },
    /// Check a tour (a move list like `a1 c2 b4 …`, or knightsat's JSON)
    /// without any SAT code, against the board and the rules given (a JSON
    /// tour carries its own board, holes and leaper).
    #[command(after_help = EXIT_STATUSES)]
    Verify {
        #[command(flatten)]
        problem: ProblemArgs,
        /// The tour; `-` is stdin.
        #[arg(value_name = "FILE", default_value = "-")]
        tour: PathBuf,
    },
    /// Make a numbered-grid puzzle with exactly one solution and few clues.
    ///
    /// A tour is found from a random start, every square of it made a clue,
    /// and clues dropped in random order while SAT proves that no tour meets
    /// the rest with the dropped clue's step elsewhere; no clue left can be
    /// dropped (unless --timeout cut the dropping short).
    /// Solve it with `knightsat solve --puzzle FILE`.
    #[command(after_help = EXIT_STATUSES)]
    Puzzle {
        #[command(flatten)]
        shape: ShapeArgs,
        /// The solution is a closed tour.
        #[arg(long)]
        closed: bool,
        /// Seed for the random choices: the same seed makes the same puzzle
        /// [default: a random seed, printed on stderr].
        #[arg(long, value_name = "N")]
        seed: Option<u64>,
        /// Print the solution too.
        #[arg(long)]
        solution: bool,
        /// How to print the puzzle.
        #[arg(long, value_enum, default_value_t = PuzzleFormat::Board)]
        format: PuzzleFormat,
        /// The built-in SAT solver that finds the tour and proves each
        /// clue set unique [default: varisat].
        #[arg(long, value_enum)]
        solver: Option<BuiltInSolver>,
        /// Stop dropping clues after this many seconds (at least 0.001) and
        /// print the puzzle so far: its solution is still unique, but the
        /// clues not tried may be unneeded (stderr says how many), and the
        /// same seed may then give another puzzle. Exit 124 if no tour is
        /// found in time.
        #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
        timeout: Option<Duration>,
    },
    /// Count variables, clauses and literals per constraint family, without solving.
    #[command(after_help = EXIT_STATUSES)]
    Stats {
        #[command(flatten)]
        encoding: EncodingArgs,
        /// `table` or `json`.
        #[arg(long, value_enum, default_value_t = StatsFormat::Table)]
        format: StatsFormat,
    },
}

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
    #[arg(long, value_name = "ROWSxCOLS")]
    board: Option<Board>,
    /// Square board N x N (same as --board NxN).
    #[arg(long, value_name = "N", value_parser = parse_count)]
    size: Option<usize>,
    /// Board drawn in ASCII art, rank 1 on the bottom line: `.` a square, `#`
    /// or a space a hole; every line the same width. `-` reads stdin.
    #[arg(long, value_name = "FILE")]
    board_file: Option<PathBuf>,
}

/// The board and the piece on it.
#[derive(Args)]
pub struct ShapeArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// Remove these squares from the board, e.g. c3,d4 (comma-separated or repeated).
    #[arg(long, value_name = "SQUARES", value_delimiter = ',')]
    holes: Vec<String>,
    /// The piece: the (A,B)-leaper jumps A files and B ranks or B files and
    /// A ranks. 1,2 knight (the default); 1,3 camel; 2,3 zebra; 1,4 giraffe;
    /// 0,1 wazir… A JSON tour or puzzle names its own: this must agree.
    #[arg(long, value_name = "A,B")]
    leaper: Option<Leaper>,
}

/// What the tour must do.
#[derive(Args)]
pub struct ProblemArgs {
    #[command(flatten)]
    shape: ShapeArgs,
    /// Closed tour: the last square is a move from the first. Without
    /// --start, --end or clues the start is fixed on the first square (a1),
    /// which loses no tour.
    #[arg(long)]
    closed: bool,
    /// Start on this square, e.g. a1 (files a, b, …; ranks 1, 2, … from the bottom).
    #[arg(long, value_name = "SQUARE")]
    start: Option<String>,
    /// End on this square.
    #[arg(long, value_name = "SQUARE")]
    end: Option<String>,
    /// Clue: move N is on SQUARE, counting the start as move 1 as the board
    /// grid does, e.g. --at 5=c3 (repeatable).
    #[arg(long, value_name = "N=SQUARE")]
    at: Vec<String>,
    /// A numbered-grid puzzle to solve: the layout `--format board` prints,
    /// `.` or 0 for a blank square, `#` for a hole (or the JSON `knightsat
    /// puzzle --format json` writes). The grid gives the board. `-` reads stdin.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["board", "size", "board_file", "holes"])]
    puzzle: Option<PathBuf>,
}

/// The options that determine the formula.
#[derive(Args)]
pub struct EncodingArgs {
    #[command(flatten)]
    problem: ProblemArgs,
    /// The SAT encoding: `time-indexed` (x(t, s), "after t moves the
    /// knight is on s": N² variables, clues, cubes) or `successor` (one
    /// variable per move, "the move after s goes to w": linear in the
    /// board, for large boards; clues pin positions through the Chinese
    /// remainder counters, which then make the formula complete).
    #[arg(long, value_enum)]
    encoding: Option<EncodingArg>,
    /// With --encoding successor, how subtours (cycles that miss squares)
    /// are ruled out: `lazy` solves, forbids the model's subtours with
    /// clauses and solves again (solve and count; stats shows the formula
    /// before any cut; encode refuses it); `complete` puts the Chinese
    /// remainder encoding (Heule, SAT 2021) into the formula, so that
    /// every model is a tour [default: lazy for solve and count, complete
    /// for encode and stats].
    #[arg(long, value_enum)]
    subtours: Option<SubtoursArg>,
    /// With --encoding successor and lazy subtours, never patch a model's
    /// subtours together into a tour (Karp-style exchanges of two moves):
    /// rely on cuts alone, for comparisons. Counting never patches; the
    /// complete formula has no subtours to patch (refused with it).
    #[arg(long)]
    no_patching: bool,
    /// Split clauses longer than K literals (K ≥ 3) with fresh Tseytin variables.
    #[arg(long, value_name = "K", value_parser = parse_count)]
    max_clause_len: Option<usize>,
    /// At-most-one encoding [default: bimander; pairwise with --preset naive
    /// or --encoding successor].
    #[arg(long, value_enum)]
    amo: Option<AmoArg>,
    /// Leave out the redundant predecessor clauses (x(t+1, s) → some
    /// neighbour of s at step t), which speed solving up a great deal.
    #[arg(long)]
    no_predecessor: bool,
    /// Leave out the redundant move variables m(a, b) linked to the steps,
    /// with exactly one move into and out of each square; they make clued
    /// boards from 24x24 up solve many times faster.
    #[arg(long)]
    no_moves: bool,
    /// Do not prune by colour (a knight alternates colours, so a square can
    /// only be reached at steps of one parity; a leaper with A+B even keeps
    /// its colour).
    #[arg(long)]
    no_parity: bool,
    /// Do not prune squares further by moves from the start, end or a clue
    /// than the steps between allow.
    #[arg(long)]
    no_reachability: bool,
    /// Do not break symmetries (start on one square per orbit of the board's
    /// symmetries for open tours; no reversed closed tours). `count` never
    /// breaks them unless --up-to-symmetry; clues turn them off.
    #[arg(long)]
    no_symmetry_breaking: bool,
    /// `naive`: the straightforward encoding (pairwise, nothing pruned,
    /// redundant or symmetry-breaking), for comparisons. --amo still
    /// chooses the at-most-one encoding.
    #[arg(long, value_enum)]
    preset: Option<Preset>,
    /// Block schedule for large boards: cut the board into R bands of ranks
    /// by C bands of files and tour the blocks one after another in snake
    /// order from a1's block. Every tour found is a tour, but this may miss
    /// tours (or all of them): off by default.
    #[arg(long, value_name = "RxC", value_parser = parse_blocks)]
    blocks: Option<(usize, usize)>,
}

/// The encodings (mirrors [`EncodingConfig`]).
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

/// A switch given for the encoding it does not belong to (a command-line
/// matter, so worded here).
#[derive(Debug, thiserror::Error)]
#[error("bad option: {switch} is for --encoding {belongs}, not --encoding {given}")]
pub struct SwitchOfOtherEncoding {
    /// The switch, as typed.
    pub switch: &'static str,
    /// The encoding it belongs to.
    pub belongs: &'static str,
    /// The encoding chosen.
    pub given: &'static str,
}

/// How tours are found (mirrors [`Method`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum MethodArg {
    /// The fastest route for the problem (the default): one tour by
    /// Warnsdorff's rule, then SAT (successor encoding, built-in CaDiCaL)
    /// if it gives up; clues by SAT (time-indexed encoding); counts by
    /// backtracking, or SAT with clues. Any SAT option (--encoding and its
    /// switches, --solver, --proof; for solve, --jobs and --depth) means
    /// --method sat; count --jobs, --depth and --sample split the count
    /// into cubes by the same rule.
    #[default]
    Auto,
    /// The SAT encoding, solved by --solver: complete (a tour or a proof
    /// that there is none).
    Sat,
    /// Warnsdorff's greedy rule: linear time, boards of millions of
    /// squares; it may give up (exit 3) and never proves that there is no
    /// tour. No clues.
    Warnsdorff,
    /// Backtracking in Warnsdorff's order with pruning: complete (exit 20
    /// proves there is no tour), clues included; exponential at worst.
    Backtrack,
    /// count only: the frontier counter, which counts without listing a
    /// tour (a dynamic program over the squares: its time grows with the
    /// board's width and length, not with the number of tours). Any
    /// rectangle, holes, leapers, --start and --end; no clues, no
    /// --up-to-symmetry, no cubes; --jobs threads share its states.
    Frontier,
}

impl From<MethodArg> for Method {
    fn from(method: MethodArg) -> Method {
        match method {
            MethodArg::Auto => Method::Auto,
            MethodArg::Sat => Method::Sat,
            MethodArg::Warnsdorff => Method::Warnsdorff,
            MethodArg::Backtrack => Method::Backtrack,
            MethodArg::Frontier => Method::Frontier,
        }
    }
}

/// A built-in SAT solver (mirrors the built-in [`Backend`]s).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum BuiltInSolver {
    /// varisat, in Rust.
    #[default]
    Varisat,
    /// CaDiCaL 2.2, in C++, linked in.
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

/// How a tour is printed (mirrors [`Format`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// Numbered grid, highest rank at the top, moves numbered from 1, `#` for a hole.
    #[default]
    Board,
    /// Square names on one line: `a1 c2 b4 …`.
    Moves,
    /// `{"rows":8,"cols":8,"closed":false,"tour":["a1",…]}`.
    Json,
    /// A standalone SVG picture: the board, move numbers and the path.
    Svg,
}

impl From<FormatArg> for Format {
    fn from(format: FormatArg) -> Format {
        match format {
            FormatArg::Board => Format::Board,
            FormatArg::Moves => Format::Moves,
            FormatArg::Json => Format::Json,
            FormatArg::Svg => Format::Svg,
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
    /// Nguyen and Mai's bimander encoding: pairs with binary commanders.
    /// The default: in the benchmark (docs/benchmarks.md) it is the one that meets every
    /// varisat target with a tenth of the naive encoding's clauses on 8x8.
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

fn parse_blocks(text: &str) -> Result<(usize, usize), String> {
    let parsed = text
        .split_once(['x', 'X'])
        .and_then(|(r, c)| Some((r.parse().ok()?, c.parse().ok()?)));
    parsed.ok_or_else(|| format!("'{text}' is not RxC, e.g. 2x2"))
}

/// The shortest time limit taken: a millisecond. Anything shorter ends
/// before any method has started (1e-10 s and 1e-300 s both round to no
/// time at all), so it is refused rather than read differently by each.
const SHORTEST_TIMEOUT: f64 = 1e-3;

fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds = text
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|s| *s >= SHORTEST_TIMEOUT);
    let duration = seconds.and_then(|s| Duration::try_from_secs_f64(s).ok());
    duration.ok_or_else(|| {
        format!("'{text}' is not a number of seconds from {SHORTEST_TIMEOUT} to about 5.8e11")
    })
}

/// A whole number, with white space around it allowed as `--board` allows it.
fn parse_count(text: &str) -> Result<usize, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a whole number"))
}

/// No board option was given (a command-line matter, so worded here).
#[derive(Debug, thiserror::Error)]
#[error("bad option: no board: give --board ROWSxCOLS, --size N{}", if *.puzzle_allowed { ", --board-file FILE or --puzzle FILE" } else { " or --board-file FILE" })]
pub struct NoBoard {
    /// Whether the command takes --puzzle.
    pub puzzle_allowed: bool,
}

impl ShapeArgs {
    /// The board the options describe, or `None` when none of --board,
    /// --size, --board-file is given.
    pub fn board(&self) -> Result<Option<Board>, Error> {
        let args = &self.board;
        let rectangle = match (&args.board, args.size, &args.board_file) {
            (Some(board), _, _) => board.clone(),
            (None, Some(n), _) => Board::new(n, n)?,
            (None, None, Some(path)) => Board::from_ascii(&input::read_text(path)?)?,
            (None, None, None) => return Ok(None),
        };
        Ok(Some(
            rectangle
                .with_holes(&self.holes)?
                .with_leaper(self.leaper.unwrap_or_default()),
        ))
    }

    /// What the options say about the board, for a tour that may carry its own.
    pub fn given_board(&self) -> Result<GivenBoard, Error> {
        Ok(GivenBoard {
            board: self.board()?,
            leaper: self.leaper,
            holes: self.holes.clone(),
        })
    }

    /// The board, which must be given.
    pub fn required_board(&self) -> anyhow::Result<Board> {
        Ok(self.board()?.ok_or(NoBoard {
            puzzle_allowed: false,
        })?)
    }
}

impl ProblemArgs {
    /// What the board options and any `--puzzle` give: the puzzle's problem
    /// (its board, closedness and clues), or an open problem on the board;
    /// `None` when no board is given.
    pub fn given(&self) -> Result<Option<Problem>, Error> {
        if let Some(path) = &self.puzzle {
            let text = input::read_text(path)?;
            return parse_puzzle(&text, self.shape.leaper, self.closed)
                .map(Some)
                .map_err(|error| match error {
                    Error::BadPuzzle(why) => Error::BadPuzzle(format!("{}: {why}", path.display())),
                    Error::Problem(why) => Error::BadPuzzle(format!("{}: {why}", path.display())),
                    other => other,
                });
        }
        Ok(self
            .shape
            .board()?
            .map(|board| Problem::new(board).closed(self.closed)))
    }

    /// `given` (a problem from the board options or a puzzle) with --start,
    /// --end and the clues of --at added.
    pub fn complete(&self, given: Problem) -> Result<Problem, Error> {
        let board = given.board().clone();
        let square = |name: &Option<String>| {
            name.as_deref()
                .map(|name| board.parse_square(name))
                .transpose()
        };
        let clues = self
            .at
            .iter()
            .map(|clue| parse_clue(&board, clue))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(given
            .with_start(square(&self.start)?)?
            .with_end(square(&self.end)?)?
            .with_clues(clues)?)
    }

    /// The whole problem; a board must be given.
    pub fn problem(&self) -> anyhow::Result<Problem> {
        let given = self.given()?.ok_or(NoBoard {
            puzzle_allowed: true,
        })?;
        Ok(self.complete(given)?)
    }

    /// What the options say about the board (a puzzle's board counts as
    /// given whole).
    pub fn given_board(&self, given: Option<&Problem>) -> Result<GivenBoard, Error> {
        match given {
            Some(problem) if self.puzzle.is_some() => Ok(GivenBoard {
                board: Some(problem.board().clone()),
                ..GivenBoard::default()
            }),
            _ => self.shape.given_board(),
        }
    }

    /// Whether --closed was given.
    pub fn closed(&self) -> bool {
        self.closed
    }
}

impl EncodingArgs {
    /// The problem, the encoding configuration the options describe, and
    /// the encoding prepared for the problem (which checks that the options
    /// fit it before any work starts), for a formula that is written or
    /// measured: the successor encoding's subtours complete unless
    /// --subtours says otherwise.
    pub fn problem_and_encoding(
        &self,
    ) -> anyhow::Result<(Problem, EncodingConfig, Box<dyn Encoding>)> {
        let (problem, config) = self.problem_and_config_with(Subtours::Complete)?;
        let encoding = config.prepare(&problem)?;
        Ok((problem, config, encoding))
    }

    /// The problem and the encoding configuration the options describe,
    /// not yet prepared (searches without SAT never prepare it); the
    /// successor encoding's subtours lazy unless --subtours says otherwise.
    pub fn problem_and_config(&self) -> anyhow::Result<(Problem, EncodingConfig)> {
        self.problem_and_config_with(Subtours::Lazy)
    }

    /// [`problem_and_config`](Self::problem_and_config) with the successor
    /// encoding's subtours `subtours` unless --subtours says otherwise.
    pub fn problem_and_config_with(
        &self,
        subtours: Subtours,
    ) -> anyhow::Result<(Problem, EncodingConfig)> {
        let problem = self.problem.problem()?;
        let config = match self.encoding.unwrap_or_default() {
            EncodingArg::TimeIndexed => {
                let only_successor = [
                    (self.subtours.is_some(), "--subtours"),
                    (self.no_patching, "--no-patching"),
                ];
                for (given, switch) in only_successor {
                    Self::refuse(given, switch, "successor", "time-indexed")?;
                }
                EncodingConfig::from(self.time_indexed())
            }
            EncodingArg::Successor => {
                let only_time_indexed = [
                    (self.no_predecessor, "--no-predecessor"),
                    (self.no_moves, "--no-moves"),
                    (self.no_parity, "--no-parity"),
                    (self.no_reachability, "--no-reachability"),
                    (self.blocks.is_some(), "--blocks"),
                ];
                for (given, switch) in only_time_indexed {
                    Self::refuse(given, switch, "time-indexed", "successor")?;
                }
                let naive = matches!(self.preset, Some(Preset::Naive));
                let base = SuccessorConfig::default();
                let subtours = self.subtours.map_or(subtours, Subtours::from);
                if subtours == Subtours::Complete {
                    Self::refuse(
                        self.no_patching,
                        "--no-patching",
                        "successor --subtours lazy",
                        "successor --subtours complete",
                    )?;
                }
                EncodingConfig::from(SuccessorConfig {
                    max_clause_len: self.max_clause_len,
                    amo: self.amo.map_or(base.amo, Amo::from),
                    symmetry_breaking: !naive && !self.no_symmetry_breaking,
                    subtours,
                    patching: !self.no_patching,
                })
            }
        };
        Ok((problem, config))
    }

    /// Whether any encoding option is given: --encoding or one of its
    /// switches, which mean --method sat.
    pub fn names_encoding(&self) -> bool {
        self.encoding.is_some()
            || self.subtours.is_some()
            || self.no_patching
            || self.max_clause_len.is_some()
            || self.amo.is_some()
            || self.no_predecessor
            || self.no_moves
            || self.no_parity
            || self.no_reachability
            || self.no_symmetry_breaking
            || self.preset.is_some()
            || self.blocks.is_some()
    }

    /// The time-indexed switches the options give.
    fn time_indexed(&self) -> TimeIndexedConfig {
        let base = match self.preset {
            Some(Preset::Naive) => TimeIndexedConfig::naive(),
            None => TimeIndexedConfig::default(),
        };
        TimeIndexedConfig {
            max_clause_len: self.max_clause_len,
            amo: self.amo.map_or(base.amo, Amo::from),
            predecessor: base.predecessor && !self.no_predecessor,
            moves: base.moves && !self.no_moves,
            parity: base.parity && !self.no_parity,
            reachability: base.reachability && !self.no_reachability,
            symmetry_breaking: base.symmetry_breaking && !self.no_symmetry_breaking,
            blocks: self.blocks,
        }
    }

    /// Refuses a switch given for the encoding it does not belong to.
    fn refuse(
        given: bool,
        switch: &'static str,
        belongs: &'static str,
        chosen: &'static str,
    ) -> Result<(), SwitchOfOtherEncoding> {
        if given {
            return Err(SwitchOfOtherEncoding {
                switch,
                belongs,
                given: chosen,
            });
        }
        Ok(())
    }
}
