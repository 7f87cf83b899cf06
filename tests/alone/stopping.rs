//! A timed-out library call returns soon after its limit, and leaves no
//! thread behind it still solving. In the `alone` binary, run with nothing
//! beside it, so that the thread count and CPU time it watches are its own.

use crate::common;
use knightsat::error::RunError;

use std::time::{Duration, Instant};

use common::sat::solve;
use knightsat::encoding::{Subtours, SuccessorConfig, TimeIndexedConfig};
use knightsat::error::Error;
use knightsat::sat::Backend;
use knightsat::solve::{Method, Request, SolveJob};

/// The threads of this process.
fn threads() -> usize {
    std::fs::read_dir("/proc/self/task").unwrap().count()
}

/// The CPU time this process has used, in clock ticks.
fn cpu_ticks() -> u64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    let after_name = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of stat(5), 12 and 13 here.
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

/// Asserts that `call` times out within `limit` plus a few seconds (a
/// hung solver would run for minutes; a loaded machine stretches the
/// moment it takes to stop and clean up), and that afterwards no thread of
/// it remains and nothing burns CPU.
fn stops(what: &str, limit: Duration, call: impl FnOnce() -> Result<(), Error>) {
    let before = threads();
    let started = Instant::now();
    let result = call();
    let took = started.elapsed();
    assert!(
        matches!(result, Err(Error::Run(RunError::Timeout { .. }))),
        "{what}: {result:?}"
    );
    assert!(
        took < limit + Duration::from_secs(5),
        "{what}: took {took:?}"
    );
    // A scoped thread is joined when its work is done; the system thread
    // then ends a moment later.
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(threads(), before, "{what}: a thread outlived the call");
    let ticks = cpu_ticks();
    std::thread::sleep(Duration::from_millis(500));
    // 100 ticks a second: an abandoned solver would use about 50 here.
    assert!(
        cpu_ticks() - ticks < 10,
        "{what}: the process kept working after the call returned"
    );
}

pub fn a_timed_out_call_stops_its_solver() {
    let limit = Duration::from_secs(1);
    let hard = common::adapters::plain_problem(300, 300, false, None);
    let lazy = SuccessorConfig {
        subtours: Subtours::Lazy,
        ..SuccessorConfig::default()
    };
    for backend in [
        Backend::Varisat,
        Backend::Cadical,
        Backend::from_name(&common::sat::program("kissat"), Vec::new()).unwrap(),
    ] {
        let request = Request {
            timeout: Some(limit),
            ..common::sat::request(lazy, &backend)
        };
        stops(backend.name(), limit, || solve(&hard, &request).map(drop));
    }
    // Cubes on two threads: no closed tour exists on 4x14 (Schwenk), and
    // without the move variables neither solver proves it of a cube within
    // minutes (with them, varisat does in under a second).
    let cubed = common::adapters::plain_problem(4, 14, true, Some(0));
    let without_moves = TimeIndexedConfig {
        moves: false,
        ..TimeIndexedConfig::default()
    };
    for backend in common::sat::built_in() {
        let request = Request {
            timeout: Some(limit),
            // The gate would answer at once.
            gate: false,
            ..common::sat::request(without_moves, &backend)
        };
        stops(&format!("{} --jobs 2", backend.name()), limit, || {
            SolveJob {
                method: Method::Sat,
                request: request.clone(),
                jobs: 2,
                depth: Some(1),
                ..SolveJob::new(&cubed)
            }
            .run()
            .map(drop)
        });
    }
}
