//! `CaDiCaL` (2.2, bundled and built by the `rustsat-cadical` crate) behind the
//! seam, in this process: incremental, stopped through its terminate
//! callback, and writing DRAT proofs itself.

use std::os::fd::AsRawFd;

use rustsat::solvers::{ControlSignal, Solve, SolveIncremental, SolverResult, Terminate};
use rustsat::types::{Lit as CadicalLit, TernaryVal};
use rustsat_cadical::{CaDiCaL, Config, ProofFormat};

use super::{sink_vars_by_intake, Intake, SatResult, SatSolver, Setup};
use crate::cnf::{ClauseSink, Lit};
use crate::encoding::Model;
use crate::error::Error;

/// What `CaDiCaL` holds per literal of the formula: measured (peak resident
/// memory over literals) at 67 to 68 bytes on the time-indexed 24x24 and
/// 28x28 formulas (varisat: 15 to 16), whose binary clauses it keeps as
/// whole clauses, each watched twice.
pub const BYTES_PER_LITERAL: u64 = 70;

/// `CaDiCaL`, with the flag that stops it.
pub struct Cadical {
    solver: CaDiCaL<'static, 'static>,
    intake: Intake,
    /// One clause converted, kept to save an allocation per clause.
    buffer: Vec<CadicalLit>,
}

fn failed(error: impl std::fmt::Display) -> Error {
    Error::Solver(format!("CaDiCaL: {error}"))
}

impl Cadical {
    /// A `CaDiCaL` with no clauses, writing the DRAT proof `setup` asks for.
    pub fn start(setup: Setup) -> Result<Cadical, Error> {
        let mut solver = CaDiCaL::default();
        // Without preprocessing and inprocessing: on the successor
        // encoding's large, easy formulas they cost more than they save
        // (150x150 closed: 1.2 s plain against 3.3 to 4.5 s; 200x200 closed:
        // 2.4 s against 8.4 s), and on the small time-indexed ones they
        // make no difference worth keeping (docs/solvers.md).
        solver.set_configuration(Config::Plain).map_err(failed)?;
        if !setup.guesses_first {
            // CaDiCaL's "lucky" assignments, tried at the start of every
            // solve, pay off only where the caller expects them to
            // (`Setup::guesses_first`). Elsewhere they cost: 500x500
            // closed spends 2.9 s in them against 0.5 s of search, and
            // `count --size 5`, a solve per tour, takes 1.56 s of CPU with
            // them against 0.58 s without.
            solver.set_option("lucky", 0).map_err(failed)?;
        }
        if let Some(file) = &setup.proof {
            // CaDiCaL opens the proof by name: the open file's own name
            // here, so that the caller keeps its temporary file and its
            // atomic rename. CaDiCaL flushes and closes its handle when it
            // is dropped.
            let path = format!("/proc/self/fd/{}", file.as_raw_fd());
            solver
                .trace_proof(path, ProofFormat::Drat { binary: false })
                .map_err(failed)?;
        }
        let stop = setup.stop.clone();
        solver.attach_terminator(move || {
            if stop.is_stopped() {
                ControlSignal::Terminate
            } else {
                ControlSignal::Continue
            }
        });
        Ok(Cadical {
            solver,
            intake: Intake::new(setup.stop),
            buffer: Vec::new(),
        })
    }
}

/// The same literal in rustsat's numbering (variables from 0).
fn convert(lit: Lit) -> CadicalLit {
    CadicalLit::new(lit.var().index() as u32, lit.is_negative())
}

impl ClauseSink for Cadical {
    fn add_clause(&mut self, clause: &[Lit]) {
        if !self.intake.open() {
            return;
        }
        self.buffer.clear();
        self.buffer.extend(clause.iter().copied().map(convert));
        // CaDiCaL's only failure here is running out of memory, which
        // aborts like any allocation in this process.
        self.solver
            .add_clause_ref(self.buffer.as_slice())
            .expect("CaDiCaL takes every clause");
    }

    sink_vars_by_intake!();
}

impl SatSolver for Cadical {
    fn name(&self) -> &'static str {
        "cadical"
    }

    fn solve(&mut self, assumptions: &[Lit]) -> Result<SatResult, Error> {
        if self.intake.is_stopped() {
            return Ok(SatResult::Stopped);
        }
        let assumptions: Vec<CadicalLit> = assumptions.iter().copied().map(convert).collect();
        let result = if assumptions.is_empty() {
            self.solver.solve()
        } else {
            self.solver.solve_assumps(&assumptions)
        };
        match result.map_err(failed)? {
            SolverResult::Sat => Ok(SatResult::Sat),
            SolverResult::Unsat => Ok(SatResult::Unsat),
            SolverResult::Interrupted => Ok(SatResult::Stopped),
        }
    }

    fn model(&self) -> Result<Model, Error> {
        let vars = self.intake.count();
        let mut values = vec![None; vars + 1];
        for (index, value) in values.iter_mut().enumerate().skip(1) {
            *value = match self
                .solver
                .lit_val(CadicalLit::positive(index as u32 - 1))
                .map_err(failed)?
            {
                TernaryVal::True => Some(true),
                TernaryVal::False => Some(false),
                TernaryVal::DontCare => None,
            };
        }
        Ok(Model::new(values))
    }
}
