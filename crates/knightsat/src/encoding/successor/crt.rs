//! The Chinese remainder encoding of "one cycle", after Heule, "Chinese
//! Remainder Encoding for Hamiltonian Cycles", SAT 2021 (LNCS 12831).
//!
//! Every node v gets, for each modulus m of a pairwise coprime set, a
//! position p(m, v) in 0..m, encoded one-hot (the paper uses linear-feedback
//! shift registers instead; one-hot costs more variables and propagates
//! directly). The root (the virtual node of an open tour, the start of a
//! closed one) is at 0, and every move u→v into any other node adds one:
//! p(m, v) = p(m, u) + 1 mod m. Along a cycle that misses the root the
//! positions then come back to where they started, so its length is a
//! multiple of every modulus and, the moduli being coprime, of their
//! product. The product is at least the number of nodes, longer than any
//! cycle that misses the root: so every cycle passes through the root, and
//! a cover of the nodes by cycles is one Hamiltonian cycle.
//!
//! The moduli are prime powers chosen to make the number of position
//! variables, their sum, as small as possible ([`moduli`]). The root's
//! predecessor must be at position nodes − 1 (redundant, as in the paper's
//! "termination position", for propagation).

use crate::cnf::{ClauseSink, Lit, Var};
use crate::encoding::Amo;

/// Pairwise coprime moduli whose product is at least `nodes`, with the
/// least sum (ties: the fewest moduli), ascending; none for one node.
///
/// Searched over prime powers, at most one power per prime; for example
/// 65 nodes (8x8 open) get 2, 5, 7 (product 70, 14 variables per node) and
/// 4097 nodes (64x64 open) get 3, 4, 5, 7, 11 (product 4620, 30 variables).
pub(crate) fn moduli(nodes: usize) -> Vec<usize> {
    const PRIMES: [usize; 15] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47];
    fn search(
        primes: &[usize],
        product: usize,
        nodes: usize,
        chosen: &mut Vec<usize>,
        best: &mut Option<Vec<usize>>,
    ) {
        let sum: usize = chosen.iter().sum();
        let better = |best: &Option<Vec<usize>>| {
            best.as_ref().is_none_or(|b| {
                let b_sum: usize = b.iter().sum();
                (sum, chosen.len()) < (b_sum, b.len())
            })
        };
        if product >= nodes {
            if better(best) {
                *best = Some(chosen.clone());
            }
            return;
        }
        if !better(best) {
            return;
        }
        let Some((&p, rest)) = primes.split_first() else {
            return;
        };
        search(rest, product, nodes, chosen, best);
        let mut power = p;
        loop {
            chosen.push(power);
            search(rest, product.saturating_mul(power), nodes, chosen, best);
            chosen.pop();
            if power.saturating_mul(product) >= nodes {
                break;
            }
            power *= p;
        }
    }
    let mut best = None;
    search(&PRIMES, 1, nodes, &mut Vec::new(), &mut best);
    let mut moduli = best.expect("the product of the primes below 50 exceeds any board");
    moduli.sort_unstable();
    moduli
}

/// Whether a node's position (its distance from the root along the
/// cycle) is odd: fixed by the problem, or the value of a literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Odd {
    /// Odd (`true`) or even in every tour.
    Fixed(bool),
    /// Odd exactly when this literal is true.
    As(Lit),
}

/// The position variables of one problem: for each modulus m, each node v
/// and each residue i, "p(m, v) = i", numbered from `first` modulus by
/// modulus, node by node, residue by residue.
#[derive(Clone, Debug)]
pub struct Positions {
    /// The moduli, ascending.
    pub moduli: Vec<usize>,
    /// The number of nodes.
    pub nodes: usize,
    /// The first position variable.
    pub first: usize,
}

impl Positions {
    /// The positions of `nodes` nodes, numbered from variable `first`.
    pub(crate) fn new(nodes: usize, first: usize) -> Positions {
        Positions {
            moduli: moduli(nodes),
            nodes,
            first,
        }
    }

    /// The number of position variables: nodes × the sum of the moduli.
    pub(crate) fn count(&self) -> usize {
        self.nodes * self.moduli.iter().sum::<usize>()
    }

    /// "p(m, v) = residue" for the `which`-th modulus.
    fn var(&self, which: usize, node: usize, residue: usize) -> Lit {
        let before: usize = self.moduli[..which].iter().sum();
        let m = self.moduli[which];
        Var::from_dimacs((self.first + self.nodes * before + node * m + residue) as isize)
            .positive()
    }

    /// The formula in words, for CNF comments; `root` names the root node.
    pub(crate) fn describe(&self, root: &str) -> String {
        let moduli: Vec<String> = self.moduli.iter().map(ToString::to_string).collect();
        format!(
            "position variables (Chinese remainder encoding, Heule SAT 2021, one-hot) from {}: moduli {}; for the k-th modulus m, p(m,v)=i is {} + nodes*(sum of the moduli before m) + v*m + i, nodes = {} (v = index(s) for square s, and N for the virtual node of an open tour); the root, at position 0, is {root}",
            self.first,
            if moduli.is_empty() { "none".to_string() } else { moduli.join(",") },
            self.first,
            self.nodes
        )
    }

