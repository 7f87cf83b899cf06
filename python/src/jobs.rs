//! The jobs from Python: `solve`, `count`, and `tours`, the iterator of
//! the tours a search lists.

use std::sync::{mpsc, Mutex};

use pyo3::prelude::*;

use knightsat::count::{CountJob, CountOptions, CountReport, TourNumber};
use knightsat::error::Error;
use knightsat::error::RunError;
use knightsat::runtime::interrupt::Interrupt;
use knightsat::solve::{Outcome, Request, SolveJob};
use knightsat::Tour;

use crate::args::{asked, flag_arg, optional_whole_number, Asked};
use crate::errors::{interruptible, lock, py_error, py_result, KnightsatError, SIGNAL_POLL};
use crate::problem::problem_arg;

/// Finds a tour: a list of square names in visiting order, verified, or
/// `None` when there is none (proved). `method` is `"auto"` (the default
/// route, the fastest for the problem), `"sat"`, `"backtrack"` or
/// `"warnsdorff"` (which may give up: `KnightsatError`); naming an
/// `encoding` (`"time-indexed"`, `"successor"`) or a `solver`
/// (`"varisat"`, `"cadical"`, or a solver program on the PATH such as
/// `"kissat"`) means SAT. `timeout` is in seconds (`KnightsatError` when
/// it runs out); `seed` is the tie-break of Warnsdorff's rule. Ctrl-C
/// stops the search and raises `KeyboardInterrupt`.
#[pyfunction]
#[pyo3(signature = (problem, *, method=None, encoding=None, solver=None, timeout=None, seed=None))]
#[pyo3(
    text_signature = "(problem, *, method='auto', encoding=None, solver=None, timeout=None, seed=None)"
)]
pub(crate) fn solve(
    py: Python<'_>,
    problem: &Bound<'_, PyAny>,
    method: Option<&Bound<'_, PyAny>>,
    encoding: Option<&Bound<'_, PyAny>>,
    solver: Option<&Bound<'_, PyAny>>,
    timeout: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<Vec<String>>> {
    let problem = problem_arg(problem)?;
    let seed = optional_whole_number(seed, "seed", 0, "a seed")?;
    let Asked {
        method,
        sat_named,
        request,
    } = asked(method, encoding, solver, timeout)?;
    let request = Request { seed, ..request };
    let problem = &problem.inner;
    let interrupt = request.interrupt.clone();
    let solved = interruptible(py, &interrupt, || {
        SolveJob {
            method,
            sat_named,
            request,
            ..SolveJob::new(problem)
        }
        .run()
    })?;
    Ok(match solved.outcome {
        Outcome::Tour(tour) => Some(tour.names()),
        Outcome::NoTour => None,
    })
}

/// Counts the tours of `problem` (sequences of squares: a closed tour
/// counts once per start and direction), or its orbits under the board's
/// symmetries with `up_to_symmetry`; at most `limit`. `method` is
/// `"auto"`, `"sat"`, `"backtrack"` or `"frontier"`; `encoding`, `solver`
/// and `timeout` as for `solve`; `jobs` threads (0 or None: one per core,
/// where the route splits its work; a count that lists the tours one by
/// one runs one search). Exact to `2**256 - 1` (the frontier counter's
/// counts of long boards pass `2**128`). Ctrl-C stops the count and
/// raises `KeyboardInterrupt`.
#[pyfunction]
#[pyo3(signature = (problem, *, method=None, encoding=None, solver=None, limit=None, up_to_symmetry=None, jobs=None, timeout=None))]
#[pyo3(
    text_signature = "(problem, *, method='auto', encoding=None, solver=None, limit=None, up_to_symmetry=False, jobs=None, timeout=None)"
)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn count(
    py: Python<'_>,
    problem: &Bound<'_, PyAny>,
    method: Option<&Bound<'_, PyAny>>,
    encoding: Option<&Bound<'_, PyAny>>,
    solver: Option<&Bound<'_, PyAny>>,
    limit: Option<&Bound<'_, PyAny>>,
    up_to_symmetry: Option<&Bound<'_, PyAny>>,
    jobs: Option<&Bound<'_, PyAny>>,
    timeout: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let problem = problem_arg(problem)?;
    let up_to_symmetry = flag_arg(up_to_symmetry, "up_to_symmetry")?;
    // 0 reaches the library, which says why it counts nothing.
    let limit = optional_whole_number(limit, "limit", 0, "a number of tours")?;
    let jobs = optional_whole_number(jobs, "jobs", 0, "a number of threads (0: one per core)")?
        .map(|jobs| usize::try_from(jobs).unwrap_or(usize::MAX));
    let Asked {
        method,
        sat_named,
        request,
    } = asked(method, encoding, solver, timeout)?;
    let problem = &problem.inner;
    let interrupt = request.interrupt.clone();
    let report = interruptible(py, &interrupt, || {
        CountJob {
            method,
            sat_named,
            request,
            options: CountOptions {
                jobs,
                limit,
                up_to_symmetry,
                ..CountOptions::default()
            },
            ..CountJob::new(problem)
        }
        .run()
    })?;
    match report {
        CountReport::Tours(count) => python_int(py, count.tours),
        _ => Err(KnightsatError::new_err("the count gave no whole number")),
    }
}

