//! The Chinese remainder encoding of "one cycle", after Heule, "Chinese
//! Remainder Encoding for Hamiltonian Cycles", SAT 2021 (LNCS 12831).
//!
//! Every node v gets, for each modulus m of a pairwise coprime set, a
//! position p(m, v) in 0..m, encoded one-hot by default (one-hot costs more
//! variables and propagates directly) or, with [`PositionCode::Lfsr`], as
//! the paper writes it: a few bits per modulus, stepped by binary counters
//! and linear-feedback shift registers (`registers`). The root (the virtual node of an open tour, the start of a
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
//!
//! Laps: the paper's tool takes a "cycle length" below the number of nodes
//! (420 is its suggestion), which leaves cycles of a multiple of that
//! length free to miss the root: smaller and often faster, but not exact.
//! Here the moduli's product P may be below the number of nodes only with
//! a lap counter beside them: l(v) in 0..⌈nodes / P⌉, one-hot, the number of
//! times the positions have wrapped from P − 1 to 0 on the way from the
//! root. A move out of a node at residue P − 1 (the "lap end", a variable
//! per node) adds one to it, any other move keeps it; the counter cannot
//! pass its last value. The position is then l·P + residue exactly: a
//! cycle that misses the root would wrap at least once and come back to a
//! smaller count, so the formula stays exact while the moduli shrink.

use super::registers::{heule_registers, BitLit, End, PositionCode, Register};
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

/// The position variables of one problem: for each modulus m and each node
/// v, the register's variables for p(m, v) ("p(m, v) = i" for each residue
/// i where one-hot), numbered from `first` modulus by modulus, node by
/// node, variable by variable; where there is more than one lap, then each
/// node's lap counter "l(v) = j" node by node, and then each node's lap end.
#[derive(Clone, Debug)]
pub struct Positions {
    /// The moduli, in the registers' order (ascending where one-hot).
    pub moduli: Vec<usize>,
    /// How each modulus's residue is written, in the moduli's order.
    registers: Vec<Register>,
    /// The number of nodes.
    pub nodes: usize,
    /// The first position variable.
    pub first: usize,
    /// The number of laps of the moduli's product the cycle takes (1: the
    /// product covers every node, and there is no lap counter).
    pub laps: usize,
}

impl Positions {
    /// The positions of `nodes` nodes, numbered from variable `first`: the
    /// moduli cover `lap_length` positions (all the nodes where it is
    /// `None` or larger), and a lap counter the rest; each residue written
    /// as `code` says.
    pub(crate) fn new(
        nodes: usize,
        first: usize,
        lap_length: Option<usize>,
        code: PositionCode,
    ) -> Positions {
        let target = lap_length.map_or(nodes, |len| len.min(nodes));
        let registers = match code {
            PositionCode::OneHot => moduli(target).into_iter().map(Register::OneHot).collect(),
            PositionCode::Lfsr => heule_registers(target),
            PositionCode::Binary => (target > 1)
                .then(|| Register::Binary(target.next_power_of_two().trailing_zeros() as usize))
                .into_iter()
                .collect(),
            PositionCode::Unary => (target > 1)
                .then_some(Register::Unary(target))
                .into_iter()
                .collect(),
        };
        let moduli: Vec<usize> = registers.iter().map(|r| r.modulus()).collect();
        let lap: usize = moduli.iter().product();
        Positions {
            moduli,
            registers,
            nodes,
            first,
            laps: nodes.div_ceil(lap).max(1),
        }
    }

    /// The number of position variables: nodes × the registers' widths
    /// (the sum of the moduli where one-hot), and with laps nodes × (the
    /// laps + 1 for the lap end).
    pub(crate) fn count(&self) -> usize {
        self.nodes * (self.width() + self.lap_vars_per_node())
    }

    /// The registers' variables per node.
    fn width(&self) -> usize {
        self.registers.iter().map(|r| r.width()).sum()
    }

    /// A node's lap counter and lap end, or nothing with one lap.
    fn lap_vars_per_node(&self) -> usize {
        if self.laps > 1 {
            self.laps + 1
        } else {
            0
        }
    }

    /// The moduli's product: the positions a lap covers.
    fn lap(&self) -> usize {
        self.moduli.iter().product()
    }

    /// The first lap-counter variable.
    fn first_lap_var(&self) -> usize {
        self.first + self.nodes * self.width()
    }

    /// "l(node) = lap".
    fn lap_var(&self, node: usize, lap: usize) -> Lit {
        Var::from_dimacs((self.first_lap_var() + node * self.laps + lap) as isize).positive()
    }

