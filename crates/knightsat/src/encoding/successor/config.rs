//! The successor encoding's switches, and how CNF comments record them.

use super::registers::PositionCode;
use super::Successor;
use crate::cnf::CnfError;
use crate::encoding::Amo;
use crate::encoding::EncodingError;

use crate::model::problem::Problem;

/// How the successor encoding rules out subtours (cycles that miss squares).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Subtours {
    /// Not in the formula: solve, find the model's cycles, forbid each
    /// subtour with a clause, solve again (`Encoding::mend`). Only
    /// for solving in a loop: a lazy formula alone has models that are not
    /// tours, so it is never written to a file.
    #[default]
    Lazy,
    /// In the formula, by the Chinese remainder encoding
    /// (`crt`): every model is a tour.
    Complete,
}

impl Subtours {
    /// The default where the formula is solved in this process: lazy,
    /// cuts added as subtours appear (the command's `solve` and `count`,
    /// Python's `solve`, `count` and `tours`).
    pub const FOR_SOLVING: Subtours = Subtours::Lazy;
    /// The default where the formula is written for another program:
    /// complete, every model a tour (`encode`, `cubes`, Python's
    /// `formula`).
    pub const FOR_WRITING: Subtours = Subtours::Complete;

    /// The name on the command line and in CNF comments.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Subtours::Lazy => "lazy",
            Subtours::Complete => "complete",
        }
    }
}

/// How the complete formula rules out subtours: by positions (the
/// Chinese remainder encoding, `crt`) or by vertex elimination
/// (`elimination`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Acyclicity {
    /// The encoding's choice: on a graph from a file with no clues,
    /// vertex elimination where its clauses are few enough
    /// ([`Acyclicity::AUTO_CLAUSES_PER_MOVE`],
    /// [`Acyclicity::AUTO_CLAUSES`]), positions otherwise; positions on a
    /// board (docs/encodings.md, "Acyclicity by vertex elimination").
    #[default]
    Auto,
    /// Positions: each node's distance from the root in residues.
    Positions,
    /// Vertex elimination: no cycle among the nodes but the root.
    VertexElimination,
}

impl Acyclicity {
    /// On a graph from a file, [`Acyclicity::Auto`] takes vertex
    /// elimination up to this many clauses of its own per move of the
    /// graph (and [`Acyclicity::AUTO_CLAUSES`] in all), positions past
    /// it. On every tenth FHCP graph, kissat with 60 s, vertex elimination
    /// solved 57 and positions 46; of the graphs past 100 clauses a move
    /// it lost 150 (53 million clauses) and won 880 (196 a move). On knight
    /// boards it was many times faster up to closed 20x20 (246 a move)
    /// and slower from 24x24 (378).
    pub const AUTO_CLAUSES_PER_MOVE: u64 = 300;

    /// The most clauses of its own [`Acyclicity::Auto`] lets vertex
    /// elimination write: past it, a formula kissat is slow to read
    /// (FHCP graph 90's 13 million took three times the positions' time,
    /// graph 150's 53 million more than 60 s where the positions took 11).
    pub const AUTO_CLAUSES: u64 = 10_000_000;

    /// The name on the command line and in CNF comments.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Acyclicity::Auto => "auto",
            Acyclicity::Positions => "positions",
            Acyclicity::VertexElimination => "vertex-elimination",
        }
    }
}

/// How many positions a lap covers where the formula has positions: the
/// Chinese remainder moduli cover one lap, and a lap counter counts the
/// laps (`crt`, docs/encodings.md "Laps").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Laps {
    /// The encoding's choice ([`Laps::length`]): one lap on a bipartite
    /// move graph, laps of 420 positions on any other.
    #[default]
    Auto,
    /// One lap: the moduli cover every node, no lap counter.
    Whole,
    /// Laps of at least this many positions (one lap where that covers
    /// every node).
    Of(usize),
}

impl Laps {
    /// The laps' length for `nodes` nodes, `None` for one lap. `Auto`
    /// follows measurement (docs/encodings.md, "Laps"): on knight boards,
    /// whose move graphs are bipartite (and have the positions' parity),
    /// laps of 420 made kissat several times slower on closed 30x30; on
    /// the FHCP graphs, none bipartite, they solved more in 60 s. Heule's
    /// 420 lengthens past 32 laps (13,440 nodes) to keep the counter short.
    pub fn length(self, nodes: usize, bipartite: bool) -> Option<usize> {
        match self {
            Laps::Auto if bipartite => None,
            Laps::Auto => Some(HEULE_CYCLE_LENGTH.max(nodes.div_ceil(MAX_AUTO_LAPS))),
            Laps::Whole => None,
            Laps::Of(len) => Some(len),
        }
    }
}

/// The cycle length Heule's README suggests for most graphs.
const HEULE_CYCLE_LENGTH: usize = 420;

