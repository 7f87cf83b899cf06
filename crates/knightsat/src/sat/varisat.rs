//! varisat behind the seam.
//!
//! varisat 0.2 has no interrupt, but it stops solving when writing its
//! proof fails: every varisat here writes a proof, into the user's file or
//! into nothing, through `StopWriter`, which fails once the [`Stop`] is
//! raised; the solver then stops within one buffer of proof (8 KiB, a few
//! hundred learnt clauses). Into nothing it writes varisat's own format,
//! the one that allows clauses added between solves (DRAT panics on them).
//! Writing it costs solving time (docs/notebook.md, "Solvers side by
//! side", varisat's proof into nothing), so a session that nothing will
//! stop mid-search ([`Setup::stoppable`] false: counting, a search without
//! a time limit) writes no proof.

use std::io::{self, Write};

use ::varisat::config::SolverConfigUpdate;
use ::varisat::{ExtendFormula, ProofFormat, Solver};

use super::proof::{ProofFailure, ProofFile};
use super::{sink_vars_by_intake, Intake, SatResult, SatSolver, Setup, Workload};
use crate::cnf::{ClauseSink, Lit};
use crate::encoding::Model;
use crate::runtime::stop::Stop;
use crate::sat::SatError;

/// What varisat holds per literal of the formula, measured (peak resident
/// memory over literals) at 12 to 15 bytes on 28x28 and 36x36 after a few
/// seconds of search.
pub const BYTES_PER_LITERAL: u64 = 14;

/// varisat, with the flag that stops it.
pub struct Varisat {
    solver: Solver<'static>,
    intake: Intake,
    proof: bool,
    /// The first failure to write the user's proof, said in our words.
    failure: ProofFailure,
}

impl Varisat {
    /// A varisat with no clauses, writing the DRAT proof `setup` asks for.
    pub(crate) fn start(setup: Setup) -> Result<Varisat, SatError> {
        let mut solver = Solver::new();
        let proof = setup.proof.is_some();
        let failure = ProofFailure::default();
        let target: Option<(Box<dyn Write + Send>, _)> = match setup.proof {
            Some(file) => Some((
                Box::new(ProofFile::new(file, failure.clone())),
                ProofFormat::Drat,
            )),
            None if setup.stoppable => Some((Box::new(io::sink()), ProofFormat::Varisat)),
            None => None,
        };
        if let Some((inner, format)) = target {
            let stop = setup.stop.clone();
            solver.write_proof(StopWriter { stop, inner }, format);
        }
        if setup.workload == Workload::CubeEnumeration {
            solver
                .config(&enumeration_tuning())
                .map_err(|e| SatError::Solver(e.to_string()))?;
        }
        Ok(Varisat {
            solver,
            intake: Intake::new(setup.stop),
            proof,
            failure,
        })
    }
}

/// varisat's settings for a session that finds many tours of a small
/// formula, one blocking clause after another. Slower VSIDS decay (0.99
/// for varisat's 0.95) keeps the scores of the variables the last tours
/// were decided on; reducing learnt clauses every 500 conflicts (for every
/// 15,000 and 10,000) keeps the clause database small, which the frequent
/// simplifications at level 0 go through in full. Measured on
/// `count --size 6 --closed --start a1 --jobs 1 --depth 6`, they count
/// cube by cube faster than the defaults, but the whole 6x6 count without
/// cubes slower, so only cubes get them (docs/cubes.md, Figures, "varisat
/// tuned for enumeration").
fn enumeration_tuning() -> SolverConfigUpdate {
    let mut tuning = SolverConfigUpdate::new();
    tuning.vsids_decay = Some(0.99);
    tuning.reduce_locals_interval = Some(500);
    tuning.reduce_mids_interval = Some(500);
    tuning
}

/// A proof target that fails every write once `stop` is raised: varisat
/// then ends its search with a proof error, which [`Varisat::solve`] reads
/// as stopped.
struct StopWriter {
    stop: Stop,
    inner: Box<dyn Write + Send>,
}

impl Write for StopWriter {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if self.stop.is_stopped() {
            return Err(io::Error::other("stopped"));
        }
        self.inner.write(bytes)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl ClauseSink for Varisat {
    fn add_clause(&mut self, clause: &[Lit]) {
        if self.intake.open() {
            self.solver.add_clause(clause);
        }
    }

    sink_vars_by_intake!();
}

impl SatSolver for Varisat {
    fn name(&self) -> &'static str {
        "varisat"
    }

    fn solve(&mut self, assumptions: &[Lit]) -> Result<SatResult, SatError> {
        if self.intake.is_stopped() {
            return Ok(SatResult::Stopped);
        }
        if !assumptions.is_empty() {
            // Its proof (the one that stops it, too) has no way to state them.
            return Err(SatError::Solver(
                "varisat takes no assumptions here: they would break the proof it writes".into(),
            ));
        }
        match self.solver.solve() {
            Ok(true) => Ok(SatResult::Sat),
            Ok(false) => Ok(SatResult::Unsat),
            Err(_) if self.intake.is_stopped() => Ok(SatResult::Stopped),
            Err(error) => Err(self
                .failure
                .take()
                .unwrap_or_else(|| SatError::Solver(error.to_string()))),
        }
    }

    fn model(&mut self) -> Result<Model, SatError> {
        self.solver
            .model()
            .map(|lits| Model::from_lits(&lits))
            .ok_or_else(|| SatError::Solver("varisat reported SAT without a model".into()))
    }

    fn finish_proof(&mut self) -> Result<(), SatError> {
        if !self.proof {
            return Ok(());
        }
        self.solver.close_proof().map_err(|error| {
            self.failure
                .take()
                .unwrap_or_else(|| SatError::Solver(error.to_string()))
        })
    }
}
