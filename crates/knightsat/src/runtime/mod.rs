//! The process around the work: reading input, writing files whole or not
//! at all, time limits, interrupts from the caller, the number of threads, and the registry of
//! what to clean up when the process is stopped.

pub mod cleanup;
pub mod deadline;
mod error;
pub mod input;
pub mod interrupt;
pub mod memory;
pub(crate) mod output;
pub(crate) mod platform;
pub mod stop;
pub mod threads;

pub use error::{HoldsRunError, RunError};
