//! One in-process solving session: an encoding given to varisat once, then
//! solved again and again, with found tours blocked in between. `solve`,
//! `count`, `certify` and `puzzle` all search through it.

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

use varisat::ExtendFormula;

use crate::cnf::{ClauseSink, Lit, VarisatSink};
use crate::decode::{tour_from_model, tour_from_squares};
use crate::encoding::{Encoding, Model};
use crate::error::{Error, Unsupported};
use crate::tour::Tour;

/// The memory the in-process solver may use unless told otherwise, in MiB.
pub const DEFAULT_MEMORY_BUDGET_MIB: u64 = 4096;

/// What varisat holds per literal of the formula, measured (peak resident
/// memory over literals) at 12 to 15 bytes on 28x28 and 36x36 after a few
/// seconds of search.
const BYTES_PER_LITERAL: u64 = 14;

static MEMORY_BUDGET_MIB: AtomicU64 = AtomicU64::new(DEFAULT_MEMORY_BUDGET_MIB);

/// Sets the memory the in-process solver may use, in MiB, for this process.
pub fn set_memory_budget_mib(mib: u64) {
    MEMORY_BUDGET_MIB.store(mib, Ordering::Relaxed);
}

/// The memory budget set by [`set_memory_budget_mib`], in MiB.
pub fn memory_budget_mib() -> u64 {
    MEMORY_BUDGET_MIB.load(Ordering::Relaxed)
}

/// The memory the in-process solver would need for `encoding`, in MiB.
pub fn estimated_memory_mib(encoding: &dyn Encoding) -> u64 {
    (encoding.estimated_literals() * BYTES_PER_LITERAL).div_ceil(1 << 20)
}

/// Refuses an encoding whose estimated memory exceeds the budget, before
/// anything is built.
fn check_budget(encoding: &dyn Encoding) -> Result<(), Error> {
    check_budget_for(encoding, 1)
}

/// Refuses to run `sessions` sessions of `encoding` at once (one per thread
/// of `count --jobs` or `solve --jobs`) when together they would need more
/// than the budget: the budget bounds the process, not each session.
pub fn check_budget_for(encoding: &dyn Encoding, sessions: usize) -> Result<(), Error> {
    let estimate_mib = estimated_memory_mib(encoding) * sessions as u64;
    let budget_mib = MEMORY_BUDGET_MIB.load(Ordering::Relaxed);
    if estimate_mib > budget_mib {
        return Err(Error::OverMemoryBudget {
            board: encoding.problem().board().to_string(),
            estimate_mib,
            budget_mib,
        });
    }
    Ok(())
}

/// The cubes of `depth` moves (see [`crate::cubes`]), all held in memory,
/// refused when they would need more than the memory budget
/// ([`Error::CubesOverMemoryBudget`]): counting and solving on threads
/// hold them all. The one place the budget bounds cubes.
pub fn cubes_within_budget(
    problem: &crate::problem::Problem,
    config: &crate::encoding::EncodingConfig,
    depth: usize,
) -> Result<Vec<crate::cubes::Cube>, Error> {
    crate::cubes::cubes_within(problem, config, depth, memory_budget_mib() << 20)
}

/// What the subtour loop of a session did (see [`Session::next_tour`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SubtourLoop {
    /// Models the solver found, tours or not.
    pub rounds: u64,
    /// Subtour cuts added.
    pub cuts: u64,
    /// Tours made by patching a model's subtours together.
    pub patched: u64,
}

static LAST_LOOP: Mutex<SubtourLoop> = Mutex::new(SubtourLoop {
    rounds: 0,
    cuts: 0,
    patched: 0,
});

