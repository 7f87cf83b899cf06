//! Cubes by number, as cluster tasks count them: the range of cube numbers
//! one task takes, the line it prints for each cube it counts, and the sum
//! of such lines, which holds only when every cube was counted exactly
//! once.
//!
//! Cubes are numbered from 1 in the order [`crate::cubes::prefixes`] walks
//! them, which is the order of the files `cubes --split` writes and of its
//! manifest's lines: cube 7 is `cube-000007.cnf`, on line 7 after the
//! header. A task that counts cubes 1200 to 1299 prints one line per cube,
//! `cube 1200/4410`, its tours and its squares, separated by tabs (the
//! cube's number and the number of cubes come first), so that [`CubeSum`]
//! can tell a missing or a repeated cube from the lines alone, whichever
//! task printed them. A cube that a symmetry of the problem maps onto a
//! lower-numbered one has as many tours: its line says `=K` instead of a
//! count (see [`CubeTours::SameAs`]), and the sum takes cube K's count.

use std::fmt;
use std::str::FromStr;

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
    pub fn within(self, cubes: usize) -> Result<CubeRange, TallyError> {
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

impl fmt::Display for CubeTally {
    /// `cube N/M`, the tours (or `=K`) and the squares, separated by tabs
    /// (no newline).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cube {}/{}\t", self.number, self.cubes)?;
        match self.tours {
            CubeTours::Counted(tours) => write!(f, "{tours}")?,
            CubeTours::SameAs(other) => write!(f, "={other}")?,
        }
        write!(f, "\t{}", self.squares.join(" "))
    }
}

/// What the sum of a tally's lines needs of each: the cube's number, the
/// number of cubes and the tours (the squares are for people).
fn parse_line(text: &str) -> Option<(usize, usize, CubeTours)> {
    let mut fields = text.trim_end_matches(['\r', '\n']).split('\t');
    let (number, cubes) = fields.next()?.strip_prefix("cube ")?.split_once('/')?;
    let (number, cubes) = (number.parse().ok()?, cubes.parse().ok()?);
    let tours = fields.next()?;
    let tours = match tours.strip_prefix('=') {
        Some(other) => CubeTours::SameAs(other.parse().ok()?),
        None => CubeTours::Counted(tours.parse().ok()?),
    };
    let valid = |n: usize| (1..=cubes).contains(&n);
    let tours_valid = match tours {
        CubeTours::Counted(_) => true,
        CubeTours::SameAs(other) => valid(other) && other != number,
    };
    (valid(number) && tours_valid).then_some((number, cubes, tours))
}

/// Adds up the lines of cube tallies, from any number of tasks' outputs in
/// any order, and refuses the sum unless every cube of the split was
/// counted exactly once.
#[derive(Debug, Default)]
pub struct CubeSum {
    /// The number of cubes in the split, from the first line.
    cubes: Option<usize>,
    /// Where each cube was counted, by number − 1 (empty: not yet).
    seen: Vec<Option<String>>,
    /// What each cube seen reported, by number − 1.
    reported: Vec<CubeTours>,
}

impl CubeSum {
    /// An empty sum.
    pub fn new() -> CubeSum {
        CubeSum::default()
    }

    /// Adds one line, `place` saying where it was (file and line number, for
    /// the message). Blank lines are skipped; anything else that is not a
    /// cube's tally, a cube of another split or a cube seen before is
    /// refused.
    pub fn add(&mut self, place: &str, text: &str) -> Result<(), TallyError> {
        if text.trim().is_empty() {
            return Ok(());
        }
        let Some((number, cubes, tours)) = parse_line(text) else {
            return Err(TallyError::NotATally {
                place: place.to_string(),
                text: text.trim_end().chars().take(80).collect(),
            });
        };
        let expected = *self.cubes.get_or_insert(cubes);
        if cubes != expected {
            return Err(TallyError::TwoSplits {
                place: place.to_string(),
                cubes,
                expected,
            });
        }
        if self.seen.is_empty() {
            self.seen = vec![None; cubes];
            self.reported = vec![CubeTours::Counted(0); cubes];
        }
        let seen = &mut self.seen[number - 1];
        if let Some(first) = seen {
            return Err(TallyError::CountedTwice {
                number,
                cubes,
                first: first.clone(),
                again: place.to_string(),
            });
        }
        *seen = Some(place.to_string());
        self.reported[number - 1] = tours;
        Ok(())
    }

