//! Errors and interrupts: library errors as Python exceptions, and long
//! work run on a thread of its own that Ctrl-C stops.

use std::sync::{mpsc, Mutex};
use std::time::Duration;

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;

use knightsat::error::RunError;
use knightsat::error::{Error, ErrorClass};
use knightsat::runtime::interrupt::Interrupt;

create_exception!(
    knightsat,
    KnightsatError,
    PyException,
    "A failure of knightsat that is not bad input: a time limit that ran out, a method that gave up, a rejected tour, a solver that failed."
);

/// How often the calling thread looks for Ctrl-C while the work runs.
pub(crate) const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// A library error as a Python exception: bad input (the class the
/// command exits 2 for) is a `ValueError`, an interrupt is
/// `KeyboardInterrupt`, the rest `KnightsatError`.
pub(crate) fn py_error(error: &Error) -> PyErr {
    if matches!(error, Error::Run(RunError::Interrupted)) {
        return PyKeyboardInterrupt::new_err("interrupted");
    }
    match error.class() {
        ErrorClass::BadInput => PyValueError::new_err(error.to_string()),
        ErrorClass::Failure | ErrorClass::Timeout | ErrorClass::GaveUp => {
            KnightsatError::new_err(error.to_string())
        }
    }
}

/// A library result as a Python one.
pub(crate) fn py_result<T, E: Into<Error>>(result: Result<T, E>) -> PyResult<T> {
    result.map_err(|error| py_error(&error.into()))
}

/// `result`, a `ValueError` in it worded as one of the parameter `name`
/// (the library's words name the value, not the parameter it came in).
pub(crate) fn for_parameter<T>(py: Python<'_>, name: &str, result: PyResult<T>) -> PyResult<T> {
    result.map_err(|error| {
        if !error.is_instance_of::<PyValueError>(py) {
            return error;
        }
        let message = error.value(py).to_string();
        if message.starts_with(&format!("{name}: ")) || message.starts_with(&format!("{name} ")) {
            return error;
        }
        PyValueError::new_err(format!("{name}: {message}"))
    })
}

/// Runs `work` on a thread of its own with the GIL released, looking for
/// signals on this thread meanwhile: when a signal handler raises (Ctrl-C
/// raises `KeyboardInterrupt`), `interrupt` is raised, the work is waited
/// for, and the handler's exception is raised. Nothing is left running.
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    interrupt: &Interrupt,
    work: impl FnOnce() -> Result<T, Error> + Send,
) -> PyResult<T> {
    let ended = py.detach(|| {
        std::thread::scope(|scope| {
            let (done, finished) = mpsc::channel::<()>();
            let worker = scope.spawn(move || {
                let result = work();
                let _ = done.send(());
                result
            });
            let mut signalled = None;
            while let Err(mpsc::RecvTimeoutError::Timeout) = finished.recv_timeout(SIGNAL_POLL) {
                // A closure: the method's own lifetime is not general enough.
                #[allow(clippy::redundant_closure_for_method_calls)]
                let signals = Python::attach(|py| py.check_signals());
                if let Err(raised) = signals {
                    interrupt.raise();
                    signalled = Some(raised);
                    break;
                }
            }
            let result = worker.join();
            (result, signalled)
        })
    });
    match ended {
        (_, Some(raised)) => Err(raised),
        (Ok(result), None) => py_result(result),
        (Err(_), None) => Err(KnightsatError::new_err(
            "internal error: the work panicked (please report it)",
        )),
    }
}

/// A mutex's value, even after a panic elsewhere.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
