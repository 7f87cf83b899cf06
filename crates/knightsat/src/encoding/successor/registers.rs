//! How a residue of the Chinese remainder encoding (`crt`) is written at
//! each node: one-hot, or in bits as Heule's `hcp-encode` writes them
//! (binary counters and linear-feedback shift registers; Heule,
//! "Chinese Remainder Encoding for Hamiltonian Cycles", SAT 2021), or one
//! binary counter with carries (the binary ordering encoding), or one
//! counter in unary (the unary ordering encoding). Each
//! register gives its variables per node, each residue's pattern, the
//! clauses that leave only residues, and the clauses of one step.

/// How the complete formula writes a node's residue for each modulus of
/// the Chinese remainder encoding (`crt`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PositionCode {
    /// One variable per residue, exactly one true: knightsat's moduli
    /// (prime powers of least sum), and a move's advance is one clause
    /// per residue.
    #[default]
    OneHot,
    /// Heule's CRE as published (SAT 2021, his `hcp-encode`): moduli 3,
    /// 5, 7 and a power of two, each residue a few bits (two for 3, three
    /// for 5 and 7, k for 2^k), a move's advance a binary counter (2^k,
    /// 5) or a linear-feedback shift register (3, 7) over the bits.
    Lfsr,
    /// One modulus, a power of two covering every position, in binary:
    /// the binary (log) ordering encoding, p(v) = p(u) + 1 (as compared
    /// in Zhou, "In Pursuit of an Efficient SAT Encoding for the
    /// Hamiltonian Cycle Problem", CP 2020), each node's carries beside
    /// its bits so that a move's advance is four clauses a bit.
    Binary,
    /// One modulus, the positions to cover, in unary: the order encoding
    /// of p(v), one variable "p(v) ≥ k" for each k from 1 to m − 1, a
    /// move's advance two clauses a k (the unary ordering encoding
    /// compared in Zhou, CP 2020): m − 1 variables per node where one-hot
    /// CRT takes the moduli's sum.
    Unary,
}

impl PositionCode {
    /// The name on the command line and in CNF comments.
    pub(crate) fn name(self) -> &'static str {
        match self {
            PositionCode::OneHot => "one-hot",
            PositionCode::Lfsr => "lfsr",
            PositionCode::Binary => "binary",
            PositionCode::Unary => "unary",
        }
    }
}

/// How one modulus's residue is written at every node: the variables it
/// takes, the residues' patterns over them, and the clauses of one step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Register {
    /// m variables, "the residue is i" each (exactly one true).
    OneHot(usize),
    /// k bits counting in binary modulo 2^k: Heule's powers of two.
    Counter(usize),
    /// Two bits, a linear-feedback shift register of period 3 (Heule's
    /// `lfsr(n, 2, 1)`): the states 1, 2, 3 from residue 0, 0 excluded.
    Three,
    /// Three bits counting in binary modulo 5, 5 to 7 excluded: Heule's
    /// five.
    Five,
    /// Three bits, a linear-feedback shift register of period 7 (Heule's
    /// `lfsr(n, 3, 1)`): the states 1, 2, 4, 5, 7, 3, 6, 0 excluded.
    Seven,
    /// k bits counting in binary modulo 2^k, each node's carries beside
    /// them (`c_j`, "bits 0 to j − 1 are all 1", for j from 2 to k − 1), so
    /// that a step is four clauses a bit: the binary ordering encoding.
    Binary(usize),
    /// m − 1 bits, bit k − 1 "the residue is at least k" (m at least 2):
    /// the unary ordering encoding's one counter.
    Unary(usize),
}

/// Which end of a move a literal of a step clause is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum End {
    From,
    To,
}

/// A literal of a register's clause: bit (or one-hot variable) `.1` at the
/// end `.0`, true where `.2` is.
pub(super) type BitLit = (End, usize, bool);

/// Heule's `lfsr`: one step of a `size`-bit register whose top bit feeds
/// back into bit 0 and, `tap` places down, into bit `size − tap`.
fn heule_lfsr(state: usize, size: usize, tap: usize) -> usize {
    let shifted = state << 1;
    let top = shifted & (1 << size);
    let mut next = if top != 0 { shifted - top + 1 } else { shifted };
    next ^= top >> tap;
    next
}

