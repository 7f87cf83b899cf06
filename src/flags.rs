//! The lists of flags that rules are written against, each written once:
//! clap's conflicts, the "names SAT" test and the error messages all read
//! them, so a new flag joins every rule by joining a list.

use clap::parser::ValueSource;
use clap::ArgMatches;

/// The options that shape the SAT encoding (ids as clap names them). Each
/// means `--method sat`; `count --cnf` refuses them (the file says what
/// they are).
pub const ENCODING: &[&str] = &[
    "encoding",
    "subtours",
    "no_patching",
    "no_merged_cuts",
    "position_support",
    "lap_length",
    "positions",
    "amo",
    "max_clause_len",
    "no_predecessor",
    "no_moves",
    "no_parity",
    "no_reachability",
    "no_symmetry_breaking",
    "preset",
    "blocks",
    "corridor",
];

/// The options of `solve`, besides the encoding's, that only SAT takes:
/// each means `--method sat`.
pub const SAT_ONLY_IN_SOLVE: &[&str] = &["solver", "solver_arg", "proof", "jobs", "depth"];

/// The options of `count`, besides the encoding's, that only SAT takes.
pub const SAT_ONLY_IN_COUNT: &[&str] = &["solver"];

/// The options that describe the problem: `count --cnf` refuses them.
pub const PROBLEM: &[&str] = &[
    "board",
    "size",
    "board_file",
    "holes",
    "leaper",
    "closed",
    "start",
    "end",
    "at",
    "puzzle",
];

/// The options of `count` that choose how it counts: `count --cnf`
/// refuses them (it counts one file with one solver).
pub const COUNT_ROUTE: &[&str] = &["jobs", "depth", "limit", "method"];

/// A flag as typed: `no_moves` is `--no-moves`.
pub fn flag(id: &str) -> String {
    format!("--{}", id.replace('_', "-"))
}

/// The flags of `ids` as typed, separated by commas.
pub fn listed(ids: &[&str]) -> String {
    ids.iter().map(|id| flag(id)).collect::<Vec<_>>().join(", ")
}

/// Whether any flag of `ids` was set on the command line to a value other
/// than its default (`--jobs 1` names no thread count: 1 is the default).
pub fn any_set(command: &clap::Command, matches: &ArgMatches, ids: &[&str]) -> bool {
    ids.iter().any(|id| is_set(command, matches, id))
}

/// Whether the flag `id` was set on the command line to a value other
/// than its default.
fn is_set(command: &clap::Command, matches: &ArgMatches, id: &str) -> bool {
    if matches.value_source(id) != Some(ValueSource::CommandLine) {
        return false;
    }
    let defaults: Vec<&std::ffi::OsStr> = command
        .get_arguments()
        .find(|arg| arg.get_id() == id)
        .map(|arg| {
            arg.get_default_values()
                .iter()
                .map(clap::builder::OsStr::as_os_str)
                .collect()
        })
        .unwrap_or_default();
    let given: Vec<&std::ffi::OsStr> = matches
        .get_raw(id)
        .map(Iterator::collect)
        .unwrap_or_default();
    defaults.is_empty() || given != defaults
}
