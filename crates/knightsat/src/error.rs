//! The library's top error: what the jobs (solving, counting, puzzles,
//! proofs, CNF files) return, with the values a caller needs to word it.
//!
//! Each layer below has an error of its own, where its failures arise:
//! [`BoardError`] and [`ProblemError`] (the model), [`RunError`] (time
//! limits, interrupts, files), [`TourError`] (reading tours), [`CnfError`]
//! (DIMACS and solver output), [`SearchError`] (the searches without SAT),
//! [`EncodingError`] (the encodings' options, decoding) and [`SatError`]
//! (the solvers). A layer's error wraps the errors of the layers it calls;
//! [`Error`] takes each of them flattened, so that a failure has one place
//! in it whichever layer met it: a timeout is always
//! `Error::Run(RunError::Timeout { .. })`. Below it are the failures of the
//! jobs themselves; cube tallies' ([`TallyError`]) are here, re-exported by
//! [`crate::count::tally`].

pub use crate::cnf::CnfError;
pub use crate::encoding::EncodingError;
pub use crate::model::board::BoardError;
pub use crate::model::graph::GraphError;
pub use crate::model::problem::ProblemError;
pub use crate::model::unsupported::Unsupported;
use crate::model::verify::Violation;
pub use crate::runtime::{HoldsRunError, RunError};
pub use crate::sat::SatError;
pub use crate::search::SearchError;
pub use crate::tour::{RecordedIn, TourError};

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
    /// A graph file that does not read as a graph (in the message, so
    /// deliberately not a `source`).
    #[error("bad graph: {0}")]
    Graph(GraphError),
    /// A start, end or clue that does not fit the board or the other clues
    /// (in the message, so deliberately not a `source`).
    #[error("{0}")]
    Problem(ProblemError),
    /// Cubes too many to hold within the memory budget.
    #[error("{cubes} or more cubes of depth {depth}{} would need about {estimate_mib} MiB or more, over the budget of {budget_mib} MiB", made_from(*.depth, *.asked))]
    CubesOverMemoryBudget {
        /// The depth whose cubes are too many: the depth asked for, or a
        /// shallower one that the walk to it passes through.
        depth: usize,
        /// The depth asked for.
        asked: usize,
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
    #[error("counting the {board} board by its frontier needs more than {needed_mib} MiB of states, over the budget of {budget_mib} MiB{}{}", on_disk_besides(*.on_disk_mib), if *.meeting { ", held in memory at the cut where the halves meet" } else { "" })]
    FrontierOverMemoryBudget {
        /// The board, as it prints.
        board: String,
        /// What the tables would have taken when the count stopped.
        needed_mib: u64,
        /// The budget.
        budget_mib: u64,
        /// The most MiB of states it had kept on disk by then.
        on_disk_mib: u64,
        /// Whether the count met in the middle, which holds the states at
        /// its cut in memory.
        meeting: bool,
    },
    /// A frontier count that could not start a thread even when running
    /// on one (an address-space or process limit).
    #[error("counting by the frontier could not start a thread: {message}")]
    FrontierNoThread {
        /// What the system said.
        message: String,
    },
    /// A frontier count that could not write or read the states it keeps
    /// on disk (a full disk, a directory it may not write in).
    #[error("counting by the frontier could not keep its states in {dir} after writing {on_disk_mib} MiB there: {message}")]
    FrontierDisk {
        /// The directory the states were kept in.
        dir: String,
        /// What failed.
        message: String,
        /// The most MiB the count had on disk at once.
        on_disk_mib: u64,
    },
    /// A count in parts whose halves, met in the middle, passed 64-bit
    /// counts: the whole is counted forward, which splits into other
    /// parts, so the parts would not add up.
    #[error("counting the {board} board in parts meets in the middle, whose halves' counts pass 64 bits on this board: count it whole, or with --frontier-order rows")]
    FrontierPartsOutgrown {
        /// The board, as it prints.
        board: String,
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
    /// The proof checker program cannot be started.
    #[error("cannot run the DRAT proof checker '{program}': {reason}")]
    CheckerMissing {
        /// The checker.
        program: String,
        /// Why it could not be started.
        reason: String,
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
    /// A puzzle grid that cannot be read: wrong shape, bad cells, repeated numbers.
    #[error("bad puzzle: {0}")]
    BadPuzzle(String),
    /// A rule a puzzle cannot be made to keep: its own clues fix the tour.
    #[error("a puzzle keeps its problem's board, holes, leaper and whether it is closed; {0} it cannot keep (its own clues fix the tour)")]
    PuzzleRule(&'static str),
    /// A limit of no tours, which counts nothing.
    #[error("a limit of 0 tours counts nothing: give at least 1")]
    ZeroLimit,
    /// Cube tallies that do not add up (a cube missing or counted twice), or
    /// a range of cubes past the last.
    #[error(transparent)]
    Tally(#[from] TallyError),
    /// A time limit, an interrupt, or reading and writing files.
    #[error(transparent)]
    Run(#[from] RunError),
    /// Reading a tour.
    #[error(transparent)]
    Tour(TourError),
    /// Reading DIMACS text, a model or a solver's output.
    #[error(transparent)]
    Cnf(CnfError),
    /// A search without SAT that gave up.
    #[error(transparent)]
    Search(SearchError),
    /// The encoding's options, or decoding a model.
    #[error(transparent)]
    Encoding(EncodingError),
    /// A SAT solver that gave no answer.
    #[error(transparent)]
    Sat(SatError),
    /// A count's checkpoint that cannot be read or written.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
}

/// Why a count's checkpoint cannot be gone on from, or kept.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckpointError {
    /// A file cut short, changed, or not a checkpoint at all: never read
    /// as a smaller count.
    #[error("the checkpoint {path} is damaged ({why}), so it is not read")]
    Damaged {
        /// The file.
        path: String,
        /// What is wrong with it.
        why: String,
    },
    /// A checkpoint of another count (another problem, order or part).
    #[error("the checkpoint {path} is of another count ({theirs})")]
    OtherCount {
        /// The file.
        path: String,
        /// The record of the count it is of.
        theirs: String,
    },
    /// A checkpoint another version of knightsat wrote.
    #[error("the checkpoint {path} was written by knightsat {theirs}; this is {ours}")]
    OtherVersion {
        /// The file.
        path: String,
        /// The version and format that wrote it.
        theirs: String,
        /// This version and format.
        ours: String,
    },
    /// A checkpoint file that could not be written, read or removed.
    #[error("could not keep the checkpoint: {message}")]
    Io {
        /// What was being done, to which file, and what the system said.
        message: String,
    },
}

impl From<RunError> for CheckpointError {
    fn from(error: RunError) -> CheckpointError {
        CheckpointError::Io {
            message: error.to_string(),
        }
    }
}

impl From<ProblemError> for Error {
    fn from(error: ProblemError) -> Error {
        Error::Problem(error)
    }
}

impl From<Violation> for Error {
    fn from(violation: Violation) -> Error {
        Error::Tour(TourError::InvalidTour(violation))
    }
}

impl From<TourError> for Error {
    fn from(error: TourError) -> Error {
        match error {
            TourError::Board(error) => Error::Board(error),
            error => Error::Tour(error),
        }
    }
}

impl From<CnfError> for Error {
    fn from(error: CnfError) -> Error {
        match error {
            CnfError::Run(error) => Error::Run(error),
            error => Error::Cnf(error),
        }
    }
}

impl HoldsRunError for Error {
    fn as_run(&self) -> Option<&RunError> {
        match self {
            Error::Run(error) => Some(error),
            _ => None,
        }
    }
}

impl From<SearchError> for Error {
    fn from(error: SearchError) -> Error {
        match error {
            SearchError::Unsupported(what) => Error::Unsupported(what),
            SearchError::Run(error) => Error::Run(error),
            SearchError::Tour(error) => Error::from(error),
            error @ (SearchError::GaveUp { .. } | SearchError::NoneWithin { .. }) => {
                Error::Search(error)
            }
        }
    }
}

impl From<GraphError> for Error {
    fn from(error: GraphError) -> Error {
        Error::Graph(error)
    }
}

impl From<EncodingError> for Error {
    fn from(error: EncodingError) -> Error {
        match error {
            EncodingError::Cnf(error) => Error::from(error),
            EncodingError::Tour(error) => Error::from(error),
            EncodingError::Board(error) => Error::Board(error),
            EncodingError::Problem(error) => Error::Problem(error),
            EncodingError::Run(error) => Error::Run(error),
            error => Error::Encoding(error),
        }
    }
}

impl From<SatError> for Error {
    fn from(error: SatError) -> Error {
        match error {
            SatError::Unsupported(what) => Error::Unsupported(what),
            SatError::Encoding(error) => Error::from(error),
            SatError::Cnf(error) => Error::from(error),
            SatError::Run(error) => Error::Run(error),
            error => Error::Sat(error),
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
    /// Which kind of failure this is: the one place that decides it.
    pub fn class(&self) -> ErrorClass {
        match self {
            Error::Board(_)
            | Error::Graph(_)
            | Error::Problem(_)
            | Error::Unsupported(_)
            | Error::Tour(
                TourError::Board(_)
                | TourError::BadTourInput(_)
                | TourError::MoveListNeedsBoard
                | TourError::NumberedBoard
                | TourError::ClosedButFileSaysOpen { .. },
            )
            | Error::Cnf(_)
            | Error::Encoding(_)
            | Error::Run(
                RunError::BadTimeLimit(_)
                | RunError::NoThread { .. }
                | RunError::CannotRead { .. }
                | RunError::SameOutputTwice { .. }
                | RunError::DirectoryNotOurs { .. },
            )
            | Error::Sat(SatError::SolverMissing { .. } | SatError::OverMemoryBudget { .. })
            | Error::CubesOverMemoryBudget { .. }
            | Error::FrontierOverMemoryBudget { .. }
            | Error::FrontierDisk { .. }
            | Error::FrontierNoThread { .. }
            | Error::CheckerMissing { .. }
            | Error::FrontierPartsOutgrown { .. }
            | Error::FrontierTooWide { .. }
            | Error::FrontierTooManySquares { .. }
            | Error::ZeroLimit
            | Error::PuzzleRule(_)
            | Error::BadPuzzle(_)
            | Error::Tally(_)
            | Error::Checkpoint(_) => ErrorClass::BadInput,
            Error::Run(RunError::Timeout { .. } | RunError::TimedOutPartway { .. }) => {
                ErrorClass::Timeout
            }
            Error::Search(SearchError::GaveUp { .. } | SearchError::NoneWithin { .. }) => {
                ErrorClass::GaveUp
            }
            Error::Tour(TourError::InvalidTour(_))
            | Error::Run(RunError::Stopped | RunError::Interrupted | RunError::Io { .. })
            | Error::Sat(_)
            | Error::Search(_)
            | Error::CountOverflow
            | Error::CheckerCrashed { .. } => ErrorClass::Failure,
        }
    }

    /// This error after `found` tours were counted or listed: a timeout
    /// becomes one that ran out partway, which says the tours so far are
    /// part of the answer; any other error is kept.
    pub(crate) fn after_tours(self, found: u64) -> Error {
        match self {
            Error::Run(RunError::Timeout { seconds }) => {
                Error::Run(RunError::TimedOutPartway { seconds, found })
            }
            error => error,
        }
    }

    /// Wraps an I/O error with what was being done.
    pub fn io(context: impl Into<String>, error: std::io::Error) -> Error {
        Error::Run(RunError::io(context, error))
    }

    /// The kind of the underlying I/O error, if this is one.
    pub fn io_kind(&self) -> Option<std::io::ErrorKind> {
        match self {
            Error::Run(RunError::Io { error, .. } | RunError::CannotRead { error, .. }) => {
                Some(error.kind())
            }
            _ => None,
        }
    }
}

/// ", besides N MiB kept on disk" when a count kept states on disk.
/// What the cubes of depth `asked` have to do with those of `depth`.
fn made_from(depth: usize, asked: usize) -> String {
    if depth == asked {
        String::new()
    } else {
        format!(" (the walk to depth {asked} passes through each)")
    }
}

fn on_disk_besides(mib: u64) -> String {
    if mib == 0 {
        String::new()
    } else {
        format!(", besides {mib} MiB kept on disk")
    }
}

/// Why cube tallies do not add up, or a range of cubes does not fit.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum TallyError {
    /// A line that is not a cube's tally or a task's header.
    #[error("{place} is not a cube's count as `count --cubes` writes it (cube N/CUBES, the tours, the squares, the task's fingerprint, separated by tabs), nor a part's as `count --part` writes it (part K/PARTS, the tours, the fingerprint), nor their header: '{text}'")]
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
    /// A cube's or part's line before any header line.
    #[error("{place} counts a cube or a part, but no header line (`# knightsat cube counts …` or `# knightsat part counts …`, which `count --cubes` and `count --part` print first) came before it: which problem's it is is unknown")]
    NoHeader {
        /// File and line.
        place: String,
    },
    /// Lines of tasks of two different problems (or depths, methods,
    /// orders or numbers of parts).
    #[error("{place} is from a count of another problem, depth, method, order or split than the header at {header}: the counts of two problems do not add up")]
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
    #[error("{place} counts a {kind} of {cubes}, the lines before it {kind}s of {expected}: these are counts of two different splits")]
    TwoSplits {
        /// Cubes or parts.
        kind: LineKind,
        /// File and line.
        place: String,
        /// The line's number of cubes.
        cubes: usize,
        /// The number of cubes before it.
        expected: usize,
    },
    /// A cube (or part) counted twice: the sum would count its tours twice.
    #[error("{kind} {number} of {cubes} is counted twice ({first} and {again}): its tours would count twice")]
    CountedTwice {
        /// Cubes or parts.
        kind: LineKind,
        /// The cube's number.
        number: usize,
        /// The number of cubes.
        cubes: usize,
        /// Where it was counted first.
        first: String,
        /// Where it was counted again.
        again: String,
    },
    /// Cubes (or parts) not counted: the sum would be short.
    #[error("{} of {cubes} {kind}s are not counted ({}): the sum would be short", missing.len(), list(*kind, missing))]
    Missing {
        /// Cubes or parts.
        kind: LineKind,
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
    /// A cube reported as having as many tours as another, whose own line
    /// refers on to a third: `count` refers each cube to a counted one.
    #[error("{place} gives cube {number} as many tours as cube {other}, whose own line gives it as many as cube {further}: count refers a cube to one it counted, so these lines are not count's")]
    SameAsAReference {
        /// Where the cube was reported.
        place: String,
        /// The cube's number.
        number: usize,
        /// The cube it refers to.
        other: usize,
        /// The cube that one refers to in turn.
        further: usize,
    },
    /// No line to add.
    #[error("no cube or part counts to add up")]
    Nothing,
    /// A sum beyond 2^256 − 1 tours.
    #[error("the sum is 2^256 tours or more")]
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

/// What a line of a cluster task's output counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    /// A cube: the tours that begin with its moves (`count --cubes`).
    Cube,
    /// A part of a frontier count (`count --part`).
    Part,
}

impl std::fmt::Display for LineKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LineKind::Cube => "cube",
            LineKind::Part => "part",
        })
    }
}

/// Cube numbers as runs (`3-7, 12`), the first ten runs and how many more.
fn list(kind: LineKind, numbers: &[usize]) -> String {
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
    format!("{kind} {}", words.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_numbers_are_listed_as_runs() {
        assert_eq!(
            list(LineKind::Cube, &[1, 2, 3, 7, 9, 10]),
            "cube 1-3, 7, 9-10"
        );
        assert_eq!(list(LineKind::Part, &[4]), "part 4");
    }
}
