//! The command line turned into what to do (the high stage): one plan per
//! command, made in one function, [`plan`], from clap's structs. Every
//! rule about what a flag means is applied here, once: which method a
//! SAT option chooses, which solver and limits a request carries, and
//! what the library refuses before any work starts.

mod count;
mod paths;
pub use paths::is_standard_output;
mod problem;

use crate::failure::{with_way_out, Failure, Fallible, OptionsConflict};
use std::path::PathBuf;
use std::time::Duration;

use clap::parser::ValueSource;
use clap::ArgMatches;

use knightsat::count::tally::CubeRange;
use knightsat::encoding::{Encoding, EncodingConfig, EncodingError};
use knightsat::model::board::Board;
use knightsat::model::problem::Problem;
use knightsat::sat::Backend;
use knightsat::solve::{Method, Request};
use knightsat::Error;
use knightsat::Format;

use crate::args::{
    BuiltInSolver, Cli, Command, CubesCommand, FormatArg, Generated, MemoryBudgetArgs, ProblemArgs,
    PuzzleCommand, PuzzleFormat, SolveArgs, StatsFormat,
};
use crate::flags;

pub use count::{Count, CountArgs};

/// What one command is to do, every flag read.
pub enum Plan {
    /// Write the formula.
    Encode(Encode),
    /// Find a tour, every tour, or a proof that there is none.
    Solve(Solve),
    /// Count the tours of a problem.
    Count(Count),
    /// Count the models of a knightsat CNF by `request`'s solver.
    CountCnf { cnf: PathBuf, request: Request },
    /// Add up the lines of `count --cubes`.
    Sum {
        files: Vec<PathBuf>,
        cubes: Option<CubeRange>,
    },
    /// Write the formula with its cubes.
    Cubes(Cubes),
    /// Turn a solver's output into a verified tour.
    Decode {
        cnf: PathBuf,
        solver_output: PathBuf,
        format: Format,
    },
    /// Check a tour without SAT, against the rules `problem` gives.
    Verify { problem: ProblemArgs, tour: PathBuf },
    /// Make a puzzle.
    Puzzle(Puzzle),
    /// Check a DRAT proof.
    Certify { cnf: PathBuf, proof: PathBuf },
    /// The formula's size per family.
    Stats {
        encoding: Box<dyn Encoding>,
        format: StatsFormat,
    },
    /// Print the man page or a shell's completions.
    Generate(Generated),
}

/// `encode`: the formula and where it goes.
pub struct Encode {
    /// The problem encoded.
    pub problem: Problem,
    /// Its encoding, prepared.
    pub encoding: Box<dyn Encoding>,
    /// The file, or `-` for stdout.
    pub output: PathBuf,
}

/// `solve`: the problem, the route and what to print.
pub struct Solve {
    /// The problem.
    pub problem: Problem,
    /// The method asked for (the job resolves `auto` where a SAT option
    /// is named).
    pub method: Method,
    /// The request: the gate first unless --no-theory, and one time limit
    /// for the gate and the search.
    pub request: Request,
    /// The DRAT proof's path and the CNF's beside it, with `--proof`.
    pub proof: Option<(PathBuf, PathBuf)>,
    /// `--all`: every tour, up to `limit`.
    pub all: bool,
    /// `--limit`.
    pub limit: Option<u64>,
    /// How to print tours.
    pub format: Format,
    /// Threads solving cubes.
    pub jobs: usize,
    /// Cube depth.
    pub depth: Option<usize>,
    /// Say how the search went.
    pub verbose: bool,
    /// Whether an option only SAT takes was named (an encoding option,
    /// --solver, --proof, --jobs, --depth): a way out must keep to SAT.
    pub names_sat: bool,
}

/// `cubes`: the formula and its cubes.
pub struct Cubes {
    /// The problem.
    pub problem: Problem,
    /// The encoding's configuration.
    pub config: EncodingConfig,
    /// The encoding, prepared.
    pub encoding: Box<dyn Encoding>,
    /// Moves each cube fixes.
    pub depth: usize,
    /// The iCNF's file, or `-`.
    pub output: PathBuf,
    /// `--split DIR`.
    pub split: Option<PathBuf>,
    /// `--count`: only say how many cubes there are.
    pub count_only: bool,
}

/// `puzzle`: the board and how to make and print the puzzle.
pub struct Puzzle {
    /// The board.
    pub board: Board,
    /// The solution is a closed tour.
    pub closed: bool,
    /// The random seed, if given.
    pub seed: Option<u64>,
    /// Print the solution too.
    pub solution: bool,
    /// How to print.
    pub format: PuzzleFormat,
    /// The built-in solver, budget and time limit.
    pub request: Request,
}

