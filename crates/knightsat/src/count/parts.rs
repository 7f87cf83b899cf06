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
use crate::cnf_file::{options, problem_and_encoding};
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

/// The record of the frontier count a checkpoint is of: the method, the
/// order of the squares asked for, the part and what it splits (if it is
/// one), then the problem as a CNF's `c option` comments record it. The
/// threads, memory budget and spill directory are not in it: they change
/// how the count goes, not what it counts.
pub(super) fn checkpoint_record(
    problem: &Problem,
    order: SquareOrder,
    part: Option<PartOf>,
    by: PartSplit,
) -> String {
    let mut pairs = vec![
        ("method", "frontier".to_string()),
        ("order", order.name().to_string()),
    ];
    if let Some(part) = part {
        pairs.push(("part", format!("{}/{}", part.part, part.parts)));
        if by == PartSplit::Ends {
            pairs.push(("split", "ends".to_string()));
        }
    }
    pairs.extend(options(problem, Vec::new()));
    record_of(&pairs)
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
/// their header records (`record`, the header at `header`): a record
/// `count --part` writes, byte for byte (as a cube task's is read back, so
/// that a header edited by hand or cut short is refused, not only a line
/// whose fingerprint differs), and as many lines as its `parts` say.
pub(super) fn check_parts(sum: &CubeSum, record: &str, header: &str) -> Result<(), TallyError> {
    let bad = |reason: &str| TallyError::BadHeader {
        header: header.to_string(),
        reason: reason.to_string(),
    };
    let parts = record
        .strip_prefix("parts ")
        .and_then(|rest| rest.split_once(';'))
        .and_then(|(parts, _)| parts.parse::<usize>().ok())
        .ok_or_else(|| bad("it does not begin with the number of parts"))?;
    if !reads_back(record, parts) {
        return Err(bad("it is not as `count --part` writes it"));
    }
    match sum.cubes() {
        Some(lines) if lines != parts => Err(TallyError::WrongCubeCount {
            header: header.to_string(),
            lines,
            cubes: parts,
        }),
        _ => Ok(()),
    }
}

/// Whether `record` is the record of a part task of `parts` parts: its
/// order and split named, its problem read back from the `c option`
/// pairs, and written again the same.
fn reads_back(record: &str, parts: usize) -> bool {
    let mut order = None;
    let mut by = PartSplit::States;
    let mut values = Vec::new();
    for pair in record.split("; ") {
        let Some((key, value)) = pair.split_once(' ') else {
            return false;
        };
        match key {
            "parts" | "method" => {}
            "order" => order = SquareOrder::ALL.into_iter().find(|o| o.name() == value),
            "split" if value == "ends" => by = PartSplit::Ends,
            _ => values.push((key.to_string(), value.to_string())),
        }
    }
    let Some(order) = order else {
        return false;
    };
    let Ok(Some((problem, _))) = problem_and_encoding(&values) else {
        return false;
    };
    let task = PartTask {
        problem: &problem,
        order,
        parts,
        by,
    };
    task.record() == record
}

#[cfg(test)]
mod tests {
    use super::{check_parts, PartTask};
    use crate::count::frontier::{PartSplit, SquareOrder};
    use crate::count::tally::{part_header_line, CubeSum, Fingerprint};
    use crate::error::TallyError;
    use crate::model::board::Board;
    use crate::model::problem::Problem;

    /// The sum of two part lines under the header of `record`, each line
    /// carrying its fingerprint, then checked.
    fn checked(record: &str) -> Result<(), TallyError> {
        let mut sum = CubeSum::new();
        sum.add("h", &format!("{}\n", part_header_line(record)))?;
        for part in 1..=2 {
            let line = format!("part {part}/2\t5\t{}\n", Fingerprint::of(record));
            sum.add("l", &line)?;
        }
        let (record, header) = sum.task().unwrap();
        check_parts(&sum, record, header)
    }

    /// A header whose fingerprint fits its record, but whose record is not
    /// one `count --part` writes (a field added, one taken away, an order
    /// no count has), is refused: only the record written reads back.
    #[test]
    fn a_part_header_reads_back_only_as_written() {
        let problem = Problem::new(Board::new(5, 5).unwrap());
        for by in [PartSplit::States, PartSplit::Ends] {
            let record = PartTask {
                problem: &problem,
                order: SquareOrder::Auto,
                parts: 2,
                by,
            }
            .record();
            assert!(checked(&record).is_ok(), "{record}");
            for edited in [
                format!("{record}; squares a1 b3"),
                record.replace("; clues none", ""),
                record.replace("order auto", "order sideways"),
                record.replace("method frontier", "method frontier; split states"),
            ] {
                assert!(
                    matches!(checked(&edited), Err(TallyError::BadHeader { .. })),
                    "{edited}"
                );
            }
        }
    }
}