    /// "node is at residue P − 1 of every modulus": its lap ends there.
    fn lap_end(&self, node: usize) -> Lit {
        Var::from_dimacs((self.first_lap_var() + self.nodes * self.laps + node) as isize).positive()
    }

    /// The `which`-th register's variable `bit` at `node` ("p(m, v) =
    /// bit" where one-hot).
    fn var(&self, which: usize, node: usize, bit: usize) -> Lit {
        let before: usize = self.registers[..which].iter().map(|r| r.width()).sum();
        let width = self.registers[which].width();
        Var::from_dimacs((self.first + self.nodes * before + node * width + bit) as isize)
            .positive()
    }

    /// "The `which`-th register's variable `bit` at `node` is `on`".
    fn bit_is(&self, which: usize, node: usize, (bit, on): (usize, bool)) -> Lit {
        self.var(which, node, bit).var().lit(on)
    }

    /// The literals, all true, that say "p(m, node) = residue" for the
    /// `which`-th modulus.
    fn residue(&self, which: usize, node: usize, residue: usize) -> Vec<Lit> {
        self.registers[which]
            .pattern(residue)
            .into_iter()
            .map(|bit| self.bit_is(which, node, bit))
            .collect()
    }

    /// A register clause's literal at the move from `from` to `to`.
    fn bit_lit(&self, which: usize, (end, bit, on): BitLit, from: usize, to: usize) -> Lit {
        let node = if end == End::From { from } else { to };
        self.bit_is(which, node, (bit, on))
    }

    /// The formula in words, for CNF comments; `root` names the root node.
    pub(crate) fn describe(&self, root: &str) -> String {
        let moduli: Vec<String> = self.moduli.iter().map(ToString::to_string).collect();
        let mut words = if self
            .registers
            .iter()
            .all(|r| matches!(r, Register::OneHot(_)))
        {
            format!(
            "position variables (Chinese remainder encoding, Heule SAT 2021, one-hot) from {}: moduli {}; for the k-th modulus m, p(m,v)=i is {} + nodes*(sum of the moduli before m) + v*m + i, nodes = {} (v = index(s) for square s, and N for the virtual node of an open tour); the root, at position 0, is {root}",
            self.first,
            if moduli.is_empty() { "none".to_string() } else { moduli.join(",") },
            self.first,
            self.nodes
        )
        } else if let [Register::Binary(k)] = self.registers[..] {
            let width = Register::Binary(k).width();
            format!(
                "position variables (binary ordering encoding: one {k}-bit counter, p(v) = p(u) + 1 mod {}, with carries) from {}: bit b of v's position is {} + v*{width} + b for b < {k}, and c(v,j), bits 0 to j-1 of v's position all 1, is {} + v*{width} + {k} + j - 2 for j from 2 to {}, nodes = {} (v = index(s) for square s, and N for the virtual node of an open tour); the root, at position 0, is {root}",
                1usize << k,
                self.first,
                self.first,
                self.first,
                k.saturating_sub(1),
                self.nodes
            )
        } else if let [Register::Unary(m)] = self.registers[..] {
            format!(
                "position variables (unary ordering encoding: one counter, p(v) = p(u) + 1 mod {m}, in unary) from {}: p(v) >= k is {} + v*{} + k - 1 for k from 1 to {}, nodes = {} (v = index(s) for square s, and N for the virtual node of an open tour); the root, at position 0, is {root}",
                self.first,
                self.first,
                m - 1,
                m - 1,
                self.nodes
            )
        } else {
            let widths: Vec<String> = self
                .registers
                .iter()
                .map(|r| r.width().to_string())
                .collect();
            format!(
                "position variables (Chinese remainder encoding, Heule SAT 2021, as published: bits, binary counters for 5 and powers of two, linear-feedback shift registers for 3 and 7) from {}: moduli {} in {} bits; for the k-th modulus in w bits, bit b of v's residue is {} + nodes*(bits of the moduli before) + v*w + b, nodes = {} (v = index(s) for square s, and N for the virtual node of an open tour); residue i is i in binary for a power of two and 5, Heule's lfsr applied i times to 1 for 3 and 7; the root, at position 0, is {root}",
                self.first,
                moduli.join(","),
                widths.join(","),
                self.first,
                self.nodes
            )
        };
        if self.laps > 1 {
            let laps = format!(
                "; laps of {} positions, {} of them: l(v)=j is {} + v*{} + j, and v's lap end (residue {} of every modulus) is {} + v",
                self.lap(),
                self.laps,
                self.first_lap_var(),
                self.laps,
                self.lap() - 1,
                self.first_lap_var() + self.nodes * self.laps
            );
            words.push_str(&laps);
        }
        words
    }

