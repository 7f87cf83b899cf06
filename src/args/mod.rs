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

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};

use knightsat::count::tally::{CubeRange, PartOf};

use crate::flags;

pub use options::{EncodingArgs, MemoryBudgetArgs, ProblemArgs, ShapeArgs, SolveArgs};
use values::parse_seconds;
pub use values::{
    BuiltInSolver, CountMethodArg, EncodingArg, FormatArg, Generated, PartSplitArg, Preset,
    PuzzleFormat, SquareOrderArg, StatsFormat,
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
  3   --method warnsdorff gave up: it found no tour, which proves nothing;
      or none keeps to --blocks or --corridor, which proves nothing either
  124 no answer within the --timeout
  129, 130, 143  ended by SIGHUP, SIGINT or SIGTERM (128 + the signal)";

/// The exit statuses in one line, for `-h`.
const EXIT_STATUSES_SHORT: &str =
    "Exit status: 0 done, 20 no tour, 1 failure, 2 bad usage, 3 gave up, 124 timeout (see --help)";

/// Encode the knight's tour as SAT, solve, count, decode and verify.
///
/// `solve` finds a tour by the fastest route for the problem (Warnsdorff's
/// rule, then SAT with the built-in CaDiCaL; clues by SAT with varisat);
/// `encode` writes DIMACS for any SAT solver and `decode` reads its answer
/// back as a verified tour; `count` counts tours exactly; `verify` checks
/// a tour with no SAT code involved.
#[derive(Parser)]
#[command(
    name = "knightsat",
    version,
    after_help = EXIT_STATUSES_SHORT,
    after_long_help = EXIT_STATUSES,
    max_term_width = 100
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Subcommand)]
pub enum Command {
    /// Find a tour and print it (Warnsdorff's rule, SAT or backtracking).
    ///
    /// With no --method, the fastest route for the problem: Warnsdorff's
    /// rule, then SAT (successor encoding, built-in CaDiCaL) if it gives
    /// up; with clues, SAT (time-indexed encoding, varisat). `-v` says
    /// which route answered.
    #[command(after_help = EXIT_STATUSES_SHORT, after_long_help = EXIT_STATUSES)]
    Solve {
        #[command(flatten)]
        problem: ProblemArgs,
        #[command(flatten)]
        options: SolveArgs,
        #[command(flatten)]
        encoding: EncodingArgs,
    },
    /// Write the DIMACS CNF for a tour (to stdout, or atomically to a file).
    #[command(after_help = EXIT_STATUSES_SHORT, after_long_help = EXIT_STATUSES)]
    Encode {
        #[command(flatten)]
        problem: ProblemArgs,
        /// Where to write the CNF; `-` is stdout.
        #[arg(short, long, value_name = "FILE", default_value = "-", help_heading = options::OUTPUT)]
        output: PathBuf,
        #[command(flatten)]
        encoding: EncodingArgs,
    },
    /// Turn a solver's output for a knightsat CNF back into a verified tour.
    ///
    /// Reads SAT-competition output (`s SATISFIABLE`, `v … 0`; kissat,
    /// CaDiCaL, picosat), MiniSat's result file (`SAT` then literals) or a
    /// bare literal list. Board and options come from the CNF's comments.
    #[command(after_help = EXIT_STATUSES_SHORT, after_long_help = EXIT_STATUSES)]
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
    /// Count the tours (directed, from every start): backtracking, frontier, SAT.
    ///
    /// Tours are sequences of squares: a tour and its reverse are two
    /// tours, and a closed tour with no start or end given counts once per
    /// starting square and direction, so a board of N squares has count /
    /// (2N) undirected closed tours (`count --board 5x6 --closed` prints
    /// 480: 8 closed tours). --up-to-symmetry counts tours that are images
    /// of each other once. By backtracking, by the frontier counter, or by
    /// SAT with each tour found blocked (see --method); on every core
    /// unless --jobs says otherwise. Progress goes to stderr when it is a
    /// terminal.
    #[command(after_help = EXIT_STATUSES_SHORT, after_long_help = EXIT_STATUSES)]
    Count(CountCommand),
    /// Check a tour with no SAT code: a move list, or knightsat's JSON.
    ///
    /// A move list like `a1 c2 b4 …`, or knightsat's JSON, checked against
    /// the board and the rules given (a JSON tour carries its own board,
    /// holes and leaper).
    #[command(after_help = EXIT_STATUSES_SHORT, after_long_help = EXIT_STATUSES)]
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
    /// and clues dropped in random order, odd moves first so that the clues
    /// left stay spread along the tour, while SAT proves that no tour meets
    /// the rest with the dropped clue's step elsewhere; no clue left can be
    /// dropped (unless --timeout cut the dropping short). The searches run
    /// one a core, the later clues' ahead of their turn; the same seed makes
    /// the same puzzle on any number of cores.
    /// Solve it with `knightsat solve --puzzle FILE`.
    #[command(after_help = EXIT_STATUSES_SHORT, after_long_help = EXIT_STATUSES)]
    Puzzle(PuzzleCommand),
    /// Check a DRAT proof that a CNF has no solution (needs `rate`).
    ///
    /// The proof is checked by the independent checker `rate` (`cargo
    /// install rate@0.3.0`, or scripts/install-solvers.sh), on PATH.
    /// Accepts proofs by varisat (`solve --proof`), kissat and CaDiCaL.
    /// Exit 0 when verified, 1 when rejected (or when the checker crashes,
    /// which is said). A CNF that unit propagation alone refutes needs no
    /// proof and is verified by knightsat's own propagation.
    #[command(after_help = EXIT_STATUSES_SHORT, after_long_help = EXIT_STATUSES)]
    Certify {
        /// The CNF.
        #[arg(long, value_name = "FILE")]
        cnf: PathBuf,
        /// The DRAT proof (text or binary).
        #[arg(long, value_name = "FILE")]
        proof: PathBuf,
    },
    /// Add up the lines `count --cubes A-B` or `count --part K/N` prints.
    ///
    /// From FILEs, or stdin, checking that every cube (or part) of the
    /// split was counted exactly once: a missing cube, a cube counted
    /// twice, lines of two different splits or any other line are refused
    /// (exit 2), naming them.
    #[command(after_help = EXIT_STATUSES_SHORT, after_long_help = EXIT_STATUSES)]
    Sum {
        /// Files of cube or part counts; none, or `-`, reads stdin.
        #[arg(value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Add up the cubes (or parts) numbered A to B only, each exactly once.
        ///
        /// B past the last cube stops at the last. Lines of other cubes may
        /// be there (a `=K` line of the share takes cube K's count) and are
        /// not added. For parts kept as they finish, `--cubes 1-12` adds up
        /// parts 1 to 12 of N.
        #[arg(long, value_name = "A-B", allow_negative_numbers = true)]
        cubes: Option<CubeRange>,
    },
    /// Write the formula with cubes for cube-and-conquer (iCNF).
    ///
    /// An incremental CNF (`p inccnf`, then one `a L1 … Lk 0` line per
    /// cube) that CaDiCaL reads. A cube is a legal prefix of the first D
    /// moves (from every possible start when the start is free), as
    /// positive x(t, s) literals. The cubes are disjoint and exhaustive:
    /// every tour of the formula extends exactly one of them.
    #[command(after_help = EXIT_STATUSES_SHORT, after_long_help = EXIT_STATUSES)]
    Cubes(CubesCommand),
    /// Count variables, clauses and literals per constraint family, without solving.
    #[command(after_help = EXIT_STATUSES_SHORT, after_long_help = EXIT_STATUSES)]
    Stats {
        #[command(flatten)]
        problem: ProblemArgs,
        /// `table` or `json`.
        #[arg(long, value_enum, default_value_t = StatsFormat::Table, help_heading = options::OUTPUT)]
        format: StatsFormat,
        #[command(flatten)]
        encoding: EncodingArgs,
    },
    /// Print shell completions or the man page, from the same definitions.
    ///
    /// For your user alone (as the README does): `mkdir -p
    /// ~/.local/share/man/man1 ~/.local/share/bash-completion/completions`,
    /// then `knightsat generate man > ~/.local/share/man/man1/knightsat.1`
    /// and `knightsat generate complete-bash >
    /// ~/.local/share/bash-completion/completions/knightsat` (likewise zsh,
    /// fish, elvish and powershell, each in its shell's place).
    Generate {
        /// What to print.
        #[arg(value_enum, value_name = "WHAT")]
        what: Generated,
    },
}

