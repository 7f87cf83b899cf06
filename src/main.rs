//! The `knightsat` command: parses arguments, calls the library, maps errors
//! to exit statuses.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::{Args, Parser, Subcommand};

use indicatif::{ProgressBar, ProgressStyle};
use knightsat::board::{Board, Leaper};
use knightsat::certify::{check_proof, solve_with_proof, Verdict};
use knightsat::cnf::dimacs::{self, Answer};
use knightsat::count::{enumerate, CountOptions};
use knightsat::decode::tour_from_model;
use knightsat::encode::{parse_clue, Amo, Live, Options};
use knightsat::error::ErrorClass;
use knightsat::input;
use knightsat::puzzle::{generate, parse_puzzle, Generated, Puzzle, PuzzleJson};
use knightsat::render::{board_grid, render, stats_table, svg, Format};
use knightsat::solve::{solve, Backend, Outcome};
use knightsat::theory;
use knightsat::tour::{parse_tour, verify, Rules, Tour};
use knightsat::Error;

/// Exit status when no tour exists (the formula is unsatisfiable), as SAT solvers use.
const EXIT_NO_TOUR: u8 = 20;
/// Exit status for a rejected tour or another failure.
const EXIT_FAILURE: u8 = 1;
/// Exit status for bad usage or bad input.
const EXIT_BAD_INPUT: u8 = 2;
/// Exit status when the time limit runs out, as `timeout(1)` uses.
const EXIT_TIMEOUT: u8 = 124;

const EXIT_STATUSES: &str = "\
Exit status:
  0   a tour was found, or the command succeeded
  20  no tour exists for these constraints (unsatisfiable)
  1   verify rejected the tour, or another failure
  2   bad usage or bad input, or the solver program cannot be found
  124 no answer within the --timeout";

/// Encode the knight's tour as SAT: write DIMACS for any solver, solve
/// in-process with varisat, decode solver output, verify tours.
#[derive(Parser)]
#[command(name = "knightsat", version, after_help = EXIT_STATUSES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Write the DIMACS CNF for a tour (to stdout, or atomically to a file).
    #[command(after_help = EXIT_STATUSES)]
    Encode {
        #[command(flatten)]
        encoding: EncodingArgs,
        /// Where to write the CNF; `-` is stdout.
        #[arg(short, long, value_name = "FILE", default_value = "-")]
        output: PathBuf,
    },
    /// Find a tour and print it: with varisat in-process, or with a solver program.
    #[command(after_help = EXIT_STATUSES)]
    Solve {
        #[command(flatten)]
        encoding: EncodingArgs,
        /// How to print the tour.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
        /// `varisat` (in-process), `kissat`, `cadical`, `minisat`, `picosat`,
        /// or the path of a program that reads DIMACS and prints
        /// SAT-competition output.
        #[arg(long, value_name = "SOLVER", default_value = "varisat")]
        solver: String,
        /// An extra argument for the solver program (repeatable).
        #[arg(long, value_name = "ARG", allow_hyphen_values = true)]
        solver_arg: Vec<String>,
        /// Give up after this many seconds (the solver is stopped).
        #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
        timeout: Option<Duration>,
        /// Print every tour, not just one (in-process only; JSON Lines with
        /// --format json). Tours are sequences: see `count`.
        #[arg(long)]
        all: bool,
        /// With --all: stop after this many tours.
        #[arg(long, value_name = "K", requires = "all")]
        limit: Option<u64>,
        /// When no tour exists, write varisat's DRAT proof of that here (check
        /// it with `certify`). The CNF it refers to is written beside it.
        #[arg(long, value_name = "FILE", conflicts_with_all = ["all", "timeout"])]
        proof: Option<PathBuf>,
        /// Where to write the CNF the proof refers to (default: the proof's
        /// path with the extension .cnf).
        #[arg(long, value_name = "FILE", requires = "proof")]
        cnf_out: Option<PathBuf>,
        /// Search even where a theorem (Schwenk's for closed tours, the
        /// classification of open ones) already says no tour exists.
        #[arg(long)]
        no_theory: bool,
    },
    /// Check a DRAT proof that a CNF has no solution, with the independent
    /// checker `rate`. Accepts proofs by varisat (`solve --proof`), kissat and
    /// CaDiCaL. Exit 0 when verified, 1 when rejected.
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
        /// Stop after this many.
        #[arg(long, value_name = "K")]
        limit: Option<u64>,
        /// Count orbits under the board's symmetries (rotations, reflections)
        /// that keep the given start and end in place; a closed tour's
        /// rotations and reverse, and an open tour's reverse when neither end
        /// is fixed, count as one too.
        #[arg(long)]
        up_to_symmetry: bool,
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
        format: Format,
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
    /// and clues dropped in random order while SAT (with the tour blocked)
    /// proves the solution stays unique; no clue left can be dropped.
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