    /// Each node is at exactly one position for each modulus, with the
    /// at-most-one encoding `amo` chooses for a set of that many literals.
    pub(crate) fn exactly_one_position(
        &self,
        amo: impl Fn(usize) -> Amo,
        sink: &mut impl ClauseSink,
    ) {
        let mut lits = Vec::new();
        for (which, &m) in self.moduli.iter().enumerate() {
            for node in 0..self.nodes {
                lits.clear();
                lits.extend((0..m).map(|i| self.var(which, node, i)));
                sink.add_clause(&lits);
                amo(m).encode(sink, &lits);
            }
        }
    }

    /// The root is at position 0 for every modulus.
    pub(crate) fn root_at_zero(&self, root: usize, sink: &mut impl ClauseSink) {
        for which in 0..self.moduli.len() {
            sink.add_clause(&[self.var(which, root, 0)]);
        }
    }

    /// Fixes `node` at `position`: a unit on its residue for each modulus.
    pub(crate) fn fix(&self, node: usize, position: usize, sink: &mut impl ClauseSink) {
        for (which, &m) in self.moduli.iter().enumerate() {
            sink.add_clause(&[self.var(which, node, position % m)]);
        }
    }

    /// A move `step` from `from` to `to` (not the root) adds one:
    /// ¬step ∨ ¬p(m, from) = i ∨ p(m, to) = i + 1 mod m.
    pub(crate) fn advance(&self, step: Lit, from: usize, to: usize, sink: &mut impl ClauseSink) {
        for (which, &m) in self.moduli.iter().enumerate() {
            for i in 0..m {
                sink.add_clause(&[
                    !step,
                    !self.var(which, from, i),
                    self.var(which, to, (i + 1) % m),
                ]);
            }
        }
    }

    /// Where `step` moves from `from` to `to` (not the root), `to`'s
    /// position fixes `from`'s: ¬step ∨ p(m, from) = i ∨ ¬p(m, to) = i + 1
    /// mod m. Implied by [`Positions::advance`] and exactly one position
    /// per node, but not by unit propagation once a node's residues are
    /// narrowed: with it, learning that `to` cannot be at i + 1 excludes
    /// i for `from` at once. Off by default: kissat was slower with it
    /// (docs/encodings.md, "The complete formula's redundant families").
    pub(crate) fn support(&self, step: Lit, from: usize, to: usize, sink: &mut impl ClauseSink) {
        for (which, &m) in self.moduli.iter().enumerate() {
            for i in 0..m {
                sink.add_clause(&[
                    !step,
                    self.var(which, from, i),
                    !self.var(which, to, (i + 1) % m),
                ]);
            }
        }
    }

    /// Whether some modulus is even, so that positions tell their parity.
    pub(crate) fn have_even_modulus(&self) -> bool {
        self.moduli.iter().any(|m| m % 2 == 0)
    }

    /// A node's residue modulo an even modulus has the parity of its
    /// position: for every even m and every residue i whose parity is not
    /// `odd`, ¬p(m, node) = i (a unit where the parity is fixed, with the
    /// parity's literal where it is not).
    pub(crate) fn parity(&self, node: usize, odd: Odd, sink: &mut impl ClauseSink) {
        for (which, &m) in self.moduli.iter().enumerate() {
            if m % 2 == 1 {
                continue;
            }
            for i in 0..m {
                let at = self.var(which, node, i);
                let residue_odd = i % 2 == 1;
                match odd {
                    Odd::Fixed(odd) if odd != residue_odd => sink.add_clause(&[!at]),
                    Odd::Fixed(_) => {}
                    Odd::As(lit) => sink.add_clause(&[!at, if residue_odd { lit } else { !lit }]),
                }
            }
        }
    }

    /// A move `step` from `from` into the root closes the cycle, so `from`
    /// is the last node: ¬step ∨ p(m, from) = (nodes − 1) mod m.
    pub(crate) fn closes(&self, step: Lit, from: usize, sink: &mut impl ClauseSink) {
        for (which, &m) in self.moduli.iter().enumerate() {
            sink.add_clause(&[!step, self.var(which, from, (self.nodes - 1) % m)]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn coprime(a: usize, b: usize) -> bool {
        let (mut a, mut b) = (a, b);
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a == 1
    }

    #[test]
    fn moduli_are_coprime_and_cover_the_nodes() {
        for nodes in (1..2000).chain([4097, 10_001, 1 << 22]) {
            let moduli = moduli(nodes);
            assert!(
                moduli.iter().product::<usize>() >= nodes,
                "{nodes}: {moduli:?}"
            );
            for (i, &a) in moduli.iter().enumerate() {
                assert!(a >= 2);
                for &b in &moduli[i + 1..] {
                    assert!(coprime(a, b), "{nodes}: {moduli:?}");
                }
            }
        }
        assert_eq!(moduli(1), Vec::<usize>::new());
    }

    #[test]
    fn moduli_have_the_least_sum() {
        // Against every set of pairwise coprime numbers from 2 to 40.
        for nodes in [2, 10, 65, 100, 401, 1000, 2500] {
            let best: usize = moduli(nodes).iter().sum();
            let mut least = usize::MAX;
            let mut stack = vec![(2usize, 1usize, 0usize, Vec::<usize>::new())];
            while let Some((next, product, sum, set)) = stack.pop() {
                if product >= nodes {
                    least = least.min(sum);
                    continue;
                }
                for m in next..=40 {
                    if set.iter().all(|&s| coprime(s, m)) && sum + m < least {
                        let mut set = set.clone();
                        set.push(m);
                        stack.push((m + 1, product * m, sum + m, set));
                    }
                }
            }
            assert_eq!(best, least, "{nodes}");
        }
    }
}
