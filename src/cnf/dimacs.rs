//! DIMACS clause lines out, and the readers for what SAT solvers print.

use std::io::{self, BufRead, Write};

use super::{ClauseSink, Lit, Var, VarCounter};
use crate::error::Error;

/// A sink that writes clauses as DIMACS lines (`1 -2 3 0`).
///
/// An I/O error is kept and reported by [`DimacsWriter::finish`]; clauses
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
    pub fn new(out: W) -> DimacsWriter<W> {
        DimacsWriter {
            out,
            vars: VarCounter::default(),
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
            ("" | "c", _) => continue,
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
