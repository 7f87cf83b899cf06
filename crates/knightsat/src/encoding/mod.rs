//! Encodings: how a [`Problem`] becomes clauses, and how a model becomes a
//! tour again.
//!
//! An [`EncodingConfig`] names an encoding and its switches. Prepared for a
//! problem it gives an [`Encoding`]: the variable map and pruning worked out
//! once, which writes its formula into any [`ClauseSink`] and reads the
//! squares back out of a model. DIMACS files, the in-process solvers,
//! counting and external solvers all go through the same `Encoding`, so the
//! clauses written and the clauses solved come from the same code.

use crate::cnf::CnfError;
use crate::model::board::BoardError;
use crate::model::problem::ProblemError;
use crate::model::verify::Violation;
use crate::runtime::RunError;
use crate::tour::TourError;
pub mod amo;
pub mod successor;
pub mod time_indexed;

use crate::cnf::split::Splitter;
use crate::cnf::{ClauseSink, Lit};

use crate::model::board::Board;
use crate::model::problem::Problem;

pub use amo::Amo;
pub use successor::{
    Acyclicity, CycleWatch, Laps, PositionCode, Subtours, Successor, SuccessorConfig,
};
pub use time_indexed::{TimeIndexed, TimeIndexedConfig};

/// A satisfying assignment: the value of each variable by DIMACS number,
/// `None` where the solver did not say (`MiniSat` leaves out variables that
/// occur in no clause).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Model {
    values: Vec<Option<bool>>,
}

impl Model {
    /// A model from values indexed by DIMACS number (index 0 unused).
    pub fn new(values: Vec<Option<bool>>) -> Model {
        Model { values }
    }

    /// A model from the true and false literals a solver reports.
    pub fn from_lits(lits: &[Lit]) -> Model {
        let highest = lits.iter().map(|lit| lit.var().to_dimacs()).max();
        let mut values = vec![None; highest.map_or(1, |v| v as usize + 1)];
        for lit in lits {
            values[lit.var().to_dimacs() as usize] = Some(lit.is_positive());
        }
        Model { values }
    }

    /// A model of a formula of `vars` variables from DIMACS literals, as
    /// a solver's `v` lines or `PySAT`'s `get_model()` give them (a 0 is
    /// skipped: it only ends a line). A variable given both values, or a
    /// literal naming no variable of the formula, is refused
    /// ([`CnfError::NotAModel`]), as `decode` refuses them in a solver's output.
    pub fn from_dimacs(
        literals: impl IntoIterator<Item = i64>,
        vars: usize,
    ) -> Result<Model, EncodingError> {
        Model::from_values(
            literals
                .into_iter()
                .filter(|&literal| literal != 0)
                .map(|literal| (literal.unsigned_abs(), literal > 0)),
            vars,
        )
    }

    /// A model of a formula of `vars` variables from variables (DIMACS
    /// numbers, from 1) and their values; a variable given both values,
    /// or a number that names no variable of the formula, is refused
    /// ([`CnfError::NotAModel`]).
    pub(crate) fn from_values(
        assigned: impl IntoIterator<Item = (u64, bool)>,
        vars: usize,
    ) -> Result<Model, EncodingError> {
        let mut values: Vec<Option<bool>> = vec![None];
        for (var, value) in assigned {
            let index = usize::try_from(var)
                .ok()
                .filter(|&index| (1..=vars).contains(&index))
                .ok_or_else(|| {
                    EncodingError::Cnf(CnfError::NotAModel(format!(
                        "{var} names no variable: the formula has variables 1 to {vars}"
                    )))
                })?;
            if index >= values.len() {
                values.resize(index + 1, None);
            }
            if values[index] == Some(!value) {
                return Err(EncodingError::Cnf(CnfError::NotAModel(format!(
                    "variable {index} is given both values"
                ))));
            }
            values[index] = Some(value);
        }
        Ok(Model { values })
    }

    /// The value of variable `var` (its DIMACS number), if the model gives one.
    pub(crate) fn value(&self, var: usize) -> Option<bool> {
        self.values.get(var).copied().flatten()
    }

    /// The highest variable number the model mentions (0 for none).
    pub(crate) fn highest_var(&self) -> usize {
        self.values.len().saturating_sub(1)
    }
}

