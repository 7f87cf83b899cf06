//! The built-in solvers that every library-level SAT test runs with. This
//! names library types only; the oracle beside it never calls the library.

use knightsat::encoding::EncodingConfig;
use knightsat::model::problem::Problem;
use knightsat::sat::Backend;
use knightsat::solve::{Method, Outcome, Request, SolveJob, Solved};
use knightsat::Error;

/// varisat and `CaDiCaL`, both linked into this process.
pub fn built_in() -> [Backend; 2] {
    [Backend::Varisat, Backend::Cadical]
}

/// The built-in solver for the `turn`-th formula of a sweep on a board of
/// `squares` squares. Up to 24 squares the two take turns, so that each
/// solves every kind of formula somewhere. From 25 squares `CaDiCaL` solves
/// them all: varisat's slowest formulas there took seconds each, up to 27 s
/// for counting 3x9's open tours with the naive encoding (`CaDiCaL`, 7 s), a
/// third of the sweeps' time. What varisat is handed and read back does not
/// depend on the board's size.
pub fn taking_turns(turn: usize, squares: usize) -> Backend {
    if squares >= 25 {
        Backend::Cadical
    } else {
        built_in()[turn % 2].clone()
    }
}

/// One search of `problem` by SAT as `request` says, the feasibility gate
/// off: the formula alone answers.
pub fn solve(problem: &Problem, request: &Request) -> Result<Solved, Error> {
    SolveJob {
        method: Method::Sat,
        request: Request {
            gate: false,
            ..request.clone()
        },
        ..SolveJob::new(problem)
    }
    .run()
}

/// The answer of one search of `problem` by SAT with `config` on varisat,
/// the gate off.
pub fn solve_with_varisat(problem: &Problem, config: &EncodingConfig) -> Result<Outcome, Error> {
    solve(problem, &request(config.clone(), &Backend::Varisat)).map(|solved| solved.outcome)
}

/// A SAT request for `config` with `backend`.
pub fn request(config: impl Into<EncodingConfig>, backend: &Backend) -> Request {
    Request::sat(config.into(), backend.clone())
}

/// The full path of a solver program on PATH (so that `cadical`, the
/// built-in solver's name, runs the program), or the name itself when it
/// is not there (the run then fails with the program missing).
pub fn program(name: &str) -> String {
    std::env::var_os("PATH")
        .and_then(|path| {
            std::env::split_paths(&path)
                .map(|dir| dir.join(name))
                .find(|candidate| candidate.is_file())
        })
        .map_or_else(|| name.to_string(), |path| path.display().to_string())
}

/// A request for the solver program `name` (found on PATH) with `config`
/// and a time limit of two minutes.
pub fn program_request(name: &str, config: impl Into<EncodingConfig>) -> Request {
    Request {
        timeout: Some(std::time::Duration::from_secs(120)),
        ..request(
            config,
            &Backend::from_name(&program(name), Vec::new()).expect("a program takes no check"),
        )
    }
}