impl Register {
    /// The residues it tells apart.
    pub(super) fn modulus(self) -> usize {
        match self {
            Register::OneHot(m) | Register::Unary(m) => m,
            Register::Counter(k) | Register::Binary(k) => 1 << k,
            Register::Three => 3,
            Register::Five => 5,
            Register::Seven => 7,
        }
    }

    /// The variables it takes per node.
    pub(super) fn width(self) -> usize {
        match self {
            Register::OneHot(m) => m,
            Register::Counter(k) => k,
            Register::Three => 2,
            Register::Five | Register::Seven => 3,
            Register::Binary(k) => k + k.saturating_sub(2),
            Register::Unary(m) => m - 1,
        }
    }

    /// A binary register's carry into bit `bit` (at least 1): bit 0
    /// itself into bit 1, else its carry variable.
    fn carry(k: usize, bit: usize) -> usize {
        if bit == 1 {
            0
        } else {
            k + bit - 2
        }
    }

    /// The literals, all true, that say "the residue is `residue`": the
    /// one variable of a one-hot register, every bit of the others.
    pub(super) fn pattern(self, residue: usize) -> Vec<(usize, bool)> {
        let state = match self {
            Register::OneHot(_) => return vec![(residue, true)],
            Register::Binary(k) => {
                let mut pattern: Vec<(usize, bool)> =
                    (0..k).map(|bit| (bit, residue >> bit & 1 == 1)).collect();
                pattern.extend(
                    (2..k).map(|bit| (k + bit - 2, residue % (1 << bit) == (1 << bit) - 1)),
                );
                return pattern;
            }
            Register::Unary(m) => return (1..m).map(|k| (k - 1, k <= residue)).collect(),
            Register::Counter(_) | Register::Five => residue,
            Register::Three => (0..residue).fold(1, |state, _| heule_lfsr(state, 2, 1)),
            Register::Seven => (0..residue).fold(1, |state, _| heule_lfsr(state, 3, 1)),
        };
        (0..self.width())
            .map(|bit| (bit, state >> bit & 1 == 1))
            .collect()
    }

    /// The fewest literals of [`pattern`](Self::pattern) that, with the
    /// register's [`valid`](Self::valid) clauses, say "the residue is
    /// `residue`": in unary "at least r and not at least r + 1", the
    /// whole pattern for the others.
    pub(super) fn identifying(self, residue: usize) -> Vec<(usize, bool)> {
        match self {
            Register::Unary(m) => {
                let mut lits = Vec::new();
                if residue >= 1 {
                    lits.push((residue - 1, true));
                }
                if residue + 1 < m {
                    lits.push((residue, false));
                }
                lits
            }
            _ => self.pattern(residue),
        }
    }

    /// Clauses over one node's bits that leave exactly the residues'
    /// patterns (Heule's "the bit-vectors cannot be zero" and the five's
    /// two); none for one-hot, whose exactly-one is written apart.
    pub(super) fn valid(self) -> Vec<Vec<(usize, bool)>> {
        match self {
            Register::OneHot(_) | Register::Counter(_) => Vec::new(),
            Register::Three => vec![vec![(0, true), (1, true)]],
            Register::Five => vec![vec![(0, false), (2, false)], vec![(1, false), (2, false)]],
            Register::Seven => vec![vec![(0, true), (1, true), (2, true)]],
            // c_j = c_{j−1} ∧ bit j − 1.
            Register::Binary(k) => (2..k)
                .flat_map(|bit| {
                    let (carry, below) = (Register::carry(k, bit), Register::carry(k, bit - 1));
                    [
                        vec![(carry, false), (below, true)],
                        vec![(carry, false), (bit - 1, true)],
                        vec![(carry, true), (below, false), (bit - 1, false)],
                    ]
                })
                .collect(),
            // At least k + 1 → at least k.
            Register::Unary(m) => (1..m - 1)
                .map(|bit| vec![(bit, false), (bit - 1, true)])
                .collect(),
        }
    }