/// The clause that blocks the tour `squares` of `encoding`'s problem:
/// every assignment satisfies it but those giving that tour. A sequence
/// that is not a tour of the problem is refused ([`EncodingError::BlockNotATour`]):
/// the clause names only what the sequence uses (the successor encoding's,
/// its moves), so a clause for a non-tour can remove real tours.
pub fn block_tour(encoding: &dyn Encoding, squares: &[usize]) -> Result<Vec<Lit>, EncodingError> {
    crate::model::verify::verify(squares, encoding.problem())
        .map_err(EncodingError::BlockNotATour)?;
    Ok(encoding.blocking_clause(squares))
}

/// What becomes of an incomplete formula's model ([`Encoding::mend`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mended {
    /// The model is a tour as it is.
    Tour,
    /// Its subtours, patched into this tour (squares in order; not
    /// verified, and not necessarily a model of the formula).
    Patched(Vec<usize>),
    /// Its subtours, forbidden by `clauses`, which every tour satisfies and
    /// the model breaks.
    Cut {
        /// The cut clauses.
        clauses: Vec<Vec<Lit>>,
        /// How many cycles the model's moves form.
        subtours: usize,
    },
}

/// An encoding prepared for one problem.
pub trait Encoding: Send + Sync {
    /// The encoding's name, as in CNF comments (`time-indexed`).
    fn name(&self) -> &'static str;

    /// The problem encoded.
    fn problem(&self) -> &Problem;

    /// The switches it was prepared with, as `(key, value)` pairs in the
    /// order CNF comments record them; `EncodingConfig::read_setting`
    /// reads them back.
    fn settings(&self) -> Vec<(&'static str, String)>;

    /// Writes the whole formula into `sink`, always the same clauses in the
    /// same order.
    fn encode(&self, sink: &mut dyn ClauseSink);

    /// How many variables the encoding itself numbers (before auxiliaries).
    fn primary_vars(&self) -> usize;

    /// How many of those occur in clauses at all (the rest are pruned).
    fn live_vars(&self) -> usize;

    /// About how many literals the formula has, worked out without writing
    /// it (for a memory estimate before solving in-process).
    fn estimated_literals(&self) -> u64;

    /// Lines for the CNF comments that explain the variable numbering.
    fn describe_vars(&self) -> Vec<String>;

    /// The squares in visiting order that `model` describes, not yet
    /// verified; an error names a step on no square or on two.
    fn squares_of(&self, model: &Model) -> Result<Vec<usize>, EncodingError>;

    /// A clause that only assignments other than the one giving `squares`
    /// satisfy, over the encoding's own variables, so that auxiliaries never
    /// multiply a count.
    fn blocking_clause(&self, squares: &[usize]) -> Vec<Lit>;

    /// Whether a closed tour that nothing anchors is searched from the
    /// first square, as [`Problem::effective_start`] says. An encoding
    /// that lets it start elsewhere (a block schedule, which a1 may not
    /// close) has the tour it finds turned to start there when decoded.
    fn keeps_the_default_start(&self) -> bool {
        true
    }

    /// Whether every model of the formula is a tour. An incomplete
    /// formula (the successor encoding with lazy subtours) is solved in a
    /// loop with [`mend`](Self::mend) and never written
    /// to a file on its own.
    fn is_complete(&self) -> bool {
        true
    }

    /// Whether a solver's cheap guesses at a whole assignment
    /// ([`Setup::guesses_first`](crate::sat::Setup::guesses_first)) tend
    /// to find a model of this formula outright, so that trying them before
    /// the search pays.
    fn guesses_find_models(&self) -> bool {
        false
    }

    /// What the subtour loop does with `model` of an incomplete formula:
    /// nothing when it is a tour; with `patching` (a search for one tour,
    /// where the encoding knows how), the tour its subtours mend into;
    /// otherwise clauses that every tour satisfies and the model does
    /// not. An error for a model that is not even a model of the formula.
    fn mend(&self, _model: &Model, _patching: bool) -> Result<Mended, EncodingError> {
        Ok(Mended::Tour)
    }

    /// Adds `cuts` (from [`mend`](Self::mend)) to `sink`
    /// as the formula's own clauses would be written (split, where the
    /// encoding splits clauses).
    fn add_cuts(&self, cuts: &[Vec<Lit>], sink: &mut dyn ClauseSink) {
        for cut in cuts {
            sink.add_clause(cut);
        }
    }

    /// A watch that finds the formula's subtours while a solver searches
    /// ([`CycleWatch`]), for an incomplete formula whose encoding has one;
    /// with `patching`, it lets through the models the encoding patches
    /// into a tour ([`mend`](Self::mend)).
    fn cycle_watch(&self, _patching: bool) -> Option<CycleWatch> {
        None
    }

    /// What the encoding's own variables are called (`stats`).
    fn variable_kind(&self) -> &'static str {
        "x variables"
    }
}

