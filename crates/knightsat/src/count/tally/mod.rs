//! Cubes by number, as cluster tasks count them: the range of cube numbers
//! one task takes, the line it prints for each cube it counts, and the sum
//! of such lines, which holds only when every cube was counted exactly
//! once.
//!
//! Cubes are numbered from 1 in the order the prefixes of moves are walked
//! them, which is the order of the files `cubes --split` writes and of its
//! manifest's lines: cube 7 is `cube-000007.cnf`, on line 7 after the
//! header. A task that counts cubes 1200 to 1299 prints one line per cube,
//! `cube 1200/4410`, its tours and its squares, separated by tabs (the
//! cube's number and the number of cubes come first), so that [`CubeSum`]
//! can tell a missing or a repeated cube from the lines alone, whichever
//! task printed them. A cube that a symmetry of the problem maps onto a
//! lower-numbered one has as many tours: its line says `=K` instead of a
//! count (see [`CubeTours::SameAs`]), and the sum takes cube K's count.
//!
//! What the cubes are cubes of travels with them: a task's output starts
//! with a header line, `# knightsat cube counts F: …`, that records the
//! problem, the encoding's switches, the depth and the method (see
//! `header_line`), and every cube line ends with the same fingerprint F
//! of that record, so that lines of two problems, or a line cut short,
//! cannot be added up unnoticed.
//!
//! A frontier count in parts (`count --part K/N`) prints the same way:
//! a header, `# knightsat part counts F: parts N; …`, and one line,
//! `part K/N`, the tours and F, separated by tabs ([`PartTally`]); the
//! sum takes every part exactly once, as it takes every cube.

use std::fmt;
use std::str::FromStr;

use crate::count::number::TourNumber;
pub use crate::error::{LineKind, TallyError};

mod sum;
pub use sum::CubeSum;

/// A range of cube numbers, `first` to `last` inclusive, from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CubeRange {
    /// The first cube's number (at least 1).
    pub first: usize,
    /// The last cube's number (at least `first`).
    pub last: usize,
}

impl CubeRange {
    /// The range for a split of `cubes` cubes: the last number cut to the
    /// last cube (so that tasks of a fixed size cover the end of any
    /// split), refused when even the first is beyond it.
    pub(crate) fn cut_to(self, cubes: usize) -> Result<CubeRange, TallyError> {
        if self.first > cubes {
            return Err(TallyError::RangeBeyondCubes {
                first: self.first,
                cubes,
            });
        }
        Ok(CubeRange {
            last: self.last.min(cubes),
            ..self
        })
    }

    /// The positions (from 0) of the range's cubes in the walk's order.
    pub(crate) fn indices(self) -> std::ops::Range<usize> {
        self.first - 1..self.last
    }
}

impl FromStr for CubeRange {
    type Err = String;

    /// `A-B` (cubes A to B) or `A` (cube A alone), numbers from 1.
    fn from_str(text: &str) -> Result<CubeRange, String> {
        let number = |part: &str| part.trim().parse::<usize>().ok().filter(|&n| n >= 1);
        let (first, last) = match text.split_once('-') {
            Some((first, last)) => (number(first), number(last)),
            None => (number(text), number(text)),
        };
        match (first, last) {
            (Some(first), Some(last)) if first <= last => Ok(CubeRange { first, last }),
            _ => Err(format!(
                "'{text}' is not a range of cube numbers like 1200-1299 or 7 (from 1, first ≤ last)"
            )),
        }
    }
}

/// The first words of the header line of a task's output.
pub const HEADER: &str = "# knightsat cube counts ";

/// The first words of the header line of a frontier count's part.
pub const PART_HEADER: &str = "# knightsat part counts ";

/// One part of `parts` of a count (`part` from 1), as `count --part`
/// takes it: `K/N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartOf {
    /// This part, from 1 to `parts`.
    pub part: usize,
    /// The parts the count is split into, at least 1.
    pub parts: usize,
}

