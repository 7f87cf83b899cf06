//! The tests that measure a whole process: this one's threads and CPU time
//! (`stopping`) or its children's peak memory (`peak_memory`). Beside other
//! tests in one process they would measure those tests too, so this binary
//! has no test harness: `main` runs them one after another and prints the
//! closing line `N passed, N failed`.

// Of the shared helpers, these tests use a few.
#[allow(dead_code)]
#[path = "../common/mod.rs"]
mod common;
mod peak_memory;
mod stopping;

use std::panic::{catch_unwind, UnwindSafe};
use std::process::ExitCode;

/// Runs `test`, printing its name and whether it passed.
fn run(name: &str, test: impl FnOnce() + UnwindSafe) -> bool {
    let passed = catch_unwind(test).is_ok();
    println!("test {name} ... {}", if passed { "ok" } else { "FAILED" });
    passed
}

fn main() -> ExitCode {
    // The peak memory first, while this process is small: a child counts
    // its parent's peak until it execs.
    let results = [
        run(
            "peak_memory::cubes_beyond_the_memory_budget_are_streamed_or_refused_in_bounded_memory",
            peak_memory::cubes_beyond_the_memory_budget_are_streamed_or_refused_in_bounded_memory,
        ),
        run(
            "peak_memory::a_frontier_count_stays_within_its_memory_budget",
            peak_memory::a_frontier_count_stays_within_its_memory_budget,
        ),
        run(
            "stopping::a_timed_out_call_stops_its_solver",
            stopping::a_timed_out_call_stops_its_solver,
        ),
    ];
    let passed = results.iter().filter(|&&passed| passed).count();
    println!("{passed} passed, {} failed", results.len() - passed);
    if passed == results.len() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
