//! DIMACS CNF out, knightsat's provenance comments back in, and the readers
//! for what SAT solvers print.

use std::io::{self, BufRead, Write};
use std::path::Path;

use super::{ClauseSink, Lit, Stats};
use crate::board::Board;
use crate::encode::{self, Options};
use crate::error::Error;

/// The first word of the first comment line of every CNF knightsat writes.
const SIGNATURE: &str = "c knightsat ";

/// A sink that writes clauses as DIMACS lines (`1 -2 3 0`).
///
/// An I/O error is kept and reported by [`DimacsWriter::finish`]; clauses
/// after it are dropped.
pub struct DimacsWriter<W: Write> {
    out: W,
    vars: usize,
    clauses: usize,
    line: Vec<u8>,
    error: Option<io::Error>,
}

impl<W: Write> DimacsWriter<W> {
    /// A writer of clause lines onto `out` (no header: see [`write_cnf`]).
    pub fn new(out: W) -> DimacsWriter<W> {
        DimacsWriter {
            out,
            vars: 0,
            clauses: 0,
            line: Vec::with_capacity(128),
            error: None,
        }
    }

    /// Flushes and returns the output and the number of clauses written.
    pub fn finish(mut self) -> io::Result<(W, usize)> {
        if let Some(error) = self.error.take() {
            return Err(error);
        }
        self.out.flush()?;
        Ok((self.out, self.clauses))
    }
}

impl<W: Write> ClauseSink for DimacsWriter<W> {
    fn add_clause(&mut self, clause: &[Lit]) {
        if self.error.is_some() {
            return;
        }
        self.line.clear();
        let mut number = itoa::Buffer::new();
        for lit in clause {
            self.line
                .extend_from_slice(number.format(lit.to_dimacs()).as_bytes());
            self.line.push(b' ');
        }
        self.line.extend_from_slice(b"0\n");
        match self.out.write_all(&self.line) {
            Ok(()) => self.clauses += 1,
            Err(error) => self.error = Some(error),
        }
    }

    fn var_count_mut(&mut self) -> &mut usize {
        &mut self.vars
    }
}

/// Counts the formula for `options` without storing it.
pub fn stats(options: &Options) -> Stats {
    let mut stats = Stats::default();
    encode::encode(options, &mut stats);
    stats
}

/// Writes the complete DIMACS file for `options`: provenance comments, the
/// exact `p cnf V C` header, then the clauses. Returns the counts.
///
/// The formula is encoded twice, once to count and once to write, so memory
/// stays bounded by the board and not by the formula's size.
pub fn write_cnf(options: &Options, out: impl Write) -> Result<Stats, Error> {
    let stats = stats(options);
    let io_error = |e| Error::io("writing the CNF", e);
    let mut out = io::BufWriter::with_capacity(1 << 16, out);
    write_comments(options, &stats, &mut out).map_err(io_error)?;
    writeln!(out, "p cnf {} {}", stats.vars, stats.clauses).map_err(io_error)?;
    let mut writer = DimacsWriter::new(out);
    encode::encode(options, &mut writer);
    let (mut out, written) = writer.finish().map_err(io_error)?;
    out.flush().map_err(io_error)?;
    assert_eq!(written, stats.clauses, "the encoder is not deterministic");
    Ok(stats)
}

/// Writes the DIMACS file for `options` to `path` atomically: into a
/// temporary file beside it, renamed onto `path` only once complete, so a
/// failed or interrupted run never leaves a truncated CNF under that name.
/// A path that exists and is not a regular file (`/dev/null`, a named pipe)
/// is written directly: renaming onto it would replace the device.
pub fn write_cnf_file(options: &Options, path: &Path) -> Result<Stats, Error> {
    let context = || format!("writing {}", path.display());
    if std::fs::metadata(path).is_ok_and(|meta| !meta.is_file()) {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| Error::io(context(), e))?;
        return write_cnf(options, file);
    }
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let mut file = tempfile::NamedTempFile::new_in(dir).map_err(|e| Error::io(context(), e))?;
    let stats = write_cnf(options, &mut file)?;
    #[cfg(unix)]
    {
        // Temporary files are created private; a CNF is an ordinary output file.
        use std::os::unix::fs::PermissionsExt;
        file.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644))
            .map_err(|e| Error::io(context(), e))?;
    }
    file.persist(path)
        .map_err(|e| Error::io(context(), e.error))?;
    Ok(stats)
}

fn square_option(board: &Board, square: Option<usize>) -> String {
    square.map_or_else(|| "none".to_string(), |s| board.name(s))
}

