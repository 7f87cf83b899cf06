//! The time-indexed encoding's switches, and their one description: the
//! table [`SETTINGS`] says how each is recorded in CNF comments and read
//! back, so a new switch is one field, its default, and one table row.

use super::TimeIndexed;
use crate::cnf::CnfError;
use crate::encoding::Amo;
use crate::encoding::EncodingError;

use crate::model::problem::Problem;

/// The switches of the time-indexed encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeIndexedConfig {
    /// Split clauses longer than this many literals (at least 3).
    pub max_clause_len: Option<usize>,
    /// How "at most one" is encoded.
    pub amo: Amo,
    /// Add the redundant predecessor clauses (see `predecessor`).
    pub predecessor: bool,
    /// Add the redundant move variables linked to the steps (see `moves`).
    pub moves: bool,
    /// Prune x(t, s) whose colour cannot match step t's (see [`super::Domain`]).
    pub parity: bool,
    /// Prune x(t, s) too far by moves from the start, end or a clue (see [`super::Domain`]).
    pub reachability: bool,
    /// Break the board's symmetries where the problem allows: for open
    /// tours with nothing anchored, start on one square per orbit; for
    /// closed tours, forbid the reverse of each tour (see
    /// `closed_reversal_broken`).
    pub symmetry_breaking: bool,
    /// An optional block schedule: the board cut into this many bands of
    /// ranks by bands of files, toured one block after another in snake
    /// order (see `domain::block_windows`). Restricts the search:
    /// every tour found is a tour, but a board may have tours and none that
    /// follow it.
    pub blocks: Option<(usize, usize)>,
    /// An optional corridor around the clues, of this slack in moves: a
    /// step between two clues may only be on a square whose detour through
    /// it is within the slack of the least detour any two consecutive clues
    /// make through it (see `domain::keep_to_corridor`). Restricts the search, as
    /// blocks do: every tour found is a tour, but a board may have tours
    /// and none that keep to it.
    pub corridor: Option<u32>,
}

impl Default for TimeIndexedConfig {
    /// The defaults: bimander at-most-one, predecessor clauses, parity and
    /// reachability pruning, symmetry breaking; no splitting, no blocks.
    fn default() -> Self {
        TimeIndexedConfig {
            max_clause_len: None,
            amo: Amo::default(),
            predecessor: true,
            moves: true,
            parity: true,
            reachability: true,
            symmetry_breaking: true,
            blocks: None,
            corridor: None,
        }
    }
}

impl TimeIndexedConfig {
    /// The straightforward encoding: pairwise at-most-one and nothing
    /// pruned, redundant or symmetry-breaking, for comparisons.
    pub fn naive() -> TimeIndexedConfig {
        TimeIndexedConfig {
            amo: Amo::Pairwise,
            predecessor: false,
            moves: false,
            parity: false,
            reachability: false,
            symmetry_breaking: false,
            ..TimeIndexedConfig::default()
        }
    }

    /// Checks, without building anything, that these switches fit
    /// `problem`: a board within the encoding's size, a clause-length bound
    /// of at least 3, blocks that fit the board.
    pub(crate) fn check_fits(&self, problem: &Problem) -> Result<(), EncodingError> {
        let board = problem.board();
        if board.graph().is_some() {
            // Its pruning reads the squares' colours and places.
            return Err(EncodingError::NeedsBoard {
                encoding: "time-indexed",
            });
        }
        if board.squares() > TimeIndexed::MAX_SQUARES {
            return Err(EncodingError::BoardTooLargeForEncoding {
                encoding: "time-indexed",
                board: board.to_string(),
                squares: board.squares(),
                limit: TimeIndexed::MAX_SQUARES,
            });
        }
        if let Some(len) = self.max_clause_len.filter(|&len| len < 3) {
            return Err(EncodingError::ClauseLengthTooShort { len });
        }
        if self.corridor.is_some() && problem.clues().len() < 2 {
            return Err(EncodingError::CorridorWithoutClues {
                clues: problem.clues().len(),
            });
        }
        if let Some((rows, cols)) = self.blocks {
            if rows == 0 || cols == 0 || rows > board.rows() || cols > board.cols() {
                return Err(EncodingError::BlocksDoNotFit {
                    rows,
                    cols,
                    board: board.to_string(),
                });
            }
        }
        Ok(())
    }

