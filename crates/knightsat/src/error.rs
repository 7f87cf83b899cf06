//! The library's error type: one enum over everything that can go wrong,
//! with the values a caller needs to word it.
//!
//! Modules below this one (board, problem, verify) have their own error
//! types, wrapped here, so that no module depends on a module that depends
//! on it. Cube tallies, which live in the counting module above this one,
//! have theirs here ([`TallyError`]), re-exported by
//! [`crate::count::tally`].

use crate::model::board::BoardError;
use crate::model::problem::ProblemError;
use crate::model::verify::Violation;

/// Everything that can go wrong in knightsat's library.
///
/// Each message is one line that names the problem in the library's own
/// terms (no command-line flags); [`Error::class`] tells the command-line
/// tool which exit status it means.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A board, square or leaper that is malformed, off the board or a hole.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// A start, end or clue that does not fit the board or the other clues
    /// (in the message, so deliberately not a `source`).
    #[error("bad option: {0}")]
    Problem(ProblemError),
    /// A maximum clause length below 3, which splitting cannot reach.
    #[error("the maximum clause length must be at least 3, got {len}")]
    ClauseLengthTooShort {
        /// The length asked for.
        len: usize,
    },
    /// A block schedule with more bands than the board has ranks or files.
    #[error(
        "{rows}x{cols} blocks do not fit the {board} board: each block needs a rank and a file"
    )]
    BlocksDoNotFit {
        /// Bands of ranks asked for.
        rows: usize,
        /// Bands of files asked for.
        cols: usize,
        /// The board, as it prints.
        board: String,
    },
    /// A board too large for the encoding's variables (search methods take it).
    #[error("the {encoding} encoding takes boards of at most {limit} squares, and the {board} board has {squares}")]
    BoardTooLargeForEncoding {
        /// The encoding's name.
        encoding: &'static str,
        /// The board, as it prints.
        board: String,
        /// Its number of squares.
        squares: usize,
        /// The most the encoding takes.
        limit: usize,
    },
    /// An at-most-one encoding name that is not known.
    #[error("unknown at-most-one encoding '{name}' (expected one of: {known})")]
    UnknownAmo {
        /// The name given.
        name: String,
        /// The known names, comma-separated.
        known: String,
    },
    /// One file asked for as two outputs (say a proof and its CNF).
    #[error("{path} is given for two outputs")]
    SameOutputTwice {
        /// The path, as given.
        path: String,
    },
    /// A directory to be replaced that holds something the run did not
    /// write (it is left alone).
    #[error("{dir} holds {entry}, which is none of the files it would be replaced with: give an empty or new directory")]
    DirectoryNotOurs {
        /// The directory, as given.
        dir: String,
        /// The first entry found that is not ours.
        entry: String,
    },
    /// A formula too big to solve in this process within the memory budget.
    #[error("solving the {board} board in-process with {solver} would need about {estimate_mib} MiB, over the budget of {budget_mib} MiB")]
    OverMemoryBudget {
        /// The board, as it prints.
        board: String,
        /// The built-in solver.
        solver: String,
        /// The estimate, for every session together.
        estimate_mib: u64,
        /// The budget.
        budget_mib: u64,
        /// The sessions that would run at once (threads solving cubes),
        /// each of `estimate_mib / sessions`.
        sessions: usize,
    },
    /// Cubes too many to hold within the memory budget.
    #[error("{cubes} or more cubes of depth {depth} would need about {estimate_mib} MiB or more, over the budget of {budget_mib} MiB")]
    CubesOverMemoryBudget {
        /// The depth asked for.
        depth: usize,
        /// The cubes counted before the count stopped (there may be more).
        cubes: u64,
        /// Their memory.
        estimate_mib: u64,
        /// The budget.
        budget_mib: u64,
        /// The deepest depth whose cubes fit, if any.
        smaller_depth: Option<usize>,
    },
    /// A combination of requests that cannot be served together.
    #[error("{0}")]
    Unsupported(Unsupported),
    /// A frontier count whose state tables would pass the memory budget.
    #[error("counting the {board} board by its frontier needs more than {needed_mib} MiB of states, over the budget of {budget_mib} MiB")]
    FrontierOverMemoryBudget {
        /// The board, as it prints.
        board: String,
        /// What the tables would have taken when the count stopped.
        needed_mib: u64,
        /// The budget.
        budget_mib: u64,
    },
    /// A board whose frontier is wider than a frontier state holds.
    #[error("the {board} board's frontier is {width} squares wide: the frontier counter holds at most {max}")]
    FrontierTooWide {
        /// The board, as it prints.
        board: String,
        /// The narrowest frontier of the board.
        width: usize,
        /// The widest a state holds.
        max: usize,
    },
    /// A board with more squares than the frontier counter numbers.
    #[error("the {board} board has {squares} squares: the frontier counter takes at most {max}")]
    FrontierTooManySquares {
        /// The board, as it prints.
        board: String,
        /// Its squares (holes included).
        squares: usize,
        /// The most the counter takes.
        max: usize,
    },
    /// A count past 2^256 − 1.
    #[error("the count does not fit in 256 bits")]
    CountOverflow,
    /// A CNF file that knightsat did not write (or whose comments were removed).
    #[error("{0}")]
    NotKnightsatCnf(String),
    /// A knightsat CNF whose clauses (or header) are not the ones knightsat
    /// writes for the problem its comments describe: clauses added,
    /// removed or changed, or comments edited. Counting it from its
    /// comments would count another formula.
    #[error("the CNF's clauses are not the ones knightsat writes for the problem its comments describe{}: count it with a SAT solver or a model counter, which read the clauses", match clause { Some(n) => format!(" (clause {n} differs)"), None => " (their number differs)".to_string() })]
    ClausesNotAsWritten {
        /// The first clause that differs, from 1; `None` when the header's
        /// counts or the number of clauses do.
        clause: Option<usize>,
    },
    /// A CNF whose clauses cannot be read.
    #[error("cannot read the CNF's clauses: {0}")]
    BadCnf(String),
    /// A model that leaves a clause of the CNF it is given with false: a
    /// model of another formula (another cube's CNF, say).
    #[error("the model leaves clause {clause} of the CNF ({literals} 0) false: it is not a model of this CNF (is it for another one?)")]
    ModelFalsifiesClause {
        /// The clause's number in the file, from 1.
        clause: usize,
        /// Its literals, as in the file.
        literals: String,
    },
    /// The proof checker crashed or was killed without a verdict: the
    /// proof is neither verified nor rejected.
    #[error("the proof checker {program} crashed ({status}) without a verdict: the proof is neither verified nor rejected")]
    CheckerCrashed {
        /// The checker.
        program: String,
        /// How it ended: `exit status 101`, `signal 11`.
        status: String,
    },
    /// Solver output that cannot be read.
    #[error("solver output line {line}: {message}")]
    SolverOutput {
        /// One-based line number in the solver output.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// A satisfying assignment that does not describe a sequence of squares.
    #[error("the model is not a tour: {0}")]
    BadModel(String),
    /// A puzzle grid that cannot be read: wrong shape, bad cells, repeated numbers.
    #[error("bad puzzle: {0}")]
    BadPuzzle(String),
    /// A closed tour asked for of a file (a puzzle's or a tour's JSON)
    /// that records the tour as open: the two contradict each other.
    #[error("a closed tour is asked for, but the {file} file says the tour is open")]
    ClosedButFileSaysOpen {
        /// Which file.
        file: RecordedIn,
    },
    /// A tour (as text or JSON) that cannot be read.
    #[error("cannot read the tour: {0}")]
    BadTourInput(String),
    /// A move list given with no board to read it on.
    #[error("cannot read the tour: a move list needs a board (JSON tours carry their own)")]
    MoveListNeedsBoard,
    /// A well-formed tour that breaks a rule (in the message, so
    /// deliberately not a `source`: the command line prints sources after it).
    #[error("not a valid tour: {0}")]
    InvalidTour(Violation),
    /// A sequence to block that is not a tour of the formula's problem: a
    /// clause made from it could remove real tours.
    #[error("cannot block it: not a tour of this problem: {0}")]
    BlockNotATour(Violation),
    /// A time limit that is no number of seconds from a millisecond to
    /// what a duration holds.
    #[error("{0} is not a number of seconds from 0.001 to about 5.8e11")]
    BadTimeLimit(String),
    /// A rule a puzzle cannot be made to keep: its own clues fix the tour.
    #[error("a puzzle keeps its problem's board, holes, leaper and whether it is closed; {0} it cannot keep (its own clues fix the tour)")]
    PuzzleRule(&'static str),
    /// A limit of no tours, which counts nothing.
    #[error("a limit of 0 tours counts nothing: give at least 1")]
    ZeroLimit,
    /// A model given as values that is not one: a variable given both
    /// values, or a number that names no variable.
    #[error("not a model: {0}")]
    NotAModel(String),
    /// The in-process solver failed.
    #[error("solver failed: {0}")]
    Solver(String),
    /// An external solver program that cannot be started.
    #[error("cannot run solver '{program}': {reason}")]
    SolverMissing {
        /// The program as given.
        program: String,
        /// Why it could not be started.
        reason: String,
    },
    /// An external solver that crashed, failed or printed nothing usable.
    #[error("solver '{program}' failed: {detail}")]
    SolverFailed {
        /// The program as given.
        program: String,
        /// What went wrong.
        detail: String,
    },
    /// The solver gave up without an answer (`s UNKNOWN`).
    #[error("the solver gave no answer (UNKNOWN)")]
    NoAnswer,
    /// An incomplete method (Warnsdorff's rule) stopped without a tour. It
    /// proves nothing: a tour may well exist.
    #[error("{method} found no tour in {attempts} attempts, which does not mean that none exists")]
    GaveUp {
        /// The method, as it names itself (`Warnsdorff's rule`).
        method: &'static str,
        /// How many attempts it made.
        attempts: u32,
    },
    /// A search was stopped from another thread before it answered (by a
    /// time limit, or because another thread found what it looked for);
    /// what stopped it turns this into its own answer.
    #[error("the search was stopped")]
    Stopped,
    /// The caller raised the request's
    /// [`Interrupt`](crate::runtime::interrupt::Interrupt): the work
    /// stopped before it was done, and what it had found is dropped.
    #[error("interrupted")]
    Interrupted,
    /// The time limit ran out while every tour was being listed or
    /// counted: the `found` tours reported so far are only part of them.
    #[error("the time limit of {seconds} s ran out after {found} tours: they are part of the list, not all of it")]
    TimedOutPartway {
        /// The time limit.
        seconds: f64,
        /// Tours reported before it ran out.
        found: u64,
    },
    /// The time limit ran out before the solver answered.
    #[error("no answer within {seconds} s")]
    Timeout {
        /// The time limit.
        seconds: f64,
    },
    /// An input file that cannot be read.
    #[error("cannot read {path}: {error}")]
    CannotRead {
        /// The file, or `-` for stdin.
        path: String,
        /// The underlying error (in the message, so deliberately not a
        /// `source`: the command line prints an error's sources after it).
        error: std::io::Error,
    },
    /// Reading or writing a file or stream failed.
    #[error("{context}: {error}")]
    Io {
        /// What was being read or written.
        context: String,
        /// The underlying error (in the message, so deliberately not a
        /// `source`: the command line prints an error's sources after it).
        error: std::io::Error,
    },
    /// Cube tallies that do not add up (a cube missing or counted twice), or
    /// a range of cubes past the last.
    #[error(transparent)]
    Tally(#[from] TallyError),
}

impl From<ProblemError> for Error {
    fn from(error: ProblemError) -> Error {
        Error::Problem(error)
    }
}

impl From<Violation> for Error {
    fn from(violation: Violation) -> Error {
        Error::InvalidTour(violation)
    }
}

/// A file that records whether its tour is closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordedIn {
    /// A puzzle's JSON.
    Puzzle,
    /// A tour's JSON.
    Tour,
}

impl std::fmt::Display for RecordedIn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            RecordedIn::Puzzle => "puzzle",
            RecordedIn::Tour => "tour",
        })
    }
}

