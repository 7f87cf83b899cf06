//! The integration tests, one binary (ripgrep's shape): each topic is a
//! module (what the command says when it refuses or fails is one of them,
//! `messages`), and `common` holds the independent brute-force oracle,
//! which never calls the library, and the helpers the topics share, among
//! them `common::adapters`, which builds the library's values for the
//! oracle's boards.

mod common;

mod backtrack_cubes;
mod checkpoints;
mod cli;
mod cluster;
mod counting;
mod cube_files;
mod cubes;
mod dependencies;
mod encoding;
mod frontier;
mod gate;
mod graphs;
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