/// The board's rectangle: by size, by side, or drawn in a file.
#[derive(Args)]
#[group(multiple = false)]
struct BoardArgs {
    /// Board as ROWSxCOLS: 3x4 is 3 ranks by 4 files.
    #[arg(long, value_name = "ROWSxCOLS")]
    board: Option<Board>,
    /// Square board N x N (same as --board NxN).
    #[arg(long, value_name = "N")]
    size: Option<usize>,
    /// Board drawn in ASCII art, rank 1 on the bottom line: `.` a square, `#`
    /// or a space a hole; every line the same width. `-` reads stdin.
    #[arg(long, value_name = "FILE")]
    board_file: Option<PathBuf>,
}

/// The board and the piece on it.
#[derive(Args)]
struct ShapeArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// Remove these squares from the board, e.g. c3,d4 (comma-separated or repeated).
    #[arg(long, value_name = "SQUARES", value_delimiter = ',')]
    holes: Vec<String>,
    /// The piece: the (A,B)-leaper jumps A files and B ranks or B files and
    /// A ranks. 1,2 knight; 1,3 camel; 2,3 zebra; 1,4 giraffe; 0,1 wazir…
    #[arg(long, value_name = "A,B", default_value = "1,2")]
    leaper: Leaper,
}

/// What the tour must do.
#[derive(Args)]
struct ProblemArgs {
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
struct EncodingArgs {
    #[command(flatten)]
    problem: ProblemArgs,
    /// Split clauses longer than K literals (K ≥ 3) with fresh Tseytin variables.
    #[arg(long, value_name = "K")]
    max_clause_len: Option<usize>,
    /// At-most-one encoding [default: bimander; pairwise with --preset naive].
    #[arg(long, value_enum)]
    amo: Option<Amo>,
    /// Leave out the redundant predecessor clauses (x(t+1, s) → some
    /// neighbour of s at step t), which speed solving up a great deal.
    #[arg(long)]
    no_predecessor: bool,
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

fn parse_blocks(text: &str) -> Result<(usize, usize), String> {
    let parsed = text
        .split_once(['x', 'X'])
        .and_then(|(r, c)| Some((r.parse().ok()?, c.parse().ok()?)));
    parsed.ok_or_else(|| format!("'{text}' is not RxC, e.g. 2x2"))
}

/// How `stats` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum StatsFormat {
    /// Aligned columns.
    Table,
    /// One JSON object: vars, clauses, literals, families.
    Json,
}

/// How `puzzle` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum PuzzleFormat {
    /// The numbered grid with `.` for blanks (and the solved grid after a
    /// blank line, with --solution).
    Board,
    /// One JSON object: board, clues as N=SQUARE, and the solution with --solution.
    Json,
    /// An SVG picture of the clues (the solved tour with the clues in bold, with --solution).
    Svg,
}

/// Named sets of encoding options.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum Preset {
    /// Pairwise at-most-one; no pruning, predecessor clauses or symmetry breaking.
    Naive,
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    match text.parse::<f64>() {
        Ok(seconds) if seconds > 0.0 && seconds.is_finite() => Ok(Duration::from_secs_f64(seconds)),
        _ => Err(format!("'{text}' is not a positive number of seconds")),
    }
}

impl ShapeArgs {
    /// The board the options describe, or `None` when none of --board,
    /// --size, --board-file is given.
    fn board(&self) -> Result<Option<Board>, Error> {
        let args = &self.board;
        let rectangle = match (&args.board, args.size, &args.board_file) {
            (Some(board), _, _) => board.clone(),
            (None, Some(n), _) => Board::new(n, n)?,
            (None, None, Some(path)) => Board::from_ascii(&input::read_text(path)?)?,
            (None, None, None) => return Ok(None),
        };
        Ok(Some(
            rectangle.with_holes(&self.holes)?.with_leaper(self.leaper),
        ))
    }
}