/// The comment lines: enough to rebuild the options with [`read_options`].
fn write_comments(options: &Options, stats: &Stats, out: &mut impl Write) -> io::Result<()> {
    let board = &options.board;
    writeln!(
        out,
        "{SIGNATURE}{}: knight's tour, time-indexed encoding",
        env!("CARGO_PKG_VERSION")
    )?;
    writeln!(out, "c option board {}", board.shape())?;
    let holes: Vec<String> = board.holes().iter().map(ToString::to_string).collect();
    let holes = if holes.is_empty() {
        "none".to_string()
    } else {
        holes.join(",")
    };
    writeln!(out, "c option holes {holes}")?;
    writeln!(out, "c option leaper {}", board.leaper())?;
    writeln!(out, "c option closed {}", options.closed)?;
    writeln!(
        out,
        "c option start {}",
        square_option(board, options.start)
    )?;
    writeln!(out, "c option end {}", square_option(board, options.end))?;
    let max_len = options
        .max_clause_len
        .map_or_else(|| "none".to_string(), |k| k.to_string());
    writeln!(out, "c option max-clause-len {max_len}")?;
    writeln!(out, "c option amo {}", options.amo)?;
    writeln!(out, "c option predecessor {}", options.predecessor)?;
    writeln!(out, "c option parity {}", options.parity)?;
    writeln!(out, "c option reachability {}", options.reachability)?;
    writeln!(
        out,
        "c option symmetry-breaking {}",
        options.symmetry_breaking
    )?;
    let blocks = options
        .blocks
        .map_or_else(|| "none".to_string(), |(r, c)| format!("{r}x{c}"));
    writeln!(out, "c option blocks {blocks}")?;
    let clues: Vec<String> = options
        .clues
        .iter()
        .map(|&(step, square)| format!("{}={}", step + 1, board.name(square)))
        .collect();
    let clues = if clues.is_empty() {
        "none".to_string()
    } else {
        clues.join(",")
    };
    writeln!(out, "c option clues {clues}")?;
    if options.start_fixed_by_default() {
        writeln!(
            out,
            "c note closed tour with no start, end or clue given: start fixed at {}, which loses no tour",
            board.name(0)
        )?;
    }
    writeln!(out, "c variables {}", options.vars().describe(board))?;
    writeln!(
        out,
        "c pruned x variables (parity, reachability, symmetry breaking) occur in no clause; their values mean nothing"
    )?;
    for family in &stats.families {
        writeln!(
            out,
            "c family {} clauses {} literals {} aux-vars {}",
            family.name, family.clauses, family.literals, family.aux_vars
        )?;
    }
    Ok(())
}

/// What a knightsat CNF's comments say: the options and the header's counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CnfInfo {
    /// The options the CNF was written with.
    pub options: Options,
    /// Variables declared by the `p cnf` header.
    pub vars: usize,
    /// Clauses declared by the `p cnf` header.
    pub clauses: usize,
}

/// Reads the options back from a CNF's comments, stopping at the header.
pub fn read_options(input: impl BufRead) -> Result<CnfInfo, Error> {
    let not_ours = || {
        Error::NotKnightsatCnf(
            "not a knightsat CNF: the comment lines that record board and options are missing"
                .to_string(),
        )
    };
    let mut lines = input.lines();
    let first = lines
        .next()
        .transpose()
        .map_err(|e| Error::io("reading the CNF", e))?
        .ok_or_else(not_ours)?;
    if !first.starts_with(SIGNATURE) {
        return Err(not_ours());
    }
    let mut values: Vec<(String, String)> = Vec::new();
    for line in lines {
        let line = line.map_err(|e| Error::io("reading the CNF", e))?;
        if let Some(rest) = line.strip_prefix("c option ") {
            let (key, value) = rest.split_once(' ').ok_or_else(not_ours)?;
            values.push((key.to_string(), value.to_string()));
        } else if let Some(header) = line.strip_prefix("p cnf ") {
            let board = board_from_options(&values)?.ok_or_else(not_ours)?;
            // An option a CNF does not mention did not exist when it was
            // written: start from everything off, as such versions encoded.
            let mut options = Options::naive(board);
            for (key, value) in &values {
                apply_option(&mut options, key, value)?;
            }
            options.clues.sort_unstable();
            let counts: Vec<usize> = header
                .split_whitespace()
                .map(str::parse)
                .collect::<Result<_, _>>()
                .map_err(|_| Error::NotKnightsatCnf(format!("bad header 'p cnf {header}'")))?;
            let [vars, clauses] = counts[..] else {
                return Err(Error::NotKnightsatCnf(format!(
                    "bad header 'p cnf {header}'"
                )));
            };
            options.validate()?;
            return Ok(CnfInfo {
                options,
                vars,
                clauses,
            });
        } else if !line.starts_with('c') {
            break;
        }
    }
    Err(not_ours())
}

