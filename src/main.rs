//! The `knightsat` command: parses the arguments ([`args`]), turns them
//! into one plan per command ([`plan`]), runs it ([`commands`]), and maps
//! errors to exit statuses, worded in the command line's terms ([`words`]).

mod args;
mod commands;
mod flags;
mod plan;
mod signals;
mod words;

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use knightsat::error::ErrorClass;
use knightsat::Error;

use commands::{WayOut, EXIT_FAILURE};
use plan::{NoBoard, OptionsConflict, Plan, SwitchOfOtherEncoding};

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

/// mimalloc's `mi_option_purge_delay` (the option's place in mimalloc 3's
/// `mi_option_e`, between `eager_commit_delay`, 14, and `use_numa_nodes`,
/// 16, which libmimalloc-sys names; checked by a test).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Has mimalloc give the memory freed so far, and from now on at once,
/// back to the kernel, rather than a second later (mimalloc 3's default
/// purge delay). The frontier counter frees its tables by the gigabyte,
/// part by part as it reads them, while the next step's grow: with the
/// delay, a refusal within a --memory-budget of 300 MiB (7x8 closed) came
/// at 364 MiB resident, and 310 MiB without it (10 MiB is the program's
/// own). Not for every run: small counts take about 8% longer so, and
/// `solve --size 300 --encoding successor --solver cadical` 20%.
pub(crate) fn give_memory_back_at_once() {
    // SAFETY: mi_option_set stores an integer in mimalloc's option table;
    // mi_collect only returns free memory.
    unsafe {
        libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 0);
        libmimalloc_sys::mi_collect(true);
    }
}

fn main() -> ExitCode {
    without_huge_pages();
    let (cli, matches) = match args::parse() {
        Ok(parsed) => parsed,
        Err(error) => return usage_error(&error),
    };
    if let Err(error) = signals::exit_on_signals() {
        let _ = writeln!(io::stderr(), "knightsat: cannot watch for signals: {error}");
        return ExitCode::from(EXIT_FAILURE);
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
fn run(plan: Plan) -> anyhow::Result<ExitCode> {
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
    }
}

/// `--help` and `--version` print and succeed; any other error of clap's
/// is bad usage, said in one line: clap's message runs to the first blank
/// line, usage and hints follow.
fn usage_error(error: &clap::Error) -> ExitCode {
    if !error.use_stderr() {
        return print_help(error);
    }
    if matches!(
        error.kind(),
        clap::error::ErrorKind::MissingSubcommand
            | clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        // clap's first paragraph would be the tool's description.
        let _ = writeln!(
            io::stderr(),
            "knightsat: no command given: {} (see --help)",
            args::command_names().join(", ")
        );
        return ExitCode::from(EXIT_BAD_INPUT);
    }
    let rendered = error.render().to_string();
    let message: Vec<&str> = rendered
        .lines()
        .take_while(|line| !line.trim().is_empty())
        .map(str::trim)
        .collect();
    let message = message.join(" ");
    let message = message.strip_prefix("error: ").unwrap_or(&message);
    let _ = writeln!(io::stderr(), "knightsat: {message} (see --help)");
    ExitCode::from(EXIT_BAD_INPUT)
}

/// Prints `--help` or `--version` to standard output. A failed write is an
/// error (`--help > /dev/full`), except a closed pipe (`--help | head`).
fn print_help(help: &clap::Error) -> ExitCode {
    let rendered = help.render();
    let text = if io::stdout().is_terminal() {
        rendered.ansi().to_string()
    } else {
        rendered.to_string()
    };
    let mut stdout = io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(error) if error.kind() != io::ErrorKind::BrokenPipe => {
            let _ = writeln!(io::stderr(), "knightsat: cannot write the help: {error}");
            ExitCode::from(EXIT_FAILURE)
        }
        _ => ExitCode::SUCCESS,
    }
}

/// The exit status for an error.
fn exit_status(error: &anyhow::Error) -> u8 {
    if error.downcast_ref::<NoBoard>().is_some()
        || error.downcast_ref::<SwitchOfOtherEncoding>().is_some()
        || error.downcast_ref::<OptionsConflict>().is_some()
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

#[cfg(test)]
mod tests {
    use super::{give_memory_back_at_once, MI_OPTION_PURGE_DELAY};

    /// The option set is mimalloc's purge delay: it lies just before the
    /// one libmimalloc-sys names 16, holds a delay in milliseconds, and
    /// reads 0 once set.
    #[test]
    fn memory_goes_back_with_no_delay() {
        assert_eq!(
            MI_OPTION_PURGE_DELAY + 1,
            libmimalloc_sys::mi_option_use_numa_nodes
        );
        if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
            // SAFETY: reads an integer from mimalloc's option table.
            let default = unsafe { libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY) };
            assert_eq!(
                default, 1000,
                "mimalloc 3's default purge delay (options.c)"
            );
        }
        give_memory_back_at_once();
        // SAFETY: reads an integer from mimalloc's option table.
        assert_eq!(
            unsafe { libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY) },
            0
        );
    }
}