impl FromStr for PartOf {
    type Err = String;

    /// `K/N`, 1 ≤ K ≤ N.
    fn from_str(text: &str) -> Result<PartOf, String> {
        let number = |part: &str| part.trim().parse::<usize>().ok().filter(|&n| n >= 1);
        match text.split_once('/').map(|(k, n)| (number(k), number(n))) {
            Some((Some(part), Some(parts))) if part <= parts => Ok(PartOf { part, parts }),
            _ => Err(format!(
                "'{text}' is not a part like 3/8 (part 3 of 8: from 1, at most the number of parts)"
            )),
        }
    }
}

impl fmt::Display for PartOf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.part, self.parts)
    }
}

/// A part of a frontier count, as `count --part` reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartTally {
    /// Which part.
    pub part: PartOf,
    /// Its tours.
    pub tours: TourNumber,
    /// The fingerprint of the task's record, as in its header line.
    pub task: Fingerprint,
}

impl fmt::Display for PartTally {
    /// `part K/N`, the tours and the task's fingerprint, separated by tabs
    /// (no newline).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "part {}\t{}\t{}", self.part, self.tours, self.task)
    }
}

/// A short fingerprint of a task's record (problem, switches, depth,
/// method): FNV-1a, 64 bits, printed as 16 hexadecimal digits. It tells
/// apart the outputs of different tasks by accident, not against forgery.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fingerprint(pub u64);

impl Fingerprint {
    /// The fingerprint of `record`.
    pub(crate) fn of(record: &str) -> Fingerprint {
        Fingerprint(fnv1a(record.as_bytes()))
    }
}

impl fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

impl FromStr for Fingerprint {
    type Err = ();

    /// Exactly 16 lowercase hexadecimal digits.
    fn from_str(text: &str) -> Result<Fingerprint, ()> {
        if text.len() != 16 || !text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
            return Err(());
        }
        u64::from_str_radix(text, 16)
            .map(Fingerprint)
            .map_err(|_| ())
    }
}

/// FNV-1a over `bytes`, 64 bits.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The header line of a task's output for the task recorded as `record`
/// (no newline): [`HEADER`], the record's [`Fingerprint`], a colon and
/// the record.
pub(crate) fn header_line(record: &str) -> String {
    format!("{HEADER}{}: {record}", Fingerprint::of(record))
}

/// A task's record: `key value` pairs separated by `; `.
pub(crate) fn record_of(pairs: &[(&str, String)]) -> String {
    pairs
        .iter()
        .map(|(key, value)| format!("{key} {value}"))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The header line of a part's output ([`PART_HEADER`], as
/// [`header_line`]).
pub(crate) fn part_header_line(record: &str) -> String {
    format!("{PART_HEADER}{}: {record}", Fingerprint::of(record))
}

/// What a header line heads, the record it carries, checked against its
/// fingerprint; `None` when the line is no whole header.
fn read_header(text: &str) -> Option<(LineKind, Fingerprint, &str)> {
    let (kind, rest) = match text.strip_prefix(HEADER) {
        Some(rest) => (LineKind::Cube, rest),
        None => (LineKind::Part, text.strip_prefix(PART_HEADER)?),
    };
    let (fingerprint, record) = rest.split_once(": ")?;
    let fingerprint: Fingerprint = fingerprint.parse().ok()?;
    (Fingerprint::of(record) == fingerprint && !record.is_empty()).then_some((
        kind,
        fingerprint,
        record,
    ))
}

/// One cube counted, as a task reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CubeTally {
    /// The cube's number, from 1.
    pub number: usize,
    /// The number of cubes in the split.
    pub cubes: usize,
    /// The tours in the cube, or the cube it has as many as.
    pub tours: CubeTours,
    /// The cube's squares by name (after 0, 1, … moves).
    pub squares: Vec<String>,
    /// The fingerprint of the task's record, as in its header line.
    pub task: Fingerprint,
}