    /// Each node is at exactly one position for each modulus: for one-hot
    /// residues with the at-most-one encoding `amo` chooses for a set of
    /// that many literals, for bits by excluding the patterns that are no
    /// residue.
    pub(crate) fn exactly_one_position(
        &self,
        amo: impl Fn(usize) -> Amo,
        sink: &mut impl ClauseSink,
    ) {
        let mut lits = Vec::new();
        for (which, &register) in self.registers.iter().enumerate() {
            for node in 0..self.nodes {
                lits.clear();
                if let Register::OneHot(m) = register {
                    lits.extend((0..m).map(|i| self.var(which, node, i)));
                    sink.add_clause(&lits);
                    amo(m).encode(sink, &lits);
                    continue;
                }
                for clause in register.valid() {
                    lits.clear();
                    lits.extend(clause.into_iter().map(|bit| self.bit_is(which, node, bit)));
                    sink.add_clause(&lits);
                }
            }
        }
        if self.laps > 1 {
            for node in 0..self.nodes {
                lits.clear();
                lits.extend((0..self.laps).map(|lap| self.lap_var(node, lap)));
                sink.add_clause(&lits);
                amo(self.laps).encode(sink, &lits);
            }
        }
    }

    /// With laps, each node's lap end is its residue P − 1 for every
    /// modulus: lap end → p(m, v) = (P − 1) mod m for each m, and the
    /// residues together → lap end.
    pub(crate) fn lap_ends(&self, sink: &mut impl ClauseSink) {
        if self.laps == 1 {
            return;
        }
        let last = self.lap() - 1;
        let mut all = Vec::new();
        for node in 0..self.nodes {
            let end = self.lap_end(node);
            all.clear();
            all.push(end);
            for (which, &m) in self.moduli.iter().enumerate() {
                for lit in self.residue(which, node, last % m) {
                    sink.add_clause(&[!end, lit]);
                    all.push(!lit);
                }
            }
            sink.add_clause(&all);
        }
    }

    /// The root is at position 0 for every modulus (and in lap 0).
    pub(crate) fn root_at_zero(&self, root: usize, sink: &mut impl ClauseSink) {
        self.fix(root, 0, sink);
    }

    /// Fixes `node` at `position`: a unit on its residue for each modulus
    /// (and on its lap).
    pub(crate) fn fix(&self, node: usize, position: usize, sink: &mut impl ClauseSink) {
        for (which, &m) in self.moduli.iter().enumerate() {
            for lit in self.residue(which, node, position % m) {
                sink.add_clause(&[lit]);
            }
        }
        if self.laps > 1 {
            sink.add_clause(&[self.lap_var(node, position / self.lap())]);
        }
    }

    /// A move `step` from `from` to `to` (not the root) adds one:
    /// ¬step ∨ ¬p(m, from) = i ∨ p(m, to) = i + 1 mod m where one-hot, the
    /// register's step clauses ([`Register::step`]) with ¬step where bits;
    /// with laps, the lap
    /// goes up out of a lap end and stays otherwise:
    /// ¬step ∨ ¬end(from) ∨ ¬l(from) = j ∨ l(to) = j + 1 (no last literal
    /// for the last lap) and ¬step ∨ end(from) ∨ ¬l(from) = j ∨ l(to) = j.
    pub(crate) fn advance(&self, step: Lit, from: usize, to: usize, sink: &mut impl ClauseSink) {
        let mut lits = Vec::new();
        for (which, register) in self.registers.iter().enumerate() {
            for clause in register.step() {
                lits.clear();
                lits.push(!step);
                lits.extend(
                    clause
                        .into_iter()
                        .map(|lit| self.bit_lit(which, lit, from, to)),
                );
                sink.add_clause(&lits);
            }
        }
        if self.laps == 1 {
            return;
        }
        for lap in 0..self.laps {
            let from_lap = self.lap_var(from, lap);
            let end = self.lap_end(from);
            // Out of a lap end the count goes up; past the last lap, nowhere.
            match (lap + 1 < self.laps).then(|| self.lap_var(to, lap + 1)) {
                Some(next) => sink.add_clause(&[!step, !end, !from_lap, next]),
                None => sink.add_clause(&[!step, !end, !from_lap]),
            }
            sink.add_clause(&[!step, end, !from_lap, self.lap_var(to, lap)]);
        }
    }

