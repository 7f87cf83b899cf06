//! knightsat's CNF files: provenance comments, the exact `p cnf` header and
//! the clauses of an [`Encoding`]; and reading the comments back into the
//! problem and encoding configuration they record, so that `decode` needs
//! nothing but the file.

use crate::error::CnfError;
use std::io::{self, BufRead, Read, Write};
use std::path::Path;

use crate::cnf::dimacs::{bad_header, header_counts, DimacsWriter};
use crate::cnf::Stats;
use crate::cubes::Cube;
use crate::encoding::{Encoding, EncodingConfig};
use crate::error::{Error, Unsupported};
use crate::model::board::Board;
use crate::model::graph::Graph;
use crate::model::problem::{clue_list, parse_clue, Problem};
use crate::runtime::input::{shown, MAX_TEXT_BYTES};
use crate::runtime::output::{write_atomically, write_directory_atomically};

/// The first word of the first comment line of every CNF knightsat writes.
const SIGNATURE: &str = "c knightsat ";

/// The comment that names a standalone cube CNF's cube.
const CUBE: &str = "c cube ";

/// Counts the formula without storing it.
pub fn stats(encoding: &dyn Encoding) -> Stats {
    let mut stats = Stats::default();
    encoding.encode(&mut stats);
    stats
}

/// Writes the complete DIMACS file: provenance comments, the exact
/// `p cnf V C` header, then the clauses. Returns the counts.
///
/// The formula is encoded twice, once to count and once to write, so memory
/// stays bounded by the board and not by the formula's size.
///
/// Refuses an incomplete formula ([`Encoding::is_complete`]): its models
/// need not be tours, and a file of it would be a trap.
pub fn write_cnf(encoding: &dyn Encoding, out: impl Write) -> Result<Stats, Error> {
    write_formula(encoding, Extra::Nothing, out)
}

/// Something that hands every cube, in order, to a visitor, stopping at the
/// visitor's first error.
pub type EachCube<'a> =
    dyn Fn(&mut dyn FnMut(&Cube) -> Result<(), Error>) -> Result<(), Error> + 'a;

/// Cubes to write, handed out one at a time, so that any number of them
/// can be written without holding them (see
/// [`for_each_cube`](crate::for_each_cube)).
#[derive(Clone, Copy)]
pub struct CubeStream<'a> {
    /// How many cubes `each` hands out.
    pub count: usize,
    /// Their depth in moves.
    pub depth: usize,
    /// Hands every cube, in order, to the visitor, stopping at its first error.
    pub each: &'a EachCube<'a>,
}

impl CubeStream<'_> {
    /// Runs `visit` on each cube, checking that there are `count` of them.
    fn visit(&self, mut visit: impl FnMut(&Cube) -> Result<(), Error>) -> Result<(), Error> {
        let mut seen = 0;
        (self.each)(&mut |cube| {
            seen += 1;
            visit(cube)
        })?;
        assert_eq!(seen, self.count, "the cube walk is not deterministic");
        Ok(())
    }
}

