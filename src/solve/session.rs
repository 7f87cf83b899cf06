//! One in-process solving session: an encoding given to varisat once, then
//! solved again and again, with found tours blocked in between. `solve`,
//! `count`, `certify` and `puzzle` all search through it.

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};

use varisat::ExtendFormula;

use crate::cnf::{ClauseSink, Lit, VarisatSink};
use crate::decode::tour_from_model;
use crate::encoding::{Encoding, Model};
use crate::error::Error;
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

/// varisat holding one encoding's formula.
pub struct Session {
    encoding: Box<dyn Encoding>,
    sink: VarisatSink<'static>,
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

    fn start(encoding: Box<dyn Encoding>, proof: Option<Box<dyn Write>>) -> Result<Session, Error> {
        check_budget(&*encoding)?;
        let mut sink = VarisatSink::new();
        if let Some(proof) = proof {
            sink.solver.write_proof(proof, varisat::ProofFormat::Drat);
        }
        encoding.encode(&mut sink);
        Ok(Session { encoding, sink })
    }

    /// The encoding being solved.
    pub fn encoding(&self) -> &dyn Encoding {
        &*self.encoding
    }

    /// Solves; the decoded and verified tour, or `None` when the formula
    /// (with every tour blocked so far) is unsatisfiable.
    pub fn next_tour(&mut self) -> Result<Option<Tour>, Error> {
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
        let declared = self.sink.var_count();
        tour_from_model(&*self.encoding, &model, Some(declared)).map(Some)
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