    /// Where `step` moves from `from` to `to` (not the root), `to`'s
    /// position fixes `from`'s: ¬step ∨ p(m, from) = i ∨ ¬p(m, to) = i + 1
    /// mod m (with bits, each of `from`'s bits for i beside the negation
    /// of `to`'s pattern for i + 1). Implied by [`Positions::advance`] and exactly one position
    /// per node, but not by unit propagation once a node's residues are
    /// narrowed: with it, learning that `to` cannot be at i + 1 excludes
    /// i for `from` at once. Off by default: kissat was slower with it
    /// (docs/encodings.md, "The complete formula's redundant families").
    pub(crate) fn support(&self, step: Lit, from: usize, to: usize, sink: &mut impl ClauseSink) {
        let mut lits = Vec::new();
        for (which, &m) in self.moduli.iter().enumerate() {
            for i in 0..m {
                let next = self.residue(which, to, (i + 1) % m);
                for lit in self.residue(which, from, i) {
                    lits.clear();
                    lits.push(!step);
                    lits.push(lit);
                    lits.extend(next.iter().map(|&lit| !lit));
                    sink.add_clause(&lits);
                }
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
    /// parity's literal where it is not); a binary counter's lowest bit is
    /// the parity.
    pub(crate) fn parity(&self, node: usize, odd: Odd, sink: &mut impl ClauseSink) {
        for (which, &register) in self.registers.iter().enumerate() {
            let m = register.modulus();
            if m % 2 == 1 {
                continue;
            }
            if let Register::Counter(_) | Register::Binary(_) = register {
                let lowest = self.var(which, node, 0);
                match odd {
                    Odd::Fixed(true) => sink.add_clause(&[lowest]),
                    Odd::Fixed(false) => sink.add_clause(&[!lowest]),
                    Odd::As(lit) => {
                        sink.add_clause(&[!lowest, lit]);
                        sink.add_clause(&[lowest, !lit]);
                    }
                }
                continue;
            }
            for i in 0..m {
                let residue_odd = i % 2 == 1;
                // ¬(p(m, node) = i), with the parity's literal where it
                // is not fixed.
                let mut clause: Vec<Lit> = register
                    .identifying(i)
                    .into_iter()
                    .map(|bit| !self.bit_is(which, node, bit))
                    .collect();
                match odd {
                    Odd::Fixed(odd) if odd != residue_odd => {}
                    Odd::Fixed(_) => continue,
                    Odd::As(lit) => clause.push(if residue_odd { lit } else { !lit }),
                }
                sink.add_clause(&clause);
            }
        }
    }

    /// A move `step` from `from` into the root closes the cycle, so `from`
    /// is the last node: ¬step ∨ p(m, from) = (nodes − 1) mod m.
    pub(crate) fn closes(&self, step: Lit, from: usize, sink: &mut impl ClauseSink) {
        for (which, &m) in self.moduli.iter().enumerate() {
            for lit in self.residue(which, from, (self.nodes - 1) % m) {
                sink.add_clause(&[!step, lit]);
            }
        }
        if self.laps > 1 {
            sink.add_clause(&[!step, self.lap_var(from, (self.nodes - 1) / self.lap())]);
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
    fn laps_cover_the_nodes_the_moduli_do_not() {
        let whole = Positions::new(2500, 1, None, PositionCode::OneHot);
        assert_eq!(whole.laps, 1);
        assert_eq!(whole.count(), 2500 * whole.moduli.iter().sum::<usize>());
        let laps = Positions::new(2500, 1, Some(420), PositionCode::OneHot);
        assert_eq!(laps.moduli, vec![3, 4, 5, 7]);
        assert_eq!(laps.laps, 6);
        // Residues, six laps and the lap end.
        assert_eq!(laps.count(), 2500 * (19 + 6 + 1));
        assert_eq!(laps.lap_end(2499).var().to_dimacs() as usize, laps.count());
        // A lap at least as long as the cycle: no counter.
        assert_eq!(
            Positions::new(420, 1, Some(420), PositionCode::OneHot).laps,
            1
        );
        assert_eq!(
            Positions::new(421, 1, Some(420), PositionCode::OneHot).laps,
            2
        );
    }

    #[test]
    fn the_binary_counter_covers_the_nodes_in_one_modulus() {
        let positions = Positions::new(1600, 1, None, PositionCode::Binary);
        assert_eq!(positions.moduli, vec![2048]);
        assert_eq!(positions.count(), 1600 * (11 + 9));
        assert_eq!(
            Positions::new(2, 1, None, PositionCode::Binary).moduli,
            vec![2]
        );
        assert!(Positions::new(1, 1, None, PositionCode::Binary)
            .moduli
            .is_empty());
    }

    #[test]
    fn heules_registers_take_their_bits() {
        let positions = Positions::new(1600, 1, None, PositionCode::Lfsr);
        assert_eq!(positions.moduli, vec![16, 3, 5, 7]);
        assert_eq!(positions.count(), 1600 * (4 + 2 + 3 + 3));
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