/// The arguments of `count`.
#[derive(Args)]
pub struct CountCommand {
    #[command(flatten)]
    pub problem: ProblemArgs,
    /// How to count [default: auto: backtracking or the frontier counter].
    ///
    /// auto, sat, backtrack or frontier: the numbers are the same every
    /// way.
    #[arg(long, value_enum, default_value_t, hide_default_value = true, help_heading = options::METHOD)]
    pub method: CountMethodArg,
    /// The built-in SAT solver for --method sat [default: varisat].
    ///
    /// Giving it means --method sat.
    #[arg(long, value_enum, help_heading = options::METHOD)]
    pub solver: Option<BuiltInSolver>,
    /// Threads [default: one per core].
    ///
    /// Backtracking and SAT count cubes (see `cubes`) on them, SAT in a
    /// solver of its own per thread; the frontier counter shares each
    /// square's states between them. Without it, a count that lists
    /// tours one by one (SAT, --limit, --up-to-symmetry) runs one
    /// search on one thread. 0 means one per core. The per-cube counts
    /// add up exactly: the count is the same on any number of threads.
    #[arg(long, value_name = "N", allow_negative_numbers = true, help_heading = options::METHOD)]
    pub jobs: Option<usize>,
    /// Cube depth in moves for --jobs.
    ///
    /// Default: the smallest depth giving at least 1000 cubes per
    /// thread, threads past the cores not counted, deepened towards a
    /// sixth of the squares while there are at most 250,000 cubes; at
    /// most 12. Giving it splits the count into cubes even with one
    /// thread; a depth past the tour's last move is the whole tour.
    #[arg(long, value_name = "D", allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(1..), help_heading = options::METHOD)]
    pub depth: Option<u64>,
    /// Stop after this many (at least 1).
    #[arg(long, value_name = "K", allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(1..), help_heading = options::METHOD)]
    pub limit: Option<u64>,
    /// Count tours that are images of each other once.
    ///
    /// Count orbits under the board's symmetries (rotations,
    /// reflections), the tour read forwards or backwards, wherever the
    /// transform keeps every anchor: the start, end and clues stay on
    /// their squares and steps, or, read backwards, go to the mirrored
    /// step (an open tour's move t to N + 1 − t). So a closed tour's
    /// rotations and reverse count as one, and an open tour's reverse
    /// when neither end is fixed. A graph's own symmetries are not
    /// looked for: on --graph each Hamiltonian cycle or path counts once,
    /// whatever vertex it starts on and whichever way it is read. One
    /// solver counts them, without cubes: not with --jobs N (N > 1) or
    /// --depth.
    #[arg(long, conflicts_with_all = ["cnf"], help_heading = options::METHOD)]
    pub up_to_symmetry: bool,
    /// With --method frontier: the order of the squares.
    ///
    /// Line by line along the longer side: rows (every line the same
    /// way), snake (every other line the other way), or meet (rows from
    /// both ends, the two halves joined in the middle; it holds the
    /// states of the middle only, so 8x8 closed fits in memory; every
    /// count, open or closed, with or without a --start or --end; the
    /// states where the halves meet stay in memory, where rows and
    /// snake keep on disk what passes --memory-budget). auto is meet on
    /// boards at most twice as long as wide (an open count with no --start
    /// or --end eight knight files wide split by its ends first, a meet a
    /// class of end pairs), and rows otherwise, or where meet would
    /// pass the budget (not for a --part: every part takes one
    /// order). diagonal takes the anti-diagonals from a1 (a wider
    /// frontier, more states: for comparison). The count is the same;
    /// the states are not, so counting two ways checks a count that no
    /// table lists.
    #[arg(long, value_name = "ORDER", default_value = "auto", help_heading = options::METHOD)]
    pub frontier_order: SquareOrderArg,
    /// Count the tours of a knightsat CNF (from `encode` or `cubes --split`).
    ///
    /// The problem, options and cube come from its comments; the
    /// board, rule, encoding and method flags are refused with it (the
    /// file says what they are). Its clauses must be the ones knightsat
    /// writes for what the comments describe (checked by encoding it
    /// again): a file with clauses added, removed or changed, or
    /// comments edited, is refused (exit 2). The number is the tours of
    /// that problem, which a model counter of the file finds only with
    /// --no-symmetry-breaking (symmetry breaking rules out some tours
    /// whose mirror image stays).
    #[arg(long, value_name = "FILE", help_heading = options::PROBLEM)]
    pub cnf: Option<PathBuf>,
    /// Estimate from a random sample of K cubes instead of counting.
    ///
    /// Counts a random sample of K cubes (with --jobs threads) and
    /// scales it up to all of them. Prints the estimated count with its
    /// margin and the time the whole count would take on 1 thread and
    /// on --jobs threads; comparing a few --depth values this way finds
    /// the fastest. Cubes are very uneven (most hold no tour, a few hold
    /// many): the margin is a 95% interval only when the sample is
    /// large enough for counts as skewed as its own (Cochran's rule),
    /// and the line says so when it is not.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..),
          conflicts_with_all = ["limit", "up_to_symmetry", "cnf"], help_heading = options::METHOD)]
    pub sample: Option<u64>,
    /// Seed for --sample: one seed, one sample of cubes.
    #[arg(long, value_name = "S", default_value_t = 1, requires = "sample", help_heading = options::METHOD)]
    pub seed: u64,
    /// Count only the cubes numbered A to B of --depth D (a cluster task).
    ///
    /// Cubes are numbered from 1 in the order of `cubes --split`'s
    /// files and manifest lines. Prints a header line recording the
    /// task (`# knightsat cube counts F: …`, F its fingerprint), then
    /// one line per cube, `cube N/CUBES<TAB>TOURS<TAB>SQUARES<TAB>F`,
    /// as each is done (backtracking counts one cube of each class of
    /// symmetric cubes; the others' TOURS read `=K`, as many as cube
    /// K); `knightsat sum` adds up the lines of every task and refuses
    /// a missing or repeated cube. B past the last cube stops at the
    /// last. With --sample K, estimates the range's count and time from
    /// K of its cubes instead.
    #[arg(long, value_name = "A-B", requires = "depth",
          conflicts_with_all = ["limit", "up_to_symmetry", "cnf"], help_heading = options::METHOD)]
    pub cubes: Option<CubeRange>,
    /// Count part K of N of a frontier count (a cluster task; --part-by).
    ///
    /// By default (--part-by states) the frontier counter splits its
    /// states into N classes at one step (meeting in the middle, by the degrees of the first squares
    /// of the cut; else at the middle square), the same in every part,
    /// and counts the tours of class K alone, with less memory than
    /// the whole where the classes stay apart. Prints a header line
    /// recording the task (`# knightsat part counts F: …`), then
    /// `part K/N<TAB>TOURS<TAB>F`; `knightsat sum` adds up the N parts'
    /// outputs and refuses a missing, repeated or foreign part. Implies
    /// --method frontier.
    #[arg(long, value_name = "K/N",
          conflicts_with_all = ["limit", "up_to_symmetry", "cnf", "cubes", "sample", "depth"],
          help_heading = options::METHOD)]
    pub part: Option<PartOf>,
    /// What --part splits: the frontier counter's states, or the ends.
    ///
    /// states (the default) splits any count by a class of its states
    /// at one step. ends splits an open count by the pair of squares
    /// its paths end on (Chernov and Stertenbrink's split of the open
    /// 8x8 tours): the pairs fall into classes under the board's
    /// symmetries (136 on 8x8, less the pairs of one colour, which no
    /// path joins), and the parts take the classes in turn, each
    /// counted with both ends fixed, where a path costs about what a
    /// cycle does, and weighted by the pairs it stands for. With more
    /// parts than classes, the parts that share a class split it by its
    /// states, for tasks with less memory (every open 8x8 tour in 544
    /// parts, those of its largest class within 2 GiB each:
    /// docs/cluster.md). A given
    /// --start or --end stays fixed and the other end is split by.
    #[arg(long, value_name = "SPLIT", default_value = "states", requires = "part",
          hide_short_help = true, help_heading = options::METHOD)]
    pub part_by: PartSplitArg,
    /// Print on stderr the route that counts (method, encoding, solver).
    ///
    /// After a count by the frontier counter, also its peak: the most
    /// live states at one step and the most memory its tables took;
    /// and when they first pass --memory-budget, where the rest go.
    #[arg(short, long, help_heading = options::OUTPUT)]
    pub verbose: bool,
    /// Give up after this many seconds (at least 0.001), exit 124.
    ///
    /// Backtracking and SAT print the count so far on stderr as a lower
    /// bound; the frontier counter, which finds all tours at once at
    /// its last square, has none to print.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = parse_seconds, help_heading = options::LIMITS)]
    pub timeout: Option<Duration>,
    /// Where the frontier counter keeps the states past --memory-budget.
    ///
    /// When its tables would pass the budget, the frontier counter
    /// writes the states that do not fit to files in a directory of its
    /// own made in this one, and merges them back a piece at a time; the
    /// count is the same. Every file is removed when the count ends,
    /// however it ends, but for SIGKILL, which ends a process at once:
    /// its directory (knightsat-states-PID-…) is removed by the next
    /// count that spills into the same place, once no process PID is
    /// left. DIR must be a directory that is there (else refused before
    /// any work). Default: the system's temporary directory ($TMPDIR,
    /// else /tmp).
    #[arg(long, value_name = "DIR", help_heading = options::LIMITS)]
    pub spill_dir: Option<PathBuf>,
    /// Keep a checkpoint of a frontier count in DIR, and go on from it.
    ///
    /// The count writes in DIR (made if absent) the counts of the
    /// pieces it has finished (each class of end pairs; the paths by
    /// where their ends lie) and, at a step or batch boundary at most
    /// every --checkpoint-every seconds, the states of the piece it is
    /// counting. Run the same command again after a kill (Ctrl-C, out
    /// of memory, a reboot, a cluster's time limit) and it goes on from
    /// the last complete checkpoint, with the same count. Each file is
    /// written whole and renamed into place; one of another count
    /// (problem, order, part) or another version of knightsat, cut
    /// short or changed is refused, exit 2. A finished count removes
    /// its checkpoint. The states take about what the tables do (-v
    /// says how much).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["limit", "up_to_symmetry", "cnf", "cubes", "sample", "depth"],
          hide_short_help = true, help_heading = options::LIMITS)]
    pub checkpoint: Option<PathBuf>,
    /// The least time between two writings of a checkpoint's states.
    ///
    /// Default 30. The states are also written no more often than 20
    /// times the time their last writing took, so that the checkpoint
    /// costs at most about a twentieth of the count.
    #[arg(long, value_name = "SECONDS", requires = "checkpoint", value_parser = parse_seconds,
          hide_short_help = true, help_heading = options::LIMITS)]
    pub checkpoint_every: Option<Duration>,
    /// How often -v says a frontier count's estimate of the time it has
    /// left.
    ///
    /// Default 60. The progress bar shows the estimate all the time.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds,
          hide_short_help = true, help_heading = options::LIMITS)]
    pub time_left_every: Option<Duration>,
    #[command(flatten)]
    pub memory: MemoryBudgetArgs,
    #[command(flatten)]
    pub encoding: EncodingArgs,
}

