//! The model, at the bottom of the layers: the board and its leaper, the
//! problem (ends, clues), what makes a sequence of squares its tour, and
//! the theorems that decide existence on rectangles; independent of any
//! encoding or solver. Each module has its own error type, which
//! [`crate::Error`] wraps.

pub mod board;
pub mod graph;
pub mod problem;
pub(crate) mod text;
pub mod theory;
pub mod unsupported;
pub mod verify;
