//! `CaDiCaL` (3.0, bundled and compiled by the `cadical-sys` crate with a C++
//! compiler alone: its bindings are written with `cxx`, so building needs no
//! libclang) behind the seam, in this process: incremental, stopped through
//! its terminate callback, and writing DRAT proofs itself.

use std::os::fd::AsRawFd;

use std::cell::RefCell;
use std::rc::Rc;

use cadical_sys::{CaDiCal, ExternalPropagator, Status, Terminator};

use super::proof::{copy_proof, ProofFailure};
use super::{sink_vars_by_intake, Intake, SatResult, SatSolver, Setup, Workload};
use crate::cnf::{ClauseSink, Lit};
use crate::encoding::{CycleWatch, Model};
use crate::runtime::stop::Stop;
use crate::runtime::RunError;
use crate::sat::SatError;

/// What `CaDiCaL` holds per literal of the formula: measured (peak resident
/// memory over literals) at 67 to 68 bytes on the time-indexed 24x24 and
/// 28x28 formulas (varisat: 15 to 16), whose binary clauses it keeps as
/// whole clauses, each watched twice.
pub const BYTES_PER_LITERAL: u64 = 70;

/// `CaDiCaL`, with the flag that stops it.
pub struct Cadical {
    solver: CaDiCal,
    intake: Intake,
    /// One clause converted, kept to save an allocation per clause.
    buffer: Vec<i32>,
    /// The thread copying the proof into the user's file, and its first
    /// failure to write.
    proof: Option<(std::thread::JoinHandle<()>, ProofFailure)>,
    /// The subtour watch taking part in the search, if any.
    watch: Option<Rc<RefCell<CycleWatch>>>,
}

/// A [`CycleWatch`] as `CaDiCaL`'s external propagator: it hears every
/// move set and undone, and adds the cuts of each subtour as the moves
/// close it.
struct Watcher(Rc<RefCell<CycleWatch>>);

impl ExternalPropagator for Watcher {
    fn notify_assignment(&mut self, lits: &[i32]) {
        self.0.borrow_mut().assigned(lits);
    }

    fn notify_new_decision_level(&mut self) {
        self.0.borrow_mut().new_level();
    }

    fn notify_backtrack(&mut self, new_level: usize) {
        self.0.borrow_mut().backtrack(new_level);
    }

    fn cb_check_found_model(&mut self, model: &[i32]) -> bool {
        self.0.borrow_mut().check_model(model)
    }

    fn cb_has_external_clause(&mut self, is_forgettable: &mut bool) -> bool {
        // Kept like the cuts between whole models: every tour satisfies them.
        *is_forgettable = false;
        self.0.borrow().has_cut()
    }

    fn cb_add_external_clause_lit(&mut self) -> i32 {
        self.0.borrow_mut().next_literal()
    }
}

/// `CaDiCaL`'s terminate callback: asks the [`Stop`] each time `CaDiCaL`
/// checks whether to go on.
struct StopTerminator(Stop);

impl Terminator for StopTerminator {
    fn terminated(&mut self) -> bool {
        self.0.is_stopped()
    }
}

fn refused(what: &str) -> SatError {
    SatError::Solver(format!("CaDiCaL: {what}"))
}