/// The tours of `problem`, one at a time as the search finds them: a lazy
/// iterator of verified tours (lists of square names), in the order and
/// with the rules of `knightsat solve --all` (a closed tour with nothing
/// anchored in all its rotations; at most `limit`). `method` is `"auto"`,
/// `"sat"` or `"backtrack"`; `encoding`, `solver` and `timeout` as for
/// `solve` (a timeout that runs out raises `KnightsatError` after the
/// tours found by then). The search runs on a thread of its own, the GIL
/// released while it looks for the next tour; stopping the iteration (a
/// `break`, `close()`, or dropping the iterator) stops it and leaves
/// nothing running, and Ctrl-C raises `KeyboardInterrupt`.
#[pyfunction]
#[pyo3(signature = (problem, *, method=None, encoding=None, solver=None, limit=None, timeout=None))]
#[pyo3(
    text_signature = "(problem, *, method='auto', encoding=None, solver=None, limit=None, timeout=None)"
)]
pub(crate) fn tours(
    problem: &Bound<'_, PyAny>,
    method: Option<&Bound<'_, PyAny>>,
    encoding: Option<&Bound<'_, PyAny>>,
    solver: Option<&Bound<'_, PyAny>>,
    limit: Option<&Bound<'_, PyAny>>,
    timeout: Option<&Bound<'_, PyAny>>,
) -> PyResult<Tours> {
    let problem = problem_arg(problem)?;
    let limit = optional_whole_number(limit, "limit", 0, "a number of tours")?;
    let Asked {
        method,
        sat_named,
        request,
    } = asked(method, encoding, solver, timeout)?;
    let problem = problem.inner.clone();
    // What the job can do is checked before any thread starts, as the
    // listing it is (the frontier counter lists no tour).
    let mut listing = |_: &Tour| Ok(());
    py_result(
        CountJob {
            method,
            sat_named,
            request: request.clone(),
            on_tour: Some(&mut listing),
            options: CountOptions {
                limit,
                ..CountOptions::default()
            },
            ..CountJob::new(&problem)
        }
        .check(),
    )?;
    let interrupt = request.interrupt.clone();
    // One tour ahead of the caller at most: the search waits for the
    // caller to take it.
    let (sender, receiver) = mpsc::sync_channel::<Found>(1);
    let worker = std::thread::spawn(move || {
        let mut on_tour = |tour: &Tour| {
            sender
                .send(Ok(tour.names()))
                .map_err(|_| Error::Run(RunError::Interrupted))
        };
        let listed = CountJob {
            method,
            sat_named,
            request,
            on_tour: Some(&mut on_tour),
            options: CountOptions {
                limit,
                ..CountOptions::default()
            },
            ..CountJob::new(&problem)
        }
        .run();
        match listed {
            // Stopped by the caller, or done: the channel's end says so.
            Ok(_) | Err(Error::Run(RunError::Interrupted)) => {}
            Err(error) => {
                let _ = sender.send(Err(error));
            }
        }
    });
    Ok(Tours {
        receiver: Mutex::new(Some(receiver)),
        worker: Mutex::new(Some(worker)),
        interrupt,
    })
}

/// What the search of `tours` hands over: a tour, or the error that ended it.
pub(crate) type Found = Result<Vec<String>, Error>;

/// The iterator `tours` returns: each tour as the search finds it.
#[pyclass(module = "knightsat")]
pub(crate) struct Tours {
    /// Where the search sends each tour (or the error that ended it);
    /// `None` once the iteration has ended.
    receiver: Mutex<Option<mpsc::Receiver<Found>>>,
    /// The thread searching, until it is joined.
    worker: Mutex<Option<std::thread::JoinHandle<()>>>,
    /// Stops the search.
    interrupt: Interrupt,
}

#[pymethods]
impl Tours {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Vec<String>>> {
        loop {
            let received = py.detach(|| {
                let receiver = lock(&self.receiver);
                match receiver.as_ref() {
                    Some(receiver) => receiver.recv_timeout(SIGNAL_POLL),
                    None => Err(mpsc::RecvTimeoutError::Disconnected),
                }
            });
            match received {
                Ok(Ok(tour)) => return Ok(Some(tour)),
                Ok(Err(error)) => {
                    self.stop(py);
                    return Err(py_error(&error));
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    self.stop(py);
                    return Ok(None);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Err(raised) = py.check_signals() {
                        self.stop(py);
                        return Err(raised);
                    }
                }
            }
        }
    }

    /// Stops the search now (as leaving a `for` loop does): no thread is
    /// left running.
    fn close(&self, py: Python<'_>) {
        self.stop(py);
    }
}

impl Tours {
    /// Stops the search and waits for its thread, the GIL released
    /// meanwhile.
    fn stop(&self, py: Python<'_>) {
        py.detach(|| self.end());
    }

    /// Stops the search and waits for its thread: the flag raised, and the
    /// channel closed so that a search waiting to hand over a tour gives up.
    fn end(&self) {
        self.interrupt.raise();
        drop(lock(&self.receiver).take());
        if let Some(worker) = lock(&self.worker).take() {
            let _ = worker.join();
        }
    }
}

impl Drop for Tours {
    fn drop(&mut self) {
        self.end();
    }
}

/// A count as a Python `int`, exact past 128 bits (through its decimal
/// digits, which `int` reads).
pub(crate) fn python_int(py: Python<'_>, number: TourNumber) -> PyResult<Py<PyAny>> {
    match number.to_u128() {
        Some(small) => Ok(small.into_pyobject(py)?.into_any().unbind()),
        None => Ok(py
            .get_type::<pyo3::types::PyInt>()
            .call1((number.to_string(),))?
            .unbind()),
    }
}