/// Requests that cannot be served together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unsupported {
    /// Proofs are written by the built-in solvers only.
    ProofWithExternalSolver,
    /// Every tour is enumerated by the built-in solvers only.
    AllWithExternalSolver,
    /// Cubes are solved on threads by the built-in solvers only.
    JobsWithExternalSolver,
    /// Extra solver arguments go to external solver programs only, not to
    /// the named built-in solver.
    ArgumentsForBuiltIn(&'static str),
    /// Proofs of impossibility come from the SAT solver only, not from the
    /// named search method.
    ProofWithoutSat(&'static str),
    /// Solver programs solve the SAT encoding; the named search method
    /// searches by itself.
    SolverWithoutSat(&'static str),
    /// Encoding switches shape the SAT encoding, which the named search
    /// method does not use.
    EncodingOptionsWithoutSat(&'static str),
    /// Warnsdorff's rule finds one tour: it neither lists nor counts them.
    EveryTourByWarnsdorff,
    /// Warnsdorff's rule does not follow clues.
    CluesByWarnsdorff,
    /// A random seed is for Warnsdorff's rule only; the named method takes none.
    SeedWithoutWarnsdorff(&'static str),
    /// Cubes split the SAT encoding; the named search method does not use it.
    CubesWithoutSat(&'static str),
    /// Cubes are prefixes of positions in time, which the successor
    /// encoding does not have.
    CubesWithSuccessor,
    /// Orbits are counted by one search: a tour and its images under the
    /// board's symmetries begin differently, so they fall in different cubes.
    OrbitsWithCubes,
    /// A formula with lazy subtours has models that are not tours: it is
    /// solved in a loop, never written alone.
    LazyFormulaWritten,
    /// A proof of impossibility needs the whole formula: lazy subtour cuts
    /// are not derived from it.
    ProofWithLazySubtours,
    /// The frontier counter counts tours without finding one.
    TourByFrontier,
    /// The frontier counter does not know a square's move number.
    CluesByFrontier,
    /// The frontier counter counts the whole board at once, with no cubes
    /// and no limit to stop a listing at.
    PartsByFrontier,
    /// Orbits are counted by comparing tours, which the frontier counter
    /// never lists.
    OrbitsByFrontier,
    /// A range of numbered cubes is a range of the cubes of one depth,
    /// which must be given.
    RangeWithoutDepth,
}

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unsupported::ProofWithExternalSolver => f.write_str(
                "proofs are written by the in-process solvers (varisat, cadical) only",
            ),
            Unsupported::AllWithExternalSolver => f.write_str(
                "every tour is enumerated by the in-process solvers (varisat, cadical) only",
            ),
            Unsupported::JobsWithExternalSolver => f.write_str(
                "cubes are solved on threads by the in-process solvers (varisat, cadical) only",
            ),
            Unsupported::ArgumentsForBuiltIn(solver) => write!(
                f,
                "extra solver arguments are for external solver programs, not the built-in {solver}"
            ),
            Unsupported::ProofWithoutSat(method) => {
                write!(
                    f,
                    "proofs of impossibility come from SAT, not from {method}"
                )
            }
            Unsupported::SolverWithoutSat(method) => write!(
                f,
                "solver programs solve the SAT encoding; {method} searches by itself"
            ),
            Unsupported::EncodingOptionsWithoutSat(method) => write!(
                f,
                "encoding options shape the SAT encoding, which {method} does not use"
            ),
            Unsupported::EveryTourByWarnsdorff => {
                f.write_str("Warnsdorff's rule finds one tour: it neither lists nor counts them")
            }
            Unsupported::CluesByWarnsdorff => {
                f.write_str("Warnsdorff's rule does not follow clues")
            }
            Unsupported::SeedWithoutWarnsdorff(method) => {
                write!(
                    f,
                    "a random seed is for Warnsdorff's rule; {method} takes none"
                )
            }
            Unsupported::CubesWithoutSat(method) => {
                write!(f, "cubes split the SAT encoding; {method} does not use it")
            }
            Unsupported::CubesWithSuccessor => f.write_str(
                "cubes fix the first moves in time, which the successor encoding does not number",
            ),
            Unsupported::OrbitsWithCubes => f.write_str(
                "orbits are counted by one search, without cubes: a tour and its images fall in different cubes",
            ),
            Unsupported::LazyFormulaWritten => f.write_str(
                "a formula with lazy subtours has models that are not tours, so it is not written alone",
            ),
            Unsupported::ProofWithLazySubtours => f.write_str(
                "a proof needs the complete formula: lazy subtour cuts do not follow from the clauses",
            ),
            Unsupported::TourByFrontier => {
                f.write_str("the frontier counter counts tours without finding one")
            }
            Unsupported::CluesByFrontier => {
                f.write_str("the frontier counter does not follow clues")
            }
            Unsupported::PartsByFrontier => f.write_str(
                "the frontier counter counts the whole board at once: no cubes, samples or limit",
            ),
            Unsupported::OrbitsByFrontier => f.write_str(
                "orbits are counted by comparing tours, which the frontier counter never lists",
            ),
            Unsupported::RangeWithoutDepth => {
                f.write_str("a range of cubes numbers the cubes of one depth, which is not given")
            }
        }
    }
}

/// The broad kinds of failure, which the command-line tool maps to exit statuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorClass {
    /// The caller's input or usage is wrong (exit status 2).
    BadInput,
    /// A rejected tour or a failure (exit status 1).
    Failure,
    /// The time limit ran out (exit status 124, as `timeout(1)` uses).
    Timeout,
    /// An incomplete method gave up without a tour (exit status 3): not a
    /// proof that none exists.
    GaveUp,
}

impl Error {
    /// Which kind of failure this is.
    pub fn class(&self) -> ErrorClass {
        match self {
            Error::Board(_)
            | Error::Problem(_)
            | Error::ClauseLengthTooShort { .. }
            | Error::BoardTooLargeForEncoding { .. }
            | Error::BlocksDoNotFit { .. }
            | Error::UnknownAmo { .. }
            | Error::Unsupported(_)
            | Error::SameOutputTwice { .. }
            | Error::DirectoryNotOurs { .. }
            | Error::OverMemoryBudget { .. }
            | Error::CubesOverMemoryBudget { .. }
            | Error::FrontierOverMemoryBudget { .. }
            | Error::FrontierTooWide { .. }
            | Error::FrontierTooManySquares { .. }
            | Error::NotKnightsatCnf(_)
            | Error::ClausesNotAsWritten { .. }
            | Error::SolverOutput { .. }
            | Error::BadModel(_)
            | Error::BlockNotATour(_)
            | Error::BadTimeLimit(_)
            | Error::ZeroLimit
            | Error::PuzzleRule(_)
            | Error::NotAModel(_)
            | Error::BadCnf(_)
            | Error::ModelFalsifiesClause { .. }
            | Error::BadTourInput(_)
            | Error::MoveListNeedsBoard
            | Error::BadPuzzle(_)
            | Error::ClosedButFileSaysOpen { .. }
            | Error::CannotRead { .. }
            | Error::SolverMissing { .. }
            | Error::Tally(_) => ErrorClass::BadInput,
            Error::Timeout { .. } | Error::TimedOutPartway { .. } => ErrorClass::Timeout,
            Error::GaveUp { .. } => ErrorClass::GaveUp,
            Error::InvalidTour(_)
            | Error::CountOverflow
            | Error::Solver(_)
            | Error::Stopped
            | Error::Interrupted
            | Error::SolverFailed { .. }
            | Error::CheckerCrashed { .. }
            | Error::NoAnswer
            | Error::Io { .. } => ErrorClass::Failure,
        }
    }

    /// Wraps an I/O error with what was being done.
    pub fn io(context: impl Into<String>, error: std::io::Error) -> Error {
        Error::Io {
            context: context.into(),
            error,
        }
    }

    /// The kind of the underlying I/O error, if this is one.
    pub fn io_kind(&self) -> Option<std::io::ErrorKind> {
        match self {
            Error::Io { error, .. } | Error::CannotRead { error, .. } => Some(error.kind()),
            _ => None,
        }
    }
}

/// Why cube tallies do not add up, or a range of cubes does not fit.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum TallyError {
    /// A line that is not a cube's tally or a task's header.
    #[error("{place} is not a cube's count as `count --cubes` writes it (cube N/CUBES, the tours, the squares, the task's fingerprint, separated by tabs) nor its header: '{text}'")]
    NotATally {
        /// File and line.
        place: String,
        /// The line (its first 60 characters, control characters escaped).
        text: String,
    },
    /// A last line without its newline: the task's output was cut.
    #[error("{place} ends without a newline, so it may be cut short: '{text}'; rerun the task that printed it")]
    CutShort {
        /// File and line.
        place: String,
        /// The line (its first 60 characters, control characters escaped).
        text: String,
    },
    /// A cube's line before any header line.
    #[error("{place} counts a cube, but no header line (`# knightsat cube counts …`, which `count --cubes` prints first) came before it: which problem's cube it is is unknown")]
    NoHeader {
        /// File and line.
        place: String,
    },
    /// Lines of tasks of two different problems (or depths, or methods).
    #[error("{place} is from a count of another problem, depth or method than the header at {header}: the counts of two problems do not add up")]
    TwoProblems {
        /// File and line.
        place: String,
        /// Where the first header was.
        header: String,
    },
    /// A line whose squares are not its cube's.
    #[error("{place} gives cube {number} other squares than the cube's own ({squares}): it is not a line of this split")]
    WrongSquares {
        /// File and line.
        place: String,
        /// The cube's number.
        number: usize,
        /// The cube's squares.
        squares: String,
    },
    /// The header's problem has another number of cubes than the lines say.
    #[error("the lines count cubes of a split of {lines}, but the problem of the header at {header} has {cubes} cubes at its depth")]
    WrongCubeCount {
        /// Where the header was.
        header: String,
        /// The number of cubes the lines give.
        lines: usize,
        /// The number of cubes of the header's problem.
        cubes: usize,
    },
    /// A header whose record cannot be read back.
    #[error("the header at {header} records a task that cannot be read back: {reason}")]
    BadHeader {
        /// Where the header was.
        header: String,
        /// Why.
        reason: String,
    },
    /// Lines from splits of different sizes.
    #[error("{place} counts a cube of {cubes}, the lines before it cubes of {expected}: these are counts of two different splits")]
    TwoSplits {
        /// File and line.
        place: String,
        /// The line's number of cubes.
        cubes: usize,
        /// The number of cubes before it.
        expected: usize,
    },
    /// A cube counted twice: the sum would count its tours twice.
    #[error("cube {number} of {cubes} is counted twice ({first} and {again}): its tours would count twice")]
    CountedTwice {
        /// The cube's number.
        number: usize,
        /// The number of cubes.
        cubes: usize,
        /// Where it was counted first.
        first: String,
        /// Where it was counted again.
        again: String,
    },
    /// Cubes not counted: the sum would be short.
    #[error("{} of {cubes} cubes are not counted ({}): the sum would be short", missing.len(), list(missing))]
    Missing {
        /// The number of cubes.
        cubes: usize,
        /// The missing cubes' numbers, ascending.
        missing: Vec<usize>,
    },
    /// A cube reported as having as many tours as another, which is not
    /// counted among the lines summed.
    #[error("{place} gives cube {number} as many tours as cube {other}, which no line counts: add the output of the task that counted cube {other}")]
    SameAsUncounted {
        /// Where the cube was reported.
        place: String,
        /// The cube's number.
        number: usize,
        /// The cube it refers to.
        other: usize,
    },
    /// No line to add.
    #[error("no cube counts to add up")]
    Nothing,
    /// A sum beyond 2^64 − 1 tours.
    #[error("the sum is more than 18446744073709551615 tours")]
    TooManyTours,
    /// A range of cubes that starts past the last cube.
    #[error("cube {first} does not exist: there are {cubes} cubes")]
    RangeBeyondCubes {
        /// The range's first number.
        first: usize,
        /// The number of cubes.
        cubes: usize,
    },
}

/// Cube numbers as runs (`3-7, 12`), the first ten runs and how many more.
fn list(numbers: &[usize]) -> String {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for &n in numbers {
        match runs.last_mut() {
            Some((_, last)) if *last + 1 == n => *last = n,
            _ => runs.push((n, n)),
        }
    }
    let mut words: Vec<String> = runs
        .iter()
        .take(10)
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect();
    if runs.len() > 10 {
        words.push(format!("and {} more runs", runs.len() - 10));
    }
    format!("cube {}", words.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_numbers_are_listed_as_runs() {
        assert_eq!(list(&[1, 2, 3, 7, 9, 10]), "cube 1-3, 7, 9-10");
    }
}
