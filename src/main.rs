//! The `knightsat` command: parses arguments, calls one function per
//! command (in `commands.rs`), words errors in the command line's terms and
//! maps them to exit statuses.

mod args;
mod commands;
mod signals;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;

use knightsat::count::CountOptions;
use knightsat::error::{ErrorClass, Unsupported};
use knightsat::solve::Request;
use knightsat::Error;

use args::{BuiltInSolver, Cli, Command, MethodArg, NoBoard, SwitchOfOtherEncoding};
use commands::{PuzzleArgs, WayOut, EXIT_FAILURE};

/// Exit status for bad usage or bad input.
const EXIT_BAD_INPUT: u8 = 2;
/// Exit status when the time limit runs out, as `timeout(1)` uses.
pub const EXIT_TIMEOUT: u8 = 124;
/// Exit status when an incomplete method (Warnsdorff's rule) gives up: no
/// tour found, and nothing proved.
const EXIT_GAVE_UP: u8 = 3;

/// mimalloc for every allocation in the process: with its `override`
/// feature it also serves the `malloc` and `new` of the `CaDiCaL` linked in,
/// whose millions of small clauses glibc's allocator hands out and frees
/// slowly (docs/benchmarks.md, "Solvers side by side").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Asks the kernel for no transparent huge pages in this process. mimalloc
/// asks for them for its arenas, and on these virtual machines a fresh 2 MiB
/// page costs more to clear than it saves: `solve --size 300 --start a1
/// --encoding successor --solver cadical` spent 61% of its time clearing
/// pages and took 4.7 s with them, 2.4 s without (glibc's allocator: 3.5 s).
/// A refusal (an old kernel) only loses the speed.
fn without_huge_pages() {
    // SAFETY: PR_SET_THP_DISABLE takes integer arguments and touches no
    // memory of ours.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

fn main() -> ExitCode {
    without_huge_pages();
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
            let _ = writeln!(io::stderr(), "knightsat: {message} (see --help)");
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    if let Err(error) = signals::exit_on_signals() {
        let _ = writeln!(io::stderr(), "knightsat: cannot watch for signals: {error}");
        return ExitCode::from(EXIT_FAILURE);
    }
    let result = run(cli.command, cli.memory_budget);
    signals::exit_if_signalled();
    match result {
        Ok(code) => code,
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            let _ = writeln!(io::stderr(), "knightsat: {}", describe(&error));
            ExitCode::from(exit_status(&error))
        }
    }
}

/// Runs one command; the in-process solvers may use `budget_mib` MiB.
// One arm per command (and per form of `count`): long, but flat.
#[allow(clippy::too_many_lines)]
fn run(command: Command, budget_mib: u64) -> anyhow::Result<ExitCode> {
    match command {
        Command::Encode { encoding, output } => commands::encode(&encoding, &output),
        Command::Solve { encoding, options } => commands::solve(&encoding, options, budget_mib),
        Command::Decode {
            cnf,
            solver_output,
            format,
        } => commands::decode(&cnf, &solver_output, format),
        Command::Verify { problem, tour } => commands::verify(&problem, &tour),
        Command::Puzzle {
            shape,
            closed,
            seed,
            solution,
            format,
            solver,
            timeout,
        } => commands::puzzle(
            &shape,
            PuzzleArgs {
                closed,
                seed,
                solution,
                format,
            },
            &sat_request(solver, budget_mib, timeout),
        ),
        Command::Count {
            cnf: Some(cnf),
            solver,
            timeout,
            ..
        } => commands::count_cnf(&cnf, &sat_request(solver, budget_mib, timeout)),
        Command::Count {
            encoding,
            method,
            solver,
            timeout,
            jobs,
            depth: Some(depth),
            cnf: None,
            cubes: Some(range),
            sample: None,
            ..
        } => commands::count_cube_range(
            &encoding,
            sat_if_named(method, solver.is_some() || encoding.names_encoding()),
            &sat_request(solver, budget_mib, timeout),
            jobs,
            usize::try_from(depth)?,
            range,
        ),
        Command::Sum { files, cubes } => commands::sum(&files, cubes),
        Command::Count {
            encoding,
            method,
            solver,
            timeout,
            jobs,
            depth,
            cnf: None,
            sample: Some(sample),
            seed,
            cubes,
            ..
        } => {
            let method = sat_if_named(method, solver.is_some() || encoding.names_encoding());
            commands::estimate(
                &encoding,
                method,
                &sat_request(solver, budget_mib, timeout),
                jobs,
                depth.map(usize::try_from).transpose()?,
                cubes,
                usize::try_from(sample)?,
                seed,
            )
        }
        Command::Count {
            encoding,
            method,
            solver,
            timeout,
            limit,
            up_to_symmetry,
            jobs,
            depth,
            verbose,
            cnf: None,
            sample: None,
            ..
        } => {
            let method = sat_if_named(method, solver.is_some() || encoding.names_encoding());
            commands::count(
                &encoding,
                method,
                &sat_request(solver, budget_mib, timeout),
                CountOptions {
                    limit,
                    up_to_symmetry,
                },
                jobs,
                depth.map(usize::try_from).transpose()?,
                verbose,
            )
        }
        Command::Cubes {
            encoding,
            depth,
            output,
            split,
            count,
        } => commands::cubes(
            &encoding,
            usize::try_from(depth)?,
            &output,
            split.as_deref(),
            count,
        ),
        Command::Certify { cnf, proof } => commands::certify(&cnf, &proof),
        Command::Stats { encoding, format } => commands::stats_of(&encoding, format),
    }
}

