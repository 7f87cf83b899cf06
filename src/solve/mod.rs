//! Finding tours: varisat in-process, or an external solver program on the
//! emitted CNF. Either way the model is decoded and verified.

pub mod external;

use std::sync::mpsc;
use std::time::Duration;

use crate::cnf::VarisatSink;
use crate::decode::tour_in_domain;
use crate::encode::{encode, Domain, Options};
use crate::error::Error;
use crate::tour::Tour;

pub use external::{ExternalSolver, SolverKind};

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A tour, decoded and verified.
    Tour(Tour),
    /// The formula is unsatisfiable: no tour meets the options.
    NoTour,
}

/// Which solver to use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Backend {
    /// varisat, in this process.
    Varisat,
    /// A solver program run on a temporary CNF file.
    External(ExternalSolver),
}

impl Backend {
    /// `varisat` for the in-process solver; otherwise a known solver's name
    /// (`kissat`, `cadical`, `minisat`, `picosat`) or a program's path.
    pub fn from_name(name: &str, extra_args: Vec<String>) -> Backend {
        if name == "varisat" {
            Backend::Varisat
        } else {
            Backend::External(ExternalSolver::new(name, extra_args))
        }
    }
}

/// Solves with the chosen backend, giving up after `timeout` if one is set.
pub fn solve(
    options: &Options,
    backend: &Backend,
    timeout: Option<Duration>,
) -> Result<Outcome, Error> {
    options.validate()?;
    match backend {
        Backend::Varisat => solve_in_process_within(options, timeout),
        Backend::External(solver) => solver.solve(options, timeout),
    }
}

/// Encodes `options` straight into varisat (the same clauses
/// [`write_cnf`](crate::cnf::dimacs::write_cnf) writes), solves, and decodes
/// and verifies the tour.
pub fn solve_in_process(options: &Options) -> Result<Outcome, Error> {
    options.validate()?;
    let mut sink = VarisatSink::new();
    encode(options, &mut sink);
    let satisfiable = sink
        .solver
        .solve()
        .map_err(|e| Error::Solver(e.to_string()))?;
    if !satisfiable {
        return Ok(Outcome::NoTour);
    }
    let domain = Domain::new(options, &options.board.move_graph());
    Ok(Outcome::Tour(tour_from_solver(options, &domain, &sink)?))
}

/// Decodes and verifies the tour in the model of a solver that has just
/// answered satisfiable; `domain` is the options' [`Domain`].
pub fn tour_from_solver(
    options: &Options,
    domain: &Domain,
    sink: &VarisatSink<'_>,
) -> Result<Tour, Error> {
    let model = sink
        .solver
        .model()
        .ok_or_else(|| Error::Solver("varisat reported SAT without a model".into()))?;
    let vars = sink.vars();
    let mut values = vec![None; vars + 1];
    for lit in model {
        values[lit.var().to_dimacs() as usize] = Some(lit.is_positive());
    }
    tour_in_domain(options, domain, vars, Some(vars), |v| {
        values.get(v).copied().flatten()
    })
}

/// [`solve_in_process`] with a time limit.
///
/// varisat 0.2 cannot be interrupted, so the search runs on a thread of its
/// own that is abandoned when time runs out: the caller gets
/// [`Error::Timeout`] at once, and the thread finishes (or ends with the
/// process) in the background.
pub fn solve_in_process_within(
    options: &Options,
    timeout: Option<Duration>,
) -> Result<Outcome, Error> {
    let Some(limit) = timeout else {
        return solve_in_process(options);
    };
    let (sender, receiver) = mpsc::channel();
    let options = options.clone();
    std::thread::Builder::new()
        .name("varisat".into())
        .spawn(move || {
            // The receiver is gone after a timeout; nobody needs the answer then.
            let _ = sender.send(solve_in_process(&options));
        })
        .map_err(|e| Error::Solver(format!("cannot start the solver thread: {e}")))?;
    match receiver.recv_timeout(limit) {
        Ok(result) => result,
        Err(mpsc::RecvTimeoutError::Timeout) => Err(Error::Timeout {
            seconds: limit.as_secs_f64(),
        }),
        Err(mpsc::RecvTimeoutError::Disconnected) => Err(Error::Solver(
            "the solver thread stopped without an answer".into(),
        )),
    }
}