/// The most laps [`Laps::Auto`] gives a node's counter.
const MAX_AUTO_LAPS: usize = 32;

/// The switches of the successor encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SuccessorConfig {
    /// Split clauses longer than this many literals (at least 3).
    pub max_clause_len: Option<usize>,
    /// How "at most one" is encoded (each square's moves out, moves in,
    /// and the position counters of the complete formula).
    pub amo: Amo,
    /// Break the symmetries the problem has: for closed tours, forbid the
    /// reverse of each cycle; for open tours with nothing anchored, start
    /// on one square per orbit of the board's symmetries.
    pub symmetry_breaking: bool,
    /// Lazily (solving in a loop) or in the formula.
    pub subtours: Subtours,
    /// Where the formula has positions and the move graph is bipartite:
    /// the positions' parity, which the sides fix (`position-parity`).
    pub parity: bool,
    /// Where the formula has positions: each move's reverse reading of
    /// the advance, that the node it leads to fixes the node it comes from
    /// (`position-support`).
    pub position_support: bool,
    /// Where the formula has positions: how many positions the moduli
    /// cover, a lap counter counting the laps.
    pub laps: Laps,
    /// Where the formula has positions: how a residue is written.
    pub positions: PositionCode,
    /// How a complete formula rules out subtours.
    pub acyclicity: Acyclicity,
    /// Whether a search for one tour may patch a model's subtours into a
    /// tour (`mend`) before it adds cuts. A way of solving, not
    /// part of the formula: CNF comments do not record it.
    pub patching: bool,
    /// Whether a model's subtours are cut as the groups that patching's
    /// exchanges merge them into (when they do not merge into one tour)
    /// rather than one by one (`cycles::mend`). A way of solving, not
    /// part of the formula: CNF comments do not record it.
    pub merged_cuts: bool,
}

impl Default for SuccessorConfig {
    /// Pairwise at-most-one (each set has at most 9 literals for a knight,
    /// where pairwise is smallest in literals that propagate at once),
    /// symmetry breaking, lazy subtours, the positions' parity (not their
    /// support, which made kissat slower: docs/encodings.md), patching,
    /// merged cuts.
    fn default() -> Self {
        SuccessorConfig {
            max_clause_len: None,
            amo: Amo::Pairwise,
            symmetry_breaking: true,
            subtours: Subtours::Lazy,
            parity: true,
            position_support: false,
            laps: Laps::Auto,
            positions: PositionCode::OneHot,
            acyclicity: Acyclicity::Auto,
            patching: true,
            merged_cuts: true,
        }
    }
}

impl SuccessorConfig {
    /// What a CNF's comments start from before its settings are read: a
    /// written formula is complete, and a switch it does not mention was
    /// off (the formula was written before the switch existed).
    pub(crate) fn before_any_setting() -> SuccessorConfig {
        SuccessorConfig {
            symmetry_breaking: false,
            subtours: Subtours::Complete,
            parity: false,
            position_support: false,
            laps: Laps::Whole,
            positions: PositionCode::OneHot,
            acyclicity: Acyclicity::Positions,
            ..SuccessorConfig::default()
        }
    }

    /// Checks that the switches fit `problem`: a clause-length bound of at
    /// least 3, and for a formula with positions a variable count varisat
    /// and DIMACS take.
    pub(crate) fn check_fits(&self, problem: &Problem) -> Result<(), EncodingError> {
        if let Some(len) = self.max_clause_len.filter(|&len| len < 3) {
            return Err(EncodingError::ClauseLengthTooShort { len });
        }
        let board = problem.board();
        let per_square = self.vars_per_square_at_most(problem);
        if board.squares().saturating_mul(per_square) > Successor::MAX_VARS {
            return Err(EncodingError::BoardTooLargeForEncoding {
                encoding: "successor",
                board: board.to_string(),
                squares: board.squares(),
                limit: Successor::MAX_VARS / per_square,
            });
        }
        Ok(())
    }

    /// Whether the formula for `problem` may have position variables: the
    /// complete formula unless vertex elimination is asked for (with
    /// [`Acyclicity::Auto`] the encoding may still choose it), and any
    /// formula with clues, which are pinned through positions (so a clued
    /// formula is complete even with lazy subtours asked for).
    pub(crate) fn has_positions(&self, problem: &Problem) -> bool {
        (self.subtours == Subtours::Complete && self.acyclicity != Acyclicity::VertexElimination)
            || !problem.clues().is_empty()
    }

