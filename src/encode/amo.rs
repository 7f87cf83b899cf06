//! At-most-one encodings: clauses that allow at most one of a set of literals
//! to be true. Each encoding is one function; [`Amo`] picks one by name.

use std::fmt;
use std::str::FromStr;

use crate::cnf::{ClauseSink, Lit};
use crate::error::Error;

/// The at-most-one encodings knightsat offers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Amo {
    /// One binary clause per pair: n(n−1)/2 clauses, no auxiliary variables.
    #[default]
    Pairwise,
    /// Sinz's sequential counter: 3n−4 clauses, n−1 auxiliary variables.
    Sequential,
}

impl Amo {
    /// Every encoding, for tests and benchmarks.
    pub const ALL: [Amo; 2] = [Amo::Pairwise, Amo::Sequential];

    /// The name used on the command line and in CNF comments.
    pub fn name(self) -> &'static str {
        match self {
            Amo::Pairwise => "pairwise",
            Amo::Sequential => "sequential",
        }
    }

    /// Adds clauses asserting that at most one of `lits` is true.
    pub fn encode(self, sink: &mut impl ClauseSink, lits: &[Lit]) {
        match self {
            Amo::Pairwise => pairwise(sink, lits),
            Amo::Sequential => sequential_counter(sink, lits),
        }
    }
}

impl fmt::Display for Amo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Amo {
    type Err = Error;

    fn from_str(text: &str) -> Result<Amo, Error> {
        Amo::ALL
            .into_iter()
            .find(|amo| amo.name() == text)
            .ok_or_else(|| Error::BadOption(format!("unknown at-most-one encoding '{text}'")))
    }
}

/// The pairwise (binomial) encoding: `¬a ∨ ¬b` for every pair of literals.
pub fn pairwise(sink: &mut impl ClauseSink, lits: &[Lit]) {
    for (i, &a) in lits.iter().enumerate() {
        for &b in &lits[i + 1..] {
            sink.add_clause(&[!a, !b]);
        }
    }
}

/// The sequential counter of C. Sinz, "Towards an Optimal CNF Encoding of
/// Boolean Cardinality Constraints", CP 2005 (LTseq with k = 1).
///
/// Auxiliary sᵢ means "some of x₁…xᵢ is true": `xᵢ → sᵢ`, `sᵢ₋₁ → sᵢ`, and
/// `¬(xᵢ ∧ sᵢ₋₁)`.
pub fn sequential_counter(sink: &mut impl ClauseSink, lits: &[Lit]) {
    if lits.len() <= 1 {
        return;
    }
    let mut prefix = sink.new_var().positive();
    sink.add_clause(&[!lits[0], prefix]);
    for (i, &lit) in lits.iter().enumerate().skip(1) {
        sink.add_clause(&[!lit, !prefix]);
        if i + 1 < lits.len() {
            let next = sink.new_var().positive();
            sink.add_clause(&[!lit, next]);
            sink.add_clause(&[!prefix, next]);
            prefix = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::Formula;

    /// For every encoding, every n ≤ 8 and every assignment of the inputs:
    /// some assignment of the auxiliaries satisfies the clauses exactly when
    /// at most one input is true.
    #[test]
    fn every_encoding_allows_exactly_the_assignments_with_at_most_one_true() {
        for amo in Amo::ALL {
            for n in 0..=8usize {
                let mut formula = Formula::default();
                formula.reserve_vars(n);
                let inputs: Vec<Lit> = (1..=n as isize).map(Lit::from_dimacs).collect();
                amo.encode(&mut formula, &inputs);
                let aux = formula.vars - n;
                assert!(aux <= 16, "{amo} uses {aux} auxiliaries for n = {n}");
                for bits in 0u32..(1 << n) {
                    let allowed = bits.count_ones() <= 1;
                    let satisfiable = (0u32..(1 << aux)).any(|aux_bits| {
                        formula.is_satisfied_by(|v| {
                            if v <= n {
                                bits >> (v - 1) & 1 == 1
                            } else {
                                aux_bits >> (v - n - 1) & 1 == 1
                            }
                        })
                    });
                    assert_eq!(allowed, satisfiable, "{amo}, n = {n}, inputs {bits:b}");
                }
            }
        }
    }

    #[test]
    fn names_round_trip() {
        for amo in Amo::ALL {
            assert_eq!(amo.name().parse::<Amo>().unwrap(), amo);
        }
        assert!("ladder".parse::<Amo>().is_err());
    }
}
