//! The sum of tally lines: every cube (or part) of one split exactly
//! once, from tasks of one problem, each line whole.

use super::{
    fnv1a, parse_line, read_header, CubeRange, Fingerprint, Line, LineKind, Reported, TallyError,
};
use crate::count::number::TourNumber;

/// Adds up the lines of cube tallies, from any number of tasks' outputs in
/// any order, and refuses the sum unless every cube of the split was
/// counted exactly once, by tasks of one problem, each line whole.
///
/// The squares of each line are checked against the cube its number names
/// by whoever knows the problem (`CubeSum::check_cube`, which
/// [`crate::count::sum_tallies`] does for every cube of the record).
#[derive(Debug, Default)]
pub struct CubeSum {
    /// The task's record and fingerprint, from the first header line, and
    /// where that line was.
    task: Option<(String, Fingerprint, String)>,
    /// Whether the header heads cubes or parts.
    kind: Option<LineKind>,
    /// The number of cubes in the split, from the first line.
    cubes: Option<usize>,
    /// Where each cube was counted, by number − 1 (empty: not yet).
    seen: Vec<Option<String>>,
    /// What each cube seen reported, by number − 1.
    reported: Vec<Reported>,
    /// The fingerprint of each cube's squares as its line gave them, by
    /// number − 1.
    squares: Vec<u64>,
}

impl CubeSum {
    /// An empty sum.
    pub fn new() -> CubeSum {
        CubeSum::default()
    }

    /// Adds one line, `text` with its line ending, `place` saying where it
    /// was (file and line number, for the message). Blank lines are
    /// skipped. A header line records the task, and must record the same
    /// one as any header before it; a cube's line must be whole (its four
    /// fields and its newline), come after a header, carry that header's
    /// fingerprint, and name a cube of the same split not seen before.
    /// Anything else is refused.
    pub fn add(&mut self, place: &str, text: &str) -> Result<(), TallyError> {
        if text.trim().is_empty() {
            return Ok(());
        }
        let shown = || crate::model::text::shown(text.trim_end());
        let Some(line) = text
            .strip_suffix('\n')
            .map(|line| line.strip_suffix('\r').unwrap_or(line))
        else {
            return Err(TallyError::CutShort {
                place: place.to_string(),
                text: shown(),
            });
        };
        if line.starts_with('#') {
            return self.add_header(place, line);
        }
        let Some(Line {
            kind,
            number,
            cubes,
            tours,
            squares,
            task,
        }) = parse_line(line)
        else {
            return Err(TallyError::NotATally {
                place: place.to_string(),
                text: shown(),
            });
        };
        let Some((_, expected_task, header)) = &self.task else {
            return Err(TallyError::NoHeader {
                place: place.to_string(),
            });
        };
        if task != *expected_task || self.kind != Some(kind) {
            return Err(TallyError::TwoProblems {
                place: place.to_string(),
                header: header.clone(),
            });
        }
        let expected = *self.cubes.get_or_insert(cubes);
        if cubes != expected {
            return Err(TallyError::TwoSplits {
                kind,
                place: place.to_string(),
                cubes,
                expected,
            });
        }
        if self.seen.is_empty() {
            self.seen = vec![None; cubes];
            self.reported = vec![Reported::Tours(TourNumber::ZERO); cubes];
            self.squares = vec![0; cubes];
        }
        let seen = &mut self.seen[number - 1];
        if let Some(first) = seen {
            return Err(TallyError::CountedTwice {
                kind,
                number,
                cubes,
                first: first.clone(),
                again: place.to_string(),
            });
        }
        *seen = Some(place.to_string());
        self.reported[number - 1] = tours;
        self.squares[number - 1] = fnv1a(squares.as_bytes());
        Ok(())
    }

    /// A header line (without its line ending): the first records the
    /// task, any later one must record the same.
    fn add_header(&mut self, place: &str, line: &str) -> Result<(), TallyError> {
        let Some((kind, fingerprint, record)) = read_header(line) else {
            return Err(TallyError::NotATally {
                place: place.to_string(),
                text: crate::model::text::shown(line),
            });
        };
        match &self.task {
            None => {
                self.task = Some((record.to_string(), fingerprint, place.to_string()));
                self.kind = Some(kind);
                Ok(())
            }
            Some((first, _, _)) if first == record && self.kind == Some(kind) => Ok(()),
            Some((_, _, header)) => Err(TallyError::TwoProblems {
                place: place.to_string(),
                header: header.clone(),
            }),
        }
    }