    /// The clauses, each with the move's negation beside it, that make
    /// the residue at the move's end the one after its start's: Heule's
    /// clauses for his registers, "from i, to i + 1" for one-hot.
    pub(super) fn step(self) -> Vec<Vec<BitLit>> {
        use End::{From, To};
        // "to's bit = from's bit ⊕ c" for single bits, as two clauses.
        let follows = |to: usize, from: usize, flip: bool| {
            vec![
                vec![(To, to, !flip), (From, from, false)],
                vec![(To, to, flip), (From, from, true)],
            ]
        };
        // "to's bit = from's bits a ⊕ b", as four clauses.
        let xor = |to: usize, a: usize, b: usize| {
            [(false, false), (false, true), (true, false), (true, true)]
                .into_iter()
                .map(|(x, y)| vec![(To, to, x != y), (From, a, !x), (From, b, !y)])
                .collect::<Vec<_>>()
        };
        match self {
            Register::OneHot(m) => (0..m)
                .map(|i| vec![(From, i, false), (To, (i + 1) % m, true)])
                .collect(),
            Register::Counter(k) => {
                let mut clauses = Vec::new();
                for bit in 0..k {
                    if bit == 0 {
                        clauses.extend(follows(0, 0, true));
                        continue;
                    }
                    // A lower bit at 0: no carry into this one.
                    for lower in 0..bit {
                        clauses.push(vec![
                            (From, lower, true),
                            (To, bit, true),
                            (From, bit, false),
                        ]);
                        clauses.push(vec![
                            (From, lower, true),
                            (To, bit, false),
                            (From, bit, true),
                        ]);
                    }
                    // Every lower bit at 1: this one flips.
                    for to in [true, false] {
                        let mut clause: Vec<BitLit> = (0..bit).map(|l| (From, l, false)).collect();
                        clause.push((To, bit, to));
                        clause.push((From, bit, to));
                        clauses.push(clause);
                    }
                }
                clauses
            }
            Register::Three => {
                let mut clauses = follows(0, 1, false);
                clauses.extend(xor(1, 0, 1));
                clauses
            }
            Register::Five => vec![
                vec![(To, 0, false), (From, 0, false)],
                vec![(To, 0, false), (From, 2, false)],
                vec![(To, 0, true), (From, 0, true), (From, 2, true)],
                vec![(To, 1, true), (From, 0, true), (From, 1, false)],
                vec![(To, 1, true), (From, 0, false), (From, 1, true)],
                vec![(To, 1, false), (From, 0, true), (From, 1, true)],
                vec![(To, 1, false), (From, 0, false), (From, 1, false)],
                vec![(To, 2, false), (From, 0, true)],
                vec![(To, 2, false), (From, 1, true)],
                vec![(To, 2, true), (From, 0, false), (From, 1, false)],
            ],
            Register::Seven => {
                let mut clauses = follows(0, 2, false);
                clauses.extend(follows(1, 0, false));
                clauses.extend(xor(2, 1, 2));
                clauses
            }
            Register::Binary(k) => {
                let mut clauses = follows(0, 0, true);
                for bit in 1..k {
                    clauses.extend(xor(bit, bit, Register::carry(k, bit)));
                }
                clauses
            }
            // At least 1 at the end unless the start is at m − 1 (the
            // wrap to 0); at least k + 1 at the end exactly where at least
            // k and not m − 1 at the start (the end's "at least k + 1 →
            // at least 1" rules out the wrap's).
            Register::Unary(m) => {
                let top = m - 2;
                let mut clauses = follows(0, top, true);
                for bit in 1..m - 1 {
                    clauses.push(vec![(To, bit, false), (From, bit - 1, true)]);
                    clauses.push(vec![
                        (To, bit, true),
                        (From, bit - 1, false),
                        (From, top, true),
                    ]);
                }
                clauses
            }
        }
    }
}

