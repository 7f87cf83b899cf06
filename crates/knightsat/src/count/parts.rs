//! A frontier count in parts, as cluster tasks run it: what the part
//! counts are counts of (the problem, the order of the squares and the
//! number of parts), recorded in the header of each part's output, and
//! the check that the lines added up are every part of one such count.
//!
//! The parts split the count by a class of its states at one step
//! ([`frontier::Part`]), the same step and classes in every part for the
//! same problem, order and number of parts, or by the pairs of squares
//! its paths end on ([`PartSplit::Ends`]): so those and the split are the
//! task, and the threads, memory budget and spill directory are not (they
//! change how a part is counted, not which tours it counts).

use super::frontier::{self, PartSplit, SquareOrder};
use super::tally::{part_header_line, record_of, CubeSum, Fingerprint, PartOf};
use crate::cnf_file::options;
use crate::error::TallyError;
use crate::model::problem::Problem;

/// The task of one part of a frontier count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct PartTask<'a> {
    /// The problem.
    pub problem: &'a Problem,
    /// The order of the squares asked for.
    pub order: SquareOrder,
    /// The number of parts.
    pub parts: usize,
    /// What the parts split.
    pub by: PartSplit,
}

impl PartTask<'_> {
    /// The task as one line of `key value` pairs separated by `; `:
    /// `parts`, `method`, `order`, then the problem as a CNF's
    /// `c option` comments record it.
    pub(super) fn record(&self) -> String {
        let mut pairs = vec![
            ("parts", self.parts.to_string()),
            ("method", "frontier".to_string()),
            ("order", self.order.name().to_string()),
        ];
        // Recorded only where it is not the first way there was, so that
        // a count split by its states keeps the header it always had.
        if self.by == PartSplit::Ends {
            pairs.push(("split", "ends".to_string()));
        }
        pairs.extend(options(self.problem, Vec::new()));
        record_of(&pairs)
    }

    /// The header line of a part's output (no newline).
    pub(super) fn header(&self) -> String {
        part_header_line(&self.record())
    }

    /// The fingerprint of its record, which ends the part's line.
    pub(super) fn fingerprint(&self) -> Fingerprint {
        Fingerprint::of(&self.record())
    }
}

/// The frontier's part for `part`, split `by`.
pub(super) fn frontier_part(part: PartOf, by: PartSplit) -> frontier::Part {
    frontier::Part {
        index: part.part - 1,
        of: part.parts,
        by,
        top_first: false,
    }
}

/// Checks that the part lines added to `sum` count the parts of the count
/// their header records (`record`, the header at `header`): as many as
/// its `parts` say.
pub(super) fn check_parts(sum: &CubeSum, record: &str, header: &str) -> Result<(), TallyError> {
    let parts = record
        .strip_prefix("parts ")
        .and_then(|rest| rest.split_once(';'))
        .and_then(|(parts, _)| parts.parse::<usize>().ok())
        .ok_or_else(|| TallyError::BadHeader {
            header: header.to_string(),
            reason: "it does not begin with the number of parts".to_string(),
        })?;
    match sum.cubes() {
        Some(lines) if lines != parts => Err(TallyError::WrongCubeCount {
            header: header.to_string(),
            lines,
            cubes: parts,
        }),
        _ => Ok(()),
    }
}
