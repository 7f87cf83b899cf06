//! The `knightsat` command: parses the arguments ([`args`]), turns them
//! into one plan per command ([`plan`]), runs it ([`commands`]), and maps
//! errors to exit statuses, worded in the command line's terms ([`words`]).

mod allocator;
mod args;
mod commands;
mod failure;
mod flags;
mod plan;
mod signals;
mod usage;
mod words;

use failure::{Failure, Fallible};
use std::io::{self, Write};
use std::process::ExitCode;

use knightsat::error::ErrorClass;

use commands::EXIT_FAILURE;
use plan::Plan;

/// Exit status for bad usage or bad input.
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit status when the time limit runs out, as `timeout(1)` uses.
pub const EXIT_TIMEOUT: u8 = 124;
/// Exit status when an incomplete method (Warnsdorff's rule) gives up: no
/// tour found, and nothing proved.
const EXIT_GAVE_UP: u8 = 3;

fn main() -> ExitCode {
    commands::guard_closed_stdout();
    allocator::without_huge_pages();
    allocator::watch_for_out_of_memory();
    let (cli, matches) = match args::parse() {
        Ok(parsed) => parsed,
        Err(error) => return usage::usage_error(&error),
    };
    if let Err(error) = signals::exit_on_signals() {
        // A thread refused at the start: a process or address-space limit,
        // like a budget the run cannot keep.
        let _ = writeln!(io::stderr(), "knightsat: cannot watch for signals: {error}");
        return ExitCode::from(EXIT_BAD_INPUT);
    }
    let result = plan::plan(cli, &matches).and_then(run);
    signals::exit_if_signalled();
    match result {
        Ok(code) => code,
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            let _ = writeln!(io::stderr(), "knightsat: {}", words::describe(&error));
            ExitCode::from(exit_status(&error))
        }
    }
}

/// Runs one command's plan.
fn run(plan: Plan) -> Fallible<ExitCode> {
    match plan {
        Plan::Encode(plan) => commands::formula::encode(&plan),
        Plan::Solve(plan) => commands::solve::solve(&plan),
        Plan::Count(plan) => commands::count::count(&plan),
        Plan::CountCnf { cnf, request } => commands::count::count_cnf(&cnf, &request),
        Plan::Sum { files, cubes } => commands::count::sum(&files, cubes),
        Plan::Cubes(plan) => commands::formula::cubes(plan),
        Plan::Decode {
            cnf,
            solver_output,
            format,
        } => commands::check::decode(&cnf, &solver_output, format),
        Plan::Verify { problem, tour } => commands::check::verify(&problem, &tour),
        Plan::Puzzle(plan) => commands::puzzle::puzzle(&plan),
        Plan::Certify { cnf, proof } => commands::check::certify(&cnf, &proof),
        Plan::Stats { encoding, format } => commands::formula::stats_of(&*encoding, format),
        Plan::Generate(what) => commands::generate::generate(what),
    }
}

/// The exit status for a failure: the one place it is chosen.
fn exit_status(failure: &Failure) -> u8 {
    match failure.class() {
        ErrorClass::BadInput => EXIT_BAD_INPUT,
        ErrorClass::Timeout => EXIT_TIMEOUT,
        ErrorClass::GaveUp => EXIT_GAVE_UP,
        ErrorClass::Failure => EXIT_FAILURE,
    }
}

/// A closed pipe (`knightsat encode … | head`) ends the output, not in error.
fn is_broken_pipe(failure: &Failure) -> bool {
    failure.library().and_then(knightsat::Error::io_kind) == Some(io::ErrorKind::BrokenPipe)
}