/// The board the `board`, `holes` and `leaper` options describe, if `board` is there.
fn board_from_options(values: &[(String, String)]) -> Result<Option<Board>, Error> {
    let value = |key: &str| {
        values
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };
    let Some(shape) = value("board") else {
        return Ok(None);
    };
    let mut board: Board = shape.parse()?;
    if let Some(holes) = value("holes").filter(|&holes| holes != "none") {
        board = board.with_holes(&holes.split(',').collect::<Vec<_>>())?;
    }
    if let Some(leaper) = value("leaper") {
        board = board.with_leaper(leaper.parse()?);
    }
    Ok(Some(board))
}

fn apply_option(options: &mut Options, key: &str, value: &str) -> Result<(), Error> {
    let square = |value: &str| -> Result<Option<usize>, Error> {
        match value {
            "none" => Ok(None),
            name => options.board.parse_square(name).map(Some),
        }
    };
    let bad =
        || Error::NotKnightsatCnf(format!("unreadable option in CNF comments: {key} {value}"));
    match key {
        "board" | "holes" | "leaper" => {}
        "clues" => {
            options.clues = match value {
                "none" => Vec::new(),
                list => list
                    .split(',')
                    .map(|clue| crate::encode::parse_clue(&options.board, clue))
                    .collect::<Result<_, _>>()?,
            }
        }
        "closed" => options.closed = value.parse().map_err(|_| bad())?,
        "start" => options.start = square(value)?,
        "end" => options.end = square(value)?,
        "max-clause-len" => {
            options.max_clause_len = match value {
                "none" => None,
                k => Some(k.parse().map_err(|_| bad())?),
            }
        }
        "amo" => options.amo = value.parse()?,
        "predecessor" => options.predecessor = value.parse().map_err(|_| bad())?,
        "parity" => options.parity = value.parse().map_err(|_| bad())?,
        "reachability" => options.reachability = value.parse().map_err(|_| bad())?,
        "symmetry-breaking" => options.symmetry_breaking = value.parse().map_err(|_| bad())?,
        "blocks" => {
            options.blocks = match value {
                "none" => None,
                bands => {
                    let (r, c) = bands.split_once('x').ok_or_else(bad)?;
                    Some((r.parse().map_err(|_| bad())?, c.parse().map_err(|_| bad())?))
                }
            }
        }
        _ => return Err(bad()),
    }
    Ok(())
}

/// What a solver answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Satisfiable, with the model: `model[v]` is the value of variable v
    /// (index 0 unused), `None` where the solver did not say.
    Sat(Vec<Option<bool>>),
    /// Unsatisfiable.
    Unsat,
    /// The solver gave up (`s UNKNOWN`, MiniSat's `INDET`).
    Unknown,
}

/// Reads a solver's output: SAT-competition format (`s SATISFIABLE` and `v …
/// 0` lines, comment lines `c …`), MiniSat's result file (`SAT` then one line
/// of literals), or a bare list of literals ending in 0.
pub fn read_answer(input: impl BufRead) -> Result<Answer, Error> {
    let mut status: Option<(usize, Answer)> = None;
    let mut model: Vec<Option<bool>> = vec![None];
    let mut saw_literals = false;
    let mut terminated = false;
    let mut last_line = 0;
    for (index, line) in input.lines().enumerate() {
        let number = index + 1;
        last_line = number;
        let line = line.map_err(|e| Error::io("reading the solver output", e))?;
        let line = line.trim();
        let error = |message: String| Error::SolverOutput {
            line: number,
            message,
        };
        let literals = match line.split_once(char::is_whitespace).unwrap_or((line, "")) {
            ("", _) | ("c", _) => continue,
            ("s", rest) => {
                let answer = match rest.trim() {
                    "SATISFIABLE" => Answer::Sat(Vec::new()),
                    "UNSATISFIABLE" => Answer::Unsat,
                    "UNKNOWN" | "INDETERMINATE" => Answer::Unknown,
                    other => return Err(error(format!("unknown status '{other}'"))),
                };
                set_status(&mut status, number, answer)?;
                continue;
            }
            ("SAT", "") => {
                set_status(&mut status, number, Answer::Sat(Vec::new()))?;
                continue;
            }
            ("UNSAT", "") => {
                set_status(&mut status, number, Answer::Unsat)?;
                continue;
            }
            ("INDET", "") => {
                set_status(&mut status, number, Answer::Unknown)?;
                continue;
            }
            ("v", rest) => rest,
            _ => line,
        };
        for token in literals.split_whitespace() {
            if terminated {
                return Err(error(
                    "literals after the model's terminating 0".to_string(),
                ));
            }
            let lit: i64 = token
                .parse()
                .map_err(|_| error(format!("'{token}' is not a literal")))?;
            saw_literals = true;
            if lit == 0 {
                terminated = true;
                continue;
            }
            let var = lit.unsigned_abs() as usize;
            if var >= model.len() {
                model.resize(var + 1, None);
            }
            let value = lit > 0;
            if model[var] == Some(!value) {
                return Err(error(format!("variable {var} is given both values")));
            }
            model[var] = Some(value);
        }
    }
    match status {
        Some((_, Answer::Unsat)) if saw_literals => Err(Error::SolverOutput {
            line: last_line,
            message: "literals given for an unsatisfiable answer".to_string(),
        }),
        Some((_, Answer::Unsat)) => Ok(Answer::Unsat),
        Some((_, Answer::Unknown)) => Ok(Answer::Unknown),
        Some((line, Answer::Sat(_))) if !saw_literals => Err(Error::SolverOutput {
            line,
            message: "satisfiable, but no model follows (run the solver without -n / quiet model options)"
                .to_string(),
        }),
        None if !saw_literals => Err(Error::SolverOutput {
            line: last_line,
            message: "no answer: neither a status line (s SATISFIABLE, SAT, UNSAT) nor a model"
                .to_string(),
        }),
        _ if !terminated => Err(Error::SolverOutput {
            line: last_line,
            message: "the model has no terminating 0: the output looks truncated".to_string(),
        }),
        _ => Ok(Answer::Sat(model)),
    }
}