/// `--method auto` becomes `--method sat` where an option that only SAT
/// takes is `named`: explicit choices win over the default route. (Cubes
/// are not such an option: backtracking splits into cubes too.)
fn sat_if_named(method: MethodArg, named: bool) -> MethodArg {
    match method {
        MethodArg::Auto if named => MethodArg::Sat,
        other => other,
    }
}

/// A request for SAT by a built-in solver (varisat unless named) within
/// the memory budget and the time limit; the command fills in the encoding.
fn sat_request(
    solver: Option<BuiltInSolver>,
    budget_mib: u64,
    timeout: Option<std::time::Duration>,
) -> Request {
    Request {
        backend: solver.unwrap_or_default().into(),
        timeout,
        memory_budget_mib: budget_mib,
        ..Request::default()
    }
}

/// The error in one line, in the command line's words: the library's
/// errors carry values, and those that concern a flag are worded with it.
fn describe(error: &anyhow::Error) -> String {
    if let Some(WayOut { error, hint }) = error.downcast_ref::<WayOut>() {
        return format!("{}; {hint}", describe_library(error, None));
    }
    let Some(library) = error.downcast_ref::<Error>() else {
        return format!("{error:#}");
    };
    // Context the command added (a file name) stays in front.
    let context = (error.chain().count() > 1).then(|| error.to_string());
    describe_library(library, context)
}

/// A library error in one line, in the command line's words, after the
/// `context` the command added.
fn describe_library(library: &Error, context: Option<String>) -> String {
    let worded = match library {
        Error::MoveListNeedsBoard => {
            return "cannot read the tour: a move list needs --board (JSON tours carry their own)"
                .into();
        }
        Error::TimedOutPartway { seconds, found } => {
            return format!(
                "the --timeout of {seconds} s ran out after {found} tours: the tours printed are a partial list, not every tour (exit 124)"
            );
        }
        Error::OverMemoryBudget { .. } | Error::FrontierOverMemoryBudget { .. } => {
            return format!("{library} (--memory-budget)");
        }
        Error::CubesOverMemoryBudget { smaller_depth, .. } => {
            let instead = match smaller_depth {
                Some(depth) => format!("--depth {depth} or less fits"),
                None => "no smaller --depth fits".to_string(),
            };
            return format!(
                "{library} (--memory-budget): {instead}; `cubes -o FILE` and `cubes --split DIR` write any number of cubes without holding them"
            );
        }
        Error::SameOutputTwice { path } => {
            format!("--proof and --cnf-out both name {path}: give them different files")
        }
        Error::ClauseLengthTooShort { len } => {
            format!("--max-clause-len must be at least 3, got {len}")
        }
        Error::BlocksDoNotFit { rows, cols, board } => format!(
            "--blocks {rows}x{cols} does not fit the {board} board: each block needs a rank and a file"
        ),
        Error::Unsupported(what) => unsupported_in_words(*what),
        Error::BoardTooLargeForEncoding { .. } => library.to_string(),
        _ => {
            let mut text = context.map_or_else(String::new, |context| format!("{context}: "));
            text.push_str(&library.to_string());
            let mut source = std::error::Error::source(library);
            while let Some(cause) = source {
                let _ = std::fmt::Write::write_fmt(&mut text, format_args!(": {cause}"));
                source = cause.source();
            }
            return text;
        }
    };
    match context {
        None => format!("bad option: {worded}"),
        Some(context) => format!("{context}: bad option: {worded}"),
    }
}