/// What follows the formula.
#[derive(Clone, Copy)]
enum Extra<'a> {
    Nothing,
    /// iCNF cube lines.
    Cubes(CubeStream<'a>),
    /// One cube as unit clauses.
    Units(&'a Cube),
}

/// Writes a standalone CNF for one cube: the formula [`write_cnf`] writes
/// with the cube's literals as unit clauses after it, and a `c cube` comment
/// naming its squares, which [`read_cnf_info`] reads back.
pub(crate) fn write_cube_cnf(
    encoding: &dyn Encoding,
    cube: &Cube,
    out: impl Write,
) -> Result<Stats, Error> {
    write_formula(encoding, Extra::Units(cube), out)
}

/// `write_icnf` with the cubes handed out one at a time, never all held.
pub fn write_icnf_stream(
    encoding: &dyn Encoding,
    cubes: CubeStream,
    out: impl Write,
) -> Result<Stats, Error> {
    write_formula(encoding, Extra::Cubes(cubes), out)
}

/// `write_icnf_file` with the cubes handed out one at a time.
pub fn write_icnf_stream_file(
    encoding: &dyn Encoding,
    cubes: CubeStream,
    path: &Path,
) -> Result<Stats, Error> {
    write_atomically(path, |file| write_icnf_stream(encoding, cubes, file))
}

/// The manifest `cubes --split` writes beside the cube CNFs.
pub const MANIFEST: &str = "manifest.tsv";

/// `write_split` with the cubes handed out one at a time, never all
/// held; returns how many files were written besides the manifest.
pub fn write_split_stream(
    encoding: &dyn Encoding,
    cubes: CubeStream,
    dir: &Path,
) -> Result<usize, Error> {
    let board = encoding.problem().board();
    write_directory_atomically(dir, is_split_file, |built| {
        let io_error = |e| Error::io(format!("writing {}", dir.display()), e);
        let manifest = std::fs::File::create(built.join(MANIFEST)).map_err(io_error)?;
        let mut manifest = io::BufWriter::new(manifest);
        manifest.write_all(b"file\tsquares\n").map_err(io_error)?;
        let mut written = 0;
        cubes.visit(|cube| {
            written += 1;
            let name = cube_file_name(written);
            let file = std::fs::File::create(built.join(&name)).map_err(io_error)?;
            write_cube_cnf(encoding, cube, file)?;
            let squares: Vec<String> = cube.squares.iter().map(|&s| board.name(s)).collect();
            writeln!(manifest, "{name}\t{}", squares.join(" ")).map_err(io_error)
        })?;
        manifest
            .into_inner()
            .map_err(io::IntoInnerError::into_error)
            .and_then(|file| file.sync_all())
            .map_err(io_error)?;
        Ok(written)
    })
}

/// The name of the `number`th cube CNF of a split (from 1).
fn cube_file_name(number: usize) -> String {
    format!("cube-{number:06}.cnf")
}

/// Whether a split directory's entry is one a split writes: the manifest
/// or a cube CNF (what [`write_split`] may replace).
fn is_split_file(name: &str) -> bool {
    let cube_number = name
        .strip_prefix("cube-")
        .and_then(|rest| rest.strip_suffix(".cnf"));
    name == MANIFEST
        || cube_number.is_some_and(|n| n.len() >= 6 && n.bytes().all(|b| b.is_ascii_digit()))
}

fn write_formula(encoding: &dyn Encoding, extra: Extra, out: impl Write) -> Result<Stats, Error> {
    if !encoding.is_complete() {
        return Err(Error::Unsupported(Unsupported::LazyFormulaWritten));
    }
    let stats = stats(encoding);
    let io_error = |e| Error::io("writing the CNF", e);
    let mut out = io::BufWriter::with_capacity(1 << 16, out);
    write_comments(encoding, &stats, &mut out).map_err(io_error)?;
    match extra {
        Extra::Nothing => writeln!(out, "p cnf {} {}", stats.vars, stats.clauses),
        Extra::Units(cube) => {
            let board = encoding.problem().board();
            let names: Vec<String> = cube.squares.iter().map(|&s| board.name(s)).collect();
            writeln!(
                out,
                "{CUBE}{}\nc the cube: its squares after 0, 1, … moves, as unit clauses after the formula",
                names.join(" ")
            )
            .and_then(|()| {
                writeln!(
                    out,
                    "p cnf {} {}",
                    stats.vars,
                    stats.clauses + cube.literals.len()
                )
            })
        }
        Extra::Cubes(cubes) => writeln!(
            out,
            "c cubes {} of depth {}: the legal prefixes of the first {} moves, one `a` line each, disjoint and exhaustive",
            cubes.count, cubes.depth, cubes.depth
        )
        .and_then(|()| writeln!(out, "p inccnf")),
    }
    .map_err(io_error)?;
    let mut writer = DimacsWriter::new(out);
    encoding.encode(&mut writer);
    let (mut out, written) = writer.finish().map_err(io_error)?;
    assert_eq!(written, stats.clauses, "the encoder is not deterministic");
    let mut write_cube = |cube: &Cube, prefix: &str| {
        let mut line = String::new();
        for lit in cube.dimacs() {
            if prefix.is_empty() {
                line.push_str(itoa::Buffer::new().format(lit));
                line.push_str(" 0\n");
            } else {
                line.push_str(itoa::Buffer::new().format(lit));
                line.push(' ');
            }
        }
        if !prefix.is_empty() {
            line = format!("{prefix}{line}0\n");
        }
        out.write_all(line.as_bytes()).map_err(io_error)
    };
    match extra {
        Extra::Nothing => {}
        Extra::Cubes(cubes) => cubes.visit(|cube| write_cube(cube, "a "))?,
        Extra::Units(cube) => write_cube(cube, "")?,
    }
    out.flush().map_err(io_error)?;
    Ok(stats)
}

/// Writes the DIMACS file to `path`, complete or not at all (see
/// `write_atomically`).
pub fn write_cnf_file(encoding: &dyn Encoding, path: &Path) -> Result<Stats, Error> {
    write_atomically(path, |file| write_cnf(encoding, file))
}

fn none_or(values: &[String]) -> String {
    if values.is_empty() {
        "none".to_string()
    } else {
        values.join(",")
    }
}

/// The problem and the encoding's `settings` as `(key, value)` pairs, in
/// the order of the `c option` comments: enough to rebuild both with
/// [`problem_and_encoding`]. No value holds a space or a semicolon.
pub(crate) fn options(
    problem: &Problem,
    settings: Vec<(&'static str, String)>,
) -> Vec<(&'static str, String)> {
    let board = problem.board();
    let square = |square: Option<usize>| {
        none_or(
            &square
                .map(|s| board.name(s))
                .into_iter()
                .collect::<Vec<_>>(),
        )
    };
    let mut options = if let Some(graph) = board.graph() {
        // The whole graph, so that the file alone decodes: `U-V` an edge.
        let edges: Vec<String> = graph
            .edge_list()
            .iter()
            .map(|(u, v)| format!("{u}-{v}"))
            .collect();
        vec![
            ("graph", graph.vertices().to_string()),
            ("edges", none_or(&edges)),
        ]
    } else {
        let holes: Vec<String> = board.holes().iter().map(ToString::to_string).collect();
        vec![
            ("board", board.shape()),
            ("holes", none_or(&holes)),
            ("leaper", board.leaper().to_string()),
        ]
    };
    options.extend([
        ("closed", problem.is_closed().to_string()),
        ("start", square(problem.start())),
        ("end", square(problem.end())),
    ]);
    options.extend(settings);
    let clues = clue_list(board, problem.clues());
    options.push(("clues", none_or(&clues)));
    options
}

/// The comment lines: enough to rebuild problem and configuration with
/// [`read_cnf_info`].
fn write_comments(encoding: &dyn Encoding, stats: &Stats, out: &mut impl Write) -> io::Result<()> {
    let problem = encoding.problem();
    let board = problem.board();
    writeln!(
        out,
        "{SIGNATURE}{}: knight's tour, {} encoding",
        env!("CARGO_PKG_VERSION"),
        encoding.name()
    )?;
    for (key, value) in options(problem, encoding.settings()) {
        writeln!(out, "c option {key} {value}")?;
    }
    if problem.start_fixed_by_default() && encoding.keeps_the_default_start() {
        writeln!(
            out,
            "c note closed tour with no start, end or clue given: start fixed at {}, which loses no tour",
            board.name(0)
        )?;
    } else if problem.start_fixed_by_default() {
        writeln!(
            out,
            "c note closed tour with no start, end or clue given: any square of the first block starts it; decode turns the tour to start at {}",
            board.name(0)
        )?;
    }
    for line in encoding.describe_vars() {
        writeln!(out, "c {line}")?;
    }
    for family in &stats.families {
        writeln!(
            out,
            "c family {} clauses {} literals {} aux-vars {}",
            family.name, family.clauses, family.literals, family.aux_vars
        )?;
    }
    Ok(())
}

/// What a knightsat CNF's comments say: the problem, the encoding, and the
/// header's counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CnfInfo {
    /// The problem the CNF encodes.
    pub problem: Problem,
    /// The encoding it was written with.
    pub encoding: EncodingConfig,
    /// Variables declared by the `p cnf` header.
    pub vars: usize,
    /// Clauses declared by the `p cnf` header.
    pub clauses: usize,
    /// The cube of a standalone cube CNF (`cubes --split`): the squares after
    /// 0, 1, … moves that its unit clauses fix.
    pub cube: Option<Vec<usize>>,
}

/// Reads problem and configuration back from a CNF's comments, stopping at
/// the header.
pub fn read_cnf_info(mut input: impl BufRead) -> Result<CnfInfo, Error> {
    let not_ours = || {
        Error::Cnf(CnfError::NotKnightsatCnf(
            "not a knightsat CNF: the comment lines that record board and options are missing"
                .to_string(),
        ))
    };
    let first = next_line(&mut input)?.ok_or_else(not_ours)?;
    if !first.starts_with(SIGNATURE) {
        return Err(not_ours());
    }
    let mut values: Vec<(String, String)> = Vec::new();
    let mut cube_names: Option<String> = None;
    while let Some(line) = next_line(&mut input)? {
        if let Some(rest) = line.strip_prefix(CUBE) {
            cube_names = Some(rest.to_string());
        } else if let Some(rest) = line.strip_prefix("c option ") {
            let (key, value) = rest.split_once(' ').ok_or_else(not_ours)?;
            values.push((key.to_string(), value.to_string()));
        } else if let Some(header) = line.strip_prefix("p cnf ") {
            let (problem, encoding) = problem_and_encoding(&values)?.ok_or_else(not_ours)?;
            let bad_header = || Error::Cnf(CnfError::NotKnightsatCnf(bad_header(&line)));
            let (vars, clauses) = header_counts(header).ok_or_else(bad_header)?;
            if vars > MAX_VARS {
                return Err(bad_header());
            }
            encoding.check(&problem)?;
            let cube = cube_names
                .map(|names| {
                    names
                        .split_whitespace()
                        .map(|name| problem.board().parse_square(name))
                        .collect::<Result<Vec<usize>, _>>()
                        .map_err(|_| {
                            Error::Cnf(CnfError::NotKnightsatCnf(format!(
                                "bad cube comment 'c cube {}'",
                                shown(&names)
                            )))
                        })
                })
                .transpose()?;
            return Ok(CnfInfo {
                problem,
                encoding,
                vars,
                clauses,
                cube,
            });
        } else if line.starts_with("p inccnf") {
            // `cubes -o` writes its comments above an iCNF header: a formula
            // with many cubes, which no single model answers.
            return Err(Error::Cnf(CnfError::NotKnightsatCnf(
                "an iCNF (p inccnf, as cubes -o writes it) holds many cubes, which no single model answers: give a cube's CNF of cubes --split, or the CNF of encode".to_string(),
            )));
        } else if line.starts_with('p') {
            return Err(Error::Cnf(CnfError::NotKnightsatCnf(bad_header(&line))));
        } else if !line.starts_with('c') {
            break;
        }
    }
    Err(not_ours())
}

/// Checks that the clauses of a knightsat CNF, read from `clauses` (the
/// rest of the file after [`read_cnf_info`] read its comments), are the
/// ones knightsat writes for the problem and encoding its comments
/// describe (and, for a cube's CNF, its cube's unit clauses), under a
/// header with their exact counts: a clause added, removed or changed, or
/// a comment edited to describe another problem, is refused with
/// [`CnfError::ClausesNotAsWritten`]. Counting from the comments is sound only
/// then.
///
/// The formula is encoded again into a sink that keeps one hash per
/// clause, and the file's clauses are read one at a time against them:
/// memory is 8 bytes a clause, not the formula.
pub(crate) fn check_clauses_as_written(info: &CnfInfo, clauses: impl BufRead) -> Result<(), Error> {
    let encoding = info.encoding.prepare(&info.problem)?;
    let mut expected = ClauseHashes::default();
    encoding.encode(&mut expected);
    let vars = expected.vars.count();
    let mut hashes = expected.hashes;
    if let Some(squares) = &info.cube {
        let cube = crate::cubes::cube_of(&info.problem, &info.encoding, squares)?;
        hashes.extend(cube.dimacs().iter().map(|&lit| clause_hash([lit as i64])));
    }
    let differs = |clause: Option<usize>| CnfError::ClausesNotAsWritten { clause };
    if (info.vars, info.clauses) != (vars, hashes.len()) {
        return Err(CnfError::HeaderNotAsWritten {
            declared: (info.vars, info.clauses),
            written: (vars, hashes.len()),
        }
        .into());
    }
    let mut number = 0;
    let found = crate::cnf::dimacs::for_each_clause(clauses, true, |clause| {
        number += 1;
        let hash = clause_hash(clause.iter().map(|&lit| i64::from(lit)));
        if hashes.get(number - 1) != Some(&hash) {
            return Err(differs(Some(number)));
        }
        Ok(())
    })?;
    if found != hashes.len() {
        return Err(differs(None).into());
    }
    Ok(())
}

/// The hash of a clause's literals, in order.
fn clause_hash(literals: impl IntoIterator<Item = i64>) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::hash::DefaultHasher::new();
    for literal in literals {
        literal.hash(&mut hasher);
    }
    hasher.finish()
}

