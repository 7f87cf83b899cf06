//! knightsat encodes the knight's tour as SAT.
//!
//! The pipeline: a [`Board`](board::Board) and [`Options`](encode::Options)
//! go through the time-indexed [encoder](encode::encode) into any
//! [`ClauseSink`](cnf::ClauseSink): DIMACS text
//! ([`write_cnf`](cnf::dimacs::write_cnf)), varisat in-process
//! ([`solve_in_process`](solve::solve_in_process)) or a counter
//! ([`Stats`](cnf::Stats)). A solver's model is [decoded](decode) into a
//! [`Tour`](tour::Tour) that is always [verified](tour::verify) before it is
//! [rendered](render). The board may have holes and the piece may be any
//! [leaper](board::Leaper); [clues](encode::Options::clues) pin moves to
//! squares, and [puzzles](puzzle) are clue sets with one solution.
//!
//! ```
//! use knightsat::{board::Board, encode::Options, solve::{solve_in_process, Outcome}};
//!
//! let options = Options::new(Board::new(5, 5).unwrap());
//! let Outcome::Tour(tour) = solve_in_process(&options).unwrap() else { panic!("5x5 has a tour") };
//! assert_eq!(tour.squares.len(), 25);
//! ```
#![warn(missing_docs)]

pub mod board;
pub mod certify;
pub mod cnf;
pub mod count;
pub mod decode;
pub mod encode;
pub mod error;
pub mod input;
pub mod puzzle;
pub mod render;
pub mod solve;
pub mod theory;
pub mod tour;

pub use error::Error;