/// What the subtour loop of the session that last found a tour or ran out
/// of them did, in this process (for `solve -v`).
pub fn last_subtour_loop() -> SubtourLoop {
    *LAST_LOOP.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Records what a subtour loop outside a session (an external solver's) did.
pub(crate) fn record_subtour_loop(done: SubtourLoop) {
    *LAST_LOOP.lock().unwrap_or_else(PoisonError::into_inner) = done;
}

/// varisat's settings for a session that finds many tours of a small
/// formula, one blocking clause after another. Slower VSIDS decay (0.99
/// for varisat's 0.95) keeps the scores of the variables the last tours
/// were decided on; reducing learnt clauses every 500 conflicts (for every
/// 15,000 and 10,000) keeps the clause database small, which the frequent
/// simplifications at level 0 go through in full. Measured on
/// `count --size 6 --closed --start a1 --jobs 1 --depth 6`: 14.5 s against
/// 23.8 s with the defaults (README, Cubes).
fn enumeration_tuning() -> varisat::config::SolverConfigUpdate {
    let mut tuning = varisat::config::SolverConfigUpdate::new();
    tuning.vsids_decay = Some(0.99);
    tuning.reduce_locals_interval = Some(500);
    tuning.reduce_mids_interval = Some(500);
    tuning
}

/// varisat holding one encoding's formula.
pub struct Session {
    encoding: Box<dyn Encoding>,
    sink: VarisatSink<'static>,
    patching: bool,
    subtours: SubtourLoop,
}

impl Session {
    /// Encodes `encoding` into a fresh varisat solver, or refuses one whose
    /// estimated memory exceeds the budget ([`set_memory_budget_mib`]).
    pub fn new(encoding: Box<dyn Encoding>) -> Result<Session, Error> {
        Session::start(encoding, None)
    }

    /// Like [`Session::new`], with varisat writing a DRAT proof of
    /// everything it derives to `proof` (see [`Session::close_proof`]).
    pub fn with_proof(
        encoding: Box<dyn Encoding>,
        proof: impl Write + 'static,
    ) -> Result<Session, Error> {
        Session::start(encoding, Some(Box::new(proof)))
    }

    /// Like [`Session::new`], with varisat tuned for finding tour after
    /// tour (see `enumeration_tuning`): what `count` solves each cube with.
    pub fn enumerating(encoding: Box<dyn Encoding>) -> Result<Session, Error> {
        let mut session = Session::start(encoding, None)?;
        session
            .sink
            .solver
            .config(&enumeration_tuning())
            .map_err(|e| Error::Solver(e.to_string()))?;
        Ok(session)
    }

    fn start(encoding: Box<dyn Encoding>, proof: Option<Box<dyn Write>>) -> Result<Session, Error> {
        if proof.is_some() && !encoding.is_complete() {
            return Err(Error::Unsupported(Unsupported::ProofWithLazySubtours));
        }
        check_budget(&*encoding)?;
        let mut sink = VarisatSink::new();
        if let Some(proof) = proof {
            sink.solver.write_proof(proof, varisat::ProofFormat::Drat);
        }
        encoding.encode(&mut sink);
        Ok(Session {
            encoding,
            sink,
            patching: false,
            subtours: SubtourLoop::default(),
        })
    }

    /// Lets [`next_tour`](Self::next_tour) answer with a tour patched
    /// together from a model's subtours ([`Encoding::patch`]) before it
    /// adds cuts: for a search for one tour, never for counting (a patched
    /// tour is not a model of the formula and may repeat a blocked one).
    pub fn allow_patching(&mut self) {
        self.patching = true;
    }

    /// The encoding being solved.
    pub fn encoding(&self) -> &dyn Encoding {
        &*self.encoding
    }

    /// Solves; the decoded and verified tour, or `None` when the formula
    /// (with every tour blocked so far) is unsatisfiable.
    ///
    /// For an incomplete formula this is a loop: a model whose moves form
    /// subtours gets the cuts that forbid them ([`Encoding::subtour_cuts`])
    /// and the solver goes on, keeping what it learnt; with patching
    /// allowed, a model whose subtours patch into a tour answers at once.
    pub fn next_tour(&mut self) -> Result<Option<Tour>, Error> {
        let found = self.search();
        record_subtour_loop(self.subtours);
        found
    }

    fn search(&mut self) -> Result<Option<Tour>, Error> {
        loop {
            let satisfiable = self
                .sink
                .solver
                .solve()
                .map_err(|e| Error::Solver(e.to_string()))?;
            if !satisfiable {
                return Ok(None);
            }
            let lits = self
                .sink
                .solver
                .model()
                .ok_or_else(|| Error::Solver("varisat reported SAT without a model".into()))?;
            let model = Model::from_lits(&lits);
            self.subtours.rounds += 1;
            let cuts = self.encoding.subtour_cuts(&model)?;
            if cuts.is_empty() {
                let declared = self.sink.var_count();
                return tour_from_model(&*self.encoding, &model, Some(declared)).map(Some);
            }
            if self.patching {
                if let Some(squares) = self.encoding.patch(&model) {
                    self.subtours.patched += 1;
                    return tour_from_squares(&*self.encoding, squares).map(Some);
                }
            }
            self.subtours.cuts += cuts.len() as u64;
            self.encoding.add_cuts(&cuts, &mut self.sink);
        }
    }

    /// Adds each literal as a unit clause: the search is confined to a cube
    /// for the rest of the session.
    pub fn restrict(&mut self, literals: &[Lit]) {
        for &lit in literals {
            self.sink.solver.add_clause(&[lit]);
        }
    }

    /// Forbids the tour visiting `squares` in this order from now on.
    pub fn block(&mut self, squares: &[usize]) {
        let clause = self.encoding.blocking_clause(squares);
        self.sink.solver.add_clause(&clause);
    }

    /// Finishes the proof, flushing it.
    pub fn close_proof(&mut self) -> Result<(), Error> {
        self.sink
            .solver
            .close_proof()
            .map_err(|e| Error::Solver(e.to_string()))
    }
}