    /// The tours of the cubes numbered `inside` (indices from 0), each
    /// reported once; a cube reported as having as many as another takes
    /// that one's count, which must be among the lines and counted itself.
    fn tours_of(&self, inside: std::ops::Range<usize>) -> Result<u64, TallyError> {
        let mut tours = 0u64;
        for i in inside {
            let counted = match self.reported[i] {
                CubeTours::Counted(counted) => counted,
                CubeTours::SameAs(other) => match self.reported.get(other - 1) {
                    Some(&CubeTours::Counted(counted)) if self.seen[other - 1].is_some() => counted,
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
    pub fn total(&self) -> Result<u64, TallyError> {
        let Some(cubes) = self.cubes else {
            return Err(TallyError::Nothing);
        };
        let missing: Vec<usize> = (1..=cubes)
            .filter(|&number| self.seen[number - 1].is_none())
            .collect();
        if !missing.is_empty() {
            return Err(TallyError::Missing { cubes, missing });
        }
        self.tours_of(0..cubes)
    }

    /// The total of the cubes numbered `range` (cut to the split's last
    /// cube), when each of them was counted exactly once: the sum of one
    /// task's share, or of several tasks'. Lines of other cubes may be
    /// there too (other tasks' outputs), for the cubes of the range that
    /// take their count from one of them.
    pub fn total_of(&self, range: CubeRange) -> Result<u64, TallyError> {
        let Some(cubes) = self.cubes else {
            return Err(TallyError::Nothing);
        };
        let range = range.within(cubes)?;
        let missing: Vec<usize> = range
            .indices()
            .filter(|&i| self.seen[i].is_none())
            .map(|i| i + 1)
            .collect();
        if !missing.is_empty() {
            return Err(TallyError::Missing { cubes, missing });
        }
        self.tours_of(range.indices())
    }
}

/// Why cube tallies do not add up, or a range of cubes does not fit.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum TallyError {
    /// A line that is not a cube's tally.
    #[error("{place} is not a cube's count (cube N/CUBES, a tab, the tours): '{text}'")]
    NotATally {
        /// File and line.
        place: String,
        /// The line (its first 80 characters).
        text: String,
    },
    /// Lines from splits of different sizes.
    #[error("{place} counts a cube of {cubes}, the lines before it cubes of {expected}: these are counts of two different splits")]
    TwoSplits {
        /// File and line.
        place: String,
        /// The line's number of cubes.
        cubes: usize,
        /// The number of cubes before it.
        expected: usize,
    },
    /// A cube counted twice: the sum would count its tours twice.
    #[error("cube {number} of {cubes} is counted twice ({first} and {again}): its tours would count twice")]
    CountedTwice {
        /// The cube's number.
        number: usize,
        /// The number of cubes.
        cubes: usize,
        /// Where it was counted first.
        first: String,
        /// Where it was counted again.
        again: String,
    },
    /// Cubes not counted: the sum would be short.
    #[error("{} of {cubes} cubes are not counted ({}): the sum would be short", missing.len(), list(missing))]
    Missing {
        /// The number of cubes.
        cubes: usize,
        /// The missing cubes' numbers, ascending.
        missing: Vec<usize>,
    },
    /// A cube reported as having as many tours as another, which is not
    /// counted among the lines summed.
    #[error("{place} gives cube {number} as many tours as cube {other}, which no line counts: add the output of the task that counted cube {other}")]
    SameAsUncounted {
        /// Where the cube was reported.
        place: String,
        /// The cube's number.
        number: usize,
        /// The cube it refers to.
        other: usize,
    },
    /// No line to add.
    #[error("no cube counts to add up")]
    Nothing,
    /// A sum beyond 2^64 − 1 tours.
    #[error("the sum is more than 18446744073709551615 tours")]
    TooManyTours,
    /// A range of cubes that starts past the last cube.
    #[error("cube {first} does not exist: there are {cubes} cubes")]
    RangeBeyondCubes {
        /// The range's first number.
        first: usize,
        /// The number of cubes.
        cubes: usize,
    },
}

/// Cube numbers as runs (`3-7, 12`), the first ten runs and how many more.
fn list(numbers: &[usize]) -> String {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for &n in numbers {
        match runs.last_mut() {
            Some((_, last)) if *last + 1 == n => *last = n,
            _ => runs.push((n, n)),
        }
    }
    let mut words: Vec<String> = runs
        .iter()
        .take(10)
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect();
    if runs.len() > 10 {
        words.push(format!("and {} more runs", runs.len() - 10));
    }
    format!("cube {}", words.join(", "))
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
        assert_eq!(range.within(1250).unwrap().indices(), 1199..1250);
        assert_eq!("7".parse::<CubeRange>().unwrap().indices(), 6..7);
        for bad in ["0-3", "5-4", "", "a-b", "3-", "-3"] {
            assert!(bad.parse::<CubeRange>().is_err(), "{bad}");
        }
        assert!(range.within(1199).is_err());
    }

    #[test]
    fn a_line_reads_back_as_it_was_written() {
        let tally = CubeTally {
            number: 3,
            cubes: 10,
            tours: CubeTours::Counted(42),
            squares: vec!["a1".into(), "b3".into()],
        };
        assert_eq!(tally.to_string(), "cube 3/10\t42\ta1 b3");
        let counted = Some((3, 10, CubeTours::Counted(42)));
        assert_eq!(parse_line(&tally.to_string()), counted);
        let same = CubeTally {
            tours: CubeTours::SameAs(1),
            ..tally
        };
        assert_eq!(same.to_string(), "cube 3/10\t=1\ta1 b3");
        let same_as_one = Some((3, 10, CubeTours::SameAs(1)));
        assert_eq!(parse_line(&same.to_string()), same_as_one);
        for bad in [
            "cube 11/10\t42",
            "cube 0/10\t42",
            "cube 3/10\t=3",
            "cube 3/10\t=11",
        ] {
            assert_eq!(parse_line(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_cube_given_as_many_tours_as_another_takes_its_count() {
        let mut sum = CubeSum::new();
        for (i, line) in ["cube 1/3\t5", "cube 2/3\t=1", "cube 3/3\t=1"]
            .iter()
            .enumerate()
        {
            sum.add(&format!("line {i}"), line).unwrap();
        }
        assert_eq!(sum.total(), Ok(15));
        let one_two = CubeRange { first: 1, last: 2 };
        let mut part = CubeSum::new();
        part.add("a", "cube 1/3\t5").unwrap();
        part.add("b", "cube 2/3\t=1").unwrap();
        assert_eq!(part.total_of(one_two), Ok(10));
        // The cube referred to outside the range summed, or itself a reference.
        let mut outside = CubeSum::new();
        outside.add("a", "cube 2/3\t=1").unwrap();
        let two = CubeRange { first: 2, last: 2 };
        assert!(matches!(
            outside.total_of(two),
            Err(TallyError::SameAsUncounted {
                number: 2,
                other: 1,
                ..
            })
        ));
        let mut chain = CubeSum::new();
        for line in ["cube 1/3\t=2", "cube 2/3\t=3", "cube 3/3\t4"] {
            chain.add(line, line).unwrap();
        }
        assert!(chain.total().is_err());
    }

    #[test]
    fn missing_numbers_are_listed_as_runs() {
        assert_eq!(list(&[1, 2, 3, 7, 9, 10]), "cube 1-3, 7, 9-10");
    }
}