impl ProblemArgs {
    /// The board with the puzzle's clues (none without --puzzle), or `None`
    /// when no board is given.
    fn board(&self) -> Result<Option<Puzzle>, Error> {
        if let Some(path) = &self.puzzle {
            let text = input::read_text(path)?;
            return parse_puzzle(&text, self.shape.leaper, self.closed)
                .map(Some)
                .map_err(|error| match error {
                    Error::BadPuzzle(why) => Error::BadPuzzle(format!("{}: {why}", path.display())),
                    other => other,
                });
        }
        Ok(self.shape.board()?.map(|board| Puzzle {
            board,
            closed: self.closed,
            clues: Vec::new(),
        }))
    }

    /// The rules for `given` (a board and any puzzle clues): closedness,
    /// start, end, and the clues of --at added to the puzzle's.
    fn rules(&self, given: Puzzle) -> Result<Rules, Error> {
        let Puzzle {
            board,
            closed,
            mut clues,
        } = given;
        let square = |name: &Option<String>| {
            name.as_deref()
                .map(|name| board.parse_square(name))
                .transpose()
        };
        for clue in &self.at {
            clues.push(parse_clue(&board, clue)?);
        }
        clues.sort_unstable();
        clues.dedup();
        Ok(Rules {
            closed,
            start: square(&self.start)?,
            end: square(&self.end)?,
            clues,
            board,
        })
    }
}

fn no_board() -> Error {
    Error::BadOption(
        "no board: give --board ROWSxCOLS, --size N, --board-file FILE or --puzzle FILE".into(),
    )
}

impl EncodingArgs {
    fn options(&self) -> Result<Options, Error> {
        let given = self.problem.board()?.ok_or_else(no_board)?;
        let rules = self.problem.rules(given)?;
        let base = match self.preset {
            Some(Preset::Naive) => Options::naive(rules.board.clone()),
            None => Options::new(rules.board.clone()),
        };
        let options = Options {
            board: rules.board,
            closed: rules.closed,
            start: rules.start,
            end: rules.end,
            clues: rules.clues,
            max_clause_len: self.max_clause_len,
            amo: self.amo.unwrap_or(base.amo),
            predecessor: base.predecessor && !self.no_predecessor,
            parity: base.parity && !self.no_parity,
            reachability: base.reachability && !self.no_reachability,
            symmetry_breaking: base.symmetry_breaking && !self.no_symmetry_breaking,
            blocks: self.blocks,
        };
        options.validate()?;
        Ok(options)
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) if !error.use_stderr() => {
            // --help and --version
            let _ = error.print();
            return ExitCode::SUCCESS;
        }
        Err(error) => {
            // clap's message runs to the first blank line; usage and hints follow.
            let rendered = error.render().to_string();
            let message: Vec<&str> = rendered
                .lines()
                .take_while(|line| !line.trim().is_empty())
                .map(str::trim)
                .collect();
            let message = message.join(" ");
            let message = message.strip_prefix("error: ").unwrap_or(&message);
            eprintln!("knightsat: {message} (see --help)");
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    match run(cli.command) {
        Ok(code) => code,
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("knightsat: {error:#}");
            let class = error.downcast_ref::<Error>().map(Error::class);
            ExitCode::from(match class {
                Some(ErrorClass::BadInput) => EXIT_BAD_INPUT,
                Some(ErrorClass::Timeout) => EXIT_TIMEOUT,
                Some(ErrorClass::Failure) | None => EXIT_FAILURE,
            })
        }
    }
}

/// A closed pipe (`knightsat encode … | head`) ends the output, not in error.
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        let kind = match cause.downcast_ref::<Error>() {
            Some(error) => error.io_kind(),
            None => cause.downcast_ref::<io::Error>().map(io::Error::kind),
        };
        kind == Some(io::ErrorKind::BrokenPipe)
    })
}

