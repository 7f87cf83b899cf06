//! The integration tests, one binary (ripgrep's shape): each topic is a
//! module, and `common` holds the independent brute-force oracle and the
//! helpers they share.

mod common;

mod backtrack_cubes;
mod cli;
mod cluster;
mod counting;
mod cube_files;
mod cubes;
mod dependencies;
mod encoding;
mod frontier;
mod gate;
mod hardening;
mod help;
mod messages;
mod oracle;
mod parsers;
mod pictures;
mod proofs;
mod puzzles;
mod readme;
mod seam;
mod search;
mod shapes;
mod solvers;
mod successor;
mod theorems;