/// The registers of Heule's `hcp-encode` for `target` positions: a power
/// of two times 3, 5 and 7 as far as needed (2, 6, 30, 210, then doubling),
/// the least such product at least `target` (his tool takes the least above
/// it); powers of two first, as he numbers them.
pub(super) fn heule_registers(target: usize) -> Vec<Register> {
    if target <= 1 {
        return Vec::new();
    }
    let mut product = 2;
    let mut odd = Vec::new();
    for register in [Register::Three, Register::Five, Register::Seven] {
        if product < target {
            product *= register.modulus();
            odd.push(register);
        }
    }
    let mut bits = 1;
    while product < target {
        product *= 2;
        bits += 1;
    }
    let mut registers = vec![Register::Counter(bits)];
    registers.extend(odd);
    registers
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `clause` holds where `value` gives each literal's bit.
    fn holds<T: Copy>(clause: &[(T, usize, bool)], value: impl Fn(T, usize) -> bool) -> bool {
        clause.iter().any(|&(end, bit, on)| value(end, bit) == on)
    }

    /// Residue `residue`'s pattern in `register` as a number, bit b its
    /// variable b.
    fn pattern_bits(register: Register, residue: usize) -> usize {
        register
            .pattern(residue)
            .iter()
            .map(|&(bit, on)| usize::from(on) << bit)
            .sum()
    }

    /// Whether the assignment `bits` (bit b its variable b) satisfies
    /// `register`'s own clauses.
    fn allowed(register: Register, bits: usize) -> bool {
        register.valid().iter().all(|clause| {
            let clause: Vec<_> = clause.iter().map(|&(b, on)| ((), b, on)).collect();
            holds(&clause, |(), b| bits >> b & 1 == 1)
        })
    }

    /// The bit registers of Heule's encoding.
    fn bit_registers() -> Vec<Register> {
        let mut registers = vec![Register::Three, Register::Five, Register::Seven];
        registers.extend((1..=6).map(Register::Counter));
        registers.extend((1..=7).map(Register::Binary));
        registers.extend((2..=9).map(Register::Unary));
        registers
    }

    #[test]
    fn bit_registers_allow_exactly_their_residues() {
        for register in bit_registers() {
            let width = register.width();
            let patterns: Vec<usize> = (0..register.modulus())
                .map(|i| pattern_bits(register, i))
                .collect();
            for bits in 0..1usize << width {
                let valid = allowed(register, bits);
                let count = patterns.iter().filter(|&&p| p == bits).count();
                assert!(count <= 1, "{register:?}: pattern {bits:b} twice");
                assert_eq!(valid, count == 1, "{register:?}: {bits:b}");
            }
        }
    }

    #[test]
    fn a_step_leads_from_each_residue_to_the_next_alone() {
        // Every assignment of the target's bits that its own clauses allow
        // satisfies the step clauses exactly when it is the next residue's
        // pattern.
        for register in bit_registers() {
            let m = register.modulus();
            for i in 0..m {
                let from = pattern_bits(register, i);
                for to in (0..1usize << register.width()).filter(|&to| allowed(register, to)) {
                    let all = register.step().iter().all(|clause| {
                        holds(clause, |end, bit| {
                            let bits = if end == End::From { from } else { to };
                            bits >> bit & 1 == 1
                        })
                    });
                    assert_eq!(
                        all,
                        to == pattern_bits(register, (i + 1) % m),
                        "{register:?} from {i}: {to:b}"
                    );
                }
            }
        }
        // One-hot: from i, the clauses ask for i + 1.
        let step = Register::OneHot(5).step();
        assert_eq!(step.len(), 5);
        assert!(step.contains(&vec![(End::From, 4, false), (End::To, 0, true)]));
    }

    #[test]
    fn identifying_literals_pick_out_one_residue() {
        // Among the assignments a register's own clauses allow, the
        // identifying literals of residue i hold exactly on i's pattern.
        for register in bit_registers() {
            for i in 0..register.modulus() {
                let identifying = register.identifying(i);
                for bits in (0..1usize << register.width()).filter(|&bits| allowed(register, bits))
                {
                    let all = identifying
                        .iter()
                        .all(|&(bit, on)| (bits >> bit & 1 == 1) == on);
                    assert_eq!(
                        all,
                        bits == pattern_bits(register, i),
                        "{register:?} residue {i}: {bits:b}"
                    );
                }
            }
        }
        assert_eq!(Register::Unary(5).identifying(0), vec![(0, false)]);
        assert_eq!(Register::Unary(5).identifying(4), vec![(3, true)]);
    }

    #[test]
    fn heules_lfsrs_have_his_periods() {
        for (size, period) in [(2, 3), (3, 7)] {
            let mut state = 1;
            for step in 1..=period {
                state = heule_lfsr(state, size, 1);
                assert_eq!(state == 1, step == period, "size {size}, step {step}");
            }
        }
    }

    #[test]
    fn heules_moduli_cover_the_target() {
        let moduli = |target| -> Vec<usize> {
            heule_registers(target)
                .iter()
                .map(|r| r.modulus())
                .collect()
        };
        assert_eq!(moduli(1), Vec::<usize>::new());
        assert_eq!(moduli(2), vec![2]);
        assert_eq!(moduli(7), vec![2, 3, 5]);
        assert_eq!(moduli(65), vec![2, 3, 5, 7]);
        assert_eq!(moduli(420), vec![4, 3, 5, 7]);
        assert_eq!(moduli(1600), vec![16, 3, 5, 7]);
        assert_eq!(moduli(2500), vec![32, 3, 5, 7]);
    }
}
