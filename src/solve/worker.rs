//! Work that may outlast its time limit: run on a thread of its own, so the
//! caller can give up at the limit even where the work (varisat, writing a
//! CNF) cannot be interrupted.

use std::sync::mpsc;
use std::time::Duration;

use crate::error::Error;

/// Runs `work` on a thread named `name` and waits for its result, at most
/// `timeout` when one is given. At the limit the caller gets
/// [`Error::Timeout`] at once; the thread is abandoned and finishes (or ends
/// with the process) in the background, so whatever it must not leave
/// behind is the caller's to stop or remove.
pub fn on_worker<T: Send + 'static>(
    name: &str,
    timeout: Option<Duration>,
    work: impl FnOnce() -> Result<T, Error> + Send + 'static,
) -> Result<T, Error> {
    let (sender, receiver) = mpsc::channel();
    std::thread::Builder::new()
        .name(name.into())
        .spawn(move || {
            // The receiver is gone after a timeout; nobody needs the answer then.
            let _ = sender.send(work());
        })
        .map_err(|e| Error::Solver(format!("cannot start the {name} thread: {e}")))?;
    let stopped = || Error::Solver(format!("the {name} thread stopped without an answer"));
    match timeout {
        None => receiver.recv().map_err(|_| stopped())?,
        Some(limit) => match receiver.recv_timeout(limit) {
            Ok(result) => result,
            Err(mpsc::RecvTimeoutError::Timeout) => Err(Error::Timeout {
                seconds: limit.as_secs_f64(),
            }),
            Err(mpsc::RecvTimeoutError::Disconnected) => Err(stopped()),
        },
    }
}
