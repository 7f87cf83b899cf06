//! Counting tours, as one job: a [`CountJob`] is built from a problem and
//! what is asked of the count (method and request, threads, cube depth, a
//! range of numbered cubes, a sample, a limit, orbits, progress), and its
//! one [`run`](CountJob::run) checks the feasibility gate once, counts,
//! and says in a [`CountReport`] what it counted: the tours, an
//! [`Estimate`], a range of cubes, or one part of a frontier count.
//!
//! Tours are sequences of squares: with a start fixed, a closed tour and its
//! reverse are two tours, and a closed tour with no start or end given counts
//! once for each of its N starting squares. Every method counts the same way:
//! by one search that lists the tours (SAT with blocking clauses, or
//! backtracking), cube by cube on many threads, or by the frontier
//! ([`frontier`]).
//!
//! Two other jobs live here: [`count_cnf`] counts the tours of a CNF
//! file from what its comments record, once its clauses are checked to be
//! what they describe, and [`sum_tallies`] adds up the
//! lines of counts of numbered cubes, or of a frontier count's parts
//! ([`tally`]).

pub mod checkpoint;
pub(crate) mod enumerate;
mod estimate;
pub mod frontier;
mod job;
mod number;
mod parts;
mod range;
mod recorded;
mod route;
mod split;
pub mod tally;
pub mod way_out;

pub use estimate::Estimate;
pub use job::{
    CountJob, CountOptions, CountReport, CubeLine, CubeRangeCount, OnTour, PartCount, Progress,
    Sample, TourCount,
};
pub use number::TourNumber;
pub use range::sum_tallies;
pub use recorded::{count_cnf, count_recorded};
pub use split::{CubeProgress, CUBES_PER_JOB, MAX_AUTOMATIC_CUBES, SQUARES_PER_MOVE_OF_DEPTH};
