//! One in-process solving session: an encoding given to varisat once, then
//! solved again and again, with found tours blocked in between. `solve`,
//! `count`, `certify` and `puzzle` all search through it.

use std::io::Write;

use varisat::ExtendFormula;

use crate::cnf::{ClauseSink, VarisatSink};
use crate::decode::tour_from_model;
use crate::encoding::{Encoding, Model};
use crate::error::Error;
use crate::tour::Tour;

/// varisat holding one encoding's formula.
pub struct Session {
    encoding: Box<dyn Encoding>,
    sink: VarisatSink<'static>,
}

impl Session {
    /// Encodes `encoding` into a fresh varisat solver.
    pub fn new(encoding: Box<dyn Encoding>) -> Session {
        Session::start(encoding, None)
    }

    /// Like [`Session::new`], with varisat writing a DRAT proof of
    /// everything it derives to `proof` (see [`Session::close_proof`]).
    pub fn with_proof(encoding: Box<dyn Encoding>, proof: impl Write + 'static) -> Session {
        Session::start(encoding, Some(Box::new(proof)))
    }

    fn start(encoding: Box<dyn Encoding>, proof: Option<Box<dyn Write>>) -> Session {
        let mut sink = VarisatSink::new();
        if let Some(proof) = proof {
            sink.solver.write_proof(proof, varisat::ProofFormat::Drat);
        }
        encoding.encode(&mut sink);
        Session { encoding, sink }
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
