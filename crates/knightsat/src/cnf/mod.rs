//! Clauses and where they go.
//!
//! Every encoding writes its clauses into a [`ClauseSink`]; DIMACS text, the
//! solvers behind the seam (varisat and `CaDiCaL` in this process, a solver
//! program through its CNF file), the statistics counter and an in-memory
//! [`Formula`] are all sinks, so what is written and what is solved are the
//! same clauses by construction. Nothing here knows about tours or encodings.

pub mod dimacs;

use crate::runtime::RunError;
pub(crate) mod split;

pub use varisat::{Lit, Var};

/// A destination for clauses and the allocator of fresh variables.
///
/// Variables are numbered from 1 in the order they are reserved or
/// allocated; an encoding reserves its own variables first, and every
/// auxiliary variable (at-most-one helpers, Tseytin links) comes after.
pub trait ClauseSink {
    /// Adds one clause (a disjunction of literals).
    fn add_clause(&mut self, clause: &[Lit]);

    /// Allocates a fresh variable, numbered after every variable reserved or
    /// allocated so far.
    fn new_var(&mut self) -> Var;

    /// Makes sure variables `1..=count` exist, so that fresh variables come after them.
    fn reserve_vars(&mut self, count: usize);

    /// The highest variable number reserved or allocated so far.
    fn var_count(&self) -> usize;

    /// Announces that the following clauses belong to the named constraint family.
    fn begin_family(&mut self, _name: &'static str) {}

    /// Whether the sink takes no more clauses (a solver that was stopped):
    /// an encoding then stops writing, so that a time limit does not wait
    /// for a large formula that nobody will read.
    fn is_closed(&self) -> bool {
        false
    }
}

/// Writes one constraint family into `sink` under its `name`, unless the
/// sink is closed ([`ClauseSink::is_closed`]).
pub(crate) fn family<S: ClauseSink + ?Sized>(
    sink: &mut S,
    name: &'static str,
    write: impl FnOnce(&mut S),
) {
    if !sink.is_closed() {
        sink.begin_family(name);
        write(sink);
    }
}

/// The variable numbering every sink keeps: a count of variables in use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VarCounter(usize);

impl VarCounter {
    /// The next variable, counted as in use.
    pub(crate) fn fresh(&mut self) -> Var {
        self.0 += 1;
        Var::from_dimacs(self.0 as isize)
    }

    /// Counts variables `1..=count` as in use.
    pub(crate) fn reserve(&mut self, count: usize) {
        self.0 = self.0.max(count);
    }

    /// The highest variable number in use.
    pub(crate) fn count(self) -> usize {
        self.0
    }
}

/// Counts of one constraint family.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct FamilyStats {
    /// The family's name, as the encoder announces it.
    pub name: &'static str,
    /// Clauses in the family.
    pub clauses: usize,
    /// Literals over all its clauses.
    pub literals: usize,
    /// Fresh variables allocated while encoding it.
    pub aux_vars: usize,
}

/// A sink that stores nothing and counts variables, clauses and literals per family.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    /// Number of variables reserved or allocated (the highest variable number).
    pub vars: usize,
    /// Number of clauses.
    pub clauses: usize,
    /// Number of literals over all clauses.
    pub literals: usize,
    /// Per-family counts in the order the families were encoded.
    pub families: Vec<FamilyStats>,
}

impl Stats {
    fn current(&mut self) -> &mut FamilyStats {
        if self.families.is_empty() {
            self.families.push(FamilyStats {
                name: "unnamed",
                ..FamilyStats::default()
            });
        }
        self.families.last_mut().expect("just ensured non-empty")
    }
}

impl ClauseSink for Stats {
    fn add_clause(&mut self, clause: &[Lit]) {
        self.clauses += 1;
        self.literals += clause.len();
        let family = self.current();
        family.clauses += 1;
        family.literals += clause.len();
    }

    fn new_var(&mut self) -> Var {
        self.current().aux_vars += 1;
        self.vars += 1;
        Var::from_dimacs(self.vars as isize)
    }

    fn reserve_vars(&mut self, count: usize) {
        self.vars = self.vars.max(count);
    }

    fn var_count(&self) -> usize {
        self.vars
    }

    fn begin_family(&mut self, name: &'static str) {
        self.families.push(FamilyStats {
            name,
            ..FamilyStats::default()
        });
    }
}

/// An in-memory formula: every clause kept, for tests and small tools.
#[derive(Clone, Debug, Default)]
pub struct Formula {
    /// Number of variables reserved or allocated.
    pub vars: usize,
    /// The clauses in the order they were added.
    pub clauses: Vec<Vec<Lit>>,
}

impl ClauseSink for Formula {
    fn add_clause(&mut self, clause: &[Lit]) {
        self.clauses.push(clause.to_vec());
    }

