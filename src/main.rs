//! The `knightsat` command: parses the arguments ([`args`]), turns them
//! into one plan per command ([`plan`]), runs it ([`commands`]), and maps
//! errors to exit statuses, worded in the command line's terms ([`words`]).

mod allocator;
mod args;
mod commands;
mod exit;
mod failure;
mod flags;
mod plan;
mod signals;
mod usage;
mod words;

use failure::{Failure, Fallible};
use std::io::{self, Write};
use std::process::ExitCode;

use plan::Plan;

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
        return ExitCode::from(exit::BAD_INPUT);
    }
    let result = plan::plan(cli, &matches).and_then(run);
    signals::exit_if_signalled();
    match result {
        Ok(code) => code,
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            let _ = writeln!(io::stderr(), "knightsat: {}", words::describe(&error));
            ExitCode::from(exit::status_of(error.class()))
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

/// A closed pipe (`knightsat encode … | head`) ends the output, not in error.
fn is_broken_pipe(failure: &Failure) -> bool {
    failure.library().and_then(knightsat::Error::io_kind) == Some(io::ErrorKind::BrokenPipe)
}