/// A sink that keeps the hash of each clause, in order, and numbers
/// variables as every sink does.
#[derive(Default)]
struct ClauseHashes {
    hashes: Vec<u64>,
    vars: crate::cnf::VarCounter,
}

impl crate::cnf::ClauseSink for ClauseHashes {
    fn add_clause(&mut self, clause: &[crate::cnf::Lit]) {
        self.hashes
            .push(clause_hash(clause.iter().map(|lit| lit.to_dimacs() as i64)));
    }

    fn new_var(&mut self) -> crate::cnf::Var {
        self.vars.fresh()
    }

    fn reserve_vars(&mut self, count: usize) {
        self.vars.reserve(count);
    }

    fn var_count(&self) -> usize {
        self.vars.count()
    }
}

/// The most variables a CNF header may declare: varisat's limit, and far
/// beyond what any knightsat encoding numbers.
const MAX_VARS: usize = 1 << 28;

/// The next line without its line ending, read with bounded memory: a
/// comment line longer than [`MAX_TEXT_BYTES`] is no knightsat comment.
fn next_line(input: &mut impl BufRead) -> Result<Option<String>, Error> {
    let mut line = Vec::new();
    input
        .by_ref()
        .take(MAX_TEXT_BYTES + 1)
        .read_until(b'\n', &mut line)
        .map_err(|e| Error::io("reading the CNF", e))?;
    if line.is_empty() {
        return Ok(None);
    }
    if line.len() as u64 > MAX_TEXT_BYTES {
        return Err(Error::Cnf(CnfError::NotKnightsatCnf(
            "not a knightsat CNF: a line before the header is longer than any comment it writes"
                .to_string(),
        )));
    }
    while line.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
        line.pop();
    }
    Ok(Some(String::from_utf8_lossy(&line).into_owned()))
}