    fn new_var(&mut self) -> Var {
        self.vars += 1;
        Var::from_dimacs(self.vars as isize)
    }

    fn reserve_vars(&mut self, count: usize) {
        self.vars = self.vars.max(count);
    }

    fn var_count(&self) -> usize {
        self.vars
    }
}

impl Formula {
    /// Whether every clause has a literal that `value` makes true; variables
    /// are given by their DIMACS number.
    #[cfg(test)]
    pub(crate) fn is_satisfied_by(&self, value: impl Fn(usize) -> bool) -> bool {
        self.clauses.iter().all(|clause| {
            clause
                .iter()
                .any(|lit| value(lit.var().to_dimacs() as usize) == lit.is_positive())
        })
    }
}

/// The in-process solver as a sink: clauses go straight into varisat.
pub struct VarisatSink<'a> {
    /// The solver receiving the clauses.
    pub solver: varisat::Solver<'a>,
    vars: VarCounter,
}

impl<'a> VarisatSink<'a> {
    /// A sink over a fresh varisat solver.
    pub(crate) fn new() -> VarisatSink<'a> {
        VarisatSink {
            solver: varisat::Solver::new(),
            vars: VarCounter::default(),
        }
    }
}

impl Default for VarisatSink<'_> {
    fn default() -> Self {
        VarisatSink::new()
    }
}

impl ClauseSink for VarisatSink<'_> {
    fn add_clause(&mut self, clause: &[Lit]) {
        use varisat::ExtendFormula;
        self.solver.add_clause(clause);
    }

    fn new_var(&mut self) -> Var {
        self.vars.fresh()
    }

    fn reserve_vars(&mut self, count: usize) {
        self.vars.reserve(count);
    }

    fn var_count(&self) -> usize {
        self.vars.count()
    }
}

impl<S: ClauseSink + ?Sized> ClauseSink for &mut S {
    fn add_clause(&mut self, clause: &[Lit]) {
        (**self).add_clause(clause);
    }

    fn var_count(&self) -> usize {
        (**self).var_count()
    }

    fn new_var(&mut self) -> Var {
        (**self).new_var()
    }

    fn reserve_vars(&mut self, count: usize) {
        (**self).reserve_vars(count);
    }

    fn begin_family(&mut self, name: &'static str) {
        (**self).begin_family(name);
    }

    fn is_closed(&self) -> bool {
        (**self).is_closed()
    }
}

/// Why DIMACS text, a model or a solver's output cannot be read, or is not
/// what knightsat wrote.
#[derive(Debug, thiserror::Error)]
pub enum CnfError {
    /// Reading the text, or a time limit.
    #[error(transparent)]
    Run(#[from] RunError),
    /// Solver output that cannot be read.
    #[error("solver output line {line}: {message}")]
    SolverOutput {
        /// One-based line number in the solver output.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// A CNF whose clauses cannot be read.
    #[error("cannot read the CNF's clauses: {0}")]
    BadCnf(String),
    /// A CNF file that knightsat did not write (or whose comments were removed).
    #[error("{0}")]
    NotKnightsatCnf(String),
    /// A knightsat CNF whose clauses (or header) are not the ones knightsat
    /// writes for the problem its comments describe: clauses added,
    /// removed or changed, or comments edited. Counting it from its
    /// comments would count another formula.
    #[error("the CNF's clauses are not the ones knightsat writes for the problem its comments describe{}: count it with a SAT solver or a model counter, which read the clauses", match clause { Some(n) => format!(" (clause {n} differs)"), None => " (their number differs)".to_string() })]
    ClausesNotAsWritten {
        /// The first clause that differs, from 1; `None` when the number
        /// of clauses does.
        clause: Option<usize>,
    },
    /// A knightsat CNF whose header declares other counts than knightsat
    /// writes for the problem its comments describe.
    #[error("the header 'p cnf {} {}' is not the one knightsat writes for the problem its comments describe ('p cnf {} {}'): count it with a SAT solver or a model counter, which read the clauses", declared.0, declared.1, written.0, written.1)]
    HeaderNotAsWritten {
        /// The variables and clauses the header declares.
        declared: (usize, usize),
        /// The variables and clauses knightsat writes.
        written: (usize, usize),
    },
    /// A model that leaves a clause of the CNF it is given with false: a
    /// model of another formula (another cube's CNF, say).
    #[error("the model leaves clause {clause} of the CNF ({literals} 0) false: it is not a model of this CNF (is it for another one?)")]
    ModelFalsifiesClause {
        /// The clause's number in the file, from 1.
        clause: usize,
        /// Its literals, as in the file.
        literals: String,
    },
    /// A model given as values that is not one: a variable given both
    /// values, or a number that names no variable.
    #[error("not a model: {0}")]
    NotAModel(String),
}
