//! Clauses and where they go.
//!
//! The encoder writes every clause into a [`ClauseSink`]; DIMACS text, the
//! in-process solver and the statistics counter are all sinks, so what is
//! written and what is solved are the same clauses by construction.

pub mod dimacs;
pub mod split;

pub use varisat::{Lit, Var};

/// A destination for clauses and the allocator of fresh variables.
pub trait ClauseSink {
    /// Adds one clause (a disjunction of literals).
    fn add_clause(&mut self, clause: &[Lit]);

    /// The number of variables reserved or allocated so far: the highest
    /// variable number in use. Fresh variables are numbered after it.
    fn var_count_mut(&mut self) -> &mut usize;

    /// Allocates a fresh variable, numbered after every variable reserved or
    /// allocated so far.
    fn new_var(&mut self) -> Var {
        let count = self.var_count_mut();
        *count += 1;
        Var::from_dimacs(*count as isize)
    }

    /// Makes sure variables `1..=count` exist, so that fresh variables come after them.
    fn reserve_vars(&mut self, count: usize) {
        let vars = self.var_count_mut();
        *vars = (*vars).max(count);
    }

    /// Announces that the following clauses belong to the named constraint family.
    fn begin_family(&mut self, _name: &'static str) {}
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

    fn var_count_mut(&mut self) -> &mut usize {
        &mut self.vars
    }

    fn new_var(&mut self) -> Var {
        self.current().aux_vars += 1;
        self.vars += 1;
        Var::from_dimacs(self.vars as isize)
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

    fn var_count_mut(&mut self) -> &mut usize {
        &mut self.vars
    }
}

impl Formula {
    /// Whether every clause has a literal that `value` makes true; variables
    /// are given by their DIMACS number.
    pub fn is_satisfied_by(&self, value: impl Fn(usize) -> bool) -> bool {
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
    vars: usize,
}

impl<'a> VarisatSink<'a> {
    /// A sink over a fresh varisat solver.
    pub fn new() -> VarisatSink<'a> {
        VarisatSink {
            solver: varisat::Solver::new(),
            vars: 0,
        }
    }

    /// Number of variables reserved or allocated.
    pub fn vars(&self) -> usize {
        self.vars
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

    fn var_count_mut(&mut self) -> &mut usize {
        &mut self.vars
    }
}

impl<S: ClauseSink + ?Sized> ClauseSink for &mut S {
    fn add_clause(&mut self, clause: &[Lit]) {
        (**self).add_clause(clause);
    }

    fn var_count_mut(&mut self) -> &mut usize {
        (**self).var_count_mut()
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
}