/// A cube's tours as a task reports them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CubeTours {
    /// Counted: this many.
    Counted(u64),
    /// As many as the cube of this number, which a symmetry of the problem
    /// maps onto this one, and which is counted instead (printed `=K`).
    SameAs(usize),
}

/// What a line reports, as the sum keeps it: a cube's or a part's tours,
/// or a cube's reference to another ([`CubeTours::SameAs`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reported {
    Tours(TourNumber),
    SameAs(usize),
}

impl From<CubeTours> for Reported {
    fn from(tours: CubeTours) -> Reported {
        match tours {
            CubeTours::Counted(tours) => Reported::Tours(TourNumber::from(tours)),
            CubeTours::SameAs(other) => Reported::SameAs(other),
        }
    }
}

impl fmt::Display for CubeTally {
    /// `cube N/M`, the tours (or `=K`), the squares and the task's
    /// fingerprint, separated by tabs (no newline).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cube {}/{}\t", self.number, self.cubes)?;
        match self.tours {
            CubeTours::Counted(tours) => write!(f, "{tours}")?,
            CubeTours::SameAs(other) => write!(f, "={other}")?,
        }
        write!(f, "\t{}\t{}", self.squares.join(" "), self.task)
    }
}

/// A cube's or part's line as read: everything [`CubeTally`] or
/// [`PartTally`] prints (a part has no squares).
#[derive(Debug, PartialEq, Eq)]
struct Line<'a> {
    kind: LineKind,
    number: usize,
    cubes: usize,
    tours: Reported,
    squares: &'a str,
    task: Fingerprint,
}

/// Whether `text` is a number as knightsat writes it: digits alone, no
/// sign or leading zero.
fn canonical(text: &str) -> bool {
    !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'))
}

/// A part's line, without its line ending, read back in full: `part K/N`,
/// the tours and the fingerprint, numbers as [`PartTally`] writes them;
/// `None` for anything else.
fn parse_part_line(text: &str) -> Option<Line<'_>> {
    let fields: Vec<&str> = text.split('\t').collect();
    let [part, tours, task] = fields[..] else {
        return None;
    };
    let (part, parts) = part.strip_prefix("part ")?.split_once('/')?;
    if ![part, parts, tours].into_iter().all(canonical) {
        return None;
    }
    let (part, parts): (usize, usize) = (part.parse().ok()?, parts.parse().ok()?);
    if part == 0 || part > parts {
        return None;
    }
    Some(Line {
        kind: LineKind::Part,
        number: part,
        cubes: parts,
        tours: Reported::Tours(tours.parse().ok()?),
        squares: "",
        task: task.parse().ok()?,
    })
}