/// The arguments of `cubes`.
#[derive(Args)]
pub struct CubesCommand {
    #[command(flatten)]
    pub problem: ProblemArgs,
    /// How many moves each cube fixes: a depth past the tour's last move
    /// (N − 1 on N squares) is the whole tour.
    #[arg(long, value_name = "D", allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(1..), help_heading = options::METHOD)]
    pub depth: u64,
    /// Where to write the iCNF; `-` is stdout.
    #[arg(short, long, value_name = "FILE", default_value = "-", help_heading = options::OUTPUT)]
    pub output: PathBuf,
    /// Write one standalone CNF per cube into DIR instead.
    ///
    /// Each file holds the cube as unit clauses and a `c cube` comment,
    /// with symmetry breaking off, so that `count --cnf` of the files
    /// adds up to `count`; DIR/manifest.tsv lists them.
    #[arg(long, value_name = "DIR", conflicts_with = "output", help_heading = options::OUTPUT)]
    pub split: Option<PathBuf>,
    /// Print how many cubes --split writes, and write nothing.
    ///
    /// The cube numbers `count --cubes` takes run from 1 to it. Like
    /// --split it counts with symmetry breaking off: the iCNF of -o
    /// breaks the board's symmetries unless --no-symmetry-breaking, and
    /// may hold fewer cubes.
    #[arg(long, conflicts_with_all = ["output", "split"], help_heading = options::OUTPUT)]
    pub count: bool,
    #[command(flatten)]
    pub encoding: EncodingArgs,
}