/// Turns the command line as given into its plan: the one place where
/// flags become library values and combinations are refused.
pub fn plan(cli: Cli, matches: &ArgMatches) -> Fallible<Plan> {
    let (name, given) = matches.subcommand().expect("clap requires a command");
    let budget = |memory: &MemoryBudgetArgs| budget_mib(memory, given);
    let command = crate::args::command();
    let command = command
        .find_subcommand(name)
        .expect("the matches name one of its commands");
    let names = |ids: &[&str]| flags::any_set(command, given, ids);
    Ok(match cli.command {
        Command::Encode {
            problem,
            encoding,
            output,
        } => {
            paths::not_a_directory("--output", &output)?;
            let (problem, _, encoding) =
                successor_if_too_large(encoding.problem_and_encoding(&problem))?;
            Plan::Encode(Encode {
                problem,
                encoding,
                output,
            })
        }
        Command::Solve {
            problem,
            options,
            encoding,
        } => {
            let names_sat = names(flags::ENCODING) || names(flags::SAT_ONLY_IN_SOLVE);
            let (problem, config) = encoding.problem_and_config(&problem)?;
            let budget = budget(&options.memory)?;
            Plan::Solve(solve(problem, config, options, names_sat, budget)?)
        }
        Command::Count(command) => {
            let budget = budget(&command.memory)?;
            count::count(
                command,
                names(flags::ENCODING) || names(flags::SAT_ONLY_IN_COUNT),
                budget,
            )?
        }
        Command::Sum { files, cubes } => {
            paths::each_once(&files)?;
            Plan::Sum { files, cubes }
        }
        Command::Cubes(command) => cubes(command)?,
        Command::Decode {
            cnf,
            solver_output,
            format,
        } => decode(cnf, solver_output, format)?,
        Command::Verify { problem, tour } => verify(problem, tour)?,
        Command::Puzzle(command) => puzzle(command, &budget)?,
        Command::Certify { cnf, proof } => certify(cnf, proof)?,
        Command::Stats {
            problem,
            format,
            encoding,
        } => Plan::Stats {
            encoding: successor_if_too_large(encoding.problem_and_encoding(&problem))?.2,
            format,
        },
        Command::Generate { what } => Plan::Generate(what),
    })
}

/// A formula the time-indexed encoding refuses for the board's size,
/// with the way out: the successor encoding, linear in the board (cubes
/// are numbered by the time-indexed encoding alone, so not for `cubes`).
fn successor_if_too_large<T>(formula: Fallible<T>) -> Fallible<T> {
    formula.map_err(|failure| match failure {
        Failure::Library(
            error @ Error::Encoding(EncodingError::BoardTooLargeForEncoding {
                encoding: "time-indexed",
                ..
            }),
        ) => with_way_out(
            error,
            Some("--encoding successor takes larger boards".into()),
        ),
        failure => failure,
    })
}

/// The plan of `cubes`: the formula and its cubes.
fn cubes(command: CubesCommand) -> Fallible<Plan> {
    let CubesCommand {
        problem,
        encoding,
        depth,
        output,
        split,
        count,
    } = command;
    paths::not_a_directory("--output", &output)?;
    if let Some(dir) = &split {
        paths::a_directory_if_there("--split", dir)?;
    }
    let (problem, config, encoding) = encoding.problem_and_encoding(&problem)?;
    Ok(Plan::Cubes(Cubes {
        problem,
        config,
        encoding,
        depth: usize::try_from(depth)?,
        output,
        split,
        count_only: count,
    }))
}

/// The plan of `puzzle`: the board, a built-in solver within the budget
/// `budget` gives and the time limit.
fn puzzle(
    command: PuzzleCommand,
    budget: &impl Fn(&MemoryBudgetArgs) -> Result<u64, OptionsConflict>,
) -> Fallible<Plan> {
    let PuzzleCommand {
        shape,
        closed,
        seed,
        solution,
        format,
        solver,
        timeout,
        memory,
    } = command;
    let board = shape.required_board()?;
    if board.graph().is_some() {
        return Err(OptionsConflict(
            "puzzle numbers a board's squares in a grid: not for --graph (solve --graph --at N=V takes clues)"
                .into(),
        )
        .into());
    }
    Ok(Plan::Puzzle(Puzzle {
        board,
        closed,
        seed,
        solution,
        format,
        request: sat_request(solver, budget(&memory)?, timeout),
    }))
}

