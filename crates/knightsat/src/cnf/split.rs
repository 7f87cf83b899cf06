//! Tseytin-style splitting of long clauses.

use super::{ClauseSink, Lit, Var};

/// A sink adaptor that splits every clause longer than `max_len` literals
/// into a chain of clauses of at most `max_len` literals joined by fresh
/// variables, and passes everything else through unchanged.
///
/// `(l1 ∨ … ∨ ln)` becomes `(l1 ∨ … ∨ l(k−1) ∨ y1)`, `(¬y1 ∨ lk ∨ … ∨ y2)`, …,
/// `(¬ym ∨ … ∨ ln)`: each yi stands for "the rest of the clause holds". The
/// result is equisatisfiable, the original variables keep their meaning, and
/// every clause gets its own fresh variables from the inner sink, so
/// auxiliaries never collide between clauses.
pub struct Splitter<S> {
    inner: S,
    max_len: usize,
    buffer: Vec<Lit>,
}

impl<S: ClauseSink> Splitter<S> {
    /// Wraps `inner`; `max_len` must be at least 3 (a chain link needs two
    /// joining literals and one of the clause's own).
    pub(crate) fn new(inner: S, max_len: usize) -> Splitter<S> {
        assert!(max_len >= 3, "clauses cannot be split below 3 literals");
        Splitter {
            inner,
            max_len,
            buffer: Vec::with_capacity(max_len.min(64)),
        }
    }

    /// The wrapped sink.
    #[cfg(test)]
    fn into_inner(self) -> S {
        self.inner
    }
}

impl<S: ClauseSink> ClauseSink for Splitter<S> {
    fn add_clause(&mut self, clause: &[Lit]) {
        if clause.len() <= self.max_len {
            self.inner.add_clause(clause);
            return;
        }
        let mut rest = clause;
        let mut link: Option<Lit> = None;
        // Room for the clause's own literals in this link: one slot goes to the
        // incoming link (after the first), one to the outgoing link (before the last).
        loop {
            let room = self.max_len - usize::from(link.is_some());
            if rest.len() <= room {
                self.buffer.clear();
                self.buffer.extend(link);
                self.buffer.extend_from_slice(rest);
                self.inner.add_clause(&self.buffer);
                return;
            }
            let (head, tail) = rest.split_at(room - 1);
            let next = self.inner.new_var().positive();
            self.buffer.clear();
            self.buffer.extend(link);
            self.buffer.extend_from_slice(head);
            self.buffer.push(next);
            self.inner.add_clause(&self.buffer);
            link = Some(!next);
            rest = tail;
        }
    }

    fn new_var(&mut self) -> Var {
        self.inner.new_var()
    }

    fn reserve_vars(&mut self, count: usize) {
        self.inner.reserve_vars(count);
    }

    fn var_count(&self) -> usize {
        self.inner.var_count()
    }

    fn begin_family(&mut self, name: &'static str) {
        self.inner.begin_family(name);
    }

    fn is_closed(&self) -> bool {
        self.inner.is_closed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::Formula;

    fn lits(numbers: &[isize]) -> Vec<Lit> {
        numbers.iter().map(|&n| Lit::from_dimacs(n)).collect()
    }

    #[test]
    fn short_clauses_pass_through_and_long_ones_are_chained() {
        let mut split = Splitter::new(Formula::default(), 3);
        split.reserve_vars(10);
        split.add_clause(&lits(&[1, -2, 3]));
        split.add_clause(&lits(&[1, 2, 3, 4, 5]));
        let formula = split.into_inner();
        let dimacs: Vec<Vec<isize>> = formula
            .clauses
            .iter()
            .map(|c| c.iter().map(|l| l.to_dimacs()).collect())
            .collect();
        assert_eq!(
            dimacs,
            vec![
                vec![1, -2, 3],
                vec![1, 2, 11],
                vec![-11, 3, 12],
                vec![-12, 4, 5]
            ]
        );
        assert_eq!(formula.vars, 12);
    }

    #[test]
    fn splitting_is_equisatisfiable_for_every_assignment() {
        // For every length and bound, and every assignment of the original
        // variables, some assignment of the auxiliaries satisfies the split
        // clauses exactly when the original clause is satisfied.
        for len in 1..=9usize {
            for max_len in 3..=6 {
                let mut split = Splitter::new(Formula::default(), max_len);
                split.reserve_vars(len);
                let clause: Vec<Lit> = (1..=len as isize).map(Lit::from_dimacs).collect();
                split.add_clause(&clause);
                let formula = split.into_inner();
                assert!(formula.clauses.iter().all(|c| c.len() <= max_len));
                let aux = formula.vars - len;
                for bits in 0u32..(1 << len) {
                    let original = bits != 0;
                    let split_sat = (0u32..(1 << aux)).any(|aux_bits| {
                        formula.is_satisfied_by(|v| {
                            if v <= len {
                                bits >> (v - 1) & 1 == 1
                            } else {
                                aux_bits >> (v - len - 1) & 1 == 1
                            }
                        })
                    });
                    assert_eq!(original, split_sat, "len {len} max {max_len} bits {bits:b}");
                }
            }
        }
    }

    #[test]
    fn auxiliaries_are_fresh_for_every_clause() {
        let mut split = Splitter::new(Formula::default(), 3);
        split.reserve_vars(6);
        split.add_clause(&lits(&[1, 2, 3, 4, 5, 6]));
        split.add_clause(&lits(&[-1, -2, -3, -4, -5, -6]));
        let formula = split.into_inner();
        let aux_of = |range: std::ops::Range<usize>| -> Vec<isize> {
            formula.clauses[range]
                .iter()
                .flatten()
                .map(|l| l.var().to_dimacs())
                .filter(|&v| v > 6)
                .collect()
        };
        let first = aux_of(0..4);
        let second = aux_of(4..8);
        assert!(!first.is_empty() && !second.is_empty());
        assert!(
            first.iter().all(|v| !second.contains(v)),
            "{first:?} {second:?}"
        );
    }
}