    /// The task's record, from the first header line, and where that line
    /// was.
    pub(crate) fn task(&self) -> Option<(&str, &str)> {
        self.task
            .as_ref()
            .map(|(record, _, place)| (record.as_str(), place.as_str()))
    }

    /// The number of cubes of the split the lines count, once a cube's
    /// line was added.
    pub(crate) fn cubes(&self) -> Option<usize> {
        self.cubes
    }

    /// Whether the lines count cubes or parts, once a header was added.
    pub(crate) fn kind(&self) -> Option<LineKind> {
        self.kind
    }

    /// Checks the line of the cube at position `index` (from 0), if one
    /// was added, against the cube's own squares, `squares` by name and
    /// separated by spaces: a line whose squares are not its cube's is
    /// refused.
    pub(crate) fn check_cube(&self, index: usize, squares: &str) -> Result<(), TallyError> {
        match self.seen.get(index) {
            Some(Some(place)) if self.squares[index] != fnv1a(squares.as_bytes()) => {
                Err(TallyError::WrongSquares {
                    place: place.clone(),
                    number: index + 1,
                    squares: squares.to_string(),
                })
            }
            _ => Ok(()),
        }
    }

    /// The tours of the cubes numbered `inside` (indices from 0), each
    /// reported once; a cube reported as having as many as another takes
    /// that one's count, which must be among the lines and counted itself.
    fn tours_of(&self, inside: std::ops::Range<usize>) -> Result<TourNumber, TallyError> {
        let mut tours = TourNumber::ZERO;
        for i in inside {
            let counted = match self.reported[i] {
                Reported::Tours(counted) => counted,
                Reported::SameAs(other) => match self.reported.get(other - 1) {
                    Some(&Reported::Tours(counted)) if self.seen[other - 1].is_some() => counted,
                    Some(&Reported::SameAs(further)) if self.seen[other - 1].is_some() => {
                        return Err(TallyError::SameAsAReference {
                            place: self.seen[i].clone().unwrap_or_default(),
                            number: i + 1,
                            other,
                            further,
                        })
                    }
                    _ => {
                        return Err(TallyError::SameAsUncounted {
                            place: self.seen[i].clone().unwrap_or_default(),
                            number: i + 1,
                            other,
                        })
                    }
                },
            };
            tours = tours.checked_add(counted).ok_or(TallyError::TooManyTours)?;
        }
        Ok(tours)
    }

    /// The total, when every cube of the split was counted.
    pub(crate) fn total(&self) -> Result<TourNumber, TallyError> {
        let Some(cubes) = self.cubes else {
            return Err(TallyError::Nothing);
        };
        self.each_seen(cubes, 0..cubes)?;
        self.tours_of(0..cubes)
    }

    /// The total of the cubes numbered `range` (cut to the split's last
    /// cube), when each of them was counted exactly once: the sum of one
    /// task's share, or of several tasks'. Lines of other cubes may be
    /// there too (other tasks' outputs), for the cubes of the range that
    /// take their count from one of them.
    pub(crate) fn total_of(&self, range: CubeRange) -> Result<TourNumber, TallyError> {
        let Some(cubes) = self.cubes else {
            return Err(TallyError::Nothing);
        };
        let range = range.cut_to(cubes)?;
        self.each_seen(cubes, range.indices())?;
        self.tours_of(range.indices())
    }

    /// Refuses the sum unless every cube at `indices` (from 0) of a split
    /// of `cubes` was counted, naming those that were not.
    fn each_seen(&self, cubes: usize, indices: std::ops::Range<usize>) -> Result<(), TallyError> {
        let missing: Vec<usize> = indices
            .filter(|&i| self.seen[i].is_none())
            .map(|i| i + 1)
            .collect();
        if missing.is_empty() {
            return Ok(());
        }
        Err(TallyError::Missing {
            kind: self.kind.unwrap_or(LineKind::Cube),
            cubes,
            missing,
        })
    }
}
