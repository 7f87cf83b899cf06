//! One solving session: an encoding given to a solver once, then solved
//! again and again, with subtour cuts and found tours blocked in between.
//! `solve`, `count`, `certify`, `puzzle` and the cube workers all search
//! through it, with any solver behind the [seam](crate::sat).

use crate::cnf::Lit;
use crate::encoding::decode::{tour_from_model, tour_from_squares};
use crate::encoding::{Encoding, Mended, Model};
use crate::error::{Error, Unsupported};
use crate::error::{RunError, SatError};
use crate::sat::{Backend, SatResult, SatSolver, Setup};
use crate::tour::Tour;

/// What the subtour loop of a session did (see [`Session::next_tour`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SubtourLoop {
    /// Whether the session's formula is the successor encoding's, whose
    /// loop `-v` tells (lazy or complete; a time-indexed formula is
    /// solved in one round).
    pub successor: bool,
    /// Models the solver found, tours or not.
    pub rounds: u64,
    /// Subtour cuts added.
    pub cuts: u64,
    /// Tours made by patching a model's subtours together.
    pub patched: u64,
    /// Subtours cut inside the solver's search, by its watch (see
    /// [`SatSolver::watch_cycles`](crate::sat::SatSolver::watch_cycles)).
    pub watched: u64,
}

/// A solver holding one encoding's formula.
pub struct Session {
    encoding: Box<dyn Encoding>,
    solver: Box<dyn SatSolver>,
    patching: bool,
    subtours: SubtourLoop,
    /// Whether the watch is to be given to the solver before its first
    /// search (then, whether patching is allowed is known).
    watch_asked: bool,
}

impl Session {
    /// Encodes `encoding` into a fresh solver of `backend`, started as
    /// `setup` says, or refuses one whose estimated memory exceeds
    /// `budget_mib`.
    pub(crate) fn start(
        encoding: Box<dyn Encoding>,
        backend: &Backend,
        budget_mib: u64,
        setup: Setup,
    ) -> Result<Session, Error> {
        if setup.proof.is_some() && !encoding.is_complete() {
            return Err(Error::Unsupported(Unsupported::ProofWithLazySubtours));
        }
        backend.check_budget(&*encoding, 1, budget_mib)?;
        // The estimate walked the whole formula: a time limit that ran out
        // meanwhile ends the session before a solver is built.
        setup.stop.check()?;
        let watch_asked = setup.watch_subtours;
        let mut solver = backend.start(setup)?;
        encoding.encode(&mut *solver);
        Ok(Session {
            encoding,
            solver,
            patching: false,
            subtours: SubtourLoop::default(),
            watch_asked,
        })
    }

    /// Lets [`next_tour`](Self::next_tour) answer with a tour patched
    /// together from a model's subtours ([`Encoding::patch`]) before it
    /// adds cuts: for a search for one tour, never for counting (a patched
    /// tour is not a model of the formula and may repeat a blocked one).
    pub(crate) fn allow_patching(&mut self) {
        self.patching = true;
    }

    /// Marks the session's formula as the successor encoding's
    /// ([`SubtourLoop::successor`]).
    pub(crate) fn of_successor(mut self, successor: bool) -> Session {
        self.subtours.successor = successor;
        self
    }

    /// What the subtour loop has done so far in this session.
    pub fn subtour_loop(&self) -> SubtourLoop {
        self.subtours
    }

    /// Solves; the decoded and verified tour, or `None` when the formula
    /// (with every tour blocked so far) is unsatisfiable;
    /// [`RunError::Stopped`] when the solver was stopped.
    ///
    /// For an incomplete formula this is a loop: a model whose moves form
    /// subtours gets the cuts that forbid them ([`Encoding::mend`])
    /// and the solver goes on, keeping what it learnt; with patching
    /// allowed, a model whose subtours patch into a tour answers at once.
    /// A complete formula's model with subtours is the solver's error
    /// (the formula promises none), never cut.
    pub fn next_tour(&mut self) -> Result<Option<Tour>, Error> {
        if std::mem::take(&mut self.watch_asked) {
            if let Some(watch) = self.encoding.cycle_watch(self.patching) {
                self.solver.watch_cycles(watch);
            }
        }
        loop {
            let result = self.solver.solve(&[])?;
            self.subtours.watched = self.solver.cycles_watched();
            match result {
                SatResult::Unsat => return Ok(None),
                SatResult::Stopped => return Err(Error::Run(RunError::Stopped)),
                SatResult::Sat => {}
            }
            let model = self.solver.model()?;
            self.subtours.rounds += 1;
            // A complete formula is never patched: its model must be a
            // tour as it is.
            let complete = self.encoding.is_complete();
            let mended = self
                .encoding
                .mend(&model, self.patching && !complete)
                .map_err(|e| self.wrong_model(&e))?;
            let cuts = match mended {
                Mended::Tour => return self.tour_of(&model).map(Some),
                Mended::Patched(squares) => {
                    self.subtours.patched += 1;
                    return tour_from_squares(&*self.encoding, squares)
                        .map(Some)
                        .map_err(|e| self.wrong_model(&e));
                }
                Mended::Cut { clauses, .. } => clauses,
            };
            if complete {
                // Every model of a complete formula is a tour: cutting
                // here would hide a formula that is not.
                return Err(self.wrong_model(&format!(
                    "its moves form subtours, which the complete formula rules out ({} cuts)",
                    cuts.len()
                )));
            }
            self.subtours.cuts += cuts.len() as u64;
            self.encoding.add_cuts(&cuts, &mut *self.solver);
        }
    }

    fn tour_of(&self, model: &Model) -> Result<Tour, Error> {
        let declared = self.solver.var_count();
        tour_from_model(&*self.encoding, model, Some(declared)).map_err(|e| self.wrong_model(&e))
    }

    /// A decoding error is the solver's fault: its model does not satisfy
    /// the clauses it was given.
    fn wrong_model(&self, error: &impl std::fmt::Display) -> Error {
        Error::Sat(SatError::SolverFailed {
            program: self.solver.name().to_string(),
            detail: format!("its model is wrong: {error}"),
        })
    }

    /// Adds each literal as a unit clause: the search is confined to a cube
    /// for the rest of the session.
    pub fn restrict(&mut self, literals: &[Lit]) {
        for &lit in literals {
            self.solver.add_clause(&[lit]);
        }
    }

    /// Adds `literals` as one clause: from now on, every tour makes one of
    /// them true.
    pub(crate) fn require_one_of(&mut self, literals: &[Lit]) {
        self.solver.add_clause(literals);
    }

    /// Forbids the tour visiting `squares` in this order from now on.
    pub fn block(&mut self, squares: &[usize]) {
        let clause = self.encoding.blocking_clause(squares);
        self.solver.add_clause(&clause);
    }

    /// Finishes the proof the session was started with and ends the
    /// session, so that the solver has flushed and closed the proof when
    /// this returns.
    pub(crate) fn finish_proof(mut self) -> Result<(), Error> {
        Ok(self.solver.finish_proof()?)
    }
}