fn run(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Encode { encoding, output } => {
            let options = encoding.options()?;
            note_default_start(&options);
            if output.as_os_str() == "-" {
                dimacs::write_cnf(&options, io::stdout().lock())?;
            } else {
                let stats = dimacs::write_cnf_file(&options, &output)?;
                eprintln!(
                    "wrote {}: {} variables, {} clauses",
                    output.display(),
                    stats.vars,
                    stats.clauses
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Solve {
            encoding,
            format,
            solver,
            solver_arg,
            timeout,
            all,
            limit,
            proof,
            cnf_out,
            no_theory,
        } => {
            let options = encoding.options()?;
            if !no_theory && !all && proof.is_none() {
                if let Some(theorem) = theory::no_tour_because(&options) {
                    eprintln!("note: answered without search, by {theorem} (--no-theory searches)");
                    return print_outcome(Outcome::NoTour, format);
                }
            }
            if let Some(proof) = proof {
                if solver != "varisat" {
                    let message = "--proof uses the in-process solver, without --solver";
                    return Err(Error::BadOption(message.into()).into());
                }
                let cnf = cnf_out.unwrap_or_else(|| default_cnf_path(&proof));
                note_default_start(&options);
                let outcome = solve_with_proof(&options, &proof, &cnf)?;
                match outcome {
                    Outcome::NoTour => eprintln!(
                        "wrote {} (DRAT proof) for {}; check with: knightsat certify --cnf {} --proof {}",
                        proof.display(),
                        cnf.display(),
                        cnf.display(),
                        proof.display()
                    ),
                    Outcome::Tour(_) => eprintln!("a tour exists, so there is no proof to write"),
                }
                return print_outcome(outcome, format);
            }
            if all {
                if solver != "varisat" || timeout.is_some() {
                    let message = "--all uses the in-process solver, without --solver or --timeout";
                    return Err(Error::BadOption(message.into()).into());
                }
                return print_all(&options, limit, format);
            }
            if solver == "varisat" && !solver_arg.is_empty() {
                let message = "--solver-arg is for external solvers, not varisat";
                return Err(Error::BadOption(message.into()).into());
            }
            let backend = Backend::from_name(&solver, solver_arg);
            note_default_start(&options);
            let started = Instant::now();
            let progress = io::stderr().is_terminal();
            if progress {
                eprint!(
                    "solving {} ({}) with {solver}…",
                    options.board,
                    kind(&options)
                );
            }
            let outcome = solve(&options, &backend, timeout);
            if progress {
                eprintln!(" {:.2} s", started.elapsed().as_secs_f64());
            }
            let outcome = outcome?;
            print_outcome(outcome, format)
        }
        Command::Decode {
            cnf,
            solver_output,
            format,
        } => {
            let info = dimacs::read_options(input::open(&cnf)?)
                .with_context(|| cnf.display().to_string())?;
            let text = input::read_text(&solver_output)?;
            let outcome = match dimacs::read_answer(text.as_bytes())? {
                Answer::Unsat => Outcome::NoTour,
                Answer::Unknown => return Err(Error::NoAnswer.into()),
                Answer::Sat(model) => Outcome::Tour(tour_from_model(
                    &info.options,
                    model.len() - 1,
                    Some(info.vars),
                    |v| model.get(v).copied().flatten(),
                )?),
            };
            print_outcome(outcome, format)
        }
        Command::Verify { problem, tour } => {
            let given = problem.board()?;
            let text = input::read_text(&tour)?;
            let closed = given.as_ref().map_or(problem.closed, |given| given.closed);
            let tour = parse_tour(&text, given.as_ref().map(|g| g.board.clone()), closed)?;
            let given = given.unwrap_or_else(|| Puzzle {
                board: tour.board.clone(),
                closed: tour.closed,
                clues: Vec::new(),
            });
            let rules = problem.rules(Puzzle {
                closed: tour.closed,
                ..given
            })?;
            verify(&tour.squares, &rules).map_err(Error::from)?;
            println!(
                "valid {} {} tour of the {} board ({} squares)",
                if tour.closed { "closed" } else { "open" },
                tour.board.leaper().name(),
                tour.board,
                tour.squares.len()
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Puzzle {
            shape,
            closed,
            seed,
            solution,
            format,
        } => {
            let board = shape.board()?.ok_or_else(no_board)?;
            let seed = seed.unwrap_or_else(|| fastrand::u64(..));
            let bar = step_bar("clues tried");
            let generated = generate(&board, closed, seed, |done, total| {
                bar.set_length(total as u64);
                bar.set_position(done as u64);
            })?;
            bar.finish_and_clear();
            let Some(Generated {
                puzzle,
                solution: tour,
            }) = generated
            else {
                return print_outcome(Outcome::NoTour, Format::Board);
            };
            eprintln!(
                "{} {} puzzle on the {} board: {} clues (seed {seed}; --seed {seed} makes it again)",
                if closed { "closed" } else { "open" },
                board.leaper().name(),
                board,
                puzzle.clues.len()
            );
            let answer = solution.then_some(&tour);
            let text = match format {
                PuzzleFormat::Board => match answer {
                    Some(tour) => format!("{}\n{}", puzzle.grid(), board_grid(tour)),
                    None => puzzle.grid(),
                },
                PuzzleFormat::Json => {
                    let json = serde_json::to_string(&PuzzleJson::new(&puzzle, answer))?;
                    json + "\n"
                }
                PuzzleFormat::Svg => svg(&puzzle.picture(answer)),
            };
            io::stdout().lock().write_all(text.as_bytes())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Count {
            encoding,
            limit,
            up_to_symmetry,
        } => {
            let options = encoding.options()?;
            let progress = progress_bar("tours");
            let count = CountOptions {
                limit,
                up_to_symmetry,
            };
            let found = enumerate(&options, count, |_| {
                progress.inc(1);
                Ok(())
            })?;
            progress.finish_and_clear();
            println!("{found}");
            if limit == Some(found) {
                eprintln!("note: stopped at the limit of {found}; there may be more");
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Certify { cnf, proof } => match check_proof(&cnf, &proof)? {
            Verdict::Verified => {
                println!(
                    "verified: {} proves {} unsatisfiable",
                    proof.display(),
                    cnf.display()
                );
                Ok(ExitCode::SUCCESS)
            }
            Verdict::Rejected(why) => {
                eprintln!("knightsat: proof rejected by rate: {why}");
                Ok(ExitCode::from(EXIT_FAILURE))
            }
        },
        Command::Stats { encoding, format } => {
            let options = encoding.options()?;
            let stats = dimacs::stats(&options);
            let mut out = io::stdout().lock();
            if format == StatsFormat::Json {
                serde_json::to_writer(&mut out, &stats)?;
                writeln!(out)?;
            } else {
                let live = Live::new(&options).domain.live_count();
                out.write_all(stats_table(&stats, options.vars().count(), live).as_bytes())?;
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// The proof's path with the extension `.cnf`, or with `.cnf` appended when
/// that would be the proof itself.
fn default_cnf_path(proof: &Path) -> PathBuf {
    let cnf = proof.with_extension("cnf");
    if cnf == proof {
        let mut name = proof.as_os_str().to_owned();
        name.push(".cnf");
        PathBuf::from(name)
    } else {
        cnf
    }
}

fn kind(options: &Options) -> &'static str {
    if options.closed {
        "closed tour"
    } else {
        "open tour"
    }
}

fn note_default_start(options: &Options) {
    if options.start_fixed_by_default() {
        eprintln!(
            "note: closed tour with no --start, --end or clue: start fixed at {}, which loses no tour",
            options.board.name(0)
        );
    }
}

/// A bar with position, length and elapsed time on stderr, or nothing
/// when stderr is not a terminal.
fn step_bar(what: &str) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(0).with_style(
        ProgressStyle::with_template(&format!("{{bar:30}} {{pos}}/{{len}} {what}, {{elapsed}}"))
            .expect("a valid template"),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// A spinner with the count, rate and elapsed time on stderr, or nothing
/// when stderr is not a terminal.
fn progress_bar(what: &str) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner().with_style(
        ProgressStyle::with_template(&format!(
            "{{spinner}} {{human_pos}} {what} found, {{per_sec}}, {{elapsed}}"
        ))
        .expect("a valid template"),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// Streams every tour in `format`: JSON Lines for json, blank lines between grids.
fn print_all(options: &Options, limit: Option<u64>, format: Format) -> anyhow::Result<ExitCode> {
    let mut out = io::stdout().lock();
    let count = CountOptions {
        limit,
        up_to_symmetry: false,
    };
    let mut first = true;
    let found = enumerate(options, count, |tour| {
        if format == Format::Board && !std::mem::take(&mut first) {
            out.write_all(b"\n")
                .map_err(|e| Error::io("writing a tour", e))?;
        }
        print_tour(&mut out, tour, format).map_err(|e| Error::io("writing a tour", e))
    })?;
    if found == 0 {
        writeln!(out, "no tour exists for these constraints")?;
        return Ok(ExitCode::from(EXIT_NO_TOUR));
    }
    Ok(ExitCode::SUCCESS)
}

fn print_outcome(outcome: Outcome, format: Format) -> anyhow::Result<ExitCode> {
    let mut out = io::stdout().lock();
    match outcome {
        Outcome::Tour(tour) => {
            print_tour(&mut out, &tour, format)?;
            Ok(ExitCode::SUCCESS)
        }
        Outcome::NoTour => {
            writeln!(out, "no tour exists for these constraints")?;
            Ok(ExitCode::from(EXIT_NO_TOUR))
        }
    }
}

fn print_tour(out: &mut impl Write, tour: &Tour, format: Format) -> io::Result<()> {
    out.write_all(render(tour, format).as_bytes())?;
    out.flush()
}