/// The arguments of `puzzle`.
#[derive(Args)]
pub struct PuzzleCommand {
    #[command(flatten)]
    pub shape: ShapeArgs,
    /// The solution is a closed tour.
    #[arg(long, help_heading = options::PROBLEM)]
    pub closed: bool,
    /// Seed for the random choices [default: a random seed, printed].
    ///
    /// The same seed makes the same puzzle; without it, a random seed
    /// is drawn and printed on stderr.
    #[arg(long, value_name = "N", allow_negative_numbers = true, help_heading = options::METHOD)]
    pub seed: Option<u64>,
    /// The built-in SAT solver [default: varisat].
    ///
    /// It finds the tour and proves each clue set unique.
    #[arg(long, value_enum, help_heading = options::METHOD)]
    pub solver: Option<BuiltInSolver>,
    /// How to print the puzzle.
    #[arg(long, value_enum, default_value_t = PuzzleFormat::Board, help_heading = options::OUTPUT)]
    pub format: PuzzleFormat,
    /// Print the solution too.
    #[arg(long, help_heading = options::OUTPUT)]
    pub solution: bool,
    /// Stop dropping clues after this many seconds (at least 0.001).
    ///
    /// The puzzle so far is printed: its solution is still unique, but
    /// the clues not tried may be unneeded (stderr says how many), and
    /// the same seed may then give another puzzle. Exit 124 if no tour
    /// is found in time.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = parse_seconds, help_heading = options::LIMITS)]
    pub timeout: Option<Duration>,
    #[command(flatten)]
    pub memory: MemoryBudgetArgs,
}

/// clap's description of the command line, with the conflicts that the
/// lists in [`flags`] give: `count --cnf` takes no option that the file
/// already answers.
pub fn command() -> clap::Command {
    let answered_by_file: Vec<&str> =
        [flags::COUNT_ROUTE, flags::PROBLEM, flags::ENCODING].concat();
    let mut command = Cli::command().mut_subcommand("count", |count| {
        count.mut_arg("cnf", |cnf| cnf.conflicts_with_all(answered_by_file))
    });
    // Only `solve` patches subtours, and only `solve` and `count` cut them
    // in a loop: each switch is accepted elsewhere, as every encoding
    // switch is, but not shown where it does nothing.
    let hidden: [(&str, &[&str]); 2] = [
        ("no_patching", &["encode", "count", "cubes", "stats"]),
        ("no_merged_cuts", &["encode", "cubes", "stats"]),
    ];
    for (switch, commands) in hidden {
        for &name in commands {
            command = command.mut_subcommand(name, |sub| sub.mut_arg(switch, |arg| arg.hide(true)));
        }
    }
    command
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
