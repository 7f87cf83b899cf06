//! At-most-one encodings: clauses that allow at most one of a set of literals
//! to be true. Each encoding is one function; [`Amo`] picks one by name.

use std::fmt;
use std::str::FromStr;

use crate::cnf::{ClauseSink, Lit};
use crate::encoding::EncodingError;

/// The at-most-one encodings knightsat offers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Amo {
    /// One binary clause per pair: n(n−1)/2 clauses, no auxiliary variables.
    Pairwise,
    /// Sinz's sequential counter: 3n−4 clauses, n−1 auxiliary variables.
    Sequential,
    /// Klieber and Kwon's commander encoding, groups of 3, recursive.
    Commander,
    /// Chen's 2-product encoding: a √n x √n grid, recursive.
    Product,
    /// Nguyen and Mai's bimander encoding: pairs with binary commanders.
    /// The default: in the benchmark (docs/notebook.md, "Speed of the time-indexed encoding") it is the one that meets every
    /// varisat target with a tenth of the naive encoding's clauses on 8x8.
    #[default]
    Bimander,
}

impl Amo {
    /// Every encoding, for tests and benchmarks.
    pub const ALL: [Amo; 5] = [
        Amo::Pairwise,
        Amo::Sequential,
        Amo::Commander,
        Amo::Product,
        Amo::Bimander,
    ];

    /// The name used on the command line and in CNF comments.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Amo::Pairwise => "pairwise",
            Amo::Sequential => "sequential",
            Amo::Commander => "commander",
            Amo::Product => "product",
            Amo::Bimander => "bimander",
        }
    }

    /// Adds clauses asserting that at most one of `lits` is true.
    pub(crate) fn encode(self, sink: &mut impl ClauseSink, lits: &[Lit]) {
        match self {
            Amo::Pairwise => pairwise(sink, lits),
            Amo::Sequential => sequential_counter(sink, lits),
            Amo::Commander => commander(sink, lits),
            Amo::Product => product(sink, lits),
            Amo::Bimander => bimander(sink, lits),
        }
    }
}

impl fmt::Display for Amo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Amo {
    type Err = EncodingError;

    fn from_str(text: &str) -> Result<Amo, EncodingError> {
        Amo::ALL
            .into_iter()
            .find(|amo| amo.name() == text)
            .ok_or_else(|| EncodingError::UnknownAmo {
                name: text.to_string(),
                known: Amo::ALL.map(Amo::name).join(", "),
            })
    }
}

/// The pairwise (binomial) encoding: `¬a ∨ ¬b` for every pair of literals.
pub(crate) fn pairwise(sink: &mut impl ClauseSink, lits: &[Lit]) {
    for (i, &a) in lits.iter().enumerate() {
        for &b in &lits[i + 1..] {
            sink.add_clause(&[!a, !b]);
        }
    }
}

/// The sequential counter of C. Sinz, "Towards an Optimal CNF Encoding of
/// Boolean Cardinality Constraints", CP 2005 (`LTseq` with k = 1).
///
/// Auxiliary sᵢ means "some of x₁…xᵢ is true": `xᵢ → sᵢ`, `sᵢ₋₁ → sᵢ`, and
/// `¬(xᵢ ∧ sᵢ₋₁)`.
pub(crate) fn sequential_counter(sink: &mut impl ClauseSink, lits: &[Lit]) {
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

/// Below this many literals the recursive encodings fall back to pairwise,
/// which is then no larger.
const SMALL: usize = 5;

/// The commander encoding of W. Klieber and G. Kwon, "Efficient CNF Encoding
/// for Selecting 1 from N Objects", CFV 2007.
///
/// The literals are split into groups of 3, each with a commander c: pairwise
/// at-most-one inside the group, `x → c` for its members, and at most one
/// commander, recursively.
pub(crate) fn commander(sink: &mut impl ClauseSink, lits: &[Lit]) {
    if lits.len() < SMALL {
        return pairwise(sink, lits);
    }
    let mut commanders = Vec::with_capacity(lits.len() / 3 + 1);
    for group in lits.chunks(3) {
        pairwise(sink, group);
        let commander = sink.new_var().positive();
        for &lit in group {
            sink.add_clause(&[!lit, commander]);
        }
        commanders.push(commander);
    }
    commander(sink, &commanders);
}

/// The 2-product encoding of J. Chen, "A New SAT Encoding of the At-Most-One
/// Constraint", `ModRef` 2010.
///
/// The literals are laid out in a p x q grid (p = ⌈√n⌉) with a row variable
/// uᵢ and a column variable vⱼ: `x(i,j) → uᵢ`, `x(i,j) → vⱼ`, and at most
/// one u and at most one v, recursively. Two true literals differ in a row
/// or a column, so they would need two rows or two columns.
pub(crate) fn product(sink: &mut impl ClauseSink, lits: &[Lit]) {
    if lits.len() < SMALL {
        return pairwise(sink, lits);
    }
    let rows = (lits.len() as f64).sqrt().ceil() as usize;
    let cols = lits.len().div_ceil(rows);
    let row_vars: Vec<Lit> = (0..rows).map(|_| sink.new_var().positive()).collect();
    let col_vars: Vec<Lit> = (0..cols).map(|_| sink.new_var().positive()).collect();
    for (k, &lit) in lits.iter().enumerate() {
        sink.add_clause(&[!lit, row_vars[k / cols]]);
        sink.add_clause(&[!lit, col_vars[k % cols]]);
    }
    product(sink, &row_vars);
    product(sink, &col_vars);
}

/// The bimander encoding of V.-H. Nguyen and S. T. Mai, "A New Method to
/// Encode the At-Most-One Constraint into SAT", `SoICT` 2015.
///
/// The literals are split into ⌈n/2⌉ groups of 2 with pairwise at-most-one
/// inside each; group i's number is written in ⌈log₂ groups⌉ bit variables:
/// each member of group i forces every bit to the value it has in i, so two
/// true literals in different groups would need two different numbers.
pub(crate) fn bimander(sink: &mut impl ClauseSink, lits: &[Lit]) {
    if lits.len() < SMALL {
        return pairwise(sink, lits);
    }
    let groups: Vec<&[Lit]> = lits.chunks(2).collect();
    let bits = usize::BITS - (groups.len() - 1).leading_zeros();
    let bit_vars: Vec<Lit> = (0..bits).map(|_| sink.new_var().positive()).collect();
    for (number, group) in groups.iter().enumerate() {
        pairwise(sink, group);
        for &lit in *group {
            for (bit, &var) in bit_vars.iter().enumerate() {
                let value = number >> bit & 1 == 1;
                sink.add_clause(&[!lit, if value { var } else { !var }]);
            }
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