/// The graph that `c option graph N` and `c option edges U-V,…` record,
/// or `None` where they do not read as one.
fn graph_of_comments(vertices: &str, edges: &str) -> Option<Board> {
    let vertices: usize = vertices.parse().ok()?;
    let edges: Vec<(usize, usize)> = if edges == "none" {
        Vec::new()
    } else {
        edges
            .split(',')
            .map(|edge| {
                let (u, v) = edge.split_once('-')?;
                Some((u.parse().ok()?, v.parse().ok()?))
            })
            .collect::<Option<_>>()?
    };
    Graph::new(vertices, &edges).ok().map(Board::from_graph)
}

/// The problem and configuration the `c option` lines record, or `None`
/// when they name no board.
pub(crate) fn problem_and_encoding(
    values: &[(String, String)],
) -> Result<Option<(Problem, EncodingConfig)>, Error> {
    let value = |key: &str| {
        values
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };
    let unreadable = |key: &str, value: &str| {
        Error::Cnf(CnfError::NotKnightsatCnf(format!(
            "unreadable option in CNF comments: {} {}",
            shown(key),
            shown(value)
        )))
    };
    let board = if let Some(vertices) = value("graph") {
        let edges = value("edges").unwrap_or("none");
        graph_of_comments(vertices, edges).ok_or_else(|| unreadable("edges", edges))?
    } else {
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
        board
    };
    let square = |value: &str| -> Result<Option<usize>, Error> {
        match value {
            "none" => Ok(None),
            name => Ok(Some(board.parse_square(name)?)),
        }
    };
    let mut problem = Problem::new(board.clone());
    let mut encoding = EncodingConfig::before_any_setting();
    for (key, value) in values {
        match key.as_str() {
            "board" | "holes" | "leaper" | "graph" | "edges" => {}
            "closed" => {
                let closed = value.parse().map_err(|_| unreadable(key, value))?;
                problem = problem.closed(closed);
            }
            "start" => problem = problem.with_start(square(value)?)?,
            "end" => problem = problem.with_end(square(value)?)?,
            "clues" if value == "none" => problem = problem.without_clues(),
            "clues" => {
                let clues = value
                    .split(',')
                    .map(|clue| parse_clue(&board, clue))
                    .collect::<Result<Vec<_>, _>>()?;
                problem = problem.without_clues().with_clues(clues)?;
            }
            _ => {
                if !encoding.read_setting(key, value)? {
                    return Err(unreadable(key, value));
                }
            }
        }
    }
    Ok(Some((problem, encoding)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::{Amo, TimeIndexedConfig};
    use crate::model::board::Leaper;
    use crate::model::problem::Clue;

    #[test]
    fn the_comments_record_the_problem_and_every_setting() {
        // The problem away from its defaults, so a forgotten comment line shows.
        let board = "5x6"
            .parse::<Board>()
            .unwrap()
            .with_holes(&["c3", "e1"])
            .unwrap()
            .with_leaper(Leaper::new(3, 2).unwrap());
        let problem = Problem::new(board)
            .closed(true)
            .with_start(Some(7))
            .unwrap()
            .with_end(Some(20))
            .unwrap()
            .with_clues([
                Clue { step: 3, square: 9 },
                Clue {
                    step: 11,
                    square: 2,
                },
            ])
            .unwrap();
        // Every switch reads back what it writes (the config module's own
        // test); here they travel with the problem through a whole file.
        let config = EncodingConfig::from(TimeIndexedConfig {
            max_clause_len: Some(4),
            amo: Amo::Product,
            blocks: Some((2, 3)),
            ..TimeIndexedConfig::naive()
        });
        let encoding = config.prepare(&problem).unwrap();
        let mut text = Vec::new();
        let stats = write_cnf(&*encoding, &mut text).unwrap();
        let info = read_cnf_info(text.as_slice()).unwrap();
        assert_eq!((info.problem, info.encoding), (problem, config));
        assert_eq!((info.vars, info.clauses), (stats.vars, stats.clauses));
    }
}