    /// A bound on the variables per square: at most 8 moves out of a
    /// square, first and last, the at-most-one auxiliaries of its moves
    /// out and in (at most 8 each, the sequential counter's n − 1 being
    /// the most of any encoding, and as many again for the virtual node's
    /// share), the positions (complete or clued formulas) with as many
    /// auxiliaries again, and with clause splitting one auxiliary per
    /// literal of its clauses at most (about three times the rest).
    fn vars_per_square_at_most(&self, problem: &Problem) -> usize {
        let nodes = problem.board().squares() + usize::from(!problem.is_closed());
        let positions: usize = if self.has_positions(problem) {
            // The more of a bipartite graph's and any other's choice.
            [true, false]
                .map(|bipartite| {
                    super::crt::Positions::new(
                        nodes,
                        1,
                        self.laps.length(nodes, bipartite),
                        self.positions,
                    )
                    .count()
                        / nodes.max(1)
                })
                .into_iter()
                .max()
                .unwrap_or(0)
        } else {
            0
        };
        let unsplit = 10 + 4 * 8 + 2 * positions;
        match self.max_clause_len {
            Some(_) => 4 * unsplit,
            None => unsplit,
        }
    }

    /// Every switch as `(key, value)`, as CNF comments record them after
    /// `encoding successor`; the positions' code only where it is not
    /// one-hot, so that formulas written before it existed read the same.
    pub(crate) fn settings(&self) -> Vec<(&'static str, String)> {
        let mut settings = vec![
            ("encoding", "successor".to_string()),
            (
                "max-clause-len",
                self.max_clause_len
                    .map_or_else(|| "none".to_string(), |k| k.to_string()),
            ),
            ("amo", self.amo.to_string()),
            ("symmetry-breaking", self.symmetry_breaking.to_string()),
            ("subtours", self.subtours.name().to_string()),
            ("parity", self.parity.to_string()),
            ("position-support", self.position_support.to_string()),
            (
                "lap-length",
                match self.laps {
                    Laps::Auto => "auto".to_string(),
                    Laps::Whole => "none".to_string(),
                    Laps::Of(len) => len.to_string(),
                },
            ),
        ];
        if self.positions != PositionCode::OneHot {
            settings.push(("positions", self.positions.name().to_string()));
        }
        if self.acyclicity == Acyclicity::VertexElimination {
            settings.push(("acyclicity", self.acyclicity.name().to_string()));
        }
        settings
    }

    /// Sets the switch `key` from its recorded `value`; `Ok(false)` when
    /// `key` is no switch of this encoding.
    pub(crate) fn read_setting(&mut self, key: &str, value: &str) -> Result<bool, EncodingError> {
        let read = match key {
            "max-clause-len" => match value {
                "none" => Some(None),
                k => k.parse().ok().map(Some),
            }
            .map(|len| self.max_clause_len = len),
            "amo" => value.parse().ok().map(|amo| self.amo = amo),
            "symmetry-breaking" => value.parse().ok().map(|on| self.symmetry_breaking = on),
            "parity" => value.parse().ok().map(|on| self.parity = on),
            "position-support" => value.parse().ok().map(|on| self.position_support = on),
            "lap-length" => match value {
                "none" => Some(Laps::Whole),
                "auto" => Some(Laps::Auto),
                len => len.parse().ok().filter(|&len| len >= 1).map(Laps::Of),
            }
            .map(|laps| self.laps = laps),
            "positions" => [
                PositionCode::OneHot,
                PositionCode::Lfsr,
                PositionCode::Binary,
                PositionCode::Unary,
            ]
            .into_iter()
            .find(|code| code.name() == value)
            .map(|code| self.positions = code),
            "acyclicity" => [Acyclicity::Positions, Acyclicity::VertexElimination]
                .into_iter()
                .find(|a| a.name() == value)
                .map(|a| self.acyclicity = a),
            "subtours" => match value {
                "lazy" => Some(Subtours::Lazy),
                "complete" => Some(Subtours::Complete),
                _ => None,
            }
            .map(|subtours| self.subtours = subtours),
            _ => return Ok(false),
        };
        read.ok_or_else(|| {
            EncodingError::Cnf(CnfError::NotKnightsatCnf(format!(
                "unreadable option in CNF comments: {key} {}",
                crate::runtime::input::shown(value)
            )))
        })?;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_setting_reads_back_what_it_writes() {
        let defaults = SuccessorConfig::default();
        let config = SuccessorConfig {
            max_clause_len: Some(5),
            amo: Amo::Commander,
            symmetry_breaking: !defaults.symmetry_breaking,
            subtours: Subtours::Lazy,
            parity: !defaults.parity,
            position_support: !defaults.position_support,
            laps: Laps::Of(420),
            positions: PositionCode::Lfsr,
            acyclicity: Acyclicity::VertexElimination,
            patching: true,
            merged_cuts: true,
        };
        let mut read = SuccessorConfig::before_any_setting();
        for (key, value) in config.settings().into_iter().skip(1) {
            assert!(read.read_setting(key, &value).unwrap(), "{key}");
        }
        assert_eq!(read, config);
        assert!(!read.read_setting("corridor", "3").unwrap());
        assert!(read.read_setting("subtours", "eager").is_err());
    }
}