/// Runs `encode` on `sink`, through a Tseytin splitter when
/// `max_clause_len` asks for one, so that every encoding splits its
/// clauses, subtour cuts included, the same way.
pub(crate) fn splitting(
    max_clause_len: Option<usize>,
    sink: &mut dyn ClauseSink,
    encode: impl FnOnce(&mut dyn ClauseSink),
) {
    match max_clause_len {
        Some(max_len) => encode(&mut Splitter::new(sink, max_len)),
        None => encode(sink),
    }
}

/// How a square's index is counted, in words for CNF comments.
pub(crate) fn square_index_words(board: &Board) -> String {
    if board.has_holes() {
        "index(s) = position of s among the board's squares counted rank by rank from rank 1, files a to z, holes skipped".to_string()
    } else {
        format!(
            "index(s) = rank_index*{} + file_index (a1 = 0)",
            board.cols()
        )
    }
}

/// Which encoding, with its switches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EncodingConfig {
    /// x(t, s): "after t moves the knight is on square s" (see [`time_indexed`]).
    TimeIndexed(TimeIndexedConfig),
    /// m(s→w): "the move after s goes to w" (see [`successor`]).
    Successor(SuccessorConfig),
}

impl Default for EncodingConfig {
    fn default() -> Self {
        EncodingConfig::TimeIndexed(TimeIndexedConfig::default())
    }
}

impl From<TimeIndexedConfig> for EncodingConfig {
    fn from(config: TimeIndexedConfig) -> Self {
        EncodingConfig::TimeIndexed(config)
    }
}

impl From<SuccessorConfig> for EncodingConfig {
    fn from(config: SuccessorConfig) -> Self {
        EncodingConfig::Successor(config)
    }
}

impl EncodingConfig {
    /// The encodings' names, as [`name`](Self::name) gives them.
    pub const NAMES: [&'static str; 2] = ["time-indexed", "successor"];

    /// The encoding named `name` (one of [`NAMES`](Self::NAMES)) with its
    /// default switches, the successor encoding's subtours `subtours`.
    pub fn by_name(name: &str, subtours: Subtours) -> Option<EncodingConfig> {
        match name {
            "time-indexed" => Some(TimeIndexedConfig::default().into()),
            "successor" => Some(
                SuccessorConfig {
                    subtours,
                    ..SuccessorConfig::default()
                }
                .into(),
            ),
            _ => None,
        }
    }

    /// The encoding's name: `time-indexed` or `successor`.
    pub fn name(&self) -> &'static str {
        match self {
            EncodingConfig::TimeIndexed(_) => "time-indexed",
            EncodingConfig::Successor(_) => "successor",
        }
    }

    /// Works out everything the encoding needs for `problem`, or an error
    /// for switches that do not fit it.
    pub fn prepare(&self, problem: &Problem) -> Result<Box<dyn Encoding>, EncodingError> {
        match self {
            EncodingConfig::TimeIndexed(config) => {
                Ok(Box::new(TimeIndexed::new(problem, *config)?))
            }
            EncodingConfig::Successor(config) => Ok(Box::new(Successor::new(problem, *config)?)),
        }
    }

    /// Checks, without building anything, that the switches fit `problem`
    /// (what [`prepare`](Self::prepare) would refuse).
    pub(crate) fn check(&self, problem: &Problem) -> Result<(), EncodingError> {
        match self {
            EncodingConfig::TimeIndexed(config) => config.check_fits(problem),
            EncodingConfig::Successor(config) => config.check_fits(problem),
        }
    }

    /// What sets this formulation apart from others of the same encoding,
    /// in words: the at-most-one encoding of the time-indexed one, the
    /// subtour rule of the successor one.
    pub(crate) fn formulation(&self) -> String {
        match self {
            EncodingConfig::TimeIndexed(config) => match config.corridor {
                Some(slack) => {
                    format!("{} at-most-ones in a corridor of slack {slack}", config.amo)
                }
                None => format!("{} at-most-ones", config.amo),
            },
            EncodingConfig::Successor(config) => format!("{} subtours", config.subtours.name()),
        }
    }

    /// The same encoding keeping every tour: symmetry breaking, which keeps
    /// one tour per orbit, turned off (for counting).
    #[must_use]
    pub fn keeping_every_tour(&self) -> EncodingConfig {
        match self {
            EncodingConfig::TimeIndexed(config) => EncodingConfig::TimeIndexed(TimeIndexedConfig {
                symmetry_breaking: false,
                ..*config
            }),
            EncodingConfig::Successor(config) => EncodingConfig::Successor(SuccessorConfig {
                symmetry_breaking: false,
                ..*config
            }),
        }
    }

