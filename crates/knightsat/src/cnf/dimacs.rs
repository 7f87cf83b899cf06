//! DIMACS clause lines out, and the readers for what SAT solvers print.

use crate::cnf::CnfError;
use crate::runtime::RunError;
use std::io::{self, BufRead, Read, Write};

use super::{ClauseSink, Lit, Var, VarCounter};

use crate::runtime::input::shown;

/// A sink that writes clauses as DIMACS lines (`1 -2 3 0`).
///
/// An I/O error is kept and reported by `DimacsWriter::finish`; clauses
/// after it are dropped.
pub struct DimacsWriter<W: Write> {
    out: W,
    vars: VarCounter,
    clauses: usize,
    line: Vec<u8>,
    error: Option<io::Error>,
}

impl<W: Write> DimacsWriter<W> {
    /// A writer of clause lines onto `out` (no header: see
    /// [`write_cnf`](crate::cnf_file::write_cnf)).
    pub(crate) fn new(out: W) -> DimacsWriter<W> {
        DimacsWriter {
            out,
            vars: VarCounter::default(),
            clauses: 0,
            line: Vec::with_capacity(128),
            error: None,
        }
    }

    /// Flushes and returns the output and the number of clauses written.
    pub(crate) fn finish(mut self) -> io::Result<(W, usize)> {
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

    fn new_var(&mut self) -> Var {
        self.vars.fresh()
    }

    fn reserve_vars(&mut self, count: usize) {
        self.vars.reserve(count);
    }

    fn var_count(&self) -> usize {
        self.vars.count()
    }
}

/// What a solver answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Satisfiable, with the model: `model[v]` is the value of variable v
    /// (index 0 unused), `None` where the solver did not say.
    Sat(Vec<Option<bool>>),
    /// Unsatisfiable.
    Unsat,
    /// The solver gave up (`s UNKNOWN`, `MiniSat`'s `INDET`).
    Unknown,
}

/// Reads a solver's output: SAT-competition format (`s SATISFIABLE` and `v …
/// 0` lines, comment lines `c …`), `MiniSat`'s result file (`SAT` then one line
/// of literals), or a bare list of literals ending in 0.
///
/// The output is read token by token, so memory stays bounded by the model
/// whatever the solver prints: a literal beyond the CNF's `declared_vars`
/// variables is an error, and so is any token too long to be a literal.
pub fn read_answer(input: impl BufRead, declared_vars: usize) -> Result<Answer, CnfError> {
    let mut tokens = Tokens::new(input);
    let mut status: Option<(usize, Answer)> = None;
    let mut model: Vec<Option<bool>> = vec![None];
    let mut saw_literals = false;
    let mut terminated = false;
    while let Some(token) = tokens.next()? {
        let line = token.line;
        let error = |message: String| CnfError::SolverOutput { line, message };
        if token.first {
            let answer = match token.text.as_str() {
                "c" => {
                    tokens.skip_line()?;
                    continue;
                }
                "s" => match tokens.rest_of_line()?.as_str() {
                    "SATISFIABLE" => Some(Answer::Sat(Vec::new())),
                    "UNSATISFIABLE" => Some(Answer::Unsat),
                    "UNKNOWN" | "INDETERMINATE" => Some(Answer::Unknown),
                    other => {
                        return Err(error(format!("unknown status '{}'", shown(other))));
                    }
                },
                word @ ("SAT" | "UNSAT" | "INDET") if tokens.at_line_end()? => Some(match word {
                    "SAT" => Answer::Sat(Vec::new()),
                    "UNSAT" => Answer::Unsat,
                    _ => Answer::Unknown,
                }),
                "v" => {
                    continue;
                }
                _ => None,
            };
            if let Some(answer) = answer {
                set_status(&mut status, line, answer)?;
                continue;
            }
        }
        if terminated {
            return Err(error(
                "literals after the model's terminating 0".to_string(),
            ));
        }
        let Ok(lit) = token.text.parse::<i64>() else {
            let why = format!("'{}' is not a literal", shown(&token.text));
            if token.text == "-" {
                return Err(wrong_last_literal(&mut tokens, &token, why));
            }
            return Err(error(why));
        };
        saw_literals = true;
        if lit == 0 {
            terminated = true;
            continue;
        }
        let var = lit.unsigned_abs();
        if var > declared_vars as u64 {
            return Err(error(format!(
                "literal {lit} names variable {var}, but the CNF has only {declared_vars}: is the output for another CNF?"
            )));
        }
        let var = var as usize;
        if var >= model.len() {
            model.resize(var + 1, None);
        }
        let value = lit > 0;
        if model[var] == Some(!value) {
            let why = format!("variable {var} is given both values");
            return Err(wrong_last_literal(&mut tokens, &token, why));
        }
        model[var] = Some(value);
    }
    let read = ReadModel {
        model,
        saw_literals,
        terminated,
    };
    answer_of(status.as_ref(), read, tokens.line)
}

/// What a solver's output held once read: the values given (by variable
/// number, from 1), whether any literal was, and whether a 0 ended them.
struct ReadModel {
    model: Vec<Option<bool>>,
    saw_literals: bool,
    terminated: bool,
}