impl Cadical {
    /// A `CaDiCaL` with no clauses, writing the DRAT proof `setup` asks for.
    pub(crate) fn start(setup: Setup) -> Result<Cadical, SatError> {
        let mut solver = CaDiCal::new();
        // Without preprocessing and inprocessing unless asked: on the
        // successor encoding's large, easy formulas they cost more than
        // they save, and on the small time-indexed ones they make no
        // difference worth keeping (docs/notebook.md, "Solvers side by
        // side", "Preprocessing off").
        if !setup.preprocessing && !solver.configure("plain") {
            return Err(refused("no 'plain' configuration"));
        }
        if !setup.guesses_first {
            // CaDiCaL's "lucky" assignments, tried at the start of every
            // solve, pay off only where the caller expects them to
            // (`Setup::guesses_first`). Elsewhere they cost: on large
            // closed tours they take longer than the search, and a count,
            // a solve per tour, pays for them on every solve
            // (docs/notebook.md, "Solvers side by side").
            solver.set("lucky", 0);
        }
        if setup.workload != Workload::Search {
            // Incremental lazy backtracking: a solve after a blocking
            // clause starts from the trail the last model left, not from
            // the top, where nearly all of it still holds (`count --size 5
            // --method sat --solver cadical` 0.41 s against 0.46 s,
            // docs/notebook.md, "Solvers side by side").
            solver.set("ilb", 1);
        }
        let mut proof = None;
        if let Some(file) = setup.proof {
            // CaDiCaL opens the proof by name and ignores its failures to
            // write: it writes into a pipe, by the name of our end, and a
            // thread copies the pipe into the caller's file (its temporary
            // file, kept for the atomic rename), keeping the first failure
            // for `finish_proof`. Text DRAT, which every checker reads
            // (CaDiCaL writes binary DRAT by default). CaDiCaL flushes and
            // closes its handle when it is dropped, which ends the copy.
            solver.set("binary", 0);
            let (from, into) =
                std::io::pipe().map_err(|e| RunError::io("making the proof's pipe", e))?;
            let path = crate::runtime::platform::descriptor_name(into.as_raw_fd());
            if !solver.trace_proof2(&path) {
                return Err(refused("cannot write the proof"));
            }
            drop(into);
            let failure = ProofFailure::default();
            let kept = failure.clone();
            let copier = std::thread::Builder::new()
                .name("proof".into())
                .spawn(move || copy_proof(from, file, &kept))
                .map_err(|e| RunError::io("starting the proof's writer", e))?;
            proof = Some((copier, failure));
        }
        solver.connect_terminator(StopTerminator(setup.stop.clone()));
        Ok(Cadical {
            solver,
            intake: Intake::new(setup.stop),
            buffer: Vec::new(),
            proof,
            watch: None,
        })
    }
}

/// The same literal in DIMACS numbering, which `CaDiCaL` shares.
fn convert(lit: Lit) -> i32 {
    let var = lit.var().index() as i32 + 1;
    if lit.is_negative() {
        -var
    } else {
        var
    }
}

impl ClauseSink for Cadical {
    fn add_clause(&mut self, clause: &[Lit]) {
        if !self.intake.open() {
            return;
        }
        self.buffer.clear();
        self.buffer.extend(clause.iter().copied().map(convert));
        self.solver.clause6(&self.buffer);
    }

    sink_vars_by_intake!();
}

impl SatSolver for Cadical {
    fn name(&self) -> &'static str {
        "cadical"
    }

    fn solve(&mut self, assumptions: &[Lit]) -> Result<SatResult, SatError> {
        if self.intake.is_stopped() {
            return Ok(SatResult::Stopped);
        }
        for &lit in assumptions {
            self.solver.assume(convert(lit));
        }
        Ok(match self.solver.solve() {
            Status::SATISFIABLE => SatResult::Sat,
            Status::UNSATISFIABLE => SatResult::Unsat,
            Status::UNKNOWN => SatResult::Stopped,
        })
    }

    fn watch_cycles(&mut self, watch: CycleWatch) -> bool {
        let watched: Vec<i32> = watch.watched().collect();
        let shared = Rc::new(RefCell::new(watch));
        self.solver
            .connect_external_propagator(Watcher(Rc::clone(&shared)));
        for var in watched {
            self.solver.add_observed_var(var);
        }
        self.watch = Some(shared);
        true
    }

    fn cycles_watched(&self) -> u64 {
        self.watch.as_ref().map_or(0, |w| w.borrow().cycles_found)
    }

    fn finish_proof(&mut self) -> Result<(), SatError> {
        let Some((copier, failure)) = self.proof.take() else {
            return Ok(());
        };
        self.solver.close_proof_trace(false);
        let _ = copier.join();
        failure.take().map_or(Ok(()), Err)
    }

    fn model(&mut self) -> Result<Model, SatError> {
        let vars = self.intake.count();
        // `val` answers for every variable up to the largest the clauses
        // named; one above it is free.
        let named = self.solver.vars();
        let mut values = vec![None; vars + 1];
        for (index, value) in values.iter_mut().enumerate().skip(1) {
            let var = index as i32;
            if var <= named {
                *value = Some(self.solver.val(var) > 0);
            }
        }
        Ok(Model::new(values))
    }
}