    /// The configuration a CNF comment block starts from before its
    /// `c option` lines are read: every switch off, because a CNF that does
    /// not mention a switch was written before the switch existed.
    pub(crate) fn before_any_setting() -> EncodingConfig {
        EncodingConfig::TimeIndexed(TimeIndexedConfig::naive())
    }

    /// Applies one recorded setting; `Ok(false)` when the key is not one of
    /// this encoding's. `encoding successor` (written first, and only for
    /// the successor encoding, so that time-indexed CNFs read as before)
    /// switches to that encoding with nothing set.
    pub(crate) fn read_setting(&mut self, key: &str, value: &str) -> Result<bool, EncodingError> {
        if key == "encoding" {
            *self = match value {
                "time-indexed" => EncodingConfig::before_any_setting(),
                "successor" => SuccessorConfig::before_any_setting().into(),
                _ => return Ok(false),
            };
            return Ok(true);
        }
        match self {
            EncodingConfig::TimeIndexed(config) => config.read_setting(key, value),
            EncodingConfig::Successor(config) => config.read_setting(key, value),
        }
    }

    /// What keeps the formula from having every tour of the problem, in
    /// words (`the block schedule 3x3`), or `None` when it has them all: a
    /// search on it that finds no tour proves nothing.
    pub fn restriction(&self) -> Option<String> {
        match self {
            EncodingConfig::TimeIndexed(config) => config.restriction(),
            EncodingConfig::Successor(_) => None,
        }
    }

    /// Whether every model of the formula is a tour (see
    /// [`Encoding::is_complete`]).
    pub(crate) fn is_complete(&self) -> bool {
        !matches!(
            self,
            EncodingConfig::Successor(SuccessorConfig {
                subtours: Subtours::Lazy,
                ..
            })
        )
    }
}
pub mod decode;

/// Why an encoding cannot be built with these options, or a model decoded.
#[derive(Debug, thiserror::Error)]
pub enum EncodingError {
    /// An encoding that needs a board's squares in their places, asked of
    /// a graph from a file.
    #[error("the {encoding} encoding needs a board's squares in their places: a graph takes the successor encoding")]
    NeedsBoard {
        /// The encoding's name.
        encoding: &'static str,
    },
    /// A maximum clause length below 3, which splitting cannot reach.
    #[error("the maximum clause length must be at least 3, got {len}")]
    ClauseLengthTooShort {
        /// The length asked for.
        len: usize,
    },
    /// A corridor asked for where fewer than two clues leave no pair of
    /// them to keep the moves near.
    #[error(
        "a corridor keeps each move near the two clues around it, and {clues} clue{} make no pair",
        if *clues == 1 { "" } else { "s" }
    )]
    CorridorWithoutClues {
        /// The clues the problem has.
        clues: usize,
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
    /// Vertex elimination whose clauses would pass the limit.
    #[error("vertex elimination on {board} would write more than {limit} clauses of its own (the neighbourhoods of its nodes grow as they are eliminated); --acyclicity positions takes it")]
    EliminationTooLarge {
        /// The board or graph, named (`Board::named`).
        board: String,
        /// The most clauses the elimination may write.
        limit: u64,
    },
    /// An at-most-one encoding name that is not known.
    #[error("unknown at-most-one encoding '{name}' (expected one of: {known})")]
    UnknownAmo {
        /// The name given.
        name: String,
        /// The known names, comma-separated.
        known: String,
    },
    /// A satisfying assignment that does not describe a sequence of squares.
    #[error("the model is not a tour: {0}")]
    BadModel(String),
    /// A sequence to block that is not a tour of the formula's problem: a
    /// clause made from it could remove real tours.
    #[error("cannot block it: not a tour of this problem: {0}")]
    BlockNotATour(Violation),
    /// Reading DIMACS text, a model or a solver's output.
    #[error(transparent)]
    Cnf(#[from] CnfError),
    /// Reading a tour.
    #[error(transparent)]
    Tour(#[from] TourError),
    /// A board, square or leaper that is malformed.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// A start, end or clue that does not fit the board.
    #[error("{0}")]
    Problem(#[from] ProblemError),
    /// A time limit, an interrupt, or reading and writing files.
    #[error(transparent)]
    Run(#[from] RunError),
}