/// The answer a solver's output gives: its `status` (and the line it was
/// on) with what `read` holds, or why they do not make one (`last_line`:
/// the output's last line).
fn answer_of(
    status: Option<&(usize, Answer)>,
    read: ReadModel,
    last_line: usize,
) -> Result<Answer, CnfError> {
    let ReadModel {
        model,
        saw_literals,
        terminated,
    } = read;
    match status {
        Some((_, Answer::Unsat)) if saw_literals => Err(CnfError::SolverOutput {
            line: last_line,
            message: "literals given for an unsatisfiable answer".to_string(),
        }),
        Some((_, Answer::Unsat)) => Ok(Answer::Unsat),
        Some((_, Answer::Unknown)) => Ok(Answer::Unknown),
        Some(&(line, Answer::Sat(_))) if !saw_literals => Err(CnfError::SolverOutput {
            line,
            message: "satisfiable, but no model follows (run the solver without -n / quiet model options)"
                .to_string(),
        }),
        None if !saw_literals => Err(CnfError::SolverOutput {
            line: last_line,
            message: "no answer: neither a status line (s SATISFIABLE, SAT, UNSAT) nor a model"
                .to_string(),
        }),
        _ if !terminated => Err(CnfError::SolverOutput {
            line: last_line,
            message: "the model has no terminating 0: the output looks truncated".to_string(),
        }),
        _ => Ok(Answer::Sat(model)),
    }
}

/// The error for `token`, a literal that is wrong for the reason `why`
/// (a lone `-`, or one contradicting an earlier literal): a solver's
/// output cut in the middle of its last literal ("-1" of "-12") reads
/// so, and when nothing follows it, the output was cut short, which is
/// what the error says.
fn wrong_last_literal(tokens: &mut Tokens<impl BufRead>, token: &Token, why: String) -> CnfError {
    let message = match tokens.next() {
        Err(error) => return error,
        Ok(Some(_)) => why,
        Ok(None) => format!(
            "the output ends at '{}', with no terminating 0: it was cut short",
            shown(&token.text)
        ),
    };
    CnfError::SolverOutput {
        line: token.line,
        message,
    }
}

/// The longest line of clauses read: far beyond any clause knightsat writes.
const MAX_CLAUSE_LINE: u64 = 64 << 20;

