//! How many threads a job runs on: what the caller asked for, or one per
//! core when it asked for 0.

use std::num::NonZeroUsize;

/// The cores this process may run on (1 when the system cannot tell).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, NonZeroUsize::get)
}

/// The number of threads `jobs` asks for: itself, or one per core for 0.
pub fn resolve_jobs(jobs: usize) -> usize {
    if jobs == 0 {
        cores()
    } else {
        jobs
    }
}