/// The memory budget: the default stays within the room an address-space
/// limit (`ulimit -v`) leaves for it, a third of the limit (clap's default
/// already is); one given stands, unless it is over that third, where the
/// process would run out of address space before its tables met the
/// budget: refused.
fn budget_mib(memory: &MemoryBudgetArgs, given: &ArgMatches) -> Result<u64, OptionsConflict> {
    let Some(room) = knightsat::runtime::memory::budget_within_the_address_space_mib() else {
        return Ok(memory.memory_budget);
    };
    if given.value_source("memory_budget") == Some(ValueSource::CommandLine)
        && memory.memory_budget > room
    {
        return Err(OptionsConflict(format!(
            "--memory-budget {} is over a third of the address-space limit (ulimit -v: {} MiB), which the process needs beside its tables: give at most {room}, or raise the limit",
            memory.memory_budget,
            knightsat::runtime::memory::address_space_limit_mib().unwrap_or(room * 3)
        )));
    }
    Ok(memory.memory_budget)
}

/// The plan of `decode`: standard input read once at most.
fn decode(cnf: PathBuf, solver_output: PathBuf, format: FormatArg) -> Fallible<Plan> {
    paths::stdin_once(&[
        ("--cnf", Some(&cnf)),
        ("the solver's output", Some(&solver_output)),
    ])?;
    Ok(Plan::Decode {
        cnf,
        solver_output,
        format: format.into(),
    })
}

/// The plan of `certify`: two files, which the checker reads by name (the
/// proof perhaps twice), so not standard input.
fn certify(cnf: PathBuf, proof: PathBuf) -> Fallible<Plan> {
    for (flag, path) in [("--cnf", &cnf), ("--proof", &proof)] {
        if path.as_os_str() == "-" {
            return Err(OptionsConflict(format!(
                "certify reads files, not standard input: give {flag} a file"
            ))
            .into());
        }
    }
    Ok(Plan::Certify { cnf, proof })
}

/// The plan of `verify`: standard input read once at most.
fn verify(problem: ProblemArgs, tour: PathBuf) -> Fallible<Plan> {
    paths::stdin_once(&[
        ("--board-file", problem.shape.board.board_file.as_deref()),
        ("--graph", problem.shape.board.graph.as_deref()),
        ("--puzzle", problem.puzzle.as_deref()),
        ("the tour", Some(&tour)),
    ])?;
    Ok(Plan::Verify { problem, tour })
}

/// The plan of `solve`: the method (SAT where a SAT option is named), the
/// solver by name, and the request the search gets.
fn solve(
    problem: Problem,
    config: EncodingConfig,
    args: SolveArgs,
    names_sat: bool,
    budget_mib: u64,
) -> Fallible<Solve> {
    if args.all && args.format == FormatArg::Svg {
        // One SVG document holds one picture; several back to back are not XML.
        return Err(OptionsConflict(
            "--format svg draws one tour: with --all, use --format board, moves or json".into(),
        )
        .into());
    }
    if problem.board().graph().is_some() && args.format == FormatArg::Svg {
        return Err(OptionsConflict(
            "--format svg draws a board's squares: draw a graph with --format dot (Graphviz)"
                .into(),
        )
        .into());
    }
    let default_solver = Backend::default();
    let solver = args.solver.as_deref().unwrap_or(default_solver.name());
    if args.watch_subtours && solver != Backend::Cadical.name() {
        return Err(OptionsConflict(
            "--watch-subtours works inside built-in CaDiCaL's search: add --solver cadical".into(),
        )
        .into());
    }
    let request = Request {
        config,
        backend: Backend::from_name(solver, args.solver_arg)?,
        memory_budget_mib: budget_mib,
        seed: args.seed,
        timeout: args.timeout,
        proof: args.proof.is_some(),
        every_tour: args.all,
        gate: !args.no_theory,
        watch_subtours: args.watch_subtours,
        ..Request::default()
    };
    let proof = paths::proof_and_cnf(args.proof, args.cnf_out)?;
    Ok(Solve {
        problem,
        method: args.method.into(),
        request,
        proof,
        all: args.all,
        limit: args.limit,
        format: args.format.into(),
        jobs: args.jobs,
        depth: args.depth.map(usize::try_from).transpose()?,
        verbose: args.verbose,
        names_sat,
    })
}

/// A request for SAT by a built-in solver (varisat unless named) within
/// the memory budget and the time limit; the command fills in the encoding.
fn sat_request(
    solver: Option<BuiltInSolver>,
    budget_mib: u64,
    timeout: Option<Duration>,
) -> Request {
    Request {
        backend: solver.unwrap_or_default().into(),
        timeout,
        memory_budget_mib: budget_mib,
        ..Request::default()
    }
}