fn set_status(
    status: &mut Option<(usize, Answer)>,
    line: usize,
    answer: Answer,
) -> Result<(), Error> {
    if let Some((first, _)) = status {
        return Err(Error::SolverOutput {
            line,
            message: format!("a second status line (the first is line {first})"),
        });
    }
    *status = Some((line, answer));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(text: &str) -> Result<Answer, Error> {
        read_answer(text.as_bytes())
    }

    fn model(values: &[bool]) -> Answer {
        Answer::Sat(
            std::iter::once(None)
                .chain(values.iter().map(|&v| Some(v)))
                .collect(),
        )
    }

    #[test]
    fn reads_competition_minisat_and_bare_formats() {
        let expected = model(&[true, false, true]);
        let competition = "c kissat\ns SATISFIABLE\nv 1 -2\nv 3 0\nc done\n";
        assert_eq!(answer(competition).unwrap(), expected);
        assert_eq!(answer("SAT\n1 -2 3 0\n").unwrap(), expected);
        assert_eq!(answer("1 -2 3 0").unwrap(), expected);
        assert_eq!(answer("s UNSATISFIABLE\n").unwrap(), Answer::Unsat);
        assert_eq!(answer("UNSAT\n").unwrap(), Answer::Unsat);
        assert_eq!(answer("s UNKNOWN\n").unwrap(), Answer::Unknown);
        assert_eq!(answer("INDET\n").unwrap(), Answer::Unknown);
    }

    #[test]
    fn the_comments_record_every_option() {
        // Every field away from its default, so a forgotten comment line shows.
        let board = "5x6"
            .parse::<Board>()
            .unwrap()
            .with_holes(&["c3", "e1"])
            .unwrap()
            .with_leaper(crate::board::Leaper::new(3, 2).unwrap());
        let defaults = Options::new(board.clone());
        let options = Options {
            board,
            closed: !defaults.closed,
            start: Some(7),
            end: Some(20),
            max_clause_len: Some(4),
            amo: crate::encode::Amo::Product,
            predecessor: !defaults.predecessor,
            parity: !defaults.parity,
            reachability: !defaults.reachability,
            symmetry_breaking: !defaults.symmetry_breaking,
            blocks: Some((2, 3)),
            clues: vec![(3, 9), (11, 2)],
        };
        let mut text = Vec::new();
        let stats = write_cnf(&options, &mut text).unwrap();
        let info = read_options(text.as_slice()).unwrap();
        assert_eq!(info.options, options);
        assert_eq!((info.vars, info.clauses), (stats.vars, stats.clauses));
    }

    #[test]
    fn rejects_malformed_or_truncated_output() {
        for (text, words) in [
            ("", "no answer"),
            ("c only comments\n", "no answer"),
            ("s SATISFIABLE\n", "no model"),
            ("s SATISFIABLE\nv 1 -2 3\n", "truncated"),
            ("SAT\n1 -2 x 0\n", "'x' is not a literal"),
            ("s SATISFIABLE\nv 1 -1 0\n", "both values"),
            ("s SATISFIABLE\ns SATISFIABLE\nv 1 0\n", "second status"),
            ("s MAYBE\n", "unknown status"),
            ("s SATISFIABLE\nv 1 0\nv 2 0\n", "after the model"),
            ("s UNSATISFIABLE\nv 1 0\n", "unsatisfiable"),
        ] {
            let message = answer(text).unwrap_err().to_string();
            assert!(message.contains(words), "{text:?}: {message}");
        }
    }
}