/// A cube's line, without its line ending, read back in full: four fields,
/// numbers written as [`CubeTally`] writes them (digits alone, no sign or
/// leading zero), squares, the fingerprint; or a part's
/// ([`parse_part_line`]); `None` for anything else.
fn parse_line(text: &str) -> Option<Line<'_>> {
    if text.starts_with("part ") {
        return parse_part_line(text);
    }
    let number_in =
        |text: &str| -> Option<usize> { canonical(text).then(|| text.parse().ok()).flatten() };
    let fields: Vec<&str> = text.split('\t').collect();
    let [cube, tours, squares, task] = fields[..] else {
        return None;
    };
    let (number, cubes) = cube.strip_prefix("cube ")?.split_once('/')?;
    let (number, cubes) = (number_in(number)?, number_in(cubes)?);
    let tours = match tours.strip_prefix('=') {
        Some(other) => CubeTours::SameAs(number_in(other)?),
        None => CubeTours::Counted(number_in(tours)?.try_into().ok()?),
    };
    let valid = |n: usize| (1..=cubes).contains(&n);
    let tours_valid = match tours {
        CubeTours::Counted(_) => true,
        CubeTours::SameAs(other) => valid(other) && other != number,
    };
    let squares_valid = !squares.is_empty()
        && squares
            .split(' ')
            .all(|name| !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric()));
    let line = Line {
        kind: LineKind::Cube,
        number,
        cubes,
        tours: tours.into(),
        squares,
        task: task.parse().ok()?,
    };
    (valid(number) && tours_valid && squares_valid).then_some(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_read_as_written_and_are_cut_to_the_split() {
        let range: CubeRange = "1200-1299".parse().unwrap();
        assert_eq!(
            range,
            CubeRange {
                first: 1200,
                last: 1299
            }
        );
        assert_eq!(range.cut_to(1250).unwrap().indices(), 1199..1250);
        assert_eq!("7".parse::<CubeRange>().unwrap().indices(), 6..7);
        for bad in ["0-3", "5-4", "", "a-b", "3-", "-3"] {
            assert!(bad.parse::<CubeRange>().is_err(), "{bad}");
        }
        assert!(range.cut_to(1199).is_err());
    }

    const TASK: &str = "depth 1; method backtrack";

    /// Lines as a task prints them: the header, then `lines`, each with
    /// the task's fingerprint and a newline.
    fn task_lines(lines: &[&str]) -> Vec<String> {
        let task = Fingerprint::of(TASK);
        std::iter::once(format!("{}\n", header_line(TASK)))
            .chain(lines.iter().map(|line| format!("{line}\t{task}\n")))
            .collect()
    }

    fn sum_of(lines: &[String]) -> Result<CubeSum, TallyError> {
        let mut sum = CubeSum::new();
        for (i, line) in lines.iter().enumerate() {
            sum.add(&format!("line {}", i + 1), line)?;
        }
        Ok(sum)
    }

    #[test]
    fn a_line_reads_back_as_it_was_written() {
        let task = Fingerprint::of(TASK);
        let tally = CubeTally {
            number: 3,
            cubes: 10,
            tours: CubeTours::Counted(42),
            squares: vec!["a1".into(), "b3".into()],
            task,
        };
        assert_eq!(tally.to_string(), format!("cube 3/10\t42\ta1 b3\t{task}"));
        let line = |tours| Line {
            kind: LineKind::Cube,
            number: 3,
            cubes: 10,
            tours,
            squares: "a1 b3",
            task,
        };
        assert_eq!(
            parse_line(&tally.to_string()),
            Some(line(CubeTours::Counted(42).into()))
        );
        let same = CubeTally {
            tours: CubeTours::SameAs(1),
            ..tally
        };
        assert_eq!(same.to_string(), format!("cube 3/10\t=1\ta1 b3\t{task}"));
        assert_eq!(
            parse_line(&same.to_string()),
            Some(line(CubeTours::SameAs(1).into()))
        );
        for bad in [
            "cube 11/10\t42\ta1",
            "cube 0/10\t42\ta1",
            "cube 3/10\t=3\ta1",
            "cube 3/10\t=11\ta1",
            "cube 3/10\t42",
            "cube 3/10\t42\t",
            "cube 3/10\t+42\ta1",
            "cube 3/10\t042\ta1",
            "cube 3/10\t42\ta1\textra",
        ] {
            assert_eq!(parse_line(&format!("{bad}\t{task}")), None, "{bad}");
        }
        assert_eq!(parse_line("cube 3/10\t42\ta1\t0123"), None);
        // A part's line, its tours past 64 bits.
        let tours: TourNumber = "340282366920938463463374607431768211456".parse().unwrap();
        let part = PartTally {
            part: PartOf { part: 2, parts: 7 },
            tours,
            task,
        };
        assert_eq!(part.to_string(), format!("part 2/7\t{tours}\t{task}"));
        assert_eq!(
            parse_line(&part.to_string()),
            Some(Line {
                kind: LineKind::Part,
                number: 2,
                cubes: 7,
                tours: Reported::Tours(tours),
                squares: "",
                task,
            })
        );
        for bad in [
            "part 0/7\t5",
            "part 8/7\t5",
            "part 2/07\t5",
            "part 2/7\t05",
            "part 2/7\t5\ta1",
        ] {
            assert_eq!(parse_line(&format!("{bad}\t{task}")), None, "{bad}");
        }
    }

    #[test]
    fn a_line_cut_short_or_without_a_header_or_of_another_task_is_refused() {
        let whole = task_lines(&["cube 1/12\t12\ta1 b3", "cube 11/12\t=10\tc1 a2"]);
        // Cut anywhere: at its newline, inside the fingerprint, the squares
        // or the count ("=10" cut to "=1").
        for cut in [1, 17, 20, whole[2].len() - 2] {
            let mut lines = whole.clone();
            lines[2].truncate(whole[2].len() - cut);
            let error = sum_of(&lines).unwrap_err();
            assert!(
                matches!(
                    error,
                    TallyError::CutShort { .. } | TallyError::NotATally { .. }
                ),
                "{cut}: {error}"
            );
        }
        // Without the header.
        assert_eq!(
            sum_of(&whole[1..]).unwrap_err(),
            TallyError::NoHeader {
                place: "line 1".into()
            }
        );
        // Another task's header, or its lines.
        let other = "depth 2; method backtrack";
        let mut two = whole.clone();
        two.push(format!("{}\n", header_line(other)));
        assert!(matches!(
            sum_of(&two).unwrap_err(),
            TallyError::TwoProblems { .. }
        ));
        let mut stranger = whole.clone();
        stranger[2] = format!("cube 11/12\t5\tc1 a2\t{}\n", Fingerprint::of(other));
        assert!(matches!(
            sum_of(&stranger).unwrap_err(),
            TallyError::TwoProblems { .. }
        ));
        // A header edited after it was written.
        let mut edited = whole.clone();
        edited[0] = edited[0].replace("depth 1", "depth 2");
        assert!(matches!(
            sum_of(&edited).unwrap_err(),
            TallyError::NotATally { .. }
        ));
        // The squares are checked against the cube's own.
        let sum = sum_of(&whole).unwrap();
        assert_eq!(sum.check_cube(0, "a1 b3"), Ok(()));
        assert_eq!(sum.check_cube(10, "c1 a2"), Ok(()));
        assert!(matches!(
            sum.check_cube(10, "z9 z9"),
            Err(TallyError::WrongSquares { number: 11, .. })
        ));
    }

    #[test]
    fn a_cube_given_as_many_tours_as_another_takes_its_count() {
        let lines = task_lines(&["cube 1/3\t5\ta1", "cube 2/3\t=1\ta2", "cube 3/3\t=1\ta3"]);
        assert_eq!(sum_of(&lines).unwrap().total(), Ok(TourNumber::from(15u64)));
        let one_two = CubeRange { first: 1, last: 2 };
        assert_eq!(
            sum_of(&lines[..3]).unwrap().total_of(one_two),
            Ok(TourNumber::from(10u64))
        );
        // The cube referred to outside the range summed, or itself a reference.
        let outside = sum_of(&[lines[0].clone(), lines[3].clone()]).unwrap();
        let three = CubeRange { first: 3, last: 3 };
        assert!(matches!(
            outside.total_of(three),
            Err(TallyError::SameAsUncounted {
                number: 3,
                other: 1,
                ..
            })
        ));
        let chain = task_lines(&["cube 1/3\t=2\ta1", "cube 2/3\t=3\ta2", "cube 3/3\t4\ta3"]);
        assert!(matches!(
            sum_of(&chain).unwrap().total(),
            Err(TallyError::SameAsAReference {
                number: 1,
                other: 2,
                further: 3,
                ..
            })
        ));
    }
}