    /// The block schedule and the corridor, in words, where the switches
    /// ask for either (see [`EncodingConfig::restriction`](crate::encoding::EncodingConfig::restriction)).
    pub(crate) fn restriction(&self) -> Option<String> {
        let blocks = self
            .blocks
            .map(|(rows, cols)| format!("the block schedule {rows}x{cols}"));
        let corridor = self
            .corridor
            .map(|slack| format!("the corridor of slack {slack} around the clues"));
        match (blocks, corridor) {
            (Some(blocks), Some(corridor)) => Some(format!("{blocks} and {corridor}")),
            (blocks, corridor) => blocks.or(corridor),
        }
    }

    /// Every switch as `(key, value)`, in the order of [`SETTINGS`].
    pub(crate) fn settings(&self) -> Vec<(&'static str, String)> {
        SETTINGS
            .iter()
            .filter_map(|setting| Some((setting.key, (setting.write)(self)?)))
            .collect()
    }

    /// Sets the switch `key` from its recorded `value`; `Ok(false)` when
    /// `key` is no switch of this encoding.
    pub(crate) fn read_setting(&mut self, key: &str, value: &str) -> Result<bool, EncodingError> {
        let Some(setting) = SETTINGS.iter().find(|setting| setting.key == key) else {
            return Ok(false);
        };
        (setting.read)(self, value).ok_or_else(|| {
            EncodingError::Cnf(CnfError::NotKnightsatCnf(format!(
                "unreadable option in CNF comments: {key} {}",
                crate::runtime::input::shown(value)
            )))
        })?;
        Ok(true)
    }
}

/// One switch: its key in CNF comments, how its value is written (`None`:
/// no line, for a switch added later whose default a CNF without the line
/// reads as, so that the CNFs of before stay as they were), and how it is
/// read back (`None` for a value that does not read).
pub struct Setting {
    /// The key, as in `c option KEY VALUE`.
    pub key: &'static str,
    write: fn(&TimeIndexedConfig) -> Option<String>,
    read: fn(&mut TimeIndexedConfig, &str) -> Option<()>,
}

/// A yes/no switch stored in a `bool` field, written as `true`/`false`.
macro_rules! switch {
    ($key:literal, $field:ident) => {
        Setting {
            key: $key,
            write: |config| Some(config.$field.to_string()),
            read: |config, value| {
                config.$field = value.parse().ok()?;
                Some(())
            },
        }
    };
}

/// Every switch, in the order CNF comments record them.
pub const SETTINGS: &[Setting] = &[
    Setting {
        key: "max-clause-len",
        write: |config| Some(none_or(config.max_clause_len.map(|k| k.to_string()))),
        read: |config, value| {
            config.max_clause_len = match value {
                "none" => None,
                k => Some(k.parse().ok()?),
            };
            Some(())
        },
    },
    Setting {
        key: "amo",
        write: |config| Some(config.amo.to_string()),
        read: |config, value| {
            config.amo = value.parse().ok()?;
            Some(())
        },
    },
    switch!("predecessor", predecessor),
    switch!("moves", moves),
    switch!("parity", parity),
    switch!("reachability", reachability),
    switch!("symmetry-breaking", symmetry_breaking),
    Setting {
        key: "blocks",
        write: |config| Some(none_or(config.blocks.map(|(r, c)| format!("{r}x{c}")))),
        read: |config, value| {
            config.blocks = match value {
                "none" => None,
                bands => {
                    let (r, c) = bands.split_once('x')?;
                    Some((r.parse().ok()?, c.parse().ok()?))
                }
            };
            Some(())
        },
    },
    Setting {
        key: "corridor",
        write: |config| config.corridor.map(|slack| slack.to_string()),
        read: |config, value| {
            config.corridor = Some(value.parse().ok()?);
            Some(())
        },
    },
];

fn none_or(value: Option<String>) -> String {
    value.unwrap_or_else(|| "none".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_setting_reads_back_what_it_writes() {
        // Every field away from its default, so a row that forgets a field shows.
        let defaults = TimeIndexedConfig::default();
        let config = TimeIndexedConfig {
            max_clause_len: Some(4),
            amo: Amo::Product,
            predecessor: !defaults.predecessor,
            moves: !defaults.moves,
            parity: !defaults.parity,
            reachability: !defaults.reachability,
            symmetry_breaking: !defaults.symmetry_breaking,
            blocks: Some((2, 3)),
            corridor: Some(4),
        };
        let mut read = TimeIndexedConfig::naive();
        for (key, value) in config.settings() {
            assert!(read.read_setting(key, &value).unwrap(), "{key}");
        }
        assert_eq!(read, config);
        assert!(!read.read_setting("colour", "red").unwrap());
        assert!(read.read_setting("parity", "maybe").is_err());
    }
}
