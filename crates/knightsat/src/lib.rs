//! knightsat encodes the knight's tour as SAT.
//!
//! A [`Problem`](problem::Problem) (board, open or closed, start, end,
//! clues) is kept apart from how it is encoded: an
//! [`EncodingConfig`](encoding::EncodingConfig) prepared for it gives an
//! [`Encoding`](encoding::Encoding), which writes its clauses into any
//! [`ClauseSink`](cnf::ClauseSink): DIMACS text
//! ([`write_cnf`](cnf_file::write_cnf)), any solver behind the
//! [seam](sat::SatSolver) (varisat or `CaDiCaL` in-process, or a solver
//! program), which a [`Session`](solve::Session) drives, or a counter
//! ([`Stats`](cnf::Stats)). A
//! solver's model is [decoded](decode) into a [`Tour`](tour::Tour) that is
//! always [verified](verify) before it is [rendered](render). The board may
//! have holes and the piece may be any [leaper](board::Leaper); clues pin
//! moves to squares, and [puzzles](puzzle) are clue sets with one solution.
//! Two methods find tours [without SAT](search): Warnsdorff's rule (fast,
//! may give up) and backtracking (complete); [`solve::find_tour`] and
//! [`count::CountJob`] choose between all three by [`solve::Method`].
//!
//! ```
//! use knightsat::{board::Board, encoding::EncodingConfig, problem::Problem};
//! use knightsat::solve::{solve_in_process, Outcome};
//!
//! let problem = Problem::new(Board::new(5, 5).unwrap());
//! let outcome = solve_in_process(&problem, &EncodingConfig::default()).unwrap();
//! let Outcome::Tour(tour) = outcome else { panic!("5x5 has a tour") };
//! assert_eq!(tour.squares.len(), 25);
//! ```
#![warn(missing_docs)]

pub mod board;
pub mod certify;
pub mod cleanup;
pub mod cnf;
pub mod cnf_file;
pub mod count;
pub mod cubes;
pub mod deadline;
pub mod decode;
pub mod encoding;
pub mod error;
pub mod gate;
pub mod graph;
pub mod input;
pub mod output;
pub mod problem;
pub mod puzzle;
pub mod render;
pub mod sat;
pub mod search;
pub mod solve;
pub mod text;
pub mod theory;
pub mod tour;
pub mod verify;

pub use error::Error;
