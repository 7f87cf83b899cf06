//! Writing a DRAT proof into the user's file as the solvers hand it over,
//! with the first failure to write kept and said in the words of every
//! other write failure ("writing the proof: No space left on device"),
//! instead of varisat's own words or, for `CaDiCaL`, which writes through
//! its own handle and ignores failures, a proof cut short without a word.

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::sync::{Arc, Mutex, PoisonError};

use crate::runtime::RunError;
use crate::sat::SatError;

/// The first failure to write the proof, shared between the writer and
/// the solver's wrapper that reports it.
#[derive(Clone, Debug, Default)]
pub(crate) struct ProofFailure(Arc<Mutex<Option<io::Error>>>);

impl ProofFailure {
    /// Keeps `error` unless an earlier one is kept.
    fn keep(&self, error: io::Error) {
        let mut kept = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        kept.get_or_insert(error);
    }

    /// The failure kept, as the error a solver run reports, if any.
    pub(crate) fn take(&self) -> Option<SatError> {
        let kept = self.0.lock().unwrap_or_else(PoisonError::into_inner).take();
        kept.map(|error| SatError::Run(RunError::io("writing the proof", error)))
    }
}

/// The user's proof file, buffered, keeping its first failure to write:
/// the write fails too, which ends a varisat search at once.
pub(crate) struct ProofFile {
    out: BufWriter<File>,
    failure: ProofFailure,
}

impl ProofFile {
    /// Writes into `file`, keeping a failure in `failure`.
    pub(crate) fn new(file: File, failure: ProofFailure) -> ProofFile {
        ProofFile {
            out: BufWriter::new(file),
            failure,
        }
    }

    fn kept<T>(&self, result: io::Result<T>) -> io::Result<T> {
        result.map_err(|error| {
            let kind = error.kind();
            self.failure.keep(error);
            io::Error::new(kind, "the proof cannot be written")
        })
    }
}

impl Write for ProofFile {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let written = self.out.write(bytes);
        self.kept(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        let flushed = self.out.flush();
        self.kept(flushed)
    }
}

/// Copies what a solver writes into the pipe `from` to the proof file
/// `to` until the solver closes its end, keeping the first failure to
/// write in `failure` and reading on after it, so that the solver never
/// waits on a pipe nobody empties.
pub(crate) fn copy_proof(mut from: impl Read, to: File, failure: &ProofFailure) {
    let mut to = ProofFile::new(to, failure.clone());
    let mut buffer = vec![0; 1 << 16];
    let mut failed = false;
    loop {
        let read = match from.read(&mut buffer) {
            Ok(0) => break,
            Ok(read) => read,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => {
                failure.keep(error);
                return;
            }
        };
        if !failed {
            failed = to.write_all(&buffer[..read]).is_err();
        }
    }
    if !failed {
        let _ = to.flush();
    }
}
