//! The command line as given (the low stage): clap's structs, parsed
//! once. [`crate::plan`] turns them into what each command does.
//!
//! The doc comments on arguments are the `--help` text, where backticks
//! print as they are: names like CaDiCaL stay bare.
#![allow(clippy::doc_markdown)]

mod options;
mod values;

use std::path::PathBuf;
use std::time::Duration;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use knightsat::count::tally::CubeRange;
use knightsat::sat::DEFAULT_MEMORY_BUDGET_MIB;

use crate::flags;

pub use options::{EncodingArgs, ProblemArgs, ShapeArgs, SolveArgs};
use values::parse_seconds;
pub use values::{
    BuiltInSolver, EncodingArg, FormatArg, MethodArg, Preset, PuzzleFormat, SquareOrderArg,
    StatsFormat,
};

pub const EXIT_STATUSES: &str = "\
Exit status:
  0   a tour was found, or the command succeeded
  20  no tour exists for these constraints (unsatisfiable, or searched exhaustively;
      count prints 0 instead, exit 0)
  1   verify rejected the tour, or another failure
  2   bad usage or bad input (constraints that contradict each other too:
      two squares for one move or two moves on one square, --start being
      move 1 and --end move N), or the solver program cannot be found
  3   --method warnsdorff gave up: it found no tour, which proves nothing
  124 no answer within the --timeout
  129, 130, 143  ended by SIGHUP, SIGINT or SIGTERM (128 + the signal)";

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
    /// that would take more; the frontier counter's states stay within it.
    /// Solver programs read the CNF from disk and are not limited. The
    /// default is 4096, or half the address-space limit (`ulimit -v`)
    /// where that is lower.
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
    /// Count the tours that meet the options without printing them: by
    /// backtracking, by the frontier counter, or by SAT with each tour
    /// found blocked (see --method).
    ///
    /// Tours are sequences of squares: with a start fixed, a closed tour and
    /// its reverse are two tours; a closed tour with no start or end counts
    /// once per starting square. Progress goes to stderr when it is a terminal.
    #[command(after_help = EXIT_STATUSES)]
    Count {
        #[command(flatten)]
        encoding: EncodingArgs,
        /// How to count: auto (the default: the faster of backtracking and
        /// the frontier counter, or SAT with clues or any SAT option), sat,
        /// backtrack or frontier (the same numbers). Not warnsdorff, which
        /// finds one tour. Backtracking
        /// counts cube by cube (see --depth) even on one thread,
        /// remembering how the last squares complete; with --limit or
        /// --up-to-symmetry it lists the tours one by one instead.
        #[arg(long, value_enum, default_value_t)]
        method: MethodArg,
        /// The built-in SAT solver for --method sat (giving it means
        /// --method sat) [default: varisat].
        #[arg(long, value_enum)]
        solver: Option<BuiltInSolver>,
        /// Give up after this many seconds (at least 0.001), exit 124:
        /// backtracking and SAT print the count so far on stderr as a lower
        /// bound; the frontier counter, which finds all tours at once at
        /// its last square, has none to print.
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
        /// with it (the file says what they are). Its clauses must be the
        /// ones knightsat writes for what the comments describe (checked by
        /// encoding it again): a file with clauses added, removed or
        /// changed, or comments edited, is refused (exit 2). The number is
        /// the tours of that problem, which a model counter of the file
        /// finds only with --no-symmetry-breaking (symmetry breaking rules
        /// out some tours whose mirror image stays).
        #[arg(long, value_name = "FILE")]
        cnf: Option<PathBuf>,
        /// Threads, each counting cubes (see `cubes`): by SAT in a solver of
        /// its own, or by backtracking from the cube's last square; the
        /// frontier counter instead shares each square's states between
        /// them. 0 means one per core. The per-cube counts add up exactly.
        #[arg(long, value_name = "N", default_value_t = 1)]
        jobs: usize,
        /// Cube depth in moves for --jobs (default: the smallest depth giving
        /// at least 1000 cubes per thread, threads past the cores not
        /// counted, deepened towards a sixth of the
        /// squares while there are at most 250,000 cubes; at most 12). Giving
        /// it splits the count into cubes even with one thread; a depth
        /// past the tour's last move is the whole tour.
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
        /// Prints a header line recording the task (`# knightsat cube
        /// counts F: …`, F its fingerprint), then one line per cube,
        /// `cube N/CUBES<TAB>TOURS<TAB>SQUARES<TAB>F`,
        /// as each is done (backtracking counts one cube of each class of
        /// symmetric cubes; the others' TOURS read `=K`, as many as cube K); `knightsat sum` adds up the lines of every task
        /// and refuses a missing or repeated cube. B past the last cube
        /// stops at the last. With --sample K, estimates the range's count
        /// and time from K of its cubes instead.
        #[arg(long, value_name = "A-B", requires = "depth",
              conflicts_with_all = ["limit", "up_to_symmetry", "cnf"])]
        cubes: Option<CubeRange>,
        /// With --method frontier: the order of the squares, line by line
        /// along the longer side: rows (every line the same way), snake
        /// (every other line the other way), or meet (rows from both ends,
        /// the two halves joined in the middle; it holds the states of the
        /// middle only, so 8x8 closed fits in memory; for counts with no
        /// end fixed, open or closed, and closed ones from a --start; the
        /// others take rows). auto is meet where meet applies, on boards
        /// at most twice as long as wide, and rows otherwise.
        /// The count is the same; the states are not, so counting two ways
        /// checks a count that no table lists.
        #[arg(long, value_name = "ORDER", default_value = "auto")]
        frontier_order: SquareOrderArg,
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

/// clap's description of the command line, with the conflicts that the
/// lists in [`flags`] give: `count --cnf` takes no option that the file
/// already answers.
pub fn command() -> clap::Command {
    let answered_by_file: Vec<&str> =
        [flags::COUNT_ROUTE, flags::PROBLEM, flags::ENCODING].concat();
    Cli::command().mut_subcommand("count", |count| {
        count.mut_arg("cnf", |cnf| cnf.conflicts_with_all(answered_by_file))
    })
}

/// The commands' names, in the order `--help` lists them.
pub fn command_names() -> Vec<String> {
    Cli::command()
        .get_subcommands()
        .filter(|command| command.get_name() != "help")
        .map(|command| command.get_name().to_string())
        .collect()
}

/// The arguments as given, with clap's matches (which tell a flag given
/// from one left at its default).
pub fn parse() -> Result<(Cli, clap::ArgMatches), clap::Error> {
    let mut command = command();
    let matches = command.try_get_matches_from_mut(std::env::args_os())?;
    let cli = Cli::from_arg_matches(&matches).map_err(|error| error.format(&mut command))?;
    Ok((cli, matches))
}
