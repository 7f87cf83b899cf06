//! knightsat encodes the knight's tour as SAT.
//!
//! A [`Problem`] (board, open or closed, start, end, clues) is kept apart
//! from how it is encoded: an [`EncodingConfig`] prepared for it gives an
//! [`Encoding`](encoding::Encoding), which writes its clauses into any
//! [`ClauseSink`](cnf::ClauseSink): DIMACS text
//! ([`write_cnf`](cnf_file::write_cnf)), any solver behind the
//! [seam](sat::SatSolver) (varisat or `CaDiCaL` in-process, or a solver
//! program), which a [`Session`](solve::Session) drives, or a counter
//! ([`Stats`](cnf::Stats)). A solver's model is
//! [decoded](encoding::decode) into a [`Tour`] that is always
//! [verified](model::verify) before it is [rendered](render()). The board
//! may have holes and the piece may be any [leaper](model::board::Leaper);
//! clues pin moves to squares, and [puzzles](puzzle) are clue sets with one
//! solution. Two methods find tours without SAT: [Warnsdorff's
//! rule](warnsdorff()) (fast, may give up) and
//! [backtracking](backtrack()) (complete); the [frontier
//! counter](count::frontier) counts them without listing one.
//! [`solve::SolveJob`] and [`count::CountJob`] choose between all of them
//! by [`solve::Method`]: the jobs are the library's one way to solve or
//! count, and they and the values they take are re-exported here.
//!
//! The modules are layers (docs/architecture.md draws them): each uses
//! only those below it, which `scripts/module-cycles.py` checks.
//!
//! ```
//! use knightsat::{Board, CountJob, Method, Outcome, Problem, SolveJob};
//!
//! let problem = Problem::new(Board::new(5, 5).unwrap());
//! // A tour by SAT (the time-indexed encoding on varisat).
//! let job = SolveJob { method: Method::Sat, ..SolveJob::new(&problem) };
//! let Outcome::Tour(tour) = job.run().unwrap().outcome else { panic!("5x5 has a tour") };
//! assert_eq!(tour.squares.len(), 25);
//! // Every tour of the board, by the default route.
//! let count = CountJob::new(&problem).run().unwrap();
//! assert_eq!(count.tours().unwrap().to_string(), "1728");
//! ```
#![warn(missing_docs)]

// The modules; their layers are drawn once, in docs/architecture.md,
// whose table scripts/module-cycles.py reads and keeps.
mod certify;
pub mod cnf;
pub mod cnf_file;
pub mod count;
mod cubes;
pub mod encoding;
pub mod error;
mod gate;
mod graph;
pub mod model;
pub mod puzzle;
mod render;
pub mod runtime;
pub mod sat;
mod search;
pub mod solve;
mod tour;

pub use certify::{check_proof, solve_with_proof, Verdict};
pub use count::{CountJob, CountReport, TourNumber};
pub use cubes::{bytes_per_cube, cube_count, cubes, effective_depth, for_each_cube, Cube};
pub use encoding::EncodingConfig;
pub use error::Error;
pub use gate::{refute, Refutation};
pub use model::board::Board;
pub use model::problem::Problem;
pub use render::{board_grid, render, render_no_tour, stats_table, svg, Format, Picture};
pub use search::{backtrack, warnsdorff, TieBreak, Warnsdorff};
pub use solve::{Method, Outcome, Request, SolveJob, Solved};
pub use tour::{check_tour, parse_tour, square_names_in, BoardJson, GivenBoard, Tour, TourJson};