/// The variable and clause counts of a DIMACS header, given what follows
/// `p cnf `: `None` unless it is two whole numbers one space apart and
/// nothing else, as `kissat --strict` reads a header.
pub(crate) fn header_counts(words: &str) -> Option<(usize, usize)> {
    let count = |digits: &str| {
        (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
            .then(|| digits.parse::<usize>().ok())
            .flatten()
    };
    let (vars, clauses) = words.split_once(' ')?;
    Some((count(vars)?, count(clauses)?))
}

/// Why a header line `line` (without its line ending) is not `p cnf VARS
/// CLAUSES` as `kissat --strict` reads it, for a message.
pub(crate) fn bad_header(line: &str) -> String {
    format!(
        "bad header '{}': a header is 'p cnf VARS CLAUSES', single spaces and nothing after, as kissat --strict reads it",
        shown(line)
    )
}

/// Reads the clauses of a DIMACS CNF, calling `on_clause` with each (its
/// literals as DIMACS numbers, without the terminating 0), and returns how
/// many there were. Comment lines (`c …`) are skipped wherever they are;
/// the `p cnf` header is skipped where `header_read` says it is still to
/// come, and a header after it (a second one, anywhere) is refused, as
/// `kissat --strict` refuses it. The reader may so start anywhere before
/// the first clause: after [`read_cnf_info`](crate::cnf_file::read_cnf_info)
/// read the header (`header_read`), or at the file's start. A clause may
/// span lines; `%` ends the formula (an old SATLIB convention). Memory
/// stays bounded by the longest line.
pub(crate) fn for_each_clause(
    mut input: impl BufRead,
    header_read: bool,
    mut on_clause: impl FnMut(&[i32]) -> Result<(), CnfError>,
) -> Result<usize, CnfError> {
    let bad = |message: String| CnfError::BadCnf(message);
    let mut line = Vec::new();
    let mut clause: Vec<i32> = Vec::new();
    let mut clauses = 0;
    let mut header_seen = header_read;
    loop {
        line.clear();
        (&mut input)
            .take(MAX_CLAUSE_LINE + 1)
            .read_until(b'\n', &mut line)
            .map_err(|e| CnfError::from(RunError::io("reading the CNF", e)))?;
        if line.is_empty() {
            break;
        }
        if line.len() as u64 > MAX_CLAUSE_LINE {
            return Err(bad(format!(
                "a line of clauses is longer than {} MiB",
                MAX_CLAUSE_LINE >> 20
            )));
        }
        let text = String::from_utf8_lossy(&line);
        match text.trim_start().bytes().next() {
            Some(b'p') if header_seen => {
                return Err(bad(format!(
                "a second header '{}' after clause {clauses}: a CNF has one, before its clauses",
                shown(text.trim_end())
            )))
            }
            Some(b'p') => {
                header_seen = true;
                continue;
            }
            Some(b'c') | None => continue,
            Some(b'%') => break,
            Some(_) => {}
        }
        for word in text.split_ascii_whitespace() {
            let literal: i32 = word
                .parse()
                .ok()
                .filter(|l: &i32| l.unsigned_abs() < 1 << 28)
                .ok_or_else(|| bad(format!("'{}' in a clause is not a literal", shown(word))))?;
            if literal == 0 {
                on_clause(&clause)?;
                clauses += 1;
                clause.clear();
            } else {
                clause.push(literal);
            }
        }
    }
    if !clause.is_empty() {
        return Err(bad(
            "the last clause has no terminating 0: the CNF looks truncated".to_string(),
        ));
    }
    Ok(clauses)
}

/// The longest token kept whole: longer than any literal or status word.
const MAX_TOKEN: usize = 64;

/// One white-space separated word of solver output.
struct Token {
    /// Its one-based line.
    line: usize,
    /// Whether it is the first word on its line.
    first: bool,
    /// The word, cut at [`MAX_TOKEN`] bytes (then one more byte, so it
    /// cannot read as a literal).
    text: String,
}

/// Solver output as words, read a buffer at a time.
struct Tokens<R> {
    input: R,
    /// The line of the next byte.
    line: usize,
    /// Whether no word has been read on the current line yet.
    line_start: bool,
}

impl<R: BufRead> Tokens<R> {
    fn new(input: R) -> Self {
        Tokens {
            input,
            line: 1,
            line_start: true,
        }
    }

    fn io(error: io::Error) -> CnfError {
        CnfError::from(RunError::io("reading the solver output", error))
    }

    /// The next byte without consuming it.
    fn peek(&mut self) -> Result<Option<u8>, CnfError> {
        loop {
            match self.input.fill_buf() {
                Ok(buffer) => return Ok(buffer.first().copied()),
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => return Err(Self::io(error)),
            }
        }
    }

    fn bump(&mut self, byte: u8) {
        self.input.consume(1);
        if byte == b'\n' {
            self.line += 1;
            self.line_start = true;
        }
    }

    /// Skips blanks on the current line; whether the line (or input) ends there.
    fn at_line_end(&mut self) -> Result<bool, CnfError> {
        while let Some(byte) = self.peek()? {
            match byte {
                b'\n' => return Ok(true),
                b' ' | b'\t' | b'\r' => self.bump(byte),
                _ => return Ok(false),
            }
        }
        Ok(true)
    }

    fn next(&mut self) -> Result<Option<Token>, CnfError> {
        while let Some(byte) = self.peek()? {
            if !byte.is_ascii_whitespace() {
                break;
            }
            self.bump(byte);
        }
        if self.peek()?.is_none() {
            return Ok(None);
        }
        let (line, first) = (self.line, self.line_start);
        self.line_start = false;
        let mut text = Vec::new();
        while let Some(byte) = self.peek()? {
            if byte.is_ascii_whitespace() {
                break;
            }
            if text.len() <= MAX_TOKEN {
                text.push(byte);
            }
            self.bump(byte);
        }
        Ok(Some(Token {
            line,
            first,
            text: String::from_utf8_lossy(&text).into_owned(),
        }))
    }

    /// The rest of the current line's words, joined by single spaces (at
    /// most a few: a status line has one).
    fn rest_of_line(&mut self) -> Result<String, CnfError> {
        let mut words = Vec::new();
        while !self.at_line_end()? {
            let token = self.next()?.expect("a word follows");
            if words.len() < 4 {
                words.push(token.text);
            }
        }
        Ok(words.join(" "))
    }

    /// Skips to the end of the current line.
    fn skip_line(&mut self) -> Result<(), CnfError> {
        while let Some(byte) = self.peek()? {
            if byte == b'\n' {
                return Ok(());
            }
            self.bump(byte);
        }
        Ok(())
    }
}

fn set_status(
    status: &mut Option<(usize, Answer)>,
    line: usize,
    answer: Answer,
) -> Result<(), CnfError> {
    if let Some((first, _)) = status {
        return Err(CnfError::SolverOutput {
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

    fn answer(text: &str) -> Result<Answer, CnfError> {
        read_answer(text.as_bytes(), 3)
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
            ("s SATISFIABLE\nv 1 1000000000000 0\n", "only 3"),
            ("s SATISFIABLE\nv 1 -9223372036854775808 0\n", "only 3"),
            ("SAT\n1 99999999999999999999999 0\n", "not a literal"),
            ("s SATISFIABLE\nv 1 -4 0\n", "only 3"),
            // Cut inside a literal: "-12" to "-1", "-2" to "-".
            ("s SATISFIABLE\nv 1 2 -1", "cut short"),
            ("s SATISFIABLE\nv 1 2 -1\n", "cut short"),
            ("s SATISFIABLE\nv 1 2 -", "cut short"),
            ("s SATISFIABLE\nv 1 -1 3", "both values"),
        ] {
            let message = answer(text).unwrap_err().to_string();
            assert!(message.contains(words), "{text:?}: {message}");
        }
    }
}
