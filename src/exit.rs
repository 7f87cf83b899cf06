//! The command's exit statuses, each named once, and the one rule that
//! turns a failure's class into its status. `knightsat --help` lists them
//! (`args::EXIT_STATUSES`).

use knightsat::error::ErrorClass;

/// Exit status for a rejected tour or another failure.
pub const FAILURE: u8 = 1;
/// Exit status for bad usage or bad input, and for a limit the run cannot
/// keep (memory, threads, disk).
pub const BAD_INPUT: u8 = 2;
/// Exit status when an incomplete method (Warnsdorff's rule) gives up: no
/// tour found, and nothing proved.
pub const GAVE_UP: u8 = 3;
/// Exit status when no tour exists (the formula is unsatisfiable), as SAT
/// solvers use.
pub const NO_TOUR: u8 = 20;
/// Exit status when the time limit runs out, as `timeout(1)` uses.
pub const TIMEOUT: u8 = 124;
/// What a signal's status adds to its number (129 for SIGHUP, 130 for
/// SIGINT, 143 for SIGTERM), as shells report it.
pub const SIGNALLED: i32 = 128;

/// The exit status for a failure of `class`: the one place it is chosen.
pub fn status_of(class: ErrorClass) -> u8 {
    match class {
        ErrorClass::BadInput => BAD_INPUT,
        ErrorClass::Timeout => TIMEOUT,
        ErrorClass::GaveUp => GAVE_UP,
        ErrorClass::Failure => FAILURE,
    }
}