/// A request the library cannot serve, in the command line's words.
fn unsupported_in_words(what: Unsupported) -> String {
    match what {
        Unsupported::ProofWithExternalSolver => {
            "--proof uses a built-in solver: --solver varisat or --solver cadical".into()
        }
        Unsupported::AllWithExternalSolver => {
            "--all uses a built-in solver: --solver varisat or --solver cadical".into()
        }
        Unsupported::JobsWithExternalSolver => {
            "--jobs and --depth solve cubes with a built-in solver: --solver varisat or --solver cadical".into()
        }
        Unsupported::ArgumentsForBuiltIn(solver) => {
            format!("--solver-arg is for solver programs, not the built-in {solver}")
        }
        Unsupported::ProofWithoutSat(method) => {
            format!("--proof needs --method sat: only SAT writes proofs, not --method {method}")
        }
        Unsupported::SolverWithoutSat(method) => format!(
            "--solver is for --method sat: --method {method} searches without a SAT solver"
        ),
        Unsupported::EncodingOptionsWithoutSat(method) => format!(
            "the encoding options (--encoding, --subtours, --amo, --max-clause-len, --no-predecessor, --no-moves, --no-parity, --no-reachability, --no-symmetry-breaking, --preset, --blocks) are for --method sat, not --method {method}"
        ),
        Unsupported::EveryTourByWarnsdorff => {
            "--method warnsdorff finds one tour: --all and count need --method backtrack or sat".into()
        }
        Unsupported::CluesByWarnsdorff => {
            "--method warnsdorff does not take clues (--at, --puzzle): use --method backtrack or sat".into()
        }
        Unsupported::SeedWithoutWarnsdorff(method) => {
            format!("--seed is for --method warnsdorff, not --method {method}")
        }
        Unsupported::CubesWithoutSat(method) => {
            format!("--jobs and --depth split the SAT encoding into cubes: not for --method {method}")
        }
        Unsupported::CubesWithSuccessor => {
            "cubes (`cubes`, --jobs, --depth) need --encoding time-indexed: they fix the first moves in time, which --encoding successor does not number".into()
        }
        Unsupported::OrbitsWithCubes => {
            "--up-to-symmetry counts orbits with one solver, without cubes: not with --jobs N (N > 1) or --depth, since a tour and its images fall in different cubes".into()
        }
        Unsupported::LazyFormulaWritten => {
            "--subtours lazy is for solving in a loop: a file of it would have models that are not tours; encode writes --subtours complete".into()
        }
        Unsupported::TourByFrontier => {
            "--method frontier counts tours without finding one: it is for count".into()
        }
        Unsupported::CluesByFrontier => {
            "--method frontier does not take clues (--at, --puzzle): count them with --method backtrack or sat".into()
        }
        Unsupported::PartsByFrontier => {
            "--method frontier counts the whole board at once: not with --depth, --cubes, --sample or --limit".into()
        }
        Unsupported::OrbitsByFrontier => {
            "--up-to-symmetry compares the tours it lists, which --method frontier never does: use --method backtrack or sat".into()
        }
        Unsupported::ProofWithLazySubtours => {
            "--proof needs the complete formula: add --subtours complete (lazy subtour cuts do not follow from the clauses)".into()
        }
    }
}

/// The exit status for an error.
fn exit_status(error: &anyhow::Error) -> u8 {
    if error.downcast_ref::<NoBoard>().is_some()
        || error.downcast_ref::<SwitchOfOtherEncoding>().is_some()
    {
        return EXIT_BAD_INPUT;
    }
    let library = match error.downcast_ref::<WayOut>() {
        Some(way_out) => Some(&way_out.error),
        None => error.downcast_ref::<Error>(),
    };
    match library.map(Error::class) {
        Some(ErrorClass::BadInput) => EXIT_BAD_INPUT,
        Some(ErrorClass::Timeout) => EXIT_TIMEOUT,
        Some(ErrorClass::GaveUp) => EXIT_GAVE_UP,
        Some(ErrorClass::Failure) | None => EXIT_FAILURE,
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
